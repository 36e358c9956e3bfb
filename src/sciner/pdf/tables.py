"""Tables read from a page's geometry: rows of cells under column numbers, anchored on captions.

A table is found from its caption ("Table 2: ..."): its lines are those of the caption's
column (or the whole page, for a caption set across both columns) above the caption, up to
body text, another caption or a wide vertical gap; when nothing table-like is above, those
below the caption's lines (captions set on top), and else those beside the caption (a narrow
caption set next to its table). Lines whose middles share a height are one
row; each line breaks into cells at wide gaps (:meth:`sciner.pdf.extract.PdfLine.cells`, for
pages read with ``cells``).
The columns are the x-extents of the cells of the rows that hold numbers, merged where they
overlap; every cell gets the first and last column it covers, so that a header spanning two
columns ("Dev" over "EM F1") heads both.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from sciner.pdf.blocks import caption_ended
from sciner.pdf.clean import caption_label, normalize_text
from sciner.pdf.layout import SPANNING, OrderedLine

# A cell that is a number as tables print them: "92.8", "-0.5", ".58", "80.6/80.1", ".17/.16", "95.4%",
# "3.2±0.1", "65.5 (64.4)" (a second figure in brackets: an average, a deviation), "86.2*"
# (tokens joined by spaces too: "95.4 %").
_FIGURE = r"(\d+([.,]\d+)?|\.\d+)"
NUMBER_RE = re.compile(rf"^[-+−]?{_FIGURE}\s?%?(\s*(/|±)\s*[-+−]?{_FIGURE}\s?%?)?"
                       rf"(\s*\(\s*[-+−±]?{_FIGURE}\s?%?\s*\))?\s?[*†‡]*$")
# Vertical gap (in body font sizes) that ends a table: floats are set apart from text by more.
_GAP_SIZES = 3.0


@dataclass(frozen=True)
class Cell:
    """A cell's text and the first and last column (counting from 0) it covers."""

    text: str
    first: int
    last: int


@dataclass
class Table:
    """A table: its caption's label ("table 2"), the page it is on (from 1), its caption text
    and its rows of cells, top to bottom."""

    label: str
    page: int
    caption: str
    rows: list[list[Cell]]
    anchor: OrderedLine = field(repr=False, compare=False)  # the caption's first line


# A cell listing figures, one for each part of what its column measures ("0.31,0.59": the
# accuracy on a phrase's adjective and on its noun; "0.98(1),0.08(5.5)": each with its rank);
# decimals only, so that "1,234" stays one figure.
_DECIMAL = rf"[-+−]?(\d+\.\d+|\.\d+)\s?%?(\s?\(\s?{_FIGURE}\s?\))?"
# Each number printed in a text, as its digits ("47.38", "2", "1,234" as "1" and "234"): what a
# float's text and its table's rows share.
PRINTED_NUMBER = re.compile(r"\d+(?:\.\d+)?")


def table_numbers(tables: list[Table]) -> dict[int, set[str]]:
    """The numbers the rows of ``tables`` print, by page (from 1)."""
    found: dict[int, set[str]] = {}
    for table in tables:
        found.setdefault(table.page, set()).update(
            n for row in table.rows for cell in row for n in PRINTED_NUMBER.findall(cell.text))
    return found


NUMBER_LIST_RE = re.compile(rf"^{_DECIMAL}(\s?[,;]\s?{_DECIMAL})+$")


def is_number(text: str) -> bool:
    """True when a cell's text is a number as tables print one (see :data:`NUMBER_RE`), or a
    list of decimals (:data:`NUMBER_LIST_RE`)."""
    text = text.strip()
    return bool(NUMBER_RE.match(text) or NUMBER_LIST_RE.match(text))


# What a table prints in a cell with no score (a mark alone: "*: diverged").
_MISSING_CELLS = frozenset({"NA", "N/A", "n/a", "-", "–", "—", "*", "†", "‡"})


