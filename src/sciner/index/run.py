"""``sciner index`` as a function: a step of the one layer that runs a verb over files
(:mod:`sciner.files`): inputs -> tagged papers -> rows -> the index, paper by paper.

Before any input is read the step asks the index (:meth:`Indexing.prepare`): an input already
in it with the same content hash is skipped without being read; a changed one has its papers
replaced; a file indexed in part (a killed run) goes on with the papers not yet in. Inputs are
read as ``sciner summarize`` reads them (tagged inputs as they are, the others tagged with the
model, loaded once, in this process, and only when a chunk needs it, or first by the
``--workers``), a chunk of whole papers at a time; this process is the index's one writer.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import ClassVar

from sciner.document import Paragraph
from sciner.errors import InputNotFoundError, ScinerError
from sciner.files.inputs import Reading, is_tagged, status_line
from sciner.files.run import MANIFEST, Engine, Input, Read, Step, read_manifest, run_verb
from sciner.formats.registry import input_format
from sciner.index.schema import connect, hold, settle
from sciner.index.write import IndexWriter, content_hash, paper_rows, reading_options
from sciner.inference.predict import LazyTagger, TagOptions, Tagging, tag_files
from sciner.outputs import Outputs
from sciner.summary.files import gazetteer_folder
from sciner.summary.names import Gazetteer
from sciner.summary.papers import papers_of


@dataclass
class IndexRun:
    """What :func:`index_files` did: papers added, files skipped as unchanged, files pruned,
    inputs that failed, and the index written."""

    path: Path
    files: int = 0
    added: int = 0
    unchanged: int = 0
    pruned: list[str] = field(default_factory=list)
    same: list[tuple[str, str]] = field(default_factory=list)  # (a file, the indexed file it is a copy of)
    no_results: list[str] = field(default_factory=list)  # the papers added that yielded no result at all
    replaced: int = 0  # papers of changed files (or files read with other options, --replace) read again
    replaced_files: int = 0
    results_before: int = 0  # the results those papers had
    results_after: int = 0  # the results the papers that replaced them have
    # files indexed with other reading options, kept as they are (no --replace): (path, their options, this run's)
    kept: list[tuple[str, str, str]] = field(default_factory=list)
    kept_papers: list[str] = field(default_factory=list)  # their papers
    failed: list[ScinerError] = field(default_factory=list)

    def describe(self) -> str:
        line = (f"indexed {self.added} paper(s) from {self.files - self.unchanged - len(self.same)} file(s) "
                f"into {self.path}")
        if self.unchanged:
            line += f"; {self.unchanged} file(s) unchanged"
        if self.same:
            line += f"; skipped {len(self.same)} file(s) the same as one indexed: " \
                    + ", ".join(f"{copy} (same as {first})" for copy, first in self.same)
        if self.pruned:
            line += f"; pruned {len(self.pruned)} file(s) that are gone"
        if self.replaced:
            line += f"; {self.describe_replaced()}"
        if self.kept:
            line += f"; {self.describe_kept()}"
        if self.no_results:
            line += f"; {len(self.no_results)} paper(s) yielded no result: {', '.join(self.no_results)}"
        return line

    def describe_replaced(self) -> str:
        """What re-reading changed files (new bytes, or other --include/--tokenize/--from) did
        to their results: the index keeps what this run read, and says so."""
        change = self.results_after - self.results_before
        said = ("as many results as before" if change == 0
                else f"{abs(change)} result(s) {'more' if change > 0 else 'fewer'} ({self.results_before} -> "
                     f"{self.results_after})")
        return (f"replaced {self.replaced} paper(s) of {self.replaced_files} file(s) that changed or were read with "
                f"other options: {said}")

    def describe_kept(self) -> str:
        """Which papers were kept as indexed with other reading options, and how to re-read them."""
        options = sorted({(old, new) for _, old, new in self.kept})
        said = ", ".join(f"{old or 'none'} (this run: {new or 'none'})" for old, new in options)
        return (f"kept {len(self.kept_papers)} paper(s) of {len(self.kept)} file(s) as indexed with other reading "
                f"options, {said}: {', '.join(self.kept_papers)}; --replace re-reads them with this run's")


@dataclass(frozen=True)
class TaggedReading:
    """Reads one input as ``summarize`` does (``reading`` keeps the tags of a tagged input);
    an input the workers tagged (``cached``: input -> its tagged JSONL) is read from its
    tagged copy."""

    reading: Reading
    cached: Mapping[str, str] = field(default_factory=dict)

    def __call__(self, path: Path) -> list[Paragraph]:
        copy = self.cached.get(str(path))
        return self.reading(path) if copy is None else Reading("jsonl", tags=True)(Path(copy))


class IndexState:
    """An index run's one writer and what it learns on the way: each input's content hash,
    the inputs the workers tagged, and the tally (``done``). Made by :func:`index_files` and
    held by its step, which runs in this process only; the index is opened by
    :meth:`Indexing.prepare`, before any input is read."""

    def __init__(self, db: Path, tagging: Tagging, gazetteer: Gazetteer, done: IndexRun) -> None:
        self.db = db
        self.writer: IndexWriter | None = None
        self.held = -1  # the descriptor holding the index's writing-run lock (schema.hold)
        self.tagger: LazyTagger = tagging.load()  # the model is loaded when an input needs it
        self.gazetteer = gazetteer
        self.done = done
        self.hashes: dict[str, str] = {}  # resolved input -> the content hash it was chosen by
        self.cached: dict[str, str] = {}  # input -> the JSONL the workers tagged it into
        self.seen: set[Path] = set()  # every input file named (kept by --prune)

    def open(self) -> IndexWriter:
        """The writer, the index opened (created if missing) at the first call."""
        if self.writer is None:
            con = connect(self.db, create=True)
            try:
                self.held = hold(con, self.db)  # one run writes at a time; a second one is told so
            except BaseException:
                con.close()
                raise
            self.writer = IndexWriter(con, self.db)
        return self.writer

    def close(self) -> None:
        if self.writer is not None:
            settle(self.writer.con)
            self.writer.con.close()
            os.close(self.held)

    @property
    def model(self) -> str:
        """What the index records as the model of the papers it tags."""
        model = self.tagger.step.options.model
        return "shipped" if model is None else str(model)


@dataclass(frozen=True)
class Indexing(Step):
    """index's step: choose the inputs that changed (:meth:`prepare`), tag those that have no
    tags (``tagging``, summarize's step with ``keep_tagged``; with a per-job ``engine`` the
    workers tag them first, into ``DB.tagged/``), then write each paper of each input into the
    index in its own transaction."""

    working: ClassVar[tuple[str, str] | None] = ("indexing", "tok")
    did: ClassVar[str] = "indexed"

    index: IndexState
    tagging: Tagging
    engine: Engine = Engine()
    options: str = ""  # the reading options of this run, stored with each file (reading_options)
    reread: bool = False  # files indexed with other options are read again (--replace), else kept
    show_progress: bool = True

    @property
    def cache(self) -> Path:
        """Where the workers write the inputs they tag (with its manifest: their tagging resumes too)."""
        return Path(f"{self.index.db}.tagged")

    def prepare(self, paths: list[Path], read: Read,
                report: Callable[[ScinerError], None]) -> tuple[list[Path], Read]:
        """The inputs whose content hash the index does not hold (each one's stale papers to be
        replaced), the others counted unchanged; one indexed with other reading options kept
        unless :attr:`reread`; standard input refused (an index keeps each file's path and
        hash). With workers, the plain ones among them are tagged first."""
        Outputs(paths).check(self.index.db)
        writer = self.index.open()  # refuses what is not an index before anything is read
        done, todo = self.index.done, []
        chosen: dict[str, str] = {}  # content hash -> the input of this run read for it
        for path in paths:
            if str(path) == "-":
                report(InputNotFoundError("-: sciner index reads files (it keeps each one's path and content hash), "
                                          "not standard input"))
                continue
            self.index.seen.add(path.resolve())
            try:
                sha = content_hash(path)
            except OSError as err:
                report(InputNotFoundError(f"{path}: cannot be read ({err.strerror or type(err).__name__})"))
                continue
            done.files += 1
            held = writer.indexed(path.resolve())
            if held is not None and held.complete and held.sha256 == sha and held.options == self.options:
                done.unchanged += 1
            elif held is not None and held.complete and held.sha256 == sha and not self.reread:
                done.unchanged += 1
                done.kept.append((str(path), held.options, self.options))
                done.kept_papers.extend(held.docs)
            elif (first := chosen.get(sha) or writer.same_content(path.resolve(), sha, self.options)) is not None:
                done.same.append((str(path), first))  # a copy (same bytes, same reading options) of one indexed
            else:
                chosen[sha] = str(path)
                todo.append(path)
                self.index.hashes[str(path.resolve())] = sha  # what is recorded is what was compared
        assert isinstance(read, TaggedReading), "index reads with a TaggedReading"
        if self.engine.per_job and todo:
            failed = self._tag_in_workers(todo, read.reading, report)
            todo = [p for p in todo if str(p) not in failed]  # said and counted once, by the workers' run
        return todo, replace(read, cached=dict(self.index.cached))

    def _tag_in_workers(self, paths: list[Path], reading: Reading, report: Callable[[ScinerError], None]) -> set[str]:
        """Tag the ``paths`` whose format carries no tags with the engine's workers into
        :attr:`cache` (resuming what its manifest records as done), noting each one's tagged
        copy; returns the inputs that failed there (reported already)."""
        plain = [p for p in paths if not input_format(p, reading.format).carries_entities]
        if not plain:
            return set()
        tag_files(plain, f"{self.cache}/", tagging=self.tagging.options, reading=replace(reading, tags=False),
                  to_format="jsonl", engine=replace(self.engine, resume=True), show_progress=self.show_progress,
                  on_error=report, keep=False)
        wanted = {str(p) for p in plain}
        records = [r for r in read_manifest(self.cache / MANIFEST).values() if r["input"] in wanted]
        self.index.cached.update({r["input"]: r["output"] for r in records if r.get("status") == "ok"})
        return {r["input"] for r in records if r.get("status") == "failed"}

    def load(self) -> IndexState:
        return self.index

    def run(self, state: IndexState, inputs: list[Input], progress: Callable[[int], object]) -> list[Input]:
        writer = state.open()
        notes = status_line(self.show_progress)
        untagged = {k for k, (_, ps) in enumerate(inputs) if not is_tagged(ps)}
        done = self.tagging.run(state.tagger, inputs, progress)
        for k, (path, paragraphs) in enumerate(done):
            resolved = Path(path).resolve()
            file = writer.open_file(resolved, state.hashes[str(resolved)], self.options, resolved.stat().st_size)
            model = state.model if k in untagged or str(path) in state.cached else "input"
            for paper in papers_of(path, paragraphs):
                if paper.doc not in file.papers:
                    rows = paper_rows(paper.doc, paper.paragraphs, state.gazetteer, model)
                    writer.add_paper(file, rows)
                    state.done.added += 1
                    if not rows.results:
                        state.done.no_results.append(paper.doc)
                    if notes is not None:
                        for line in rows.notes:
                            notes(line)
            writer.close_file(file)
            if file.replaced:
                state.done.replaced += file.replaced
                state.done.replaced_files += 1
                state.done.results_before += file.old_results
                state.done.results_after += writer.results_of(file.id)
        return done


def index_files(
    inputs: Sequence[str | Path],
    output: str | Path,
    *,
    tagging: TagOptions = TagOptions(),
    reading: Reading = Reading(),
    engine: Engine = Engine(),
    data: str | Path | None = None,
    gazetteers: bool = True,
    prune: bool = False,
    reread: bool = False,
    show_progress: bool = True,
    on_error: Callable[[ScinerError], object] | None = None,
) -> IndexRun:
    """Index papers (``sciner index``) into the SQLite file ``output``, created if missing:
    each input (anything ``sciner summarize`` reads, as ``reading`` says; a tagged input keeps
    its tags, whatever ``reading.tags``) as one or more papers, each written in one transaction with its paragraphs,
    mentions, entities, values and results; the inputs without tags tagged as ``tagging``
    says. Unchanged inputs (by content hash) are skipped; so are inputs indexed with other
    reading options (their papers kept, said in :meth:`IndexRun.describe`) unless ``reread``
    (``--replace``), which reads them again; ``prune`` removes the papers of files that are gone. An input that cannot be read goes to ``on_error`` (and the result's ``failed``).

    ``engine``: with workers (``Engine(workers=N)``, or Ray actors: ``ray_address``) the inputs
    to tag (PDFs, text) are tagged in parallel by the batch layer first, into
    ``OUTPUT.tagged/`` (with its manifest, so a stopped run resumes its tagging too), then this
    process, the one writer, indexes them; the folder is removed once every input is in."""
    done = IndexRun(Path(output))
    folder = gazetteer_folder(data)
    gazetteer = Gazetteer(folder) if gazetteers else Gazetteer.empty()
    step_tagging = Tagging(tagging, keep_tagged=True)
    state = IndexState(Path(output), step_tagging, gazetteer, done)
    reading = replace(reading, tags=True)
    step = Indexing(state, step_tagging, engine=engine, show_progress=show_progress, reread=reread,
                    options=reading_options(reading.format, reading.tokenize, reading.include))
    try:
        run = run_verb(inputs, lambda paths: None, step, TaggedReading(reading), on_error=on_error,
                       show_progress=show_progress, keep=False)
        done.failed = run.failed
        if state.cached and not done.failed:
            shutil.rmtree(step.cache, ignore_errors=True)
        if prune:
            done.pruned = state.open().prune(keep=state.seen)
    finally:
        state.close()
    return done
