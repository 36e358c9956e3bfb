"""Read the text layer of a PDF into lines with coordinates and fonts, using pypdfium2.

PDFium gives us characters in content-stream order with their boxes and font sizes;
we rebuild lines from geometry ourselves (a change of baseline, a jump backwards, or
a gap wider than a table column's) because PDFium's own line breaks merge table
cells and swallow line-end hyphens. Coordinates are turned top-down (``top`` grows
down the page) so that sorting by ``top`` is reading order within a column.
"""

from __future__ import annotations

import ctypes
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from sciner.errors import InputNotFoundError, PDFError

# PDFium's marker for a hyphen it judged to be a line-break hyphen.
_PDFIUM_HYPHEN = 0xFFFE
_SOFT_HYPHEN = 0x00AD
# Superscript glyphs that mark footnotes or affiliations rather than text.
_MARKER_CHARS = set("0123456789*†‡§¶∗⋆♠♣♦♥#")
# Accents that LaTeX's OT1 fonts draw as glyphs of their own (see :func:`sciner.pdf.clean.normalize_accents`).
SPACING_ACCENTS = frozenset("¨´`ˆ˜ˇ˚¸")
# Control, unassigned, private-use and surrogate code points carry no text.
_JUNK_CATEGORIES = frozenset({"Cc", "Cn", "Co", "Cs"})
_BOLD_NAME_HINTS = ("bold", "medi", "semibold", "demi", "black", "heavy", "cmbx")
_REGULAR_NAME_HINTS = ("regu", "roman", "ital", "book", "light", "normal", "cmr", "cmmi", "cmsy")
_MATH_FONT_PREFIXES = ("cmmi", "cmsy", "cmex", "msbm", "msam", "rsfs", "eufm", "stix", "mt2mi", "mt2sy")
_MONO_NAME_HINTS = (
    "mono", "courier", "cmtt", "sftt", "ectt", "typewriter", "inconsolata", "consol", "menlo", "nimbusmon",
)
# Math glyphs drawn above a letter (the arrow of a vector, a bar): not text of their own.
_OVER_ACCENTS = frozenset("−→←↔¯˜ˆ^~˙")

@dataclass
class PdfLine:
    """One line of text (or one cell of a table row) on a page.

    ``hyphenated`` says the line ended with a hyphen at the line break, which
    :mod:`sciner.pdf.clean` later decides to keep or join.
    """

    text: str
    page: int
    x0: float
    x1: float
    top: float
    bottom: float
    font_size: float
    bold_share: float
    hyphenated: bool = False
    math_share: float = 0.0
    mono_share: float = 0.0
    wide_gaps: int = 0
    evenly_spread: bool = False
    marker_start: bool = False
    # Where the line breaks into table cells, if it does: each piece's (x0, x1, text), split at
    # gaps of CELL_GAP font sizes or more (empty: the line is one piece, or the page was read
    # without ``cells``: only the table reader needs them).
    pieces: tuple[tuple[float, float, str], ...] = ()

    def cells(self) -> list[tuple[float, float, str]]:
        """The line's table cells, left to right: its pieces, or the whole line as one."""
        return list(self.pieces) or [(self.x0, self.x1, self.text)]

    @property
    def bold(self) -> bool:
        """Set in bold throughout (section headers), not just a bold run-in heading."""
        return self.bold_share >= 0.9

    @property
    def width(self) -> float:
        return self.x1 - self.x0

    @property
    def height(self) -> float:
        return self.bottom - self.top


@dataclass
class PdfPage:
    """The lines of one page, in content-stream order, and the page size in points; ``rotated``:
    its rotated text (the arXiv side stamp, a rotated table label), apart from the lines."""

    number: int
    width: float
    height: float
    lines: list[PdfLine] = field(default_factory=list)
    rotated: str = ""


@dataclass
class _Glyph:
    char: str
    x0: float
    x1: float
    top: float
    bottom: float
    baseline: float
    size: float
    bold: bool
    math: bool
    mono: bool = False


