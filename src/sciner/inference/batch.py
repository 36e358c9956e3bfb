"""Prediction over many paragraphs for the torch and ONNX back ends (and training's evaluation):
featurize, encode in length-sorted windows, decode, restore order."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import numpy as np
import torch

from sciner.document import Span
from sciner.errors import ModelError
from sciner.labels import BIO_TAGS
from sciner.model.batching import BATCH_SUBWORDS, length_batches
from sciner.model.heads import head_spec
from sciner.model.network import Encoded
from sciner.model.windows import Features, featurize_many

# Paragraphs are encoded a chunk at a time (in input order), so that the word vectors held
# at once stay small however many papers are tagged: this many batches' worth of subwords.
CHUNK_BATCHES = 16


def predict_spans(
    model: Any,
    paragraphs: Sequence[list[str]],
    *,
    batch_subwords: int = BATCH_SUBWORDS,
    progress: Callable[[int], None] | None = None,
) -> list[list[Span]]:
    """Entity spans of each paragraph, in input order. ``progress`` receives token counts as they finish."""
    feats = featurize_many(model.tokenizer, [list(tokens) for tokens in paragraphs], model.cfg)
    out: list[list[Span]] = [[] for _ in feats]
    with _inference(model):
        for chunk, nonempty in _chunks(feats, batch_subwords):
            for i, spans in zip(nonempty, _predict_chunk(model, [feats[i] for i in nonempty], batch_subwords)):
                out[i] = spans
            if progress is not None:
                progress(sum(len(feats[i].tokens) for i in chunk))
    return out


def _predict_chunk(model: Any, feats: list[Features], batch_subwords: int) -> list[list[Span]]:
    """Spans of non-empty paragraphs ``feats``, in their order."""
    out: list[list[Span]] = [[] for _ in feats]
    for batch, words, mask in _head_batches(model, feats, batch_subwords):
        for i, spans in zip(batch, model.head.decode(words, mask)):
            out[i] = spans
    return out


def _head_batches(model: Any, feats: list[Features], batch_subwords: int) -> Iterator[tuple[list[int], Any, Any]]:
    """(indices, (B, N, D) head inputs, (B, N) mask) over non-empty ``feats``, batched by word count."""
    encoded = model.encode(feats, batch_subwords)
    for batch in length_batches([len(f.tokens) for f in feats], batch_subwords):
        part = Encoded([encoded.words[i] for i in batch],
                       [encoded.subwords[i] for i in batch] if encoded.subwords is not None else None)
        words, mask = model.head_inputs([feats[i] for i in batch], part)
        yield batch, words, mask


def predict_log_probs(model: Any, paragraphs: Sequence[list[str]], *, batch_subwords: int = BATCH_SUBWORDS,
                      progress: Callable[[int], None] | None = None) -> list[Any]:
    """Each paragraph's (n_words, T) BIO log-probabilities as NumPy arrays, before any type bias
    (heads that score BIO tags only): what ``sciner calibrate`` fits its biases on and the
    paper-level pass decodes. ``progress`` receives token counts as they finish."""
    if not head_spec(model.cfg.head).scores_tags:
        raise ModelError(f"tag log-probabilities need a head that scores BIO tags, not {model.cfg.head!r}")
    feats = featurize_many(model.tokenizer, [list(tokens) for tokens in paragraphs], model.cfg)
    out = [np.zeros((0, len(BIO_TAGS)), dtype=np.float32) for _ in feats]
    with _inference(model):
        for chunk, nonempty in _chunks(feats, batch_subwords):
            for batch, words, mask in _head_batches(model, [feats[i] for i in nonempty], batch_subwords):
                if getattr(model, "gives_log_probs", False):  # an exported graph: its outputs are log-probabilities
                    log_probs = words.float().cpu()
                else:
                    log_probs = torch.log_softmax(model.head(words).float(), dim=-1).cpu()
                for row, j in enumerate(batch):
                    n = len(feats[nonempty[j]].tokens)
                    out[nonempty[j]] = log_probs[row, :n].numpy().copy()
            if progress is not None:
                progress(sum(len(feats[i].tokens) for i in chunk))
    return out


@contextmanager
def _inference(model: Any) -> Iterator[None]:
    """``model`` in eval mode under ``torch.inference_mode``; its training mode is restored after."""
    was_training = model.training
    model.eval()
    try:
        with torch.inference_mode():
            yield
    finally:
        model.train(was_training)


def _chunks(feats: list[Features], batch_subwords: int) -> Iterator[tuple[list[int], list[int]]]:
    """(indices, indices of the non-empty paragraphs) of consecutive runs of ``feats`` holding at
    most ``CHUNK_BATCHES`` batches' worth of subwords (at least one paragraph each)."""
    budget = CHUNK_BATCHES * batch_subwords
    current: list[int] = []
    total = 0
    for i, f in enumerate(feats):
        if current and total + f.n_subwords + 2 > budget:
            yield current, [k for k in current if feats[k].tokens]
            current, total = [], 0
        current.append(i)
        total += f.n_subwords + 2
    if current:
        yield current, [k for k in current if feats[k].tokens]
