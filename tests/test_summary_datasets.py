"""The dataset and model of a result read off a table or a sentence: a setting, a training
corpus or a method is no dataset; a row citing prior work names a model."""

from __future__ import annotations

import pytest

from sciner.summary.assemble import summarize_paper
from sciner.summary.tables.caption import caption_reason
from sciner.summary.tables.cells import names_setting, not_score_head
from sciner.summary.values import trained_on

from helpers.papers import caption, row, tagged


@pytest.mark.parametrize(("text", "setting"), [
    ("Semi - supervised", True), ("Unsupervised", True), ("Zero-shot", True), ("Adam", True),
    ("Single model", True), ("Base", True), ("Dev", True), ("Without", True), ("Top 500", True),
    ("Test - Dev", True), ("Test - Std", True), ("Test - P", True), ("Test - U", True),
    ("SQuAD", False), ("Wikipedia", False), ("RACE Middle", False), ("Multi-NLI", False), ("Test - Time", False),
    # a variation: data added to the training, a part taken away; "+ ve" is the positive class
    ("+ ANLI ( 52k )", True), ("w/ SNLI", True), ("w/o CRF", True), ("+ ve class", False),
    # a setting and its count (Sennrich et al.'s "Ens-8" column, DAN's "Pos 1" and "Pos 2"), not a
    # dataset with a number in its name
    ("Ens-8", True), ("Pos 2", True), ("Beam 5", True), ("5-way 1-shot", True), ("10-shot", True),
    ("SST-2", False), ("CoNLL 2003", False), ("WMT 14", False),
    # the size of a model's training data (Hill et al.'s "70 m sents", C-PHRASE's "2.8 Billion words")
    # and a split with its "set" (R-NET's "Dev Set", "TestSet"), not the data measured on
    ("70 m sents", True), ("2.8 Billion words", True), ("6.1 TB", True), ("Test Set", True), ("TestSet", True),
    ("Dev Set", True), ("1B Word", False), ("20 Newsgroups", False), ("WikiText-103", False),
    # a granularity of a metric's correlation (CTC's appendix tables), not the data
    ("Sample-Level Correlations", True), ("System - Level Correlations", True),
])
def test_a_name_that_says_how_a_score_was_got_is_a_setting(text, setting):
    assert names_setting(text) is setting


@pytest.mark.parametrize(("text", "start", "trained"), [
    ("vectors trained on Wikipedia", 3, True), ("pre - trained on the BookCorpus", 5, True),
    ("trained and tested on SQuAD", 4, False), ("results on SQuAD", 2, False), ("Wikipedia", 0, False),
])
def test_the_data_a_model_was_trained_on(text, start, trained):
    assert trained_on(text.split(), start) is trained


def test_a_setting_head_tagged_as_data_leaves_the_data_to_the_caption():
    """Sent2Vec Table 3: "Semi-supervised" over a column, tagged as a dataset somewhere."""
    rows = [caption("Table 2 : Accuracy on SST .", ("MetricName", 3, 4), ("DatasetName", 5, 6)),
            row([("Model", 0), ("Semi - supervised", 1)], ("DatasetName", 1, 4)),
            row([("DictRep", 0), ("80.5", 1)], ("MethodName", 0, 1))]
    assert [(r.dataset, r.model) for r in summarize_paper("p", rows).results] == [("SST", "DictRep")]


def test_a_head_over_a_dataset_column_qualifies_the_model_not_the_data():
    """Sent2Vec Table 4: "Semi-supervised" and "Sent2Vec Unigrams" over the columns of models,
    the data listed under "Dataset"."""
    rows = [caption("Table 2 : Pearson correlation .", ("MetricName", 3, 5)),
            row([("Semi - supervised", 1), ("Sent2Vec Unigrams", 2)]),
            row([("Dataset", 0), ("PSL + WR", 1), ("Tweets Model", 2)], ("MethodName", 1, 4)),
            row([("STS 2014", 0), ("0.735", 1), ("0.710", 2)], ("DatasetName", 0, 2))]
    assert [(r.dataset, r.value) for r in summarize_paper("p", rows).results] == [
        ("STS 2014", "0.735"), ("STS 2014", "0.710")]


