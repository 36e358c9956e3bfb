"""Heads: what the network puts on top of the word vectors (BIO tagging, span classification, span fine-tuning).

Each head registers itself by name with :func:`register_head`; the network, prediction,
training and calibration ask the head what it needs and can do (class attributes of
:class:`Head`) instead of comparing ``cfg.head`` with names.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import torch
from torch import nn

from sciner.document import Span
from sciner.errors import ConfigError

if TYPE_CHECKING:
    from sciner.config import ModelConfig


class Head(nn.Module):
    """A head: word vectors (B, N, D) and their mask (B, N) -> a training loss, or entity spans.

    ``needs_subword_states``: the head also reads each paragraph's subword states
    (:meth:`inputs` receives them); the encoder only keeps them for such heads.
    ``tag_log_probs``: the head scores BIO tags (``forward`` gives their logits), so type
    biases and ``sciner calibrate`` apply to it.
    """

    needs_subword_states: bool = False
    tag_log_probs: bool = False

    def inputs(self, words: torch.Tensor, mask: torch.Tensor, feats: list[Any],
               subwords: torch.Tensor | None) -> torch.Tensor:
        """The vectors :meth:`loss` and :meth:`decode` read; most heads read the word vectors as they are."""
        return words

    def loss(self, words: torch.Tensor, mask: torch.Tensor, tags: list[list[str]]) -> torch.Tensor:
        raise NotImplementedError

    def decode(self, words: torch.Tensor, mask: torch.Tensor) -> list[list[Span]]:
        raise NotImplementedError


HEADS: dict[str, type[Head]] = {}


def register_head(name: str) -> Callable[[type[Head]], type[Head]]:
    """Class decorator: make a head buildable as ``model.head = name``."""

    def add(cls: type[Head]) -> type[Head]:
        HEADS[name] = cls
        cls.name = name  # type: ignore[attr-defined]
        return cls

    return add


def _load_all() -> None:
    # The heads register themselves when their modules are imported.
    from sciner.model.heads import bio, span, span_finetune  # noqa: F401


_load_all()


def build_head(cfg: "ModelConfig", dim: int) -> Head:
    """The head ``cfg.head`` over word vectors of size ``dim``."""
    cls = HEADS.get(cfg.head)
    if cls is None:
        raise ConfigError(f"model.head must be one of {', '.join(HEADS)}, not {cfg.head!r}")
    return cls.build(cfg, dim)  # type: ignore[attr-defined]
