"""CNN tagging head (the fast model's): hashed word features and a window CNN under the BIO head.

spaCy's efficiency NER in our own network: each word is its encoder vector (its first
subword's state after ``model.num_layers`` layers: the fast model keeps one; -1 keeps none, the
encoder's embedding), its shape embedding, and hash embeddings of its lower-cased form, prefix,
suffix and spaCy-style shape string; a linear layer maps them to ``width``, ``depth`` residual
convolutions over ``kernel`` words give them context (layer k's words ``dilation**k`` apart), and
the BIO head's linear layer, constrained Viterbi, type biases and soft-label loss follow
unchanged (:class:`BIOHead`).

The word mask travels with the inputs as their last channel, so padding never reaches a real
word through the convolutions: a paragraph's tags do not depend on what it is batched with.
"""

from __future__ import annotations

from typing import Any

import torch
from torch import nn

from sciner.model.hashing import FEATURES, SEEDS, cached_rows
from sciner.model.heads.base import HeadConfig
from sciner.model.heads.bio import BIOHead

class CNNHead(BIOHead):
    int8_tables = ("hashes.weight",)

    def __init__(self, dim: int, dropout: float, *, hash_rows: int, hash_dim: int, width: int, depth: int,
                 kernel: int, dilation: int = 1) -> None:
        super().__init__(width, dropout)
        self.hash_rows = hash_rows
        self.hashes = nn.EmbeddingBag(len(FEATURES) * hash_rows, hash_dim, mode="sum")
        nn.init.normal_(self.hashes.weight, std=0.1)
        self.project = nn.Linear(dim + len(FEATURES) * hash_dim, width)
        self.convs = nn.ModuleList(nn.Conv1d(width, width, kernel, padding=kernel // 2 * dilation**k,
                                             dilation=dilation**k) for k in range(depth))
        self.norms = nn.ModuleList(nn.LayerNorm(width) for _ in range(depth))
        self._rows: dict[str, tuple[int, ...]] = {}

    @classmethod
    def build(cls, cfg: HeadConfig, dim: int) -> "CNNHead":
        s = cfg.head_settings
        return cls(dim, cfg.dropout, hash_rows=s.hash_rows, hash_dim=s.hash_dim, width=s.width, depth=s.depth,
                   kernel=s.kernel, dilation=s.dilation)

    def rows(self, words: list[str]) -> torch.Tensor:
        """(len(words), features x seeds) hash-table rows of ``words``: each feature in its own table."""
        return torch.tensor(cached_rows(self._rows, words, self.hash_rows), dtype=torch.long).view(
            len(words), len(FEATURES) * len(SEEDS))

    def inputs(self, words: torch.Tensor, mask: torch.Tensor, feats: list[Any],
               subwords: torch.Tensor | None) -> torch.Tensor:
        """(B, N, D + hashes + 1): the word vectors, their hash embeddings and the mask."""
        b, n = mask.shape
        per_word = len(SEEDS)
        rows = torch.zeros((b, n, len(FEATURES) * per_word), dtype=torch.long)
        # A paragraph's words are the first of its row: the mask's True cells, in row-major order.
        rows[mask.cpu()] = self.rows([w for f in feats for w in f.tokens])
        hashed = self.hashes(rows.view(-1, per_word).to(words.device)).view(b, n, -1)
        hashed = hashed * mask[..., None].to(hashed.dtype)
        return torch.cat([words, hashed.to(words.dtype), mask[..., None].to(words.dtype)], dim=-1)

    def forward(self, words: torch.Tensor) -> torch.Tensor:
        """Tag logits (B, N, T) of the inputs made by :meth:`inputs`."""
        keep = words[..., -1:]
        x = self.project(self.dropout(words[..., :-1])) * keep
        for conv, norm in zip(self.convs, self.norms):
            step = conv(x.transpose(1, 2)).transpose(1, 2)
            x = x + nn.functional.gelu(norm(step)) * keep
        return self.out(self.dropout(x))