@dataclass
class _LineBuilder:
    """Accumulates glyphs sharing a baseline; tracks the dominant font to spot superscripts."""

    glyphs: list[_Glyph] = field(default_factory=list)
    baseline: float = 0.0
    size: float = 0.0
    x_end: float = 0.0
    space_pending: list[int] = field(default_factory=list)

    def fill_gap(self, glyph: _Glyph, rules: list[tuple[float, float, float]]) -> bool:
        """Put an underscore where a short rule is drawn in the gap before ``glyph``
        ("employee_id"); returns whether it did, so that the gap is no space.

        LaTeX draws ``\\_`` as a rule at the baseline, not as a glyph, when the font has
        none (OT1 typewriter fonts); PDFium sees only a gap there.
        """
        if not self.glyphs:
            return False
        for x0, x1, y in rules:
            gap = glyph.x0 - self.x_end
            in_gap = self.x_end - 1.0 <= x0 and x1 <= glyph.x0 + 1.0 and x1 - x0 >= 0.6 * gap
            if in_gap and -0.1 * glyph.size <= y - glyph.baseline <= 0.35 * glyph.size:
                top = y - 0.1 * glyph.size
                self.add(_Glyph("_", x0, x1, top, y, glyph.baseline, glyph.size, False, False, glyph.mono), False)
                return True
        return False

    def add(self, glyph: _Glyph, space_before: bool, after_break: bool = False) -> None:
        """Append ``glyph``; ``after_break`` says PDFium put a line break before it.

        PDFium writes a line break instead of the space after a raised or lowered glyph
        ("order³ since"); the gap tells whether there was a space.
        """
        if after_break and self.glyphs and glyph.x0 - self.x_end > 0.2 * glyph.size:
            space_before = True
        elif self.glyphs and self._missed_space(self.glyphs[-1], glyph):
            space_before = True
        if space_before and self.glyphs:
            self.space_pending.append(len(self.glyphs))
        if not self.glyphs or glyph.size > self.size * 1.15:
            # A larger glyph sets the line's baseline: a line may start with a superscript.
            self.baseline, self.size = glyph.baseline, glyph.size
        self.glyphs.append(glyph)
        self.x_end = max(self.x_end, glyph.x1)

    def insert_accent(self, glyph: _Glyph) -> bool:
        """Place a separately drawn accent ("`" over the a of "Màrquez") before its letter.

        LaTeX's OT1 fonts draw accents as their own glyphs, often after the word; left
        where they come they would break the line. Returns False if it is not over this line.
        """
        if not self.glyphs or glyph.char not in SPACING_ACCENTS:
            return False
        center = (glyph.x0 + glyph.x1) / 2
        if not self.glyphs[0].x0 <= center <= self.x_end:
            return False
        if abs(glyph.baseline - self.baseline) > self.size:
            return False
        at = min(range(len(self.glyphs)), key=lambda i: abs((self.glyphs[i].x0 + self.glyphs[i].x1) / 2 - center))
        if self.glyphs[at - 1].char == glyph.char if at else False:
            return True  # already placed (some fonts draw it twice)
        self.glyphs.insert(at, glyph)
        self.space_pending = [i + 1 if i >= at else i for i in self.space_pending]
        return True

    @staticmethod
    def _missed_space(before: _Glyph, after: _Glyph) -> bool:
        """A word gap between two letters that PDFium did not mark with a space ("Will the"
        in some Lato-set PDFs). Letters sit closer than a quarter of the font size; a
        monospace font's narrow glyphs leave more room in their cells."""
        if not (before.char.isalnum() and after.char.isalnum()):
            return False
        if abs(before.baseline - after.baseline) > 0.1 * after.size:
            return False
        return after.x0 - before.x1 > (0.4 if after.mono else 0.26) * after.size

    def is_over_accent(self, glyph: _Glyph) -> bool:
        """A vector arrow or bar drawn above a letter of this line ("h" with an arrow over it)."""
        if not self.glyphs or not glyph.math or glyph.char not in _OVER_ACCENTS:
            return False
        raised = self.baseline - glyph.baseline
        return 0.45 * self.size <= raised <= 1.2 * self.size and glyph.x0 <= self.x_end + self.size

    def accepts(self, glyph: _Glyph, column_gap: float) -> bool:
        if not self.glyphs:
            return True
        size = min(glyph.size, self.size)
        same_baseline = abs(glyph.baseline - self.baseline) <= 0.35 * size
        if not same_baseline and not self._is_script(glyph):
            return False
        gap = glyph.x0 - self.x_end
        big = max(glyph.size, self.size)
        # Overlap is allowed: PDFium gives both letters of a ligature the ligature's box, and
        # a subscript goes back under its superscript ("W" with "(n)" above and "Q" below).
        return -1.5 * big <= gap <= column_gap * big

    def _is_script(self, glyph: _Glyph) -> bool:
        """A smaller glyph raised or lowered within the line (superscript, subscript)."""
        small, big = (glyph, self) if glyph.size < self.size else (self, glyph)
        if small.size > 0.85 * big.size:
            return False
        offset = self.baseline - glyph.baseline  # positive: the glyph sits higher
        return -0.45 * big.size <= offset <= 0.75 * big.size

    def finish(self, page: int, cells: bool = False) -> PdfLine | None:
        """The line of the glyphs added (None if none), with its table ``pieces`` when ``cells``."""
        if not self.glyphs:
            return None
        pieces: list[str] = []
        spaces = set(self.space_pending)
        kept: list[_Glyph] = []
        starts: list[int] = []  # where each kept glyph's text starts in ``pieces``
        marker_start = False
        markers = self._marker_indices()
        for i, glyph in enumerate(self.glyphs):
            if i in markers:
                marker_start = marker_start or not kept
                continue
            space = i in spaces or (kept and self._script_boundary(kept[-1], glyph))
            if space and pieces and not pieces[-1].endswith(" "):
                pieces.append(" ")
            starts.append(len(pieces))
            pieces.append(glyph.char)
            kept.append(glyph)
        text = mend_symbols("".join(pieces).strip())
        if not text or not kept:
            return None
        hyphenated = text.endswith(("-", "\u00ad")) and len(text) > 1
        if hyphenated:
            text = text.rstrip("-\u00ad") + "-"
        main = [g for g in kept if g.size >= 0.85 * self.size] or kept
        wide_gaps = _count_wide_gaps(kept, self.size)
        return PdfLine(
            text=text,
            page=page,
            x0=min(g.x0 for g in kept),
            x1=max(g.x1 for g in kept),
            top=min(g.top for g in main),
            bottom=max(g.bottom for g in main),
            font_size=round(self.size, 1),
            bold_share=sum(g.bold for g in main) / len(main),
            hyphenated=hyphenated,
            math_share=sum(g.math for g in kept) / len(kept),
            mono_share=sum(g.mono for g in kept) / len(kept),
            wide_gaps=wide_gaps,
            evenly_spread=wide_gaps >= 2 and _evenly_spread(kept, self.size),
            marker_start=marker_start,
            pieces=_cell_pieces(kept, starts, pieces, self.size) if cells else (),
        )

    def _script_boundary(self, before: _Glyph, after: _Glyph) -> bool:
        """Entering or leaving a sub/superscript between two alphanumerics ("BERT|BASE", "A|ij"),
        or going from a superscript to a subscript ("W(n)|Q").

        Other extractors (and the task's inputs) split these into separate tokens.
        """
        if self._is_scripted(before) and self._is_scripted(after):  # "W^(n)_Q": superscript, then subscript
            return after.char.isalnum() and abs(before.baseline - after.baseline) > 0.3 * self.size
        if not (before.char.isalnum() and after.char.isalnum()):
            return False
        return self._is_scripted(before) != self._is_scripted(after)

    def _is_scripted(self, glyph: _Glyph) -> bool:
        return glyph.size <= 0.85 * self.size and abs(glyph.baseline - self.baseline) > 0.1 * self.size

    def _is_raised(self, glyph: _Glyph) -> bool:
        return glyph.size <= 0.85 * self.size and self.baseline - glyph.baseline >= 0.2 * self.size

    def _word_before(self, i: int) -> str:
        """The text of the word that glyph ``i`` follows (back to the last space)."""
        spaces = set(self.space_pending)
        start = i
        while start > 0 and start not in spaces and not self._is_raised(self.glyphs[start - 1]):
            start -= 1
        return "".join(glyph.char for glyph in self.glyphs[start:i])

    def _marker_indices(self) -> set[int]:
        """Raised footnote markers ("BERT¹", "Google†,‡") to drop.

        A run of raised glyphs is a marker only if all of it is digits or marker symbols
        and it does not follow a number (10⁵, "(2^10"; but "v3.0.0⁹" and "GPT-3¹" are names with a footnote)
        or a math-font glyph (n² in "O(n²)", θ¹) —
        "h^(0)" and "W^(l-1)" are math and stay.
        """
        markers: set[int] = set()
        i = 0
        while i < len(self.glyphs):
            if not self._is_raised(self.glyphs[i]):
                i += 1
                continue
            end = i
            while end < len(self.glyphs) and self._is_raised(self.glyphs[end]):
                end += 1
            run = self.glyphs[i:end]
            prev = self.glyphs[i - 1] if i > 0 else None
            exponent = prev is not None and not self._is_raised(prev) and (
                prev.math or (prev.char.isdigit() and not any(c.isalpha() for c in self._word_before(i)))
            )
            if all(g.char in _MARKER_CHARS or g.char == "," for g in run) and not exponent:
                markers.update(range(i, end))
            i = end
        return markers


