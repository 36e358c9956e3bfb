"""Masked segments -> the padded tensors and span-boundary indices one pretraining step needs."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import torch

from sciner.pretrain.corpus import Segment
from sciner.pretrain.masking import IGNORE_INDEX, MaskingConfig, apply_span_mask, sample_span_mask


@dataclass
class MaskedBatch:
    """A batch of corrupted segments and what to predict.

    ``mlm_labels`` holds the original id at masked positions and -100 elsewhere. The SBO
    targets are flat: target ``k`` is the token at ``(sbo_rows[k], sbo_positions[k])``,
    whose span is bounded by the unmasked tokens at ``sbo_left[k]`` and ``sbo_right[k]``,
    and which is the ``sbo_offsets[k]``-th token of its span (0-based).
    """

    input_ids: torch.Tensor  # (batch, length)
    attention_mask: torch.Tensor  # (batch, length)
    mlm_labels: torch.Tensor  # (batch, length)
    sbo_rows: torch.Tensor  # (targets,)
    sbo_positions: torch.Tensor
    sbo_left: torch.Tensor
    sbo_right: torch.Tensor
    sbo_offsets: torch.Tensor
    sbo_labels: torch.Tensor


def random_token_ids(tokenizer) -> np.ndarray:
    """Ids that may replace a masked span at random: the vocabulary minus special and ``[unused]`` tokens."""
    special = set(tokenizer.all_special_ids)
    vocab = tokenizer.get_vocab()
    ids = [i for tok, i in vocab.items() if i not in special and not (tok.startswith("[") and tok.endswith("]"))]
    return np.array(sorted(ids), dtype=np.int64)


def mask_batch(
    segments: Sequence[Segment],
    rng: np.random.Generator,
    masking: MaskingConfig,
    mask_token_id: int,
    pad_token_id: int,
    replacement_ids: np.ndarray,
) -> MaskedBatch:
    """Span-mask every segment with ``rng`` and collate the batch (right-padded to its longest segment)."""
    length = max(len(s.input_ids) for s in segments)
    input_ids = torch.full((len(segments), length), pad_token_id, dtype=torch.long)
    attention = torch.zeros((len(segments), length), dtype=torch.long)
    labels = torch.full((len(segments), length), IGNORE_INDEX, dtype=torch.long)
    sbo: list[tuple[int, int, int, int, int, int]] = []
    for row, segment in enumerate(segments):
        mask = sample_span_mask(segment.word_ids, rng, masking)
        corrupted, row_labels = apply_span_mask(segment.input_ids, mask, rng, mask_token_id, replacement_ids)
        n = len(corrupted)
        input_ids[row, :n] = torch.tensor(corrupted)
        attention[row, :n] = 1
        labels[row, :n] = torch.tensor(row_labels)
        for span in mask.spans:
            # [CLS] and [SEP] are never masked, so both boundaries always exist inside the segment.
            for pos in range(span.start, span.end):
                sbo.append((row, pos, span.start - 1, span.end, pos - span.start, segment.input_ids[pos]))
    columns = torch.tensor(sbo, dtype=torch.long).reshape(-1, 6).T
    return MaskedBatch(input_ids, attention, labels, *columns)