def find_tables(page: list[OrderedLine], body_size: float) -> list[Table]:
    """The tables of one page (its lines in reading order), one per "Table N" caption that has
    rows of cells next to it, in the order of their captions."""
    captions = _caption_blocks(page)
    in_captions = {id(line) for block in captions for line in block}
    taken: set[int] = set()  # lines of a table read already
    tables = []
    # A caption within a column first: a full-width caption below two tables side by side
    # (each with a caption of its own) must not read them as its table.
    for block in sorted(captions, key=lambda block: block[0].column == SPANNING):
        label = caption_label(block[0].text)
        if label is None or not label.startswith("table"):
            continue
        lines = _table_lines(page, block, in_captions, taken, body_size, above=True)
        rows = _rows(lines)
        if not _has_cells(rows):
            lines = _table_lines(page, block, in_captions, taken, body_size, above=False)
            rows = _rows(lines)
        if not _has_cells(rows):
            lines = _beside_lines(page, block, in_captions, taken, body_size)
            rows = _rows(lines)
        if _has_cells(rows):
            taken.update(id(line) for line in lines)
            caption = normalize_text(" ".join(line.text for line in block))
            tables.append((page.index(block[0]), Table(label, block[0].page + 1, caption, _grid(rows), block[0])))
    return [table for _, table in sorted(tables, key=lambda pair: pair[0])]


def _caption_blocks(page: list[OrderedLine]) -> list[list[OrderedLine]]:
    """Each caption's lines: the line that starts it ("Table 2:", "Figure 1.") and the lines right
    below it in the same column and font size, up to a short line that ends a sentence (a table
    set under its caption is as close to it as its own lines are)."""
    blocks = []
    by_top = sorted(page, key=lambda line: line.top)
    for start in by_top:
        if caption_label(start.text) is None:
            continue
        block = [start]
        for line in by_top:
            last = block[-1]
            if caption_ended(block):  # "are CVAE based methods." over the table's head row
                break
            if (line.top > last.top and line.top - last.top <= 1.6 * last.font_size and line.column == start.column
                    and abs(line.font_size - start.font_size) <= 0.3 and caption_label(line.text) is None
                    and line.x0 >= start.x0 - 2.0 and line.x1 <= max(start.x1, last.x1) + 2.0):
                block.append(line)
        blocks.append(block)
    return blocks


def _in_region(line: OrderedLine, caption: OrderedLine) -> bool:
    """Whether ``line`` is in the caption's column (anywhere across the page for a spanning caption)."""
    if caption.column == SPANNING:
        return True
    box = caption.box
    middle = (line.x0 + line.x1) / 2
    return box.x0 - 5.0 <= middle <= box.x1 + 5.0 and line.x0 >= box.x0 - 10.0 and line.x1 <= box.x1 + 10.0


def _is_prose(line: OrderedLine, caption: OrderedLine, body_size: float) -> bool:
    """A line of the paper's text: body size, no cells, and most of a column wide or the end
    of a sentence (a paragraph's last line, right above a float set in the text)."""
    width = caption.box.width if caption.column != SPANNING else caption.box.width / 2
    words = line.text.split()
    prose_words = sum(len(w.strip(".,;:")) >= 2 and w.strip(".,;:").isalpha() for w in words)
    if len(words) >= 2 and all(is_number(w) or w in _MISSING_CELLS for w in words[-2:]):
        return False  # "Dynamic Entity Repres. (max-pool) ] 71.2 70.7 NA NA": a row set as one run of text
    return line.font_size >= body_size - 0.3 and not line.pieces and (
        (line.width >= 0.6 * width and len(words) >= 5) or (prose_words >= 3 and line.text.rstrip().endswith(".")))


def _table_lines(page: list[OrderedLine], caption: list[OrderedLine], in_captions: set[int], taken: set[int],
                 body_size: float, above: bool) -> list[OrderedLine]:
    """The lines next to ``caption`` (above it, or below its last line) up to the table's end:
    body text, another caption or a wide gap; lines of a table read already are passed over."""
    first = caption[0]
    if above:
        edge = first.top
        near = sorted((line for line in page if line.bottom <= edge + 1.0), key=lambda line: -line.bottom)
    else:
        edge = caption[-1].bottom
        near = sorted((line for line in page if line.top >= edge - 1.0), key=lambda line: line.top)
    found: list[OrderedLine] = []
    in_columns = any(line.column != SPANNING for line in page)
    for line in near:
        if any(line is mine for mine in caption) or not _in_region(line, first):
            continue
        gap = edge - line.bottom if above else line.top - edge
        if gap > _GAP_SIZES * body_size or id(line) in in_captions or (
                _is_prose(line, first, body_size) and not _beside_numbers(line, page)
                and not (in_columns and _group_label(line, found))):
            break
        if id(line) not in taken:
            found.append(line)
        edge = min(edge, line.top) if above else max(edge, line.bottom)
    return found


