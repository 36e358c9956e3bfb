"""Results that carry where they came from and what they are (issues 47 and 48): caption,
column header, split, setting and ablation, read off hand-made table rows and sentences; and
one key per dataset and metric across papers' spellings."""

from __future__ import annotations

import csv
import io

import pytest

from sciner.summary.assemble import corpus_table, summarize_paper
from sciner.summary.canonical import beyond_percent, dataset_key, in_family, metric_key
from sciner.summary.provenance import head_split, is_ablated, said_setting, said_split, short_caption
from sciner.summary.render import render_csv, summary_json
from sciner.summary.values import Result

from helpers.papers import bracketed, caption, row

# Spellings that must meet at one key, and spellings that must not.
SAME_METRIC = [("R1", "ROUGE-1"), ("ROUGE 1", "ROUGE-1"), ("Rouge-1", "R-1"), ("R-L", "ROUGE-L"), ("Acc", "Accuracy"),
               ("Acc.", "Accuracy"), ("Acc .", "accuracy (%)"), ("EM", "Exact Match"), ("F1", "F1 score"),
               ("F-1", "F1"), ("F 1", "F1"), ("MF1", "Macro-F1"), ("PPL", "perplexity"), ("WER", "word error rate"),
               ("P", "Precision"), ("Recall@1", "R@1")]
OTHER_METRIC = [("F", "F1"), ("R1", "R@1"), ("ROUGE-1", "ROUGE-2"), ("Macro-F1", "Micro-F1"), ("BLEU", "BLEU-4"),
                ("Acc", "EM"), ("P@1", "R@1"), ("UAS", "LAS")]
SAME_DATASET = [("CoNLL-2003", "CoNLL 2003 NER"), ("CoNLL03", "CoNLL-2003"), ("SQuAD1.1", "SQuAD v1.1"),
                ("SQuAD 1.1", "SQuAD v1.1"), ("SQuAD2.0", "SQuAD 2"), ("SST-2", "SST2"), ("sst-2", "SST 2"),
                ("WMT14 En-De", "WMT 2014 English-German"), ("the Penn Treebank", "Penn Treebank"),
                ("SemEval–2010 Task 8", "SemEval-2010 task 8")]
OTHER_DATASET = [("SST-2", "SST-5"), ("SQuAD1.1", "SQuAD2.0"), ("CoNLL-2003", "CoNLL-2012"), ("WMT14 En-De", "WMT14 En-Fr"),
                 ("MNLI-m", "MNLI-mm"), ("CoNLL-2003 English", "CoNLL-2003 German"),
                 ("NYT", "NYT*")]  # NYT* marks the partial-match variant


@pytest.mark.parametrize(("a", "b"), SAME_METRIC)
def test_spellings_of_one_metric_meet(a, b):
    assert metric_key(a) == metric_key(b)


@pytest.mark.parametrize(("a", "b"), OTHER_METRIC)
def test_different_metrics_stay_apart(a, b):
    assert metric_key(a) != metric_key(b)


@pytest.mark.parametrize(("a", "b"), SAME_DATASET)
def test_spellings_of_one_dataset_meet(a, b):
    assert dataset_key(a) == dataset_key(b)


@pytest.mark.parametrize(("a", "b"), OTHER_DATASET)
def test_different_datasets_stay_apart(a, b):
    assert dataset_key(a) != dataset_key(b)


def test_a_dataset_family_holds_its_versions_and_no_other_name():
    assert in_family(dataset_key("CoNLL-2003 NER"), dataset_key("CoNLL"))
    assert in_family(dataset_key("SQuAD v2.0"), dataset_key("squad"))
    assert not in_family(dataset_key("SQuADv2-like"), dataset_key("SST"))
    assert not in_family(dataset_key("CoNLLU"), dataset_key("CoNLL"))
    assert metric_key(None) is None and dataset_key("  ") is None


@pytest.mark.parametrize(("texts", "split"), [(["WSJ", "Test", "F1"], "test"), (["Dev ( all lengths )"], "dev"),
                                               (["Validation accuracy"], "validation"), (["BLEU"], None),
                                               (["Test score"], "test")])
def test_a_split_named_by_a_head_or_group_label(texts, split):
    assert head_split(texts) == split


