"""The two objects every stage passes around, a tokenized paragraph and an entity span, and the
conversion between entity spans and BIO tags."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sciner.labels import OUTSIDE


# Where a mention is in its paper: (paragraph index, start token, end token).
Place = tuple[int, int, int]


@dataclass(frozen=True)
class Span:
    """An entity over tokens ``start`` (inclusive) to ``end`` (exclusive) of a paragraph."""

    label: str
    start: int
    end: int
    score: float | None = None

    def __len__(self) -> int:
        return self.end - self.start


@dataclass(init=False)
class Paragraph:
    """A paragraph as the task sees it: tokens and, when it is annotated, its entity spans.

    The spans are the one truth about its entities: ``None`` means not annotated (input
    text), ``[]`` annotated with no entity. BIO ``tags`` are derived from them. A paragraph
    can be built from tags (``Paragraph(tokens, tags)``, a stray ``I-X`` starting an entity
    as evaluation reads it) or from spans, not from both. ``source`` and ``line`` say where it
    came from, for error messages. ``meta`` is its provenance where it is known, carried to the
    outputs that can hold it (JSONL): ``doc`` (the input it came from, when several inputs are
    written together), ``page`` and ``section`` (a PDF's paragraphs).
    """

    tokens: list[str]
    spans: list[Span] | None
    source: str
    line: int
    meta: dict[str, Any]

    def __init__(
        self,
        tokens: Sequence[str],
        tags: Sequence[str] | None = None,
        source: str = "<memory>",
        line: int = 0,
        spans: Sequence[Span] | None = None,
        meta: Mapping[str, Any] | None = None,
    ) -> None:
        self.tokens = list(tokens)
        self.source = source
        self.line = line
        self.meta = dict(meta or {})
        if tags is not None and spans is not None:
            raise ValueError("give a paragraph tags or spans, not both")
        if tags is not None:
            if len(tags) != len(self.tokens):
                raise ValueError(f"{len(self.tokens)} tokens but {len(tags)} tags")
            self.spans = bio_to_spans(tags)
        elif spans is not None:
            self.spans = sorted(spans, key=lambda s: s.start)
            spans_to_bio(self.spans, len(self.tokens))  # raises on overlapping or out-of-range spans
        else:
            self.spans = None

    @property
    def tags(self) -> list[str] | None:
        """One BIO tag per token, derived from :attr:`spans` (``None`` when not annotated)."""
        return None if self.spans is None else spans_to_bio(self.spans, len(self.tokens))

    @property
    def text(self) -> str:
        """The tokens joined by single spaces: the coordinate system of character offsets."""
        return " ".join(self.tokens)

    def with_no_entities(self) -> "Paragraph":
        """The paragraph, where it came from and its meta, annotated with no entity."""
        return Paragraph(self.tokens, spans=[], source=self.source, line=self.line, meta=self.meta)

    def token_offsets(self) -> list[tuple[int, int]]:
        """Character start/end of each token in :attr:`text`."""
        offsets = []
        pos = 0
        for token in self.tokens:
            offsets.append((pos, pos + len(token)))
            pos += len(token) + 1
        return offsets


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
