"""The NumPy Viterbi (sciner.model.viterbi) against a brute-force search over every allowed path."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from sciner.labels import BIO_TAGS
from sciner.model.viterbi import START_SCORE, TRANSITION_SCORE, touch_penalty, viterbi_batch


def best_path(scores: np.ndarray, transition: np.ndarray) -> list[int]:
    """The highest-scoring allowed tag path of ``scores`` (n, T), by trying every path."""
    trans = TRANSITION_SCORE + transition
    best, found = -np.inf, []
    for path in itertools.product(range(len(BIO_TAGS)), repeat=len(scores)):
        score = START_SCORE[path[0]] + sum(scores[t, k] for t, k in enumerate(path))
        score += sum(trans[a, b] for a, b in zip(path, path[1:]))
        if score > best:
            best, found = score, list(path)
    return found


@pytest.mark.parametrize("penalty", [0.0, 2.0])
def test_rows_of_different_lengths_decode_as_each_alone_would(penalty):
    """Rows shorter than the batch's longest end where their words end (the steps past them
    change nothing), with and without extra transition scores."""
    rng = np.random.default_rng(7)
    lengths = [3, 1, 4, 0, 2, 4]
    scores = (rng.standard_normal((len(lengths), 4, len(BIO_TAGS))) * 3).astype(np.float32)
    active = np.arange(4)[None, :] < np.array(lengths)[:, None]
    transition = touch_penalty(penalty)
    paths = viterbi_batch(scores, active, transition)
    assert [len(p) for p in paths] == lengths
    for row, n in enumerate(lengths):
        if n:
            assert paths[row] == best_path(scores[row, :n], transition)
