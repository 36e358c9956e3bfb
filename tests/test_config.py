"""Configs: the shipped TOML files are the dataclass defaults, and every config (TOML, --set,
model.json) goes through one validation that names the file and the key."""

from __future__ import annotations

import dataclasses
import tomllib
from pathlib import Path

import pytest

from sciner.config import Config, load_config
from sciner.errors import ConfigError
from sciner.head_registry import HEADS

CONFIGS = Path(__file__).resolve().parents[1] / "configs"
BUILTIN_HEADS = ["bio", "span", "span_finetune"]


def test_default_toml_is_the_dataclass_defaults():
    assert load_config(CONFIGS / "default.toml", []) == Config()


def test_every_shipped_toml_is_the_dataclass_defaults_where_it_speaks():
    # pretrain.toml writes out what pretraining reads; distill.toml changes nothing either.
    for name in ("pretrain.toml", "distill.toml"):
        assert load_config(CONFIGS / name, []) == Config(), name


def test_pretrain_toml_writes_out_every_key_pretraining_reads():
    tables = tomllib.loads((CONFIGS / "pretrain.toml").read_text())
    assert set(tables["pretrain"]) == {f.name for f in dataclasses.fields(Config().pretrain)}
    assert set(tables["model"]) == {"encoder", "freeze_word_embeddings"}
    assert set(tables["train"]) == {"seed", "threads", "device", "max_grad_norm", "checkpoint_every_steps", "log_every"}


def test_every_field_is_written_out_in_its_toml():
    tables = tomllib.loads((CONFIGS / "default.toml").read_text())
    for section in dataclasses.fields(Config):
        fields = {f.name for f in dataclasses.fields(getattr(Config(), section.name))}
        assert set(tables[section.name]) == fields, section.name
    for head in BUILTIN_HEADS:  # each head's settings are written out under [model.heads.<name>]
        settings = {f.name for f in dataclasses.fields(HEADS[head].settings)}
        assert set(tables["model"]["heads"][head]) == settings, head


def test_set_values_are_parsed_and_checked():
    cfg = load_config(None, ["train.epochs=2", "model.head=span", "data.dev_groups=[\"a\"]", "train.lr=3e-5"])
    assert (cfg.train.epochs, cfg.model.head, cfg.data.dev_groups, cfg.train.lr) == (2, "span", ["a"], 3e-5)


BAD_SETS = [
    ("train.threads=0", "train.threads: must be at least 1"),
    ("train.epochs=0", "train.epochs: must be at least 1"),
    ("model.dropout=1", "model.dropout: must be in [0, 1)"),
    ("model.window_overlap=-1", "model.window_overlap: must be at least 0"),
    ("model.window=64", "model.window: must exceed model.window_overlap + 2"),
    ("train.batch_subwords=128", "train.batch_subwords: must be at least model.window (256)"),
    ("train.lr=0", "train.lr: must be greater than 0"),
    ("data.keep_empty_fraction=0", "data.keep_empty_fraction: must be in (0, 1]"),
    ("model.head=crf", "model.head: must be one of bio, span, span_finetune"),
    ("model.heads.span_finetune.segmentation=words", "model.heads.span_finetune.segmentation: must be one of"),
    ("model.segmentation=words", "model.heads.span_finetune.segmentation: must be one of"),  # its old key
    ("model.heads.span.max_span_width=0", "model.heads.span.max_span_width: must be at least 1, got 0"),
    ("model.heads.crf.x=1", "model.heads.crf.x: unknown key (known: bio, span, span_finetune"),
    ("model.heads.span.nope=1", "model.heads.span.nope: unknown key (known: max_span_width, span_hidden)"),
    ("model.window.x=1", "model.window.x: unknown key (model.window is not a table)"),
    ("train.epochs=two", "train.epochs: cannot read 'two' as an integer"),
    ("train.epochs=2.5", "train.epochs: expected an integer, got 2.5"),
    ("model.freeze_word_embeddings=1", "model.freeze_word_embeddings: expected true or false"),
    ("train.nope=1", "train.nope: unknown key"),
    ("nope.epochs=1", "nope.epochs: unknown key"),
    ("train.epochs", "expected key=value"),
]


@pytest.mark.parametrize("item,message", BAD_SETS)
def test_bad_set_names_the_key_and_what_is_wrong(item, message):
    with pytest.raises(ConfigError, match=r"^error\[E005\]: --set: ") as err:
        load_config(None, [item])
    assert message in str(err.value)


