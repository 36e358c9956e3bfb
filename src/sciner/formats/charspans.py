"""Character-offset entities (annotation tools) <-> token spans (sciner), without re-tokenizing.

Annotation tools mark entities by character offsets into a text. sciner keeps the tokens
beside that text, so reading back only has to find which tokens an offset range covers.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from sciner.document import Paragraph, Span
from sciner.errors import InputFormatError, TokenMismatchError
from sciner.formats.paragraphs import parse_paragraph_line
from sciner.formats.tokens import read_tokens


def token_offsets_in_text(tokens: Sequence[str], text: str, where: str) -> list[tuple[int, int]]:
    """Character start/end of each token in ``text``.

    ``text`` is usually the tokens joined by single spaces (sciner wrote it): the offsets are
    then exact, even for tokens that are or hold whitespace. Other texts (tokens separated by
    other whitespace) are searched left to right.
    """
    if text == " ".join(tokens):
        return Paragraph(tokens).token_offsets()
    offsets = []
    pos = 0
    for i, token in enumerate(tokens):
        start = text.find(token, pos)
        if start < 0 or text[pos:start].strip():
            raise TokenMismatchError(f"{where}: token {i} {token!r} not found in the text at character {pos}")
        offsets.append((start, start + len(token)))
        pos = start + len(token)
    return offsets


def tokens_of(data_tokens: object, text: str, where: str, field: str = "tokens") -> list[str]:
    """The stored tokens (field ``field``) when present, else ``text`` split on spaces (the
    task's tokenization)."""
    if data_tokens is None:
        return parse_paragraph_line(text)
    return read_tokens(data_tokens, where, field)


def char_span_to_tokens(offsets: Sequence[tuple[int, int]], start: int, end: int) -> tuple[int, int] | None:
    """The first and one-past-last token touching characters ``start:end``, or None if none does.

    A selection that cuts a token includes the whole token: tokens are never split.
    """
    covered = [i for i, (s, e) in enumerate(offsets) if s < end and e > start]
    if not covered:
        return None
    return covered[0], covered[-1] + 1


class CharEntity(NamedTuple):
    """One entity as an annotation tool marks it: characters ``start:end`` of the text, its
    type and score, already checked for their JSON types (:mod:`sciner.formats.jsonfields`),
    and ``field``, where in its record it was given (for errors)."""

    start: int
    end: int
    label: str
    score: float | None
    field: str


def char_entities_to_paragraph(
    tokens: list[str],
    text: str,
    entities: Sequence[CharEntity],
    where: str,
    *,
    source: str = "<memory>",
    line: int = 0,
) -> Paragraph:
    """A paragraph with tags from the character-offset ``entities`` of ``text``.

    Entities covering only whitespace are dropped; an offset outside the text or two
    entities on the same token raise :class:`InputFormatError` naming the entities' fields.
    """
    offsets = token_offsets_in_text(tokens, text, where)
    spans: dict[tuple[str, int, int], tuple[Span, str]] = {}
    for start, end, label, score, field in entities:
        if not start < end <= len(text):
            raise InputFormatError(
                f"{where}: field '{field}': entity {label} at characters {start}:{end} is outside the text"
            )
        token_range = char_span_to_tokens(offsets, start, end)
        if token_range is not None:
            # The same region given twice (e.g. two labels clicked) is one entity.
            spans.setdefault((label, *token_range), (Span(label, token_range[0], token_range[1], score), field))
    previous: tuple[Span, str] | None = None
    for span, field in sorted(spans.values(), key=lambda sf: (sf[0].start, sf[0].end)):
        if previous is not None and span.start < previous[0].end:
            raise InputFormatError(f"{where}: field '{field}': entity {span.label} on tokens {span.start}:{span.end} "
                                   f"overlaps field '{previous[1]}'; entities must not overlap")
        previous = (span, field)
    return Paragraph(tokens, spans=[span for span, _ in spans.values()], source=source, line=line)
