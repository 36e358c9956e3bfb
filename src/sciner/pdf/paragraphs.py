"""Build paragraphs from classified blocks, tracking sections and the reference list.

Body blocks are cut into paragraphs at indented first lines, bullets, and short
sentence-final lines; a paragraph interrupted by a column, page, figure or footnote
break carries on in the next body block. Footnotes, code listings, and table rows that
would split a word broken at a column end wait until the paragraph they interrupted is
finished; a listing is one paragraph of its own.
Everything from a "References" heading to the next appendix heading is dropped.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from sciner.formats.kinds import Kind, included
from sciner.pdf.blocks import (
    BULLET_RE,
    LINE_NUMBER_RE,
    SENTENCE_END,
    Block,
    BlockClassifier,
    has_words,
    is_display_math,
    is_list_item,
    is_url_only,
    reaches_right_edge,
    right_edge,
    same_row,
)
from sciner.pdf.clean import (
    WORD_EDGE_PUNCTUATION,
    WordCounts,
    caption_label,
    is_abstract_heading,
    is_appendix_heading,
    join_lines,
    normalize_text,
)
from sciner.pdf.layout import OrderedLine
from sciner.pdf.tables import PRINTED_NUMBER, Cell, Table, table_numbers

_ARABIC_NUMBER_RE = re.compile(r"^\d+(\.\d+)*\.?\s+")
_INLINE_ABSTRACT_RE = re.compile(r"^abstract\s*[.:—–-]\s*", re.IGNORECASE)


def _continues_sentence(prev: OrderedLine, line: OrderedLine) -> bool:
    """Whether ``line`` goes on with the sentence ``prev`` left unfinished, however it is
    indented: it starts in lower case. The later lines of a list item hang indented
    ("4) Resolve bibliography links between paper" / "clusters in the corpus.") and must
    not start paragraphs of their own."""
    return line.text[:1].islower() and not prev.text.rstrip().endswith(SENTENCE_END)


@dataclass
class RawParagraph:
    """A paragraph's text before tokenization, with where it came from."""

    text: str
    section: str
    page: int
    kind: Kind  # TITLE, HEADER, BODY, FOOTNOTE; on request CAPTION, TABLE, FIGURE
    table: str = ""  # a table row's: its table's label ("table 2")
    cells: tuple[Cell, ...] = ()  # a table row's: its cells, left to right; ``text`` joins them
    # A "Table N" caption's, with tables read: "missing" when no rows of cells were found for it.
    table_body: str = ""
    front: str = ""  # the first paragraph's: page 1's lines not part of its text (sciner.pdf.metadata)


@dataclass
class _Paragraph:
    lines: list[tuple[str, bool]]
    section: str
    page: int
    kind: Kind
    last: OrderedLine
    table: str = ""
    cells: tuple[Cell, ...] = ()
    table_body: str = ""
    first: OrderedLine | None = None
    edge: float | None = None  # right edge of the block holding ``last``
    emitted_at: int | None = None  # index in the output, once written

    def is_open(self) -> bool:
        """Could the next body line continue it (no sentence end at a short last line)?"""
        if self.last.hyphenated:
            return True
        text = self.last.text.rstrip()
        return reaches_right_edge(self.last, self.edge) or not text.endswith(SENTENCE_END)

    def in_bullet(self) -> bool:
        """Whether it is an item of a list ("• ...", "b. ..."), whose later lines hang indented."""
        return self.first is not None and is_list_item(self.first)


# What the builder does with a block of each kind the classifier decides (past the front matter
# and the reference list): a ParagraphBuilder method taking the block.
_ADD_BLOCK: dict[Kind, str] = {
    Kind.HEADER: "_add_header", Kind.FOOTNOTE: "_add_footnote", Kind.CODE: "_add_code", Kind.BODY: "_add_body",
    Kind.CAPTION: "_add_caption", Kind.FRAGMENT: "_add_fragment", Kind.DROP: "_add_dropped",
}


