"""BIO tags <-> entity spans, with strict validation and a repair mode.

A *stray* ``I-X`` is one that follows ``O``, starts the sequence, or follows a tag of
another type. Strict validation refuses it; repair turns it into ``B-X``; span reading
treats it as the start of a new entity (the same reading as repair, so the numbers of
``sciner evaluate`` equal seqeval's strict IOB2 mode on valid input).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sciner.errors import InvalidBIOError
from sciner.labels import OUTSIDE, is_valid_tag


def _is_stray(prev: str, tag: str) -> bool:
    return tag.startswith("I-") and (prev == OUTSIDE or prev[2:] != tag[2:])


def find_stray_tags(tags: Sequence[str]) -> list[int]:
    """Positions of ``I-`` tags that do not continue an entity of their own type."""
    stray = []
    prev = OUTSIDE
    for i, tag in enumerate(tags):
        if _is_stray(prev, tag):
            stray.append(i)
        prev = tag
    return stray


def validate_bio(tags: Sequence[str], where: str = "") -> None:
    """Raise :class:`InvalidBIOError` on an unknown tag or a stray ``I-`` tag."""
    prefix = f"{where}: " if where else ""
    for i, tag in enumerate(tags):
        if not is_valid_tag(tag):
            raise InvalidBIOError(f"{prefix}token {i}: unknown tag {tag!r}")
    stray = find_stray_tags(tags)
    if stray:
        i = stray[0]
        before = tags[i - 1] if i > 0 else "start of paragraph"
        raise InvalidBIOError(f"{prefix}token {i}: {tags[i]} after {before} (use repair to turn it into B-)")


@dataclass(frozen=True)
class Repair:
    """Result of :func:`repair_bio`: the fixed tags and how many were changed."""

    tags: list[str]
    repaired: int


def repair_bio(tags: Sequence[str]) -> Repair:
    """Turn every stray ``I-X`` into ``B-X``; report how many tags were changed."""
    fixed = list(tags)
    stray = find_stray_tags(fixed)
    for i in stray:
        fixed[i] = "B-" + fixed[i][2:]
    return Repair(tags=fixed, repaired=len(stray))
