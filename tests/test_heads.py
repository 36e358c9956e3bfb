"""Heads are registered by name and say what they need; nothing else compares head names."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from sciner.config import ModelConfig, load_config
from sciner.document import Span
from sciner.errors import ConfigError, ModelError
from sciner.model.heads import HEADS, build_head, register_head
from sciner.model.heads.base import Head

SRC = Path(__file__).resolve().parents[1] / "src" / "sciner"
HEAD_NAMES = ("bio", "span", "span_finetune")


def test_the_three_heads_are_registered_with_their_properties():
    assert tuple(HEADS)[:3] == HEAD_NAMES
    assert [HEADS[n].needs_subword_states for n in HEAD_NAMES] == [False, False, True]
    assert [HEADS[n].scores_tags for n in HEAD_NAMES] == [True, False, False]
    assert [HEADS[n].head_class().__name__ for n in HEAD_NAMES] == ["BIOHead", "SpanHead", "SpanFinetuneHead"]


def test_an_unknown_head_is_a_config_error_listing_the_heads():
    with pytest.raises(ConfigError, match=r"model.head must be one of bio, span, span_finetune"):
        build_head(ModelConfig(head="crf"), 32)


def test_a_config_is_read_without_importing_torch():
    """The registry and the built-in heads' settings are torch-free: validating a config,
    reading the shipped model's model.json and `sciner info` do not import torch (0.9 s)."""
    code = ("import sys; from sciner.config import load_config; from sciner.model.info import model_info; "
            "cfg = load_config('configs/default.toml', ['model.head=span', 'model.heads.span.max_span_width=4']); "
            "assert cfg.model.head_settings.max_span_width == 4; "
            "assert model_info(None)['head'] == 'bio'; print('torch' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=SRC.parents[1]).stdout
    assert out.strip() == "False"


def test_a_registered_head_is_built_by_name():
    class FirstWord(Head):
        """Tags the first word of every paragraph as a method: a head in ten lines."""

        @classmethod
        def build(cls, cfg, dim):
            return cls()

        def decode(self, words, mask):
            return [[Span("MethodName", 0, 1)] for _ in range(words.shape[0])]

    register_head("first_word", FirstWord)
    try:
        head = build_head(ModelConfig(head="first_word"), 8)
        assert head.decode(torch.zeros(2, 3, 8), torch.ones(2, 3, dtype=torch.bool)) == [[Span("MethodName", 0, 1)]] * 2
    finally:
        del HEADS["first_word"]


def test_no_module_outside_the_heads_names_a_head():
    """Heads are asked (their spec's needs_subword_states, scores_tags), not recognised by name:
    no comparison with a head's name anywhere, no head named outside model/heads but where the
    config registers the built-in ones and as its default."""
    pattern = re.compile(r"""head\s*(?:[!=]=|in)\s*[("'\[]|["'](?:bio|span|span_finetune)["']\s*[!=]=""")
    offenders = [str(p.relative_to(SRC)) for p in SRC.rglob("*.py")
                 if pattern.search(p.read_text(encoding="utf-8"))]
    assert offenders == []
    named = re.compile(r"""["'](?:bio|span|span_finetune)["']""")
    outside = {str(p.relative_to(SRC)): named.findall(p.read_text(encoding="utf-8")) for p in SRC.rglob("*.py")
               if SRC / "model" / "heads" not in p.parents}
    assert {path: names for path, names in outside.items() if names} == {"config.py": ['"bio"', '"span"', '"span_finetune"', '"bio"']}


def test_head_settings_are_checked_by_the_heads_rules():
    with pytest.raises(ConfigError, match=r"--set: model.heads.span_finetune.cnn_kernel: must be at least 1, got 0"):
        load_config(None, ["model.head=span_finetune", "model.heads.span_finetune.cnn_kernel=0"])


def test_log_probs_need_a_head_that_scores_tags(tiny_encoder_dir):
    from sciner.inference.batch import predict_log_probs
    from sciner.model.store import build_model

    model = build_model(tiny_head_config(tiny_encoder_dir, "span"), inference=True)
    with pytest.raises(ModelError, match="need a head that scores BIO tags, not 'span'"):
        predict_log_probs(model, [["BERT"]])


def tiny_head_config(encoder: Path, head: str, **changes) -> ModelConfig:
    """A model config of small windows and small head settings over the tiny encoder."""
    cfg = ModelConfig(encoder=str(encoder), head=head, window=16, window_overlap=4, **changes)
    cfg.heads["span"].span_hidden = 16
    cfg.heads["span_finetune"].cnn_filters = 8
    cfg.heads["span_finetune"].segmentation = "random"
    return cfg


@pytest.mark.parametrize("head", HEAD_NAMES)
def test_each_head_trains_and_decodes_through_the_one_encoder_path(tiny_encoder_dir, head):
    from sciner.inference.batch import predict_spans
    from sciner.model.windows import featurize_many
    from sciner.model.store import build_model

    cfg = tiny_head_config(tiny_encoder_dir, head, freeze_word_embeddings=False)
    torch.manual_seed(0)
    model = build_model(cfg)
    tokens = ["We", "use", "BERT", "on", "SQuAD", "."] * 5  # 30 words: several windows of 16
    tags = ["O", "O", "B-MethodName", "O", "B-DatasetName", "O"] * 5
    feats = featurize_many(model.tokenizer, [tokens, tokens[:4]], cfg, [tags, tags[:4]])
    loss = model.loss(feats, batch_subwords=64)
    loss.backward()
    assert loss.item() > 0
    assert model.encoder.get_input_embeddings().weight.grad is not None  # gradients reach the encoder
    spans = predict_spans(model, [tokens, tokens[:4], []], batch_subwords=64)
    assert len(spans) == 3 and spans[2] == []
    assert all(0 <= s.start < s.end <= len(tokens) for s in spans[0])


def test_span_finetune_runs_the_encoder_once_for_words_and_subwords(tiny_encoder_dir):
    """Regression: with a head that needs subword states, ``encode`` ran the encoder twice (once
    for the word vectors, once for the subwords). Word vectors are their first subword's states."""
    from sciner.model.windows import featurize_many
    from sciner.model.store import build_model

    cfg = tiny_head_config(tiny_encoder_dir, "span_finetune")
    torch.manual_seed(0)
    model = build_model(cfg).eval()
    tokens = ["We", "use", "BERT-large", "on", "SQuAD", "."] * 5
    feats = featurize_many(model.tokenizer, [tokens, tokens[:4]], cfg)
    calls = []
    model.encoder.register_forward_hook(lambda module, args, output: calls.append(1))
    with torch.no_grad():
        encoded = model.encode(feats, batch_subwords=64)
        n_calls = len(calls)
        bio = ModelConfig(**{**cfg.__dict__, "head": "bio"})
        model.cfg, model.head = bio, build_model(bio).head  # same encoder, a head without subword states
        alone = model.encode(feats, batch_subwords=64)
    assert n_calls == len(calls) - n_calls  # as many batches as the word-only path: one pass
    for got, want in zip(encoded.words, alone.words):
        assert torch.equal(got, want)


def test_every_segmentation_the_setting_allows_is_made():
    """The span fine-tuning head's allowed segmentations (config.py) and those
    make_segmenter builds (model/segmentation.py) are the same set."""
    from sciner.config import SEGMENTATIONS, SpanFinetuneSettings
    from sciner.model.segmentation import make_segmenter

    for name in SEGMENTATIONS:
        assert make_segmenter(SpanFinetuneSettings(segmentation=name))(["a", "b"])