def _group_label(line: OrderedLine, found: list[OrderedLine]) -> bool:
    """Whether ``line``, across both columns of a page whose text is set in columns, is a
    label over a group of a table's rows ("Models distilled using more unsupervised sentences
    (100k sentences)" in the body's font): running text is never set across the gutter there,
    and rows of numbers were read next to it already."""
    return line.column == SPANNING and not line.text.rstrip().endswith(".") and any(
        sum(is_number(text) for _, _, text in row.cells()) >= 2 for row in found)


def _beside_lines(page: list[OrderedLine], caption: list[OrderedLine], in_captions: set[int], taken: set[int],
                  body_size: float) -> list[OrderedLine]:
    """The lines left or right of a caption set beside its table (a narrow caption next to a
    narrow table): those of the caption's region level with its lines (a body size of slack)
    and clear of them across."""
    x0, x1 = min(line.x0 for line in caption), max(line.x1 for line in caption)
    top, bottom = caption[0].top - body_size, caption[-1].bottom + body_size
    return [line for line in page if id(line) not in in_captions and id(line) not in taken
            and _in_region(line, caption[0]) and top <= (line.top + line.bottom) / 2 <= bottom
            and (line.x1 <= x0 - 2.0 or line.x0 >= x1 + 2.0)]


# Words a sentence repeats, never a head ("the", "of").
_FUNCTION_WORDS = frozenset({"the", "a", "an", "of", "in", "on", "as", "and", "or", "to", "for", "with", "by", "is",
                             "are", "from", "at"})
# A cell that stands for a number not given ("-", "–", "- / -") or is an amount, a time or a
# multiple ("3.7M", "252K", "135h", "12ms", "2.5x").
_FIGURE_LIKE_RE = re.compile(r"^([-–—−/\s]+|\d+([.,]\d+)?\s?([kKmMbBhsx×]|ms|min))$")


def _beside_numbers(line: OrderedLine, page: list[OrderedLine]) -> bool:
    """Whether ``line`` is a row's label: a line level with it (middles within 0.45 font sizes),
    clear of it on the left or right, is all number cells ("40.0 / 51.0", "- / -", "3.7M", "NA"),
    one number at least. A table set in the body's font ("Human Performance (Rajpurkar et al., 2016)")
    looks like prose line by line."""
    middle = (line.top + line.bottom) / 2
    for other in page:
        if other is line or abs((other.top + other.bottom) / 2 - middle) > 0.45 * line.font_size \
                or (other.x0 < line.x1 and line.x0 < other.x1):
            continue
        texts = [text for _, _, text in other.cells()]
        if any(is_number(text) for text in texts) and all(
                is_number(text) or _FIGURE_LIKE_RE.match(text) or text in _MISSING_CELLS for text in texts):
            return True
    return False


def _has_cells(rows: list[list[tuple[float, float, str]]]) -> bool:
    """Two rows or more, one of them with a number after its first cell (a number that only
    leads its row is a section's: "5.2 Qualitative Analysis")."""
    return len(rows) >= 2 and any(any(is_number(text) for _, _, text in row[1:]) for row in rows)


def _rows(lines: list[OrderedLine]) -> list[list[tuple[float, float, str]]]:
    """The cells of each row, top to bottom and left to right; lines whose middles are within
    0.45 font sizes of each other are one row."""
    rows: list[tuple[float, list[OrderedLine]]] = []
    for line in sorted(lines, key=lambda line: (line.top + line.bottom) / 2):
        middle = (line.top + line.bottom) / 2
        if rows and middle - rows[-1][0] <= 0.45 * line.font_size:
            rows[-1][1].append(line)
        else:
            rows.append((middle, [line]))
    return [sorted((cell for line in row for cell in line.cells()), key=lambda cell: cell[0]) for _, row in rows]


