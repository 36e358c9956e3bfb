"""From an NLP paper's PDF to the task's input: tokenized paragraphs, in reading order.

>>> from sciner.pdf import extract_pdf
>>> for paragraph in extract_pdf("paper.pdf"):  # doctest: +SKIP
...     print(paragraph.section, paragraph.page, " ".join(paragraph.tokens))

Stages: :mod:`~sciner.pdf.extract` (characters to lines), :mod:`~sciner.pdf.layout`
(columns, reading order), :mod:`~sciner.pdf.clean` (headers, captions, references,
hyphenation), :mod:`~sciner.pdf.blocks` (what each block of lines is) and
:mod:`~sciner.pdf.paragraphs` (blocks to paragraphs), run by :mod:`~sciner.pdf.pipeline`;
:mod:`~sciner.pdf.tables` reads the tables' rows and columns, on request.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from sciner.document import Paragraph
from sciner.formats.kinds import INCLUDE, Kind, check_include, included

if TYPE_CHECKING:  # the stages are imported when a PDF is read
    from sciner.pdf.extract import Progress

__all__ = ["INCLUDE", "ExtractedParagraph", "Kind", "check_include", "extract_pdf", "is_running_text", "read_pdf_paragraphs"]

@dataclass
class ExtractedParagraph:
    """One paragraph of a paper: spaCy tokens, the text they came from, and where it was.

    ``kind`` is a :class:`~sciner.formats.kinds.Kind`'s value: "title", "header", "body" or
    "footnote", and on request "caption" or "table";
    ``page`` counts from 1.
    """

    tokens: list[str]
    text: str
    section: str
    page: int
    kind: str
    table: str = ""  # a table row's: its table ("table 2", as its caption names it)
    # A table row's cells: [first token, end token, first column, last column] each.
    cells: list[list[int]] = field(default_factory=list)
    table_body: str = ""  # a "Table N" caption's: "missing" when no rows of cells were read for it
    front: str = ""  # the first paragraph's: page 1's lines not part of the text (for sciner.pdf.metadata)

    def table_meta(self) -> dict[str, object]:
        """A table row's ``table`` and ``cells``, a caption's ``table_body``, the first
        paragraph's ``front``, as a paragraph's ``meta`` carries them (else none)."""
        meta: dict[str, object] = {"table": self.table, "cells": self.cells} if self.cells else {}
        meta = {**meta, "table_body": self.table_body} if self.table_body else meta
        return {**meta, "front": self.front} if self.front else meta


def extract_pdf(path: str | Path, progress: Progress | None = None,
                include: Sequence[str] = ()) -> list[ExtractedParagraph]:
    """The title, abstract, section headers, body paragraphs, footnotes and appendices of a paper.

    Code listings in the text are kept, each as one body paragraph.

    Dropped: running headers/footers, page numbers, authors, captions, tables, figures,
    display equations, footnote markers, the reference list, and footnotes that are no
    sentence (:func:`is_running_text`: author notes, bare links). ``sciner extract`` writes
    and ``sciner predict`` tags these same paragraphs.
    ``progress(pages_done, pages_total)``, if given, is called as each page is read (most
    of the time taken), for a progress bar. ``include`` (of :data:`INCLUDE`) adds table rows,
    captions and every footnote.
    Raises :class:`sciner.errors.PDFError` when the file cannot be read as a text PDF
    (not a PDF, empty, encrypted, or no text layer).
    """
    from sciner.tokenize import tokenize_paragraphs

    kinds = check_include(include)
    from sciner.pdf.extract import read_pdf_pages
    from sciner.pdf.pipeline import paragraphs_from_pages

    raw = paragraphs_from_pages(read_pdf_pages(path, progress, cells=included(Kind.TABLE, kinds)), kinds)
    # A table row is tokenized cell by cell, so that no token straddles two cells.
    pieces = [[cell.text for cell in paragraph.cells] or [paragraph.text] for paragraph in raw]
    token_lists = iter(tokenize_paragraphs(text for texts in pieces for text in texts))
    extracted, front = [], raw[0].front if raw else ""
    for paragraph, texts in zip(raw, pieces):
        cell_tokens = [next(token_lists) for _ in texts]
        tokens = [token for piece in cell_tokens for token in piece]
        cells, at = [], 0
        for cell, piece in zip(paragraph.cells, cell_tokens):  # none unless a table row
            if piece:
                cells.append([at, at + len(piece), cell.first, cell.last])
            at += len(piece)
        # A footnote is body text when it is running text; all of them with --include footnotes.
        if tokens and (paragraph.kind is not Kind.FOOTNOTE or included(Kind.FOOTNOTE, kinds) or is_running_text(tokens)):
            extracted.append(ExtractedParagraph(tokens, paragraph.text, paragraph.section, paragraph.page,
                                                paragraph.kind.value, paragraph.table, cells, paragraph.table_body,
                                                front))
            front = ""  # carried by the first paragraph kept
    return extracted


# A footnote with fewer words than this, links not counted, is a note rather than a sentence
# of the paper ("Equal contribution", "See (10) in https://...", "As of November 17, 2017").
RUNNING_TEXT_WORDS = 4


def is_running_text(tokens: list[str]) -> bool:
    """True when a footnote's ``tokens`` hold at least :data:`RUNNING_TEXT_WORDS` words outside
    links: a sentence that can name a method or a setting ("... the feed-forward size to be
    4H, i.e., 3072"), which the task annotates like any body text."""
    words = [t for t in tokens if t.isalpha() and "://" not in t and not t.startswith("www.")]
    return len(words) >= RUNNING_TEXT_WORDS


def read_pdf_paragraphs(path: str | Path, include: Sequence[str] = ()) -> list[Paragraph]:
    """:func:`extract_pdf` as :class:`sciner.document.Paragraph` objects, ready for tagging:
    the very paragraphs ``sciner extract`` writes, so that ``sciner extract paper.pdf |
    sciner predict -`` and ``sciner predict paper.pdf`` tag the same text. ``source`` is the
    path and ``line`` the paragraph's index; ``meta`` keeps its ``page`` and ``section``,
    which JSONL outputs carry, and with ``include`` its ``kind`` (what is not body text).
    """
    source = str(path)
    return [
        Paragraph(tokens=paragraph.tokens, source=source, line=index,
                  meta={"page": paragraph.page, "section": paragraph.section,
                        **({"kind": paragraph.kind} if include else {}),
                        **paragraph.table_meta()})
        for index, paragraph in enumerate(extract_pdf(path, include=include))
    ]