@pytest.mark.parametrize(("text", "split"), [("Results on the test set .", "test"),
                                              ("F1 on the development set", "dev"),
                                              ("Results on dev and test sets", None), ("a paired t - test", None)])
def test_a_split_said_in_a_caption_or_sentence(text, split):
    assert said_split(text) == split


def test_settings_ablations_and_short_captions():
    assert said_setting("Results in the 5 - shot setting") == "5-shot"
    assert said_setting("zero-shot and 5-shot") is None
    assert is_ablated("w/o CRF") and is_ablated("- char embeddings") and is_ablated("without attention")
    assert not is_ablated("-0.5") and not is_ablated("BERT")
    # BiDAF's and ULMFiT's ablations say "No char embedding", "No LM fine-tuning"; "None" and "No ." do not
    assert is_ablated("No char embedding") and is_ablated("No LM fine - tuning")
    assert not is_ablated("None") and not is_ablated("No . of layers") and not is_ablated("Normal")
    assert short_caption("Table 2 : " + "word " * 60).endswith("…") and short_caption("") is None


def ablation_table() -> list:
    """A results table: a baseline, the paper's own row, ablations and an addition, under
    "Dev" and "Test" blocks; the caption names the test set."""
    return [caption("Table 2 : Results on the CoNLL-2003 test set .", ("DatasetName", 6, 7)),
            row([("NER", 1)]),
            row([("Model", 0), ("F1", 1)]),
            row([("BiLSTM-CRF ( Lample et al . , 2016 )", 0), ("90.9", 1)], ("MethodName", 0, 1)),
            row([("Ours", 0)]),
            row([("NewNER", 0), ("92.4", 1)], ("MethodName", 0, 1)),
            row([("+ ELMo", 0), ("92.8", 1)]),
            row([("w/o CRF", 0), ("91.1", 1)])]


def test_a_table_result_carries_its_caption_header_split_and_whether_it_is_an_ablation():
    results = summarize_paper("p", ablation_table()).results
    got = {r.value: (r.model, r.header, r.split, r.ablation) for r in results}
    assert got["90.9"] == ("BiLSTM-CRF", "NER > F1", "test", False)  # its citation kept apart
    assert next(r.citation for r in results if r.value == "90.9") == "Lample et al . , 2016"
    assert got["92.4"] == ("NewNER", "NER > F1", "test", False)
    assert got["91.1"][2:] == ("test", True)
    assert got["92.8"] == ("NewNER + ELMo", "NER > F1", "test", True)  # "+ X" under the paper's own row
    assert all(r.caption == "Table 2 : Results on the CoNLL-2003 test set ." for r in results)


def test_a_plus_row_under_a_cited_baseline_is_no_ablation():
    paragraphs = [row([("Model", 0), ("F1", 1)]),
                  row([("BERT ( Devlin et al . , 2019 )", 0), ("90.1", 1)], ("MethodName", 0, 1)),
                  row([("+ CRF", 0), ("90.5", 1)])]
    assert not any(r.ablation for r in summarize_paper("p", paragraphs).results)


def test_split_and_setting_from_heads_and_group_labels():
    paragraphs = [caption("Table 3 : Accuracy on MMLU .", ("MetricName", 3, 4), ("DatasetName", 5, 6)),
                  row([("Model", 0), ("5-shot", 1), ("0-shot", 2)], table="table 3"),
                  row([("Dev", 0)], table="table 3"),
                  row([("GPT", 0), ("60.1", 1), ("50.2", 2)], ("MethodName", 0, 1), table="table 3"),
                  row([("Test", 0)], table="table 3"),
                  row([("GPT", 0), ("59.0", 1), ("49.9", 2)], ("MethodName", 0, 1), table="table 3")]
    results = summarize_paper("p", paragraphs).results
    assert {(r.value, r.split, r.setting) for r in results} == {
        ("60.1", "dev", "5-shot"), ("50.2", "dev", "0-shot"), ("59.0", "test", "5-shot"), ("49.9", "test", "0-shot")}


