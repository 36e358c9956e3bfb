"""Papers' PDFs into files of the task's input (``sciner extract``): many papers, one output
each or all together, in any format of the registry that writes extracted paragraphs
(:data:`~sciner.formats.registry.EXTRACT_FORMATS`: paragraph text, JSONL).

The reading is the step: :class:`PaperReading` run over the papers by :mod:`sciner.files`,
which plans the outputs (checked before any paper is read), writes them through
:mod:`sciner.outputs`, and reports a paper that cannot be read while the others go on.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, ClassVar

from sciner.document import Paragraph
from sciner.errors import ScinerError
from sciner.files.plan import plan_files
from sciner.files.run import Engine, Read, Step, run_verb
from sciner.formats.registry import Format, extract_format
from sciner.pdf import ExtractedParagraph
from sciner.formats.kinds import check_include
from sciner.stdio import display_name


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


@dataclass(frozen=True)
class PaperReading:
    """Reads one paper for ``sciner extract``: its paragraphs with their text, section, page and
    kind (``include``: of :data:`sciner.pdf.INCLUDE`); ``page_bar``: a bar over its pages."""

    include: frozenset[str] = frozenset()
    page_bar: bool = False

    def __call__(self, path: Path) -> list[Paragraph]:
        return as_paragraphs(_extract_one(path, self.page_bar, self.include), display_name(path))


class Extracting(Step):
    """extract's step: the reading is the work; it says what each output received."""

    reading: ClassVar[tuple[str, str]] = ("extracting", "pdf")
    did: ClassVar[str] = "extracted"
    says_writes: ClassVar[bool] = True

    def prepare(self, paths: list[Path], read: Read,
                report: Callable[[ScinerError], None]) -> tuple[list[Path], Read]:
        """Every paper; a bar over a paper's pages only when it is the only one (a long paper
        takes seconds; several have the runner's bar over the papers)."""
        if isinstance(read, PaperReading) and len(paths) > 1:
            read = replace(read, page_bar=False)
        return paths, read


def extract(
    papers: Sequence[str | Path],
    output: str | Path | None = None,
    *,
    to_format: str | None = None,
    include: Sequence[str] = (),
    engine: Engine = Engine(),
    show_progress: bool = True,
    on_error: Callable[[ScinerError], object] | None = None,
) -> Extraction:
    """Extract the paragraphs of PDFs, folders of PDFs and globs (``-``: one PDF on standard
    input) into ``output``: one file (all papers together), a folder (existing, or ending in
    ``/``: one output per paper, mirroring their paths) or standard output (None or ``-``),
    in ``to_format`` (default: from ``output``'s extension, else text). Papers that fail are
    the result's ``failed`` (also given to ``on_error``); the others go on. ``include`` adds
    table rows, captions and every footnote (:data:`sciner.pdf.INCLUDE`) to the body.
    ``engine``: ``Engine(workers=N)`` extracts into a folder ``output`` with N processes, each
    output written as soon as its paper is read and recorded in ``output/manifest.jsonl`` (see
    :mod:`sciner.files.run`).
    """
    reading = PaperReading(check_include(include), page_bar=show_progress)
    target = None if output is None else str(output)
    run = run_verb(papers, lambda paths: plan_files(paths, target, extract_format(output, to_format), extracted=True),
                   Extracting(), reading, formats=("pdf",), engine=engine, on_error=on_error,
                   show_progress=show_progress, keep=False)
    return Extraction(run.inputs, run.paragraphs, run.written, run.failed)


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
