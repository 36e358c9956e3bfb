"""Heads: what the network puts on top of the word vectors (bio.py, span.py, span_finetune.py,
each a :class:`sciner.model.heads.base.Head`), built by name.

Which heads exist, their settings and properties, is the torch-free registry
:mod:`sciner.head_registry` (a head registers there with one call, ``register_head``; the
built-in ones in :mod:`sciner.config`, beside their settings); its names are handed on here
for the code that builds and runs models. A head's network is imported only when a model is
built (:func:`build_head`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sciner.head_registry import HEADS, HeadSpec, head_spec, register_head  # noqa: F401 (handed on)

if TYPE_CHECKING:
    from sciner.model.heads.base import Head, HeadConfig


def build_head(cfg: "HeadConfig", dim: int) -> "Head":
    """The head ``cfg.head`` over word vectors of size ``dim``."""
    return head_spec(cfg.head).head_class().build(cfg, dim)  # type: ignore[no-any-return]
