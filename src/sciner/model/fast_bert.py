"""BERT's encoder for inference only, built without importing transformers.

Importing transformers takes longer than tagging a paper (docs/benchmarks.md, "NumPy or
torch"). For BERT-architecture encoders (all-MiniLM-L6-v2) the tagger therefore uses this
copy: the same modules under the same parameter names as ``transformers.BertModel`` (so the
package's ``model.safetensors`` and our saved weights load unchanged), without dropout, with
query/key/value fused into one matrix product. ``tests/test_fast_bert.py`` checks that its
outputs equal transformers' on the same weights. Training still uses transformers.

Its tokenizer is :class:`sciner.model.wordpiece.WordPieceTokenizer`.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace

import torch
from safetensors import safe_open
from torch import nn
from torch.nn import functional as F


def kept_layers(n: int, total: int) -> int:
    """How many of ``total`` transformer layers ``model.num_layers = n`` keeps: the first ``n``
    (0 or more than there are: all; -1: none, the embeddings only)."""
    return total if n == 0 or n >= total else max(n, 0)


@dataclass(frozen=True)
class BertConfig:
    """The parts of a BERT ``config.json`` that the forward pass needs."""

    vocab_size: int
    hidden_size: int
    num_hidden_layers: int
    num_attention_heads: int
    intermediate_size: int
    max_position_embeddings: int
    type_vocab_size: int
    layer_norm_eps: float

    @classmethod
    def read(cls, folder: Path) -> "BertConfig":
        raw = json.loads((folder / "config.json").read_text(encoding="utf-8"))
        return cls(**{name: raw[name] for name in cls.__dataclass_fields__})


class _Embeddings(nn.Module):
    def __init__(self, c: BertConfig) -> None:
        super().__init__()
        self.word_embeddings = nn.Embedding(c.vocab_size, c.hidden_size)
        self.position_embeddings = nn.Embedding(c.max_position_embeddings, c.hidden_size)
        self.token_type_embeddings = nn.Embedding(c.type_vocab_size, c.hidden_size)
        self.LayerNorm = nn.LayerNorm(c.hidden_size, eps=c.layer_norm_eps)

    def forward(self, input_ids: torch.Tensor) -> torch.Tensor:
        positions = self.position_embeddings.weight[: input_ids.shape[1]]
        # The word table may stay fp32 in a bf16 encoder (see FastBert.to_bf16): its rows are
        # cast as they are looked up, exactly what looking them up in a cast table gives.
        x = self.word_embeddings(input_ids).to(positions.dtype) + positions + self.token_type_embeddings.weight[0]
        return self.LayerNorm(x)


class _SelfAttention(nn.Module):
    def __init__(self, c: BertConfig) -> None:
        super().__init__()
        self.heads = c.num_attention_heads
        self.query = nn.Linear(c.hidden_size, c.hidden_size)
        self.key = nn.Linear(c.hidden_size, c.hidden_size)
        self.value = nn.Linear(c.hidden_size, c.hidden_size)

        self.fused: tuple[torch.Tensor, torch.Tensor] | None = None

    @torch.no_grad()
    def fuse(self) -> None:
        """Stack query, key and value into one matrix (after the final weights are loaded);
        a constant for inference, outside autograd (so that the graph can be exported too)."""
        self.fused = (torch.cat([self.query.weight, self.key.weight, self.value.weight]),
                      torch.cat([self.query.bias, self.key.bias, self.value.bias]))

    def forward(self, x: torch.Tensor, mask: torch.Tensor | None) -> torch.Tensor:
        B, L, D = x.shape
        if self.fused is not None:
            qkv = F.linear(x, *self.fused)
        else:  # separate modules (for example after dynamic int8 quantization)
            qkv = torch.cat([self.query(x), self.key(x), self.value(x)], dim=-1)
        q, k, v = qkv.view(B, L, 3, self.heads, D // self.heads).permute(2, 0, 3, 1, 4)
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        return out.transpose(1, 2).reshape(B, L, D)


class _DenseNorm(nn.Module):
    """``LayerNorm(dense(x) + residual)``: BERT's output block after attention and after the FFN."""

    def __init__(self, d_in: int, d_out: int, eps: float) -> None:
        super().__init__()
        self.dense = nn.Linear(d_in, d_out)
        self.LayerNorm = nn.LayerNorm(d_out, eps=eps)

    def forward(self, x: torch.Tensor, residual: torch.Tensor) -> torch.Tensor:
        return self.LayerNorm(self.dense(x) + residual)


class _Attention(nn.Module):
    def __init__(self, c: BertConfig) -> None:
        super().__init__()
        self.self = _SelfAttention(c)
        self.output = _DenseNorm(c.hidden_size, c.hidden_size, c.layer_norm_eps)

    def forward(self, x: torch.Tensor, mask: torch.Tensor | None) -> torch.Tensor:
        return self.output(self.self(x, mask), x)


