"""SpanBERT's two objectives on top of a BERT-style encoder: masked LM and the span boundary objective.

Both output layers reuse the encoder's input word embeddings as their weight (Press and
Wolf, 2017), each with its own bias. The MLM head is BERT's (dense, GeLU, LayerNorm, tied
decoder). The SBO head predicts each masked token from the encodings of the two unmasked
tokens just outside its span and an embedding of its position inside the span:

    h0 = [x_{s-1}; x_{e+1}; p_{i-s+1}]
    h1 = LayerNorm(GeLU(W1 h0))
    y_i = LayerNorm(GeLU(W2 h1))

and the loss of a masked token is ``CE(MLM) + CE(SBO)``, averaged over masked tokens.

Encoders shipped for sentence embeddings (such as all-MiniLM-L6-v2) have no MLM head, so
both heads start from BERT's initialisation.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import nn

from sciner.pretrain.batch import MaskedBatch
from sciner.pretrain.masking import IGNORE_INDEX


class TiedOutput(nn.Module):
    """Vocabulary logits from hidden vectors, with the weight shared with the input embeddings."""

    def __init__(self, word_embeddings: nn.Embedding) -> None:
        super().__init__()
        self.decoder = nn.Linear(word_embeddings.embedding_dim, word_embeddings.num_embeddings, bias=False)
        self.decoder.weight = word_embeddings.weight  # the same Parameter object: tied, not copied
        self.bias = nn.Parameter(torch.zeros(word_embeddings.num_embeddings))

    def forward(self, hidden: torch.Tensor) -> torch.Tensor:
        return self.decoder(hidden) + self.bias


class MLMHead(nn.Module):
    """BERT's masked-LM head: dense + GeLU + LayerNorm, then the tied output layer."""

    def __init__(self, hidden_size: int, word_embeddings: nn.Embedding, eps: float = 1e-12) -> None:
        super().__init__()
        self.dense = nn.Linear(hidden_size, hidden_size)
        self.norm = nn.LayerNorm(hidden_size, eps=eps)
        self.output = TiedOutput(word_embeddings)

    def forward(self, hidden: torch.Tensor) -> torch.Tensor:
        """``(..., hidden)`` encodings of masked positions -> ``(..., vocab)`` logits."""
        return self.output(self.norm(F.gelu(self.dense(hidden))))


class SBOHead(nn.Module):
    """The span boundary objective's predictor: boundary encodings + relative position -> vocabulary."""

    def __init__(
        self,
        hidden_size: int,
        word_embeddings: nn.Embedding,
        max_positions: int,
        position_dim: int = 200,
        eps: float = 1e-12,
    ) -> None:
        super().__init__()
        self.positions = nn.Embedding(max_positions, position_dim)
        self.layer1 = nn.Linear(2 * hidden_size + position_dim, hidden_size)
        self.norm1 = nn.LayerNorm(hidden_size, eps=eps)
        self.layer2 = nn.Linear(hidden_size, hidden_size)
        self.norm2 = nn.LayerNorm(hidden_size, eps=eps)
        self.output = TiedOutput(word_embeddings)

    def forward(self, left: torch.Tensor, right: torch.Tensor, offsets: torch.Tensor) -> torch.Tensor:
        """Boundary encodings ``(n, hidden)`` x2 and 0-based offsets in the span ``(n,)`` -> ``(n, vocab)`` logits."""
        offsets = offsets.clamp(max=self.positions.num_embeddings - 1)
        h0 = torch.cat([left, right, self.positions(offsets)], dim=-1)
        h1 = self.norm1(F.gelu(self.layer1(h0)))
        y = self.norm2(F.gelu(self.layer2(h1)))
        return self.output(y)


@dataclass
class PretrainLoss:
    total: torch.Tensor
    mlm: torch.Tensor
    sbo: torch.Tensor


class SpanBertPretrainer(nn.Module):
    """An encoder with its MLM and SBO heads; ``forward(batch)`` returns the SpanBERT loss."""

    def __init__(self, encoder: nn.Module, max_positions: int, position_dim: int = 200) -> None:
        super().__init__()
        self.encoder = encoder
        config = encoder.config
        embeddings = encoder.get_input_embeddings()
        self.mlm = MLMHead(config.hidden_size, embeddings, config.layer_norm_eps)
        self.sbo = SBOHead(config.hidden_size, embeddings, max_positions, position_dim, config.layer_norm_eps)
        self._init_heads(config.initializer_range)

    def _init_heads(self, std: float) -> None:
        # BERT's initialisation; the tied decoder weight is the encoder's and is left alone.
        for module in (self.mlm, self.sbo):
            for sub in module.modules():
                if isinstance(sub, nn.Linear) and sub is not module.output.decoder:
                    nn.init.normal_(sub.weight, std=std)
                    nn.init.zeros_(sub.bias)
                elif isinstance(sub, nn.Embedding):
                    nn.init.normal_(sub.weight, std=std)

    def forward(self, batch: MaskedBatch) -> PretrainLoss:
        hidden = self.encoder(input_ids=batch.input_ids, attention_mask=batch.attention_mask).last_hidden_state
        masked = batch.mlm_labels != IGNORE_INDEX
        mlm_logits = self.mlm(hidden[masked])
        mlm = F.cross_entropy(mlm_logits, batch.mlm_labels[masked])
        sbo_logits = self.sbo(
            hidden[batch.sbo_rows, batch.sbo_left], hidden[batch.sbo_rows, batch.sbo_right], batch.sbo_offsets
        )
        sbo = F.cross_entropy(sbo_logits, batch.sbo_labels)
        return PretrainLoss(total=mlm + sbo, mlm=mlm, sbo=sbo)
