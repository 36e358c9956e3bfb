"""Constrained Viterbi over BIO tags in NumPy (no torch), with optional extra transition scores.

The constraint: ``I-X`` only after ``B-X`` or ``I-X``, never first. Extra transition scores
(:func:`touch_penalty`) let a decoder prefer one way over another of the allowed paths, e.g.
one long name over two touching names of the same type.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from sciner.labels import BIO_TAGS, ENTITY_TYPES, OUTSIDE


def allowed(tags: tuple[str, ...] = BIO_TAGS) -> tuple[np.ndarray, np.ndarray]:
    """(start_allowed[T], allowed[prev, cur]) as booleans: I-X only after B-X or I-X."""
    n = len(tags)
    ok = np.ones((n, n), dtype=bool)
    start = np.ones(n, dtype=bool)
    for j, cur in enumerate(tags):
        if cur.startswith("I-"):
            start[j] = False
            for i, prev in enumerate(tags):
                ok[i, j] = prev != OUTSIDE and prev[2:] == cur[2:]
    return start, ok


_START_OK, _ALLOWED = allowed()


def type_shift(bias: Mapping[str, float]) -> np.ndarray:
    """(T,) additive bias over BIO tags: ``bias[X]`` on B-X and I-X, 0 on O and on missing types."""
    unknown = set(bias) - set(ENTITY_TYPES)
    if unknown:
        raise ValueError(f"type bias for unknown types: {sorted(unknown)}")
    return np.array([0.0 if t == OUTSIDE else float(bias.get(t[2:], 0.0)) for t in BIO_TAGS], dtype=np.float32)
# The constraints as additive scores: 0 where allowed, -1e4 where not.
START_SCORE = np.where(_START_OK, 0.0, -1e4).astype(np.float32)
TRANSITION_SCORE = np.where(_ALLOWED, 0.0, -1e4).astype(np.float32)  # (prev, cur)


def touch_penalty(penalty: float | Mapping[str, float]) -> np.ndarray:
    """(T, T) transition scores that subtract ``penalty`` (one number, or one per type) from
    ``B-X`` right after ``B-X`` or ``I-X``: the path where a name of type X ends and another
    name of type X starts on the next word."""
    per_type = {t: float(penalty) for t in ENTITY_TYPES} if isinstance(penalty, (int, float)) else dict(penalty)
    out = np.zeros((len(BIO_TAGS), len(BIO_TAGS)), dtype=np.float32)
    for j, cur in enumerate(BIO_TAGS):
        if cur.startswith("B-") and per_type.get(cur[2:], 0.0):
            for i, prev in enumerate(BIO_TAGS):
                if prev != OUTSIDE and prev[2:] == cur[2:]:
                    out[i, j] = -per_type[cur[2:]]
    return out


def viterbi_batch(scores: np.ndarray, active: np.ndarray, transition: np.ndarray | None = None) -> list[list[int]]:
    """Best allowed tag path of each row of ``scores`` (B, N, T) over its ``active`` (B, N) words;
    ``transition`` (T, T) adds to the constraint scores of each (prev, cur) step."""
    trans = TRANSITION_SCORE if transition is None else TRANSITION_SCORE + transition
    B, N, T = scores.shape
    score = scores[:, 0] + START_SCORE
    back = np.zeros((B, N, T), dtype=np.intp)
    stay = np.broadcast_to(np.arange(T), (B, T))
    ends = active.sum(axis=1)
    all_on = int(ends.min(initial=N))  # steps before this one are active in every row
    for t in range(1, N):
        cand = score[:, :, None] + trans[None]  # (B, prev, cur)
        arg = cand.argmax(axis=1)
        new = np.take_along_axis(cand, arg[:, None, :], axis=1)[:, 0] + scores[:, t]
        if t < all_on:
            score, back[:, t] = new, arg
        else:
            on = active[:, t][:, None]
            score = np.where(on, new, score)
            back[:, t] = np.where(on, arg, stay)
    # Back from each row's best last tag, all rows at once: past a row's last word its
    # back-pointers are ``stay``, so its best tag there is the one at its last word.
    paths = np.empty((B, N), dtype=np.int64)
    rows = np.arange(B)
    best = score.argmax(axis=1)
    for t in range(N - 1, 0, -1):
        paths[:, t] = best
        best = back[rows, t, best]
    paths[:, 0] = best
    return [paths[b, :n].tolist() for b, n in enumerate(ends.tolist())]


def viterbi_tags(scores: Sequence[np.ndarray], transition: np.ndarray | None = None,
                 batch: int = 256) -> list[list[str]]:
    """BIO tags of each paragraph's (n_words, T) ``scores``, batched by length."""
    out: list[list[str]] = [[] for _ in scores]
    order = sorted((i for i in range(len(scores)) if len(scores[i])), key=lambda i: len(scores[i]))
    for k in range(0, len(order), batch):
        idx = order[k : k + batch]
        longest = max(len(scores[i]) for i in idx)
        padded = np.zeros((len(idx), longest, len(BIO_TAGS)), dtype=np.float32)
        active = np.zeros((len(idx), longest), dtype=bool)
        for row, i in enumerate(idx):
            padded[row, : len(scores[i])] = scores[i]
            active[row, : len(scores[i])] = True
        for i, path in zip(idx, viterbi_batch(padded, active, transition)):
            out[i] = [BIO_TAGS[j] for j in path]
    return out
