"""The whole network: encoder windows -> word vectors (+ word shape) -> head.

Training and prediction share one encoder path, :meth:`NERModel.encode`; the head is looked
up by name in :mod:`sciner.model.heads`, whose registered spec says what it needs from the encoder.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import torch
from torch import nn

from sciner.config import ModelConfig
from sciner.model.batching import length_batches
from sciner.model.heads import build_head, head_spec
from sciner.model.shape import SHAPES
from sciner.model.windows import Features, bucket_length, pad_rows, window_rows


@dataclass
class Encoded:
    """The encoder's output for some paragraphs: each one's (n_words, H) word vectors and,
    for heads that read them, its (n_subwords, H) subword states."""

    words: list[torch.Tensor]
    subwords: list[torch.Tensor] | None = None


def pad(vectors: list[torch.Tensor]) -> tuple[torch.Tensor, torch.Tensor]:
    """(B, N, H) of ``vectors`` padded with zeros to the longest, and the (B, N) mask of real rows."""
    lengths = torch.tensor([len(v) for v in vectors])
    mask = torch.arange(int(lengths.max()))[None, :] < lengths[:, None]
    return nn.utils.rnn.pad_sequence(vectors, batch_first=True), mask.to(vectors[0].device)


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

    def head_device(self) -> torch.device:
        """Where the network's weights are (cpu or cuda)."""
        return next(self.parameters()).device

    def encode(self, feats: list[Features], batch_subwords: int) -> Encoded:
        """The encoder's vectors of non-empty paragraphs ``feats``: the one encoder path of
        training and prediction (with gradients when called with them).

        Paragraphs are cut into windows (:func:`window_rows`); the windows of all paragraphs
        are batched by their own length, so the short last window of a long paragraph is not
        padded to a full window (a quarter of the encoder's work on the official test file went
        to such padding when paragraphs were batched whole).
        """
        tok = self.tokenizer
        rows, owners = window_rows([f.pieces for f in feats], tok.cls_token_id, tok.sep_token_id,
                                   self.cfg.window, self.cfg.window_overlap)
        o = torch.tensor(owners, dtype=torch.long).reshape(-1, 4)
        word_counts = [len(f.tokens) for f in feats]
        if not head_spec(self.cfg.head).needs_subword_states:
            return Encoded(list(self._states(rows, o[:, 2], o[:, 3], batch_subwords).split(word_counts)))
        # Every subword of a word, from the window that supplies the word's vector; a word's
        # vector is its first subword's, so one encoder pass serves both.
        sizes = torch.tensor([len(feats[b].pieces[j]) for b, j in o[:, :2].tolist()], dtype=torch.long)
        first = torch.cumsum(sizes, 0) - sizes
        within = torch.arange(int(sizes.sum())) - first.repeat_interleave(sizes)
        subwords = self._states(rows, o[:, 2].repeat_interleave(sizes), o[:, 3].repeat_interleave(sizes) + within,
                                batch_subwords)
        words = subwords[first.to(subwords.device)]
        return Encoded(list(words.split(word_counts)), list(subwords.split([f.n_subwords for f in feats])))

    def _states(self, rows: list[list[int]], row: torch.Tensor, pos: torch.Tensor, batch_subwords: int) -> torch.Tensor:
        """(P, H) fp32 encoder states at (``row``, ``pos``) of the windows ``rows`` (see :func:`gather_rows`)."""
        device = self.head_device()

        def states(input_ids: torch.Tensor, attention: torch.Tensor, flat: torch.Tensor, _: torch.Tensor) -> torch.Tensor:
            hidden = self.encoder(input_ids=input_ids.to(device), attention_mask=attention.to(device)).last_hidden_state
            return hidden.reshape(-1, hidden.shape[-1])[flat.to(device)].float()

        out = gather_rows(rows, row, pos, batch_subwords, states, window=self.cfg.window,
                          pad_id=self.tokenizer.pad_token_id, exact=not self.training)
        return out if out is not None else torch.zeros((0, self.encoder.config.hidden_size), device=device)

    def with_shapes(self, words: torch.Tensor, feats: list[Features]) -> torch.Tensor:
        """(B, N, H) encoder vectors with each word's shape embedding appended (if the model has one)."""
        if self.shape is None:
            return words
        shapes = torch.zeros(words.shape[:2], dtype=torch.long)
        for b, f in enumerate(feats):
            shapes[b, : len(f.shapes)] = torch.tensor(f.shapes, dtype=torch.long)
        return torch.cat([words, self.shape(shapes.to(words.device)).to(words.dtype)], dim=-1)

    def head_inputs(self, feats: list[Features], encoded: Encoded) -> tuple[torch.Tensor, torch.Tensor]:
        """(B, N, D) what the head reads for paragraphs ``feats`` (their ``encoded`` vectors, in
        the same order), and the (B, N) word mask."""
        words, mask = pad(encoded.words)
        subwords = pad(encoded.subwords)[0] if encoded.subwords is not None else None
        return self.head.inputs(self.with_shapes(words, feats), mask, feats, subwords), mask

    def loss(self, feats: list[Features], batch_subwords: int) -> torch.Tensor:
        """The head's training loss on non-empty paragraphs ``feats`` (which carry tags)."""
        words, mask = self.head_inputs(feats, self.encode(feats, batch_subwords))
        return self.head.loss(words, mask, [f.tags or [] for f in feats])


#: What :func:`gather_rows` runs on each padded batch of windows: (input_ids, attention mask,
#: flat positions into the batch's (rows x length) states, which of the requested positions
#: they are) -> one row of output per flat position.
BatchRunner = Callable[[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor], torch.Tensor]


def gather_rows(rows: list[list[int]], row: torch.Tensor, pos: torch.Tensor, batch_subwords: int,
                run: BatchRunner, *, window: int, pad_id: int, exact: bool) -> torch.Tensor | None:
    """``run``'s outputs for the positions (``row``, ``pos``) of the windows ``rows``, in the
    order asked (None when there are none): the one batching of windows that the torch
    encoder and an exported ONNX tagger (:mod:`sciner.inference.onnx`) share.

    With ``exact`` (prediction), rows are batched with rows of the same :func:`bucket_length`
    and padded to it, so each row's states are the same whatever other rows are encoded with
    it. Training has no such need and pads to each batch's longest row (about 5% faster a
    training step).
    """
    padded = [bucket_length(len(r), window) if exact else len(r) for r in rows]
    batches = length_batches(padded, batch_subwords, same_length=exact)
    batch_of_row = torch.empty(len(rows), dtype=torch.long)
    slot_of_row = torch.empty(len(rows), dtype=torch.long)
    for k, batch in enumerate(batches):
        batch_of_row[batch] = k
        slot_of_row[batch] = torch.arange(len(batch))
    wanted_batch = batch_of_row[row]
    order = torch.argsort(wanted_batch, stable=True)
    counts = torch.bincount(wanted_batch, minlength=len(batches)).tolist()
    parts, start = [], 0
    for batch, n in zip(batches, counts):
        sel = order[start : start + n]
        start += n
        if n == 0:
            continue
        input_ids, attention = pad_rows([rows[i] for i in batch], pad_id, padded[batch[0]] if exact else None)
        parts.append(run(input_ids, attention, slot_of_row[row[sel]] * input_ids.shape[1] + pos[sel], sel))
    if not parts:
        return None
    inverse = torch.empty_like(order)
    inverse[order] = torch.arange(len(order))
    out = torch.cat(parts)
    return out[inverse.to(out.device)]