class _Intermediate(nn.Module):
    def __init__(self, c: BertConfig) -> None:
        super().__init__()
        self.dense = nn.Linear(c.hidden_size, c.intermediate_size)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.gelu(self.dense(x))


class _Layer(nn.Module):
    def __init__(self, c: BertConfig) -> None:
        super().__init__()
        self.attention = _Attention(c)
        self.intermediate = _Intermediate(c)
        self.output = _DenseNorm(c.intermediate_size, c.hidden_size, c.layer_norm_eps)

    def forward(self, x: torch.Tensor, mask: torch.Tensor | None) -> torch.Tensor:
        x = self.attention(x, mask)
        return self.output(self.intermediate(x), x)


class _Encoder(nn.Module):
    def __init__(self, c: BertConfig) -> None:
        super().__init__()
        self.layer = nn.ModuleList(_Layer(c) for _ in range(c.num_hidden_layers))


class _Pooler(nn.Module):
    """Unused by sciner; present so that the encoder's weight files load without leftovers."""

    def __init__(self, c: BertConfig) -> None:
        super().__init__()
        self.dense = nn.Linear(c.hidden_size, c.hidden_size)


class FastBert(nn.Module):
    """Inference-only BERT encoder; ``forward`` returns an object with ``last_hidden_state``."""

    def __init__(self, config: BertConfig) -> None:
        super().__init__()
        self.config = config
        self.embeddings = _Embeddings(config)
        self.encoder = _Encoder(config)
        self.pooler = _Pooler(config)

    def fuse_qkv(self) -> None:
        """Fuse each layer's query/key/value into one matrix; call once the final weights are
        loaded and cast (later changes to the weights are not seen by the fused matrices)."""
        for layer in self.encoder.layer:
            layer.attention.self.fuse()

    def to_bf16(self) -> "FastBert":
        """The encoder in bfloat16 but for its word table (half its weights), which stays fp32:
        casting it would cost more than the few rows a run looks up (the same numbers either way)."""
        words = self.embeddings.word_embeddings
        self.embeddings.word_embeddings = None  # type: ignore[assignment]
        try:
            self.to(torch.bfloat16)
        finally:
            self.embeddings.word_embeddings = words
        return self

    def get_input_embeddings(self) -> nn.Embedding:
        return self.embeddings.word_embeddings

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> SimpleNamespace:
        x = self.embeddings(input_ids)
        mask: torch.Tensor | None = None  # no padding: no mask, the fastest attention
        if not bool(attention_mask.all()):
            # An additive mask in the attention's own dtype is faster on CPU than a boolean one.
            kind = x.device.type  # the mask is built where the encoder runs (cpu or cuda)
            dtype = torch.get_autocast_dtype(kind) if torch.is_autocast_enabled(kind) else x.dtype
            mask = torch.zeros(attention_mask.shape, dtype=dtype, device=x.device).masked_fill_(
                attention_mask == 0, float("-inf"))
            mask = mask[:, None, None, :]  # (B, 1, 1, L)
        for layer in self.encoder.layer:
            x = layer(x, mask)
        return SimpleNamespace(last_hidden_state=x)

    @classmethod
    def load(cls, folder: Path, num_layers: int = 0) -> "FastBert":
        """The encoder in ``folder`` with its ``model.safetensors`` weights, assigned to the
        modules as read (no random initialisation first, no copy into them afterwards).
        ``num_layers``: keep only the first this many layers (0: all; -1: none, the embeddings
        only), and read only their weights."""
        config = BertConfig.read(folder)
        kept = kept_layers(num_layers, config.num_hidden_layers)
        if kept < config.num_hidden_layers:
            config = dataclasses.replace(config, num_hidden_layers=kept)
        with uninitialised():
            model = cls(config)
        wanted = set(model.state_dict())
        with safe_open(str(folder / "model.safetensors"), framework="pt") as f:
            state = {name: f.get_tensor(key) for key in f.keys()
                     if (name := key.removeprefix("bert.")) in wanted}
        model.load_state_dict(state, strict=True, assign=True)
        return model.eval()


@contextlib.contextmanager
def uninitialised() -> Iterator[None]:
    """Build modules without initialising their weights (left as allocated): for modules whose
    every weight is loaded next. Building on the meta device would do the same but imports
    torch._dynamo, which is slow to import (docs/benchmarks.md, "NumPy or torch")."""
    kinds = (nn.Linear, nn.Embedding, nn.LayerNorm)
    saved = [k.reset_parameters for k in kinds]
    try:
        for k in kinds:
            k.reset_parameters = lambda self: None  # type: ignore[method-assign]
        yield
    finally:
        for k, reset in zip(kinds, saved):
            k.reset_parameters = reset  # type: ignore[method-assign]