# A gap of this many font sizes between two glyphs of a line separates table cells (a word
# space is about a quarter of one); only the table reader (:mod:`sciner.pdf.tables`) reads it.
CELL_GAP = 0.8
# What may end a cell before a number in a tight table row: a number's sign, a citation's bracket, a mark.
_NUMBER_ENDS = frozenset("%)]*†‡")


# A font whose glyph names map to the wrong characters prints "5.8 ± 1.1" as "5.8 ˘ 1.1" (a
# breve); between two numbers the breve can be nothing else.
_BREVE_PLUS_MINUS_RE = re.compile(r"(?<=\d)( ?)\u02d8( ?)(?=\.?\d)")


def mend_symbols(text: str) -> str:
    """A line's text with symbols a broken font encoding misnames put right ("5.8 ˘ 1.1" →
    "5.8 ± 1.1")."""
    return _BREVE_PLUS_MINUS_RE.sub(r"\1±\2", text) if "\u02d8" in text else text


def _cell_pieces(kept: list[_Glyph], starts: list[int], pieces: list[str],
                 size: float) -> tuple[tuple[float, float, str], ...]:
    """The line cut at gaps of :data:`CELL_GAP` font sizes, and at a space before a number
    that follows a number or a citation (a tight table's "86.6 86.3" or "(Xu et al., 2015)* 66.3"
    is two cells): each piece's x0, x1 and text; empty when there is no cut."""
    def cut(i: int) -> bool:
        if kept[i].x0 - kept[i - 1].x1 >= CELL_GAP * size:
            return True
        spaced = pieces[starts[i] - 1] == " "
        return spaced and (kept[i - 1].char.isdigit() or kept[i - 1].char in _NUMBER_ENDS) and kept[i].char.isdigit()

    cuts = [i for i in range(1, len(kept)) if cut(i)]
    if not cuts:
        return ()
    bounds = [0, *cuts, len(kept)]
    return tuple(
        (min(g.x0 for g in kept[a:b]), max(g.x1 for g in kept[a:b]),
         mend_symbols("".join(pieces[starts[a]:starts[b] if b < len(kept) else len(pieces)]).strip()))
        for a, b in zip(bounds, bounds[1:])
    )


