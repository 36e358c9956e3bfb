"""An encoder folder packed to travel: int8 weights (per-row absmax scales) in a few parts.

For a machine that takes files in transfers of limited size (the development machines' limits
are in ``benchmarks/distill_gpu.py``): int8 matrices (one fp32 scale per row) make an encoder
about a quarter of its fp32 size (all-mpnet-base-v2: 420 MB to about 110 MB), carried as
``parts`` parts and unpacked there to fp32 for fine-tuning. Rounding a row to 127 levels of its
largest weight changes the weights by at most half a level; fine-tuning starts from them either
way. Vectors (biases, LayerNorm) and small tensors stay fp16.
"""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from pathlib import Path

import torch

from sciner.errors import InputFormatError, InputNotFoundError
from sciner.model.store import SCALE, from_int8_rows, int8_rows
from sciner.outputs import atomic_target

WEIGHTS = "model.safetensors"
PART_WEIGHTS = "weights.safetensors"
# How packs before store.int8_rows named an int8 matrix (KEY.int8, its scales KEY.scale).
OLD_QUANT = ".int8"


def pack_encoder(folder: Path, output: Path, parts: int = 2) -> list[Path]:
    """Pack the HF encoder in ``folder`` into ``output/part-1 ... part-N``; part-1 also holds
    its config and tokenizer files. Returns the part folders."""
    from safetensors.torch import load_file

    if not (folder / WEIGHTS).is_file():
        raise InputNotFoundError(f"{folder}: no {WEIGHTS} to pack")
    tensors: dict[str, torch.Tensor] = {}
    for name, tensor in load_file(str(folder / WEIGHTS)).items():
        if tensor.is_floating_point() and tensor.ndim == 2 and tensor.numel() >= 4096:
            tensors[name], tensors[name + SCALE] = int8_rows(tensor)  # read back by from_int8_rows
        else:
            tensors[name] = tensor.half() if tensor.is_floating_point() else tensor
    folders = [output / f"part-{k + 1}" for k in range(parts)]
    for k, group in enumerate(_split(tensors, parts)):
        _save(folders[k] / PART_WEIGHTS, group)
    for path in folder.iterdir():
        if path.is_file() and path.name != WEIGHTS and not path.name.endswith((".bin", ".pt", ".h5", ".onnx")):
            shutil.copy2(path, folders[0] / path.name)
    return folders


def unpack_encoder(parts: Sequence[Path], output: Path) -> Path:
    """The encoder folder (fp32 ``model.safetensors`` + config and tokenizer) of packed ``parts``."""
    from safetensors.torch import load_file

    packed: dict[str, torch.Tensor] = {}
    for part in parts:
        if not (part / PART_WEIGHTS).is_file():
            raise InputNotFoundError(f"{part}: not a packed encoder part ({PART_WEIGHTS} missing)")
        tensors = load_file(str(part / PART_WEIGHTS))
        if any(name.endswith(OLD_QUANT) for name in tensors):  # its *.int8/*.scale would pass through as weights
            raise InputFormatError(f"{part}: packed by an older sciner (*{OLD_QUANT} tensors); pack the encoder "
                                   "again with `sciner distill pack-encoder`")
        packed.update(tensors)
        for path in part.iterdir():
            if path.is_file() and path.name != PART_WEIGHTS:
                output.mkdir(parents=True, exist_ok=True)
                shutil.copy2(path, output / path.name)
    state = {name: tensor.float() if tensor.is_floating_point() else tensor
             for name, tensor in from_int8_rows(packed).items()}
    _save(output / WEIGHTS, state)
    return output


def _split(tensors: dict[str, torch.Tensor], parts: int) -> list[dict[str, torch.Tensor]]:
    """Consecutive groups of about equal bytes (a matrix and its scales stay together)."""
    total = sum(t.numel() * t.element_size() for t in tensors.values())
    groups: list[dict[str, torch.Tensor]] = [{} for _ in range(parts)]
    done = 0
    for name, tensor in tensors.items():
        k = min(parts - 1, int(done * parts / max(1, total)))
        if name.endswith(SCALE):
            k = next(i for i, g in enumerate(groups) if name[: -len(SCALE)] in g)
        groups[k][name] = tensor
        done += tensor.numel() * tensor.element_size()
    return groups


def _save(path: Path, tensors: dict[str, torch.Tensor]) -> None:
    from safetensors.torch import save_file

    with atomic_target(path) as tmp:
        save_file({k: v.contiguous() for k, v in tensors.items()}, str(tmp), metadata={"format": "pt"})
