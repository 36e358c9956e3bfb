"""Typed access to the fields of a JSON record, shared by every JSON reader (JSONL, doccano,
Label Studio).

JSON can put any value anywhere: a string where an offset belongs, ``1e309`` (infinity), a
list where an object was expected. Converting such a value with ``int()`` or indexing into
it gives a ``TypeError``, ``OverflowError`` or ``KeyError`` traceback that names neither
the file nor the field. Every reader therefore takes its values through these functions,
which return the value with its type checked or raise one :class:`InputFormatError` naming
where the record is (``file:line`` or ``file:task N``) and the field's path in it
(``entities[2].start``).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from sciner.errors import InputFormatError
from sciner.formats.textfile import read_lines

# Longest rendering of a wrong value in an error message: the line stays one line.
_SHOWN = 40


def _shown(value: Any) -> str:
    """``value`` as the message shows it: its JSON kind and a short rendering."""
    if value is None:
        return "null"
    kind = {bool: "a boolean", int: "a number", float: "a number", str: "a string",
            list: "a list", dict: "an object"}.get(type(value), type(value).__name__)
    text = repr(value).replace("\n", " ")
    return f"{kind} ({text[:_SHOWN] + '...' if len(text) > _SHOWN else text})"


def parse_json(text: str, path: str | Path, line: int | None = None) -> Any:
    """The JSON value of ``text``, from line ``line`` of ``path`` (None: a whole file).

    Besides malformed JSON, the parser refuses an integer of more than 4300 digits
    (``ValueError``) and nesting deeper than the interpreter's stack (``RecursionError``):
    each is one line naming the file and line, not a traceback.
    """
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        where, why = f"{path}:{line if line is not None else exc.lineno}", exc.msg
    except ValueError as exc:  # an integer too long to convert
        where, why = f"{path}:{line if line is not None else 1}", str(exc).split(";")[0]
    except RecursionError:
        where, why = f"{path}:{line if line is not None else 1}", "nested too deeply"
    raise InputFormatError(f"{where}: invalid JSON ({why})")


def json_lines(path: str | Path) -> Iterator[tuple[Any, str, int]]:
    """Each non-blank line of a JSON-lines file, parsed: ``(value, "file:line", line)``."""
    for lineno, line in enumerate(read_lines(path), start=1):
        if line.strip():
            yield parse_json(line, path, lineno), f"{path}:{lineno}", lineno


def wrong(where: str, field: str, expected: str, value: Any) -> InputFormatError:
    """The error for field ``field`` of the record at ``where`` (the record itself when
    ``field`` is empty) that is not ``expected``."""
    what = f"field '{field}'" if field else "the record"
    return InputFormatError(f"{where}: {what} must be {expected}, got {_shown(value)}")


def json_object(value: Any, where: str, field: str) -> dict[str, Any]:
    """``value`` if it is a JSON object."""
    if not isinstance(value, dict):
        raise wrong(where, field, "an object", value)
    return value


def json_list(value: Any, where: str, field: str, *, optional: bool = False) -> list[Any]:
    """``value`` if it is a JSON list; with ``optional``, null (or an absent field) is ``[]``."""
    if value is None and optional:
        return []
    if not isinstance(value, list):
        raise wrong(where, field, "a list", value)
    return value


def json_string(value: Any, where: str, field: str) -> str:
    """``value`` if it is a JSON string."""
    if not isinstance(value, str):
        raise wrong(where, field, "a string", value)
    return value


def json_index(value: Any, where: str, field: str) -> int:
    """``value`` as a non-negative integer (an offset or a token index).

    A whole float (``3.0``) is read as its integer; booleans, strings, fractions, negatives,
    NaN and infinities (``1e309``) are refused.
    """
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise wrong(where, field, "a non-negative integer", value)
    return value


def json_score(value: Any, where: str, field: str) -> float | None:
    """``value`` as a model's score: a finite number, or None when absent (null)."""
    if value is None:
        return None
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        raise wrong(where, field, "a finite number", value)
    try:
        score = float(value)  # an integer of 400 digits does not fit in a float
    except OverflowError:
        score = math.inf
    if not math.isfinite(score):
        raise wrong(where, field, "a finite number", value)
    return score


def json_label(value: Any, where: str, field: str, known: Sequence[str]) -> str:
    """``value`` if it is one of the ``known`` entity types."""
    if not isinstance(value, str):
        raise wrong(where, field, f"an entity type (one of {', '.join(known)})", value)
    if value not in known:
        raise InputFormatError(f"{where}: field '{field}': unknown entity type {value!r}")
    return value