def _grid(rows: list[list[tuple[float, float, str]]]) -> list[list[Cell]]:
    """Each cell with the columns it covers; the columns are the merged extents of the cells of
    rows holding two numbers or more, else one (a header's spanning cell would join two columns)."""
    rows = [[piece for cell in row for piece in _numbers_apart(*cell)] for row in rows]
    # Rows of two numbers or more where there are some: a heading caught below the table ("4.1
    # Experimental Setup", one number beside a wide cell) would join the columns under it.
    numbered = [(row, n) for row in rows if len(row) >= 2 and (n := sum(is_number(t) for _, _, t in row))]
    if any(n >= 2 for _, n in numbered):
        numbered = [(row, n) for row, n in numbered if n >= 2]
    extents = sorted((x0, x1) for row, _ in numbered for x0, x1, t in row)
    columns: list[list[float]] = []
    for x0, x1 in extents:
        if columns and x0 <= columns[-1][1] + 1.0:
            columns[-1][1] = max(columns[-1][1], x1)
        else:
            columns.append([x0, x1])

    def covered(x0: float, x1: float) -> tuple[int, int]:
        hit = [i for i, (c0, c1) in enumerate(columns) if x0 < c1 and c0 < x1]
        if hit:
            return hit[0], hit[-1]
        middle = (x0 + x1) / 2
        nearest = min(range(len(columns)), key=lambda i: abs((columns[i][0] + columns[i][1]) / 2 - middle))
        return nearest, nearest

    def split(x0: float, x1: float, text: str, heads: bool) -> list[Cell]:
        """A header cell over several columns that is one word per column, each word over its
        column ("MNLI-m QNLI MRPC" set too tightly to be cut), as a cell per word; ``heads``:
        whether the cell may be heads at all (not a cell alone on its row below the first row of
        numbers, a label over a group of rows: "Single Granularity CNNs"; nor one of a row of
        heads each over as many columns: "Daily Mail" beside "CNN")."""
        first, last = covered(x0, x1)
        words = text.split()
        if not heads:
            return [Cell(normalize_text(text), first, last)]
        if last > first and len(words) == last - first + 1 and not any(is_number(w) for w in words):
            per_char, at, middles = (x1 - x0) / max(len(text), 1), x0, []
            for word in words:
                middles.append(at + per_char * len(word) / 2)
                at += per_char * (len(word) + 1)
            columns_hit = [columns[first + i] for i in range(len(words))]
            if all(c0 - 2.0 <= m <= c1 + 2.0 for m, (c0, c1) in zip(middles, columns_hit)):
                return [Cell(normalize_text(word), first + i, first + i) for i, word in enumerate(words)]
        repeated = {w for w in words if words.count(w) > 1}
        if last > first and len(words) > last - first + 1 and repeated - _FUNCTION_WORDS \
                and not any(is_number(w) for w in words):
            # A run of heads set too tightly to be cut, some of them alike ("R-1 f1 R-2 f1 R-L f1
            # BS f1 Words"): each word under the column its middle falls in, a cell per column
            # (not a label whose words alike are a sentence's: "Models distilled using the same
            # number of sentences as in the train set" over a group of rows).
            per_char, at, groups = (x1 - x0) / max(len(text), 1), x0, {}
            for word in words:
                middle = at + per_char * len(word) / 2
                column = min(range(first, last + 1), key=lambda i: 0 if columns[i][0] <= middle <= columns[i][1]
                             else min(abs(columns[i][0] - middle), abs(columns[i][1] - middle)))
                groups.setdefault(column, []).append(word)
                at += per_char * (len(word) + 1)
            if len(groups) == last - first + 1:
                return [Cell(normalize_text(" ".join(group)), column, column) for column, group in groups.items()]
        return [Cell(normalize_text(text), first, last)]

    first_numbers = next((k for k, row in enumerate(rows) if any(is_number(t) for _, _, t in row)), len(rows))

    def width(x0: float, x1: float) -> int:
        first, last = covered(x0, x1)
        return last - first + 1 if first > 0 else 0

    def in_a_row_of_pairs(row: list[tuple[float, float, str]], i: int) -> bool:
        """The cell and every other head of its row each over as many columns, two or more, one
        of the others a head with fewer words than columns: "Daily Mail" beside "CNN", each over
        its "valid test" pair, is one name ("Size WS353 MC" beside "RG SCWS RW" is six heads)."""
        others = [(width(*other[:2]), len(other[2].split())) for j, other in enumerate(row)
                  if j != i and width(*other[:2])]
        own = width(*row[i][:2])
        return own > 1 and bool(others) and all(w == own for w, _ in others) and any(n < w for w, n in others)

    return [[cell for i, (x0, x1, text) in enumerate(row)
             for cell in split(x0, x1, text, (k < first_numbers or len(row) > 1) and not in_a_row_of_pairs(row, i))]
            for k, row in enumerate(rows)]


def _numbers_apart(x0: float, x1: float, text: str) -> list[tuple[float, float, str]]:
    """A cell of numbers set too tightly to be cut ("7.50 -5.43") as a cell per number, each
    over its share of the cell's width."""
    words = text.split()
    if len(words) < 2 or not all(NUMBER_RE.match(w) and re.search(r"\d", w) for w in words) or is_number(text):
        return [(x0, x1, text)]
    per_char, at, cells = (x1 - x0) / max(len(text), 1), x0, []
    for word in words:
        cells.append((at, at + per_char * len(word), word))
        at += per_char * (len(word) + 1)
    return cells
