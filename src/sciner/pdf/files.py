"""Papers' PDFs into files of the task's input (``sciner extract``): many papers, one output
each or all together, in any format of the registry that writes extracted paragraphs
(:data:`~sciner.formats.registry.EXTRACT_FORMATS`: paragraph text, JSONL).

Outputs are planned as predict plans them (:func:`~sciner.inference.files.plan_files`),
checked before any paper is read, and written through :mod:`sciner.outputs`. A paper that
cannot be read is reported and the others go on.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sciner.document import Paragraph
from sciner.errors import ScinerError
from sciner.formats.registry import Format, extract_format
from sciner.pdf import ExtractedParagraph

if TYPE_CHECKING:  # pragma: no cover
    from sciner.inference.files import OutputPlan


@dataclass
class Extraction:
    """What :func:`extract` did: papers and paragraphs extracted, files written, papers that failed."""

    papers: int = 0
    paragraphs: int = 0
    written: list[Path] = field(default_factory=list)
    failed: list[ScinerError] = field(default_factory=list)


def as_paragraphs(extracted: Sequence[ExtractedParagraph], source: str = "<memory>",
                  doc: str | None = None) -> list[Paragraph]:
    """A paper's extracted paragraphs as :class:`Paragraph` objects carrying, in ``meta``, the
    text each came from, its section, page and kind, a table row's table and cells, and ``doc`` (the paper) when given."""
    return [Paragraph(p.tokens, source=source, line=number,
                      meta={"text": p.text, "section": p.section, "page": p.page, "kind": p.kind,
                            **p.table_meta(), **({} if doc is None else {"doc": doc})})
            for number, p in enumerate(extracted, start=1)]


def render_extracted(extracted: Sequence[ExtractedParagraph], fmt: str | Format = "text",
                     doc: str | None = None, *, source: str = "<memory>") -> str | bytes:
    """The content of a ``fmt`` file holding one paper's paragraphs: in text, tokens joined
    by spaces, one paragraph a line; in JSONL, an object per paragraph (naming the paper in
    ``doc`` when given). ``source`` names the paper in errors."""
    chosen = fmt if isinstance(fmt, Format) else extract_format(None, fmt)
    return chosen.render_extracted(as_paragraphs(extracted, source, doc), "")  # type: ignore[misc]


def extract(
    papers: Sequence[str | Path],
    output: str | Path | None = None,
    *,
    to_format: str | None = None,
    show_progress: bool = True,
    on_error: Callable[[ScinerError], object] | None = None,
    include: Sequence[str] = (),
) -> Extraction:
    """Extract the paragraphs of PDFs, folders of PDFs and globs (``-``: one PDF on standard
    input) into ``output``: one file (all papers together), a folder (existing, or ending in
    ``/``: one output per paper, mirroring their paths) or standard output (None or ``-``),
    in ``to_format`` (default: from ``output``'s extension, else text). Papers that fail are
    the result's ``failed`` (also given to ``on_error``); the others go on. ``include`` adds
    table rows, captions and every footnote (:data:`sciner.pdf.INCLUDE`) to the body.
    """
    from tqdm import tqdm

    from sciner.inference.files import expand_each, plan_files, reporter, status_line
    from sciner.stdio import display_name

    from sciner.pdf import check_include

    kinds = check_include(include)
    done = Extraction()
    report = reporter(done.failed, on_error)
    status = status_line(show_progress)
    paths = expand_each(papers, report, formats=("pdf",), notes=status)
    fmt = extract_format(output, to_format)
    plan = plan_files(paths, None if output is None else str(output), fmt)
    several = len(paths) > 1
    together: list[str | bytes] = []
    for path in tqdm(paths, desc="extracting", unit="pdf", disable=not show_progress or not several, file=sys.stderr):
        try:
            paragraphs = _extract_one(path, show_progress and not several, kinds)
        except ScinerError as err:
            report(err)
            continue
        done.papers += 1
        done.paragraphs += len(paragraphs)
        doc = display_name(path) if several and plan.per_input is None else None
        content = render_extracted(paragraphs, fmt, doc, source=display_name(path))
        if plan.per_input is not None:
            done.written.append(plan.outputs.write(plan.per_input[path], content))
            if status:
                status(f"{len(paragraphs)} paragraphs from {display_name(path)} -> {done.written[-1]}")
        else:
            together.append(content)
    if done.papers and plan.per_input is None:
        _write_together(plan, together, done, status)
    return done


def _extract_one(path: Path, page_bar: bool, include: frozenset[str] = frozenset()) -> list[ExtractedParagraph]:
    """One paper's paragraphs; ``page_bar``: a bar over its pages (a long paper takes seconds),
    made at the first page read, so a file refused before that prints its one error line only."""
    from sciner import pdf
    from sciner.stdio import readable

    pages = _PageBar(disabled=not page_bar)
    with readable(path) as local:
        try:
            return pdf.extract_pdf(local, progress=pages.advance, include=include)
        finally:
            pages.close()


def _write_together(plan: "OutputPlan", together: list[str | bytes], done: Extraction,
                    status: Callable[[str], object] | None) -> None:
    """All papers in one output: standard output, or the one file (with a status line)."""
    from sciner.stdio import write_stdout

    content = b"".join(together) if isinstance(together[0], bytes) else "".join(together)  # type: ignore[arg-type]
    if plan.target is None:
        write_stdout(content)
        return
    done.written.append(plan.outputs.write(plan.target, content))
    if status:
        status(f"{done.paragraphs} paragraphs from {done.papers} paper(s) -> {plan.target}")


class _PageBar:
    """A tqdm bar over one paper's pages, created when the extractor reports its first page."""

    def __init__(self, disabled: bool) -> None:
        self.disabled = disabled
        self.bar: Any = None

    def advance(self, done: int, total: int) -> None:
        if self.disabled:
            return
        if self.bar is None:
            from tqdm import tqdm

            self.bar = tqdm(total=total, desc="reading pages", unit="page", file=sys.stderr, leave=False)
        self.bar.update(done - self.bar.n)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