def _count_wide_gaps(glyphs: list[_Glyph], size: float) -> int:
    """Gaps much wider than the line's word spacing: they separate table cells.

    A loosely justified line has uniformly wide spaces, so a gap counts only when it
    is both wider than 1.2 font sizes and three times the narrowest word gap -- or when
    every gap is that wide: a table's header row ("Lang.   Back-   Synth.   Total"), or a
    line stretched from one edge of its column to the other, which ``evenly_spread`` and
    the line's width tell apart.
    """
    word_gaps = _word_gaps(glyphs, size)
    if not word_gaps:
        return 0
    if len(word_gaps) == 1:
        return int(word_gaps[0] > 1.5 * size)
    narrowest = min(word_gaps)
    if narrowest > 1.2 * size:
        return len(word_gaps)
    return sum(1 for gap in word_gaps if gap > 1.2 * size and gap > 3 * narrowest)


def _evenly_spread(glyphs: list[_Glyph], size: float) -> bool:
    """Half or more of the word gaps wide and all of those alike: a justified line stretched around an
    unbreakable piece ("As   shown   through   ELMo   (Peters et al.,"), or a table's
    header row; only the line's width tells them apart."""
    word_gaps = _word_gaps(glyphs, size)
    narrowest = min(word_gaps, default=0.0)
    wider = [gap for gap in word_gaps if gap > 3 * narrowest or narrowest > 1.2 * size]
    return len(wider) >= 2 and 2 * len(wider) >= len(word_gaps) and max(wider) <= 1.3 * min(wider)


def _word_gaps(glyphs: list[_Glyph], size: float) -> list[float]:
    gaps = [b.x0 - a.x1 for a, b in zip(glyphs, glyphs[1:])]
    return [gap for gap in gaps if gap > 0.15 * size]


