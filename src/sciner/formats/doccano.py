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
from sciner.formats.charspans import CharEntity, char_entities_to_paragraph, tokens_of
from sciner.formats.jsonfields import json_index, json_label, json_lines, json_list, json_object, json_string, wrong
from sciner.formats.jsonl import paragraph_char_entities
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


def _entity(start: Any, end: Any, label: Any, where: str, field: str, *, names: tuple[str, str, str]) -> CharEntity:
    """One entity, each of its parts checked; ``names`` are their field names in ``field``."""
    return CharEntity(
        json_index(start, where, f"{field}{names[0]}"),
        json_index(end, where, f"{field}{names[1]}"),
        json_label(label, where, f"{field}{names[2]}", ENTITY_TYPES),
        None,
        field,
    )


def _entities(obj: dict[str, Any], where: str) -> list[CharEntity]:
    """The entities of a doccano object: ``label`` triples, or the newer ``entities`` objects."""
    if "entities" in obj and "label" not in obj:
        entities = []
        for i, e in enumerate(json_list(obj["entities"], where, "entities", optional=True)):
            field = f"entities[{i}]"
            e = json_object(e, where, field)
            entities.append(_entity(e.get("start_offset"), e.get("end_offset"), e.get("label"), where, field,
                                    names=(".start_offset", ".end_offset", ".label")))
        return entities
    triples = []
    for i, triple in enumerate(json_list(obj.get("label"), where, "label", optional=True)):
        field = f"label[{i}]"
        if not isinstance(triple, list) or len(triple) != 3:
            raise wrong(where, field, "a list [start, end, type]", triple)
        triples.append(_entity(*triple, where, field, names=("[0]", "[1]", "[2]")))
    return triples


def doccano_to_paragraph(obj: Any, where: str, *, source: str = "<memory>", line: int = 0) -> Paragraph:
    """A tagged paragraph from one doccano object."""
    obj = json_object(obj, where, "")
    text = json_string(obj.get("text"), where, "text")
    tokens = tokens_of(obj.get("tokens"), text, where)
    return char_entities_to_paragraph(tokens, text, _entities(obj, where), where, source=source, line=line)


def read_doccano(path: str | Path) -> list[Paragraph]:
    """Read doccano JSONL into tagged paragraphs; blank lines are skipped."""
    return [doccano_to_paragraph(obj, where, source=str(path), line=lineno) for obj, where, lineno in json_lines(path)]
