"""SpanBERT span masking: its statistics on a large sample match the paper's recipe."""

from __future__ import annotations

import math

import numpy as np
import pytest

from sciner.pretrain.masking import (
    IGNORE_INDEX,
    KEEP,
    MASK,
    RANDOM,
    MaskingConfig,
    apply_span_mask,
    expected_span_length,
    sample_span_mask,
    span_length_distribution,
    word_positions,
)

MASK_ID = 103
REPLACEMENTS = np.arange(1000, 2000)


def make_word_ids(rng: np.random.Generator, n_words: int) -> list[int | None]:
    """[CLS] + words of 1-4 subwords (mostly 1, like real text) + [SEP]."""
    sizes = rng.choice([1, 2, 3, 4], size=n_words, p=[0.7, 0.2, 0.07, 0.03])
    return [None, *[w for w, size in enumerate(sizes) for _ in range(size)], None]


@pytest.fixture(scope="module")
def sample():
    """2,000 segments of 60-120 words, masked with SpanBERT's defaults."""
    rng = np.random.default_rng(1234)
    segments = [make_word_ids(rng, int(rng.integers(60, 121))) for _ in range(2000)]
    masks = [sample_span_mask(word_ids, rng) for word_ids in segments]
    return segments, masks


def test_expected_span_length_is_the_papers_3_8():
    # SpanBERT: Geo(p=0.2) clipped at 10 "yields a mean span length of 3.8".
    probs = span_length_distribution(0.2, 10)
    exact = sum(n * 0.2 * 0.8 ** (n - 1) for n in range(1, 11)) / sum(0.2 * 0.8 ** (n - 1) for n in range(1, 11))
    assert probs.sum() == pytest.approx(1.0)
    assert expected_span_length(0.2, 10) == pytest.approx(exact)
    assert round(exact, 1) == 3.8


def test_mean_sampled_span_length(sample):
    _, masks = sample
    lengths = np.array([n for m in masks for n in m.sampled_lengths])
    probs = span_length_distribution(0.2, 10)
    values = np.arange(1, 11)
    mean = (values * probs).sum()
    std = math.sqrt(((values - mean) ** 2 * probs).sum())
    assert len(lengths) > 5000
    assert lengths.min() == 1 and lengths.max() == 10
    assert abs(lengths.mean() - mean) < 4 * std / math.sqrt(len(lengths))
    # The shape too: one-word spans are the most frequent, as often as the distribution says.
    share_one = (lengths == 1).mean()
    assert abs(share_one - probs[0]) < 4 * math.sqrt(probs[0] * (1 - probs[0]) / len(lengths))


def test_budget_is_15_percent_of_subwords(sample):
    segments, masks = sample
    total_subwords = total_masked = 0
    for word_ids, mask in zip(segments, masks):
        n = len(word_ids) - 2
        budget = math.ceil(0.15 * n)
        masked = len(mask.positions)
        # Reached, and exceeded by less than one word (the last word is masked whole).
        assert budget <= masked < budget + 4
        total_subwords += n
        total_masked += masked
    assert 0.15 <= total_masked / total_subwords < 0.16


def test_whole_words_only_and_specials_never_masked(sample):
    segments, masks = sample
    for word_ids, mask in zip(segments, masks):
        masked = set(mask.positions)
        assert 0 not in masked and len(word_ids) - 1 not in masked
        for start, end in word_positions(word_ids):
            inside = sum(pos in masked for pos in range(start, end))
            assert inside in (0, end - start), "a word is partly masked"


def test_spans_are_merged_and_bounded_by_unmasked_tokens(sample):
    segments, masks = sample
    for word_ids, mask in zip(segments, masks):
        masked = set(mask.positions)
        for a, b in zip(mask.spans, mask.spans[1:]):
            assert a.end < b.start  # disjoint and not touching
        for span in mask.spans:
            assert span.start - 1 not in masked and span.end not in masked
            assert word_ids[span.start - 1] != word_ids[span.start]  # starts at a word boundary
            assert span.end >= len(word_ids) or word_ids[span.end] != word_ids[span.end - 1]


def test_replacement_is_80_10_10_per_span(sample):
    _, masks = sample
    kinds = [span.replacement for m in masks for span in m.spans]
    n = len(kinds)
    for kind, p in ((MASK, 0.8), (RANDOM, 0.1), (KEEP, 0.1)):
        share = kinds.count(kind) / n
        assert abs(share - p) < 4 * math.sqrt(p * (1 - p) / n), (kind, share)


def test_apply_span_mask_replaces_whole_spans_and_labels_originals():
    rng = np.random.default_rng(7)
    word_ids = make_word_ids(rng, 400)
    input_ids = list(range(5000, 5000 + len(word_ids)))
    mask = sample_span_mask(word_ids, rng)
    corrupted, labels = apply_span_mask(input_ids, mask, rng, MASK_ID, REPLACEMENTS)
    masked = set(mask.positions)
    for pos in range(len(input_ids)):
        if pos not in masked:
            assert corrupted[pos] == input_ids[pos] and labels[pos] == IGNORE_INDEX
        else:
            assert labels[pos] == input_ids[pos]
    for span in mask.spans:
        tokens = corrupted[span.start : span.end]
        if span.replacement == MASK:
            assert tokens == [MASK_ID] * len(tokens)
        elif span.replacement == RANDOM:
            assert all(t in REPLACEMENTS for t in tokens)
        else:
            assert tokens == input_ids[span.start : span.end]
    assert {s.replacement for s in mask.spans} >= {MASK}


def test_masking_is_deterministic_given_the_generator():
    word_ids = make_word_ids(np.random.default_rng(0), 100)
    first = sample_span_mask(word_ids, np.random.default_rng(42))
    again = sample_span_mask(word_ids, np.random.default_rng(42))
    other = sample_span_mask(word_ids, np.random.default_rng(43))
    assert first == again
    assert first.spans != other.spans


def test_other_ratios_and_short_segments():
    cfg = MaskingConfig(mask_ratio=0.5, geometric_p=0.5, max_span_words=3)
    rng = np.random.default_rng(3)
    word_ids = [None, *range(200), None]
    mask = sample_span_mask(word_ids, rng, cfg)
    assert len(mask.positions) == 100
    assert max(mask.sampled_lengths) <= 3
    # A one-word segment still gets its single word masked; an empty one gets nothing.
    assert sample_span_mask([None, 0, 0, None], rng).positions == [1, 2]
    assert sample_span_mask([None, None], rng).spans == []
