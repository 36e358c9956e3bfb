"""The built-in heads as a config knows them: each one's settings (keys, defaults, ranges) and
properties. Their networks (bio.py, span.py, span_finetune.py) import torch and are named by
path, so they load only when a model is built."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import ClassVar

from sciner.rules import Rule, at_least, one_of
from sciner.model.heads import HeadSpec, add_head



# Span fine-tuning's segmentations (made by sciner.model.segmentation.make_segmenter).
SEGMENTATIONS = ("dictionary", "random", "none")


@dataclass
class SpanSettings:
    # Longest entity considered, in words (longer gold spans are rare: <1%).
    max_span_width: int = 8
    # Hidden size of the span classifier's feed-forward layer.
    span_hidden: int = 256

    RULES: ClassVar[dict[str, Rule]] = {"max_span_width": at_least(1), "span_hidden": at_least(1)}


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

    RULES: ClassVar[dict[str, Rule]] = {
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

    RULES: ClassVar[dict[str, Rule]] = {"hash_rows": at_least(1), "hash_dim": at_least(1), "width": at_least(1),
                                        "depth": at_least(0), "kernel": at_least(1)}


# BIO tagging with constrained Viterbi (the shipped model's head); its only setting is the
# network's shared model.dropout.
BIO = add_head(HeadSpec("bio", "sciner.model.heads.bio:BIOHead", scores_tags=True))
# Span classification: every span up to max_span_width words, the best non-overlapping set.
SPAN = add_head(HeadSpec("span", "sciner.model.heads.span:SpanHead", SpanSettings))
# BIO tagging over word vectors joined with hierarchical-CNN segment vectors.
SPAN_FINETUNE = add_head(HeadSpec("span_finetune", "sciner.model.heads.span_finetune:SpanFinetuneHead",
                                  SpanFinetuneSettings, needs_subword_states=True))

# BIO tagging over hashed word features and a window CNN (the fast model's head: spaCy's
# efficiency NER with the encoder's embeddings, `model.num_layers = -1`).
CNN = add_head(HeadSpec("cnn", "sciner.model.heads.cnn:CNNHead", CNNSettings, scores_tags=True))

# These heads' settings were once keys of [model] itself (model.max_span_width): older
# config files, model.json files and --set items that write them so still read.
FLAT_KEYS = {f.name: f"heads.{spec.name}.{f.name}"
             for spec in (SPAN, SPAN_FINETUNE) for f in dataclasses.fields(spec.settings)}
