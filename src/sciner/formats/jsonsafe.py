"""JSON text that survives being split into lines.

``json.dumps(..., ensure_ascii=False)`` keeps characters such as U+2028 or form feed raw
inside strings; Python's ``str.splitlines`` (used by every reader) breaks lines there, so
they are written as ``\\uXXXX`` escapes instead. Other non-ASCII text stays readable.
"""

from __future__ import annotations

import json
from typing import Any

_LINE_BREAKERS = ("\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029")


def dumps_line_safe(obj: Any, **kwargs: Any) -> str:
    """``json.dumps`` with non-ASCII kept but every character ``splitlines`` breaks on escaped."""
    text = json.dumps(obj, ensure_ascii=False, **kwargs)
    for ch in _LINE_BREAKERS:
        # json.dumps only emits these inside strings, where an escape means the same character.
        text = text.replace(ch, f"\\u{ord(ch):04x}")
    return text
