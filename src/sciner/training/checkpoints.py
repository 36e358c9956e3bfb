"""Checkpoints of a training run and resuming from one.

A checkpoint holds only tensors and plain Python values (RNG states included), so it loads
with ``torch.load(weights_only=True)``: a crafted ``checkpoint.pt`` cannot run code on
``--resume``. It is written through :func:`sciner.outputs.atomic_target`, so a run killed
while saving keeps the previous checkpoint whole.
"""

from __future__ import annotations

import random
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import torch

from sciner.config import Config
from sciner.errors import ConfigError, ModelError
from sciner.outputs import atomic_target

CHECKPOINT = "checkpoint.pt"


def rng_state() -> dict[str, Any]:
    """The states of torch's, NumPy's and Python's generators as tensors and plain values."""
    kind, keys, pos, has_gauss, cached = np.random.get_state()
    version, internal, gauss = random.getstate()
    return {
        "torch": torch.get_rng_state(),
        "numpy": {"kind": kind, "keys": torch.from_numpy(keys.astype(np.int64)), "pos": int(pos),
                  "has_gauss": int(has_gauss), "cached": float(cached)},
        "python": {"version": version, "internal": list(internal), "gauss": gauss},
    }


def set_rng_state(state: dict[str, Any]) -> None:
    """Restore what :func:`rng_state` returned."""
    torch.set_rng_state(state["torch"])
    n = state["numpy"]
    np.random.set_state((n["kind"], n["keys"].numpy().astype(np.uint32), n["pos"], n["has_gauss"], n["cached"]))
    p = state["python"]
    random.setstate((p["version"], tuple(p["internal"]), p["gauss"]))


def checkpoint_to_resume(output: Path, resume: bool) -> Path | None:
    """The checkpoint a run continues from (None for a fresh run); a fresh run never writes
    over one, nor over a finished run's model."""
    path = output / CHECKPOINT
    if path.exists() and not resume:
        raise ConfigError(f"{output} already holds a {CHECKPOINT}: pass --resume, or choose another output folder")
    finished = (output / "model.json").exists() and (output / "history.json").exists()
    if resume and not path.exists():
        if finished:
            raise ConfigError(f"--resume: {output} holds a finished run whose {CHECKPOINT} was removed (keep it "
                              f"with --keep-checkpoint); to train its model on: sciner train ... --init {output} "
                              "-o NEW_RUN")
        raise ConfigError(f"--resume: no {CHECKPOINT} in {output}")
    if finished and not resume:
        raise ConfigError(f"{output} already holds a trained model: choose another output folder "
                          f"(or --init {output} to train it on)")
    return path if resume else None


def save_checkpoint(path: Path, state: dict[str, Any]) -> None:
    """Write ``state`` (tensors and plain values only) atomically."""
    with atomic_target(path) as tmp:
        torch.save(state, tmp)


def load_checkpoint(path: Path) -> dict[str, Any]:
    """A checkpoint written by :func:`save_checkpoint`, loaded without unpickling any code.

    A truncated, corrupt or foreign file is a one-line :class:`ModelError`.
    """
    try:
        with warnings.catch_warnings():  # torch warns (with its own path) about old files: our one line says it
            warnings.simplefilter("ignore")
            state = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as err:  # torch raises UnpicklingError, RuntimeError, EOFError... for damaged files
        reason = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
        if reason.startswith("Weights only load failed"):  # torch's advice to unpickle it is not ours to give
            reason = "it holds objects other than tensors and plain values: an older sciner's or another program's"
        raise ModelError(f"{path}: not a readable sciner checkpoint ({reason[:200]}); "
                         "delete it to start again") from None
    if not isinstance(state, dict) or "config" not in state:
        raise ModelError(f"{path}: not a sciner checkpoint; delete it to start again")
    return state


def save_training_state(path: Path, config: dict[str, Any], model: torch.nn.Module, optimizer: Any,
                        scheduler: Any, **progress: Any) -> Path:
    """A checkpoint of everything a run needs to go on exactly: the config, the model, the
    optimizer and schedule, the RNG states, and the loop's own ``progress`` values."""
    save_checkpoint(path, {"config": config, "model": model.state_dict(), "optimizer": optimizer.state_dict(),
                           "scheduler": scheduler.state_dict(), "rng": rng_state(), "progress": progress})
    return path


def restore_training_state(path: Path, config: dict[str, Any], fixed: Sequence[str], model: torch.nn.Module,
                           optimizer: Any, scheduler: Any) -> tuple[dict[str, Any], list[str]]:
    """Load a :func:`save_training_state` checkpoint into the model, optimizer, schedule and RNGs
    after checking the ``fixed`` config fields did not change; returns the loop's progress
    values and the other fields that changed (``"train.epochs 3 -> 5"``), to be said."""
    state = load_checkpoint(path)
    changed = _changed(state["config"], config)
    _refuse_fixed(changed, fixed)
    model.load_state_dict(state["model"])
    optimizer.load_state_dict(state["optimizer"])
    scheduler.load_state_dict(state["scheduler"])
    set_rng_state(state["rng"])
    return state.get("progress", {}), [f"{k} {old} -> {new}" for k, (old, new) in changed.items()]


def check_resume(saved: dict[str, Any], current: dict[str, Any], fixed: Sequence[str]) -> None:
    """Refuse to resume when a config field in ``fixed`` (a dotted name, or a whole section)
    differs between the checkpoint's config and this run's. Both are read in today's shape
    first, so a checkpoint of an older one (the flat pretraining config) compares as it meant."""
    _refuse_fixed(_changed(saved, current), fixed)


def _changed(saved: dict[str, Any], current: dict[str, Any]) -> dict[str, tuple[Any, Any]]:
    """The dotted config fields that differ (sorted), with their old and new values, both
    configs read in today's shape."""
    old, new = _flatten(_todays_shape(saved)), _flatten(_todays_shape(current))
    return {k: (old.get(k), new.get(k)) for k in sorted(set(old) | set(new)) if old.get(k) != new.get(k)}


def _refuse_fixed(changed: dict[str, tuple[Any, Any]], fixed: Sequence[str]) -> None:
    names = [k for k in changed if any(k == f or k.startswith(f + ".") for f in fixed)]
    if names:
        raise ConfigError(f"--resume: the config changed {', '.join(names)} since the checkpoint")


def _todays_shape(saved: dict[str, Any]) -> dict[str, Any]:
    """A checkpoint's config as today's :class:`Config` writes it (defaults for keys added since)."""
    try:
        return Config.from_dict(saved, source="the checkpoint's config").to_dict()
    except ConfigError:  # a config no version could read: compare what it says as it is
        return saved


def _flatten(d: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in d.items():
        if isinstance(value, dict):
            out.update(_flatten(value, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = value
    return out
