"""The results scorer's breakdown of the headline numbers it misses (benchmarks/results.py)."""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from sciner.document import Paragraph
from sciner.summary.values import NotResult, Result

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from results import miss_of  # noqa: E402  (the benchmark's, not the library's)

HEADLINE = {"paper": "p", "split": "tune", "table": "2", "value": "91.2", "metric": "F1", "dataset": "CoNLL-2003"}


def result(value: str, metric: str | None, dataset: str | None, table: str | None = "table 2") -> Result:
    return Result(None, dataset, metric, value, None, (0, 0, 1), table=table)


def paper(results: list[Result], others: list[NotResult] = (), text: str = "") -> SimpleNamespace:
    return SimpleNamespace(results=results, not_results=list(others),
                           paragraphs=[Paragraph(tokens=text.split())] if text else [])


@pytest.mark.parametrize(("summary", "kind", "where"), [
    (paper([result("91.2", "F1", "CoNLL 2003")]), None, None),
    (paper([], [NotResult("91.2", "no metric", (0, 0, 1))]), "value not read", "not result (no metric)"),
    (paper([], text="we reach 91.2 F1"), "value not read", "sentence"),
    (paper([]), "value not read", "nowhere (figure?)"),
    (paper([result("91.2", "Acc", "CoNLL 2003")]), "wrong metric", "table"),
    (paper([result("91.2", "F1", None, table=None)]), "no dataset", "sentence"),
    (paper([result("91.2", "F1", "Ontonotes", table="table 5"), result("91.2", "F1", "WNUT")]), "wrong dataset", "table"),
])
def test_a_missed_headline_says_why_and_where_its_value_was(summary, kind, where):
    miss = miss_of(HEADLINE, summary)
    assert (miss[:2] if miss else (None, None)) == (kind, where)


def test_the_nearest_miss_is_one_of_the_headlines_own_table():
    miss = miss_of(HEADLINE, paper([result("91.2", "F1", "Ontonotes", table="table 5"), result("91.2", "F1", "WNUT")]))
    assert miss[2].dataset == "WNUT"


@pytest.mark.parametrize(("gold", "read", "same"), [
    ("CoNLL-2003", "CoNLL 2003", True), ("CoNLL-2003", "CoNLL", True), ("Relation F1", "F1", True),
    # a language alone is no part of the data's name ("Chinese" of "Chinese MSRA")
    ("Chinese OntoNotes 4.0|OntoNotes 4.0", "Chinese", False), ("Chinese", "Chinese", True), ("MSRA", None, False),
])
def test_a_read_name_meets_the_gold_one_when_one_holds_the_other(gold, read, same):
    from results import same_name
    assert same_name(gold, read) is same


def test_a_headline_whose_method_says_our_counts_as_the_paper_s_own(monkeypatch):
    """"Our System", "Ours w/ transfer": the paper's own, whatever papers.tsv names its method (a
    regression: counted as others marked ours)."""
    import results

    monkeypatch.setattr(results, "read_tsv", lambda path: [{"paper": "p", "ours": "Latent Predictor Networks"}])
    rows = [dict(HEADLINE, method="Our System"), dict(HEADLINE, method="BiLSTM")]
    marked = result("91.2", "F1", "CoNLL 2003")
    marked.ours = True
    got = results.ours_agreement(rows, {"p": paper([marked])})
    assert got.endswith("the paper's own marked 1/1 (said another's: 0), others left unmarked 0/1 (said another's: 0)")


def test_a_headline_of_the_paper_s_own_said_to_be_another_s_is_counted_apart(monkeypatch):
    """``ours`` False on the paper's own number is a wrong claim, counted; None claims nothing."""
    import results

    monkeypatch.setattr(results, "read_tsv", lambda path: [{"paper": "p", "ours": "Latent Predictor Networks"}])
    rows = [dict(HEADLINE, method="Our System")]
    said = result("91.2", "F1", "CoNLL 2003")
    said.ours = False
    assert "the paper's own marked 0/1 (said another's: 1)" in results.ours_agreement(rows, {"p": paper([said])})
    said.ours = None
    assert "the paper's own marked 0/1 (said another's: 0)" in results.ours_agreement(rows, {"p": paper([said])})


def test_a_number_is_in_the_text_layer_as_any_spelling_of_its_value():
    """The silent-drop check asks whether a PDF prints a headline number at all ("85.20" for 85.2)."""
    import results

    assert results.in_text_layer("85.2", "BERT 85.20 90.1")
    assert results.in_text_layer("0.59", "A,N (It) 0.31,0.59 0.24,0.54")
    assert not results.in_text_layer("85.2", "BERT 85.3 852")
