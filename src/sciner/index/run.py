"""``sciner index`` as a function: a step of the one layer that runs a verb over files
(:mod:`sciner.files`): inputs -> tagged papers -> rows -> the index, paper by paper.

An input already in the index with the same content hash is skipped without being read; a
changed one has its papers replaced; a file indexed in part (a killed run) goes on with the
papers not yet in. Inputs are read as ``sciner summarize`` reads them (tagged inputs as they
are, the others tagged with the model, loaded once, in this process, and only when a chunk
needs it), a chunk of whole papers at a time; this process is the index's one writer.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from sciner.errors import InputNotFoundError, ScinerError
from sciner.files.inputs import Reading
from sciner.files.run import Engine, Input, Step, run_files
from sciner.index.schema import connect
from sciner.index.write import IndexWriter, content_hash, paper_rows, reading_options


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


@dataclass(frozen=True)
class TaggedReading:
    """Reads one input as ``summarize`` does: a tagged input keeps its tags (each paragraph's
    ``doc`` naming its paper), anything else is read as predict reads it (no tags). An input
    the workers tagged (``cached``: input -> its tagged JSONL) is read from its tagged copy."""

    reading: Reading
    cached: tuple[tuple[str, str], ...] = ()

    def __call__(self, path: Path) -> list[Any]:
        from sciner.summary.papers import read_papers

        copy = dict(self.cached).get(str(path))
        if copy is not None:
            papers = read_papers(Path(copy), "jsonl")
        else:
            papers = read_papers(path, self.reading.format, tokenize=self.reading.tokenize,
                                 include=self.reading.include)
        for paper in papers:
            for p in paper.paragraphs:
                p.meta["doc"] = paper.doc
        return [p for paper in papers for p in paper.paragraphs]


class _Writing:
    """An indexing step's state: the index's writer, and the tagging step's (lazy) model."""

    def __init__(self, step: "Indexing") -> None:
        from sciner.summary.names import Gazetteer

        self.step = step
        self.writer = IndexWriter(connect(step.db, create=True), step.db)
        self.gazetteer = Gazetteer(step.gazetteer_dir) if step.gazetteers else Gazetteer.empty()
        self.hashes = dict(step.hashes)
        self.tagger = step.tagging.load()  # a LazyTagger: the model is loaded when an input needs it
        self.added = 0

    @property
    def model(self) -> str:
        return self.step.tagging.model or "shipped"


