"""Per-type decision biases: decoding with them, fitting them, keeping only stable ones,
applying them from model.json, and ``sciner calibrate`` end to end."""

from __future__ import annotations

import json
import random
import shutil
import sys

import numpy as np
import pytest

from sciner.inference.calibrate import CalibrateConfig, cross_fitted_tags, decode_with_bias, fit_bias
from sciner.evaluate.metrics import count_entities
from sciner.labels import BIO_TAGS

from helpers.training import tiny_config

CFG = CalibrateConfig(low=-1.0, high=3.0, step=0.5, refine=0.25, batch=8)


def synthetic(n: int, shift: dict[str, float], seed: int) -> tuple[list[np.ndarray], list[list[str]]]:
    """Gold paragraphs and noisy log-probabilities that favour the gold tags, with each type's
    B-/I- scores lowered by ``shift`` (a model that under-predicts that type)."""
    rng = random.Random(seed)
    gen = np.random.default_rng(seed)
    log_probs, gold = [], []
    for _ in range(n):
        tags: list[str] = []
        while len(tags) < 12:
            etype = rng.choice(["TaskName", "MethodName", None, None])
            if etype is None:
                tags.append("O")
            else:
                tags += [f"B-{etype}"] + [f"I-{etype}"] * rng.randint(0, 2)
        logits = gen.normal(0.0, 1.0, (len(tags), len(BIO_TAGS))).astype(np.float32)
        for i, t in enumerate(tags):
            logits[i, BIO_TAGS.index(t)] += 2.0
        for j, t in enumerate(BIO_TAGS):
            if t != "O":
                logits[:, j] -= shift.get(t[2:], 0.0)
        log_probs.append(logits - np.log(np.exp(logits).sum(axis=1, keepdims=True)))
        gold.append(tags)
    return log_probs, gold


def type_f1(gold, pred, etype):
    return count_entities(gold, pred)[etype].f1


def test_a_large_bias_turns_every_word_into_that_type():
    log_probs, _ = synthetic(5, {}, seed=0)
    tags = decode_with_bias(log_probs, {"TaskName": 100.0}, batch=2)
    assert all(t.endswith("TaskName") for para in tags for t in para)
    assert [len(t) for t in tags] == [len(lp) for lp in log_probs]


def test_fit_bias_undoes_an_under_prediction():
    log_probs, gold = synthetic(80, {"TaskName": 2.0}, seed=1)
    bias = fit_bias(log_probs, gold, CFG, ["TaskName", "MethodName"])
    assert bias["TaskName"] >= 1.0
    assert abs(bias["MethodName"]) <= 0.5
    before = type_f1(gold, decode_with_bias(log_probs, {}, 8), "TaskName")
    after = type_f1(gold, decode_with_bias(log_probs, bias, 8), "TaskName")
    assert after > before + 0.05


def test_cross_fitting_decodes_each_group_with_biases_fit_on_the_others_only():
    # MethodName is under-predicted in group "a" only: a's own fit would raise it, the others' does not.
    parts = [synthetic(40, {"TaskName": 2.0, "MethodName": 2.5 if g == "a" else 0.0}, seed=s)
             for s, g in enumerate("abc")]
    log_probs = [lp for part in parts for lp in part[0]]
    gold = [t for part in parts for t in part[1]]
    groups = [g for g, part in zip("abc", parts) for _ in part[1]]
    tags, used = cross_fitted_tags(log_probs, gold, groups, CFG)
    for g in "abc":
        rest = [i for i, x in enumerate(groups) if x != g]
        assert used[g] == fit_bias([log_probs[i] for i in rest], [gold[i] for i in rest], CFG)
        mine = [i for i, x in enumerate(groups) if x == g]
        assert [tags[i] for i in mine] == decode_with_bias([log_probs[i] for i in mine], used[g], CFG.batch)
    assert abs(used["a"]["MethodName"]) <= 0.5 < fit_bias(parts[0][0], parts[0][1], CFG)["MethodName"]


