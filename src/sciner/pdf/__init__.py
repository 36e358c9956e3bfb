"""From an NLP paper's PDF to the task's input: tokenized paragraphs, in reading order.

>>> from sciner.pdf import extract_pdf
>>> for paragraph in extract_pdf("paper.pdf"):  # doctest: +SKIP
...     print(paragraph.section, paragraph.page, " ".join(paragraph.tokens))

Stages: :mod:`~sciner.pdf.extract` (characters to lines), :mod:`~sciner.pdf.layout`
(columns, reading order), :mod:`~sciner.pdf.clean` (headers, captions, references,
hyphenation), :mod:`~sciner.pdf.blocks` (what each block of lines is) and
:mod:`~sciner.pdf.paragraphs` (blocks to paragraphs), run by :mod:`~sciner.pdf.pipeline`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from sciner.document import Paragraph
from sciner.pdf.extract import Progress, read_pdf_pages
from sciner.pdf.pipeline import paragraphs_from_pages

__all__ = ["ExtractedParagraph", "extract_pdf", "read_pdf_paragraphs"]


@dataclass
class ExtractedParagraph:
    """One paragraph of a paper: spaCy tokens, the text they came from, and where it was.

    ``kind`` is "title", "header", "body" or "footnote"; ``page`` counts from 1.
    """

    tokens: list[str]
    text: str
    section: str
    page: int
    kind: str


def extract_pdf(path: str | Path, progress: Progress | None = None) -> list[ExtractedParagraph]:
    """The title, abstract, section headers, body paragraphs, footnotes and appendices of a paper.

    Code listings in the text are kept, each as one body paragraph.

    Dropped: running headers/footers, page numbers, authors, captions, tables, figures,
    display equations, footnote markers and the reference list.
    ``progress(pages_done, pages_total)``, if given, is called as each page is read (most
    of the time taken), for a progress bar.
    Raises :class:`sciner.errors.PDFError` when the file cannot be read as a text PDF
    (not a PDF, empty, encrypted, or no text layer).
    """
    from sciner.tokenize import tokenize_paragraphs

    raw = paragraphs_from_pages(read_pdf_pages(path, progress))
    token_lists = tokenize_paragraphs(paragraph.text for paragraph in raw)
    return [
        ExtractedParagraph(tokens, paragraph.text, paragraph.section, paragraph.page, paragraph.kind)
        for tokens, paragraph in zip(token_lists, raw)
        if tokens
    ]


def read_pdf_paragraphs(path: str | Path) -> list[Paragraph]:
    """:func:`extract_pdf` as :class:`sciner.document.Paragraph` objects, ready for tagging:
    the title, headers and body paragraphs, without footnotes.

    Footnotes are left out because they are not the paper's running text: author notes
    ("Equal contribution"), URLs, asides ("See (10) in https://..."); tagged, they would
    read as body paragraphs. ``source`` is the path and ``line`` the paragraph's index
    among those kept; ``meta`` keeps its ``page`` and ``section``, which JSONL outputs carry.
    """
    source = str(path)
    kept = [paragraph for paragraph in extract_pdf(path) if paragraph.kind != "footnote"]
    return [
        Paragraph(tokens=paragraph.tokens, source=source, line=index,
                  meta={"page": paragraph.page, "section": paragraph.section})
        for index, paragraph in enumerate(kept)
    ]