@dataclass(frozen=True)
class Indexing(Step):
    """index's step: tag the inputs that have no tags (``tagging``, summarize's step with
    ``keep_tagged``), then write each paper of each input into the index ``db`` in its own
    transaction."""

    working: ClassVar[tuple[str, str] | None] = ("indexing", "tok")
    did: ClassVar[str] = "indexed"

    db: str = ""
    tagging: Any = None  # a sciner.inference.predict.Tagging with keep_tagged (tags what carries no tags)
    gazetteers: bool = True  # canonical names (False: the papers' own spellings)
    gazetteer_dir: str | None = None  # a user's gazetteer folder adding to the shipped names
    tagged_by_workers: frozenset[str] = frozenset()  # inputs the --workers tagged with ``tagging``'s model
    options: str = ""  # the reading options mixed into each file's hash (reading_options)
    hashes: tuple[tuple[str, str], ...] = ()  # resolved input -> the content hash it was chosen by

    def load(self) -> _Writing:
        return _Writing(self)

    def run(self, state: _Writing, inputs: list[Input], progress: Callable[[int], object]) -> list[Input]:
        from sciner.files.inputs import is_tagged
        from sciner.summary.papers import split_documents

        untagged = {k for k, (_, ps) in enumerate(inputs) if not is_tagged(ps)}
        done = self.tagging.run(state.tagger, inputs, progress)
        for k, (path, paragraphs) in enumerate(done):
            resolved = Path(path).resolve()
            sha = state.hashes.get(str(resolved)) or content_hash(resolved, self.options)
            file = state.writer.open_file(resolved, sha, resolved.stat().st_size)
            model = state.model if k in untagged or str(path) in self.tagged_by_workers else "input"
            for doc, ps in split_documents(paragraphs, Path(str(path)).stem):
                if doc not in file.papers:
                    state.writer.add_paper(file, paper_rows(doc, ps, state.gazetteer, model))
                    state.added += 1
            state.writer.close_file(file)
        return done


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
    workers: int | None = None,
    ray_address: str | None = None,
    show_progress: bool = True,
    on_error: Callable[[ScinerError], object] | None = None,
) -> IndexRun:
    """Index papers (``sciner index``) into the SQLite file ``output``, created if missing:
    each input (anything ``sciner summarize`` reads) as one or more papers, each written in one
    transaction with its paragraphs, mentions, entities, values and results. Unchanged inputs
    (by content hash) are skipped; ``prune`` removes the papers of files that are gone. An
    input that cannot be read goes to ``on_error`` (and the result's ``failed``).

    ``workers`` (processes) or ``ray_address`` (Ray actors; ``local``: a Ray of our own): the
    inputs to tag (PDFs, text) are tagged in parallel by the batch layer first, into
    ``OUTPUT.tagged/`` (with its manifest, so a stopped run resumes its tagging too), then this
    process, the one writer, indexes them; the folder is removed once every input is in."""
    from sciner.files.inputs import expand_each, status_line
    from sciner.files.run import reporter
    from sciner.formats.registry import READ_FORMATS
    from sciner.inference.predict import Tagging
    from sciner.model.batching import BATCH_SUBWORDS
    from sciner.outputs import Outputs
    from sciner.summary.files import gazetteer_folder

    done = IndexRun(Path(output))
    report = reporter(done.failed, on_error)
    reading = Reading.of(from_format, tokenize=tokenize, include=include)
    options = reading_options(reading.format, reading.tokenize, reading.include)
    paths = expand_each(inputs, report, formats=READ_FORMATS, notes=status_line(show_progress))
    if any(str(p) == "-" for p in paths):
        report(InputNotFoundError("-: sciner index reads files (it keeps each one's path and content hash), "
                                  "not standard input"))
        paths = [p for p in paths if str(p) != "-"]
    Outputs(paths).check(output)
    con = connect(output, create=True)  # refuses what is not an index before anything is read
    try:
        writer = IndexWriter(con, output)
        todo, replaced, hashes = [], 0, {}
        for path in paths:
            try:
                sha = content_hash(path, options)
            except OSError as err:
                report(InputNotFoundError(f"{path}: cannot be read ({err.strerror or type(err).__name__})"))
                continue
            done.files += 1
            if writer.is_current(path.resolve(), sha):
                done.unchanged += 1
            else:
                todo.append(path)
                hashes[str(path.resolve())] = sha  # what is recorded is what was compared
                replaced += writer.stale_papers(path.resolve(), sha)
        before = writer.papers()
        tagging = Tagging(None if model is None else str(model), precision, threads,
                          batch_subwords or BATCH_SUBWORDS, device, keep_tagged=True)
        cache = Path(f"{output}.tagged")
        cached, failed_in_workers = _tag_in_workers(todo, cache, tagging, workers or 1, ray_address, reading,
                                                    show_progress, on_error, done.failed) \
            if (workers or ray_address) and todo else ({}, set())
        todo = [p for p in todo if str(p) not in failed_in_workers]  # said and counted once, by the workers' run
        folder = gazetteer_folder(data)
        step = Indexing(str(output), tagging, gazetteers, None if folder is None else str(folder),
                        frozenset(cached), options, tuple(hashes.items()))
        run = run_files(todo, None, step, TaggedReading(reading, tuple(cached.items())), engine=Engine(),
                        on_error=on_error, failed=done.failed, show_progress=show_progress, keep=False)
        done.failed = run.failed
        if cached and not done.failed:
            shutil.rmtree(cache, ignore_errors=True)
        done.added = writer.papers() - before + replaced
        if prune:
            done.pruned = writer.prune(keep={p.resolve() for p in paths})
    finally:
        con.close()
    return done


def _tag_in_workers(paths: list[Path], cache: Path, tagging: Any, workers: int, ray_address: str | None,
                    reading: Reading, show_progress: bool, on_error: Callable[[ScinerError], object] | None,
                    failed: list[ScinerError]) -> tuple[dict[str, str], set[str]]:
    """Tag the ``paths`` whose format carries no tags with the batch layer's workers, into
    ``cache`` (resuming what its manifest records as done): input -> its tagged JSONL, and the
    inputs that failed there (said and added to ``failed`` already)."""
    from dataclasses import replace

    from sciner.files.run import MANIFEST, read_manifest, split_threads
    from sciner.formats.registry import input_format
    from sciner.inference.predict import tag_corpus_files

    plain = [p for p in paths if not input_format(p, reading.format).carries_entities]
    if not plain:
        return {}, set()
    run = tag_corpus_files(plain, f"{cache}/", replace(tagging, threads=split_threads(tagging.threads, workers), keep_tagged=False),
                           workers=workers, resume=True, ray_address=ray_address, to_format="jsonl",
                           from_format=reading.format, tokenize=reading.tokenize, include=reading.include,
                           show_progress=show_progress, on_error=on_error)
    failed += run.failed
    wanted = {str(p) for p in plain}
    records = [r for r in read_manifest(cache / MANIFEST).values() if r["input"] in wanted]
    return ({r["input"]: r["output"] for r in records if r.get("status") == "ok"},
            {r["input"] for r in records if r.get("status") == "failed"})
