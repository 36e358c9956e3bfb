"""Decoding: constrained Viterbi over BIO tags, and best non-overlapping spans."""

from __future__ import annotations

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


def viterbi(log_probs: torch.Tensor, mask: torch.Tensor) -> list[list[int]]:
    """Best allowed tag path of each row of ``log_probs`` (B, N, T) over its ``mask``ed words."""
    B, N, T = log_probs.shape
    neg = torch.tensor(-1e4, dtype=log_probs.dtype)
    trans = torch.where(_ALLOWED, torch.tensor(0.0, dtype=log_probs.dtype), neg)  # (T, T)
    score = log_probs[:, 0] + torch.where(_START, torch.tensor(0.0, dtype=log_probs.dtype), neg)
    back = torch.zeros((B, N, T), dtype=torch.long)
    for t in range(1, N):
        cand = score[:, :, None] + trans[None]  # (B, prev, cur)
        best, arg = cand.max(dim=1)
        new = best + log_probs[:, t]
        active = mask[:, t][:, None]
        score = torch.where(active, new, score)
        back[:, t] = torch.where(active, arg, torch.arange(T).expand(B, T))
    lengths = mask.sum(dim=1).tolist()
    last = score.argmax(dim=1).tolist()
    paths = []
    back_list = back.tolist()
    for b in range(B):
        n = lengths[b]
        if n == 0:
            paths.append([])
            continue
        path = [last[b]]
        for t in range(n - 1, 0, -1):
            path.append(back_list[b][t][path[-1]])
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
