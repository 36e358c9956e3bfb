"""Convert tagged paragraphs between every format sciner reads and writes (see
:mod:`sciner.formats.registry` for the formats and how a file's format is decided).

Tokens are never changed: every format keeps them, or (text, doccano made by doccano) is
split on single spaces, the task's own tokenization. A token the target format cannot carry
(see :mod:`sciner.formats.tokens`) is refused before anything is written.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from sciner.errors import OutputError
from sciner.formats.registry import input_format, output_format, refuse_binary, render
from sciner.outputs import Outputs
from sciner.stdio import is_stdio, readable, write_stdout


@dataclass(frozen=True)
class Conversion:
    """What :func:`convert` did: formats, paragraph and entity counts, the labeling config written."""

    source_format: str
    target_format: str
    paragraphs: int
    entities: int
    label_config: Path | None = None
    # Entities read but not written: the target format holds tokens only (paragraph text).
    not_written: int = 0


def convert(src: str | Path, dst: str | Path, *, from_format: str | None = None, to_format: str | None = None,
            label_config: str | Path | None = None) -> Conversion:
    """Read ``src`` (``-``: standard input) and write the same paragraphs, tokens and entities
    to ``dst`` (``-``: standard output, for text formats); with ``label_config``, also write
    the Label Studio labeling config (XML) for them there. Every output is checked before
    anything is written: none may be ``src``, and ``label_config`` is not ``dst``."""
    outputs = Outputs([src])
    config = None if label_config is None else outputs.check(label_config)
    if config is not None and not is_stdio(dst) and config.resolve() == Path(dst).resolve():
        raise OutputError(f"{config}: --label-config and OUT name the same file")
    with readable(src) as local:
        source = input_format(local, from_format)
        target = output_format(None if is_stdio(dst) else dst, to_format)
        if is_stdio(dst):
            refuse_binary(target)
        else:
            outputs.check(dst)
        paragraphs = source.read(local)  # type: ignore[misc]
        content = render(paragraphs, target, title=local.name)
    if is_stdio(dst):
        write_stdout(content)
    else:
        outputs.write(dst, content)
    if config is not None:
        from sciner.formats.labelstudio import label_config as labelstudio_config

        outputs.write(config, labelstudio_config())
    entities = sum(len(p.spans or []) for p in paragraphs)
    return Conversion(source.name, target.name, len(paragraphs), entities, config,
                      not_written=0 if target.carries_entities else entities)
