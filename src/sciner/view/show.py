"""``sciner show`` as a function: one self-contained HTML page of a tagged file, or of its diff
against gold."""

from __future__ import annotations

from pathlib import Path

from sciner.formats.registry import read_annotated, reading_format
from sciner.outputs import Outputs


def show(file: str | Path, output: str | Path, *, gold: str | Path | None = None, title: str | None = None,
         limit: int | None = None, from_format: str | None = None) -> Path:
    """Write to ``output`` an HTML page of ``file``'s entities (with ``gold``: each marked
    correct, missed or spurious), its first ``limit`` paragraphs (default: all), titled
    ``title`` (default: the file names); returns ``output``. Neither input is ever written over."""
    from sciner.view import render_diff, render_entities

    fmt = reading_format(from_format)
    file = Path(file)
    outputs = Outputs([file] if gold is None else [file, gold])
    target = outputs.check(output)
    paragraphs = read_annotated(file, fmt, every_paragraph=False)  # a PDF or plain text has none to show
    if gold is None:
        html = render_entities(paragraphs[:limit], title or file.name)
    else:
        gold = Path(gold)
        html = render_diff(read_annotated(gold, fmt)[:limit], paragraphs[:limit], title or f"{file.name} vs {gold.name}",
                           gold_name=str(gold), pred_name=str(file))
    return outputs.write(target, html)
