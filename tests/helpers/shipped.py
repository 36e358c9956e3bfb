"""The model shipped with sciner, served to a test from the session's copy instead of loaded again."""

from __future__ import annotations

from pathlib import Path

import pytest

from sciner.inference.tagger import Tagger
from sciner.model.store import DEFAULT_MODEL


def is_shipped(path: str | Path | None) -> bool:
    """Whether a model path names the model shipped with sciner (None is its default)."""
    return path is None or Path(path).resolve() == DEFAULT_MODEL.resolve()


def serve_shipped(monkeypatch: pytest.MonkeyPatch, tagger: Tagger) -> None:
    """Answer every load of the shipped model with ``tagger``: ``Tagger.load`` is the one entry
    point (``sciner.load``, predict, calibrate, corpus workers and the spaCy component call it);
    precision and device are not honoured. Other model directories load for real."""
    real = Tagger.load

    def load(cls, path=None, **options):
        return tagger if is_shipped(path) else real(path, **options)

    monkeypatch.setattr(Tagger, "load", classmethod(load))
