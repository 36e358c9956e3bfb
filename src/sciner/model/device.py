"""Where the network runs: the device a run asks for, its autocast, and how to name it in results."""

from __future__ import annotations

import contextlib
from typing import Any

import torch

from sciner.config import DEVICES
from sciner.errors import ConfigError


def pick_device(name: str) -> torch.device:
    """``auto`` = cuda where available, else cpu."""
    if name not in DEVICES:
        raise ConfigError(f"device must be one of {', '.join(DEVICES)}, not {name!r}")
    if name == "cuda" and not torch.cuda.is_available():
        raise ConfigError("device 'cuda' asked for, but torch sees no CUDA device here")
    return torch.device("cuda" if name == "cuda" or (name == "auto" and torch.cuda.is_available()) else "cpu")


def hardware(device: torch.device) -> str:
    """What a run ran on, for results tables: the GPU's name, or the CPU threads torch used."""
    if device.type == "cuda":
        return f"{torch.cuda.get_device_name(device)} (cuda, bf16 autocast)"
    import platform

    return f"{platform.processor() or platform.machine()} CPU, {torch.get_num_threads()} threads (fp32)"


def autocast(device: torch.device) -> contextlib.AbstractContextManager[Any]:
    """bf16 autocast on CUDA; nothing on CPU, where training stays fp32."""
    if device.type == "cuda":
        return torch.autocast("cuda", dtype=torch.bfloat16)
    return contextlib.nullcontext()
