"""Page layout: the body font, the columns of a page, and reading order.

ACL-style papers set two columns; a line belongs to the left or right column, or
spans both (title, wide figures and their captions). Reading order is band by band
from the top: within a band between spanning lines, the whole left column, then the
whole right column.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from sciner.pdf.extract import PdfLine, PdfPage

LEFT, RIGHT, SPANNING = 0, 1, -1


@dataclass(frozen=True)
class ColumnBox:
    """The horizontal extent of a column's body text on one page."""

    x0: float
    x1: float

    @property
    def width(self) -> float:
        return self.x1 - self.x0


@dataclass
class OrderedLine:
    """A line with its place in the layout: which column, and that column's extent."""

    line: PdfLine
    column: int
    box: ColumnBox
    page_height: float

    def __getattr__(self, name: str):
        # Reads through to the line's own fields (text, x0, top, font_size, ...).
        if name == "line":  # not set yet (copy, pickle): avoid infinite recursion
            raise AttributeError(name)
        return getattr(self.line, name)


def body_font_size(pages: list[PdfPage]) -> float:
    """The font size of most characters: the size of body text."""
    counts: Counter[float] = Counter()
    for page in pages:
        for line in page.lines:
            counts[round(line.font_size * 2) / 2] += len(line.text)
    return counts.most_common(1)[0][0] if counts else 10.0


def is_two_column(pages: list[PdfPage], body_size: float) -> bool:
    """Whether most pages of the paper that hold text are set in two columns (blank pages,
    however many, have no say)."""
    with_text = [(page, lines) for page in pages if (lines := _text_lines(page))]
    with_gutter = sum(_gutter(lines, page.width, body_size) is not None for page, lines in with_text)
    return bool(with_text) and with_gutter >= 0.5 * len(with_text)


def order_page(page: PdfPage, body_size: float, two_column: bool = False) -> list[OrderedLine]:
    """The lines of ``page`` in reading order, each tagged with its column.

    ``two_column`` says the paper is set in two columns, so that a page with text in
    only one of them (below a wide table, say) is still read as a column page.
    """
    lines = _text_lines(page)
    if not lines:
        return []
    middle = _gutter(lines, page.width, body_size)
    if middle is None and two_column and _has_column_run(lines, page.width, body_size):
        middle = page.width / 2
    if middle is None:
        box = _column_box(lines, body_size)
        return [OrderedLine(line, LEFT, box, page.height) for line in _rows_in_order(lines)]
    columns = {line_id: _column_of(line, middle, page.width, body_size) for line_id, line in enumerate(lines)}
    _extend_spanning_paragraphs(lines, columns)
    boxes = _column_boxes(lines, columns, page.width, body_size)
    full = ColumnBox(boxes[LEFT].x0, boxes[RIGHT].x1)
    ordered: list[OrderedLine] = []
    band: list[int] = []

    def flush_band() -> None:
        for side in (LEFT, RIGHT):
            side_lines = [lines[i] for i in band if columns[i] == side]
            ordered.extend(OrderedLine(line, side, boxes[side], page.height) for line in _rows_in_order(side_lines))
        band.clear()

    for i in sorted(range(len(lines)), key=lambda i: lines[i].top):
        if columns[i] == SPANNING:
            flush_band()
            ordered.append(OrderedLine(lines[i], SPANNING, full, page.height))
        else:
            band.append(i)
    flush_band()
    return ordered


def _gutter(lines: list[PdfLine], page_width: float, body_size: float) -> float | None:
    """The x of the gap between two columns, or None for a one-column page."""
    body = [line for line in lines if abs(line.font_size - body_size) <= 1.0 and line.width > 4 * body_size]
    if len(body) < 6:
        return None
    middle = page_width / 2
    left = sum(1 for line in body if line.x1 <= middle + 0.02 * page_width)
    right = sum(1 for line in body if line.x0 >= middle - 0.02 * page_width)
    crossing = len(body) - left - right
    if left >= 3 and right >= 3 and crossing < 0.5 * (left + right):
        return middle
    return None


