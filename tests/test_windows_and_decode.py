"""Sliding windows cover every word exactly once; decoding never produces invalid BIO."""

from __future__ import annotations

import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from sciner.formats.spans import find_stray_tags
from sciner.labels import BIO_TAGS
from sciner.model.decode import greedy_spans, viterbi
from sciner.model.windows import plan_windows, window_rows
from sciner.document import Span


@given(st.lists(st.integers(1, 16), min_size=0, max_size=400), st.integers(20, 300), st.integers(0, 80))
@settings(max_examples=200, deadline=None)
def test_windows_own_every_word_exactly_once(lengths, window, overlap):
    windows = plan_windows(lengths, window, overlap)
    owned = [i for w in windows for i in range(w.own_start, w.own_end)]
    assert owned == list(range(len(lengths)))
    for w in windows:
        assert w.start <= w.own_start <= w.own_end <= w.end or (w.own_start == w.own_end)
        assert sum(lengths[w.start : w.end]) <= window or w.end - w.start == 1


@given(st.lists(st.lists(st.integers(1, 5), min_size=0, max_size=60), min_size=1, max_size=4))
@settings(max_examples=100, deadline=None)
def test_window_rows_point_each_word_at_its_first_subword(piece_lengths):
    pieces = [[[100 + j * 10 + k for k in range(n)] for j, n in enumerate(para)] for para in piece_lengths]
    rows, owners = window_rows(pieces, cls_id=1, sep_id=2, window=24, overlap=6)
    assert [(b, j) for b, j, _, _ in owners] == [(b, j) for b, para in enumerate(pieces) for j in range(len(para))]
    for b, j, row, pos in owners:
        word = pieces[b][j]
        assert rows[row][pos : pos + len(word)] == word
    assert all(len(r) <= 24 and r[0] == 1 and r[-1] == 2 for r in rows)


@given(st.integers(1, 40), st.integers(1, 4), st.integers(0, 10_000))
@settings(max_examples=100, deadline=None)
def test_viterbi_output_is_valid_bio(n, batch, seed):
    g = torch.Generator().manual_seed(seed)
    log_probs = torch.log_softmax(torch.randn(batch, n, len(BIO_TAGS), generator=g) * 3, dim=-1)
    lengths = torch.randint(1, n + 1, (batch,), generator=g)
    mask = torch.arange(n)[None] < lengths[:, None]
    for b, path in enumerate(viterbi(log_probs, mask)):
        assert len(path) == int(lengths[b])
        assert find_stray_tags([BIO_TAGS[i] for i in path]) == []


def test_viterbi_prefers_the_best_valid_path():
    # Unconstrained argmax would be O I-MethodName; the best valid path is B-MethodName I-MethodName.
    lp = torch.full((1, 2, len(BIO_TAGS)), -10.0)
    lp[0, 0, BIO_TAGS.index("O")] = -0.1
    lp[0, 0, BIO_TAGS.index("B-MethodName")] = -0.5
    lp[0, 1, BIO_TAGS.index("I-MethodName")] = -0.1
    path = viterbi(lp, torch.ones(1, 2, dtype=torch.bool))[0]
    assert [BIO_TAGS[i] for i in path] == ["B-MethodName", "I-MethodName"]


def test_greedy_spans_take_the_best_non_overlapping():
    spans = [Span("MethodName", 0, 2, 0.9), Span("TaskName", 1, 3, 0.95), Span("DatasetName", 3, 4, 0.5)]
    assert greedy_spans(spans) == [Span("TaskName", 1, 3, 0.95), Span("DatasetName", 3, 4, 0.5)]
