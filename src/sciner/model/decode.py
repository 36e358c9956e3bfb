"""Decoding: constrained Viterbi over BIO tags, and best non-overlapping spans."""

from __future__ import annotations

import numpy as np
import torch

from sciner.document import Span
from sciner.labels import BIO_TAGS, OUTSIDE


def allowed_transitions(tags: tuple[str, ...] = BIO_TAGS) -> tuple[torch.Tensor, torch.Tensor]:
    """(start_allowed[T], allowed[prev, cur]): I-X only after B-X or I-X."""
    n = len(tags)
    allowed = torch.ones((n, n), dtype=torch.bool)
    start = torch.ones(n, dtype=torch.bool)
    for j, cur in enumerate(tags):
        if cur.startswith("I-"):
            start[j] = False
            for i, prev in enumerate(tags):
                allowed[i, j] = prev != OUTSIDE and prev[2:] == cur[2:]
    return start, allowed


_START, _ALLOWED = allowed_transitions()
# The same constraints as additive scores for Viterbi: 0 where allowed, -1e4 where not.
_START_SCORE = np.where(_START.numpy(), 0.0, -1e4).astype(np.float32)
_TRANSITION_SCORE = np.where(_ALLOWED.numpy(), 0.0, -1e4).astype(np.float32)  # (prev, cur)


def viterbi(log_probs: torch.Tensor, mask: torch.Tensor) -> list[list[int]]:
    """Best allowed tag path of each row of ``log_probs`` (B, N, T) over its ``mask``ed words.

    Runs in NumPy: the loop over words does many tiny (B, T, T) steps, and torch's per-op
    thread dispatch made them cost more than the encoder when the CPU was busy.
    """
    scores = log_probs.detach().float().cpu().numpy()
    active = mask.cpu().numpy()
    B, N, T = scores.shape
    score = scores[:, 0] + _START_SCORE
    back = np.zeros((B, N, T), dtype=np.int64)
    stay = np.broadcast_to(np.arange(T), (B, T))
    for t in range(1, N):
        cand = score[:, :, None] + _TRANSITION_SCORE[None]  # (B, prev, cur)
        arg = cand.argmax(axis=1)
        new = np.take_along_axis(cand, arg[:, None, :], axis=1)[:, 0] + scores[:, t]
        on = active[:, t][:, None]
        score = np.where(on, new, score)
        back[:, t] = np.where(on, arg, stay)
    lengths = active.sum(axis=1)
    paths = []
    for b in range(B):
        n = int(lengths[b])
        if n == 0:
            paths.append([])
            continue
        path = [int(score[b].argmax())]
        for t in range(n - 1, 0, -1):
            path.append(int(back[b, t, path[-1]]))
        paths.append(path[::-1])
    return paths


def greedy_spans(candidates: list[Span]) -> list[Span]:
    """Highest-scoring non-overlapping subset of ``candidates``, taken greedily, in text order."""
    taken: list[Span] = []
    used: set[int] = set()
    for s in sorted(candidates, key=lambda s: -(s.score or 0.0)):
        if any(i in used for i in range(s.start, s.end)):
            continue
        taken.append(s)
        used.update(range(s.start, s.end))
    return sorted(taken, key=lambda s: s.start)