def test_model_json_type_bias_is_applied(tmp_path, tiny_model):
    from sciner.errors import ModelError
    from sciner.inference.tagger import Tagger

    model = tmp_path / "biased"
    shutil.copytree(tiny_model, model)
    meta = json.loads((model / "model.json").read_text())
    meta["type_bias"] = {"TaskName": 100.0}
    (model / "model.json").write_text(json.dumps(meta))
    tagged = Tagger.load(model).tag([["We", "evaluate", "BERT", "on", "SQuAD", "."]])[0]
    assert all(t.endswith("TaskName") for t in tagged.tags)
    meta["type_bias"] = {"Colour": 1.0}
    (model / "model.json").write_text(json.dumps(meta))
    with pytest.raises(ModelError, match="Colour"):
        Tagger.load(model)


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory, tiny_encoder_dir, tiny_data):
    from sciner.training.train import train

    cfg = tiny_config(tiny_encoder_dir, tiny_data, "bio", epochs=1)
    cfg.data.dev_groups = ["group_b", "group_c"]  # two dev groups, so that biases can be cross-fitted
    out = tmp_path_factory.mktemp("calib-model")
    train(cfg, out, show_progress=False)
    return out


def test_calibrate_cli_writes_type_bias_and_reports_cross_fitted_scores(cli, tmp_path, tiny_model, tiny_data):
    out = tmp_path / "calibrated"
    result = cli("calibrate", tiny_model, "-o", out, "--data", tiny_data, "--threads", "1")
    assert result.returncode == 0, result.stderr
    assert "cross-fitted" in result.stdout and "micro" in result.stdout
    meta = json.loads((out / "model.json").read_text())
    assert isinstance(meta["type_bias"], dict)
    assert set(meta["calibration"]["cross_fitted_biases"]) == {"group_b", "group_c"}
    assert not json.loads((tiny_model / "model.json").read_text()).get("type_bias"), "the input model is untouched"
    assert sorted(p.name for p in out.iterdir()) == ["model.json", "weights.safetensors"]


def test_calibrate_from_python_saves_a_model_not_the_training_run(tmp_path, tiny_model, tiny_data):
    """Regression (issue 23): ``calibrate -o`` copied the whole training folder, checkpoint.pt
    (optimizer state) and history.json included, into the new model."""
    import sciner
    from sciner.inference.tagger import Tagger

    assert "history.json" in {p.name for p in tiny_model.iterdir()}, "what training leaves"
    done = sciner.calibrate(tiny_model, tmp_path / "calibrated", data=tiny_data, threads=1, show_progress=False)
    assert done.path == tmp_path / "calibrated" and set(done.dev_groups) == {"group_b", "group_c"}
    assert sorted(p.name for p in done.path.iterdir()) == ["model.json", "weights.safetensors"]
    assert (done.path / "weights.safetensors").read_bytes() == (tiny_model / "weights.safetensors").read_bytes()
    meta = json.loads((done.path / "model.json").read_text())
    assert meta["type_bias"] == done.type_bias and meta["calibration"]["dev_groups"] == done.dev_groups
    assert "micro" in done.table() and Tagger.load(done.path).meta["type_bias"] == done.type_bias


def test_decoding_log_probs_with_the_model_bias_gives_what_tag_gives(shipped_tagger):
    from sciner.inference.calibrate import DEFAULT

    tagger = shipped_tagger  # the shipped model (the session's, in fp32), calibrated
    assert tagger.meta.get("type_bias"), "the shipped model is calibrated"
    paragraphs = [
        "We fine-tune BERT-large on SQuAD 1.1 with a learning rate of 3e-5 and report 93.2 F1 .".split(),
        "Named entity recognition and relation extraction are evaluated on SciERC .".split(),
        "Our summarization model improves ROUGE-L by 2 points over PEGASUS on XSum and CNN / DailyMail .".split(),
        [],
    ]
    expected = [p.tags for p in tagger.tag(paragraphs)]
    assert decode_with_bias(tagger.log_probs(paragraphs), tagger.meta["type_bias"], DEFAULT.batch) == expected