def _text_lines(page: PdfPage) -> list[PdfLine]:
    return [line for line in page.lines if line.text.strip()]


def _has_column_run(lines: list[PdfLine], page_width: float, body_size: float) -> bool:
    """Three body lines in a row (top to bottom) that each fill most of one half of the page.

    On a one-column page only the short last lines of paragraphs fit in a half, and
    never three in a row.
    """
    middle, slack = page_width / 2, 0.02 * page_width
    body = sorted(
        (line for line in lines if abs(line.font_size - body_size) <= 1.0 and line.width > 0.3 * page_width),
        key=lambda line: line.top,
    )
    run = 0
    for line in body:
        in_half = line.x1 <= middle + slack or line.x0 >= middle - slack
        run = run + 1 if in_half else 0
        if run >= 3:
            return True
    return False


def _column_boxes(
    lines: list[PdfLine], columns: dict[int, int], page_width: float, body_size: float
) -> dict[int, ColumnBox]:
    """Each column's box; an empty column mirrors the other one across the page's middle."""
    sides = {side: [line for i, line in enumerate(lines) if columns[i] == side] for side in (LEFT, RIGHT)}
    boxes = {side: _column_box(side_lines, body_size) for side, side_lines in sides.items() if side_lines}
    for side, other in ((LEFT, RIGHT), (RIGHT, LEFT)):
        if side not in boxes and other in boxes:
            boxes[side] = ColumnBox(page_width - boxes[other].x1, page_width - boxes[other].x0)
    return boxes


def _column_of(line: PdfLine, middle: float, page_width: float, body_size: float) -> int:
    """LEFT, RIGHT, or SPANNING when a line reaches well into both columns.

    A short label in small print that straddles the gutter (a figure's "Final Review and
    Processing") is not spanning: it would cut both columns' text in two bands.
    """
    reach = 0.08 * page_width
    label = line.font_size < body_size - 1.0 and line.width < 0.4 * page_width
    if line.x0 < middle - reach and line.x1 > middle + reach and not label:
        return SPANNING
    return LEFT if (line.x0 + line.x1) / 2 < middle else RIGHT


def _extend_spanning_paragraphs(lines: list[PdfLine], columns: dict[int, int]) -> None:
    """The short last line of a full-width caption is full-width too, though it fits in a column."""
    for below in sorted(range(len(lines)), key=lambda i: lines[i].top):
        if columns[below] == SPANNING:
            continue
        b = lines[below]
        columns[below] = next(
            (
                SPANNING
                for above, a in enumerate(lines)
                if columns[above] == SPANNING
                and abs(a.x0 - b.x0) <= 2.0
                and abs(a.font_size - b.font_size) <= 0.5
                and 0 < b.top - a.top <= 1.5 * a.font_size
            ),
            columns[below],
        )


def _column_box(lines: list[PdfLine], body_size: float) -> ColumnBox:
    """Left and right edges of a column, from its body-size lines (robust to stray wide lines)."""
    body = [line for line in lines if abs(line.font_size - body_size) <= 1.0] or lines
    if not body:
        return ColumnBox(0.0, 1.0)
    x0s = sorted(line.x0 for line in body)
    x1s = sorted(line.x1 for line in body)
    return ColumnBox(x0s[len(x0s) // 10], x1s[(len(x1s) * 9) // 10])


def _rows_in_order(lines: list[PdfLine]) -> list[PdfLine]:
    """Top to bottom; pieces of one row (table cells) left to right."""
    ordered: list[PdfLine] = []
    row: list[PdfLine] = []
    for line in sorted(lines, key=lambda line: line.top):
        if row and line.top - row[0].top > 0.4 * min(line.font_size, row[0].font_size):
            ordered.extend(sorted(row, key=lambda line: line.x0))
            row = []
        row.append(line)
    ordered.extend(sorted(row, key=lambda line: line.x0))
    return ordered

