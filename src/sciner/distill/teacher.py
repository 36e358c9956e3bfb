"""A teacher is a model trained by ``sciner train`` with the ``[distill] teacher`` overrides."""

from __future__ import annotations

import copy

from sciner.config import Config, apply_overrides


def teacher_config(cfg: Config, seed: int | None = None) -> Config:
    """The teacher's config: ``cfg`` with ``cfg.distill.teacher``'s ``section.key=value``
    overrides applied (and ``train.seed`` = ``seed`` when given), validated."""
    teacher = copy.deepcopy(cfg)
    apply_overrides(teacher, cfg.distill.teacher, source="distill.teacher")
    if seed is not None:
        teacher.train.seed = seed
    teacher.validate("distill.teacher")
    return teacher
