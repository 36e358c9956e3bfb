"""Decoding: constrained Viterbi over BIO tags, and best non-overlapping spans."""

from __future__ import annotations

import numpy as np
import torch

from sciner.document import Span
from sciner.labels import BIO_TAGS
from sciner.model.viterbi import allowed, viterbi_batch


def allowed_transitions(tags: tuple[str, ...] = BIO_TAGS) -> tuple[torch.Tensor, torch.Tensor]:
    """(start_allowed[T], allowed[prev, cur]): I-X only after B-X or I-X."""
    start, ok = allowed(tags)
    return torch.from_numpy(start), torch.from_numpy(ok)


_START, _ALLOWED = allowed_transitions()


def viterbi(log_probs: torch.Tensor, mask: torch.Tensor, transition: np.ndarray | None = None) -> list[list[int]]:
    """Best allowed tag path of each row of ``log_probs`` (B, N, T) over its ``mask``ed words;
    ``transition`` (T, T), when given, adds to each step's score (see :mod:`sciner.model.viterbi`).

    Runs in NumPy: the loop over words does many tiny (B, T, T) steps, and torch's per-op
    thread dispatch made them cost more than the encoder when the CPU was busy.
    """
    return viterbi_batch(log_probs.detach().float().cpu().numpy(), mask.cpu().numpy(), transition)


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
