"""What ``sciner predict`` reads: files, directories and globs of paragraph text, CoNLL, JSONL or PDF."""

from __future__ import annotations

import glob
from pathlib import Path

from sciner.document import Paragraph
from sciner.errors import InputNotFoundError
from sciner.formats.conll import CONLL_SUFFIXES
from sciner.formats.detect import read_any

READABLE_SUFFIXES = {".txt", ".jsonl", ".json", ".pdf", *CONLL_SUFFIXES}


def expand_inputs(items: list[str]) -> list[Path]:
    """Files named directly, every readable file in a named directory (sorted), and glob matches."""
    paths: list[Path] = []
    for item in items:
        p = Path(item)
        if p.is_dir():
            found = sorted(f for f in p.iterdir() if f.is_file() and f.suffix.lower() in READABLE_SUFFIXES)
            if not found:
                raise InputNotFoundError(f"{p}: directory holds no .txt, .conll, .jsonl or .pdf files")
            paths.extend(found)
        elif p.exists():
            paths.append(p)
        elif any(ch in item for ch in "*?["):
            matches = sorted(Path(m) for m in glob.glob(item, recursive=True) if Path(m).is_file())
            if not matches:
                raise InputNotFoundError(f"{item}: pattern matches no file")
            paths.extend(matches)
        else:
            raise InputNotFoundError(f"{p}: no such file or directory")
    return paths


def read_input(path: Path) -> list[Paragraph]:
    """Paragraphs of one input file; a CoNLL file's tags are ignored, a PDF is extracted first."""
    if path.suffix.lower() == ".pdf":
        from sciner.pdf import read_pdf_paragraphs

        return read_pdf_paragraphs(path)
    paragraphs = read_any(path, require_tags=False)
    for p in paragraphs:
        p.tags = None
        p.spans = []
    return paragraphs
