"""Where the errors are: exact-span scores by entity length, by casing, and seen vs unseen.

Each analysis puts every gold and every predicted entity into one bucket by a property
of the entity itself (its length, its text's casing, whether its text was an entity in the
training file). An exact match has the same tokens in gold and prediction, so it lands in
the same bucket on both sides, and each bucket's precision, recall and F1 are well defined.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from sciner.document import Paragraph, Span
from sciner.evaluate.align import AlignedParagraph
from sciner.evaluate.metrics import Counts, Scores, span_key
from sciner.document import bio_to_spans

LENGTH_BUCKETS: tuple[str, ...] = ("1", "2", "3", "4+")
CASING_BUCKETS: tuple[str, ...] = ("lower", "capitalised", "all_caps", "contains_digit")
SEEN_BUCKETS: tuple[str, ...] = ("seen", "unseen")

#: The key of a known entity: its type and exact tokens.
EntityKey = tuple[str, tuple[str, ...]]
#: Puts an entity (its span and the paragraph's tokens) into a bucket.
BucketFn = Callable[[Span, Sequence[str]], str]


def length_bucket(span: Span, tokens: Sequence[str]) -> str:
    """``1``, ``2``, ``3`` or ``4+`` tokens."""
    return str(len(span)) if len(span) < 4 else "4+"


def casing(text: str) -> str:
    """The casing class of an entity's text, checked in this order.

    ``contains_digit`` (``BERT-2``, ``0.5``), ``all_caps`` (letters and none lower case:
    ``GLUE``), ``capitalised`` (first letter upper case: ``Transformer``, ``RoBERTa``), else
    ``lower`` (``accuracy``, ``fastText``, or no letters at all).
    """
    if any(ch.isdigit() for ch in text):
        return "contains_digit"
    letters = [ch for ch in text if ch.isalpha()]
    if letters and not any(ch.islower() for ch in letters):
        return "all_caps"
    if letters and letters[0].isupper():
        return "capitalised"
    return "lower"


def casing_bucket(span: Span, tokens: Sequence[str]) -> str:
    """:func:`casing` of the span's space-joined tokens."""
    return casing(" ".join(tokens[span.start : span.end]))


def entity_key(span: Span, tokens: Sequence[str]) -> EntityKey:
    return (span.label, tuple(tokens[span.start : span.end]))


def training_entities(paragraphs: Iterable[Paragraph]) -> set[EntityKey]:
    """Every (type, tokens) annotated in a tagged training file."""
    known: set[EntityKey] = set()
    for p in paragraphs:
        if p.spans is not None:  # tags are derived from the spans: ask once
            known.update(entity_key(s, p.tokens) for s in bio_to_spans(p.tags))
    return known


def seen_bucket(known: set[EntityKey]) -> BucketFn:
    """``seen`` when the same tokens were annotated with the same type in training, else ``unseen``."""

    def bucket(span: Span, tokens: Sequence[str]) -> str:
        return "seen" if entity_key(span, tokens) in known else "unseen"

    return bucket


def bucket_counts(pairs: Iterable[AlignedParagraph], bucket: BucketFn, buckets: Sequence[str]) -> dict[str, Counts]:
    """Exact-match counts of all entity types together, split by ``bucket``."""
    counts = {b: Counts() for b in buckets}
    for pair in pairs:
        gold = {span_key(s): s for s in bio_to_spans(pair.gold)}
        pred = {span_key(s): s for s in bio_to_spans(pair.pred)}
        for key, span in gold.items():
            c = counts[bucket(span, pair.tokens)]
            if key in pred:
                c.tp += 1
            else:
                c.fn += 1
        for key, span in pred.items():
            if key not in gold:
                counts[bucket(span, pair.tokens)].fp += 1
    return counts


def _scores(counts: dict[str, Counts]) -> dict[str, dict[str, Any]]:
    return {b: Scores.from_counts(c).to_dict() for b, c in counts.items()}


def analyse(pairs: Sequence[AlignedParagraph], known: set[EntityKey] | None = None) -> dict[str, Any]:
    """The ``analysis`` object of ``sciner evaluate --json``.

    ``by_length`` and ``by_casing`` always; ``by_training`` (seen/unseen) when ``known``
    holds the training file's entities.
    """
    out: dict[str, Any] = {
        "by_length": _scores(bucket_counts(pairs, length_bucket, LENGTH_BUCKETS)),
        "by_casing": _scores(bucket_counts(pairs, casing_bucket, CASING_BUCKETS)),
    }
    if known is not None:
        out["by_training"] = _scores(bucket_counts(pairs, seen_bucket(known), SEEN_BUCKETS))
    return out