@dataclass
class ParagraphBuilder:
    """Walks the blocks of a paper in order and emits :class:`RawParagraph` objects."""

    body_size: float
    counts: WordCounts
    front_matter_end: float = 0.0  # page-1 lines above this (authors, affiliations) are dropped
    output: list[RawParagraph] = field(default_factory=list)
    section: str = ""
    in_references: bool = False
    open: _Paragraph | None = None
    deferred: list[_Paragraph] = field(default_factory=list)  # footnotes, listings, interrupting rows
    include: frozenset[str] = frozenset()  # what besides the body to keep (kinds.INCLUDE names)
    tables: list[Table] = field(default_factory=list)  # with tables included: those not yet written, in page order
    # with tables included: the numbers every table's rows print, by page (from 1), taken before
    # the first table is written (rows only leave ``tables`` as they are written)
    _numbers: dict[int, set[str]] | None = field(default=None, init=False, repr=False)
    figure: list[Block] = field(default_factory=list)  # the float's text blocks read in a row, one paragraph
    last_footnote: _Paragraph | None = None
    last_listing: _Paragraph | None = None
    next_line_number: int | None = None  # of the listing being read, while it is numbered

    def add_title(self, lines: list[OrderedLine]) -> None:
        text = " ".join(line.text for line in lines)
        self.output.append(RawParagraph(normalize_text(text), "Title", lines[0].page + 1, Kind.TITLE))
        self.section = "Title"

    def add_blocks(self, blocks: list[Block]) -> None:
        kinds = BlockClassifier(blocks, self.body_size).classify()
        for block, kind in zip(blocks, kinds):
            self.add_block(block, kind)

    def add_block(self, block: Block, kind: Kind) -> None:
        if self.figure and (kind is not Kind.DROP or block.page != self.figure[-1].page):
            self._add_figure()
        self._add_tables(lambda table: table.page - 1 < block.page)  # those of the pages before
        if kind is Kind.REFERENCES:
            self._close()
            self.in_references = True
        elif (block.page == 0 and block.top < self.front_matter_end) or (self.in_references and kind is not Kind.HEADER):
            return  # authors and affiliations; the reference list (an appendix's header ends it)
        else:
            getattr(self, _ADD_BLOCK[kind])(block)

    def _add_caption(self, block: Block) -> None:
        mine = [table for table in self.tables if table.anchor.line is block.lines[0].line]
        if included(Kind.CAPTION, self.include):
            label = caption_label(block.lines[0].text)
            # A "Table N" whose rows the text layer lost (an image, a layout not read): said, not silent.
            missing = included(Kind.TABLE, self.include) and not mine and bool(label and label.startswith("table"))
            self._add_aside(Kind.CAPTION, [block.lines], table_body="missing" if missing else "")
        self._add_tables(lambda table: table in mine)

    def _add_fragment(self, block: Block) -> None:
        if self._continues_open_paragraph(block, Kind.FRAGMENT):
            self._add_body(block)

    def _add_dropped(self, block: Block) -> None:
        if self._continues_open_paragraph(block, Kind.DROP):
            self._add_body(block)
        elif included(Kind.FIGURE, self.include) and self._holds_unread_numbers(block):
            self.figure.append(block)

    def _add_figure(self) -> None:
        """The float's text blocks read in a row on one page, one paragraph beside the body."""
        self._add_aside(Kind.FIGURE, [[line for block in self.figure for line in block.lines]])
        self.figure = []

    def _holds_unread_numbers(self, block: Block) -> bool:
        """Whether a block set aside (a float's text) prints a number as scores are printed, with
        decimals, that no table row of its page holds: a figure's label ("47.38" over a bar), a
        table's part not set in rows (not an equation's "( 5 )", a subscript's "h 1")."""
        read = self._table_numbers().get(block.page + 1, set())
        return any("." in number and number not in read
                   for line in block.lines for number in PRINTED_NUMBER.findall(line.text))

    def _table_numbers(self) -> dict[int, set[str]]:
        """The numbers every table's rows print, by page: read once, before any table is
        written, while ``tables`` still holds them all."""
        if self._numbers is None:
            self._numbers = table_numbers(self.tables)
        return self._numbers

    def _add_aside(self, kind: Kind, groups: list[list[OrderedLine]], table_body: str = "") -> None:
        """Paragraphs of ``kind`` beside the body (a caption; a table's rows, one each), kept
        in reading order after the body paragraph they interrupt."""
        for lines in groups:
            aside = _Paragraph([(line.text, line.hyphenated) for line in lines], self.section, lines[0].page + 1,
                               kind, lines[-1], table_body=table_body)
            self.deferred.append(aside)
        if self.open is None:
            self._flush_deferred()

    def _add_tables(self, which: Callable[[Table], bool]) -> None:
        """The rows of the tables ``which`` picks, a paragraph each, beside the body (a table
        comes after its caption, or at its page's end when its caption is read as no caption)."""
        picked = [table for table in self.tables if which(table)]
        if not picked:
            return
        self._table_numbers()  # (before the first is written)
        for table in picked:
            self.tables.remove(table)
            for row in table.rows:
                text = " ".join(cell.text for cell in row)
                self.deferred.append(_Paragraph([(text, False)], self.section, table.page, Kind.TABLE, table.anchor,
                                                table=table.label, cells=tuple(row)))
        if self.open is None:
            self._flush_deferred()

    def finish(self) -> list[RawParagraph]:
        if self.figure:
            self._add_figure()
        self._add_tables(lambda table: True)
        self._close()
        return self.output

    def _continues_open_paragraph(self, block: Block, kind: Kind) -> bool:
        """A piece carrying an unfinished paragraph on: its tail after a column or page break
        ("els."), or, after a word broken at the break, lines of running text with inline
        math ("ken t k given the history (t 1, ..., t k−1):") that are not prose enough
        to pass as body text on their own."""
        if self.open is None or not self.open.is_open():
            return False
        line = block.lines[0]
        if abs(line.font_size - self.open.last.font_size) > 0.6:
            return False
        if not line.text[:1].islower():  # after "con-", "Acc." is a table's, not the word's end
            return False
        if line.wide_gaps:  # a paragraph's tail has word spaces only; "sent.   sent." is a table's header
            return False
        return kind is Kind.FRAGMENT or ((self.open.last.hyphenated or self._right_below(line)) and has_words(line))

    def _right_below(self, line: OrderedLine) -> bool:
        """Whether ``line`` is the next line of the open paragraph's column, at line spacing."""
        assert self.open is not None
        last = self.open.last
        return (line.page, line.column) == (last.page, last.column) and 0 < line.top - last.top <= 1.5 * line.font_size

    def _interrupts_broken_word(self, text: str) -> bool:
        """Whether ``text`` cannot go on from the open paragraph's last word, broken at a
        line end: it starts in upper case, and the paper never writes the two as one word
        ("con-" + "ESIM+TreeLSTM (Chen et al., 2017) 88.6", a table row)."""
        if self.open is None or not self.open.last.hyphenated or text[:1].islower():
            return False
        head = self.open.last.text.rstrip("-").rsplit(" ", 1)[-1]
        tail = text.split(" ", 1)[0]
        head, tail = head.strip(WORD_EDGE_PUNCTUATION), tail.strip(WORD_EDGE_PUNCTUATION)
        return not (self.counts[head + tail] or self.counts[f"{head}-{tail}"])

    # --- emitting -------------------------------------------------------------------

    def _add_header(self, block: Block) -> None:
        text = normalize_text(block.text)
        if self.in_references:
            if not is_appendix_heading(text):
                return
            self.in_references = False
        self._close()
        if is_abstract_heading(text):
            self.section = "Abstract"
            return
        name = _ARABIC_NUMBER_RE.sub("", text).strip() or text
        self.output.append(RawParagraph(text=name, section=name, page=block.page + 1, kind=Kind.HEADER))
        self.section = name

    def _add_body(self, block: Block) -> None:
        # A formula's lines inside running text ("j e S·Tj .", the lower half of a fraction) are no text.
        lines = [line for line in block.lines if not is_display_math(line)]
        if not lines:
            return
        if len(lines) <= 2 and self._interrupts_broken_word(lines[0].text):
            self.deferred.append(self._paragraph_of(block))  # waits until the word is finished
            return
        edge = right_edge(block)
        for i, line in enumerate(lines):
            text = line.text
            if i == 0 and block.page == 0 and _INLINE_ABSTRACT_RE.match(text) and self.section in ("", "Title"):
                self._close()
                self.section = "Abstract"
                text = _INLINE_ABSTRACT_RE.sub("", text)
            if self._starts_paragraph(lines, i, edge):
                self._close()
                self.open = _Paragraph([], self.section, line.page + 1, Kind.BODY, line, first=line)
            assert self.open is not None
            self.open.lines.append((text, line.hyphenated))
            self.open.last = line
            self.open.edge = edge

    def _starts_paragraph(self, lines: list[OrderedLine], i: int, edge: float) -> bool:
        line = lines[i]
        text = line.text
        if BULLET_RE.match(text):
            return True
        indent = 0.6 * line.font_size
        nxt = lines[i + 1] if i + 1 < len(lines) else None
        if i == 0:
            if self.open is None or self.open.kind is not Kind.BODY or not self.open.is_open():
                return True
            if abs(line.font_size - self.open.last.font_size) > 1.0:
                return True
            if _continues_sentence(self.open.last, line):
                return False
            indented = nxt is not None and line.x0 > nxt.x0 + indent
            return indented
        prev = lines[i - 1]
        if prev.hyphenated or same_row(prev, line):  # the rest of a line cut at a stretched gap
            return False
        if _continues_sentence(prev, line):
            return False
        hanging = self.open is not None and self.open.in_bullet() and line.x0 > self.open.first.x0 + 0.3 * indent
        if not hanging and nxt is not None and line.x0 > nxt.x0 + indent and line.x0 > prev.x0 + indent:
            return True
        if not hanging and nxt is None and line.x0 > prev.x0 + indent and not reaches_right_edge(prev, edge):
            return True
        prev_text = prev.text.rstrip()
        return not reaches_right_edge(prev, edge) and prev_text.endswith(SENTENCE_END)

    def _add_footnote(self, block: Block) -> None:
        current: _Paragraph | None = None
        first = block.lines[0]
        previous = self.last_footnote
        if previous is not None and not first.marker_start and first.text[:1].islower() and previous.is_open():
            # A footnote carried over to the next column or page.
            previous.lines.extend((line.text, line.hyphenated) for line in block.lines)
            previous.last = block.lines[-1]
            if previous.emitted_at is not None:
                self.output[previous.emitted_at].text = self._render(previous)
            return
        for i, line in enumerate(block.lines):
            prev = block.lines[i - 1] if i else None
            # A dropped superscript marker (or an indent where it was) starts each footnote.
            starts = (
                prev is None
                or line.marker_start
                or (not prev.hyphenated and line.x0 > prev.x0 + 0.6 * line.font_size)
            )
            if starts:
                if current is not None:
                    self.deferred.append(current)
                current = _Paragraph([], self.section, line.page + 1, Kind.FOOTNOTE, line)
            assert current is not None
            current.lines.append((line.text, line.hyphenated))
            current.last = line
        if current is not None:
            self.deferred.append(current)
            self.last_footnote = current
        if self.open is None:
            self._flush_deferred()

    def _paragraph_of(self, block: Block) -> _Paragraph:
        paragraph = _Paragraph([], self.section, block.page + 1, Kind.BODY, block.lines[-1], first=block.lines[0])
        paragraph.lines.extend((line.text, line.hyphenated) for line in block.lines)
        return paragraph

    def _add_code(self, block: Block) -> None:
        """A listing, as it is: no hyphens mended, but without its line numbers ("1 >>> ...",
        "2 >>> ..."). Pieces of one listing (cut apart by blank or indented lines, or line
        numbers in another font) make one paragraph."""
        listing = self.last_listing
        last = listing.last if listing is not None else None
        if last is None or (last.page, last.column) != (block.page, block.column) or not (
            0 <= block.top - last.bottom <= 2.5 * block.font_size
        ):
            listing = self.last_listing = _Paragraph([], self.section, block.page + 1, Kind.CODE.written_as, block.lines[0])
            self.deferred.append(listing)
            self.next_line_number = 1
        for line in block.lines:
            listing.lines.append((self._without_line_number(line.text), False))
        listing.last = block.lines[-1]
        if listing.emitted_at is not None:
            self.output[listing.emitted_at].text = self._render(listing)
        if self.open is None:
            self._flush_deferred()

    def _without_line_number(self, text: str) -> str:
        """``text`` without a leading line number that follows on from the listing's last
        (numbered listings may skip the numbers of blank lines, and a wrapped line has none)."""
        match = LINE_NUMBER_RE.match(text)
        if self.next_line_number is None or match is None:
            if self.next_line_number == 1:
                self.next_line_number = None  # the first line has no number: not a numbered listing
            return text
        number = int(match.group(1))
        if not self.next_line_number <= number <= self.next_line_number + 3:
            self.next_line_number = None
            return text
        self.next_line_number = number + 1
        return text[match.end() :]

    def _close(self) -> None:
        if self.open is not None:
            self._emit(self.open)
            self.open = None
        self._flush_deferred()

    def _flush_deferred(self) -> None:
        for paragraph in self.deferred:
            self._emit(paragraph)
        self.deferred = []

    def _render(self, paragraph: _Paragraph) -> str:
        return normalize_text(join_lines(paragraph.lines, self.counts)).strip()

    def _emit(self, paragraph: _Paragraph) -> None:
        text = self._render(paragraph)
        if not text or is_url_only(text):
            return
        paragraph.emitted_at = len(self.output)
        self.output.append(RawParagraph(text, paragraph.section, paragraph.page, paragraph.kind, paragraph.table,
                                        paragraph.cells, paragraph.table_body))
