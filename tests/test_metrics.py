"""Our exact-span metric equals seqeval's strict IOB2 mode on valid BIO, per type, micro and macro."""

from __future__ import annotations

import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from seqeval.metrics import classification_report as seqeval_report
from seqeval.scheme import IOB2

from sciner.evaluate.analysis import casing
from sciner.evaluate.metrics import Counts, classification_report, f1_score, precision_score, recall_score
from sciner.formats.spans import repair_bio

# Three types keep collisions (and so true positives) frequent in random data.
TYPES = ("MethodName", "TaskName", "DatasetName")
TAGS = ("O",) + tuple(f"{p}-{t}" for t in TYPES for p in ("B", "I"))


@st.composite
def gold_and_pred(draw: st.DrawFn) -> tuple[list[list[str]], list[list[str]]]:
    """Paragraph pairs of valid BIO; the prediction is often a light edit of gold."""
    gold, pred = [], []
    for _ in range(draw(st.integers(1, 5))):
        n = draw(st.integers(1, 12))
        g = repair_bio(draw(st.lists(st.sampled_from(TAGS), min_size=n, max_size=n))).tags
        if draw(st.booleans()):
            p = list(g)
            for i in draw(st.lists(st.integers(0, n - 1), max_size=3)):
                p[i] = draw(st.sampled_from(TAGS))
            p = repair_bio(p).tags
        else:
            p = repair_bio(draw(st.lists(st.sampled_from(TAGS), min_size=n, max_size=n))).tags
        gold.append(g)
        pred.append(p)
    return gold, pred


def reference(gold: list[list[str]], pred: list[list[str]]) -> dict:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # seqeval warns on 0/0, which it sets to 0 as we do
        return seqeval_report(gold, pred, mode="strict", scheme=IOB2, output_dict=True, zero_division=0)


@settings(max_examples=300, deadline=None)
@given(case=gold_and_pred())
def test_equals_seqeval_strict_iob2(case):
    gold, pred = case
    ours = classification_report(gold, pred)
    ref = reference(gold, pred)
    ref_types = {k for k in ref if not k.endswith(" avg")}
    assert set(ours.per_type) == ref_types
    for t in ref_types:
        s = ours.per_type[t]
        assert s.precision == pytest.approx(ref[t]["precision"])
        assert s.recall == pytest.approx(ref[t]["recall"])
        assert s.f1 == pytest.approx(ref[t]["f1-score"])
        assert s.support == ref[t]["support"]
    assert ours.micro.precision == pytest.approx(ref["micro avg"]["precision"])
    assert ours.micro.recall == pytest.approx(ref["micro avg"]["recall"])
    assert ours.micro.f1 == pytest.approx(ref["micro avg"]["f1-score"])
    assert ours.micro.support == ref["micro avg"]["support"]
    if ref_types:  # seqeval's macro of no types is NaN; ours is 0
        assert ours.macro.precision == pytest.approx(ref["macro avg"]["precision"])
        assert ours.macro.recall == pytest.approx(ref["macro avg"]["recall"])
        assert ours.macro.f1 == pytest.approx(ref["macro avg"]["f1-score"])
    assert f1_score(gold, pred) == pytest.approx(ref["micro avg"]["f1-score"])


def test_hand_worked_example():
    gold = [["B-MethodName", "I-MethodName", "O", "B-TaskName", "O", "B-DatasetName"]]
    pred = [["B-MethodName", "I-MethodName", "O", "B-TaskName", "I-TaskName", "B-MethodName"]]
    report = classification_report(gold, pred)
    # MethodName: 1 of 2 predicted right, 1 of 1 gold found; TaskName: boundary wrong; DatasetName: missed.
    assert report.counts == {
        "MethodName": Counts(tp=1, fp=1, fn=0),
        "TaskName": Counts(tp=0, fp=1, fn=1),
        "DatasetName": Counts(tp=0, fp=0, fn=1),
    }
    assert list(report.per_type) == ["MethodName", "TaskName", "DatasetName"]  # the task's type order
    assert report.micro.precision == pytest.approx(1 / 3)
    assert report.micro.recall == pytest.approx(1 / 3)
    assert report.macro.f1 == pytest.approx((2 / 3 + 0 + 0) / 3)
    assert precision_score(gold, pred, average="macro") == pytest.approx((0.5 + 0 + 0) / 3)
    assert recall_score(gold, pred, average="macro") == pytest.approx((1 + 0 + 0) / 3)


def test_stray_i_counts_as_an_entity_start():
    gold = [["O", "B-TaskName", "I-TaskName"]]
    assert f1_score(gold, [["O", "I-TaskName", "I-TaskName"]]) == 1.0
    assert f1_score(gold, [["O", "B-TaskName", "I-MethodName"]]) == 0.0


def test_json_shape():
    d = classification_report([["B-TaskName", "O"]], [["B-TaskName", "B-MethodName"]]).to_dict()
    assert set(d) == {"micro", "macro", "per_type"}
    assert set(d["micro"]) == set(d["macro"]) == {"precision", "recall", "f1"}
    assert d["per_type"]["MethodName"] == {"precision": 0.0, "recall": 0.0, "f1": 0.0, "support": 0}
    assert d["per_type"]["TaskName"] == {"precision": 1.0, "recall": 1.0, "f1": 1.0, "support": 1}


def test_mismatched_lengths_are_refused():
    with pytest.raises(ValueError, match="2 gold tags but 1 predicted"):
        classification_report([["O", "O"]], [["O"]])
    with pytest.raises(ValueError, match="average"):
        f1_score([["O"]], [["O"]], average="weighted")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("accuracy", "lower"),
        ("fastText", "lower"),
        ("Transformer", "capitalised"),
        ("Named Entity Recognition", "capitalised"),
        ("RoBERTa", "capitalised"),
        ("GLUE", "all_caps"),
        ("SQuAD", "capitalised"),
        ("F1", "contains_digit"),
        ("0.5", "contains_digit"),
        ("%", "lower"),
    ],
)
def test_casing_classes(text, expected):
    assert casing(text) == expected


def test_touching_share_counts_spans_that_touch_one_of_their_own_type():
    from sciner.evaluate.metrics import touching_share

    tags = [["B-MethodName", "B-MethodName", "O", "B-MetricValue", "B-TaskName"],  # OpenAI | GPT; two types apart
            ["B-MetricValue", "I-MetricValue", "B-MetricValue", "B-MetricValue"]]  # a run of three values
    share, by_type = touching_share(tags)
    assert by_type == {"MethodName": 1.0, "MetricValue": 0.75, "TaskName": 0.0}
    assert share == 5 / 7
    assert touching_share([]) == (0.0, {})
