"""Convert tagged paragraphs between every format sciner reads and writes (see
:mod:`sciner.formats.registry` for the formats and how a file's format is decided).

Tokens are never changed: every format keeps them, or (text, doccano made by doccano) is
split on single spaces, the task's own tokenization. A token the target format cannot carry
(see :mod:`sciner.formats.tokens`) is refused before anything is written.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from sciner.formats.registry import input_format, output_format, refuse_binary, render
from sciner.outputs import Outputs
from sciner.stdio import is_stdio, write_stdout


@dataclass(frozen=True)
class Conversion:
    """What :func:`convert` did: formats, paragraph and entity counts."""

    source_format: str
    target_format: str
    paragraphs: int
    entities: int


def convert(src: str | Path, dst: str | Path, *, from_format: str | None = None, to_format: str | None = None) -> Conversion:
    """Read ``src`` and write the same paragraphs, tokens and entities to ``dst`` (never over
    ``src``; ``-`` is standard output, for text formats)."""
    source = input_format(src, from_format)
    target = output_format(None if is_stdio(dst) else dst, to_format)
    outputs = Outputs([src])
    if is_stdio(dst):
        refuse_binary(target)
    else:
        outputs.check(dst)
    paragraphs = source.read(Path(src))  # type: ignore[misc]
    content = render(paragraphs, target, title=Path(src).name)
    if is_stdio(dst):
        write_stdout(content)
    else:
        outputs.write(dst, content)
    entities = sum(len(p.spans or []) for p in paragraphs)
    return Conversion(source.name, target.name, len(paragraphs), entities)
