"""Span fine-tuning head (Span Fine-tuning paper), token-level variant for NER.

1. The paragraph is cut into segments (n-gram dictionary, random, or single words).
2. Inside each segment, a CNN runs over the encoder's subword vectors and max-pools them
   into one segment vector. (The convolution runs over the paragraph's subword sequence,
   so at a segment's edge it sees up to ``kernel // 2`` neighbouring subwords; max-pooling
   only ever takes positions inside the segment.)
3. A CNN across the segment vectors (``cnn_layers`` layers) adds context between segments.
4. Each word gets its segment's vector back, concatenated to its own vector, and a BIO
   tagging layer with constrained Viterbi decodes, as in the BIO head.
"""

from __future__ import annotations

from typing import Any

import torch
from torch import nn

from sciner.config import ModelConfig, SpanFinetuneSettings
from sciner.document import Span
from sciner.model.heads.base import Head
from sciner.model.heads.bio import BIOHead
from sciner.model.segmentation import make_segmenter


class SpanFinetuneHead(Head):
    def __init__(self, dim: int, shape_dim: int, dropout: float, settings: SpanFinetuneSettings) -> None:
        super().__init__()
        self.segmenter = make_segmenter(settings)
        hidden = settings.cnn_filters
        kernel = settings.cnn_kernel
        # The CNN reads the encoder's subword vectors, which lack the word-shape part of ``dim``.
        self.subword_cnn = nn.Conv1d(dim - shape_dim, hidden, kernel, padding=kernel // 2)
        self.segment_cnn = nn.ModuleList(
            [nn.Conv1d(hidden, hidden, kernel, padding=kernel // 2) for _ in range(settings.cnn_layers)]
        )
        self.act = nn.GELU()
        self.bio = BIOHead(dim + hidden, dropout)

    @classmethod
    def build(cls, cfg: ModelConfig, dim: int) -> "SpanFinetuneHead":
        return cls(dim, cfg.shape_dim, cfg.dropout, cfg.head_settings)

    def inputs(self, words: torch.Tensor, mask: torch.Tensor, feats: list[Any],
               subwords: torch.Tensor | None) -> torch.Tensor:
        """Word vectors (B, N, D) -> word vectors with their segment's vector (B, N, D + r).

        ``subwords`` (B, S, H): each paragraph's subword states in order (each taken from the
        window that supplies its word's vector), zero after the paragraph's end.
        """
        assert subwords is not None, "the span fine-tuning head needs the subword states"
        B, S, _ = subwords.shape
        conv = self.act(self.subword_cnn(subwords.transpose(1, 2))).transpose(1, 2)  # (B, S, r)
        flat = conv.reshape(B * S, -1)
        N = mask.shape[1]
        seg_of_pos = torch.full((B * S,), -1, dtype=torch.long)
        word_seg = torch.zeros((B, N), dtype=torch.long)
        seg_offsets, n_segments = [], 0
        for b, f in enumerate(feats):
            segments = self.segmenter(f.tokens)
            seg_offsets.append((n_segments, len(segments)))
            starts = [0]
            for p in f.pieces:
                starts.append(starts[-1] + len(p))
            for s, (i, j) in enumerate(segments):
                word_seg[b, i:j] = n_segments + s
                seg_of_pos[b * S + starts[i] : b * S + starts[j]] = n_segments + s
            n_segments += len(segments)
        seg_of_pos, word_seg = seg_of_pos.to(flat.device), word_seg.to(flat.device)
        valid = seg_of_pos >= 0
        pooled = flat.new_full((max(n_segments, 1), flat.shape[-1]), -1e4)
        pooled = pooled.scatter_reduce(0, seg_of_pos[valid][:, None].expand(-1, flat.shape[-1]), flat[valid],
                                       reduce="amax", include_self=True)
        # Segment sequence per paragraph, then a CNN across segments.
        s_max = max((n for _, n in seg_offsets), default=1)
        seq = flat.new_zeros((B, max(s_max, 1), flat.shape[-1]))
        for b, (off, n) in enumerate(seg_offsets):
            seq[b, :n] = pooled[off : off + n]
        x = seq.transpose(1, 2)
        for layer in self.segment_cnn:
            x = self.act(layer(x)) + x
        seq = x.transpose(1, 2).reshape(-1, flat.shape[-1])
        # Back to words: the index of each word's segment within its paragraph's sequence.
        local = torch.zeros_like(word_seg)
        for b, (off, _) in enumerate(seg_offsets):
            local[b] = (word_seg[b] - off).clamp_min(0) + b * max(s_max, 1)
        seg_for_word = seq[local.reshape(-1)].reshape(B, N, -1)
        return torch.cat([words, seg_for_word.to(words.dtype)], dim=-1)

    def loss(self, words: torch.Tensor, mask: torch.Tensor, tags: list[list[str]]) -> torch.Tensor:
        return self.bio.loss(words, mask, tags)

    def decode(self, words: torch.Tensor, mask: torch.Tensor) -> list[list[Span]]:
        return self.bio.decode(words, mask)
