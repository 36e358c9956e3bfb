"""The summary's entity names: the shipped gazetteer (the same names from any folder, a user's
``--data`` adding to it) and the rules that clean a paper's entity list, each on a real
example from ../shared/data."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sciner.document import Paragraph, Span
from sciner.summary.assemble import summarize_paper
from sciner.summary.names import (CLEAN_RULES, SHIPPED_GAZETTEER, Gazetteer, fold, is_generic, is_listed, is_run,
                                  paper_entities, read_folder, without_modifier)

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


def test_a_dataset_list_s_metrics_optimizers_generic_words_and_companies_are_no_data(tmp_path):
    """Some Papers with Code dataset names are words a table head means otherwise: "MAP" (a
    metric the metric lists give), "ADAM" (an optimizer), "Supervised", "Google" (a system a
    table compares); none is data, "WebNLG" is, and the shipped list holds none of the four."""
    folder = tmp_path / "gazetteers"
    folder.mkdir()
    (folder / "pwc_datasets_in_acl_anthology.tsv").write_text(
        "name\tn_acl_papers\nMAP\t3\nADAM\t2\nSupervised\t2\nGoogle\t4\nWebNLG\t21\n", encoding="utf-8")
    (folder / "leaderboards_metrics.tsv").write_text("metric\tcount\nMAP\t9\n", encoding="utf-8")
    assert set(read_folder(folder)["DatasetName"].values()) == {"WebNLG"}
    shipped = Gazetteer()
    assert [n for n in ("MAP", "ADAM", "Supervised", "Google") if shipped.canonical("DatasetName", n)] == []
    assert shipped.canonical("DatasetName", "webnlg") == "WebNLG"


# --- cleaning rules, each on text from ../shared/data/pdfs as the shipped model tagged it ------

def entity_names(paragraphs: list[Paragraph], rules=CLEAN_RULES) -> dict[str, list[str]]:
    summary = summarize_paper("p", paragraphs, Gazetteer.empty(), clean=rules)
    found: dict[str, list[str]] = {}
    for e in summary.entities:
        found.setdefault(e.type, []).append(e.name)
    return found


def test_a_name_cut_at_a_hyphen_is_joined_again():
    # P14-1059: "the AN - NPN dataset", the tagger split at the hyphen ("AN -" a dataset, "NPN" a task)
    p = tagged("distinguish the two subsets of the AN - NPN dataset introduced in Section 5",
               ("DatasetName", 6, 8), ("TaskName", 8, 9))
    assert entity_names([p], ()) == {"DatasetName": ["AN"], "TaskName": ["NPN"]}
    assert entity_names([p], ("hyphens",)) == {"DatasetName": ["AN-NPN"], "TaskName": ["AN-NPN"]}


def test_a_name_before_a_hyphenated_suffix_stays_itself():
    # 1908.09091: "Recent BERT - based models", tagged "BERT -"
    p = tagged("Recent BERT - based models have reported dramatic gains .", ("MethodName", 1, 3))
    assert entity_names([p], ("hyphens",))["MethodName"] == ["BERT"]


def test_a_name_is_not_joined_to_a_number_before_a_hyphen():
    # 1903.10676: "a 2 - layer BiLSTM": "2" is the value of "layer", not part of its name
    p = tagged("of BERT vectors into a 2 - layer BiLSTM of size 200 and apply", ("MethodName", 1, 2),
               ("HyperparameterValue", 5, 6), ("HyperparameterName", 7, 8), ("MethodName", 8, 9),
               ("HyperparameterValue", 11, 12))
    summary = summarize_paper("p", [p], Gazetteer.empty(), clean=("hyphens",))
    assert [(v.value, v.of) for v in summary.values][:1] == [("2", "layer")]


def test_an_unmatched_bracket_cuts_the_name():
    # 1805.01087: "root accuracy ( RA )" tagged whole; the trailing ")" trimmed, "( RA" was left
    p = tagged("and root accuracy ( RA ) .", ("MetricName", 1, 6))
    assert entity_names([p], ())["MetricName"] == ["root accuracy ( RA"]
    assert entity_names([p], ("brackets",))["MetricName"] == ["root accuracy"]


def test_a_name_said_twice_over_is_said_once():
    # 1802.05365: a section head merged with the sentence it heads
    p = tagged("Coreference resolution Coreference resolution is the task of clustering mentions",
               ("TaskName", 0, 4))
    assert entity_names([p], ("repeats",))["TaskName"] == ["Coreference resolution"]


def test_fragments_are_dropped():
    # 2023.eacl-main.121: "( f = 0.5 )" tagged as a metric; 1804.05392: "B" of the metric B³ is kept
    paragraphs = [tagged("Despite annotating just half the summary ( f = 0.5 ) , in both datasets",
                         ("MetricName", 7, 8)),
                  tagged("and F1 of the the MUC , B , and CEAF φ4 metrics using the official",
                         ("MetricName", 1, 2), ("MetricName", 5, 6), ("MetricName", 7, 8), ("MetricName", 10, 12))]
    assert sorted(entity_names(paragraphs, ())["MetricName"]) == ["B", "CEAF φ4", "F1", "MUC", "f"]
    assert sorted(entity_names(paragraphs, ("fragments",))["MetricName"]) == ["B", "CEAF φ4", "F1", "MUC"]
    # 1805.01087: "sib" (of "+sib"), a lower-case fragment of a method's name
    p = tagged("STACKPTR +sib", ("MethodName", 0, 1), ("MethodName", 1, 2))
    assert entity_names([p], ("fragments",))["MethodName"] == ["STACKPTR"]


def test_hyperparameter_names_are_whole_as_tagged():
    # 1802.05365: "λ" is the name of a value ("λ = 0.001")
    p = tagged("with λ = 0.001 for all tasks", ("HyperparameterName", 1, 2), ("HyperparameterValue", 3, 4))
    summary = summarize_paper("p", [p], Gazetteer.empty())
    assert [(e.type, e.name) for e in summary.entities] == [("HyperparameterName", "λ")]
    assert [(v.value, v.of) for v in summary.values] == [("0.001", "λ")]


def test_a_name_the_text_completes_to_a_longer_name_is_that_name():
    # 1808.10792: "NYT corpus" tagged twice, "NYT" in "the NYT corpus" elsewhere
    paragraphs = [tagged("and evaluated on the NYT corpus can be improved", ("DatasetName", 4, 6)),
                  tagged("whereas the NYT corpus contains summaries written", ("DatasetName", 2, 4)),
                  tagged("For experiments with the NYT corpus , we use", ("DatasetName", 4, 5))]
    assert sorted(entity_names(paragraphs, ())["DatasetName"]) == ["NYT", "NYT corpus"]
    assert entity_names(paragraphs, ("longer",))["DatasetName"] == ["NYT corpus"]


def test_a_name_is_not_taken_into_a_rarer_longer_one():
    # 1804.08199: "D&M parses LISA" tagged once; "D&M" is tagged more often than that
    paragraphs = [tagged("but with D&M parses LISA performs exceptionally well", ("MethodName", 2, 5)),
                  tagged("We train distinct D&M parsers for CoNLL-2005", ("MethodName", 3, 4)),
                  tagged("when provided with stronger D&M parses LISA out", ("MethodName", 4, 5))]
    assert sorted(entity_names(paragraphs, ("longer",))["MethodName"]) == ["D&M", "D&M parses LISA"]


def test_score_is_no_part_of_a_metric_name_and_a_net_is_its_name():
    # 1805.01087: "labeled attachment score" (the standard: "macro F1 score" is macro F1)
    p = tagged("the labeled attachment score ( LAS ) and", ("MetricName", 1, 4), ("MetricName", 5, 6))
    assert entity_names([p], ("heads",))["MetricName"] == ["LAS"]  # one entity: its long form is "labeled attachment"
    # issue 33: "Co-guiding Net" and "Co-guiding" are one method
    q = [tagged("we propose Co-guiding Net , in which", ("MethodName", 2, 4)),
         tagged("Co-guiding outperforms all baselines", ("MethodName", 0, 1)),
         tagged("Co-guiding Net reaches", ("MethodName", 0, 2))]
    assert sorted(entity_names(q, ())["MethodName"]) == ["Co-guiding", "Co-guiding Net"]
    assert entity_names(q, ("heads",))["MethodName"] == ["Co-guiding Net"]


def test_a_name_takes_the_type_most_of_its_mentions_have():
    # 1809.08887: "Spider" tagged a dataset mostly, a method once
    paragraphs = [tagged("we introduce Spider , a large-scale", ("DatasetName", 2, 3)),
                  tagged("Spider contains 10,181 questions", ("DatasetName", 0, 1)),
                  tagged("models trained on Spider", ("MethodName", 3, 4))]
    assert entity_names(paragraphs, ()) == {"MethodName": ["Spider"], "DatasetName": ["Spider"]}
    assert entity_names(paragraphs, ("one type",)) == {"DatasetName": ["Spider"]}


def test_a_lower_case_method_said_once_is_dropped():
    # 1904.02232: "masked language model" once as a method; 1908.09091: "c2f-coref", said again
    paragraphs = [tagged("with a masked language model objective", ("MethodName", 2, 5)),
                  tagged("the original ELMo-based c2f-coref system", ("MethodName", 3, 4)),
                  tagged("the c2f-coref model", ("MethodName", 1, 2)),
                  tagged("computed with a bidirectional LSTM", ("MethodName", 3, 5))]
    assert sorted(entity_names(paragraphs, ("lower",))["MethodName"]) == ["bidirectional LSTM", "c2f-coref"]


# --- which entities a paper's list shows (what a reader would list) ----------------------------

def scored(text: str, *entities: tuple[str, int, int, float]) -> Paragraph:
    return Paragraph(text.split(), spans=[Span(label, start, end, score) for label, start, end, score in entities])


def test_a_name_of_generic_words_only_is_not_listed():
    # dev papers: "SENTENCE" and "Base / Small" tagged as methods, "t-test" and "Mean" as metrics
    paragraphs = [tagged("BERT with SENTENCE inputs", ("MethodName", 0, 1), ("MethodName", 2, 3)),
                  tagged("the Base / Small models after fine-tuning", ("MethodName", 1, 4), ("MethodName", 6, 7)),
                  tagged("a t-test on the Mean F1", ("MetricName", 1, 2), ("MetricName", 4, 5), ("MetricName", 5, 6))]
    assert entity_names(paragraphs, ("generic",)) == {"MethodName": ["BERT"], "MetricName": ["F1"]}
    assert len(entity_names(paragraphs, ())["MethodName"]) == 4
    # a hyperparameter's name is listed as tagged: "layers" is one
    assert entity_names([tagged("with 12 layers", ("HyperparameterName", 2, 3))], ("generic", "main type")) == {
        "HyperparameterName": ["layers"]}


def test_generic_words_leave_short_names_and_task_words_alone():
    assert is_generic("pre-training") and is_generic("Multi-domain") and is_generic("p-value")
    for name in ("P", "R", "F1", "Accuracy", "Summarization", "Transformer", "BERT-base", "Multi-task learning"):
        assert not is_generic(name), name


def test_what_the_layout_made_is_not_listed():
    # dev papers: a footnote's 6 glued to "The", "V2.0" alone as a dataset
    p = tagged("6The data of SQuAD 2.0 ( V2.0 )", ("DatasetName", 0, 1), ("DatasetName", 3, 5), ("DatasetName", 6, 7))
    assert entity_names([p], ("layout",)) == {"DatasetName": ["SQuAD 2.0"]}


def test_a_method_said_rarely_and_unsurely_is_not_listed():
    paragraphs = [scored("FTS and BART", ("MethodName", 0, 1, 0.22), ("MethodName", 2, 3, 0.2)),
                  scored("BART again and BART", ("MethodName", 0, 1, 0.25), ("MethodName", 3, 4, 0.1)),
                  scored("on paraphrase", ("TaskName", 1, 2, 0.16))]
    assert entity_names(paragraphs, ("unsure",)) == {"MethodName": ["BART"], "TaskName": ["paraphrase"]}
    assert sorted(entity_names(paragraphs, ())["MethodName"]) == ["BART", "FTS"]
    assert entity_names([tagged("FTS", ("MethodName", 0, 1))], ("unsure",)) == {"MethodName": ["FTS"]}  # no score


def test_a_name_is_listed_under_the_type_it_is_said_most_as():
    paragraphs = [tagged("we introduce Spider , a large-scale", ("DatasetName", 2, 3)),
                  tagged("Spider contains 10,181 questions", ("DatasetName", 0, 1)),
                  tagged("models trained on Spider", ("MethodName", 3, 4))]
    assert entity_names(paragraphs, ("main type",)) == {"DatasetName": ["Spider"]}
    tie = [tagged("RACE", ("DatasetName", 0, 1)), tagged("RACE", ("TaskName", 0, 1))]
    assert entity_names(tie, ("main type",)) == {"DatasetName": ["RACE"], "TaskName": ["RACE"]}


def test_a_name_left_off_the_list_is_still_known():
    """The results reader still reads a column named by a name the list leaves out."""
    paragraphs = [tagged("models trained on Spider and Spider", ("DatasetName", 3, 4), ("DatasetName", 5, 6)),
                  tagged("Spider", ("MethodName", 0, 1)), tagged("the Mean", ("MetricName", 1, 2))]
    found = paper_entities(paragraphs, clean=("main type", "generic"))
    assert [(e.type, e.name) for e in found.entities] == [("DatasetName", "Spider")]
    assert found.known_as("Spider")["MethodName"] == ("Spider", 1)
    assert found.known_as("Mean")["MetricName"] == ("Mean", 1)


def test_any_caller_can_ask_whether_a_name_would_be_listed():
    assert not is_listed("MetricName", "Mean") and not is_listed("DatasetName", "V2.0")
    assert not is_listed("TaskName", "reading comprehension style question answering over paragraphs")
    assert is_listed("MethodName", "FTS", mentions=1, score=0.2)  # "unsure" is not applied by default
    assert not is_listed("MethodName", "FTS", mentions=1, score=0.2, rules=("unsure",))
    assert is_listed("MethodName", "FTS", mentions=3, score=0.2, rules=("unsure",))
    assert is_listed("TaskName", "paraphrase", mentions=1, score=0.16, rules=("unsure",))
    assert is_listed("MetricName", "Mean", rules=())


def test_names_run_together_are_not_listed():
    # results dev papers: a table's row of heads read as one dataset name
    paragraphs = [tagged("on MPQA and TREC", ("DatasetName", 1, 2), ("DatasetName", 3, 4)),
                  tagged("MPQA TREC SST", ("DatasetName", 0, 2)),
                  tagged("on CNN / Daily Mail , CNN and Daily Mail", ("DatasetName", 1, 5), ("DatasetName", 6, 7),
                         ("DatasetName", 8, 10)),
                  tagged("Exact Match Accuracy , Exact Match and Accuracy", ("MetricName", 0, 3),
                         ("MetricName", 4, 6), ("MetricName", 7, 8))]
    listed = entity_names(paragraphs, ("runs",))
    assert "MPQA TREC" not in listed["DatasetName"] and "CNN / Daily Mail" in listed["DatasetName"]
    assert "Exact Match Accuracy" in listed["MetricName"]  # "Accuracy" is written as a word, not a name
    assert is_run("SQuAD1.1 SQuAD2.0", {"squad11", "squad20"}) and not is_run("SQuAD1.1", {"squad11"})
    assert not is_run("Bi-LSTM- CNN", {"bilstm", "cnn"})


def test_a_name_of_many_words_is_not_listed():
    # dev papers: a dataset's name run into the expansion the text gives it
    p = tagged("the RACE The ReAding Comprehension from Examinations set and the Penn Discourse Tree Bank",
               ("DatasetName", 1, 7), ("DatasetName", 10, 14))
    assert entity_names([p], ("long",)) == {"DatasetName": ["Penn Discourse Tree Bank"]}


def test_score_after_a_hyphen_is_no_part_of_a_metric_name():
    # dev papers: "F1 - score" and "F1" one metric
    paragraphs = [tagged("we calculate the F1 - score in", ("MetricName", 3, 6)),
                  tagged("a higher F1 than", ("MetricName", 2, 3))]
    assert entity_names(paragraphs, ("hyphens", "heads"))["MetricName"] == ["F1"]
    assert entity_names([tagged("the F - score", ("MetricName", 1, 4))], ("hyphens", "heads"))["MetricName"] == ["F-score"]


def test_a_word_saying_a_methods_role_is_no_part_of_its_name():
    # the annotation standard: "the pretrained BERT model" is BERT; dev papers: "orig- inal BERT"
    paragraphs = [tagged("the pretrained BERT model", ("MethodName", 1, 3)),
                  tagged("than the orig- inal BERT , and a standard Transformer", ("MethodName", 2, 5),
                         ("MethodName", 8, 10))]
    assert sorted(entity_names(paragraphs, ())["MethodName"]) == ["orig- inal BERT", "pretrained BERT",
                                                                  "standard Transformer"]
    assert sorted(entity_names(paragraphs, ("modifiers",))["MethodName"]) == ["BERT", "Transformer"]
    # what is left must be written as a name; a metric or task keeps its words
    assert without_modifier("MethodName", "standard deviation") == "standard deviation"
    assert without_modifier("MethodName", "Standard") == "Standard"
    assert without_modifier("TaskName", "traditional QA") == "traditional QA"
    assert without_modifier("DatasetName", "Pre-trained original ELMo") == "ELMo"


def test_an_optimizer_is_no_method():
    # the annotation standard: "Adam" is the value of the optimizer hyperparameter
    p = tagged("trained with SGD , then Adam , as LSTM", ("MethodName", 2, 3), ("MethodName", 5, 6),
               ("MethodName", 8, 9))
    assert entity_names([p], ("optimizers",)) == {"MethodName": ["LSTM"]}
    assert not is_listed("MethodName", "AdaGrad") and is_listed("MethodName", "AdaGrad", rules=())
    assert is_listed("HyperparameterName", "Adam")  # only methods are weighed


def test_averaging_hardware_and_unknown_words_are_generic():
    for name in ("Macro Average", "micro", "TPUs", "GPU", "UNK"):
        assert is_generic(name), name
    for name in ("Macro F1", "micro-F1", "TPU-v3 LM"):
        assert not is_generic(name), name


def test_single_capitals_run_together_are_not_listed():
    # a table's heads "P R F1" read as one metric, where P, R and F1 are each tagged
    paragraphs = [tagged("P R F1", ("MetricName", 0, 3)), tagged("P , R and F1", ("MetricName", 0, 1),
                                                                    ("MetricName", 2, 3), ("MetricName", 4, 5))]
    assert sorted(entity_names(paragraphs, ("runs",))["MetricName"]) == ["F1", "P", "R"]


def test_a_name_said_only_in_tables_and_captions_is_not_listed():
    # the annotation standard leaves tables and captions unannotated: a baseline named only in a
    # table is in no annotator's list, though the results reader still reads its row
    def pdf(text: str, kind: str, *entities: tuple[str, int, int]) -> Paragraph:
        p = tagged(text, *entities)
        p.meta["kind"] = kind
        return p

    paragraphs = [pdf("BERT beats ELMo on SQuAD", "body", ("MethodName", 0, 1), ("MethodName", 2, 3),
                      ("DatasetName", 4, 5)),
                  pdf("Model SQuAD BiDAF 77.3 ELMo 85.8 BERT 90.9", "table", ("DatasetName", 1, 2),
                      ("MethodName", 2, 3), ("MethodName", 4, 5), ("MethodName", 6, 7)),
                  pdf("Table 1 : R-Net and BERT on SQuAD", "caption", ("MethodName", 3, 4), ("MethodName", 5, 6))]
    assert sorted(entity_names(paragraphs, ())["MethodName"]) == ["BERT", "BiDAF", "ELMo", "R-Net"]
    assert sorted(entity_names(paragraphs, ("text",))["MethodName"]) == ["BERT", "ELMo"]
    found = paper_entities(paragraphs, clean=("text",))
    assert found.known_as("BiDAF")["MethodName"] == ("BiDAF", 1)
    # text without kinds (CoNLL, plain text) is all annotated
    assert sorted(entity_names([tagged("BiDAF", ("MethodName", 0, 1))], ("text",))["MethodName"]) == ["BiDAF"]


def test_a_possessive_s_folds_away_so_spellings_with_and_without_it_are_one_name():
    """DCLR's "Spearman ’s correlation" and its "Spearman Correlation" were two metrics of the
    paper's list (a regression); "Pearson's r" is "Pearson r"; a plural is no possessive."""
    assert fold("Spearman ’s correlation") == fold("Spearman Correlation") == fold("Spearman's correlation")
    assert fold("Pearson's r") == fold("Pearson r")
    assert fold("Matthews correlation") != fold("Matthew correlation") and fold("SQuAD v1.1") == "squadv11"
