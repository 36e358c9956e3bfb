"""Blocks of lines and what they are: header, body text, footnote, caption, code, or clutter.

A *block* is a run of lines in one column, in one font size, with ordinary line
spacing. Tables, figure labels and display equations come out as blocks that are
not prose (few letters, wide gaps, math fonts, odd font sizes) and are dropped.
Code listings are set in a monospace font throughout.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

from sciner.formats.kinds import Kind
from sciner.pdf.clean import caption_label, is_abstract_heading, is_caption, is_references_heading
from sciner.pdf.layout import SPANNING, OrderedLine

_NUMBERED_HEADER_RE = re.compile(r"^(\d+(\.\d+)*\.?|[A-H](\.\d+)*\.?|[IVX]+\.)\s+[A-Z]")
_BULLETS = "•◦▪‣●○■□∙·"
BULLET_RE = re.compile(rf"^\s*[{_BULLETS}]")  # a bulleted item: "• Batch size: 16, 32"
_LIST_ITEM_RE = re.compile(rf"^([{_BULLETS}–-]|\(?(\d{{1,2}}|[a-z]|[ivx]{{1,4}})[.)])\s")
_URL_ONLY_RE = re.compile(r"^\s*(https?://|www\.)\S*\s*$")
_URL_RE = re.compile(r"https?://|www\.")
_SETTING_RE = re.compile(r"^[A-Za-z_]\w*=[-+.\w]+[,;.]?$")  # "vector_size=300,"
# A line's own number: of a code listing ("12 >>> doc.images") or of pseudo-code ("7 end").
LINE_NUMBER_RE = re.compile(r"^(\d{1,3})\s+(?=\S)")
SENTENCE_END = (".", "?", "!", ":", ".”", '."', ".)")
_NUMBER_END_RE = re.compile(r"(^|\s)[-+±]?\d+([.,]\d+)?%?\*?$")
# URLs and e-mail addresses are set in monospace too; they are not code.
_ADDRESS_RE = re.compile(r"https?://|www\.|@|\.(com|org|net|io|edu)\b")


@dataclass
class Block:
    """Consecutive lines of one column and font size with ordinary line spacing."""

    lines: list[OrderedLine]

    @property
    def page(self) -> int:
        return self.lines[0].page

    @property
    def column(self) -> int:
        return self.lines[0].column

    @property
    def top(self) -> float:
        return self.lines[0].top

    @property
    def bottom(self) -> float:
        return max(line.bottom for line in self.lines)

    @property
    def font_size(self) -> float:
        sizes = sorted(line.font_size for line in self.lines)
        return sizes[len(sizes) // 2]

    @property
    def text(self) -> str:
        return " ".join(line.text for line in self.lines)


def split_blocks(lines: list[OrderedLine]) -> list[Block]:
    """Cut lines (already in reading order) wherever the column, font or spacing changes,
    and after the last line of a caption."""
    blocks: list[Block] = []
    current: list[OrderedLine] = []
    for line in lines:
        if current and _ends_block(current, line):
            blocks.append(Block(current))
            current = []
        current.append(line)
    if current:
        blocks.append(Block(current))
    return blocks


def _ends_block(current: list[OrderedLine], line: OrderedLine) -> bool:
    """Whether ``line`` starts a new block after the lines of ``current``."""
    if caption_ended(current):
        return True
    return _starts_new_block(current[-1], line) and not _caption_goes_on(current, line)


def _caption_goes_on(lines: list[OrderedLine], line: OrderedLine) -> bool:
    """The next line of an unfinished caption, though its font or spacing changes: the
    first line is set smaller ("Figure 2: Syntactically-informed self-attention for" in
    10 pt, "the query word sloth. ..." in 10.9 pt), or a line is stretched like a table row."""
    if not is_caption(lines[0].text):
        return False
    prev = lines[-1]
    if (line.page, line.column) != (prev.page, prev.column) or abs(line.font_size - prev.font_size) > 1.5:
        return False
    unfinished = reaches_right_edge(prev) and not prev.text.rstrip().endswith(".")
    return unfinished and 0 < line.top - prev.top <= 1.45 * max(line.font_size, prev.font_size)


def caption_ended(lines: list[OrderedLine]) -> bool:
    """A caption set in the body font, as close to the text below as its own lines are,
    ends at a short line that ends a sentence."""
    last = lines[-1].text.rstrip()
    return is_caption(lines[0].text) and last.endswith((".", ".)", '."', ".”")) and not reaches_right_edge(lines[-1])


def _starts_new_block(prev: OrderedLine, line: OrderedLine) -> bool:
    if line.page != prev.page or line.column != prev.column:
        return True
    size = max(line.font_size, prev.font_size)
    step = line.top - prev.top
    if step < -0.3 * size or step > 1.45 * size:  # going up, or a gap: step 0 is the same row
        return True
    if abs(line.font_size - prev.font_size) > 0.6:
        return True
    if line.bold != prev.bold and (_is_short(line) or _is_short(prev)):
        return True  # a bold header line directly above its text
    return is_table_row(line) != is_table_row(prev)


def is_table_row(line: OrderedLine) -> bool:
    """Several gaps wider than a space: cells of a table row -- unless the line fills its
    column and is stretched, its gaps even or widened around a URL that cannot break
    ("leaderboard   and   https://blog.")."""
    stretched = line.evenly_spread or bool(_URL_RE.search(line.text))
    return line.wide_gaps >= 2 and not (stretched and _fills_column(line))


def is_display_math(line: OrderedLine) -> bool:
    """A line of a displayed formula, or the lower half of an inline fraction ("j e S·Tj ."):
    mostly math glyphs, hardly a word, and starting well inside its column, where no
    line of running text starts."""
    indented = line.x0 > line.box.x0 + 2 * line.font_size
    return indented and line.math_share >= 0.5 and not has_words(line)


def _fills_column(line: OrderedLine) -> bool:
    return line.x0 <= line.box.x0 + 1.5 * line.font_size and line.x1 >= line.box.x1 - 0.5 * line.font_size


def is_prose_line(line: OrderedLine) -> bool:
    """Text that reads as a sentence: mostly letters, few wide gaps, little math. A setting
    written out ("min_alpha=0.0001,") counts as a word, digits and all."""
    chars = [c for c in line.text if not c.isspace()]
    if not chars:
        return False
    letters = sum(c.isalpha() for c in chars)
    if "=" in line.text:
        settings = [token for token in line.text.split() if _SETTING_RE.match(token)]
        letters += sum(not c.isalpha() for token in settings for c in token)
    return letters / len(chars) >= 0.55 and line.math_share < 0.3 and not is_table_row(line)


def has_words(line: OrderedLine) -> bool:
    """Running text with inline math: three or more words of two or more letters, making
    up at least 40% of the line ("ken t k given the history (t 1, ..., t k−1):")."""
    chars = sum(not c.isspace() for c in line.text)
    tokens = (token.strip(".,;:()") for token in line.text.split())
    words = [word for word in tokens if len(word) >= 2 and word.isalpha()]
    return len(words) >= 3 and sum(len(word) for word in words) >= 0.4 * chars and not is_table_row(line)


def same_row(first: OrderedLine, second: OrderedLine) -> bool:
    """Whether two lines sit on one baseline: pieces of one line cut at a wide gap."""
    return first.page == second.page and abs(second.top - first.top) < 0.3 * max(first.font_size, second.font_size)


def is_list_item(line: OrderedLine) -> bool:
    """A line that starts an item of a list: "• Batch size: 2,048", "b. Case type", "(ii) the"."""
    return bool(_LIST_ITEM_RE.match(line.text))


def is_wide(line: OrderedLine) -> bool:
    return line.width >= 0.55 * line.box.width


def reaches_right_edge(line: OrderedLine, edge: float | None = None) -> bool:
    """Whether a line runs to the right edge (of its column, or ``edge``): the text goes on."""
    return line.x1 >= (line.box.x1 if edge is None else edge) - 2.5 * line.font_size


def right_edge(block: "Block") -> float:
    """Where a block's full lines end: its own widest line when it has a few (an indented
    abstract is narrower than the column), else its column's edge."""
    if len(block.lines) >= 3:
        return max(line.x1 for line in block.lines)
    return block.lines[0].box.x1


