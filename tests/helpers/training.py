"""Configs and corpora of a few seconds for the training, distillation and pretraining tests."""

from __future__ import annotations

import os
import random
from pathlib import Path

from sciner.config import Config

# The words of write_raw_corpus's paragraphs, and of make_sentence's entities.
METHODS = ["BERT", "RoBERTa", "a BiLSTM-CRF tagger", "SpanBERT", "XLNet", "ELECTRA"]
DATASETS = ["SQuAD", "CoNLL-2003", "OntoNotes", "MNLI", "SciERC", "TACRED"]
METRICS = ["F1", "accuracy", "exact match", "BLEU"]
ENTITY_WORDS = {
    "MethodName": ["BERT", "ELMo", "RoBERTa", "GPT-2", "XLNet"],
    "DatasetName": ["SQuAD", "GLUE", "MNLI", "CoNLL-2003"],
    "MetricName": ["F1", "accuracy", "BLEU"],
    "TaskName": ["question answering", "named entity recognition", "translation"],
}


def make_sentence(rng: random.Random) -> tuple[list[str], list[str]]:
    """A synthetic sentence with a method, a dataset and a metric, tagged in BIO."""
    tokens: list[str] = []
    tags: list[str] = []

    def add(words: str, label: str | None) -> None:
        for k, w in enumerate(words.split()):
            tokens.append(w)
            tags.append("O" if label is None else ("B-" if k == 0 else "I-") + label)

    add("We evaluate", None)
    add(rng.choice(ENTITY_WORDS["MethodName"]), "MethodName")
    add("on", None)
    add(rng.choice(ENTITY_WORDS["DatasetName"]), "DatasetName")
    add("for", None)
    add(rng.choice(ENTITY_WORDS["TaskName"]), "TaskName")
    add("and report", None)
    add(rng.choice(ENTITY_WORDS["MetricName"]), "MetricName")
    add("of", None)
    add(f"{rng.randint(50, 99)}.{rng.randint(0, 9)}", "MetricValue")
    add(".", None)
    return tokens, tags


def tiny_config(encoder: Path, data: Path, head: str, **train_changes) -> Config:
    """A NER training config of a few seconds on ``tiny_data`` (group_c is the dev group);
    ``train_changes`` are ``[train]`` values."""
    cfg = Config()
    cfg.data.data_dir = str(data)
    cfg.data.dev_groups = ["group_c"]
    cfg.model.encoder = str(encoder)
    cfg.model.head = head
    cfg.model.window = 32  # tiny windows, so paragraphs of the tests slide
    cfg.model.window_overlap = 8
    cfg.model.heads["span_finetune"].cnn_filters = 16
    cfg.model.heads["span_finetune"].segmentation = "random"
    cfg.model.freeze_word_embeddings = False
    cfg.train.epochs = 2
    cfg.train.batch_subwords = 512
    cfg.train.lr = 2e-3
    cfg.train.head_lr = 5e-3
    cfg.train.threads = 1
    for k, v in train_changes.items():
        setattr(cfg.train, k, v)
    return cfg


def write_raw_corpus(folder: Path) -> Path:
    """Forty-eight short template paragraphs of raw text to pretrain on: easy to learn, so a few
    steps visibly lower the loss."""
    folder.mkdir()
    lines = []
    for i in range(48):
        m, d, s = METHODS[i % 6], DATASETS[(i // 6) % 6], METRICS[i % 4]
        lines.append(
            f"We fine-tune {m} on {d} with a learning rate of 2e-5 and a batch size of 32. "
            f"It reaches {80 + i % 10}.{i % 7} {s} on the {d} test set, better than the previous model."
        )
    (folder / "corpus.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder


def pretrain_config(tiny_encoder: Path, raw: Path, **changes) -> Config:
    """A pretraining config of a few seconds; ``changes`` are ``section.key`` values."""
    settings = {
        "model.encoder": str(tiny_encoder), "pretrain.raw_data": str(raw), "pretrain.steps": 30,
        "pretrain.seq_len": 32, "pretrain.batch_size": 4, "pretrain.lr": 5e-3, "pretrain.warmup_steps": 3,
        "train.checkpoint_every_steps": 10, "train.log_every": 5, "pretrain.min_segment_words": 4,
        "pretrain.pool_batches": 4, "train.seed": 7, "train.threads": 1, "pretrain.sbo_position_dim": 16,
        # A random tiny model learns mostly through its embeddings; the real run freezes them.
        "model.freeze_word_embeddings": False, **changes,
    }
    cfg = Config()
    for dotted, value in settings.items():
        section, key = dotted.split(".")
        setattr(getattr(cfg, section), key, value)
    return cfg


class Payload:
    """Unpickling this would create a marker file: what a crafted checkpoint could do."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))
