"""Which back end (:mod:`sciner.inference.network`) runs a call: :func:`load_networks` is the one
place that chooses, and the one place that imports torch or onnxruntime, only once chosen. The
timings behind its policy are in ``docs/benchmarks.md`` ("NumPy or torch").
"""

from __future__ import annotations

import functools
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sciner.config import PRECISIONS
from sciner.errors import ModelError
from sciner.inference.network import Network
from sciner.inference.numpy_network import bert_layers
from sciner.model.heads import head_spec
from sciner.model.store import is_onnx, load_model_meta

# The most transformer layers a model may keep and still run in NumPy in calls of every size when
# --precision is auto or fp32: the fast model's one. Deeper ones run in torch but for small calls:
# NumPy's start-up is shorter (no torch to import), torch's layers faster on long inputs.
MAX_LAYERS = 1
# The small calls of a deeper model (the default's six layers) that NumPy runs where torch would
# run bf16 natively (elsewhere NumPy runs them all: fp32_cpu_only): at most this many words.
# Importing torch and building its network takes longer than NumPy's six layers take on them;
# the crossing depends on the CPU (docs/benchmarks.md, "NumPy or torch").
SMALL_CALL_WORDS = 4000


def runs_in_numpy(num_layers: int) -> bool:
    """Whether a model keeping ``num_layers`` transformer layers (``model.num_layers``: -1 none,
    0 all) runs in NumPy in calls of every size when its head has a NumPy network (a deeper one:
    in calls of at most :data:`SMALL_CALL_WORDS` words)."""
    return num_layers == -1 or 1 <= num_layers <= MAX_LAYERS


@dataclass
class Networks:
    """A model's back ends: ``first`` runs every call, or where ``load_large`` is set, the calls of
    at most :data:`SMALL_CALL_WORDS` words; ``load_large`` loads, at the first larger call, the
    network that runs those."""

    first: Network
    load_large: Callable[[], Network] | None = None
    large: Network | None = None
    threads: int | None = None  # what limit_threads set, for a network loaded after it

    def for_call(self, words: int) -> Network:
        """The network that runs a call of ``words`` words (loading the large calls' at the first)."""
        if self.load_large is None or words <= SMALL_CALL_WORDS:
            return self.first
        if self.large is None:
            self.large = self.load_large()
            if self.threads is not None:
                self.large.limit_threads(self.threads)
        return self.large

    def limit_threads(self, threads: int) -> None:
        """Bound every network's threads, the ones loaded later too."""
        self.threads = threads
        for network in (self.first, self.large):
            if network is not None:
                network.limit_threads(threads)


def load_networks(path: str | Path | None, precision: str = "auto",
                  device: str = "auto") -> tuple[Networks, dict[str, Any], Path]:
    """The back ends of the model at ``path`` (a folder, a shipped model's name, an ``.onnx``
    graph; None: the default model), its ``model.json`` and its path, for ``precision`` and
    ``device`` as :meth:`sciner.inference.tagger.Tagger.load` takes them.

    A model whose head has a NumPy network, on a plain BERT encoder, runs in NumPy, fp32, on the
    CPU unless ``precision`` (bf16, int8) or ``device`` (cuda) asks for torch: every call where it
    keeps few layers (:func:`runs_in_numpy`) or where torch could only run fp32 on the CPU
    (:func:`fp32_cpu_only`), else calls of at most :data:`SMALL_CALL_WORDS` words, the first
    larger one loading its torch network (``precision`` and ``device`` as asked).
    """
    if precision not in PRECISIONS:
        raise ModelError(f"precision must be one of {', '.join(PRECISIONS)}, not {precision!r}")
    if is_onnx(path):
        # onnxruntime is an optional extra, imported only for an exported graph.
        from sciner.inference.onnx_network import OnnxNetwork

        network, meta, where = OnnxNetwork.load(path, precision, device)
        return Networks(network), meta, where
    if precision in ("auto", "fp32") and device in ("auto", "cpu"):
        cfg, meta, directory = load_model_meta(path)
        numpy_class = head_spec(cfg.model.head).numpy_class()
        if numpy_class is not None and bert_layers(cfg.model.encoder):
            small = numpy_class.load(cfg, directory, meta.get("type_bias") or {})
            large = None if runs_in_numpy(cfg.model.num_layers) or fp32_cpu_only(device) \
                else functools.partial(_torch, path, precision, device)
            return Networks(small, large), meta, directory
    network, meta, directory = _load_torch(path, precision, device)
    return Networks(network), meta, directory


def fp32_cpu_only(device: str = "auto") -> bool:
    """Whether torch could only run here in fp32 on the CPU: ``device`` is the CPU, or no NVIDIA
    driver is installed; and the CPU does not compute bfloat16 natively (no AVX512-BF16 nor AMX
    in /proc/cpuinfo). Then a deep model runs in NumPy in calls of every size: on an AVX2-only
    CPU the default model tagged the 2022 test file in 0.82x torch fp32's time, same tags, and
    spared torch's import (docs/benchmarks.md, "NumPy or torch"). Where the flags cannot be read
    (no /proc/cpuinfo), False: torch decides as before."""
    cpu = device == "cpu" or not (Path("/proc/driver/nvidia/version").exists() or shutil.which("nvidia-smi"))
    return cpu and native_bf16_flags() is False


@functools.cache
def native_bf16_flags() -> bool | None:
    """Whether this CPU computes bfloat16 natively (avx512_bf16 or amx_bf16 among its flags),
    read from /proc/cpuinfo without importing torch; None where there is none to read."""
    try:
        info = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    flags = {f for line in info.splitlines() if line.startswith("flags") for f in line.split(":", 1)[-1].split()}
    return bool(flags & {"avx512_bf16", "amx_bf16"}) if flags else None


def back_ends(path: str | Path | None, precision: str = "auto", device: str = "auto") -> str:
    """In words, what :func:`load_networks` would run the model at ``path`` on, loading no
    weights: "NumPy fp32", "NumPy fp32 up to 4000 words, torch bf16 above", "torch fp32",
    "ONNX Runtime"; a torch ``auto`` says the precision this machine resolves it to."""
    if is_onnx(path):
        return "ONNX Runtime"
    torch_side = f"torch {_resolved(precision, device)}"
    if precision in ("auto", "fp32") and device in ("auto", "cpu"):
        cfg, _, _ = load_model_meta(path)
        if head_spec(cfg.model.head).numpy_class() is not None and bert_layers(cfg.model.encoder):
            if runs_in_numpy(cfg.model.num_layers) or fp32_cpu_only(device):
                return "NumPy fp32"
            return f"NumPy fp32 up to {SMALL_CALL_WORDS} words, {torch_side} above"
    return torch_side


def _resolved(precision: str, device: str) -> str:
    """The precision torch runs ``auto`` in here (bf16 on CUDA or a CPU with native bfloat16)."""
    if precision != "auto":
        return precision
    from sciner.inference.torch_network import native_bf16
    from sciner.model.device import pick_device

    return "bf16" if pick_device(device).type == "cuda" or native_bf16() else "fp32"


def _load_torch(path: str | Path | None, precision: str, device: str) -> tuple[Network, dict[str, Any], Path]:
    # torch is imported here, once chosen: importing it takes longer than NumPy takes to tag a line.
    from sciner.inference.torch_network import TorchNetwork

    return TorchNetwork.load(path, precision, device)


def _torch(path: str | Path | None, precision: str, device: str) -> Network:
    """The torch network of a model whose small calls run in NumPy."""
    return _load_torch(path, precision, device)[0]