def _numeric_rows(block: "Block") -> bool:
    """Three or more lines nearly all ending in a number ("SVM (Rink and Harabagiu, 2010) 82.2"):
    the rows of a results table, however much they read like text."""
    if len(block.lines) < 3:
        return False
    ending_in_number = sum(bool(_NUMBER_END_RE.search(line.text)) for line in block.lines)
    return ending_in_number >= 0.75 * len(block.lines)


def _stacked_number_rows(blocks: list["Block"]) -> set[int]:
    """The short blocks (one or two lines) ending in a number right above or below another
    block's line ending in one ("ESIM+TreeLSTM (Chen et al., 2017) 88.6" over "88.7 ± 0.17"):
    rows of a table whose cells were read apart into blocks of their own, each too short
    for :func:`_numeric_rows`, however much their labels read like text."""
    stacked: set[int] = set()
    for i in range(len(blocks) - 1):
        if _rows_stack(blocks[i].lines[-1], blocks[i + 1].lines[0]):
            stacked |= {i, i + 1}
    return {i for i in stacked if len(blocks[i].lines) <= 2}


def _rows_stack(upper: OrderedLine, lower: OrderedLine) -> bool:
    """Two lines ending in a number, one right below the other (not items of a list)."""
    if upper.page != lower.page or is_list_item(upper) or is_list_item(lower):
        return False
    if not (_NUMBER_END_RE.search(upper.text) and _NUMBER_END_RE.search(lower.text)):
        return False
    overlap = upper.x0 < lower.x1 and lower.x0 < upper.x1
    return overlap and 0 < lower.top - upper.top <= 1.5 * max(upper.font_size, lower.font_size)


