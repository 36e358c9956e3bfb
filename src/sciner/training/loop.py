"""The skeleton shared by NER training (:mod:`sciner.training.ner`) and pretraining
(:mod:`sciner.pretrain.loop`): device, optimizer, schedule, checkpoints, resume rules and
interruptions are each decided here, once.

Checkpoints hold only tensors and plain Python values (RNG states included), so they load
with ``torch.load(weights_only=True)``: a crafted ``checkpoint.pt`` cannot run code on
``--resume``. They are written through :func:`sciner.outputs.atomic_target`, so a run killed
while saving keeps the previous checkpoint whole.
"""

from __future__ import annotations

import contextlib
import random
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import torch

from sciner.errors import ConfigError, ModelError
from sciner.outputs import atomic_target

CHECKPOINT = "checkpoint.pt"


def parameter_groups(model: torch.nn.Module, weight_decay: float, lr: float, head_lr: float) -> list[dict[str, Any]]:
    """Encoder at ``lr``, everything else (heads) at ``head_lr``; weight decay on matrices
    only (not on biases or LayerNorm), as in BERT. Frozen parameters are left out.

    A weight shared by two modules (a tied output layer) counts once, as the encoder's,
    because the encoder's parameters come first.
    """
    groups: dict[tuple[bool, bool], list[torch.nn.Parameter]] = {}
    seen: set[int] = set()
    for name, param in model.named_parameters():
        if not param.requires_grad or id(param) in seen:
            continue
        seen.add(id(param))
        groups.setdefault((not name.startswith("encoder."), param.ndim >= 2), []).append(param)
    return [
        {"params": params, "lr": head_lr if is_head else lr, "weight_decay": weight_decay if matrix else 0.0}
        for (is_head, matrix), params in sorted(groups.items())
    ]


def linear_schedule(warmup: int, total: int) -> Callable[[int], float]:
    """Learning-rate factor of each step: linear warmup over ``warmup`` steps, then linear decay to 0 at ``total``."""

    def factor(step: int) -> float:
        if step < warmup:
            return (step + 1) / max(1, warmup)
        return max(0.0, (total - step) / max(1, total - warmup))

    return factor


def make_optimizer(model: torch.nn.Module, *, lr: float, head_lr: float, weight_decay: float,
                   warmup: int, total: int) -> tuple[torch.optim.Optimizer, Any]:
    """AdamW over :func:`parameter_groups` and its :func:`linear_schedule`."""
    optimizer = torch.optim.AdamW(parameter_groups(model, weight_decay, lr, head_lr), betas=(0.9, 0.999), eps=1e-8)
    return optimizer, torch.optim.lr_scheduler.LambdaLR(optimizer, linear_schedule(warmup, total))


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
    """The checkpoint a run continues from (None for a fresh run); a fresh run never writes over one."""
    path = output / CHECKPOINT
    if path.exists() and not resume:
        raise ConfigError(f"{output} already holds a {CHECKPOINT}: pass --resume, or choose another output folder")
    if resume and not path.exists():
        raise ConfigError(f"--resume: no {CHECKPOINT} in {output}")
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
        state = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as err:  # torch raises UnpicklingError, RuntimeError, EOFError... for damaged files
        reason = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
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
                           optimizer: Any, scheduler: Any) -> dict[str, Any]:
    """Load a :func:`save_training_state` checkpoint into the model, optimizer, schedule and RNGs
    after checking the ``fixed`` config fields did not change; returns the loop's progress values."""
    state = load_checkpoint(path)
    check_resume(state["config"], config, fixed)
    model.load_state_dict(state["model"])
    optimizer.load_state_dict(state["optimizer"])
    scheduler.load_state_dict(state["scheduler"])
    set_rng_state(state["rng"])
    return state.get("progress", {})


def check_resume(saved: dict[str, Any], current: dict[str, Any], fixed: Sequence[str]) -> None:
    """Refuse to resume when a config field in ``fixed`` (a dotted name, or a whole section)
    differs between the checkpoint's config and this run's."""
    old, new = _flatten(saved), _flatten(current)
    changed = sorted(k for k in set(old) | set(new)
                     if old.get(k) != new.get(k) and any(k == f or k.startswith(f + ".") for f in fixed))
    if changed:
        raise ConfigError(f"--resume: the config changed {', '.join(changed)} since the checkpoint")


def _flatten(d: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in d.items():
        if isinstance(value, dict):
            out.update(_flatten(value, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = value
    return out


class StopRequest:
    """Set by Ctrl-C or SIGTERM while training; the loop checks it between steps."""

    def __init__(self) -> None:
        self.requested = False


@contextlib.contextmanager
def interruptible(resume_command: str) -> Iterator[StopRequest]:
    """Turn the first Ctrl-C or SIGTERM into a request that the loop honours between steps
    (see :func:`stop_if_requested`), so the checkpoint it saves is a consistent one; a second
    one interrupts at once."""
    stop = StopRequest()
    if threading.current_thread() is not threading.main_thread():  # signals only reach the main thread
        yield stop
        return

    def request(signum: int, frame: Any) -> None:
        if stop.requested:
            raise KeyboardInterrupt
        stop.requested = True
        print(f"\nstopping after this step; then continue with: {resume_command}", file=sys.stderr)

    previous = {s: signal.signal(s, request) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield stop
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)


def stop_if_requested(stop: StopRequest, save: Callable[[], Path], resume_command: str) -> None:
    """If a stop was requested: save a checkpoint and raise KeyboardInterrupt, naming the resume command."""
    if stop.requested:
        path = save()
        print(f"interrupted: checkpoint saved to {path}; continue with: {resume_command}", file=sys.stderr)
        raise KeyboardInterrupt
