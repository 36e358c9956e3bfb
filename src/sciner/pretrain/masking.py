"""SpanBERT span masking (Joshi et al., 2020, section 3.1).

Spans of whole words are masked until ``mask_ratio`` of a segment's subword tokens are
covered. Each span's length in words is drawn from a geometric distribution Geo(p)
truncated to ``1..max_span_words`` and renormalised, as in the SpanBERT code; this is what
gives the paper's mean span length of 3.8 for p=0.2 (clipping with ``min(l, 10)`` instead
would give 4.46). A span starts at a uniformly chosen word that is not masked yet. The
replacement is decided per span, not per token: 80% of spans become ``[MASK]``, 10%
random tokens, 10% stay unchanged.

Overlapping or touching spans are merged, so every merged span has unmasked tokens (or
the special tokens) on both sides: those are the boundaries the span boundary objective
predicts from.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from math import ceil

import numpy as np

# Label of positions that are not predicted (PyTorch's cross-entropy ignore_index).
IGNORE_INDEX = -100

MASK, RANDOM, KEEP = "mask", "random", "keep"


@dataclass(frozen=True)
class MaskingConfig:
    """The span-masking knobs; the defaults are SpanBERT's."""

    # Share of subword tokens to mask (BERT's and SpanBERT's 15%).
    mask_ratio: float = 0.15
    # Geometric parameter of the span length in words; SpanBERT found 0.2 best of {0.1, 0.2, 0.4}.
    geometric_p: float = 0.2
    # Longest span in words; with p=0.2 this gives a mean span length of 3.8.
    max_span_words: int = 10
    # Per-span replacement: [MASK] with this probability, random tokens with random_prob, else unchanged.
    mask_prob: float = 0.8
    random_prob: float = 0.1


@dataclass(frozen=True)
class MaskedSpan:
    """Subword positions ``start`` (inclusive) to ``end`` (exclusive) of one merged masked span."""

    start: int
    end: int
    replacement: str


@dataclass
class SpanMask:
    """The spans chosen for one segment, and the word lengths drawn for them (for statistics)."""

    spans: list[MaskedSpan] = field(default_factory=list)
    sampled_lengths: list[int] = field(default_factory=list)

    @property
    def positions(self) -> list[int]:
        """All masked subword positions, in order."""
        return [i for span in self.spans for i in range(span.start, span.end)]


def span_length_distribution(p: float, max_len: int) -> np.ndarray:
    """Probabilities of span lengths ``1..max_len``: Geo(p) truncated and renormalised."""
    lengths = np.arange(1, max_len + 1)
    weights = p * (1 - p) ** (lengths - 1)
    return weights / weights.sum()


def expected_span_length(p: float, max_len: int) -> float:
    """Mean of :func:`span_length_distribution` (3.797 for SpanBERT's p=0.2, max 10)."""
    probs = span_length_distribution(p, max_len)
    return float((np.arange(1, max_len + 1) * probs).sum())


def word_positions(word_ids: Sequence[int | None]) -> list[tuple[int, int]]:
    """Subword ``(start, end)`` of each word, in order; ``None`` entries (special tokens) are skipped.

    >>> word_positions([None, 0, 0, 1, 2, 2, 2, None])
    [(1, 3), (3, 4), (4, 7)]
    """
    words: list[tuple[int, int]] = []
    previous = None
    for pos, wid in enumerate(word_ids):
        if wid is None:
            previous = None
            continue
        if wid == previous:
            words[-1] = (words[-1][0], pos + 1)
        else:
            words.append((pos, pos + 1))
        previous = wid
    return words


def sample_span_mask(
    word_ids: Sequence[int | None], rng: np.random.Generator, config: MaskingConfig = MaskingConfig()
) -> SpanMask:
    """Choose whole-word spans to mask in one segment, given each subword's word index.

    Deterministic for a given ``rng`` state. The budget is ``ceil(mask_ratio * subwords)``;
    the last word is always masked whole, so a segment may exceed it by a few subwords.
    """
    words = word_positions(word_ids)
    if not words:
        return SpanMask()
    sizes = np.array([end - start for start, end in words])
    budget = max(1, ceil(config.mask_ratio * int(sizes.sum())))
    probs = span_length_distribution(config.geometric_p, config.max_span_words)
    masked = np.zeros(len(words), dtype=bool)
    count = 0
    sampled: list[int] = []
    while count < budget and not masked.all():
        length = int(rng.choice(len(probs), p=probs)) + 1
        start = int(rng.integers(len(words)))
        if masked[start]:
            continue  # spans start on an unmasked word, as in SpanBERT
        sampled.append(length)
        for w in range(start, min(start + length, len(words))):
            if count >= budget:
                break
            if not masked[w]:
                masked[w] = True
                count += int(sizes[w])
    spans = [
        MaskedSpan(words[first][0], words[last][1], _draw_replacement(rng, config))
        for first, last in _runs(masked)
    ]
    return SpanMask(spans=spans, sampled_lengths=sampled)


def _runs(flags: np.ndarray) -> list[tuple[int, int]]:
    """Inclusive ``(first, last)`` indices of each maximal run of True values."""
    runs = []
    start = None
    for i, flag in enumerate(flags):
        if flag and start is None:
            start = i
        elif not flag and start is not None:
            runs.append((start, i - 1))
            start = None
    if start is not None:
        runs.append((start, len(flags) - 1))
    return runs


def _draw_replacement(rng: np.random.Generator, config: MaskingConfig) -> str:
    r = rng.random()
    if r < config.mask_prob:
        return MASK
    if r < config.mask_prob + config.random_prob:
        return RANDOM
    return KEEP


def apply_span_mask(
    input_ids: Sequence[int],
    mask: SpanMask,
    rng: np.random.Generator,
    mask_token_id: int,
    random_token_ids: np.ndarray,
) -> tuple[list[int], list[int]]:
    """Corrupt ``input_ids`` as ``mask`` says; return the corrupted ids and the MLM labels.

    Labels hold the original id at every masked position (whatever its replacement) and
    :data:`IGNORE_INDEX` elsewhere. Random replacements are drawn per token from
    ``random_token_ids`` (the ordinary vocabulary, without special or unused entries).
    """
    corrupted = list(input_ids)
    labels = [IGNORE_INDEX] * len(input_ids)
    for span in mask.spans:
        for pos in range(span.start, span.end):
            labels[pos] = input_ids[pos]
            if span.replacement == MASK:
                corrupted[pos] = mask_token_id
            elif span.replacement == RANDOM:
                corrupted[pos] = int(rng.choice(random_token_ids))
    return corrupted, labels