def _is_short(line: OrderedLine) -> bool:
    return not reaches_right_edge(line)


class BlockClassifier:
    """Decides the :class:`Kind` of each block from fonts, geometry and its neighbours."""

    def __init__(self, blocks: list[Block], body_size: float) -> None:
        self.blocks = blocks
        self.body_size = body_size
        # Lowest body-size line of each (page, column): footnotes sit below it.
        self.body_bottom: dict[tuple[int, int], float] = {}
        for block in blocks:
            if self._is_body_size(block) and any(is_prose_line(line) for line in block.lines):
                key = (block.page, block.column)
                self.body_bottom[key] = max(self.body_bottom.get(key, 0.0), block.bottom)
        self.captions = self._real_captions()
        # By id: _is_body is asked about neighbours too, which it knows as blocks, not indices.
        self.table_rows = {id(blocks[i]) for i in _stacked_number_rows(blocks)}
        # Lines by (page, rounded top), to find the cells that share a row.
        self.rows: dict[tuple[int, int], list[OrderedLine]] = {}
        for block in blocks:
            for line in block.lines:
                for top in (round(line.top) - 1, round(line.top), round(line.top) + 1):
                    self.rows.setdefault((line.page, top), []).append(line)
        self.float_bottom = self._full_width_floats()

    def _real_captions(self) -> set[int]:
        """The blocks that are captions. A label ("Table 2") captions one float only: when
        several blocks start with it, a sentence that happens to begin with "Table 2." at a
        line start is one of them, so the block set smaller than body text (else the first)
        is the caption."""
        by_label: dict[str, list[int]] = {}
        for i, block in enumerate(self.blocks):
            label = caption_label(block.lines[0].text)
            if label is not None:
                by_label.setdefault(label, []).append(i)
        real = set()
        for indices in by_label.values():
            smaller = [i for i in indices if self.blocks[i].font_size < self.body_size - 0.3]
            real.add((smaller or indices)[0])
        return real

    def _full_width_floats(self) -> dict[int, float]:
        """Per page, where a float set across both columns ends: the top of its caption.
        Such floats stand at the top of a page (LaTeX puts them nowhere else), so every
        block above the caption belongs to them: cells that read like prose ("playing,
        game, games, played"), example sentences. Only a caption with body text below it
        counts, and never on the first page, whose title and authors span the page too."""
        bottom: dict[int, float] = {}
        for i in self.captions:
            caption = self.blocks[i]
            if caption.column != SPANNING or caption.page == 0:
                continue
            # Blocks are in reading order: what lies below the caption on its page comes after it.
            later = itertools.takewhile(lambda b: b.page == caption.page, self.blocks[i + 1:])
            if any(b.top > caption.bottom and self._is_body(b) for b in later):
                bottom[caption.page] = max(bottom.get(caption.page, 0.0), caption.top)
        return bottom

    def classify(self) -> list[Kind]:
        kinds = [self._kind(i) for i in range(len(self.blocks))]
        for i in [*self._float_labels(kinds), *self._algorithm_steps()]:
            kinds[i] = Kind.DROP
        return kinds

    def _algorithm_steps(self) -> list[int]:
        """The blocks of numbered pseudo-code under an algorithm's caption, which sits on top
        ("Algorithm 1: Post-training" then "1 ∇Θ L ← 0" ... "7 end", "8 Θ ← ParameterUpdates"):
        each block goes on with the next line numbers, or is a scrap of a formula between
        them ("u"). They end at the first block that is neither."""
        steps = []
        for c in sorted(self.captions):
            caption = self.blocks[c]
            if not (caption_label(caption.lines[0].text) or "").startswith("algorithm"):
                continue
            expected = 1
            for j in range(c + 1, len(self.blocks)):
                block = self.blocks[j]
                if (block.page, block.column) != (caption.page, caption.column):
                    break
                numbers = [int(m.group(1)) for line in block.lines if (m := LINE_NUMBER_RE.match(line.text))]
                if numbers and numbers[0] == expected:
                    expected = numbers[-1] + 1
                elif numbers or any(is_prose_line(line) and len(line.text.split()) >= 3 for line in block.lines):
                    break
                steps.append(j)
        return steps

    def _float_labels(self, kinds: list[Kind]) -> list[int]:
        """Body blocks that are a float's labels: a line or two of a few words, no sentence
        ("Input Output cbow count", a table's header; "Rarely to Never Include", a group of
        rows), right above dropped float content, with more of it right above or a caption
        further down the column before any text."""
        labels = []
        for i, (block, kind) in enumerate(zip(self.blocks, kinds)):
            if kind is not Kind.BODY or len(block.lines) > 2:
                continue
            if any(len(line.text.split()) > 8 or (_fills_column(line) and not line.wide_gaps) for line in block.lines):
                continue  # a line of running text ("Recently, some state-of-the-art methods with")
            if block.lines[-1].text.rstrip().endswith((*SENTENCE_END, ";")):
                continue
            if block.lines[0].text[:1].islower():
                continue  # a sentence going on ("we define its score to be" above a formula)
            below, above = self._close_neighbour(i, 1), self._close_neighbour(i, -1)
            if below is None or kinds[below] is not Kind.DROP:
                continue
            if (above is not None and kinds[above] is Kind.DROP) or self._above_caption(i):
                labels.append(i)
        return labels

    def _close_neighbour(self, i: int, step: int) -> int | None:
        """The block right above (``step`` -1) or below (+1) block ``i`` in its column, if close."""
        j = i + step
        if not 0 <= j < len(self.blocks):
            return None
        block, other = self.blocks[i], self.blocks[j]
        if (other.page, other.column) != (block.page, block.column):
            return None
        upper, lower = (other, block) if step < 0 else (block, other)
        return j if -0.5 * self.body_size <= lower.top - upper.bottom <= 2.5 * self.body_size else None

    def _kind(self, i: int) -> Kind:
        block = self.blocks[i]
        first = block.lines[0].text
        if is_references_heading(first) and len(block.lines) <= 2:
            return Kind.REFERENCES
        if i in self.captions:
            return Kind.CAPTION
        if block.bottom <= self.float_bottom.get(block.page, float("-inf")):
            return Kind.DROP
        if is_abstract_heading(first) and len(block.lines) == 1 and block.page == 0:
            return Kind.HEADER  # even with a figure's labels, not text, right below it
        if self._under_abstract_heading(i):
            return Kind.BODY  # the abstract, even set smaller than the body (9 pt under 11 pt)
        if self._looks_like_header(block) and (self._followed_by_text(i) or self._is_section_heading(block)):
            return Kind.HEADER
        if self._is_code(block) and not self._above_caption(i):
            return Kind.CODE
        if self._is_row_label(block):
            return Kind.DROP
        if self._is_footnote(block):
            return Kind.FOOTNOTE
        if self._is_body(block) and not self._right_above_caption(i) or self._is_list_under_text(i):
            return Kind.BODY
        if self._is_body_size(block) and len(block.lines) <= 2 and is_prose_line(block.lines[0]):
            return Kind.FRAGMENT
        return Kind.DROP

    def _under_abstract_heading(self, i: int) -> bool:
        """Block ``i`` is the prose right under page 1's one-line "Abstract" heading."""
        if i == 0:
            return False
        block, heading = self.blocks[i], self.blocks[i - 1]
        return (block.page == heading.page == 0 and block.column == heading.column and len(heading.lines) == 1
                and is_abstract_heading(heading.lines[0].text) and len(block.lines) >= 2
                and 0 <= block.top - heading.bottom <= 2.5 * self.body_size and is_prose_line(block.lines[0]))

    def _is_body_size(self, block: Block) -> bool:
        # An appendix may be set a point larger (a datasheet in 11 pt after a 10 pt paper).
        return self.body_size - 1.2 <= block.font_size <= self.body_size + 1.1

    def _looks_like_header(self, block: Block) -> bool:
        """A short block set bold or larger than body text: "3.1 Pre-training BERT"."""
        if len(block.lines) > 3 or any(is_table_row(line) for line in block.lines):
            return False  # "System   Configuration   BLEU" is a table's header row
        text = block.text
        words = text.split()
        letters = sum(c.isalpha() for c in text)
        if not words or len(words) > 18 or letters < 3 or letters < 0.5 * len(text.replace(" ", "")):
            return False
        if text.rstrip().endswith((",", ";")) or not (text[0].isupper() or text[0].isdigit()):
            return False
        size = block.font_size
        if not self.body_size - 0.6 <= size <= self.body_size + 3.5:
            return False
        bold = all(line.bold for line in block.lines)
        larger = size >= self.body_size + 0.8
        if not (bold or size >= self.body_size + 1.2):  # plain text a point larger is not a header
            return False
        return bool(_NUMBERED_HEADER_RE.match(text)) or len(words) <= 10 or larger

    def _is_section_heading(self, block: Block) -> bool:
        """A numbered heading, bold and larger than body text ("E Training corpus sizes"): a
        header even when a table, not text, comes right below it."""
        bold = all(line.bold for line in block.lines)
        return bold and block.font_size >= self.body_size + 0.8 and bool(_NUMBERED_HEADER_RE.match(block.text))

    def _followed_by_text(self, i: int) -> bool:
        """Headers head something: the next block is text (or another header) right below."""
        if i + 1 >= len(self.blocks):
            return False
        block, nxt = self.blocks[i], self.blocks[i + 1]
        if is_references_heading(nxt.lines[0].text):
            return True
        if nxt.page == block.page and nxt.column == block.column and nxt.top - block.bottom > 4 * self.body_size:
            return False
        return self._is_body(nxt) or self._is_footnote(nxt) or self._looks_like_header(nxt)

    def _is_body(self, block: Block) -> bool:
        if not self._is_body_size(block) or _numeric_rows(block) or self._is_row_label(block):
            return False
        if id(block) in self.table_rows:
            return False
        lines = block.lines
        prose = [is_prose_line(line) for line in lines]
        if len(lines) == 1:
            return prose[0] and (is_wide(lines[0]) or len(lines[0].text.split()) >= 4)
        # A list's short items ("b. Case type") count as full lines: they end early by design.
        wide_prose = sum(p and (is_wide(line) or is_list_item(line)) for p, line in zip(prose, lines[:-1]))
        return wide_prose >= 0.6 * (len(lines) - 1)

    def _is_list_under_text(self, i: int) -> bool:
        """A list set smaller than the body, right below the text that announces it ("...
        with the following set of hyper-parameters:" then "• Batch Size (supervised): 64"):
        the paper's own text, though its font is a figure's or a table's."""
        block = self.blocks[i]
        if i == 0 or not is_list_item(block.lines[0]) or not self.body_size - 2.5 <= block.font_size <= self.body_size:
            return False
        above = self.blocks[i - 1]
        if (above.page, above.column) != (block.page, block.column) or not above.lines[-1].text.rstrip().endswith(":"):
            return False
        if not (0 <= block.top - above.bottom <= 2.5 * self.body_size and self._is_body(above)):
            return False
        return sum(is_prose_line(line) or is_list_item(line) for line in block.lines) >= 0.6 * len(block.lines)

    def _is_row_label(self, block: Block) -> bool:
        """Table cells' first column, read as a block of its own because the cells were read
        apart: each of its prose lines has cells to its right on the same baseline
        ("SPTree (Miwa and Bansal, 2016)" then "- - 75.9 75.9 - -"; "Zhang and Wang (2015)*"
        in small type at the foot of a column, which would otherwise pass for a footnote)."""
        prose = [line for line in block.lines if is_prose_line(line)]
        return bool(prose) and len(block.lines) <= 3 and all(self._has_cells_right(line) for line in prose)

    def _has_cells_right(self, line: OrderedLine) -> bool:
        return any(
            other.x0 > line.x1 and not is_prose_line(other) and (line.column == SPANNING or other.column == line.column)
            for other in self.rows.get((line.page, round(line.top)), ())
        )

    def _is_code(self, block: Block) -> bool:
        """Monospace lines of a listing ("1 >>> import papermage as pm", "SELECT name FROM ..."),
        at body size or the smaller size of a listing; not URLs, e-mail addresses or table rows."""
        if not self.body_size - 3.5 <= block.font_size <= self.body_size + 0.6 or len(block.text.split()) < 2:
            return False
        return all(
            line.mono_share >= 0.6 and not is_table_row(line) and not _ADDRESS_RE.search(line.text)
            for line in block.lines
        )

    def _right_above_caption(self, i: int) -> bool:
        """Whether a caption follows at once, a line or two below: the block is the last row
        of a table or the text of a figure ("Bottom-Up Summarization 47.38 31.23 41.81")."""
        block = self.blocks[i]
        nxt = self.blocks[i + 1] if i + 1 < len(self.blocks) else None
        if nxt is None or nxt.page != block.page or nxt.column not in (block.column, SPANNING):
            return False
        return i + 1 in self.captions and 0 <= nxt.top - block.bottom < 2.5 * self.body_size

    def _above_caption(self, i: int) -> bool:
        """Whether a caption follows in the same column before any body text: the block is
        part of a figure (the SQL queries of "Figure 3: SQL query examples")."""
        block = self.blocks[i]
        for j in range(i + 1, len(self.blocks)):
            nxt = self.blocks[j]
            if nxt.page != block.page or nxt.column != block.column:
                return False
            if j in self.captions:
                return True
            if self._is_body(nxt):
                return False
        return False

    def _is_footnote(self, block: Block) -> bool:
        """Smaller prose at the foot of a column, below all of its body text."""
        if not self.body_size - 4 <= block.font_size <= self.body_size - 1.2:
            return False
        if block.top < self.body_bottom.get((block.page, block.column), 0.0):
            return False
        if block.lines[-1].bottom < 0.7 * block.lines[-1].page_height:
            return False
        first = block.lines[0]
        if len(block.lines) == 1 and not (first.marker_start or is_wide(first) or first.text[:1].islower()):
            return False  # a table's label ("Input type Output type"), not a footnote or its tail
        prose = sum(is_prose_line(line) or bool(_URL_ONLY_RE.match(line.text)) for line in block.lines)
        return prose >= 0.5 * len(block.lines)


def is_url_only(text: str) -> bool:
    return bool(_URL_ONLY_RE.match(text))
