"""Train tiny models inside the test, save, load, and tag: every token gets exactly one tag."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sciner.formats.spans import find_stray_tags
from sciner.labels import VALID_TAGS
from sciner.inference.tagger import Tagger
from sciner.training.train import train

from helpers.training import tiny_config


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory, tiny_encoder_dir, tiny_data) -> Path:
    out = tmp_path_factory.mktemp("model")
    result = train(tiny_config(tiny_encoder_dir, tiny_data, "bio"), out, show_progress=False)
    assert result.best_epoch >= 1
    return out


def test_training_learns_the_synthetic_task(tiny_model):
    meta = json.loads((tiny_model / "model.json").read_text())
    assert meta["labels"][0] == "O" and meta["seed"] == 13 and meta["dev_groups"] == ["group_c"]
    assert meta["dev_scores"]["micro"]["f1"] > 0.3  # random tags score ~0


@pytest.mark.parametrize("head", ["span", "span_finetune"])
def test_other_heads_train_save_and_load(tmp_path, tiny_encoder_dir, tiny_data, head):
    cfg = tiny_config(tiny_encoder_dir, tiny_data, head, epochs=1, max_batches_per_epoch=5)
    train(cfg, tmp_path, show_progress=False)
    tagger = Tagger.load(tmp_path, precision="fp32")
    out = tagger.tag([["We", "use", "BERT", "on", "SQuAD", "."]])
    assert len(out[0].tags) == 6


def test_same_seed_same_model_and_resume(tmp_path, tiny_encoder_dir, tiny_data):
    cfg = tiny_config(tiny_encoder_dir, tiny_data, "bio", epochs=2, max_batches_per_epoch=4, patience=5)
    a = train(cfg, tmp_path / "a", show_progress=False)
    b = train(cfg, tmp_path / "b", show_progress=False)
    assert a.history[-1]["loss"] == b.history[-1]["loss"]
    # Interrupted after one epoch, then resumed: the same end as the straight run.
    one = tiny_config(tiny_encoder_dir, tiny_data, "bio", epochs=2, max_batches_per_epoch=4, patience=5)
    c_dir = tmp_path / "c"
    import sciner.training.ner as training

    orig = training.length_batches
    calls = {"n": 0}

    def interrupt_second_epoch(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 3:  # 1: count batches, 2: epoch 1, 3: epoch 2
            raise KeyboardInterrupt
        return orig(*args, **kwargs)

    training.length_batches = interrupt_second_epoch
    try:
        with pytest.raises(KeyboardInterrupt):
            train(one, c_dir, show_progress=False)
    finally:
        training.length_batches = orig
    c = train(one, c_dir, resume=True, show_progress=False)
    assert [h["epoch"] for h in c.history] == [1, 2]
    assert c.history[-1]["loss"] == pytest.approx(a.history[-1]["loss"], rel=1e-5)


@given(st.lists(st.lists(st.text(alphabet=st.characters(blacklist_categories=("Zs", "Cc", "Cs", "Zl", "Zp")),
                                 min_size=1, max_size=12), min_size=0, max_size=120), min_size=1, max_size=5))
@settings(max_examples=25, deadline=None)
def test_every_token_gets_exactly_one_valid_tag(tiny_model_tagger, paragraphs):
    out = tiny_model_tagger.tag(paragraphs)
    assert len(out) == len(paragraphs)
    for p, tagged in zip(paragraphs, out):
        assert tagged.tokens == p
        assert len(tagged.tags) == len(p)
        assert all(t in VALID_TAGS for t in tagged.tags)
        assert find_stray_tags(tagged.tags) == []
        for s in tagged.spans:
            assert 0.0 <= s.score <= 1.0


@pytest.fixture(scope="module")
def tiny_model_tagger(tiny_model):
    return Tagger.load(tiny_model)


def test_predict_cli_end_to_end(cli, tmp_path, tiny_model):
    text = tmp_path / "in.txt"
    long_paragraph = " ".join(["We evaluate BERT on SQuAD and report F1 of 88.5 ."] * 60)
    text.write_text("We evaluate BERT on SQuAD .\n\n" + long_paragraph + "\n", encoding="utf-8")
    out = tmp_path / "out.conll"
    proc = cli("predict", text, "-o", out, "-m", tiny_model)
    assert proc.returncode == 0, proc.stderr
    blocks = out.read_text(encoding="utf-8").strip("\n").split("\n\n")
    assert [len(b.splitlines()) for b in blocks] == [6, 660]
    assert [l.split("\t")[0] for l in blocks[1].splitlines()] == long_paragraph.split()
    assert "tagged 666 tokens in 2 paragraphs" in proc.stderr
    jsonl = tmp_path / "out.jsonl"
    proc = cli("predict", out, "-o", jsonl, "-f", "jsonl", "-m", tiny_model, "-q")
    assert proc.returncode == 0, proc.stderr
    rows = [json.loads(l) for l in jsonl.read_text(encoding="utf-8").splitlines()]
    assert [len(r["tokens"]) for r in rows] == [6, 660]


def test_predict_cli_reports_bad_inputs_and_goes_on(cli, tmp_path, tiny_model):
    good = tmp_path / "good.txt"
    good.write_text("We use BERT .\n", encoding="utf-8")
    bad = tmp_path / "bad.conll"
    bad.write_text("BERT\tB-Method\n", encoding="utf-8")
    out = tmp_path / "out.conll"
    proc = cli("predict", good, bad, "-o", out, "-m", tiny_model)
    assert proc.returncode == 9
    assert "Traceback" not in proc.stderr
    assert "bad.conll:1: unknown tag 'B-Method'" in proc.stderr
    assert "1 input(s) failed" in proc.stderr
    assert len(out.read_text(encoding="utf-8").strip().splitlines()) == 4
    proc = cli("predict", tmp_path / "missing.txt", "-m", tiny_model)
    assert proc.returncode == 8 and proc.stderr.strip().startswith("error[E007]")


def test_dev_scores_of_training_are_what_predict_and_evaluate_give(tiny_model, tiny_encoder_dir, tiny_data):
    """Training scores dev through the same encoder path as `sciner predict`: the saved model,
    tagged with Tagger.tag and scored with classification_report, gets the scores in model.json."""
    from sciner.data.assemble import assemble
    from sciner.evaluate.metrics import classification_report

    meta = json.loads((tiny_model / "model.json").read_text())
    cfg = tiny_config(tiny_encoder_dir, tiny_data, "bio")
    dev = assemble(cfg.data, seed=cfg.train.seed).dev
    tagged = Tagger.load(tiny_model, precision="fp32").tag(dev)
    report = classification_report([p.tags for p in dev], [p.tags for p in tagged]).to_dict()
    assert report == meta["dev_scores"]
    assert 0.3 < report["micro"]["f1"] < 1.0  # a model that tags some entities, not all of them right
