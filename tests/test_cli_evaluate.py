"""`sciner evaluate` and `sciner compare` end to end, through the console script's ``main()``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

GOLD = """\
We\tO
fine-tune\tO
BERT\tB-MethodName
on\tO
SQuAD\tB-DatasetName
v1.1\tI-DatasetName
.\tO

Accuracy\tB-MetricName
is\tO
91.2\tB-MetricValue
on\tO
question\tB-TaskName
answering\tI-TaskName
"""

# One MethodName right, the dataset cut short, the metric missed, the task right, one false TaskName.
PRED = """\
We\tO
fine-tune\tO
BERT\tB-MethodName
on\tO
SQuAD\tB-DatasetName
v1.1\tO
.\tO

Accuracy\tO
is\tO
91.2\tB-MetricValue
on\tB-TaskName
question\tB-TaskName
answering\tI-TaskName
"""

TRAIN = "BERT\tB-MethodName\nis\tO\ngood\tO\n"


@pytest.fixture
def run(cli):
    """``sciner ARGS`` in-process (conftest's ``cli``): returncode, stdout, stderr."""
    return cli


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    paths = {"gold": tmp_path / "gold.conll", "pred": tmp_path / "pred.conll", "train": tmp_path / "train.conll"}
    paths["gold"].write_text(GOLD, encoding="utf-8")
    paths["pred"].write_text(PRED, encoding="utf-8")
    paths["train"].write_text(TRAIN, encoding="utf-8")
    return paths


def test_evaluate_json(run, files):
    result = run("evaluate", files["gold"], files["pred"], "--json", "--train", files["train"])
    assert result.returncode == 0, result.stderr
    d = json.loads(result.stdout)
    assert set(d) == {"micro", "macro", "per_type", "analysis"}
    # gold 5 entities, predicted 5, correct 3 (BERT, 91.2, question answering)
    assert d["micro"] == {"precision": 0.6, "recall": 0.6, "f1": pytest.approx(0.6)}
    assert d["per_type"]["MethodName"] == {"precision": 1.0, "recall": 1.0, "f1": 1.0, "support": 1}
    assert d["per_type"]["TaskName"] == {"precision": 0.5, "recall": 1.0, "f1": pytest.approx(2 / 3), "support": 1}
    assert d["per_type"]["MetricName"]["support"] == 1 and d["per_type"]["MetricName"]["recall"] == 0.0
    assert d["macro"]["f1"] == pytest.approx((1 + 0 + 1 + 2 / 3 + 0) / 5)
    analysis = d["analysis"]
    assert set(analysis["by_length"]) == {"1", "2", "3", "4+"}
    assert analysis["by_length"]["2"]["support"] == 2  # SQuAD v1.1, question answering
    assert set(analysis["by_casing"]) == {"lower", "capitalised", "all_caps", "contains_digit"}
    assert analysis["by_casing"]["contains_digit"]["support"] == 2  # SQuAD v1.1, 91.2
    assert analysis["by_training"]["seen"] == {"precision": 1.0, "recall": 1.0, "f1": 1.0, "support": 1}
    assert analysis["by_training"]["unseen"]["support"] == 4


def test_evaluate_table(run, files):
    result = run("evaluate", files["gold"], files["pred"])
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "2 paragraphs, 13 tokens" in lines
    header = next(l for l in lines if l.startswith("entity type"))
    assert header.split() == ["entity", "type", "precision", "recall", "f1", "support"]
    method = next(l for l in lines if l.startswith("MethodName"))
    assert method.split() == ["MethodName", "1.0000", "1.0000", "1.0000", "1"]
    micro = next(l for l in lines if l.startswith("micro avg"))
    assert micro.split()[2:] == ["0.6000", "0.6000", "0.6000", "5"]
    assert len(method) == len(micro) == len(header)  # aligned columns
    assert any(l.startswith("by casing") for l in lines)
    assert not any(l.startswith("by presence in the training file") for l in lines)


def test_evaluate_conlleval(run, files):
    result = run("evaluate", files["gold"], files["pred"], "--format", "conlleval")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "processed 13 tokens with 5 phrases; found: 5 phrases; correct: 3."
    assert lines[1] == "accuracy:  76.92%; precision:  60.00%; recall:  60.00%; FB1:  60.00"
    assert lines[2] == "      DatasetName: precision:   0.00%; recall:   0.00%; FB1:   0.00  1"
    assert "         TaskName: precision:  50.00%; recall: 100.00%; FB1:  66.67  2" in lines


def test_evaluate_reads_jsonl_predictions(run, files, tmp_path):
    from sciner.formats.conll import read_conll
    from sciner.formats.jsonl import write_jsonl

    jsonl = tmp_path / "pred.jsonl"
    write_jsonl(read_conll(files["pred"]), jsonl)
    from_conll = json.loads(run("evaluate", files["gold"], files["pred"], "--json").stdout)
    from_jsonl = json.loads(run("evaluate", files["gold"], jsonl, "--json").stdout)
    assert from_jsonl == from_conll


def test_stray_i_is_read_as_an_entity_start(run, files, tmp_path):
    stray = tmp_path / "stray.conll"
    stray.write_text(GOLD.replace("BERT\tB-MethodName", "BERT\tI-MethodName"), encoding="utf-8")
    d = json.loads(run("evaluate", files["gold"], stray, "--json").stdout)
    assert d["micro"]["f1"] == 1.0


def test_compare_json(run, files, tmp_path):
    result = run("compare", files["gold"], files["gold"], files["pred"], "--json", "--samples", "200", "--seed", "1")
    assert result.returncode == 0, result.stderr
    d = json.loads(result.stdout)
    assert set(d) == {"delta", "ci95", "p_value", "per_type", "resampled", "units"}
    assert d["delta"] == pytest.approx(1.0 - 0.6)
    assert len(d["ci95"]) == 2 and d["ci95"][0] <= d["delta"] <= d["ci95"][1]
    assert 0.0 <= d["p_value"] <= 1.0
    assert d["per_type"]["MethodName"]["delta"] == 0.0
    again = run("compare", files["gold"], files["gold"], files["pred"], "--json", "--samples", "200", "--seed", "1")
    assert json.loads(again.stdout) == d


def test_compare_table(run, files):
    result = run("compare", files["gold"], files["pred"], files["pred"], "--samples", "50")
    assert result.returncode == 0, result.stderr
    micro = next(l for l in result.stdout.splitlines() if l.startswith("micro"))
    assert micro.split() == ["micro", "0.6000", "0.6000", "+0.0000", "[", "+0.0000,", "+0.0000]", "1.0000"]


def test_help_mentions_stray_i(run):  # the example ending every help: tests/test_cli_app.py
    for verb in ("evaluate", "compare"):
        result = run(verb, "--help")
        assert result.returncode == 0
        assert "stray I-" in " ".join(result.stdout.split())


# -- bad input: one line on stderr, no traceback, a distinct exit code ------------------------------


def assert_user_error(result, code: str, exit_code: int, *fragments: str) -> None:
    assert result.returncode == exit_code, (result.returncode, result.stderr)
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(f"error[{code}]: ")
    for fragment in fragments:
        assert fragment in lines[0]
    assert result.stdout == ""


def test_wrong_column_count(run, files, tmp_path):
    bad = tmp_path / "bad.conll"
    bad.write_text(PRED.replace("is\tO", "is\tO\textra"), encoding="utf-8")
    assert_user_error(run("evaluate", files["gold"], bad), "E001", 3, f"{bad}:10:", "found 3 columns")


def test_unknown_tag(run, files, tmp_path):
    bad = tmp_path / "bad.conll"
    bad.write_text(PRED.replace("B-MetricValue", "B-Metric"), encoding="utf-8")
    assert_user_error(run("evaluate", files["gold"], bad), "E001", 3, f"{bad}:11:", "unknown tag 'B-Metric'")


def test_invalid_utf8(run, files, tmp_path):
    bad = tmp_path / "bad.conll"
    bad.write_bytes(PRED.replace("We\t", "Caf\u00e9\t").encode("latin-1"))
    assert_user_error(run("evaluate", bad, files["pred"]), "E001", 3, f"{bad}:1:", "invalid UTF-8")


def test_token_mismatch_names_paragraph_and_token(run, files, tmp_path):
    bad = tmp_path / "bad.conll"
    bad.write_text(PRED.replace("91.2\t", "91.3\t"), encoding="utf-8")
    assert_user_error(
        run("evaluate", files["gold"], bad), "E002", 4, f"{bad}:9: paragraph 2, token 2", "'91.3'", "'91.2'"
    )
    # compare checks each system against gold
    assert_user_error(run("compare", files["gold"], files["pred"], bad), "E002", 4, "paragraph 2, token 2")


def test_paragraph_count_mismatch(run, files, tmp_path):
    short = tmp_path / "short.conll"
    short.write_text(PRED.split("\n\n")[0] + "\n", encoding="utf-8")
    assert_user_error(run("evaluate", files["gold"], short), "E002", 4, "has 1 paragraphs", "has 2")


def test_missing_file(run, files, tmp_path):
    missing = tmp_path / "missing.conll"
    assert_user_error(run("evaluate", files["gold"], missing), "E007", 8, f"{missing}: no such file")
    assert_user_error(run("compare", missing, files["gold"], files["pred"]), "E007", 8, "no such file")


def test_untagged_paragraph_text_is_refused(run, files, tmp_path):
    text = tmp_path / "pred.txt"
    text.write_text("We fine-tune BERT on SQuAD v1.1 .\n", encoding="utf-8")
    assert_user_error(run("evaluate", files["gold"], text), "E001", 3, f"{text}: a text file has no tags")


# -- one reader, one message; folders paired by name; the bootstrap by paper -------------------------


def test_an_empty_token_gets_the_same_message_from_every_verb(run, files, tmp_path):
    """Regression (issue 35.4, 33.8): a line holding only a tag (its token lost) was blamed on
    the paragraph's first line by evaluate ('paragraph has no tags'), and convert read the tag
    as a token and dropped the paragraph's entities without a word."""
    for lost in (" I-DatasetName", "\tI-DatasetName"):
        bad = tmp_path / "bad.conll"
        bad.write_text(GOLD.replace("v1.1\tI-DatasetName", lost), encoding="utf-8")
        message = f"{bad}:6: empty token before the tag 'I-DatasetName'"
        assert_user_error(run("evaluate", bad, files["pred"]), "E001", 3, message)
        assert_user_error(run("compare", bad, files["pred"], files["pred"]), "E001", 3, message)
        assert_user_error(run("convert", bad, tmp_path / "out.jsonl"), "E001", 3, message)
        assert not (tmp_path / "out.jsonl").exists()
        assert_user_error(run("train", bad, files["gold"], files["pred"], "-o", tmp_path / "run", "--device", "cpu"),
                          "E001", 3, message)
        data = tmp_path / "data" / "annotated" / "mine"
        data.mkdir(parents=True, exist_ok=True)
        (data / "paper.conll").write_text(bad.read_text(encoding="utf-8"), encoding="utf-8")
        assert_user_error(run("data", "stats", "--data", tmp_path / "data", "--set", 'data.dev_groups=["mine"]'),
                          "E001", 3, f"{data / 'paper.conll'}:6: empty token before the tag 'I-DatasetName'")


def test_a_token_only_line_in_a_tagged_file_is_refused_not_read_as_text(run, files, tmp_path):
    bad = tmp_path / "bad.conll"
    bad.write_text(GOLD.replace("v1.1\tI-DatasetName", "v1.1"), encoding="utf-8")
    assert_user_error(run("convert", bad, tmp_path / "out.jsonl"), "E001", 3,
                      f"{bad}:6: found 1 column ('v1.1'), expected 2 columns (token, tag)")


def test_folders_are_paired_by_name_and_the_bootstrap_resamples_their_papers(run, files, tmp_path):
    """Regression (issue 33.8): `evaluate gold/ pred/` said 'a text file has no tags'."""
    gold, pred = tmp_path / "gold", tmp_path / "pred"
    gold.mkdir()
    pred.mkdir()
    for name in ("a", "b", "c"):
        (gold / f"{name}.conll").write_text(GOLD, encoding="utf-8")
        (pred / f"{name}.conll").write_text(PRED, encoding="utf-8")
    run("convert", pred / "b.conll", pred / "b.jsonl", "-q")  # predict -o DIR/ may write another format
    (pred / "b.conll").unlink()
    one = json.loads(run("evaluate", files["gold"], files["pred"], "--json").stdout)
    three = json.loads(run("evaluate", gold, pred, "--json").stdout)
    assert three["micro"] == one["micro"] and three["per_type"]["MethodName"]["support"] == 3
    compared = json.loads(run("compare", gold, pred, gold, "--json", "--samples", "20").stdout)
    assert (compared["resampled"], compared["units"]) == ("paper", 3)
    table = run("compare", files["gold"], files["pred"], files["gold"], "--samples", "20").stdout
    assert "resampling 2 paragraphs (no papers known" in table
    (pred / "c.conll").unlink()
    assert_user_error(run("evaluate", gold, pred), "E007", 8, f"{pred}: no file named like gold {gold / 'c.conll'}")
