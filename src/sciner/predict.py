"""Prediction over many paragraphs: featurize, batch by length, decode, restore order."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from sciner.batching import length_batches
from sciner.document import Span
from sciner.model.network import featurize_many


def predict_spans(
    model: Any,
    paragraphs: Sequence[list[str]],
    *,
    batch_subwords: int = 8192,
    progress: Callable[[int], None] | None = None,
) -> list[list[Span]]:
    """Entity spans of each paragraph, in input order. ``progress`` receives token counts as they finish."""
    import torch

    feats = featurize_many(model.tokenizer, [list(tokens) for tokens in paragraphs], model.cfg)
    lengths = [f.n_subwords + 2 for f in feats]
    out: list[list[Span]] = [[] for _ in feats]
    was_training = model.training
    model.eval()
    with torch.inference_mode():
        for batch in length_batches(lengths, batch_subwords):
            nonempty = [i for i in batch if feats[i].tokens]
            if nonempty:
                for i, spans in zip(nonempty, model.predict([feats[i] for i in nonempty])):
                    out[i] = spans
            if progress is not None:
                progress(sum(len(feats[i].tokens) for i in batch))
    model.train(was_training)
    return out