def test_a_sentence_result_carries_the_split_and_setting_its_sentence_names():
    p = bracketed("In the 5-shot setting , [GPT|MethodName] reaches [60.1|MetricValue] [accuracy|MetricName] on the "
                  "[MMLU|DatasetName] test set .")
    [result] = summarize_paper("p", [p]).results
    assert (result.split, result.setting, result.caption, result.header, result.ablation) == (
        "test", "5-shot", None, None, False)


def test_the_new_fields_go_through_summary_json_and_csv():
    paper = summarize_paper("p", ablation_table())
    corpus = corpus_table([paper])
    [dumped] = [r for r in summary_json([paper], corpus)["papers"][0]["results"] if r["value"] == "91.1"]
    assert dumped["split"] == "test" and dumped["ablation"] is True and dumped["header"] == "NER > F1"
    assert dumped["caption"].startswith("Table 2: Results")  # readable, not tokens
    rows = [r for r in csv.DictReader(io.StringIO(render_csv([paper], corpus))) if r["record"] == "result"]
    assert {(r["value"], r["split"], r["ablation"], r["header"]) for r in rows} >= {
        ("91.1", "test", "1", "NER > F1"), ("90.9", "test", "0", "NER > F1")}
    # the outputs write names as the paper does; the summary's Result keeps its tokens
    assert {r["citation"] for r in rows if r["value"] == "90.9"} == {"Lample et al., 2016"}
    assert next(r for r in summary_json([paper], corpus)["papers"][0]["results"]
                if r["value"] == "90.9")["citation"] == "Lample et al., 2016"
    assert next(r.citation for r in paper.results if r.value == "90.9") == "Lample et al . , 2016"


def test_a_settings_column_gives_its_rows_setting_and_a_model_column_does_not():
    paragraphs = [row([("Model", 0), ("Setting", 1), ("Acc", 2)]),
                  row([("GPT", 0), ("in-domain", 1), ("60.1", 2)], ("MethodName", 0, 1)),
                  row([("GPT", 0), ("cross-domain", 1), ("50.2", 2)], ("MethodName", 0, 1))]
    assert [(r.value, r.model, r.setting) for r in summarize_paper("p", paragraphs).results] == [
        ("60.1", "GPT", "in-domain"), ("50.2", "GPT", "cross-domain")]
    plain = [row([("Architecture", 0), ("Acc", 1)]), row([("CBOW", 0), ("60.1", 1)])]
    assert [r.setting for r in summarize_paper("p", plain).results] in ([], [None])


def test_a_count_under_a_percentage_metric_is_no_result():
    # regression: a statistics row under "F1" ("token # 211727") led the CoNLL 2000 board; here
    # a row whose label says nothing of counting
    paragraphs = [caption("Table 1 : Results on the CoNLL-2000 test set .", ("DatasetName", 6, 7)),
                  row([("Model", 0), ("F1", 1)]),
                  row([("Lexicon", 0), ("211727", 1)]),
                  row([("NewTagger", 0), ("94.46", 1)], ("MethodName", 0, 1))]
    summary = summarize_paper("p", paragraphs)
    assert [r.value for r in summary.results] == ["94.46"]
    assert ("211727", "over 100") in {(n.value, n.reason) for n in summary.not_results}


@pytest.mark.parametrize("metric, number, beyond", [
    ("F1", "211727", True), ("Acc.", "300", True), ("P@5", "101", True), ("BLEU", "100.0", False),
    ("Perplexity", "120.5", False), ("F1", "94.5 %", False), ("FLOPs", "1e9", False), (None, "500", False),
    ("Accuracy", "67,349", True), ("F1", ".97", False)])
def test_only_percentage_metrics_bound_their_scores_at_100(metric, number, beyond):
    assert beyond_percent(metric, number) is beyond


@pytest.mark.parametrize("model, ours, written", [
    ("BI - LSTM - CRF ( Senna ) ( ours )", True, "BI-LSTM-CRF (Senna)"), ("( Ours )", True, "(Ours)"),
    ("X [ this work ]", True, "X"), ("X ( ours )", False, "X (ours)"), (None, True, None)])
def test_an_own_rows_mark_is_dropped_where_ours_says_it(model, ours, written):
    result = Result(None, "CoNLL 2000", "F1", "97.55", model, (0, 1, 2), ours=ours)
    assert result.readable().model == written and result.to_json()["model"] == written