BAD_TOMLS = [
    ("data = 5\n", "data: expected a table of keys, got 5"),
    ("[model]\nwindow = \"256\"\n", "model.window: expected an integer, got '256'"),
    ("[train]\nthreads = 0\n", "train.threads: must be at least 1, got 0"),
    ("[colours]\nred = 1\n", "[colours]: unknown section"),
    ("[model]\nhead = \"crf\"\n", "model.head: must be one of"),
    ("[model.heads.span]\nspan_hidden = 0\n", "model.heads.span.span_hidden: must be at least 1, got 0"),
    ("[model]\nheads = 3\n", "model.heads: expected a table of keys, got 3"),
    ("[data]\ndev_groups = \"g\"\n", "data.dev_groups: expected a list of strings"),
    ("[train\n", "invalid TOML"),
]


@pytest.mark.parametrize("text,message", BAD_TOMLS)
def test_bad_toml_names_the_file_and_the_key(tmp_path, text, message):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(ConfigError) as err:
        load_config(path, [])
    assert str(err.value).startswith(f"error[E005]: {path}: ") and message in str(err.value)


def test_head_settings_written_flat_in_model_as_before_still_read(tmp_path):
    """Before each head declared its settings, they were keys of [model] itself: old TOML
    files, model.json files and --set items still name them so, and land in the head's table."""
    path = tmp_path / "old.toml"
    path.write_text('[model]\nhead = "span_finetune"\nmax_span_width = 4\nsegmentation = "random"\ncnn_filters = 8\n')
    cfg = load_config(path, ["model.span_hidden=32", "model.cnn_layers=2"])
    assert vars(cfg.model.heads["span"]) == {"max_span_width": 4, "span_hidden": 32}
    assert cfg.model.head_settings == cfg.model.heads["span_finetune"]
    assert (cfg.model.head_settings.segmentation, cfg.model.head_settings.cnn_filters,
            cfg.model.head_settings.cnn_layers) == ("random", 8, 2)
    # Saved (model.json) in the new shape, with its own head's settings only: read back the same.
    saved = cfg.to_dict()["model"]
    assert saved["heads"] == {"span_finetune": vars(cfg.model.head_settings)} and "cnn_filters" not in saved
    assert Config.from_dict(cfg.to_dict()).model.head_settings == cfg.model.head_settings
    with pytest.raises(ConfigError, match=r"old.toml: model.cnn_kernel: expected an integer, got '3'"):
        Config.from_dict({"model": {"cnn_kernel": "3"}}, str(path))


def test_the_shipped_models_json_of_flat_head_keys_reads_as_the_defaults():
    from sciner.model.store import DEFAULT_MODEL, load_model_meta

    cfg, meta, _ = load_model_meta(DEFAULT_MODEL)
    assert "max_span_width" in meta["config"]["model"]  # written before the heads had tables
    assert cfg.model == Config().model


def test_a_file_value_is_never_coerced_from_a_string():
    with pytest.raises(ConfigError, match="model.window: expected an integer"):
        Config.from_dict({"model": {"window": "256"}}, "model.json")
    assert Config.from_dict({"model": {"window": 128}}, "model.json").model.window == 128


def test_a_set_can_repair_a_file_value_only_if_the_result_is_valid(tmp_path):
    path = tmp_path / "small.toml"
    path.write_text("[model]\nwindow = 128\n[train]\nbatch_subwords = 128\n")
    assert load_config(path, []).model.window == 128
    with pytest.raises(ConfigError, match="--set: train.batch_subwords: must be at least model.window"):
        load_config(path, ["model.window=512"])


@pytest.mark.parametrize("item,message", [
    ("pretrain.steps=0", "pretrain.steps: must be at least 1"),
    ("pretrain.seq_len=4", "pretrain.seq_len: must be at least 8"),
    ("pretrain.mask_ratio=1", "pretrain.mask_ratio: must be in (0, 1)"),
    ("train.threads=0", "train.threads: must be at least 1"),
    ("pretrain.steps=\"10\"", "pretrain.steps: expected an integer, got '10'"),
    ("pretrain.colour=red", "pretrain.colour: unknown key"),
    ("num_threads=1", "num_threads: unknown key (expected section.key with section one of data, model, train, "
                      "pretrain, distill; this one is train.threads)"),
])
def test_bad_pretrain_set(item, message):
    with pytest.raises(ConfigError, match=r"^error\[E005\]: --set: ") as err:
        load_config(None, [item])
    assert message in str(err.value)


def test_bad_pretrain_toml_names_the_file(tmp_path):
    path = tmp_path / "p.toml"
    path.write_text("[pretrain]\nsteps = \"2000\"\n")
    with pytest.raises(ConfigError, match=f"^error\\[E005\\]: {path}: pretrain.steps: expected an integer"):
        load_config(path, [])