def open_pdf(path: str | Path):
    """Open ``path`` with PDFium, turning every way it can fail into a one-line :class:`PDFError`."""
    import pypdfium2 as pdfium

    path = Path(path)
    if not path.exists():
        raise InputNotFoundError(f"{path}: no such file")
    if path.is_dir():
        raise PDFError(f"{path}: is a directory, not a PDF")
    with path.open("rb") as handle:
        head = handle.read(1024)
    if not head:
        raise PDFError(f"{path}: the file is empty")
    if b"%PDF" not in head:
        raise PDFError(f"{path}: not a PDF (no %PDF header)")
    try:
        document = pdfium.PdfDocument(str(path))
    except pdfium.PdfiumError as exc:
        if "password" in str(exc).lower():
            raise PDFError(f"{path}: the PDF is encrypted (password-protected)") from None
        raise PDFError(f"{path}: PDFium cannot read it ({exc})") from None
    if len(document) == 0:
        document.close()
        raise PDFError(f"{path}: the PDF has no pages")
    return document


Progress = Callable[[int, int], None]


def read_pdf_pages(path: str | Path, progress: Progress | None = None, cells: bool = False) -> list[PdfPage]:
    """Every page of ``path`` as lines in content-stream order (``cells``: with each line's
    table cells, :attr:`PdfLine.pieces`, for reading tables).

    ``progress(pages_done, pages_total)`` is called after each page: reading the pages is
    most of the time an extraction takes (seconds for a long paper).
    Raises :class:`PDFError` for files that are not PDFs, are encrypted, or have no
    text layer (scanned images).
    """
    import pypdfium2 as pdfium

    document = open_pdf(path)
    pages = []
    try:
        total = len(document)
        for i in range(total):
            try:
                pages.append(_read_page(document[i], i, cells=cells))
            except pdfium.PdfiumError as exc:
                raise PDFError(f"{path}: page {i + 1} cannot be read ({exc})") from None
            if progress is not None:
                progress(i + 1, total)
    finally:
        document.close()
    # Blank pages do not count: a paper with blank pages appended still has a text layer.
    chars_per_page = [sum(len(line.text) for line in page.lines) for page in pages]
    text_pages = sum(n > 0 for n in chars_per_page)
    if text_pages == 0 or sum(chars_per_page) < 20 * text_pages:
        raise PDFError(f"{path}: no text layer (a scanned PDF? run OCR first)")
    return pages


