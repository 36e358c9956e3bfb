"""A head defined and registered in this module, and nowhere else, is configured, trained and
used for tagging through the command line, like the built-in ones."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import ClassVar

import pytest
import torch
from torch import nn

from sciner.config import Rule, at_least
from sciner.head_registry import HEADS, register_head
from sciner.model.heads.bio import BIOHead


@dataclass
class HiddenLayerSettings:
    # Size of the head's own hidden layer ([model.heads.hidden_bio] hidden).
    hidden: int = 16

    RULES: ClassVar[dict[str, Rule]] = {"hidden": at_least(1)}


class HiddenLayerBIOHead(BIOHead):
    """BIO tags through a hidden layer of its own size; loss and Viterbi decoding are BIOHead's."""

    def __init__(self, dim: int, hidden: int, dropout: float) -> None:
        super().__init__(hidden, dropout)
        self.hidden = nn.Linear(dim, hidden)

    @classmethod
    def build(cls, cfg, dim):  # type: ignore[no-untyped-def]
        return cls(dim, cfg.head_settings.hidden, cfg.dropout)

    def forward(self, words: torch.Tensor) -> torch.Tensor:
        return super().forward(torch.tanh(self.hidden(words)))


register_head("hidden_bio", HiddenLayerBIOHead, settings=HiddenLayerSettings, scores_tags=True)


@pytest.fixture(scope="module", autouse=True)
def _unregister_after_this_module():
    # The registry is global: later test modules see only the built-in heads.
    yield
    HEADS.pop("hidden_bio", None)


def tiny_training(encoder, *extra: str) -> list[str]:
    """``--set`` items of a run of seconds over the tiny encoder (test_train_and_tag.tiny_config's,
    with a larger head step and one more epoch: a hidden layer learns slower)."""
    items = [f"model.encoder={encoder}", "model.window=32", "model.window_overlap=8",
             "model.freeze_word_embeddings=false", 'data.dev_groups=["group_c"]', "train.epochs=3",
             "train.batch_subwords=512", "train.lr=2e-3", "train.head_lr=1e-2", "train.threads=1", *extra]
    return [arg for item in items for arg in ("--set", item)]


def test_a_head_registered_here_trains_and_tags_through_the_cli(cli, tmp_path, tiny_encoder_dir, tiny_data):
    out = tmp_path / "model"
    trained = cli("train", *tiny_training(tiny_encoder_dir, "model.head=hidden_bio", "model.heads.hidden_bio.hidden=24"),
                  "--data", tiny_data, "-o", out, "-q")
    assert trained.returncode == 0, trained.stderr
    meta = json.loads((out / "model.json").read_text())
    assert meta["config"]["model"]["head"] == "hidden_bio"
    assert meta["config"]["model"]["heads"]["hidden_bio"] == {"hidden": 24}
    assert meta["dev_scores"]["micro"]["f1"] > 0.3  # it learns the synthetic task (random tags score ~0)

    text = tmp_path / "in.txt"
    text.write_text("We use BERT on SQuAD .\n", encoding="utf-8")
    tagged = cli("predict", text, "-m", out, "-q", "--device", "cpu", "--precision", "fp32")
    assert tagged.returncode == 0, tagged.stderr
    assert [line.split("\t")[0] for line in tagged.stdout.splitlines() if "\t" in line] == \
        ["We", "use", "BERT", "on", "SQuAD", "."]

    # The head scores BIO tags (its spec says so): the log-probabilities calibration reads exist.
    from sciner.inference.tagger import Tagger

    log_probs = Tagger.load(out, precision="fp32").log_probs([["We", "use", "BERT"]])
    assert log_probs[0].shape == (3, len(meta["labels"]))


def test_a_model_of_another_head_records_only_its_own_heads_settings():
    """Regression: every registered head's settings went into model.json, so a BIO model
    trained while this module's head was registered could not be read without it."""
    from sciner.config import Config

    cfg = Config()
    assert "hidden_bio" in cfg.model.heads
    Config.from_dict(cfg.to_dict())  # reads back
    assert list(cfg.to_dict()["model"]["heads"]) == [cfg.model.head]


def test_its_setting_is_checked_by_its_own_rule(cli):
    refused = cli("train", "--set", "model.head=hidden_bio", "--set", "model.heads.hidden_bio.hidden=0")
    assert refused.returncode != 0
    assert refused.stderr == "error[E005]: --set: model.heads.hidden_bio.hidden: must be at least 1, got 0\n"


def test_one_call_registers_a_head_by_class_or_by_path_as_the_built_in_ones_are():
    """One way to register a head, the built-in ones included: register_head(name, network, ...),
    the network a Head class (this module's) or its "module:Class" path (the built-in ones, so
    that the config reads the registry without importing torch: test_heads.py checks that)."""
    from sciner.config import Config, load_config
    from sciner.errors import ConfigError

    assert HEADS["hidden_bio"].network is HiddenLayerBIOHead
    assert HEADS["bio"].network == "sciner.model.heads.bio:BIOHead" and HEADS["bio"].head_class() is BIOHead
    spec = register_head("by_path", "sciner.model.heads.bio:BIOHead", settings=HiddenLayerSettings, scores_tags=True)
    try:
        assert HEADS["by_path"] is spec and spec.head_class() is BIOHead
        assert Config().model.heads["by_path"] == HiddenLayerSettings()
        with pytest.raises(ConfigError, match="model.heads.by_path.hidden: must be at least 1, got 0"):
            load_config(None, ["model.head=by_path", "model.heads.by_path.hidden=0"])
    finally:
        del HEADS["by_path"]
