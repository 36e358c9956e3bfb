"""Convert tagged paragraphs between every format sciner reads and writes.

========== ================================= =====================================
format     extension                         what it is
========== ================================= =====================================
conll      .conll .bio .iob .tsv             ``token<TAB>tag``, blank line between paragraphs
jsonl      .jsonl                            sciner's JSONL (tokens + entity spans)
labelstudio .json                            Label Studio tasks / JSON export
doccano    .doccano.jsonl                    doccano JSONL (``text`` + ``label`` offsets)
spacy      .spacy                            spaCy DocBin
text       .txt                              one paragraph per line, no tags
========== ================================= =====================================

A ``.jsonl`` file being read is recognised as doccano by its content too.
Tokens are never changed: every format keeps them, or (text, doccano made by doccano)
is split on single spaces, the task's own tokenization.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from sciner.document import Paragraph
from sciner.errors import InputFormatError
from sciner.formats.conll import CONLL_SUFFIXES, read_conll, write_conll
from sciner.formats.docbin import read_docbin, write_docbin
from sciner.formats.doccano import read_doccano, write_doccano
from sciner.formats.jsonl import read_jsonl, write_jsonl
from sciner.formats.labelstudio import read_labelstudio, write_labelstudio
from sciner.formats.paragraphs import read_paragraphs, write_paragraphs

FORMATS: tuple[str, ...] = ("conll", "jsonl", "labelstudio", "doccano", "spacy", "text")

_READERS: dict[str, Callable[[Path], list[Paragraph]]] = {
    "conll": lambda p: read_conll(p, require_tags=False),
    "jsonl": read_jsonl,
    "labelstudio": read_labelstudio,
    "doccano": read_doccano,
    "spacy": read_docbin,
    "text": read_paragraphs,
}

_WRITERS: dict[str, Callable[[Sequence[Paragraph], Path], None]] = {
    "conll": write_conll,
    "jsonl": write_jsonl,
    "labelstudio": write_labelstudio,
    "doccano": write_doccano,
    "spacy": write_docbin,
    "text": write_paragraphs,
}

_SUFFIXES = {
    **{suffix: "conll" for suffix in CONLL_SUFFIXES},
    ".jsonl": "jsonl",
    ".json": "labelstudio",
    ".spacy": "spacy",
    ".txt": "text",
}


def format_from_path(path: str | Path) -> str:
    """The format a file name stands for (``x.doccano.jsonl`` is doccano); raises if unknown."""
    name = Path(path).name.lower()
    if name.endswith(".doccano.jsonl"):
        return "doccano"
    fmt = _SUFFIXES.get(Path(name).suffix)
    if fmt is None:
        raise InputFormatError(
            f"{path}: cannot tell the format from the extension; use one of "
            f"{', '.join(sorted(_SUFFIXES))} or name it with --from/--to ({', '.join(FORMATS)})"
        )
    return fmt


def sniff_jsonl(path: str | Path) -> str:
    """``doccano`` when the first object of a JSONL file looks like doccano's, else ``jsonl``.

    Reads only up to the first non-blank line; the reader then reports any bad byte or line.
    """
    with open(path, encoding="utf-8-sig", errors="replace", newline="\n") as handle:
        line = next((line for line in handle if line.strip()), None)
    if line is not None:
        try:
            obj = json.loads(line)
        except json.JSONDecodeError:
            return "jsonl"  # let the JSONL reader report the error with its line
        if isinstance(obj, dict) and ("label" in obj or ("text" in obj and "tokens" not in obj)):
            return "doccano"
    return "jsonl"


def check_format(fmt: str) -> str:
    """``fmt`` lower-cased, or :class:`InputFormatError` naming the known formats."""
    if fmt.lower() not in FORMATS:
        raise InputFormatError(f"unknown format {fmt!r}; expected one of {', '.join(FORMATS)}")
    return fmt.lower()


def input_format(path: str | Path, fmt: str | None = None) -> str:
    """The format to read ``path`` in: ``fmt`` if given, else from its extension and content."""
    if fmt:
        return check_format(fmt)
    fmt = format_from_path(path)
    if fmt == "jsonl" and Path(path).is_file():
        fmt = sniff_jsonl(path)
    return fmt


def read_file(path: str | Path, fmt: str | None = None) -> list[Paragraph]:
    """Read paragraphs from ``path`` in ``fmt`` (default: from the extension and content)."""
    return _READERS[input_format(path, fmt)](Path(path))


def write_file(paragraphs: Sequence[Paragraph], path: str | Path, fmt: str | None = None) -> str:
    """Write paragraphs to ``path`` in ``fmt`` (default: from the extension); returns the format used."""
    fmt = check_format(fmt) if fmt else format_from_path(path)
    _WRITERS[fmt](paragraphs, Path(path))
    return fmt


@dataclass(frozen=True)
class Conversion:
    """What :func:`convert` did: formats, paragraph and entity counts."""

    source_format: str
    target_format: str
    paragraphs: int
    entities: int


def convert(src: str | Path, dst: str | Path, *, from_format: str | None = None, to_format: str | None = None) -> Conversion:
    """Read ``src`` and write the same paragraphs, tokens and entities to ``dst``."""
    in_fmt = input_format(src, from_format)
    paragraphs = read_file(src, in_fmt)
    out_fmt = write_file(paragraphs, dst, to_format)
    entities = sum(len(p.spans or []) for p in paragraphs)
    return Conversion(in_fmt, out_fmt, len(paragraphs), entities)
