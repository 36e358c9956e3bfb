"""Paragraph text: one paragraph per line, tokens separated by single spaces (the task's input).

Tokens are never changed, merged or split; blank lines are skipped. Writing refuses (before
anything is written) a token holding a space, line break or carriage return, and an empty
paragraph, which would come back split or lost; see :mod:`sciner.formats.tokens`.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from sciner.document import Paragraph
from sciner.formats.textfile import keep_leading_bom, read_lines
from sciner.formats.tokens import check_writable, text_rule


def parse_paragraph_line(line: str) -> list[str]:
    """Split a paragraph line into tokens on single spaces.

    Runs of spaces would create empty tokens, so they are read as one separator;
    tabs and other whitespace inside a token are kept as they are.
    """
    return [tok for tok in line.split(" ") if tok != ""]


def read_paragraphs(path: str | Path) -> list[Paragraph]:
    """Read a paragraph-per-line file; blank lines are skipped."""
    paragraphs = []
    for lineno, line in enumerate(read_lines(path), start=1):
        tokens = parse_paragraph_line(line)
        if tokens:
            paragraphs.append(Paragraph(tokens=tokens, source=str(path), line=lineno))
    return paragraphs


def format_paragraphs(paragraphs: Iterable[Paragraph]) -> str:
    """Render paragraphs one per line, tokens joined by single spaces; :class:`UnwritableTokenError`
    on a token a paragraph line cannot carry."""
    checked = check_writable(paragraphs, "text", text_rule, empty_paragraphs=False)
    return keep_leading_bom("".join(" ".join(p.tokens) + "\n" for p in checked))
