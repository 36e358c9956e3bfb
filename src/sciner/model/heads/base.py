"""The network side of a head: what every head module subclasses (it imports torch; the
registry in :mod:`sciner.model.heads` does not)."""

from __future__ import annotations

from typing import Any, Protocol

import torch
from torch import nn

from sciner.document import Span


class HeadConfig(Protocol):
    """What a head is built from: the model config (:class:`sciner.config.ModelConfig`) as a
    head sees it. Said here rather than imported, so the heads never import the config that
    asks them about its settings."""

    head: str
    dropout: float
    shape_dim: int

    @property
    def head_settings(self) -> Any: ...


class Head(nn.Module):
    """A head: word vectors (B, N, D) and their mask (B, N) -> a training loss, or entity spans.

    What a head needs and can do (subword states, BIO tag scores) is said by its registered
    :class:`sciner.model.heads.HeadSpec`, not here: the config knows it without importing torch.
    """

    # Embedding tables (names under the head) saved as int8 rows with a scale each, a quarter
    # of fp32's size: hashed feature tables are most of a small model's bytes (see
    # sciner.model.store.save_model).
    int8_tables: tuple[str, ...] = ()

    @classmethod
    def build(cls, cfg: HeadConfig, dim: int) -> "Head":
        """The head of ``cfg`` (its own settings: ``cfg.head_settings``) over word vectors of size ``dim``."""
        raise NotImplementedError

    def inputs(self, words: torch.Tensor, mask: torch.Tensor, feats: list[Any],
               subwords: torch.Tensor | None) -> torch.Tensor:
        """The vectors :meth:`loss` and :meth:`decode` read; most heads read the word vectors as they are.
        ``subwords``: each paragraph's subword states, for a head whose spec ``needs_subword_states``."""
        return words

    def loss(self, words: torch.Tensor, mask: torch.Tensor, tags: list[list[str]]) -> torch.Tensor:
        raise NotImplementedError

    def decode(self, words: torch.Tensor, mask: torch.Tensor) -> list[list[Span]]:
        raise NotImplementedError
