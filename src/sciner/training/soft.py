"""A student learning from soft labels: NER training with another loss, as a task of the one loop.

``sciner distill student`` is ``sciner train`` with ``distill.soft_labels`` set: its
:class:`SoftLabelTask` adds, to each gold batch's loss, the loss of ``distill.soft_ratio`` soft
batches (fractions accumulate), weighted ``(1 - w) * gold + w * soft``. Which soft batches a
step gets depends only on the step's number, so a resumed run sees the same ones.
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
from sciner.training.loop import Schedule
from sciner.training.ner import RESUME_FIXED, NerTask


class SoftBatches:
    """Soft-labelled paragraphs made ready for the network, and the soft batches of each step."""

    def __init__(self, model: Any, paragraphs: list[SoftParagraph], cfg: Config) -> None:
        from sciner.model.windows import featurize_many

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


class SoftLabelTask(NerTask):
    """NER training whose loss mixes each gold batch's with its soft batches' (``[distill]``)."""

    resume_fixed = (*RESUME_FIXED, "distill.soft_labels", "distill.soft_weight", "distill.temperature",
                    "distill.soft_ratio")

    @property
    def verb(self) -> str:  # type: ignore[override]
        return f"distill student --soft {self.cfg.distill.soft_labels}"

    def prepare(self, device: Any) -> tuple[Any, Schedule]:
        model, schedule = super().prepare(device)
        self.soft = SoftBatches(model, load_soft_labels(self.cfg.distill.soft_labels), self.cfg)
        return model, schedule

    def loss(self, batch: list[Any], step: int) -> dict[str, torch.Tensor]:
        gold = super().loss(batch, step)["loss"]
        batches = self.soft.for_step(step)
        if not batches:
            return {"loss": gold}
        d = self.cfg.distill
        soft = torch.stack([self.soft.loss(self.model, b, d.temperature) for b in batches]).mean()
        return {"loss": (1 - d.soft_weight) * gold + d.soft_weight * soft}

    def meta(self) -> dict[str, Any]:
        """The run's record, with the soft labels the student learnt from."""
        manifest = read_manifest(self.cfg.distill.soft_labels)
        keep = ("teachers", "source", "tokenization", "top_k", "paragraphs")
        return {**super().meta(), "distilled_from": {k: manifest.get(k) for k in keep}}


__all__ = ["SoftBatches", "SoftLabelTask"]