def test_calibrate_refuses_a_model_without_the_bio_head(tmp_path, tiny_encoder_dir, monkeypatch, capsys):
    from sciner.cli import main
    from sciner.config import Config
    from sciner.model.store import build_model, save_model

    cfg = Config()
    cfg.model.encoder = str(tiny_encoder_dir)
    cfg.model.head = "span"
    save_model(build_model(cfg.model), tmp_path / "span", {"labels": list(BIO_TAGS), "config": cfg.to_dict()})
    monkeypatch.setattr(sys, "argv", ["sciner", "calibrate", str(tmp_path / "span")])
    with pytest.raises(SystemExit) as stop:
        main()
    assert stop.value.code == 5
    assert capsys.readouterr().err == f"error[E004]: {tmp_path / 'span'}: calibrate needs a BIO model, not head 'span'\n"


def test_a_copied_model_takes_the_encoder_kept_inside_it(tmp_path, tiny_model, tiny_encoder_dir):
    """copy_model (calibrate -o): an encoder folder inside the model folder travels with the
    copy, which names it relatively and tags after the original is gone."""
    import json
    import shutil

    from sciner.inference.tagger import Tagger
    from sciner.model.store import CARRIED_ENCODER, copy_model

    source = tmp_path / "model"
    shutil.copytree(tiny_model, source)
    shutil.copytree(tiny_encoder_dir, source / "my-encoder")
    meta = json.loads((source / "model.json").read_text())
    meta["config"]["model"]["encoder"] = str(source / "my-encoder")
    (source / "model.json").write_text(json.dumps(meta))
    expected = Tagger.load(source, precision="fp32").tag([["We", "use", "BERT", "."]])[0].tags

    copy_model(source, tmp_path / "copy")
    shutil.rmtree(source)
    copied = json.loads((tmp_path / "copy" / "model.json").read_text())
    assert copied["config"]["model"]["encoder"] == CARRIED_ENCODER
    assert sorted(p.name for p in (tmp_path / "copy").iterdir()) == [CARRIED_ENCODER, "model.json", "weights.safetensors"]
    assert Tagger.load(tmp_path / "copy", precision="fp32").tag([["We", "use", "BERT", "."]])[0].tags == expected


def one_dev_group(model, out, group="group_c"):
    """A copy of ``model`` whose recorded dev split is the one group ``group``."""
    shutil.copytree(model, out)
    meta = json.loads((out / "model.json").read_text())
    meta["config"]["data"]["dev_groups"] = [group]
    (out / "model.json").write_text(json.dumps(meta))
    return out


def test_calibrate_with_one_dev_group_says_it_cannot_cross_fit_and_fits_nothing(cli, tmp_path, tiny_model, tiny_data):
    """Regression (issue 35): with one dev group calibrate printed a "cross-fitted" column equal to
    "no bias" and wrote biases fit on that group, as if they had been checked on held-out data."""
    model = one_dev_group(tiny_model, tmp_path / "one-group")
    before = (model / "model.json").read_bytes()
    refused = cli("calibrate", model, "-o", tmp_path / "out", "--data", tiny_data, "--threads", "1")
    assert refused.returncode == 6 and refused.stdout == ""
    assert refused.stderr == (f"error[E005]: {model}: the dev split is 1 group (group_c): biases cannot be "
                              "cross-fitted without 2 or more, so none were fit; --in-sample fits them on it anyway\n")
    assert (model / "model.json").read_bytes() == before and not (tmp_path / "out").exists()


def test_calibrate_in_sample_writes_biases_and_records_it_and_info_says_so(cli, tmp_path, tiny_model, tiny_data):
    model = one_dev_group(tiny_model, tmp_path / "one-group")
    done = cli("calibrate", model, "--in-sample", "--data", tiny_data, "--threads", "1")
    assert done.returncode == 0, done.stderr
    assert "biases fit in-sample on 1 dev group" in done.stdout and "cross-fitted" not in done.stdout
    assert "fitting" in done.stderr  # the progress bar over the fits
    meta = json.loads((model / "model.json").read_text())
    assert isinstance(meta["type_bias"], dict) and "paper_level" not in meta
    calibration = meta["calibration"]
    assert (calibration["fit"], calibration["unit"], calibration["units"]) == ("in-sample", "group", 1)
    assert "dev_cross_fitted" not in calibration and "dev_in_sample" in calibration
    info = cli("info", model).stdout
    assert "calibration   biases fit in-sample on 1 dev group (optimistic scores)" in info
    assert "calibrated F1" not in info and "fit on the others" not in info


