"""The whole network: encoder windows -> word vectors (+ word shape) -> head."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import torch
from torch import nn

from sciner.config import ModelConfig
from sciner.document import Span
from sciner.errors import ConfigError
from sciner.model.heads.bio import BIOHead
from sciner.model.shape import SHAPES, word_shape
from sciner.model.heads.span import SpanHead
from sciner.model.batching import length_batches
from sciner.model.windows import build_encoder_batch, pad_rows, window_rows, word_pieces


@dataclass
class Features:
    """A paragraph made ready for the network: subword ids per word and word shapes."""

    pieces: list[list[int]]
    shapes: list[int]
    tokens: list[str]
    tags: list[str] | None = None

    @property
    def n_subwords(self) -> int:
        return sum(len(p) for p in self.pieces)


def featurize_many(tokenizer: Any, paragraphs: list[list[str]], cfg: ModelConfig,
                   tags: list[list[str] | None] | None = None) -> list[Features]:
    """Paragraphs made ready for the network; each distinct word is cut into subwords once."""
    distinct = list(dict.fromkeys(w for tokens in paragraphs for w in tokens))
    pieces = dict(zip(distinct, word_pieces(tokenizer, distinct, cfg.max_subwords_per_word)))
    shapes = {w: word_shape(w) for w in distinct}
    return [
        Features(pieces=[pieces[w] for w in tokens], shapes=[shapes[w] for w in tokens], tokens=list(tokens),
                 tags=tags[i] if tags is not None else None)
        for i, tokens in enumerate(paragraphs)
    ]


def build_head(cfg: ModelConfig, dim: int) -> nn.Module:
    if cfg.head == "bio":
        return BIOHead(dim, cfg.dropout)
    if cfg.head == "span":
        return SpanHead(dim, cfg.span_hidden, cfg.max_span_width, cfg.dropout)
    if cfg.head == "span_finetune":
        from sciner.model.heads.span_finetune import SpanFinetuneHead

        return SpanFinetuneHead(dim, cfg)
    raise ConfigError(f"model.head must be 'bio', 'span' or 'span_finetune', not {cfg.head!r}")


class NERModel(nn.Module):
    def __init__(self, cfg: ModelConfig, encoder: nn.Module, tokenizer: Any) -> None:
        super().__init__()
        self.cfg = cfg
        self.encoder = encoder
        self.tokenizer = tokenizer
        hidden = encoder.config.hidden_size
        self.shape = nn.Embedding(len(SHAPES), cfg.shape_dim, padding_idx=0) if cfg.shape_dim > 0 else None
        self.head = build_head(cfg, hidden + cfg.shape_dim)
        if cfg.freeze_word_embeddings:
            self.encoder.get_input_embeddings().weight.requires_grad_(False)

    def word_vectors(self, feats: list[Features]) -> tuple[torch.Tensor, torch.Tensor, Any]:
        """(B, N, D) word vectors, the (B, N) word mask, and the encoder batch used."""
        tok = self.tokenizer
        batch = build_encoder_batch(
            [f.pieces for f in feats], tok.cls_token_id, tok.sep_token_id, tok.pad_token_id,
            self.cfg.window, self.cfg.window_overlap,
        )
        hidden = self.encoder(input_ids=batch.input_ids, attention_mask=batch.attention_mask).last_hidden_state
        flat = hidden.reshape(-1, hidden.shape[-1])
        words = flat[batch.gather_index.reshape(-1)].reshape(*batch.gather_index.shape, -1)
        return self.with_shapes(words, feats), batch.word_mask, (batch, hidden)

    def with_shapes(self, words: torch.Tensor, feats: list[Features]) -> torch.Tensor:
        """(B, N, H) encoder vectors with each word's shape embedding appended (if the model has one)."""
        if self.shape is None:
            return words
        shapes = torch.zeros(words.shape[:2], dtype=torch.long)
        for b, f in enumerate(feats):
            shapes[b, : len(f.shapes)] = torch.tensor(f.shapes, dtype=torch.long)
        return torch.cat([words, self.shape(shapes).to(words.dtype)], dim=-1)

    def encode_packed(self, feats: list[Features], batch_subwords: int) -> list[torch.Tensor]:
        """Each paragraph's (n_words, H) encoder vectors, for prediction.

        The windows of all paragraphs are batched by their own length, so the short last
        window of a long paragraph is not padded to a full window (a quarter of the encoder's
        work on the official test file went to such padding when paragraphs were batched whole).
        """
        tok = self.tokenizer
        rows, owners = window_rows([f.pieces for f in feats], tok.cls_token_id, tok.sep_token_id,
                                   self.cfg.window, self.cfg.window_overlap)
        counts = [len(f.tokens) for f in feats]
        out = torch.zeros((sum(counts), self.encoder.config.hidden_size))
        if owners:
            o = torch.tensor(owners, dtype=torch.long)
            offsets = torch.tensor([0] + counts[:-1], dtype=torch.long).cumsum(0)
            target = offsets[o[:, 0]] + o[:, 1]
            local = torch.full((len(rows),), -1, dtype=torch.long)
            for batch in length_batches([len(r) for r in rows], batch_subwords):
                input_ids, attention = pad_rows([rows[i] for i in batch], tok.pad_token_id)
                hidden = self.encoder(input_ids=input_ids, attention_mask=attention).last_hidden_state
                local.fill_(-1)
                local[torch.tensor(batch)] = torch.arange(len(batch))
                row = local[o[:, 2]]
                here = row >= 0
                flat = row[here] * input_ids.shape[1] + o[here, 3]
                out[target[here]] = hidden.reshape(-1, hidden.shape[-1])[flat].float()
        return list(out.split(counts))

    def _head_inputs(self, feats: list[Features]) -> tuple[torch.Tensor, torch.Tensor]:
        words, mask, (batch, hidden) = self.word_vectors(feats)
        if self.cfg.head == "span_finetune":
            words = self.head.combine(words, mask, feats, batch, hidden)  # type: ignore[operator]
        return words, mask

    def loss(self, feats: list[Features]) -> torch.Tensor:
        words, mask = self._head_inputs(feats)
        return self.head.loss(words, mask, [f.tags or [] for f in feats])  # type: ignore[operator]

    @torch.no_grad()
    def predict(self, feats: list[Features]) -> list[list[Span]]:
        words, mask = self._head_inputs(feats)
        return self.head.decode(words, mask)  # type: ignore[operator]
