"""Span-based NER head (textbook chapter): enumerate spans up to ``max_width`` words,
represent each by its boundary word vectors, an attention-pooled summary of its inside
and a width embedding, classify into the 7 types or none, decode the best
non-overlapping set."""

from __future__ import annotations

import torch
from torch import nn

from sciner.config import ModelConfig
from sciner.document import Span
from sciner.document import bio_to_spans
from sciner.labels import ENTITY_TYPES
from sciner.model.decode import greedy_spans
from sciner.model.heads.base import Head

SPAN_LABELS: tuple[str, ...] = ("none",) + ENTITY_TYPES


def enumerate_spans(n: int, max_width: int) -> tuple[torch.Tensor, torch.Tensor]:
    """Start and inclusive end index of every span of at most ``max_width`` words in ``n`` words."""
    starts, ends = [], []
    for w in range(max_width):
        for i in range(n - w):
            starts.append(i)
            ends.append(i + w)
    return torch.tensor(starts, dtype=torch.long), torch.tensor(ends, dtype=torch.long)


class SpanHead(Head):
    def __init__(self, dim: int, hidden: int, max_width: int, dropout: float) -> None:
        super().__init__()
        self.max_width = max_width
        self.attn = nn.Linear(dim, 1)
        self.width = nn.Embedding(max_width, 32)
        self.ffn = nn.Sequential(
            nn.Dropout(dropout),
            nn.Linear(3 * dim + 32, hidden),
            nn.GELU(),
            nn.LayerNorm(hidden),
            nn.Dropout(dropout),
            nn.Linear(hidden, len(SPAN_LABELS)),
        )

    @classmethod
    def build(cls, cfg: ModelConfig, dim: int) -> "SpanHead":
        settings = cfg.head_settings
        return cls(dim, settings.span_hidden, settings.max_span_width, cfg.dropout)

    def forward(self, words: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """Logits (B, S, 8) for every span, with the spans' starts and inclusive ends."""
        B, N, D = words.shape
        starts, ends = (t.to(words.device) for t in enumerate_spans(N, min(self.max_width, N)))
        # Attention pooling inside each span through prefix sums: O(N) instead of O(N * width).
        scores = 8.0 * torch.tanh(self.attn(words).squeeze(-1) / 8.0)  # bounded, so exp cannot overflow
        weights = scores.exp()  # (B, N)
        zero = words.new_zeros((B, 1, D))
        num = torch.cat([zero, torch.cumsum(weights[..., None] * words, dim=1)], dim=1)  # (B, N+1, D)
        den = torch.cat([words.new_zeros((B, 1)), torch.cumsum(weights, dim=1)], dim=1)  # (B, N+1)
        pooled = (num[:, ends + 1] - num[:, starts]) / (den[:, ends + 1] - den[:, starts]).clamp_min(1e-6)[..., None]
        rep = torch.cat([words[:, starts], words[:, ends], pooled, self.width(ends - starts).expand(B, -1, -1)], dim=-1)
        return self.ffn(rep), starts, ends

    def loss(self, words: torch.Tensor, mask: torch.Tensor, tags: list[list[str]]) -> torch.Tensor:
        logits, starts, ends = self.forward(words)
        lengths = mask.sum(dim=1)
        target = torch.zeros(logits.shape[:2], dtype=torch.long, device=logits.device)
        target[ends[None, :] >= lengths[:, None]] = -100
        index = {(int(s), int(e)): k for k, (s, e) in enumerate(zip(starts, ends))}
        for b, seq in enumerate(tags):
            for span in bio_to_spans(seq):
                k = index.get((span.start, span.end - 1))
                if k is not None:
                    target[b, k] = SPAN_LABELS.index(span.label)
        return nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]), target.reshape(-1), ignore_index=-100)

    @torch.no_grad()
    def decode(self, words: torch.Tensor, mask: torch.Tensor) -> list[list[Span]]:
        logits, starts, ends = self.forward(words)
        probs = torch.softmax(logits.float(), dim=-1)
        best_p, best = probs.max(dim=-1)
        lengths = mask.sum(dim=1)
        keep = (best > 0) & (ends[None, :] < lengths[:, None])
        out = []
        for b in range(words.shape[0]):
            idx = keep[b].nonzero().squeeze(-1).tolist()
            cands = [
                Span(SPAN_LABELS[int(best[b, k])], int(starts[k]), int(ends[k]) + 1, float(best_p[b, k])) for k in idx
            ]
            out.append(greedy_spans(cands))
        return out
