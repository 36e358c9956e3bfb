"""``sciner summarize`` as a function: inputs -> tagged papers -> summaries -> one file."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sciner.errors import ScinerError
from sciner.formats.registry import Renderer, renderer_for
from sciner.outputs import Outputs, write_atomic
from sciner.stdio import is_stdio, write_stdout
from sciner.summary.assemble import PaperSummary, corpus_table, summarize_paper
from sciner.summary.names import Gazetteer
from sciner.summary.render import summary_json


@dataclass
class Summary:
    """What :func:`summarize` found: each paper's summary, the corpus table, the file written
    (None: standard output or nothing) and the inputs that failed."""

    papers: list[PaperSummary] = field(default_factory=list)
    corpus: dict[str, Any] = field(default_factory=dict)
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
    import os

    from sciner.config import DATA_ENV

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


def summarize(
    inputs: Sequence[str | Path],
    output: str | Path | None = None,
    *,
    to_format: str | None = None,
    from_format: str | None = None,
    tokenize: bool = False,
    retag: bool = False,
    include: Sequence[str] = (),
    model: str | Path | None = None,
    precision: str = "auto",
    device: str = "auto",
    threads: int = 2,
    batch_subwords: int | None = None,
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
    ``$SCINER_DATA``) add, said on stderr; ``gazetteers=False`` keeps the papers' own spellings. ``retag``: tag tagged inputs again with the model. An input
    that cannot be read goes to ``on_error`` (and the result's ``failed``); the others go on.
    """
    from sciner.files.inputs import Reading, status_line
    from sciner.files.run import run_verb
    from sciner.inference.predict import Tagging
    from sciner.model.batching import BATCH_SUBWORDS
    from sciner.summary.papers import papers_of

    fmt = summary_format(output, to_format)
    reading = Reading.of(from_format, tokenize=tokenize, include=include, tags=not retag)
    target = None if output is None or is_stdio(output) else Path(output)
    tagging = Tagging(None if model is None else str(model), precision, threads, batch_subwords or BATCH_SUBWORDS,
                      device, keep_tagged=True)
    run = run_verb(inputs, lambda paths: plan_summary(paths, target, reading.include), tagging, reading,
                   on_error=on_error, show_progress=show_progress)
    done = Summary(failed=run.failed)
    papers = [paper for path, paragraphs in run.done for paper in papers_of(path, paragraphs)]
    gazetteer = Gazetteer(gazetteer_folder(data)) if gazetteers else Gazetteer.empty()
    note, notes = gazetteer_note(gazetteer), status_line(show_progress)
    if note and notes:
        notes(note)
    done.papers = [summarize_paper(paper.doc, paper.paragraphs, gazetteer) for paper in papers]
    done.corpus = corpus_table(done.papers)
    if not done.papers:
        return done
    content = fmt.render(done.papers, done.corpus)
    if target is None:
        write_stdout(content)
    else:
        done.written = write_atomic(target, content)
    return done


def plan_summary(paths: list[Path], target: Path | None, include: Sequence[str] = ()) -> None:
    """Check, before any input is read, what a summary of ``paths`` reads and where it goes:
    PDFs among the inputs when ``include`` asks for a PDF's elements, and a ``target`` file
    (None: standard output) that is none of the inputs. The summary is written after the run."""
    from sciner.formats.include import check_include_has_pdfs

    check_include_has_pdfs(include, paths)
    if target is not None:
        Outputs(paths).check(target)
