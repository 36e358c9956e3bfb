"""Word shapes: the casing and character class an uncased encoder cannot see."""

from __future__ import annotations

import re

SHAPES: tuple[str, ...] = (
    "pad",
    "lower",  # bert
    "capitalised",  # Transformer
    "all_caps",  # BERT, GLUE
    "mixed_caps",  # RoBERTa, BERTBASE, fastText
    "number",  # 0.001, 12, 110M (starts with a digit)
    "alnum_digit",  # GPT-3, F1, L2
    "punct",  # ( , .
    "other",
)
SHAPE_INDEX = {s: i for i, s in enumerate(SHAPES)}

_NUMBER = re.compile(r"^[+-]?\d[\d.,]*(%|[kKmMbB]|x)?$")


def word_shape(word: str) -> int:
    """The shape id of ``word`` (an index into :data:`SHAPES`)."""
    if _NUMBER.match(word):
        return SHAPE_INDEX["number"]
    letters = [c for c in word if c.isalpha()]
    has_digit = any(c.isdigit() for c in word)
    if not letters:
        if has_digit:
            return SHAPE_INDEX["number"]
        return SHAPE_INDEX["punct"] if all(not c.isalnum() for c in word) else SHAPE_INDEX["other"]
    if has_digit:
        return SHAPE_INDEX["alnum_digit"]
    if all(c.islower() for c in letters):
        return SHAPE_INDEX["lower"]
    if all(c.isupper() for c in letters):
        return SHAPE_INDEX["all_caps"] if len(letters) > 1 else SHAPE_INDEX["capitalised"]
    if letters[0].isupper() and all(c.islower() for c in letters[1:]):
        return SHAPE_INDEX["capitalised"]
    return SHAPE_INDEX["mixed_caps"]
