"""JSONL: one object per paragraph with its tokens and entity spans.

Each span has its type, token ``start``/``end`` (end exclusive), ``text``, character
offsets ``char_start``/``char_end`` in the space-joined paragraph, and ``score`` when a
model gave one. Where the paragraph came from, when known, rides along as ``doc`` (its input
file, when several were written together), ``page`` and ``section`` (a PDF's), and is read
back. The tokens are stored as a JSON list, so any token is carried except an
empty one or a lone surrogate, which no format carries (refused on writing and on reading).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from sciner.document import Paragraph, Span
from sciner.errors import InputFormatError
from sciner.formats.jsonfields import json_index, json_label, json_lines, json_list, json_object, json_score, wrong
from sciner.formats.tokens import check_writable, read_tokens
from sciner.labels import ENTITY_TYPES

# Provenance keys of Paragraph.meta that JSONL carries, with the JSON type each must have; a
# table row (``--include tables``) has its ``table`` and its ``cells`` ([start, end, first
# column, last column] each: see :mod:`sciner.pdf.tables`); a "Table N" caption whose rows the
# PDF's text layer lost has ``table_body`` "missing"; a PDF's first paragraph has ``front``, page 1's
# lines outside the text (authors, running header, arXiv stamp: sciner.pdf.metadata reads them).
PROVENANCE: dict[str, type] = {"doc": str, "page": int, "section": str, "kind": str, "table": str, "cells": list,
                               "table_body": str, "front": str}
_KIND = {str: "a string", int: "an integer", list: "a list"}  # the types of PROVENANCE as error messages say them


def paragraph_char_entities(p: Paragraph) -> list[tuple[int, int, Span]]:
    """Each entity of ``p`` with its character start and end in ``p.text``."""
    offsets = p.token_offsets()
    return [(offsets[s.start][0], offsets[s.end - 1][1], s) for s in p.spans or []]


def paragraph_to_json(p: Paragraph) -> dict[str, Any]:
    """The JSON object of one paragraph."""
    entities = []
    for char_start, char_end, s in paragraph_char_entities(p):
        obj: dict[str, Any] = {
            "type": s.label,
            "start": s.start,
            "end": s.end,
            "text": " ".join(p.tokens[s.start : s.end]),
            "char_start": char_start,
            "char_end": char_end,
        }
        if s.score is not None:
            obj["score"] = round(float(s.score), 4)
        entities.append(obj)
    obj = {"text": p.text, "tokens": list(p.tokens), "entities": entities}
    obj.update((key, p.meta[key]) for key in PROVENANCE if key in p.meta)
    return obj


def _provenance(obj: dict[str, Any], where: str, tokens: int) -> dict[str, Any]:
    """The provenance keys of a paragraph's JSON object, each checked for its type; each of a
    table row's ``cells`` a range of its ``tokens`` (that many) over columns first to last."""
    meta = {key: obj[key] for key in PROVENANCE if obj.get(key) is not None}
    for key, value in meta.items():
        if not isinstance(value, PROVENANCE[key]) or isinstance(value, bool):
            raise wrong(where, key, _KIND[PROVENANCE[key]], value)
    for i, cell in enumerate(meta.get("cells", [])):
        if not (isinstance(cell, list) and len(cell) == 4):
            raise wrong(where, f"cells[{i}]", "a list of 4 integers", cell)
        meta["cells"][i] = start, end, first, last = [json_index(n, where, f"cells[{i}]") for n in cell]
        if not start < end <= tokens or first > last:
            raise wrong(where, f"cells[{i}]", f"[start, end, first column, last column] with start < end <= {tokens} "
                                              "(the row's tokens) and first <= last", cell)
    return meta


def _span(entity: Any, where: str, field: str) -> Span:
    """One entity object of ``entities``: ``type``, token ``start``/``end``, optional ``score``."""
    e = json_object(entity, where, field)
    return Span(
        json_label(e.get("type"), where, f"{field}.type", ENTITY_TYPES),
        json_index(e.get("start"), where, f"{field}.start"),
        json_index(e.get("end"), where, f"{field}.end"),
        json_score(e.get("score"), where, f"{field}.score"),
    )


def json_to_paragraph(obj: Any, where: str) -> Paragraph:
    """Build a paragraph from its JSON object; ``where`` names file:line for errors."""
    obj = json_object(obj, where, "")
    tokens = read_tokens(obj.get("tokens"), where)
    entities = json_list(obj.get("entities"), where, "entities", optional=True)
    spans = [_span(e, where, f"entities[{i}]") for i, e in enumerate(entities)]
    path, _, line = where.rpartition(":")
    try:
        return Paragraph(tokens, spans=spans, source=path, line=int(line) if line.isdigit() else 0,
                         meta=_provenance(obj, where, len(tokens)))
    except ValueError as exc:
        raise InputFormatError(f"{where}: field 'entities': {exc}") from None


def read_jsonl(path: str | Path) -> list[Paragraph]:
    """Read a JSONL file of paragraphs; blank lines are skipped."""
    return [json_to_paragraph(obj, where) for obj, where, _ in json_lines(path)]


def format_jsonl(paragraphs: Iterable[Paragraph]) -> str:
    """Render paragraphs as JSONL; :class:`UnwritableTokenError` on a token no format carries."""
    checked = check_writable(paragraphs, "jsonl")
    return "".join(json.dumps(paragraph_to_json(p), ensure_ascii=False) + "\n" for p in checked)


# What ``sciner extract --to jsonl`` writes of a paper's paragraph beside its tokens (from its
# ``meta``), in this order: no entities yet, but the text it came from and where it was.
EXTRACTED = ("text", "section", "page", "kind", "table", "cells", "table_body", "front", "doc")


def format_extracted(paragraphs: Iterable[Paragraph]) -> str:
    """Render a paper's extracted paragraphs as JSONL: ``tokens``, then the :data:`EXTRACTED`
    keys of each paragraph's ``meta``."""
    checked = check_writable(paragraphs, "jsonl")
    rows = ({"tokens": list(p.tokens), **{key: p.meta[key] for key in EXTRACTED if key in p.meta}} for p in checked)
    return "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)


def write_jsonl(paragraphs: Iterable[Paragraph], path: str | Path) -> None:
    """Write paragraphs as JSONL (atomically; see :func:`sciner.formats.registry.write_file`)."""
    from sciner.formats.registry import write_file

    write_file(list(paragraphs), path, "jsonl")
