"""Pick a reader by file content or extension, for commands that accept several formats."""

from __future__ import annotations

from pathlib import Path

from sciner.document import Paragraph
from sciner.formats.conll import CONLL_SUFFIXES, read_conll
from sciner.formats.jsonl import read_jsonl
from sciner.formats.paragraphs import read_paragraphs
from sciner.formats.textfile import read_lines


def guess_format(path: str | Path) -> str:
    """``conll``, ``jsonl`` or ``paragraphs`` from the extension, else from the first lines."""
    suffix = Path(path).suffix.lower()
    if suffix in CONLL_SUFFIXES:
        return "conll"
    if suffix in {".jsonl", ".json"}:
        return "jsonl"
    lines = [l for l in read_lines(path)[:50] if l.strip()]
    if lines and lines[0].lstrip().startswith("{"):
        return "jsonl"
    if lines and all(len(l.split("\t")) == 2 or len(l.split()) <= 2 for l in lines):
        # Short lines of one or two columns: tokens one per line.
        if sum(len(l.split()) for l in lines) <= 2 * len(lines):
            return "conll"
    return "paragraphs"


def read_any(path: str | Path, *, require_tags: bool = False) -> list[Paragraph]:
    """Read paragraphs from a CoNLL, JSONL or paragraph-text file."""
    fmt = guess_format(path)
    if fmt == "conll":
        return read_conll(path, require_tags=require_tags)
    if fmt == "jsonl":
        return read_jsonl(path)
    return read_paragraphs(path)
