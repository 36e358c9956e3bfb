"""The student's soft-label side of NER training: which soft batches go with each step, and their loss.

``sciner distill student`` is ``sciner train`` with ``distill.soft_labels`` set: the loop of
:mod:`sciner.training.ner` adds, to each gold batch's loss, the loss of ``distill.soft_ratio``
soft batches (fractions accumulate), weighted ``(1 - w) * gold + w * soft``. Which soft
batches a step gets depends only on the step's number, so a resumed run sees the same ones.
"""

from __future__ import annotations

import math
from typing import Any

import torch

from sciner.config import Config
from sciner.data.soft_labels import SoftParagraph, load_soft_labels, read_manifest
from sciner.errors import ConfigError
from sciner.model.batching import length_batches
from sciner.model.heads import head_spec


class SoftBatches:
    """Soft-labelled paragraphs made ready for the network, and the soft batches of each step."""

    def __init__(self, model: Any, paragraphs: list[SoftParagraph], cfg: Config) -> None:
        from sciner.model.network import featurize_many

        if not head_spec(cfg.model.head).scores_tags:
            raise ConfigError(f"distill.soft_labels: the student's head must score BIO tags, not {cfg.model.head!r}")
        self.paragraphs = paragraphs
        self.feats = featurize_many(model.tokenizer, [p.tokens for p in paragraphs], cfg.model)
        self.lengths = [f.n_subwords + 2 for f in self.feats]
        self.batch_subwords = cfg.train.batch_subwords
        self.ratio = cfg.distill.soft_ratio
        self.seed = cfg.train.seed
        self._epoch: tuple[int, list[list[int]]] = (-1, [])
        # Batches are cut from the lengths in sorted order: every soft epoch has as many.
        self.per_epoch = len(self._batches(0))

    def for_step(self, step: int) -> list[list[int]]:
        """The soft batches (paragraph indices) of global training step ``step``."""
        first, last = math.floor(step * self.ratio), math.floor((step + 1) * self.ratio)
        return [self._batch(j) for j in range(first, last)]

    def _batch(self, j: int) -> list[int]:
        return self._batches(j // self.per_epoch)[j % self.per_epoch]

    def _batches(self, epoch: int) -> list[list[int]]:
        # Soft epochs have their own seeds, apart from the gold batches' (seed * 1000 + epoch).
        if self._epoch[0] != epoch:
            self._epoch = (epoch, length_batches(self.lengths, self.batch_subwords, seed=self.seed * 7919 + epoch))
        return self._epoch[1]

    def loss(self, model: Any, batch: list[int], temperature: float) -> torch.Tensor:
        """The head's distillation loss on one soft batch."""
        from sciner.model.network import pad

        feats = [self.feats[i] for i in batch]
        words, mask = model.head_inputs(feats, model.encode(feats, self.batch_subwords))
        probs = pad([torch.from_numpy(self.paragraphs[i].dense()) for i in batch])[0].to(words.device)
        return model.head.soft_loss(words, mask, probs, temperature)


def load_soft_batches(model: Any, cfg: Config) -> SoftBatches | None:
    """The soft batches of ``cfg.distill.soft_labels`` (None when it is empty: gold only)."""
    if not cfg.distill.soft_labels:
        return None
    return SoftBatches(model, load_soft_labels(cfg.distill.soft_labels), cfg)


def step_loss(model: Any, gold: torch.Tensor, soft: SoftBatches | None, step: int, cfg: Config) -> torch.Tensor:
    """A training step's loss: the gold batch's, mixed with its soft batches' as ``cfg.distill`` says."""
    if soft is None:
        return gold
    batches = soft.for_step(step)
    if not batches:
        return gold
    w = cfg.distill.soft_weight
    soft_loss = torch.stack([soft.loss(model, b, cfg.distill.temperature) for b in batches]).mean()
    return (1 - w) * gold + w * soft_loss


def soft_meta(cfg: Config) -> dict[str, Any]:
    """What ``model.json`` records of the soft labels a student learnt from."""
    if not cfg.distill.soft_labels:
        return {}
    manifest = read_manifest(cfg.distill.soft_labels)
    keep = ("teachers", "source", "tokenization", "top_k", "paragraphs")
    return {"distilled_from": {k: manifest.get(k) for k in keep}}


__all__ = ["SoftBatches", "load_soft_batches", "soft_meta", "step_loss"]
