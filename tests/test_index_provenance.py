"""The index stores where each result came from and its canonical dataset and metric keys
(schema 2); questions match a dataset's and a metric's spellings through those keys and say
which they matched; leaderboards hold test results of full systems unless asked for all."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

import sciner
from sciner.errors import InputFormatError
from sciner.formats.jsonl import write_jsonl
from sciner.index import schema

from helpers.index_versions import as_schema_2
from helpers.papers import bracketed, caption, row, write_corpus

# Three papers spelling one dataset and one metric three ways, one result on the dev set.
SPELLINGS = {
    "one": ["[Ours|MethodName] reaches [91.0|MetricValue] [F1 score|MetricName] on the [SQuAD1.1|DatasetName] test set ."],
    "two": ["[XLNet|MethodName] gets [92.5|MetricValue] [F1|MetricName] on [SQuAD v1.1|DatasetName] .",
            "On the [SQuAD v1.1|DatasetName] dev set , [XLNet|MethodName] gets [94.0|MetricValue] [F1|MetricName] ."],
    "three": ["[BERT|MethodName] gets [88.0|MetricValue] [F-1|MetricName] on [SQuAD 1.1|DatasetName] .",
              "[BERT|MethodName] gets [80.0|MetricValue] [F1|MetricName] on [SQuAD 2.0|DatasetName] ."],
}


def table_paper() -> list:
    """A paper whose table holds the paper's own row, an ablation, and a cited baseline."""
    return [bracketed("We propose [NewNER|MethodName] for [NER|TaskName] ."),
            caption("Table 2 : Results on the CoNLL-2003 test set .", ("DatasetName", 6, 7)),
            row([("NER", 1)]), row([("Model", 0), ("F1", 1)]),
            row([("BiLSTM-CRF ( Lample et al . , 2016 )", 0), ("90.9", 1)], ("MethodName", 0, 1)),
            row([("NewNER", 0), ("92.4", 1)], ("MethodName", 0, 1)),
            row([("w/o CRF", 0), ("93.1", 1)])]


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    folder = write_corpus(tmp_path / "papers", SPELLINGS)
    paragraphs = table_paper()
    paragraphs[0].meta["section"] = "Abstract"
    write_jsonl(paragraphs, folder / "table.jsonl")
    db = tmp_path / "corpus.sqlite"
    done = sciner.index_files([folder], db, show_progress=False, gazetteers=False)
    assert (done.added, done.failed) == (4, [])
    return db


def test_results_are_stored_with_where_they_came_from_and_their_canonical_keys(corpus: Path) -> None:
    with sciner.Index(corpus) as ix:
        rows = ix.sql("SELECT value, table_label, caption, header, split, ablation, dataset_canon, metric_canon "
                      "FROM results ORDER BY value").rows
    got = {r[0]: r[1:] for r in rows}
    assert got["93.1"] == ("table 2", "Table 2: Results on the CoNLL-2003 test set.", "NER > F1", "test", 1,
                           "conll 2003", "f1")
    assert got["92.4"][3:5] == ("test", 0)
    assert got["94.0"] == (None, None, None, "dev", 0, "squad 1.1", "f1")
    assert (got["91.0"][3], *got["91.0"][-2:]) == ("test", "squad 1.1", "f1") and got["80.0"][-2:] == ("squad 2", "f1")


def test_a_board_matches_every_spelling_and_holds_test_results_of_full_systems(corpus: Path) -> None:
    with sciner.Index(corpus) as ix:
        board = ix.results(dataset="SQuAD v1.1", metric="F1")
        assert [(r.value, r.dataset) for r in board] == [
            ("92.5", "SQuAD v1.1"), ("91.0", "SQuAD1.1"), ("88.0", "SQuAD 1.1")]
        assert {r.metric_key for r in board} == {"f1"}
        notes = ix.results_notes(dataset="SQuAD v1.1", metric="F1")
        assert "dataset 'SQuAD v1.1' matched: SQuAD 1.1 (1 paper), SQuAD v1.1 (1 paper), SQuAD1.1 (1 paper)" in notes
        assert any(n.startswith("metric 'F1' matched: ") and "F-1" in n for n in notes)
        assert "1 dev, validation, ablation or human-performance result(s) left out: --all shows them" in notes
        # the dev result and the ablation come back with all_results
        assert [r.value for r in ix.results(dataset="squad1.1", metric="f1", all_results=True)][0] == "94.0"
        assert "93.1" not in [r.value for r in ix.results(dataset="CoNLL", metric="F1")]
        assert [r.value for r in ix.results(dataset="CoNLL", metric="F1", all_results=True)][0] == "93.1"


def test_a_family_name_finds_its_versions_each_ranked_on_its_own(corpus: Path) -> None:
    with sciner.Index(corpus) as ix:
        board = ix.results(dataset="SQuAD", metric="F1")
        assert [(r.rank, r.value, r.dataset_key) for r in board] == [
            (1, "92.5", "squad 1.1"), (2, "91.0", "squad 1.1"), (3, "88.0", "squad 1.1"), (1, "80.0", "squad 2")]
        assert ix.results(dataset="SQ", metric="F1") == []  # a prefix of a word is no family


