"""Lines of small hand-made PDF pages, for the tests of the PDF stages and tables.

The pages are US Letter (612 x 792 pt) with 10 pt body text on a 12 pt line pitch, set in two
220 pt columns with a 28 pt gutter, as ACL papers are."""

from __future__ import annotations

from typing import Any

from sciner.pdf.extract import PdfLine
from sciner.pdf.layout import LEFT, RIGHT, SPANNING, ColumnBox, OrderedLine

WIDTH, HEIGHT = 612.0, 792.0
BODY, PITCH = 10.0, 12.0
BOXES = {LEFT: ColumnBox(72.0, 292.0), RIGHT: ColumnBox(320.0, 540.0), SPANNING: ColumnBox(72.0, 540.0)}
WORDS = ("we train the model on a large corpus of scientific text and report results for each task "
         "with the same settings as the original work so that the numbers compare fairly").split()


def words(n: int, start: int = 0) -> str:
    """``n`` words of running text (no sentence end)."""
    return " ".join(WORDS[(start + k) % len(WORDS)] for k in range(n))


def pdf_line(text: str, top: float, x0: float, x1: float, *, size: float = BODY, page: int = 0,
             bold: bool = False, **fields: Any) -> PdfLine:
    return PdfLine(text=text, page=page, x0=x0, x1=x1, top=top, bottom=top + size, font_size=size,
                   bold_share=1.0 if bold else 0.0, hyphenated=text.endswith("-"), **fields)


def line(text: str, top: float, *, side: int = LEFT, x0: float | None = None, x1: float | None = None,
         **options: Any) -> OrderedLine:
    """A line already placed in ``side``'s column (the blocks' input); full width by default."""
    box = BOXES[side]
    raw = pdf_line(text, top, box.x0 if x0 is None else x0, box.x1 if x1 is None else x1, **options)
    return OrderedLine(raw, side, box, HEIGHT)


def paragraph(top: float, n: int, *, side: int = LEFT, start: int = 0, end: str = ".",
              **options: Any) -> list[OrderedLine]:
    """``n`` lines of body text at the line pitch, the last one short and ending with ``end``."""
    box = BOXES[side]
    return [line(words(7, start + 7 * i) + (end if i == n - 1 else ""), top + i * PITCH, side=side,
                 x1=box.x1 if i < n - 1 else box.x0 + 120.0, **options) for i in range(n)]


def text_pdf(lines: list[str]) -> bytes:
    """A one-page PDF whose body is ``lines`` in 10 pt Helvetica on the left column's width: a
    real file for the whole reader (pdfium), seconds cheaper than a paper."""
    shown = "".join(f"1 0 0 1 {BOXES[LEFT].x0:.0f} {700 - PITCH * i:.0f} Tm ({text}) Tj\n"
                    for i, text in enumerate(lines))
    content = f"BT /F1 {BODY:.0f} Tf\n{shown}ET".encode("latin-1")
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>",
               b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
               f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {WIDTH:.0f} {HEIGHT:.0f}] "
               "/Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>".encode(),
               b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
               b"<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content)]
    out, offsets = bytearray(b"%PDF-1.4\n"), []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    table = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, table)
    return bytes(out)
