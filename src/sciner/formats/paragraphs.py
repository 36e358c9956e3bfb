"""Paragraph text: one paragraph per line, tokens separated by single spaces (the task's input).

Tokens are never changed, merged or split; blank lines are skipped.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from sciner.document import Paragraph
from sciner.formats.textfile import read_lines


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
    """Render paragraphs one per line, tokens joined by single spaces."""
    return "".join(" ".join(p.tokens) + "\n" for p in paragraphs)


def write_paragraphs(paragraphs: Iterable[Paragraph], path: str | Path) -> None:
    """Write paragraphs one per line."""
    from sciner.outputs import write_atomic

    write_atomic(path, format_paragraphs(paragraphs))
