"""BIO tags <-> entity spans, with strict validation and a repair mode.

A *stray* ``I-X`` is one that follows ``O``, starts the sequence, or follows a tag of
another type. Strict validation refuses it; repair turns it into ``B-X``; span reading
treats it as the start of a new entity (the same reading as repair, so the numbers of
``sciner evaluate`` equal seqeval's strict IOB2 mode on valid input).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sciner.document import Span
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


def bio_to_spans(tags: Sequence[str]) -> list[Span]:
    """Entity spans of a BIO sequence; a stray ``I-X`` starts a new entity."""
    spans: list[Span] = []
    start: int | None = None
    label = ""
    for i, tag in enumerate(tags):
        continues = tag.startswith("I-") and start is not None and tag[2:] == label
        if continues:
            continue
        if start is not None:
            spans.append(Span(label, start, i))
            start = None
        if tag != OUTSIDE:
            start, label = i, tag[2:]
    if start is not None:
        spans.append(Span(label, start, len(tags)))
    return spans


def spans_to_bio(spans: Sequence[Span], length: int) -> list[str]:
    """BIO tags of length ``length`` for non-overlapping ``spans``.

    Raises ValueError when spans overlap or fall outside the paragraph.
    """
    tags = [OUTSIDE] * length
    for span in sorted(spans, key=lambda s: s.start):
        if not 0 <= span.start < span.end <= length:
            raise ValueError(f"span {span} outside a paragraph of {length} tokens")
        if any(t != OUTSIDE for t in tags[span.start : span.end]):
            raise ValueError(f"span {span} overlaps another span")
        tags[span.start] = f"B-{span.label}"
        for j in range(span.start + 1, span.end):
            tags[j] = f"I-{span.label}"
    return tags