def test_calibrate_by_paper_cross_fits_over_the_dev_papers(cli, tmp_path, tiny_model, tiny_data):
    """A run trained on files has a dev split of a few papers: cross-fitting holds out each."""
    data = tmp_path / "data"
    shutil.copytree(tiny_data, data)
    group = data / "annotated" / "group_c"
    paragraphs = [p for f in sorted(group.glob("*.conll")) for p in f.read_text().strip().split("\n\n")]
    for f in group.glob("*.conll"):
        f.unlink()
    half = len(paragraphs) // 2
    (group / "paper-1.conll").write_text("\n\n".join(paragraphs[:half]).strip() + "\n")
    (group / "paper-2.conll").write_text("\n\n".join(paragraphs[half:]).strip() + "\n")
    model = one_dev_group(tiny_model, tmp_path / "one-group")
    done = cli("calibrate", model, "--by", "paper", "--data", data, "--threads", "1", "-q")
    assert done.returncode == 0, done.stderr
    assert done.stderr == "" and "biases cross-fitted over 2 dev papers" in done.stdout
    calibration = json.loads((model / "model.json").read_text())["calibration"]
    assert (calibration["fit"], calibration["unit"], calibration["units"]) == ("cross-fitted", "paper", 2)
    assert sorted(calibration["cross_fitted_biases"]) == sorted(str(group / f"paper-{k}.conll") for k in (1, 2))
    assert "calibration   biases cross-fitted over 2 dev papers" in cli("info", model).stdout


def test_info_on_a_one_group_calibration_written_before_the_fit_was_recorded(cli, tmp_path, tiny_model):
    """Regression (issue 35): info called such biases cross-fitted ("fit on the others")."""
    model = tmp_path / "old"
    shutil.copytree(tiny_model, model)
    meta = json.loads((model / "model.json").read_text())
    meta["type_bias"] = {"TaskName": 0.5}
    meta["calibration"] = {"dev_groups": ["group_c"], "cross_fitted_biases": {"group_c": {"TaskName": 0.0}},
                           "dev_cross_fitted": meta["dev_scores"]}
    (model / "model.json").write_text(json.dumps(meta))
    info = cli("info", model).stdout
    assert "biases fit in-sample on 1 dev group" in info and "calibrated F1" not in info


def test_the_table_reads_a_type_that_only_one_of_its_reports_scores():
    """Regression: a tiny model's cross-fitted tags held a type its uncalibrated tags did not
    (no gold of it either), and the table raised KeyError instead of printing 0 for it."""
    from pathlib import Path

    from sciner.evaluate.metrics import Counts, Report
    from sciner.inference.calibrate import CalibratedModel, Calibration

    before = Report.from_counts({"MethodName": Counts(tp=1, fp=0, fn=1)})
    after = Report.from_counts({"MethodName": Counts(tp=1, fp=0, fn=1), "HyperparameterValue": Counts(tp=0, fp=2, fn=0)})
    calibration = Calibration(gold=[], uncalibrated=[], cross_fitted=[], cross_fitted_bias={},
                              chosen={"HyperparameterValue": -1.0}, in_sample=[])
    done = CalibratedModel(path=Path("m"), dev_groups=["a", "b"], calibration=calibration, unit="group",
                           units=["a", "b"], uncalibrated=before, cross_fitted=after, in_sample=after)
    rows = {line.split()[0]: line.split()[1:] for line in done.table().splitlines()[1:]}
    assert rows["HyperparameterValue"][:3] == ["0.0000", "0.0000", "-1.00"]
    assert rows["MethodName"][:2] == ["0.6667", "0.6667"]