def test_leaderboards_group_spellings_and_say_when_a_board_mixes_settings(tmp_path: Path) -> None:
    folder = write_corpus(tmp_path / "papers", {
        "a": ["In the 5-shot setting , [GPT|MethodName] reaches [60.1|MetricValue] [accuracy|MetricName] on "
              "[MMLU|DatasetName] ."],
        "b": ["[LLaMA|MethodName] reaches [55.0|MetricValue] [Acc.|MetricName] on [MMLU|DatasetName] in the 0-shot "
              "setting ."]})
    db = tmp_path / "c.sqlite"
    sciner.index_files([folder], db, show_progress=False, gazetteers=False)
    with sciner.Index(db) as ix:
        [board] = ix.leaderboards()
        assert (board.dataset, board.papers, board.metric_key, board.settings) == ("MMLU", 2, "accuracy",
                                                                                   "0-shot | 5-shot")
        assert any("mixes settings: 0-shot, 5-shot" in n for n in ix.results_notes(dataset="mmlu"))


def test_a_board_is_spelled_as_most_papers_spell_its_dataset_and_metric(tmp_path: Path) -> None:
    # regression: boards took the smallest spelling, so a PDF's "F 1" named the board
    folder = write_corpus(tmp_path / "papers", {
        "a": ["[A|MethodName] reaches [80.1|MetricValue] [F 1|MetricName] on [MNLI - m|DatasetName] ."],
        "b": ["[B|MethodName] reaches [81.0|MetricValue] [F1|MetricName] on [MNLI-m|DatasetName] ."],
        "c": ["[C|MethodName] reaches [82.0|MetricValue] [F1|MetricName] on [MNLI-m|DatasetName] ."]})
    db = tmp_path / "c.sqlite"
    sciner.index_files([folder], db, show_progress=False, gazetteers=False)
    with sciner.Index(db) as ix:
        [board] = ix.leaderboards()
        assert (board.dataset, board.metric, board.papers) == ("MNLI-m", "F1", 3)


def test_the_command_line_says_which_spellings_it_matched(cli, corpus: Path) -> None:
    run = cli("query", corpus, "results", "--dataset", "squad 1.1", "--metric", "F1 score")
    assert run.stdout.splitlines()[2].split()[:2] == ["1", "92.5"]
    assert "note: dataset 'squad 1.1' matched: " in run.stderr and "--all shows them" in run.stderr
    everything = json.loads(cli("query", corpus, "results", "--dataset", "SQuAD1.1", "--all", "--json").stdout)
    assert {r["split"] for r in everything} == {"dev", "test", None}
    assert "note:" not in cli("query", corpus, "results", "--dataset", "squad", "-q").stderr


def test_an_index_of_schema_1_is_upgraded_by_the_writer_and_refused_by_a_reader_until_then(corpus: Path) -> None:
    as_schema_2(corpus)
    con = sqlite3.connect(corpus, isolation_level=None)
    con.execute("DROP INDEX results_canonical")
    for column in ("table_label", "caption", "header", "split", "setting", "ablation", "dataset_canon",
                   "metric_canon"):
        con.execute(f"ALTER TABLE results DROP COLUMN {column}")
    con.execute("PRAGMA user_version = 1")
    con.close()
    with pytest.raises(InputFormatError, match="run.*sciner index"):
        sciner.Index(corpus)
    schema.connect(corpus).close()
    with sciner.Index(corpus) as ix:
        assert ix.sql("PRAGMA user_version").rows == [(schema.SCHEMA_VERSION,)]
        # rows indexed before schema 2 say no split: the dev result 94.0 is XLNet's best until re-indexed
        assert [r.value for r in ix.results(dataset="SQuAD v1.1", metric="F1")] == ["94.0", "91.0", "88.0"]


def test_human_performance_leads_no_board_unless_all_results_are_asked_for(tmp_path: Path) -> None:
    # regression: SQuAD's "Human Performance" row (91.2 F1) ranked first over every system
    folder = write_corpus(tmp_path / "papers", {
        "a": ["[Human Performance|MethodName] reaches [91.2|MetricValue] [F1|MetricName] on [SQuAD|DatasetName] .",
              "[R-Net|MethodName] reaches [84.3|MetricValue] [F1|MetricName] on [SQuAD|DatasetName] ."]})
    db = tmp_path / "c.sqlite"
    sciner.index_files([folder], db, show_progress=False, gazetteers=False)
    with sciner.Index(db) as ix:
        assert [r.value for r in ix.results(dataset="SQuAD", metric="F1")] == ["84.3"]
        assert [r.value for r in ix.results(dataset="SQuAD", metric="F1", all_results=True)] == ["91.2", "84.3"]
        assert any("human-performance result(s) left out" in n for n in ix.results_notes(dataset="SQuAD"))
