"""``sciner info``: what a model is, for the shipped model and for one trained here."""

from __future__ import annotations

import json

import pytest

import sciner
from sciner.labels import BIO_TAGS, ENTITY_TYPES
from sciner.model.store import DEFAULT_MODEL
from sciner.provenance import git_commit

from helpers.training import tiny_config


def test_info_on_the_shipped_model(cli):
    result = cli("info")
    assert result.returncode == 0, result.stderr
    text = result.stdout
    assert "encoder       all-MiniLM-L6-v2, head bio" in text
    assert "31,540 paragraphs, 1,185,660 tokens" in text
    assert f"running       sciner {sciner.__version__}, commit {git_commit()}" in text
    # Trained before the version was recorded by training; its tree declared 0.1.0 (issue 23: not "sciner unknown").
    assert "trained with  sciner 0.1.0, commit unknown (trained from the working tree" in text
    # Per type: training-time dev scores, the calibration's cross-fitted F1 and the bias.
    assert "calibrated F1" in text and "MethodName             0.7441 0.6901 0.7161     2414" in text
    # ... and with the paper-level pass `sciner predict` runs: README's headline micro F1.
    meta = json.loads((DEFAULT_MODEL / "model.json").read_text())
    paper = meta["calibration"]["paper_level"]["dev_cross_fitted"]
    micro = next(line for line in text.splitlines() if line.startswith("micro "))
    assert "paper-level F1" in text and micro.split()[-1] == f"{paper['micro']['f1']:.4f}" == "0.6403"


def test_info_json_is_the_same_facts(cli):
    facts = json.loads(cli("info", "--json").stdout)
    meta = json.loads((DEFAULT_MODEL / "model.json").read_text())
    assert facts["entity_types"] == list(ENTITY_TYPES) and facts["labels"] == list(BIO_TAGS)
    assert facts["dev_scores"] == meta["dev_scores"]
    assert facts["calibration"]["type_bias"] == meta["type_bias"]
    assert facts["calibration"]["dev_cross_fitted"] == meta["calibration"]["dev_cross_fitted"]
    assert facts["training"]["dev_groups"] == meta["dev_groups"]
    assert facts["files"] == {f.name: f.stat().st_size for f in DEFAULT_MODEL.iterdir()}
    assert facts["running"] == {"version": sciner.__version__, "git_commit": git_commit()}


def test_info_on_a_model_that_records_no_provenance_says_so(cli, tmp_path):
    import shutil

    folder = tmp_path / "old-model"
    shutil.copytree(DEFAULT_MODEL, folder)
    meta = json.loads((folder / "model.json").read_text())
    del meta["sciner_version"], meta["git_commit"]
    (folder / "model.json").write_text(json.dumps(meta))
    assert "trained with  sciner not recorded, commit not recorded" in cli("info", str(folder)).stdout


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory, tiny_encoder_dir, tiny_data):
    from sciner.training.train import train

    out = tmp_path_factory.mktemp("info-model")
    train(tiny_config(tiny_encoder_dir, tiny_data, "bio", epochs=1, max_batches_per_epoch=2), out,
          show_progress=False)
    return out


def test_info_on_a_model_trained_here_names_this_sciner_and_no_calibration(cli, tiny_model, tiny_encoder_dir):
    facts = json.loads(cli("info", tiny_model, "--json").stdout)
    assert facts["trained_with"] == facts["running"]  # a model trained now records this code
    assert facts["encoder"] == str(tiny_encoder_dir) and facts["calibration"] is None
    assert facts["training"]["dev_groups"] == ["group_c"] and facts["training"]["train_paragraphs"] > 0
    assert set(facts["files"]) >= {"model.json", "weights.safetensors", "history.json"}
    text = cli("info", tiny_model).stdout
    assert "dev scores" in text and "calibrated F1" not in text


def test_info_on_a_folder_that_is_no_model_is_one_line(cli, tmp_path):
    result = cli("info", tmp_path)
    assert result.returncode == 5
    assert result.stderr == f"error[E004]: {tmp_path}: not a sciner model: model.json is missing\n"