def test_the_one_head_tagged_as_a_method_beside_dataset_heads_is_data():
    """MacBERT Table 9: "DRCD" tagged as a method more often than as data, between "CMRC 2018"
    and "CJRC"; the rows "w/o SOP" are ablations of the model, not data."""
    rows = [row([("CMRC 2018", 1), ("DRCD", 2), ("CJRC", 3)],
                ("DatasetName", 0, 2), ("MethodName", 2, 3), ("DatasetName", 3, 4)),
            row([("EM", 1), ("EM", 2), ("EM", 3)]),
            row([("w/o SOP", 0), ("74.4", 1), ("91.0", 2), ("62.2", 3)])]
    assert [(r.dataset, r.model) for r in summarize_paper("p", rows).results] == [
        ("CMRC 2018", "w/o SOP"), ("DRCD", "w/o SOP"), ("CJRC", "w/o SOP")]


def test_a_row_citing_prior_work_under_heads_tagged_as_methods_is_the_model():
    """BPE Table 6: "Michel et al . ( 2018 )" under "KFTT TED", tagged as methods: the cited work
    is the model; the heads (its test sets here, a metric elsewhere) name nothing known, so the
    caption's one translation direction names the data."""
    rows = [caption("Table 2 : Ja - En test BLEU scores .", ("MetricName", 7, 8)),
            row([("Model", 0), ("KFTT", 1), ("TED", 2)], ("MethodName", 1, 2), ("MethodName", 2, 3)),
            row([("Michel et al . ( 2018 )", 0), ("20.77", 1), ("13.25", 2)])]
    assert [(r.dataset, r.model) for r in summarize_paper("p", rows).results] == [
        ("Ja-En", "Michel et al . ( 2018 )"), ("Ja-En", "Michel et al . ( 2018 )")]


def test_a_training_corpus_column_is_a_setting_not_the_data():
    """Sent2Vec Table 3: the corpus each method was trained on, in its own column."""
    rows = [caption("Table 2 : Accuracy on SST .", ("MetricName", 3, 4), ("DatasetName", 5, 6)),
            row([("Training corpus", 0), ("Method", 1), ("Acc", 2)]),
            row([("Wikipedia", 0), ("BOW", 1), ("80.5", 2)], ("DatasetName", 0, 1), ("MethodName", 1, 2))]
    assert [(r.dataset, r.model) for r in summarize_paper("p", rows).results] == [("SST", "BOW")]


def test_a_caption_naming_the_training_data_names_no_dataset():
    rows = [caption("Table 2 : Accuracy of vectors trained on Wikipedia .", ("MetricName", 3, 4),
                    ("DatasetName", 8, 9)),
            row([("Model", 0), ("Acc", 1)]),
            row([("GloVe", 0), ("75.0", 1)], ("MethodName", 0, 1))]
    assert [(r.dataset, r.model) for r in summarize_paper("p", rows).results] == [(None, "GloVe")]


def test_a_sentence_naming_the_training_data_and_the_test_data_takes_the_test_data():
    paper = [tagged("GloVe trained on Wikipedia reaches 75.0 accuracy on WS353 .", ("MethodName", 0, 1),
                    ("DatasetName", 3, 4), ("MetricValue", 5, 6), ("MetricName", 6, 7), ("DatasetName", 8, 9))]
    assert [(r.dataset, r.value) for r in summarize_paper("p", paper).results] == [("WS353", "75.0")]


@pytest.mark.parametrize("head", ["Dim .", "Dimensionality", "Dim"])
def test_a_dimension_column_holds_settings(head):
    """GloVe Table 2 "Dim .", word2vec Table 5 "Vector Dimensionality": the vectors' size."""
    assert not_score_head(head) == "setting"


def test_a_head_over_a_method_column_qualifies_the_method_when_the_label_names_the_data():
    """Sent2Vec Table 4: "Sent2Vec Unigrams" over "Tweets Model", the rows "STS 2014" tagged as data."""
    rows = [caption("Table 2 : Pearson correlation .", ("MetricName", 3, 5)),
            row([("Sent2Vec Unigrams", 1)]),
            row([("Tweets Model", 1), ("Blacklist Model", 2)], ("MethodName", 0, 2), ("MethodName", 2, 4)),
            row([("STS 2014", 0), ("0.710", 1), ("0.718", 2)], ("DatasetName", 0, 2))]
    assert [(r.dataset, r.model) for r in summarize_paper("p", rows).results] == [
        ("STS 2014", "Tweets Model"), ("STS 2014", "Blacklist Model")]


