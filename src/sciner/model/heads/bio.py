"""BIO tagging head: a linear layer over each word's vector, cross-entropy training,
constrained Viterbi decoding (never I-X after O or after another type).

An optional per-type decision bias (``type_bias``, set from a model's ``model.json`` by
``sciner calibrate``) is added to the log-probabilities of B-X and I-X before Viterbi; span
scores stay the model's own probabilities.
"""

from __future__ import annotations

import torch
from torch import nn

from sciner.config import ModelConfig
from sciner.document import Span
from sciner.document import bio_to_spans
from sciner.labels import BIO_TAGS
from sciner.model.decode import viterbi
from sciner.model.heads.base import Head

TAG_INDEX = {t: i for i, t in enumerate(BIO_TAGS)}


def bias_vector(bias: dict[str, float]) -> torch.Tensor:
    """(T,) additive bias over BIO tags as a tensor (see :func:`sciner.model.viterbi.type_shift`)."""
    from sciner.model.viterbi import type_shift

    return torch.from_numpy(type_shift(bias))


class BIOHead(Head):
    def __init__(self, dim: int, dropout: float) -> None:
        super().__init__()
        self.dropout = nn.Dropout(dropout)
        self.out = nn.Linear(dim, len(BIO_TAGS))
        # Not a weight: it lives in model.json, so it is not saved with the state dict.
        self.register_buffer("type_bias", torch.zeros(len(BIO_TAGS)), persistent=False)

    @classmethod
    def build(cls, cfg: ModelConfig, dim: int) -> "BIOHead":
        return cls(dim, cfg.dropout)

    def set_type_bias(self, bias: dict[str, float]) -> None:
        """Add ``bias[X]`` to the log-probabilities of B-X and I-X when decoding (missing types: 0)."""
        self.type_bias = bias_vector(bias)

    def forward(self, words: torch.Tensor) -> torch.Tensor:
        """Tag logits (B, N, T) of word vectors (B, N, D)."""
        return self.out(self.dropout(words))

    def loss(self, words: torch.Tensor, mask: torch.Tensor, tags: list[list[str]]) -> torch.Tensor:
        logits = self.forward(words)
        target = torch.full(mask.shape, -100, dtype=torch.long, device=logits.device)
        for b, seq in enumerate(tags):
            target[b, : len(seq)] = torch.tensor([TAG_INDEX[t] for t in seq], dtype=torch.long)
        return nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]), target.reshape(-1), ignore_index=-100)

    def soft_loss(self, words: torch.Tensor, mask: torch.Tensor, probs: torch.Tensor,
                  temperature: float = 1.0) -> torch.Tensor:
        """Distillation loss: cross-entropy of the tag logits to a teacher's (B, N, T) tag
        distributions ``probs`` at ``temperature`` T, averaged over real words.

        The teacher's probabilities are sharpened or softened as p^(1/T) (they are stored at
        T = 1), the student's logits divided by T, and the loss scaled by T^2 so that its
        gradients keep their size whatever T is (Hinton et al., 2015).
        """
        logits = self.forward(words).float()
        target = probs.float().clamp_min(1e-8).log() / temperature
        target = torch.softmax(target, dim=-1)
        per_word = -(target * torch.log_softmax(logits / temperature, dim=-1)).sum(-1)
        return per_word[mask].mean() * temperature**2

    @torch.no_grad()
    def decode(self, words: torch.Tensor, mask: torch.Tensor) -> list[list[Span]]:
        return self.decode_log_probs(torch.log_softmax(self.forward(words).float(), dim=-1), mask)

    @torch.no_grad()
    def decode_log_probs(self, log_probs: torch.Tensor, mask: torch.Tensor) -> list[list[Span]]:
        """Spans of (B, N, T) tag log-probabilities: Viterbi after the type biases; each span
        scored with the model's own probabilities (an exported ONNX tagger computes them)."""
        paths = viterbi((log_probs + self.type_bias).cpu(), mask.cpu())
        log_probs = log_probs.cpu()
        out = []
        for b, path in enumerate(paths):
            tags = [BIO_TAGS[i] for i in path]
            chosen = log_probs[b, torch.arange(len(path)), torch.tensor(path, dtype=torch.long)] if path else None
            spans = []
            for s in bio_to_spans(tags):
                score = float(chosen[s.start : s.end].mean().exp()) if chosen is not None else None
                spans.append(Span(s.label, s.start, s.end, score))
            out.append(spans)
        return out
