"""The pretraining corpus tokenized once: the cache round-trips, the stream reads it, mpnet pretrains."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import torch
from transformers import AutoTokenizer, MPNetConfig, MPNetModel

from sciner.pretrain.cache import CachedParagraphs, build_cache, encode_words, part_path
from sciner.config import PretrainConfig
from sciner.model.encoder import encoder_folder
from sciner.pretrain.corpus import ParagraphIndex, SegmentStream, raw_files
from sciner.pretrain.task import pretrain
from sciner.tokenize import tokenize_paragraphs

from helpers.training import pretrain_config, tiny_config, write_raw_corpus


@pytest.fixture(scope="module")
def tokenizer():
    return AutoTokenizer.from_pretrained(encoder_folder("all-MiniLM-L6-v2"))


@pytest.fixture(scope="module")
def raw(tmp_path_factory) -> Path:
    return write_raw_corpus(tmp_path_factory.mktemp("c") / "raw")


def test_cache_ids_equal_on_the_fly_tokenization(tmp_path, raw, tokenizer):
    build_cache(raw, tokenizer, tmp_path / "cache", per_part=20)
    cached = CachedParagraphs(tmp_path / "cache", tokenizer)
    index = ParagraphIndex(raw_files(raw))
    assert len(cached) == len(index) == 48 and part_path(tmp_path / "cache", 2).exists()  # 20 + 20 + 8
    for i in (0, 21, 47):
        words = tokenize_paragraphs([index.read(i)])[0]
        enc = tokenizer(words, is_split_into_words=True, add_special_tokens=False)
        ids, word_ids = cached.paragraph(i)
        assert ids == enc["input_ids"] and word_ids == enc.word_ids()
    assert cached.ids.dtype.itemsize == 2  # MiniLM's 30522 ids fit in uint16


def test_the_stream_gives_the_same_batches_from_the_cache(tmp_path, raw, tokenizer):
    build_cache(raw, tokenizer, tmp_path / "cache", per_part=20)
    args = (tokenizer, 32, 4, 7, 4, 4)
    live = SegmentStream(ParagraphIndex(raw_files(raw)), *args).batches()
    cached = SegmentStream(CachedParagraphs(tmp_path / "cache", tokenizer), *args).batches()
    for _ in range(12):
        (a, pos_a), (b, pos_b) = next(live), next(cached)
        assert a == b and pos_a == pos_b


def test_a_build_resumes_and_a_partial_copy_is_a_smaller_corpus(tmp_path, raw, tokenizer):
    folder = build_cache(raw, tokenizer, tmp_path / "cache", per_part=20)
    first = part_path(folder, 0).stat().st_mtime_ns
    part_path(folder, 1).unlink()
    build_cache(raw, tokenizer, folder, per_part=20)
    assert part_path(folder, 0).stat().st_mtime_ns == first and part_path(folder, 1).exists()
    part_path(folder, 1).unlink()
    assert len(CachedParagraphs(folder, tokenizer)) == 20  # the parts before the first missing one


def test_the_cache_refuses_another_tokenizer(tmp_path, raw, tokenizer, cli):
    build_cache(raw, tokenizer, tmp_path / "cache", per_part=20)
    meta = json.loads((tmp_path / "cache" / "cache.json").read_text())
    meta["vocab_hash"] = "0" * 16
    (tmp_path / "cache" / "cache.json").write_text(json.dumps(meta))
    from sciner.errors import ConfigError

    with pytest.raises(ConfigError, match="another tokenizer"):
        CachedParagraphs(tmp_path / "cache", tokenizer)
    result = cli("pretrain", "--cache-only")
    assert result.returncode == 6 and "raw_cache" in result.stderr


def test_encode_words_marks_word_starts():
    class Fake:
        vocab_size = 10

        def __call__(self, words, **kw):
            class Enc(dict):
                def word_ids(self):
                    return [0, 0, 1]
            return Enc(input_ids=[3, 4, 5])

    ids, starts, offsets = encode_words(Fake(), [["ab", "c"], []])
    assert ids.tolist() == [3, 4, 5] and starts.tolist() == [True, False, True] and offsets.tolist() == [0, 3, 3]


@pytest.fixture(scope="module")
def tiny_mpnet(tmp_path_factory, tokenizer) -> Path:
    """A 2-layer, 32-wide MPNet (the architecture of all-mpnet-base-v2) with the MiniLM vocabulary."""
    folder = tmp_path_factory.mktemp("tiny-mpnet")
    torch.manual_seed(0)
    cfg = MPNetConfig(vocab_size=tokenizer.vocab_size, hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                      intermediate_size=64, max_position_embeddings=80, pad_token_id=tokenizer.pad_token_id)
    MPNetModel(cfg).save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder


def test_mpnet_pretrains_from_the_cache_into_an_encoder_ner_training_accepts(tmp_path, raw, tiny_mpnet, tiny_data):
    cfg = pretrain_config(tiny_mpnet, raw, **{"pretrain.steps": 6, "train.checkpoint_every_steps": 3,
                                     "pretrain.raw_cache": str(tmp_path / "cache")})
    folder = pretrain(cfg, tmp_path / "run", progress=False)
    assert (tmp_path / "cache" / "cache.json").exists()  # made on first use
    assert json.loads((folder / "config.json").read_text())["model_type"] == "mpnet"
    from sciner.training.train import train

    ner = tiny_config(folder, tiny_data, "bio", epochs=1, max_batches_per_epoch=2)
    assert train(ner, tmp_path / "ner", show_progress=False).best_epoch == 1


def test_lr_zero_picks_a_gentle_rate_for_base_size_encoders():
    cfg = PretrainConfig()
    assert cfg.encoder_lr(384) == 1e-4 and cfg.encoder_lr(768) <= 5e-5
    assert PretrainConfig(lr=2e-4).encoder_lr(768) == 2e-4