def test_a_caption_name_the_paper_tags_mostly_as_a_method_is_no_dataset_unless_said_to_be_data():
    """GloVe Table 3: "The CBOW vectors are from the word2vec website", "word2vec" tagged as
    data there and as a method elsewhere; "results on word2vec" would say it is data."""
    method = [tagged("We compare with word2vec .", ("MethodName", 3, 4)),
              tagged("The word2vec vectors are strong .", ("MethodName", 1, 2)),
              tagged("Unlike word2vec we count .", ("MethodName", 1, 2))]
    table = [row([("Model", 0), ("Acc", 1)]), row([("SVD", 0), ("35.3", 1)], ("MethodName", 0, 1))]
    website = caption("Table 2 : Accuracy . Vectors from the word2vec website .", ("MetricName", 3, 4),
                      ("DatasetName", 8, 9))
    assert [r.dataset for r in summarize_paper("p", [*method, website, *table]).results] == [None]
    said = caption("Table 2 : Accuracy on word2vec .", ("MetricName", 3, 4), ("DatasetName", 5, 6))
    assert [r.dataset for r in summarize_paper("p", [*method, said, *table]).results] == ["word2vec"]


def test_a_group_label_naming_the_training_data_names_no_dataset():
    """A group label "Trained on Wikipedia" over its rows: how they were trained, the data
    measured on is the caption's."""
    rows = [caption("Table 2 : Accuracy on SST .", ("MetricName", 3, 4), ("DatasetName", 5, 6)),
            row([("Model", 0), ("Acc", 1)]),
            row([("Trained on Wikipedia", 0)], ("DatasetName", 2, 3)),
            row([("BOW", 0), ("80.5", 1)], ("MethodName", 0, 1))]
    assert [(r.dataset, r.model) for r in summarize_paper("p", rows).results] == [("SST", "BOW")]


def test_heads_over_a_row_counting_samples_name_data_whatever_they_are_tagged():
    """BPE Table 6: "KFTT TED" tagged as methods over "# of train samples 440 K 223 K": test sets."""
    rows = [caption("Table 2 : Ja - En test BLEU scores .", ("MetricName", 7, 8)),
            row([("KFTT", 1), ("TED", 2)], ("MethodName", 0, 1), ("MethodName", 1, 2)),
            row([("# of train samples", 0), ("440 K", 1), ("223 K", 2)]),
            row([("Char+", 0), ("23.67", 1), ("15.26", 2)])]
    assert [(r.dataset, r.model) for r in summarize_paper("p", rows).results] == [
        ("KFTT", "Char+"), ("TED", "Char+")]


def test_a_version_set_in_a_column_of_its_own_joins_the_name_left_of_it():
    """MobileBERT Table 5: "SQuAD | v1.1 | SQuAD | v2.0" over "EM F1 EM F1"."""
    rows = [tagged("We test on SQuAD and on SQuAD .", ("DatasetName", 3, 4), ("DatasetName", 6, 7)),
            row([("SQuAD", 1), ("v1.1", 2), ("SQuAD", 3), ("v2.0", 4)]),
            row([("EM", 1), ("F1", 2), ("EM", 3), ("F1", 4)]),
            row([("BERT", 0), ("80.8", 1), ("88.5", 2), ("74.2", 3), ("77.1", 4)], ("MethodName", 0, 1))]
    assert [(r.dataset, r.metric) for r in summarize_paper("p", rows).results] == [
        ("SQuAD v1.1", "EM"), ("SQuAD v1.1", "F1"), ("SQuAD v2.0", "EM"), ("SQuAD v2.0", "F1")]


@pytest.mark.parametrize(("text", "reason"), [
    ("Table 1 : A summary of the datasets , including the number of classes .", "statistic"),
    ("Table 2 : Sentence lengths of the corpora .", "statistic"),
    ("Table 3 : Accuracy by sentence length .", None),
])
def test_a_caption_summing_up_the_data_captions_statistics(text, reason):
    """RCNN Table 1: the classes, train/dev/test sizes and lengths of each dataset, no scores."""
    assert caption_reason(text) == reason
