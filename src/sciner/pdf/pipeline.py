"""The PDF stages in order: pages of lines in, paragraphs of text out (no tokenization).

Kept separate from :func:`sciner.pdf.extract_pdf` so that tests can feed hand-made pages.
"""

from __future__ import annotations

from dataclasses import replace

from sciner.pdf.blocks import split_blocks
from sciner.pdf.clean import WordCounts, remove_headers_footers
from sciner.pdf.extract import PdfPage
from sciner.formats.kinds import Kind, included
from sciner.pdf.front_matter import find_title, front_matter_end
from sciner.pdf.layout import body_font_size, is_two_column, order_page
from sciner.pdf.paragraphs import ParagraphBuilder, RawParagraph
from sciner.pdf.tables import find_tables


def paragraphs_from_pages(pages: list[PdfPage], include: frozenset[str] = frozenset()) -> list[RawParagraph]:
    """Headers/footers removed, columns ordered, blocks classified, paragraphs built (with the
    captions and table rows ``include`` asks for)."""
    if not pages:
        return []
    body_size = body_font_size(pages)
    counts = WordCounts(_unbroken_text(page) for page in pages)
    first_page = list(pages[0].lines)
    remove_headers_footers(pages, keep_rows=included(Kind.TABLE, include))
    two_column = is_two_column(pages, body_size)
    ordered = [order_page(page, body_size, two_column) for page in pages]

    title = find_title(ordered[0], body_size)
    title_ids = {id(line.line) for line in title}
    builder = ParagraphBuilder(body_size=body_size, counts=counts, include=include)
    if included(Kind.TABLE, include):
        builder.tables = [table for page in ordered for table in find_tables(page, body_size)]
    builder.front_matter_end = front_matter_end(ordered[0], title, body_size)
    if title:
        builder.add_title(title)
    lines = [line for page in ordered for line in page if id(line.line) not in title_ids]
    builder.add_blocks(split_blocks(lines))
    paragraphs = builder.finish()
    kept = {id(line.line): line for line in ordered[0]}
    # What page 1 prints beside its text (the author block, its running header, the margin's
    # arXiv stamp), for the paper's metadata (sciner.pdf.metadata): the lines dropped above.
    front = [line.text for line in first_page if id(line) not in title_ids and (
        id(line) not in kept or kept[id(line)].top < builder.front_matter_end)] + pages[0].rotated.splitlines()
    if paragraphs and front:
        paragraphs[0] = replace(paragraphs[0], front="\n".join(front))
    return paragraphs


def _unbroken_text(page: PdfPage) -> str:
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
