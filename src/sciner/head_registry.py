"""The heads a config can name, registered by name, without torch.

A head is registered once, with one call, where it is defined::

    @dataclass
    class LinearSettings:
        hidden: int = 64  # a key of [model.heads.linear]
        RULES: ClassVar[dict[str, Rule]] = {"hidden": at_least(1)}  # sciner.config's range rules

    class LinearHead(Head):  # sciner.model.heads.base.Head
        ...

    register_head("linear", LinearHead, settings=LinearSettings, scores_tags=True)

and is then trained with ``--set model.head=linear --set model.heads.linear.hidden=32``. The
built-in heads are registered the same way by :mod:`sciner.config`, beside their settings,
naming their networks by path (``"sciner.model.heads.bio:BIOHead"``), so that validating a
config or reading a ``model.json`` never imports torch: a network is imported when a model is
built (:func:`sciner.model.heads.build_head`).

This module sits below the config (it imports nothing of sciner but its errors): the config,
``model.json`` reading, the network, prediction, training and calibration ask a head's
:class:`HeadSpec` what it needs and does, instead of comparing ``model.head`` with names.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any, ClassVar

from sciner.errors import ConfigError


@dataclass
class NoSettings:
    """The settings of a head that has none of its own."""

    RULES: ClassVar[dict[str, Any]] = {}


@dataclass(frozen=True)
class HeadSpec:
    """What a config and a model.json need to know of a head, without importing its network."""

    name: str
    # The head's network: a Head subclass, or "module:Class" imported when a model is built.
    network: str | type
    # Its settings: a dataclass whose fields (bool, int, float, str or list[str], each with a
    # default) are the keys of [model.heads.<name>]; its RULES class attribute (key -> a range
    # rule of sciner.config) gives their ranges.
    settings: type = NoSettings
    # It scores BIO tags (its forward gives their logits): type biases, `sciner calibrate` and
    # distillation's soft labels apply to it.
    scores_tags: bool = False
    # It reads each paragraph's subword states; the encoder keeps them only for such heads.
    needs_subword_states: bool = False
    # The same network in NumPy ("module:Class"): a model of few transformer layers (at most
    # sciner.inference.choose.MAX_LAYERS, as the fast model's one) runs every call in it,
    # a deeper one its small calls (sciner.inference.choose.SMALL_CALL_WORDS); it imports no torch.
    numpy_network: str | None = None

    def numpy_class(self) -> type | None:
        """The head's NumPy network class, None where it has none."""
        return None if self.numpy_network is None else _imported(self.numpy_network)

    def head_class(self) -> type:
        """The head's network class (importing its module, and torch, when named by path)."""
        return self.network if not isinstance(self.network, str) else _imported(self.network)


def _imported(path: str) -> type:
    """The class a ``"module:Class"`` path names, its module imported."""
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)  # type: ignore[no-any-return]


HEADS: dict[str, HeadSpec] = {}


def register_head(name: str, network: str | type, *, settings: type = NoSettings, scores_tags: bool = False,
                  needs_subword_states: bool = False, numpy_network: str | None = None) -> HeadSpec:
    """Make the head ``network`` (a Head subclass, or its ``"module:Class"`` path) buildable as
    ``model.head = name``, with its settings and properties (see :class:`HeadSpec`); a later
    head of the same name replaces it."""
    spec = HeadSpec(name, network, settings, scores_tags, needs_subword_states, numpy_network)
    HEADS[name] = spec
    return spec


def head_spec(name: str) -> HeadSpec:
    """The spec of head ``name``; a :class:`ConfigError` listing the registered heads if there is none."""
    spec = HEADS.get(name)
    if spec is None:
        raise ConfigError(f"model.head must be one of {', '.join(HEADS)}, not {name!r}")
    return spec


def default_settings() -> dict[str, Any]:
    """Every registered head's settings at their defaults, by head name (a config's ``model.heads``)."""
    return {name: spec.settings() for name, spec in HEADS.items()}


def settings_rules(settings: Any) -> dict[str, Any]:
    """The range rules of a head's ``settings`` (none when its class declares no ``RULES``)."""
    return getattr(type(settings), "RULES", {})
