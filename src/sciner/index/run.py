"""``sciner index`` as a function: inputs -> tagged papers -> rows -> the index, paper by paper.

An input already in the index with the same content hash is skipped without being read; a
changed one has its papers replaced; a file indexed in part (a killed run) goes on with the
papers not yet in. Inputs are read as ``sciner summarize`` reads them (tagged inputs as they
are, the others tagged with the model, loaded once and only when needed).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sciner.errors import InputNotFoundError, ScinerError
from sciner.index.schema import connect
from sciner.index.write import IndexWriter, content_hash, paper_rows


@dataclass
class IndexRun:
    """What :func:`index_files` did: papers added, files skipped as unchanged, files pruned,
    inputs that failed, and the index written."""

    path: Path
    files: int = 0
    added: int = 0
    unchanged: int = 0
    pruned: list[str] = field(default_factory=list)
    failed: list[ScinerError] = field(default_factory=list)

    def describe(self) -> str:
        line = f"indexed {self.added} paper(s) from {self.files - self.unchanged} file(s) into {self.path}"
        if self.unchanged:
            line += f"; {self.unchanged} file(s) unchanged"
        if self.pruned:
            line += f"; pruned {len(self.pruned)} file(s) that are gone"
        return line


class _LazyTagger:
    """The model, loaded on the first paper that needs tags."""

    def __init__(self, options: dict[str, Any]) -> None:
        self.options = options
        self.tagger: Any = None

    def tag(self, read: list[tuple[Path, list[Any]]]) -> list[tuple[Path, list[Any]]]:
        from sciner.inference.files import tag_read
        from sciner.model.batching import BATCH_SUBWORDS

        if self.tagger is None:
            import torch

            from sciner.inference.tagger import Tagger

            torch.set_num_threads(self.options["threads"])
            self.tagger = Tagger.load(self.options["model"], precision=self.options["precision"],
                                      device=self.options["device"])
        return tag_read(self.tagger, read, batch_subwords=self.options["batch_subwords"] or BATCH_SUBWORDS,
                        show_progress=False)

    @property
    def name(self) -> str:
        path = getattr(self.tagger, "path", None)
        return str(path) if path else "shipped"


def index_files(
    inputs: Sequence[str | Path],
    output: str | Path,
    *,
    from_format: str | None = None,
    tokenize: bool = False,
    include: Sequence[str] = (),
    model: str | Path | None = None,
    precision: str = "auto",
    device: str = "auto",
    threads: int = 2,
    batch_subwords: int | None = None,
    data: str | Path | None = None,
    gazetteers: bool = True,
    prune: bool = False,
    show_progress: bool = True,
    on_error: Callable[[ScinerError], object] | None = None,
) -> IndexRun:
    """Index papers (``sciner index``) into the SQLite file ``output``, created if missing:
    each input (anything ``sciner summarize`` reads) as one or more papers, each written in one
    transaction with its paragraphs, mentions, entities, values and results. Unchanged inputs
    (by content hash) are skipped; ``prune`` removes the papers of files that are gone. An
    input that cannot be read goes to ``on_error`` (and the result's ``failed``)."""
    from tqdm import tqdm

    from sciner.formats.registry import READ_FORMATS, reading_format
    from sciner.inference.files import expand_each, reporter, status_line
    from sciner.outputs import Outputs
    from sciner.pdf import check_include
    from sciner.summary.files import gazetteer_folder
    from sciner.summary.names import Gazetteer
    from sciner.summary.papers import read_papers

    done = IndexRun(Path(output))
    report = reporter(done.failed, on_error)
    read_format = reading_format(from_format)
    include = check_include(include)
    paths = expand_each(inputs, report, formats=READ_FORMATS, notes=status_line(show_progress))
    if any(str(p) == "-" for p in paths):
        report(InputNotFoundError("-: sciner index reads files (it keeps each one's path and content hash), "
                                  "not standard input"))
        paths = [p for p in paths if str(p) != "-"]
    Outputs(paths).check(output)
    gazetteer = Gazetteer(gazetteer_folder(data)) if gazetteers else Gazetteer.empty()
    tagger = _LazyTagger({"model": model, "precision": precision, "device": device, "threads": threads,
                          "batch_subwords": batch_subwords})
    con = connect(output, create=True)
    try:
        writer = IndexWriter(con, output)
        for path in tqdm(paths, desc="indexing", unit="file", disable=not show_progress, file=sys.stderr):
            done.files += 1
            try:
                added = _index_file(writer, path, read_format, tokenize, include, tagger, gazetteer, read_papers)
            except ScinerError as err:
                if err.code in ("E010",):  # the index itself failed (locked, disk full): stop here
                    raise
                report(err)
            except OSError as err:
                report(InputNotFoundError(f"{path}: cannot be read ({err.strerror or type(err).__name__})"))
            else:
                done.added += added or 0
                done.unchanged += added is None
        if prune:
            done.pruned = writer.prune(keep={p.resolve() for p in paths})
    finally:
        con.close()
    return done


def _index_file(writer: IndexWriter, path: Path, read_format: str | None, tokenize: bool, include: Sequence[str],
                tagger: _LazyTagger, gazetteer: Any, read_papers: Callable[..., list[Any]]) -> int | None:
    """Index one input file; the number of papers added (None: the file is in, unchanged)."""
    resolved = path.resolve()
    sha = content_hash(resolved)
    if writer.is_current(resolved, sha):
        return None
    papers = read_papers(path, read_format, tokenize=tokenize, include=include)
    file = writer.open_file(resolved, sha, resolved.stat().st_size)
    todo = [paper for paper in papers if paper.doc not in file.papers]
    untagged = [paper for paper in todo if not paper.tagged]
    if untagged:
        for paper, (_, tagged) in zip(untagged, tagger.tag([(path, paper.paragraphs) for paper in untagged])):
            paper.paragraphs, paper.tagged = tagged, True
    by_model = {id(paper) for paper in untagged}
    for paper in todo:
        model = tagger.name if id(paper) in by_model else "input"
        writer.add_paper(file, paper_rows(paper.doc, paper.paragraphs, gazetteer, model))
    writer.close_file(file)
    return len(todo)
