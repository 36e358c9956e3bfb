"""The summary's entity names: the shipped gazetteer (the same names from any folder, a user's
``--data`` adding to it) and the rules that clean a paper's entity list, each on a real
example from ../shared/data."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sciner.document import Paragraph, Span
from sciner.summary.names import SHIPPED_GAZETTEER, Gazetteer

# A tagged paper whose names the gazetteer spells otherwise ("F 1" -> "F1", "BiLSTM" -> "Bi-LSTM").
PAPER = [{"tokens": "A BiLSTM reaches 91.2 F 1 on CoNLL-2003 .".split(),
          "entities": [{"type": "MethodName", "start": 1, "end": 2}, {"type": "MetricValue", "start": 3, "end": 4},
                       {"type": "MetricName", "start": 4, "end": 6}, {"type": "DatasetName", "start": 7, "end": 8}]}]


def tagged(text: str, *entities: tuple[str, int, int]) -> Paragraph:
    return Paragraph(text.split(), spans=[Span(label, start, end) for label, start, end in entities])


def names(summary: dict) -> set[tuple[str, str]]:
    return {(e["type"], e["name"]) for paper in summary["papers"] for e in paper["entities"]}


@pytest.fixture
def paper(tmp_path: Path) -> Path:
    path = tmp_path / "in" / "paper.jsonl"
    path.parent.mkdir()
    path.write_text("".join(json.dumps(row) + "\n" for row in PAPER), encoding="utf-8")
    return path


def test_the_package_ships_its_gazetteer():
    assert SHIPPED_GAZETTEER.is_file() and SHIPPED_GAZETTEER.stat().st_size < 1_000_000
    gazetteer = Gazetteer()
    assert gazetteer.canonical("MetricName", "F 1") == "F1"
    assert gazetteer.canonical("MethodName", "BiLSTM") == "Bi-LSTM"
    assert Gazetteer.empty().canonical("MetricName", "F 1") is None


def test_summarize_gives_the_same_names_from_any_folder(cli, paper, tmp_path, monkeypatch):
    """Issue 33 item 1: the gazetteers were read at ../shared/data from the current folder."""
    monkeypatch.delenv("SCINER_DATA", raising=False)
    runs = []
    for cwd in (tmp_path, Path(__file__).resolve().parents[1]):  # elsewhere, the checkout (../shared/data is there)
        monkeypatch.chdir(cwd)
        out = tmp_path / f"summary{len(runs)}.json"
        result = cli("summarize", paper, "-o", out)
        assert result.returncode == 0, result.stderr
        assert "names:" not in result.stderr  # no user's gazetteer: nothing to say
        runs.append(names(json.loads(out.read_text(encoding="utf-8"))))
    assert runs[0] == runs[1]
    assert {("MetricName", "F1"), ("MethodName", "Bi-LSTM")} <= runs[0]


def test_a_users_data_adds_to_the_shipped_names_and_says_so(cli, paper, tmp_path):
    data = tmp_path / "data"
    (data / "gazetteers").mkdir(parents=True)
    (data / "gazetteers" / "leaderboards_datasets.tsv").write_text("dataset\tcount\nCoNLL 2003\t5\n")
    out = tmp_path / "summary.json"
    result = cli("summarize", paper, "-o", out, "--data", data)
    assert result.returncode == 0, result.stderr
    assert f"names: the shipped gazetteer plus 1 names from {data / 'gazetteers'}" in result.stderr
    found = names(json.loads(out.read_text(encoding="utf-8")))
    assert {("DatasetName", "CoNLL 2003"), ("MetricName", "F1")} <= found  # the user's, and the shipped
    result = cli("summarize", paper, "-o", out, "--data", tmp_path / "nothing")
    assert "has no gazetteer lists; the shipped names only" in result.stderr
