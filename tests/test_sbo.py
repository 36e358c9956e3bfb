"""The MLM and span boundary heads: output shapes, weight tying, and the SBO's inputs."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from transformers import BertConfig, BertModel

from sciner.pretrain.batch import mask_batch
from sciner.pretrain.corpus import Segment
from sciner.pretrain.masking import IGNORE_INDEX, MaskingConfig
from sciner.pretrain.objectives import MLMHead, SBOHead, SpanBertPretrainer

VOCAB, HIDDEN = 120, 32


@pytest.fixture
def encoder() -> BertModel:
    torch.manual_seed(0)
    config = BertConfig(
        vocab_size=VOCAB, hidden_size=HIDDEN, num_hidden_layers=1, num_attention_heads=2,
        intermediate_size=64, max_position_embeddings=64,
    )
    return BertModel(config)


def segments(n: int = 3, words: int = 20) -> list[Segment]:
    rng = np.random.default_rng(5)
    out = []
    for _ in range(n):
        sizes = rng.integers(1, 3, size=words)
        wids = [w for w, size in enumerate(sizes) for _ in range(size)]
        ids = rng.integers(10, VOCAB, size=len(wids)).tolist()
        out.append(Segment([1, *ids, 2], [None, *wids, None]))
    return out


def test_heads_output_vocabulary_logits(encoder):
    embeddings = encoder.get_input_embeddings()
    mlm = MLMHead(HIDDEN, embeddings)
    sbo = SBOHead(HIDDEN, embeddings, max_positions=16, position_dim=8)
    assert mlm(torch.randn(5, HIDDEN)).shape == (5, VOCAB)
    assert mlm(torch.randn(2, 3, HIDDEN)).shape == (2, 3, VOCAB)
    logits = sbo(torch.randn(7, HIDDEN), torch.randn(7, HIDDEN), torch.tensor([0, 1, 2, 3, 15, 16, 99]))
    assert logits.shape == (7, VOCAB)  # offsets past the table are clamped, not an error
    # The SBO input is [x_{s-1}; x_{e+1}; p_i]: two encodings and the position embedding.
    assert sbo.layer1.in_features == 2 * HIDDEN + 8
    assert sbo.layer2.in_features == sbo.layer2.out_features == HIDDEN


def test_both_output_layers_are_tied_to_the_input_embeddings(encoder):
    model = SpanBertPretrainer(encoder, max_positions=32, position_dim=8)
    word_embeddings = encoder.embeddings.word_embeddings.weight
    assert model.mlm.output.decoder.weight is word_embeddings
    assert model.sbo.output.decoder.weight is word_embeddings
    # Each head keeps its own bias.
    assert model.mlm.output.bias is not model.sbo.output.bias
    # Tied, not copied: changing the embedding changes what both heads predict.
    hidden = torch.randn(4, HIDDEN)
    before = model.mlm(hidden)
    with torch.no_grad():
        word_embeddings[7] += 1.0
    after = model.mlm(hidden)
    assert not torch.allclose(before[:, 7], after[:, 7])
    assert torch.allclose(before[:, 8], after[:, 8])


def test_batch_gives_sbo_targets_with_unmasked_boundaries():
    batch = mask_batch(segments(), np.random.default_rng(0), MaskingConfig(), 3, 0, np.arange(10, VOCAB))
    masked = batch.mlm_labels != IGNORE_INDEX
    n_masked = int(masked.sum())
    assert len(batch.sbo_labels) == n_masked  # one SBO target per masked token
    assert torch.equal(batch.mlm_labels[batch.sbo_rows, batch.sbo_positions], batch.sbo_labels)
    assert not masked[batch.sbo_rows, batch.sbo_left].any()
    assert not masked[batch.sbo_rows, batch.sbo_right].any()
    assert (batch.sbo_left < batch.sbo_positions).all() and (batch.sbo_positions < batch.sbo_right).all()
    assert torch.equal(batch.sbo_offsets, batch.sbo_positions - batch.sbo_left - 1)


def test_loss_is_mlm_plus_sbo_and_trains_the_tied_embeddings(encoder):
    model = SpanBertPretrainer(encoder, max_positions=32, position_dim=8)
    batch = mask_batch(segments(), np.random.default_rng(1), MaskingConfig(), 3, 0, np.arange(10, VOCAB))
    loss = model(batch)
    assert loss.total.dim() == 0
    assert torch.isclose(loss.total, loss.mlm + loss.sbo)
    # Near-uniform predictions at initialisation: each term is about log(vocab).
    assert abs(loss.mlm.item() - np.log(VOCAB)) < 1.0
    assert abs(loss.sbo.item() - np.log(VOCAB)) < 1.0
    loss.total.backward()
    assert encoder.embeddings.word_embeddings.weight.grad is not None
    assert model.sbo.positions.weight.grad.abs().sum() > 0


def test_sbo_ignores_the_encodings_inside_the_span(encoder):
    """Predicting from the boundaries only: the masked tokens' own encodings do not enter the SBO."""
    model = SpanBertPretrainer(encoder, max_positions=32, position_dim=8).eval()
    batch = mask_batch(segments(1), np.random.default_rng(2), MaskingConfig(), 3, 0, np.arange(10, VOCAB))
    hidden = torch.randn(1, batch.input_ids.shape[1], HIDDEN)

    def sbo_logits(h):
        return model.sbo(h[batch.sbo_rows, batch.sbo_left], h[batch.sbo_rows, batch.sbo_right], batch.sbo_offsets)

    perturbed = hidden.clone()
    perturbed[batch.sbo_rows, batch.sbo_positions] += 10.0
    assert torch.allclose(sbo_logits(hidden), sbo_logits(perturbed))
