"""The torch back end (:class:`sciner.inference.networks.Network`): a model's network in torch, in
the precision and on the device asked for.

``precision``: ``fp32``; ``bf16`` (bfloat16 weights and autocast; the default, ``auto``, where the
device computes it natively); ``int8`` (dynamic quantization of the linear layers, CPU only).
Batching, windows and the head's decoding are :mod:`sciner.inference.batch`'s.
"""

from __future__ import annotations

import contextlib
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import torch

from sciner.config import ModelConfig
from sciner.document import Span
from sciner.errors import ModelError
from sciner.inference.batch import predict_log_probs, predict_spans
from sciner.inference.network import Progress
from sciner.model.device import pick_device
from sciner.model.fast_bert import FastBert
from sciner.model.store import load_model


def native_bf16() -> bool:
    """True when this CPU computes bfloat16 natively (AVX512-BF16 or AMX)."""
    check = getattr(torch.cpu, "_is_avx512_bf16_supported", None)
    return bool(check and check())


class TorchNetwork:
    """A model's torch network (:class:`sciner.model.network.NERModel`), run in ``precision`` on ``device``."""

    def __init__(self, model: Any, precision: str = "fp32", device: str = "cpu") -> None:
        self.model = model
        self.precision = precision
        self.device = device

    @classmethod
    def load(cls, path: str | Path | None, precision: str = "auto",
             device: str = "auto") -> tuple["TorchNetwork", dict[str, Any], Path]:
        """The network of the model folder ``path`` (None: the default model) in ``precision``
        (``auto``: bf16 on CUDA and where the CPU has native bfloat16, else fp32) on ``device``,
        with its ``model.json`` and folder."""
        where = pick_device(device)
        if where.type == "cuda" and precision == "int8":
            raise ModelError("precision int8 (dynamic quantization) runs on the CPU only; use bf16 or fp32 on cuda")
        if precision == "auto":
            precision = "bf16" if where.type == "cuda" or native_bf16() else "fp32"
        elif precision == "bf16" and where.type == "cpu" and not native_bf16():
            print("warning: --precision bf16 on a CPU without native bfloat16 (AVX512-BF16 or AMX) is emulated "
                  "and slower than fp32; the default (auto) picks fp32 here", file=sys.stderr)
        model, meta, directory = load_model(path, encoder_dtype=torch.bfloat16 if precision == "bf16" else None)
        model.to(where)
        if precision == "bf16":
            # bf16 weights, not just autocast: autocast alone re-casts every weight on every call.
            if isinstance(model.encoder, FastBert):
                model.encoder.to_bf16()
            else:
                model.encoder.to(torch.bfloat16)
        if isinstance(model.encoder, FastBert) and precision != "int8":
            model.encoder.fuse_qkv()
        if precision == "int8":
            with warnings.catch_warnings():  # torch marks eager dynamic quantization deprecated; it still works
                warnings.simplefilter("ignore")
                model = torch.ao.quantization.quantize_dynamic(model, {torch.nn.Linear}, dtype=torch.qint8)
        return cls(model, precision, where.type), meta, directory

    @property
    def cfg(self) -> ModelConfig:
        return self.model.cfg  # type: ignore[no-any-return]

    def log_probs(self, paragraphs: Sequence[Sequence[str]], *, batch_subwords: int,
                  progress: Progress = None) -> list[np.ndarray]:
        with self.autocast():
            return predict_log_probs(self.model, [list(p) for p in paragraphs], batch_subwords=batch_subwords,
                                     progress=progress)

    def spans(self, paragraphs: Sequence[Sequence[str]], *, batch_subwords: int,
              progress: Progress = None) -> list[list[Span]]:
        with self.autocast():
            return predict_spans(self.model, [list(p) for p in paragraphs], batch_subwords=batch_subwords,
                                 progress=progress)

    def limit_threads(self, threads: int) -> None:
        torch.set_num_threads(threads)

    def autocast(self) -> contextlib.AbstractContextManager[Any]:
        """What the network runs in: bfloat16 autocast for ``bf16``, nothing otherwise."""
        if self.precision == "bf16":
            return torch.autocast(self.device, dtype=torch.bfloat16)
        return contextlib.nullcontext()
