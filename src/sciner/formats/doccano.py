"""doccano sequence-labeling JSONL: ``{"text": ..., "label": [[start, end, type], ...]}`` per line.

Offsets are characters of ``text`` (the tokens joined by single spaces). The tokens are
kept in a ``tokens`` field so that reading back never re-tokenizes; a file made by doccano
itself has none, and its text is then split on single spaces. doccano's newer export with
``entities: [{"start_offset", "end_offset", "label"}]`` is read too. Because the tokens are
kept, any token is carried except an empty one or a lone surrogate (refused on writing).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from sciner.document import Paragraph
from sciner.errors import InputFormatError
from sciner.formats.charspans import char_entities_to_paragraph, tokens_of
from sciner.formats.jsonl import paragraph_char_entities
from sciner.formats.textfile import read_lines
from sciner.formats.tokens import check_writable
from sciner.labels import ENTITY_TYPES


def paragraph_to_doccano(p: Paragraph) -> dict[str, Any]:
    """The doccano object of one paragraph."""
    labels = [[start, end, span.label] for start, end, span in paragraph_char_entities(p)]
    return {"text": p.text, "label": labels, "tokens": list(p.tokens)}


def format_doccano(paragraphs: Iterable[Paragraph]) -> str:
    """Paragraphs as doccano JSONL; :class:`UnwritableTokenError` on a token no format carries."""
    checked = check_writable(paragraphs, "doccano")
    return "".join(json.dumps(paragraph_to_doccano(p), ensure_ascii=False) + "\n" for p in checked)


def _entities(obj: dict[str, Any], where: str) -> list[tuple[int, int, str, float | None]]:
    try:
        if "entities" in obj and "label" not in obj:
            return [(int(e["start_offset"]), int(e["end_offset"]), e["label"], None) for e in obj["entities"]]
        return [(int(s), int(e), label, None) for s, e, label in obj.get("label") or []]
    except (KeyError, TypeError, ValueError):
        raise InputFormatError(f"{where}: each label must be [start, end, type]") from None


def doccano_to_paragraph(obj: Any, where: str, *, source: str = "<memory>", line: int = 0) -> Paragraph:
    """A tagged paragraph from one doccano object."""
    if not isinstance(obj, dict) or not isinstance(obj.get("text"), str):
        raise InputFormatError(f"{where}: expected an object with a 'text' string")
    tokens = tokens_of(obj.get("tokens"), obj["text"], where)
    return char_entities_to_paragraph(
        tokens, obj["text"], _entities(obj, where), where, known_labels=ENTITY_TYPES, source=source, line=line
    )


def read_doccano(path: str | Path) -> list[Paragraph]:
    """Read doccano JSONL into tagged paragraphs; blank lines are skipped."""
    paragraphs = []
    for lineno, line in enumerate(read_lines(path), start=1):
        if not line.strip():
            continue
        where = f"{path}:{lineno}"
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputFormatError(f"{where}: invalid JSON ({exc.msg})") from None
        paragraphs.append(doccano_to_paragraph(obj, where, source=str(path), line=lineno))
    return paragraphs
