"""``sciner summarize`` as a function: inputs -> tagged papers -> summaries -> one file.

A run of :mod:`sciner.files` with summarize's tagging step; its plan's one output is rendered
from every paper done, once, at the end (:class:`SummaryWriter`), by the summary's renderer
(:data:`sciner.formats.registry.RENDERERS`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from sciner.config import DATA_ENV
from sciner.document import Paragraph
from sciner.errors import ScinerError
from sciner.files.inputs import Reading, status_line
from sciner.files.plan import Input, OutputPlan, plan_together
from sciner.files.run import run_verb
from sciner.formats.include import check_include_has_pdfs
from sciner.formats.registry import Renderer, renderer_for
from sciner.inference.predict import TagOptions, Tagging
from sciner.stdio import is_stdio
from sciner.summary.assemble import PaperSummary, corpus_table, summarize_paper
from sciner.summary.names import Gazetteer
from sciner.summary.papers import papers_of
from sciner.summary.render import summary_json


@dataclass
class Summary:
    """What :func:`summarize` found: each paper's summary, the corpus table, the file written
    (None: standard output or nothing) and the inputs that failed."""

    papers: list[PaperSummary] = field(default_factory=list)
    corpus: dict[str, Any] = field(default_factory=lambda: corpus_table([]))  # of no paper, until some are done
    written: Path | None = None
    failed: list[ScinerError] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return summary_json(self.papers, self.corpus)


def summary_format(output: str | Path | None, given: str | None = None) -> Renderer:
    """The format to write: ``given`` (``--to``), else ``output``'s suffix, else json."""
    return renderer_for("summary", None if output is None or is_stdio(output) else output, given)


def gazetteer_folder(data: str | Path | None = None) -> Path | None:
    """The user's gazetteers, which add to the shipped ones: ``gazetteers/`` of ``--data``, else
    of ``$SCINER_DATA``; None when neither is given (never a folder relative to the current one)."""
    chosen = data or os.environ.get(DATA_ENV)
    return Path(chosen) / "gazetteers" if chosen else None


def gazetteer_note(gazetteer: Gazetteer) -> str | None:
    """The stderr line saying a user's gazetteer folder adds to the shipped names (None without one)."""
    if gazetteer.folder is None:
        return None
    added = gazetteer.added()
    if not added:
        return f"names: {gazetteer.folder} has no gazetteer lists; the shipped names only"
    return f"names: the shipped gazetteer plus {added} names from {gazetteer.folder}"


def paper_notes(path: Path, paragraphs: list[Paragraph]) -> list[str]:
    """What ``sciner summarize`` would say on stderr of the papers of one tagged input (one
    line per paper whose tables print numbers and gave no result), for ``sciner predict
    --include tables`` to say as it tags; names from the gazetteers summarize reads (read once
    a process, not again for each input)."""
    return [line for paper in papers_of(path, paragraphs)
            for line in summarize_paper(paper.doc, paper.paragraphs, _gazetteer_of(gazetteer_folder())).notes()]


@lru_cache(maxsize=2)
def _gazetteer_of(folder: Path | None) -> Gazetteer:
    return Gazetteer(folder)


@dataclass
class SummaryWriter:
    """A summary plan's renderer (:attr:`sciner.files.plan.OutputPlan.together`): every input
    done, as papers, each summarized with ``gazetteer``, and the corpus table, rendered in
    ``fmt``; what it summarized is kept in ``summary``, each paper's warnings said to ``notes``
    (None: not said)."""

    fmt: Renderer
    gazetteer: Gazetteer
    summary: Summary
    notes: Callable[[str], object] | None = None

    def __call__(self, done: list[Input]) -> str | bytes:
        papers = [paper for path, paragraphs in done for paper in papers_of(path, paragraphs)]
        self.summary.papers = [summarize_paper(paper.doc, paper.paragraphs, self.gazetteer) for paper in papers]
        if self.notes is not None:
            for paper in self.summary.papers:
                for line in paper.notes():
                    self.notes(line)
        self.summary.corpus = corpus_table(self.summary.papers)
        return self.fmt.render(self.summary.papers, self.summary.corpus)


def summarize(
    inputs: Sequence[str | Path],
    output: str | Path | None = None,
    *,
    to_format: str | None = None,
    tagging: TagOptions = TagOptions(),
    reading: Reading = Reading(),
    retag: bool = False,
    data: str | Path | None = None,
    gazetteers: bool = True,
    show_progress: bool = True,
    on_error: Callable[[ScinerError], object] | None = None,
) -> Summary:
    """Summarize papers (``sciner summarize``): for each input (anything ``sciner predict``
    reads, or its tagged output, then no model is loaded), the entities with one name each,
    the values with the name they belong to, and the results read off sentences; and over all
    of them the corpus table. Written to ``output`` (``.json``, ``.csv`` or ``.html``, or
    ``to_format``; None or ``-``: standard output), never over an input.

    Canonical names come from the shipped gazetteer, to which the gazetteers of ``data`` (else
    ``$SCINER_DATA``) add, said on stderr; ``gazetteers=False`` keeps the papers' own
    spellings. ``reading`` (:class:`sciner.files.inputs.Reading`): how inputs are read
    (``--from``, ``--tokenize``, a PDF's ``--include``); an input that carries tags keeps them,
    the others are tagged with the model as ``tagging``
    (:class:`sciner.inference.predict.TagOptions`) says (``retag``: every input). An input
    that cannot be read goes to ``on_error`` (and the result's ``failed``); the others go on.
    A paper whose tables print numbers and gave no result is said on stderr, one line each.
    """
    fmt = summary_format(output, to_format)
    target = None if output is None or is_stdio(output) else Path(output)
    gazetteer = Gazetteer(gazetteer_folder(data)) if gazetteers else Gazetteer.empty()
    note, notes = gazetteer_note(gazetteer), status_line(show_progress)
    if note and notes:
        notes(note)
    reading = replace(reading, tags=not retag)
    done = Summary()
    writer = SummaryWriter(fmt, gazetteer, done, notes)
    run = run_verb(inputs, lambda paths: plan_summary(paths, target, writer, reading.include),
                   Tagging(tagging, keep_tagged=True), reading, on_error=on_error, show_progress=show_progress,
                   keep=False)
    done.failed, done.written = run.failed, run.written[0] if target is not None and run.written else None
    return done


def plan_summary(paths: list[Path], target: Path | None, writer: SummaryWriter,
                 include: Sequence[str] = ()) -> OutputPlan:
    """The one output of a summary of ``paths``, checked before any input is read: PDFs among
    the inputs when ``include`` asks for a PDF's elements, and a ``target`` file (None:
    standard output) that is none of the inputs; ``writer`` renders it once every input is done."""
    check_include_has_pdfs(include, paths)
    return plan_together(paths, target, writer)
