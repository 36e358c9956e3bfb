"""From an NLP paper's PDF to the task's input: tokenized paragraphs, in reading order.

>>> from sciner.pdf import extract_pdf
>>> for paragraph in extract_pdf("paper.pdf"):  # doctest: +SKIP
...     print(paragraph.section, paragraph.page, " ".join(paragraph.tokens))

The stages are :mod:`~sciner.pdf.extract` (characters to lines), :mod:`~sciner.pdf.layout`
(columns, reading order), :mod:`~sciner.pdf.clean` (headers, captions, references,
hyphenation) and :mod:`~sciner.pdf.paragraphs` (blocks to paragraphs).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from sciner.document import Paragraph
from sciner.pdf.clean import WordCounts, remove_headers_footers
from sciner.pdf.extract import read_pdf_pages
from sciner.pdf.front_matter import find_title, front_matter_end
from sciner.pdf.layout import body_font_size, order_page
from sciner.pdf.blocks import split_blocks
from sciner.pdf.paragraphs import ParagraphBuilder

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


def extract_pdf(path: str | Path) -> list[ExtractedParagraph]:
    """The title, abstract, section headers, body paragraphs and appendices of a paper.

    Dropped: running headers/footers, page numbers, authors, captions, tables, figures,
    display equations, footnote markers and the reference list.
    Raises :class:`sciner.errors.PDFError` when the file cannot be read as a text PDF.
    """
    from sciner.tokenize import tokenize_paragraphs

    pages = read_pdf_pages(path)
    body_size = body_font_size(pages)
    remove_headers_footers(pages)
    ordered = [order_page(page, body_size) for page in pages]
    counts = WordCounts(_unbroken_text(page) for page in pages)

    title = find_title(ordered[0], body_size) if ordered else []
    title_ids = {id(line.line) for line in title}
    builder = ParagraphBuilder(body_size=body_size, counts=counts)
    if ordered:
        builder.front_matter_end = front_matter_end(ordered[0], title, body_size)
    if title:
        builder.add_title(title)
    lines = [line for page in ordered for line in page if id(line.line) not in title_ids]
    builder.add_blocks(split_blocks(lines))
    raw = builder.finish()
    token_lists = tokenize_paragraphs(paragraph.text for paragraph in raw)
    return [
        ExtractedParagraph(tokens, paragraph.text, paragraph.section, paragraph.page, paragraph.kind)
        for tokens, paragraph in zip(token_lists, raw)
        if tokens
    ]


def read_pdf_paragraphs(path: str | Path) -> list[Paragraph]:
    """:func:`extract_pdf` as :class:`sciner.document.Paragraph` objects, ready for tagging."""
    source = str(path)
    return [
        Paragraph(tokens=paragraph.tokens, source=source, line=index)
        for index, paragraph in enumerate(extract_pdf(path))
    ]


def _unbroken_text(page) -> str:
    """A page's text without the halves of words split at line ends, for word counts."""
    pieces = []
    after_break = False
    for line in page.lines:  # content-stream order: a broken word continues on the next line
        text = line.text
        if after_break:
            text = text.split(" ", 1)[1] if " " in text else ""
        after_break = line.hyphenated
        if line.hyphenated:
            text = text.rsplit(" ", 1)[0] if " " in text else ""
        pieces.append(text)
    return "\n".join(pieces)