def _read_page(page, number: int, column_gap: float = 4.0, cells: bool = False) -> PdfPage:
    """Rebuild the lines of one page from PDFium's characters.

    ``column_gap`` (in font sizes) is the widest horizontal gap kept inside one line;
    wider gaps separate columns. Justified lines can hold gaps of two font sizes, so
    table cells stay on one line and are told apart later by ``wide_gaps``.
    """
    import pypdfium2.raw as raw

    width, height = page.get_size()
    textpage = page.get_textpage()
    handle = textpage.raw
    left, right, bottom, top = (ctypes.c_double() for _ in range(4))
    origin_x, origin_y = ctypes.c_double(), ctypes.c_double()
    matrix = raw.FS_MATRIX()
    name = ctypes.create_string_buffer(128)
    flags = ctypes.c_int()
    result = PdfPage(number=number, width=width, height=height)
    rules = _underscore_rules(page, height)
    builder = _LineBuilder()
    space_pending = after_break = False
    font_cache: dict[bytes, tuple[bool, bool, bool]] = {}
    rotated: list[str] = []

    def flush() -> None:
        nonlocal builder
        line = builder.finish(number, cells)
        if line is not None:
            result.lines.append(line)
        builder = _LineBuilder()

    for k in range(raw.FPDFText_CountChars(handle)):
        code = raw.FPDFText_GetUnicode(handle, k)
        if code in (13, 10):
            after_break = True
            continue
        if code == 32 or code == 0xA0 or code == 9:
            space_pending = True
            continue
        angle = raw.FPDFText_GetCharAngle(handle, k)
        if 0.05 < angle < 6.23:  # rotated text: the arXiv side stamp, rotated table labels
            rotated.append((" " if space_pending and rotated else "") + chr(code))
            space_pending = False
            continue
        if raw.FPDFText_IsGenerated(handle, k):
            continue
        is_hyphen = code in (_PDFIUM_HYPHEN, _SOFT_HYPHEN) or raw.FPDFText_IsHyphen(handle, k)
        if not is_hyphen and unicodedata.category(chr(code)) in _JUNK_CATEGORIES:
            continue  # glyphs of Type3 figure fonts without a Unicode mapping
        raw.FPDFText_GetCharBox(handle, k, left, right, bottom, top)
        raw.FPDFText_GetCharOrigin(handle, k, origin_x, origin_y)
        raw.FPDFText_GetMatrix(handle, k, matrix)
        # The size set by Tf times the text matrix's scale: "1 Tf" with a scaled matrix is common.
        size = raw.FPDFText_GetFontSize(handle, k) * abs(matrix.a * matrix.d - matrix.b * matrix.c) ** 0.5
        if right.value - left.value > 3 * size or top.value - bottom.value > 3 * size:
            continue  # a Type3 glyph whose box is the whole font's: not text
        raw.FPDFText_GetFontInfo(handle, k, name, 128, flags)
        font = name.value
        if font not in font_cache:
            font_cache[font] = _font_traits(font, raw.FPDFText_GetFontWeight(handle, k))
        bold, math, mono = font_cache[font]
        char = "-" if is_hyphen else chr(code)
        if math and char == "`":
            char = "ℓ"  # Computer Modern's math italic has the script l where ASCII has "`"
        glyph = _Glyph(
            char=char,
            x0=left.value,
            x1=right.value,
            top=height - top.value,
            bottom=height - bottom.value,
            baseline=height - origin_y.value,
            size=size if size > 0 else 1.0,
            bold=bold,
            math=math,
            mono=mono,
        )
        if builder.insert_accent(glyph) or builder.is_over_accent(glyph):
            continue
        if not builder.accepts(glyph, column_gap):
            flush()
            space_pending = False
        if rules and builder.fill_gap(glyph, rules):
            space_pending = after_break = False
        builder.add(glyph, space_pending, after_break)
        space_pending = after_break = False
    flush()
    textpage.close()
    page.close()
    result.rotated = "".join(rotated)
    return result


def _underscore_rules(page, height: float) -> list[tuple[float, float, float]]:
    """Short, thin horizontal paths on the page, as (x0, x1, top-down y): drawn underscores.

    Wider rules (tables, fraction bars over several glyphs) are left out by their width,
    the dashes of a dashed underline by their neighbours.
    """
    import pypdfium2.raw as raw

    left, bottom, right, top = (ctypes.c_float() for _ in range(4))
    rules = []
    for i in range(raw.FPDFPage_CountObjects(page.raw)):
        obj = raw.FPDFPage_GetObject(page.raw, i)
        if raw.FPDFPageObj_GetType(obj) != raw.FPDF_PAGEOBJ_PATH:
            continue
        if not raw.FPDFPageObj_GetBounds(obj, left, bottom, right, top):
            continue
        width, thickness = right.value - left.value, top.value - bottom.value
        if 2.0 <= width <= 8.0 and 0.0 < thickness <= 1.2:
            rules.append((left.value, right.value, height - (top.value + bottom.value) / 2))
    return [rule for rule in rules if not _in_a_dashed_line(rule, rules)]


def _in_a_dashed_line(rule: tuple[float, float, float], rules: list[tuple[float, float, float]]) -> bool:
    """A dash of a dashed underline: another short rule a few points away on the same height."""
    x0, x1, y = rule
    return any(
        other is not rule and abs(other[2] - y) < 0.5 and (0 <= other[0] - x1 < 3.0 or 0 <= x0 - other[1] < 3.0)
        for other in rules
    )


def _font_traits(font_name: bytes, weight: int) -> tuple[bool, bool, bool]:
    """(bold, math, monospace) for a font, from its name ("NimbusRomNo9L-Medi", "CMMI10",
    "NimbusMonL-Regu") and weight.

    The name wins: PDFium reports a weight of 695 for some Times-Roman fonts.
    """
    lowered = font_name.decode("latin-1").lower().split("+")[-1]
    if any(hint in lowered for hint in _BOLD_NAME_HINTS):
        bold = True
    elif any(hint in lowered for hint in _REGULAR_NAME_HINTS):
        bold = False
    else:
        bold = weight >= 700
    math = lowered.startswith(_MATH_FONT_PREFIXES) or "math" in lowered
    mono = any(hint in lowered for hint in _MONO_NAME_HINTS)
    return bold, math, mono
