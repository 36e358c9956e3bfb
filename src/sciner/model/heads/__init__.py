"""Heads: what the network puts on top of the word vectors, registered by name.

A head is registered with a :class:`HeadSpec`: its settings (a dataclass of keys and defaults,
``[model.heads.<name>]`` in a config, ranges in its ``RULES``) and its properties (does it score
BIO tags? does it read subword states?). The config, ``model.json`` reading, the network,
prediction, training and calibration ask the spec instead of comparing ``model.head`` with names.

This module and the built-in specs (:mod:`sciner.model.heads.builtin`) do not import torch, so
validating a config or reading a model's ``model.json`` stays fast; a head's network (a
:class:`sciner.model.heads.base.Head`) is imported only when a model is built.

A new head is one decorator where it is defined::

    @dataclass
    class LinearSettings:
        hidden: int = 64

    @register_head("linear", settings=LinearSettings, scores_tags=True)
    class LinearHead(Head):
        ...

and is then trained with ``--set model.head=linear --set model.heads.linear.hidden=32``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from sciner.errors import ConfigError

if TYPE_CHECKING:
    from sciner.model.heads.base import Head, HeadConfig
    from sciner.rules import Rule


@dataclass
class NoSettings:
    """The settings of a head that has none of its own."""

    RULES: ClassVar[dict[str, "Rule"]] = {}


@dataclass(frozen=True)
class HeadSpec:
    """What a config and a model.json need to know of a head, without importing its network."""

    name: str
    # The head's network: a Head subclass, or "module:Class" imported when a model is built.
    network: str | type
    # Its settings: a dataclass whose fields (bool, int, float, str or list[str], each with a
    # default) are the keys of [model.heads.<name>]; its RULES class attribute (key -> Rule of
    # sciner.config) gives their ranges.
    settings: type = NoSettings
    # It scores BIO tags (its forward gives their logits): type biases, `sciner calibrate` and
    # distillation's soft labels apply to it.
    scores_tags: bool = False
    # It reads each paragraph's subword states; the encoder keeps them only for such heads.
    needs_subword_states: bool = False

    def head_class(self) -> type["Head"]:
        """The head's network class (importing its module, and torch, when named by path)."""
        if not isinstance(self.network, str):
            return self.network
        module, _, name = self.network.partition(":")
        return getattr(importlib.import_module(module), name)  # type: ignore[no-any-return]


HEADS: dict[str, HeadSpec] = {}


def add_head(spec: HeadSpec) -> HeadSpec:
    """Make ``spec`` buildable as ``model.head = spec.name`` (a later spec of the same name replaces it)."""
    HEADS[spec.name] = spec
    return spec


def register_head(name: str, *, settings: type = NoSettings, scores_tags: bool = False,
                  needs_subword_states: bool = False) -> Callable[[type["Head"]], type["Head"]]:
    """Class decorator: register the decorated head as ``name`` with its settings and properties
    (see :class:`HeadSpec`)."""

    def add(cls: type["Head"]) -> type["Head"]:
        add_head(HeadSpec(name, cls, settings, scores_tags, needs_subword_states))
        return cls

    return add


def head_spec(name: str) -> HeadSpec:
    """The spec of head ``name``; a :class:`ConfigError` listing the registered heads if there is none."""
    spec = HEADS.get(name)
    if spec is None:
        raise ConfigError(f"model.head must be one of {', '.join(HEADS)}, not {name!r}")
    return spec


def default_settings() -> dict[str, Any]:
    """Every registered head's settings at their defaults, by head name (a config's ``model.heads``)."""
    return {name: spec.settings() for name, spec in HEADS.items()}


def settings_rules(settings: Any) -> dict[str, "Rule"]:
    """The range rules of a head's ``settings`` (none when its class declares no ``RULES``)."""
    return getattr(type(settings), "RULES", {})


def moved_key(key: str) -> str | None:
    """Where the ``[model]`` key ``key`` of an older config or model.json now lives
    (``max_span_width`` -> ``heads.span.max_span_width``); None if it never moved."""
    from sciner.model.heads.builtin import FLAT_KEYS

    return FLAT_KEYS.get(key)


def build_head(cfg: "HeadConfig", dim: int) -> "Head":
    """The head ``cfg.head`` over word vectors of size ``dim``."""
    return head_spec(cfg.head).head_class().build(cfg, dim)


# The built-in heads register themselves when their specs are imported.
from sciner.model.heads import builtin  # noqa: E402,F401
