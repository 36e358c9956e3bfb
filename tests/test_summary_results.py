"""Results read off real tables and sentences (issue 31): each failure class of the table and
sentence readers, on rows, captions and sentences of the shared PDFs as ``sciner predict
--include tables,captions`` tagged them (``tests/fixtures/summarize/results_tables.jsonl.gz``:
eight tables and four sentences of tune papers of ``benchmarks/results_dev/headlines.tsv``)."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from sciner.document import Paragraph, Span
from sciner.summary.assemble import PaperSummary, corpus_table, summarize_paper
from sciner.summary.names import Gazetteer
from sciner.summary.ours import CITATION, CITED, cited_names, mark_ours
from sciner.summary.papers import read_papers
from sciner.summary.provenance import split_citation
from sciner.summary.tables.caption import (
    bracketed_score, caption_reason, evaluated_dataset, read_caption, said_metrics,
)
from sciner.summary.values import Result
from sciner.summary.tables.cells import (
    cell_numbers, is_language, metric_like, names_aspect, not_score_head, prints_numbers_only, says_nothing, split_name,
    table_rows,
)
from sciner.summary.tables.conventions import ASSUMED, USUAL, benchmark_metric, usual_metric
from sciner.summary.tables.namer import Namer
from sciner.summary.tables.reader import Table, data_rows, read_table

from helpers.papers import bracketed, caption, row, tagged  # a table row and a caption as --include tables writes them

FIXTURE = Path(__file__).parent / "fixtures" / "summarize" / "results_tables.jsonl.gz"


@pytest.fixture(scope="module")
def papers(tmp_path_factory: pytest.TempPathFactory) -> dict[str, PaperSummary]:
    path = tmp_path_factory.mktemp("results") / "results_tables.jsonl"
    path.write_bytes(gzip.decompress(FIXTURE.read_bytes()))
    return {paper.doc: summarize_paper(paper.doc, paper.paragraphs) for paper in read_papers(path)}


def found(summary: PaperSummary) -> set[tuple[str | None, str | None, str, str | None]]:
    return {(r.dataset, r.metric, r.value, r.model) for r in summary.results}


@pytest.mark.parametrize(("text", "numbers"), [
    ("88.7 ± 0.17", [("88.7", None), ("0.17", "deviation")]),
    ("80.6/80.1", [("80.6", None), ("80.1", None)]),
    ("0.36,0.61", [("0.36", None), ("0.61", None)]),
    ("0.907 ( 19 % )", [("0.907", None), ("19%", "difference")]),
    ("92.80±0.26 [ 88.36±0.18 ]", [("92.80", None), ("0.26", "deviation"), ("88.36", None), ("0.18", "deviation")]),
    ("+0.25", [("+0.25", "difference")]), ("86.78 b", [("86.78", None)]), ("392k", []), ("SST-2", []),
    ("85.21(.58)", [("85.21", None), ("0.58", "deviation")]), ("85.2 (0.6)", [("85.2", None), ("0.6", "deviation")]),
    # a FLOPs cell and its multiple (read as a model's name before)
    ("6.4e19 ( 45x )", [("6.4e19", "size"), ("45x", "amount")]), ("3.3e20 + ( 182x+ )", [("3.3e20", "size"), ("182x+", "amount")]),
    ("85.2±0.6", [("85.2", None), ("0.6", "deviation")]), ("85.2 +/- 0.6", [("85.2", None), ("0.6", "deviation")]),
    ("3.5 [ 2.1 ]", [("3.5", None), ("2.1", None)]), ("84.7/85.0/84.9", [("84.7", None), ("85.0", None), ("84.9", None)]),
    ("86.6/-", [("86.6", None)]), (".69/ -", [("0.69", None)]), ("- 0.7 / -0.7", [("-0.7", None), ("-0.7", None)]),
    (".97", [("0.97", None)]), ("24 * *", [("24", None)]), ("86.2†", [("86.2", None)]),
    ("87.42∗", [("87.42", None)]), ("88.27 ∗ ⋆", [("88.27", None)]), ("**85.2**", [("85.2", None)]),
    # marks after a score: of two notes, of a number taken from the original paper, of better or worse
    ("76.01†,‡", [("76.01", None)]), ("70.49\\", [("70.49", None)]), ("87.52 ↑", [("87.52", None)]),
    ("91.62(±0.33 )", [("91.62", None), ("0.33", "deviation")]),
    ("( 91.48±0.07 )", [("91.48", None), ("0.07", "deviation")]),  # a mean and its deviation bracketed whole
    ("95.4 %", [("95.4%", None)]), ("1,806,230 ( 1,542,805 )", [("1,806,230", None), ("1,542,805", "parenthesized")]),
    ("1,024", [("1,024", None)]), ("3 × 10−5", [("3e-5", "setting")]), ("3e-5", [("3e-5", "setting")]), ("1.2E+3", [("1.2e+3", "size")]),
    ("10−5", [("1e-5", "setting")]), ("1024", [("1024", None)]), ("100", [("100", None)]), ("5.2.1", []), ("512 + 512", []), ("2017 ) .", []),
])
def test_a_cell_is_read_into_its_scores_and_what_is_no_score(text, numbers):
    assert [(n.number, n.why) for n in cell_numbers(text)] == numbers


@pytest.mark.parametrize(("text", "parts"), [
    ("80.6/80.1", [(0, 2), (1, 2)]), ("86.6/-", [(0, 2)]), ("-/80.2", [(1, 2)]), ("92.80±0.26 [ 88.36±0.18 ]", [(0, 2), None, (1, 2), None]),
    ("84.7/85.0/84.9", [(0, 3), (1, 3), (2, 3)]), ("88.7 ± 0.17", [None, None]),
])
def test_each_score_of_a_cell_of_several_knows_its_place_a_dash_keeping_its_own(text, parts):
    assert [n.part for n in cell_numbers(text)] == parts


@pytest.mark.parametrize(("name", "part", "named"), [
    ("MNLI-(m/mm)", (1, 2), "MNLI-mm"), ("UAS [ LAS ]", (1, 2), "LAS"), ("P / R / F1", (2, 3), "F1"),
    ("P / R / F1", (0, 2), "P / R / F1"), ("F1", (1, 3), "F1"),
    ("MNLI - m / mm", (0, 2), "MNLI-m"), ("MNLI - m / mm", (1, 2), "MNLI-mm"), ("F1 / EM", (1, 2), "EM"),
])
def test_a_name_over_a_cell_of_several_scores_names_each_its_own(name, part, named):
    assert split_name(name, part) == named


@pytest.mark.parametrize(("text", "only"), [("85.2", True), ("5.2.1", True), ("512 + 512", True), ("3 × 10−5", True),
                                            ("86.78 b", True), ("392k", False), ("SST-2", False), ("Model", False)])
def test_a_cell_printing_numbers_only_is_one_no_reading_may_drop(text, only):
    assert prints_numbers_only(text) is only


@pytest.mark.parametrize(("head", "metric"), [("BLEU", "BLEU"), ("ROUGE-1", "ROUGE-1"), ("R-L", "R-L"), ("EM", "EM"),
                                              ("R1(%)", "R1"), ("Acc .", "Acc ."), ("MCC", "MCC"), ("MF1", "MF1"),
                                              ("P@1", "P@1"), ("ρ", "ρ"), ("Laptop", None), ("Arabic", None),
                                              ("Pearson Corr.", "Pearson Corr."), ("Matthew Corr .", "Matthew Corr ."),
                                              ("Spearman’s rho", "Spearman’s rho"), ("Pearsonian", None)])
def test_heads_that_read_as_metrics(head, metric):
    assert metric_like(head) == metric


@pytest.mark.parametrize(("head", "reason"), [("∆", "difference"), ("#Docs", "count"), ("Time ( secs )", "time"),
                                              ("# Params", "count"), ("std", "deviation"), ("p-value", "p-value"),
                                              ("F1", None), ("Laptop", None)])
def test_heads_over_numbers_that_are_no_scores(head, reason):
    assert not_score_head(head) == reason


def test_a_difference_in_parentheses_is_no_result_and_dataset_heads_take_the_caption_metric(papers):
    """P07-1088 Table 2: relations head the columns, the caption gives the metric ("area under
    the precision/recall curve"), "0.907 ( 19 % )" holds an error reduction."""
    realm = papers["acl_P07-1088_sparse_information_extraction"]
    assert ("Conquered", "area under precision/recall curve", "0.907", "REALM") in found(realm)
    assert ("Merged", "area under precision/recall curve", "0.908", "REALM") in found(realm)
    assert ("Founded", "area under precision/recall curve", "0.633", "PL") in found(realm)  # "PL" an acronym, no language
    assert {(n.value, n.reason) for n in realm.not_results} >= {("19%", "difference"), ("39%", "difference")}
    assert not any(r.value.endswith("%") for r in realm.results)


def test_a_dataset_head_spans_the_metric_heads_below_it(papers):
    """BERT post-training Table 6: "Laptop" and "Rest." each over "Acc." and an untagged "MF1"."""
    absa = found(papers["arxiv_1904.02232_bert_post_training_absa_naacl2019"])
    assert {("Laptop", "Acc .", "78.07", "BERT - PT"), ("Laptop", "MF1", "75.08", "BERT - PT"),
            ("Rest .", "Acc .", "84.95", "BERT - PT"), ("Rest .", "MF1", "76.96", "BERT - PT")} <= absa


def test_x_y_cells_and_metrics_the_caption_gives_each_dataset(papers):
    """BERT Table 1: "86.7/85.9" under "MNLI-(m/mm)" is two results; the caption's "F1 scores
    are reported for QQP and MRPC, Spearman correlations ... for STS-B, and accuracy ... for
    the other tasks"; "392k" under each task is no number; BERT, the title's method, is ours."""
    bert = papers["arxiv_1810.04805_bert_naacl2019"]
    got = found(bert)
    assert {("MNLI-m", "accuracy", "86.7", "BERT LARGE"), ("MNLI-mm", "accuracy", "85.9", "BERT LARGE"),
            ("QQP", "F1", "72.1", "BERT LARGE"), ("MRPC", "F1", "89.3", "BERT LARGE"),
            ("STS-B", "Spearman correlations", "86.5", "BERT LARGE"), ("RTE", "accuracy", "70.1", "BERT LARGE")} <= got
    assert bert.proposed == ["BERT"]
    assert {r.model for r in bert.results if r.ours} == {"BERT BASE", "BERT LARGE"}
    assert corpus_table([bert])["ours"][0]["model"] == "BERT BASE"


def test_group_labels_ours_rows_and_unnamed_heads_qualify_the_caption_dataset(papers):
    """Self-attentive parser Table 7: languages head the columns of "Results on the SPMRL dataset.
    All values are F1 scores"; "Dev/Test (all lengths)" label groups of rows; "Ours (...)" rows
    are the paper's own; the "∆: Ours - Best Previous" row holds differences."""
    parser = papers["arxiv_1805.01052_self_attentive_parser_acl2018"]
    ours = {(r.dataset, r.metric, r.value) for r in parser.results if r.ours}
    assert {("SPMRL Arabic", "F1", "85.61"), ("SPMRL Swedish", "F1", "84.45")} <= ours
    assert ("SPMRL Korean", "F1", "86.78", "Coavoux and Crabbé ( 2017 )") in found(parser)  # "86.78 b": a footnote
    assert not any(r.ours for r in parser.results if "et al" in (r.model or "") or "Crabb" in (r.model or ""))
    assert {("+2.69", "difference"), ("-1.05", "difference")} & {(n.value, n.reason) for n in parser.not_results}


def test_languages_over_columns_are_data_and_a_metric_head_tagged_as_a_method_is_a_metric(papers):
    """Stack-pointer Table 1: "English Chinese German" over "UAS LAS" pairs."""
    parser = found(papers["arxiv_1805.01087_stack_pointer_parsing_acl2018"])
    assert {("Chinese", "UAS", "90.59", "STACKPTR : Full T"), ("German", "LAS", "92.11", "STACKPTR : Full T")} <= parser


def test_a_transposed_table_deviations_and_an_increase_column(papers):
    """ELMo Table 1: tasks down the rows, "ELMO + BASELINE" over a column, "88.7 ± 0.17", and the
    "INCREASE (ABSOLUTE/RELATIVE)" column of differences."""
    elmo = papers["arxiv_1802.05365_elmo_naacl2018"]
    assert {("SNLI", "accuracy", "88.7", "ELMo"), ("SST-5", "accuracy", "54.7", "ELMo")} <= found(elmo)
    reasons = {(n.value, n.reason) for n in elmo.not_results}
    assert {("0.17", "deviation"), ("4.7", "difference"), ("24.9%", "difference")} <= reasons
    assert not any(r.dataset and "OUR" in r.dataset for r in elmo.results)


def test_cited_rows_are_baselines_and_ours_rows_are_ours(papers):
    """AGGCN Table 2 on TACRED: "C - AGGCN ( ours )" is the paper's, "C - GCN ( Zhang et al . ,
    2018 )" a baseline."""
    aggcn = papers["arxiv_1906.07510_aggcn_relation_extraction_acl2019"]
    assert {(r.model, r.metric, r.value) for r in aggcn.results if r.ours} >= {("C - AGGCN ( ours )", "F1", "68.2")}
    assert not any(r.ours for r in aggcn.results if "Zhang" in (r.model or ""))


@pytest.mark.parametrize(("text", "cited"), [
    ("C - GCN ( Zhang et al . , 2018 )", True), ("LISA ( 2018 )", True), ("Zhang et al . 2018", True),
    ("C - AGGCN ( ours )", False), ("BERT LARGE ( 340M )", False), ("Model ( 1024 )", False),
])
def test_a_row_label_citing_prior_work_is_a_baseline(text, cited):
    assert bool(CITED.search(text)) is cited


def test_a_proposed_name_followed_by_a_citation_is_built_on():
    paragraphs = [tagged("We build on BERT ( Devlin et al . , 2019 ) and LSTM [ 12 ] .",
                         ("MethodName", 3, 4), ("MethodName", 13, 14)),
                  tagged("Our SpanBERT beats ELMo ( 2018 ) .", ("MethodName", 1, 2), ("MethodName", 3, 4))]
    assert cited_names(paragraphs, ["BERT", "LSTM", "SpanBERT"]) == {"BERT", "LSTM"}
    assert CITATION.sub("", "BC5CDR ( Li et al . , 2016 )").strip() == "BC5CDR"


def test_gains_in_sentences_are_no_results(papers):
    """ULMFiT: "we reduce the error by 4.8 % , 18.2 % , 2.0 % respectively"; ELMo: "increased
    development accuracy 0.6 % from 88.9 % to 89.5 %"; the parser: "an improvement of almost 0.5
    F1"; ELMo: "λ = 0.001" a setting."""
    ulmfit = papers["arxiv_1801.06146_ulmfit_acl2018"]
    assert {("4.8 %", "difference"), ("18.2 %", "difference"), ("2.0 %", "difference")} <= \
        {(n.value, n.reason) for n in ulmfit.not_results}
    assert all(r.table for r in ulmfit.results)
    elmo = papers["arxiv_1802.05365_elmo_naacl2018"]
    assert ("0.6 %", "difference") in {(n.value, n.reason) for n in elmo.not_results}
    assert {("SNLI", "accuracy", "89.5 %")} <= {(r.dataset, r.metric, r.value) for r in elmo.results}
    parser = papers["arxiv_1805.01052_self_attentive_parser_acl2018"]
    assert ("0.5", "difference") in {(n.value, n.reason) for n in parser.not_results}
    assert "0.5" not in {r.value for r in parser.results}


def tagged(text: str, *entities: tuple[str, int, int]) -> Paragraph:
    tokens = text.split()
    return Paragraph(tokens, spans=[Span(label, a, b) for label, a, b in entities],
                     meta={"kind": "body", "section": "1 Introduction"})


def test_settings_counts_and_lists_in_sentences():
    """A setting ("λ = 0.001", as ELMo writes it), a count, a bound (P14-1059's "chance level <
    0.0001") and a gain (LISA's "out - performs ... by 1.5 - 2 F1 points") are no results; in "A ( 68.2 ) and
    B ( 66.2 )" each value is its own name's; "we propose X" makes X's results ours, and "We obtain
    ... 0.23" makes 0.23 the paper's own."""
    paragraphs = [
        tagged("We propose FooNet , a parser .", ("MethodName", 2, 3)),
        tagged("The best configuration used layer normalization and λ = 0.001 .", ("HyperparameterName", 7, 8),
               ("MetricValue", 9, 10)),
        tagged("We annotate 620 examples for F1 .", ("MetricValue", 2, 3), ("MetricName", 5, 6)),
        tagged("We obtain excellent results , with minimum accuracy of 0.23 ( chance level < 0.0001 ) .",
               ("MetricName", 7, 8), ("MetricValue", 9, 10), ("MetricValue", 14, 15)),
        tagged("LISA out - performs He et al . ( 2017 ) by 1.5 - 2 F1 points even on the Brown test set .",
               ("MethodName", 0, 1), ("MetricValue", 12, 14), ("MetricValue", 14, 15), ("MetricName", 15, 17)),
        tagged("LISA achieves more than 2.0 F1 higher on Brown .", ("MethodName", 0, 1), ("MetricValue", 4, 5),
               ("MetricName", 5, 6)),
        tagged("F1 on SQuAD is high : FooNet ( 68.2 ) and BarNet ( 66.2 ) .", ("MetricName", 0, 1),
               ("DatasetName", 2, 3), ("MethodName", 6, 7), ("MetricValue", 8, 9), ("MethodName", 11, 12),
               ("MetricValue", 13, 14)),
    ]
    summary = summarize_paper("p", paragraphs)
    assert [(r.model, r.value, r.ours) for r in summary.results] == [(None, "0.23", True), ("FooNet", "68.2", True),
                                                                     ("BarNet", "66.2", None)]
    assert {(n.value, n.reason) for n in summary.not_results} == {("0.001", "setting"), ("620", "count"),
                                                                  ("0.0001", "bound"), ("1.5 -", "difference"),
                                                                  ("2", "difference"), ("2.0", "difference")}


def test_a_table_of_data_statistics_holds_no_results_and_respectively_pairs_in_order(papers):
    """Multi-LexSum Table 2 compares datasets ("Samples Docs Words Sents ... Coverage Density");
    a sentence lists "Rouge-1 , Rouge-2 , Rouge - L and BERT - Scores were 45.6 , 30.0 , 35.4
    and 38.0 , respectively"."""
    lexsum = papers["arxiv_2206.10883_multi_lexsum"]
    assert not [r for r in lexsum.results if r.table == "table 2"]
    assert {n.reason for n in lexsum.not_results if n.table == "table 2"} <= {"statistic", "count", "no metric"}
    assert [(r.metric, r.value) for r in lexsum.results if not r.table] == [("Rouge-1", "45.6"), ("Rouge-2", "30.0"),
                                                              ("Rouge-L", "35.4"), ("BERT-Scores", "38.0")]


def test_a_head_centered_over_its_group_of_sub_heads_heads_the_whole_group(papers):
    """PaperMage Table 3: "GROBID CRF GROBID NN RoBERTa I-VILA", each over its "P R F1", the last
    two set over the middle column of theirs; rows are categories ("Abstract"), no models."""
    table = papers["emnlp2023demo_papermage"]
    abstract = {(r.model, r.metric, r.value) for r in table.results if r.place[0] == table.results[0].place[0]}
    assert {("RoBERTa", "P", "89.2"), ("RoBERTa", "F1", "91.4"), ("I - VILA", "P", "97.4"),
            ("I - VILA", "F1", "97.8")} <= abstract


def test_heads_a_caption_legend_defines_as_tasks_are_no_metrics(papers):
    """SPECTER Table 2: "CLS USR CITE REC Avg." over averages, the caption's legend "CLS :
    classification , USR : User activity , CITE : Citation prediction , REC : Recommendation":
    no column is a metric "REC"."""
    specter = papers["acl_2020.acl-main.207_specter"]
    assert not any(r.metric == "REC" for r in specter.results)
    assert ("84.2", "no metric") in {(n.value, n.reason) for n in specter.not_results}


def test_pairs_of_scores_under_a_pair_of_metric_heads(papers):
    """Stack-pointer Table 3: "UAS [ LAS ]" over "82.15±0.34 [ 71.32±0.36 ]", one treebank a row."""
    parser = papers["arxiv_1805.01087_stack_pointer_parsing_acl2018"]
    got = {(r.dataset, r.metric, r.value) for r in parser.results if r.table == "table 3"}
    assert {("ar", "UAS", "82.15"), ("ar", "LAS", "71.32"), ("ar", "UAS", "83.04"), ("ar", "LAS", "72.94")} <= got
    assert ("0.36", "deviation") in {(n.value, n.reason) for n in parser.not_results}


def test_stacked_blocks_beam_sizes_and_a_metric_head_tagged_as_a_method(papers):
    """Stack-pointer Table 7: an English block under "Dev Test" and "Model beam UAS LAS UCM
    LCM ...", then a Chinese block with heads of its own; "beam" sizes are settings; "LCM",
    tagged as a method in "UCM LCM", heads a metric's column."""
    parser = papers["arxiv_1805.01087_stack_pointer_parsing_acl2018"]
    got = {(r.dataset, r.metric) for r in parser.results if r.table == "table 7"}
    assert {("English", "UAS"), ("English", "LCM"), ("Chinese", "UAS"), ("Chinese", "LCM")} <= got
    assert not [n for n in parser.not_results if n.table == "table 7" and n.reason == "no metric"]


def stacked_blocks() -> list[Paragraph]:
    """As Stack-pointer Table 7 would be set without repeating its heads: "English" over the
    first rows, "Chinese" over the next, "UAS LAS" once at the top."""
    return [row([("English", 1)]), row([("Model", 0), ("UAS", 1), ("LAS", 2)]),
            row([("BiAF", 0), ("95.73", 1), ("93.97", 2)], ("MethodName", 0, 1)),
            row([("Chinese", 1)]),
            row([("BiAF", 0), ("90.20", 1), ("88.94", 2)], ("MethodName", 0, 1))]


def test_a_block_naming_only_its_data_keeps_the_metric_heads_above():
    summary = summarize_paper("p", stacked_blocks())
    assert [(r.dataset, r.metric, r.value) for r in summary.results] == [
        ("English", "UAS", "95.73"), ("English", "LAS", "93.97"), ("Chinese", "UAS", "90.20"), ("Chinese", "LAS", "88.94")]


def table_of(paragraphs: list[Paragraph], gazetteer: Gazetteer | None = None) -> Table:
    """The paper's one table as the reader reads it, nothing tagged in the paper's text."""
    namer = Namer(paragraphs, lambda text: {}, gazetteer or Gazetteer.empty())
    [((page, label), rows)] = table_rows(paragraphs).items()
    return Table.of(namer, rows, read_caption(paragraphs, page, label, namer.known), label, None)


def test_each_data_row_is_read_under_the_header_and_the_group_label_above_it():
    table = table_of(stacked_blocks())
    read = [([c.text for c in r.cells], [h.text for h in r.header.cells], r.group.names)
            for r in data_rows(table)]
    assert read == [
        (["BiAF", "95.73", "93.97"], ["English", "Model", "UAS", "LAS"], {}),
        (["BiAF", "90.20", "88.94"], ["English", "Model", "UAS", "LAS"], {"DatasetName": "Chinese"})]


def test_reading_a_table_leaves_it_as_it_was():
    """The reader's stages are functions of the table: read twice, it gives the same."""
    table = table_of(stacked_blocks())
    first = read_table(table)
    assert [(r.dataset, r.metric, r.value) for r in first.results] == [
        ("English", "UAS", "95.73"), ("English", "LAS", "93.97"), ("Chinese", "UAS", "90.20"), ("Chinese", "LAS", "88.94")]
    assert read_table(table) == first


def test_a_head_is_named_from_the_gazetteers_and_a_row_label_is_not():
    """"SQuAD" untagged: over a column the shipped gazetteer makes it a dataset; at the left of
    a row only the paper and the model name it, and neither does."""
    paragraphs = [row([("Model", 0), ("SQuAD", 1)]), row([("SQuAD", 0), ("88.5", 1)])]
    table = table_of(paragraphs, Gazetteer())
    head, label = table.rows[0][1], table.rows[1][0]
    assert table.namer.names(head, "head") == {"DatasetName": "SQuAD"}
    assert table.namer.names(label, "label") == {}


def test_a_head_cell_over_several_columns_naming_one_of_them_names_none(papers):
    """Matching the Blanks Table 4: "SemEval 2010 KBP37 TACRED" extracted as one cell over three
    columns, "SemEval" tagged in it: TACRED's 71.5 is not SemEval's; a year in a head is no
    number of the body."""
    mtb = papers["arxiv_1906.03158_matching_the_blanks_acl2019"]
    assert ("F1", "71.5") in {(r.metric, r.value) for r in mtb.results}
    assert not any(r.dataset == "SemEval" for r in mtb.results)


def test_a_row_of_shares_holds_no_scores(papers):
    """LISA Table 6: "Average SRL F1 on CoNLL-2005 for sentences where LISA (L) and D&M (D) parses
    were correct", its last row "Proportion 26 % 12 % 4 % 56 %" the share of such sentences."""
    lisa = papers["arxiv_1804.08199_lisa_srl_emnlp2018"]
    assert lisa.results and not any(r.value.endswith("%") for r in lisa.results)
    assert {("26%", "statistic"), ("56%", "statistic")} <= {(n.value, n.reason) for n in lisa.not_results}


def test_a_dataset_column_a_split_head_and_group_labels_over_number_columns(papers):
    """S2ORC Table 5: a "Dataset" column beats the caption's one dataset (S2ORC), "S2ORC-" over
    "SCIBERT" is one head, "We report micro - F1 for ChemProt" (ChemProt tagged as a method
    there) gives its row the metric; LISA Table 3: "GloVe" and "ELMo", set over the first number column,
    label groups of rows, they are no model; Bottom-Up Table 4: "R-1" keeps its spelling."""
    s2orc = {(r.dataset, r.metric, r.value, r.model) for r in papers["acl_2020.acl-main.447_s2orc"].results}
    assert {("BC5CDR", "span-level F1", "90.41", "S2ORC-SCIBERT"), ("BC5CDR", "span-level F1", "90.01", "SCIBERT"),
            ("ChemProt", "micro-F1", "84.59", "S2ORC-SCIBERT")} <= s2orc
    lisa = papers["arxiv_1804.08199_lisa_srl_emnlp2018"]
    assert not {r.model for r in lisa.results} & {"GloVe", "ELMo"}
    assert ("CoNLL-2012", "P", "84.19", "LISA") in found(lisa)
    bottom_up = found(papers["arxiv_1808.10792_bottom_up_summarization_emnlp2018"])
    assert ("CNN-DM", "R-1", "41.6", "NEUSUM") in bottom_up


def test_a_metric_head_keeps_the_paper_s_spelling_against_a_leaderboard_s(tmp_path):
    """Bottom-Up Table 4 with the shipped gazetteer (the shared one), which spells "R-1" as "R@1" (recall at 1)."""
    path = tmp_path / "r.jsonl"
    path.write_bytes(gzip.decompress(FIXTURE.read_bytes()))
    paper = next(p for p in read_papers(path) if p.doc.startswith("arxiv_1808.10792"))
    mentions = tagged("We report R-1 , R-2 and R-L .", ("MetricName", 2, 3))  # as the paper's text tags them
    results = summarize_paper(paper.doc, [mentions, *paper.paragraphs], Gazetteer()).results
    assert "R-1" in {r.metric for r in results} and "R@1" not in {r.metric for r in results}


def test_a_head_set_over_two_columns_off_the_middle_heads_only_those(papers):
    """SPECTER Table 1: "Recomm ." alone in its head row over the last two of twelve columns
    ("F1 F1 MAP nDCG MAP nDCG ..."), whose "MAP nDCG" repeat from the third on."""
    specter = papers["acl_2020.acl-main.207_specter"]
    table = [r for r in specter.results if r.table == "table 1"]
    assert not any("Recomm" in (r.dataset or "") for r in table if r.metric in ("MAP", "nDCG"))
    ours = {(r.dataset, r.metric, r.value) for r in table if r.model == "SPECTER ( Ours )"}
    assert {("SCIDOCS Co - View", "MAP", "83.6"), ("SCIDOCS Cite", "MAP", "88.3"),
            ("SCIDOCS Co - Cite", "nDCG", "94.8")} <= ours


def test_a_caption_area_under_a_curve_and_a_head_naming_two_methods(papers):
    """Bunescu Table 4: "Area Under Precision - Recall Curve" (the tagger tags the curve), heads
    "SSK – MIL SSK – T1 ..." in each of which "SSK" and "MIL" are tagged apart."""
    table = {(r.dataset, r.metric, r.value, r.model) for r in papers["acl2007_bunescu_relation_extraction"].results}
    assert ("CA", "area under Precision-Recall Curve", "76.9%", "SSK – MIL") in table
    assert ("PB", "area under Precision-Recall Curve", "73.4%", "SSK – SIL") in table


def test_the_caption_system_is_the_model_of_rows_of_fields(papers):
    """Semantic Scholar Table 1: "Results of the ScienceParse system", rows of fields ("title")
    under "Field": ScienceParse is the model, no dataset."""
    table = [r for r in papers["acl_N18-3011_literature_graph_semantic_scholar"].results if r.table == "table 1"]
    assert table and all(r.model == "ScienceParse" and r.dataset is None for r in table)


def test_a_row_category_qualifies_the_dataset_and_a_head_keeps_its_method_variant(papers):
    """PaperMage Table 3: "Abstract" under "Category" is the part of S2-VL measured; "GROBID NN"
    (only "GROBID" tagged) is not the entity "Grobid"."""
    table = papers["emnlp2023demo_papermage"]
    got = {(r.dataset, r.metric, r.value, r.model) for r in table.results}
    assert {("S2-VL Abstract", "P", "85.3", "GROBID NN"), ("S2-VL Abstract", "P", "81.9", "GROBID CRF")} <= got


def test_a_language_pair_labels_its_group_and_label_lines_are_no_heads(papers):
    """Tilde Table 4: "English - Estonian" over its rows; a row's labels set on several lines
    ("( final ) ensemble", "4 model") head no column."""
    got = {(r.dataset, r.value) for r in papers["acl_W18-6423_tilde_mt_wmt2018"].results}
    assert {("English-Estonian", "23.54"), ("English-Estonian", "24.35"), ("Estonian-English", "28.14")} <= got
    assert not any(d and ("model" in d or "ensemble" in d) for d, _ in got)


def test_split_directions_and_missing_cells_name_nothing():
    """"Example Split" over a label column, "Fwd" / "Bwd" over two language models' columns and
    an "N / A" cell left of a row's scores are neither dataset nor model."""
    assert all(says_nothing(text) for text in ("Split", "Bwd", "Forward", "N / A", "n/a", "–"))
    assert not says_nothing("ρ") and not says_nothing("SQuAD")
    rows = [row([("Model", 0), ("EM", 1), ("EM", 2)]),
            row([("Reader", 0), ("N / A", 1), ("73.6", 2)], ("MethodName", 0, 1))]
    [result] = summarize_paper("p", rows).results
    assert (result.model, result.value) == ("Reader", "73.6")


def test_a_norwegian_treebank_row_names_its_language():
    assert is_language("no") and not is_language("No")


def test_a_one_letter_metric_and_a_greek_one_beside_it_are_two_heads():
    """Skip-thought Table 3: "Method r ρ MSE": Pearson's r and Spearman's ρ, two columns."""
    rows = [row([("Method", 0), ("r", 1), ("ρ", 2)]),
            row([("LSTM", 0), ("0.8528", 1), ("0.7911", 2)], ("MethodName", 0, 1))]
    assert [(r.metric, r.value) for r in summarize_paper("p", rows).results] == [("r", "0.8528"), ("ρ", "0.7911")]


def test_a_head_tagged_as_a_method_amid_dataset_heads_is_a_dataset():
    """TinyBERT Table 11: "MNLI-mm" tagged as a method between "SST-2" and "QQP", tagged as data."""
    rows = [row([("System", 0), ("SST-2", 1), ("MNLI-mm", 2), ("QQP", 3)],
                ("DatasetName", 1, 2), ("MethodName", 2, 3), ("DatasetName", 3, 4)),
            row([("Model", 0), ("Acc", 1), ("Acc", 2), ("Acc", 3)]),
            row([("TinyBERT", 0), ("93.0", 1), ("84.5", 2), ("91.1", 3)], ("MethodName", 0, 1))]
    assert [(r.dataset, r.model) for r in summarize_paper("p", rows).results] == [
        ("SST-2", "TinyBERT"), ("MNLI-mm", "TinyBERT"), ("QQP", "TinyBERT")]


def test_a_starred_dataset_head_beside_the_same_name_unstarred_is_its_variant():
    """PRGC Table 3: "NYT *" and "WebNLG *" (the partial-match versions) beside "NYT" and
    "WebNLG": the star names the variant, in that table and in Table 8, which heads the starred
    ones only; a star with no unstarred sibling in the paper's tables is a mark, dropped."""
    def table(heads: list[str], label: str = "table 2") -> list[Paragraph]:
        cells = [(h, k + 1) for k, h in enumerate(heads)]
        spans = [("DatasetName", sum(len(h.split()) for h in heads[:k]), sum(len(h.split()) for h in heads[:k]) + 1)
                 for k in range(len(heads))]
        return [row(cells, *spans, table=label), row([("Model", 0)] + [("F1", k + 1) for k in range(len(heads))],
                                                     table=label),
                row([("PRGC", 0)] + [(v, k + 1) for k, v in enumerate(["92.6", "93.9", "91.8", "89.4"][:len(heads)])],
                    ("MethodName", 0, 1), table=label)]

    def datasets(*tables: list[Paragraph]) -> list[str | None]:
        return [r.dataset for r in summarize_paper("p", [p for t in tables for p in t]).results]

    assert datasets(table(["NYT *", "WebNLG *", "NYT", "WebNLG"])) == ["NYT*", "WebNLG*", "NYT", "WebNLG"]
    assert datasets(table(["NYT *", "WebNLG"])) == ["NYT", "WebNLG"]
    assert datasets(table(["NYT", "NYT *"]), table(["NYT *", "WebNLG"], "table 8"))[2:] == ["NYT*", "WebNLG"]


@pytest.mark.parametrize(("words", "tasks"), [
    ("Ablation over the pre - training tasks : next sentence prediction .", [None, None]),
    ("Results on the next sentence prediction task .", ["NSP", "NSP"]),  # the paper's one name for it
])
def test_the_task_an_ablation_takes_away_is_not_the_task_of_its_scores(words, tasks):
    """BERT Table 5 ("Ablation over the pre-training tasks ..."): the caption's task is what the
    rows take away ("No NSP"), not what the scores measure (MNLI); a caption of results on a task
    gives every score that task, an ablated row included."""
    prose = tagged("The next sentence prediction ( NSP ) task helps .", ("TaskName", 1, 4), ("TaskName", 5, 6))
    start = words.split().index("next") + 3
    rows = [caption(f"Table 2 : {words}", ("TaskName", start, start + 3)),
            row([("Model", 0), ("MNLI", 1)], ("DatasetName", 1, 2)),
            row([("BERT", 0), ("84.4", 1)], ("MethodName", 0, 1)),
            row([("No NSP", 0), ("83.9", 1)], ("TaskName", 1, 2))]
    assert [r.task for r in summarize_paper("p", [prose, *rows]).results] == tasks


def test_a_head_tagged_as_a_task_amid_dataset_heads_is_a_dataset():
    """InferSent Table 4: "SST" tagged as a task between "MR", "CR" and "TREC", tagged as data."""
    rows = [row([("Model", 0), ("MR", 1), ("CR", 2), ("SST", 3), ("TREC", 4)],
                ("DatasetName", 1, 2), ("DatasetName", 2, 3), ("TaskName", 3, 4), ("DatasetName", 4, 5)),
            row([("GloVe", 0), ("78.7", 1), ("78.5", 2), ("79.8", 3), ("83.6", 4)], ("MethodName", 0, 1))]
    paper = [tagged("We report accuracy .", ("MetricName", 2, 3)), *rows]
    assert [r.dataset for r in summarize_paper("p", paper).results] == ["MR", "CR", "SST", "TREC"]


@pytest.mark.parametrize(("text", "reason"), [
    ("Table 1 : The detailed model settings of a few models . h inter denotes ...", "setting"),
    ("Table 7 : Hyperparameters for pretraining .", "setting"),
    ("Table 1 : Dataset statistics .", "statistic"),
    ("Table 1 : Size of sentences , tokens , and labels for training , validation and test sets .", "statistic"),
    ("Table 2 : Number of documents in each split .", "statistic"),
    ("Table 4 : Accuracy as a function of the number of training examples .", None),
    ("Table 6 : MLM BPC for RoBERTa and various pretrained model configurations .", None),
    ("Table 1 : Fair comparison with BERT . All models use the same hyperparameters as BERT .", None),
    ("Table 5 : Results on SQuAD .", None),
])
def test_a_caption_of_settings_or_statistics(text, reason):
    assert caption_reason(text) == reason


def test_a_table_of_model_settings_holds_no_results():
    """MobileBERT Table 1: hidden sizes under each model's column, "MAP" a metric of the paper."""
    rows = [caption("Table 2 : The detailed model settings of a few models ."),
            row([("BERT", 1), ("MobileBERT", 2)], ("MethodName", 0, 1), ("MethodName", 1, 2)),
            row([("h output", 0), ("768", 1), ("512", 2)])]
    summary = summarize_paper("p", [tagged("We report MAP .", ("MetricName", 2, 3)), *rows])
    assert summary.results == [] and {(n.value, n.reason) for n in summary.not_results} >= {("768", "setting")}


def test_a_head_the_layout_cut_into_two_columns_is_one_head():
    """SPECTER Table 1's head row "Classification | User activity prediction | Citation |
    prediction": "prediction" alone in lower case continues "Citation", a task the paper tags."""
    rows = [tagged("We evaluate on citation prediction .", ("TaskName", 3, 5)),
            row([("Citation", 1), ("prediction", 2)]), row([("Cite", 1), ("Co-Cite", 2)]),
            row([("Model", 0), ("MAP", 1), ("MAP", 2)], ("MetricName", 1, 2), ("MetricName", 2, 3)),
            row([("SPECTER", 0), ("88.3", 1), ("88.1", 2)], ("MethodName", 0, 1))]
    assert [r.task for r in summarize_paper("p", rows).results] == ["citation prediction"] * 2


def test_coreference_metric_heads_with_their_superscript_and_subscript_set_apart(papers):
    """Higher-order coref Table 1: "MUC B CEAF φ4" over three "Prec . Rec . F1" (the B³'s "3"
    lost, "φ4" set in a column of its own)."""
    got = {(r.metric, r.value) for r in papers["arxiv_1804.05392_higher_order_coref_naacl2018"].results
           if r.model == "Martschat and Strube ( 2015 )"}
    assert {("MUC Prec .", "76.7"), ("B3 Prec .", "66.1"), ("CEAF φ4 Prec .", "59.5"), ("CEAF φ4 F1", "55.7")} <= got


def test_a_row_labelled_plus_x_adds_to_the_model_above(papers):
    """LISA Table 3: "LISA" then "+ D&M" and "+ Gold" (LISA with D&M's or gold parses); in
    Higher-order coref Table 1 "+ ELMo ( Peters et al . , 2018 )" follows a cited row, so its
    base is not known."""
    lisa = {(r.model, r.metric, r.value) for r in papers["arxiv_1804.08199_lisa_srl_emnlp2018"].results
            if r.table == "table 3"}
    assert {("LISA + D&M", "F1", "83.38"), ("LISA + Gold", "F1", "86.43")} <= lisa
    coref = {r.model for r in papers["arxiv_1804.05392_higher_order_coref_naacl2018"].results}
    assert "+ ELMo" in coref


def test_rows_labelled_plus_x_below_a_row_that_adds_to_a_model_add_to_that_model():
    """DCLR Table 1: the layout set the group's "BERT - base" in its first row, "BERT - base + flow",
    and the rows below are "+ whitening", "+ Contrastive ( BT )": each is BERT-base's, not the
    flow row's (a regression: "BERT - base + flow + Contrastive ( BT )")."""
    rows = [row([("Models", 0), ("STS12", 1)], ("DatasetName", 1, 2)),
            row([("BERT - base + flow", 0), ("58.40", 1)], ("MethodName", 0, 3)),
            row([("+ whitening", 0), ("57.83", 1)]),
            row([("+ Contrastive ( BT )", 0), ("54.26", 1)])]
    got = [r.model for r in summarize_paper("p", rows).results]
    assert got == ["BERT - base + flow", "BERT - base + whitening", "BERT - base + Contrastive ( BT )"]


def test_a_proposed_name_the_paper_cites_is_a_baseline_beside_its_variants():
    """BERT post-training (NAACL 2019): "we propose a novel post-training approach on the popular
    language model BERT", which it cites ("BERT ( Devlin et al . , 2018 )"); its Table 6 lists
    "BERT" beside "BERT - DK" and "BERT - PT": the bare BERT row is the baseline, not its own."""
    abstract = tagged("we propose a novel post-training approach on the popular language model BERT .",
                      ("MethodName", 11, 12))
    abstract.meta.update(kind="abstract", section="Abstract")
    rows = [abstract, tagged("We use BERT ( Devlin et al . , 2018 ) .", ("MethodName", 2, 3)),
            row([("Methods", 0), ("Acc .", 1)], ("MetricName", 1, 3), table="table 6"),
            row([("BERT", 0), ("75.29", 1)], ("MethodName", 0, 1), table="table 6"),
            row([("BERT - PT", 0), ("78.07", 1)], ("MethodName", 0, 3), table="table 6"),
            row([("Model", 0), ("Acc .", 1)], ("MetricName", 1, 3), table="table 7"),
            row([("BERT", 0), ("80.1", 1)], ("MethodName", 0, 1), table="table 7"),
            row([("BERT Large", 0), ("81.2", 1)], ("MethodName", 0, 2), table="table 7")]
    summary = summarize_paper("p", rows)
    assert [(r.model, r.ours) for r in summary.results] == [
        ("BERT", False), ("BERT - PT", True), ("BERT", True), ("BERT Large", True)]


def test_the_caption_metric_of_a_row_named_after_it(papers):
    """ELMo Table 1's caption: "... F 1 for SQuAD , SRL and NER ; average F 1 for Coref", "Coref"
    (tagged as a method there) labelling the last row but one."""
    got = {(r.metric, r.value) for r in papers["arxiv_1802.05365_elmo_naacl2018"].results}
    assert ("average F 1", "70.4") in got and ("F 1", "85.8") in got


def test_a_metric_in_a_row_label_and_no_caption_metric_from_a_method_word(papers):
    """S2ORC Table 5: "GENIA ... DEP ( LAS )" rows take LAS, not the caption's "token - level F1";
    Bottom-Up Table 2 (its head row lost by the layout): "compare to RL trained models" names
    no metric of the table."""
    s2orc = {(r.dataset, r.metric, r.value, r.model) for r in papers["acl_2020.acl-main.447_s2orc"].results}
    assert {("GENIA", "LAS", "90.80", "S2ORC-SCIBERT"), ("GENIA", "UAS", "92.31", "S2ORC-SCIBERT")} <= s2orc
    bottom_up = papers["arxiv_1808.10792_bottom_up_summarization_emnlp2018"]
    assert not [r for r in bottom_up.results if r.table == "table 2"]
    assert ("47.38", "no metric") in {(n.value, n.reason) for n in bottom_up.not_results}


def marked(text: str, *names: tuple[str, str]) -> Paragraph:
    """A sentence with each (type, words) tagged at its first place left of the last one's end."""
    tokens, spans, at = text.split(), [], 0
    for label, words in names:
        n = len(words.split())
        start = next(i for i in range(at, len(tokens)) if tokens[i:i + n] == words.split())
        spans.append(Span(label, start, start + n))
        at = start + n
    return Paragraph(tokens, spans=spans)


@pytest.mark.parametrize(("sentence", "names", "reason"), [
    ("LISA outperforms the state - of - the - art by nearly 1.0 F1 on news and more than 3.5 F1 on Brown .",
     (("MetricValue", "1.0"), ("MetricName", "F1"), ("MetricValue", "3.5"), ("MetricName", "F1")), "bound"),
    ("it can identify correct tokens with a recall of over 60 % .",
     (("MetricName", "recall"), ("MetricValue", "60 %")), "bound"),
    ("multiple results bolded if difference within 95 % bootstrap confidence interval .",
     (("MetricValue", "95 %"), ("MetricName", "bootstrap confidence")), "setting"),
    ("we obtain an 86.4 F1 score which is about a ∆= + 2.3 point absolute increase .",
     (("MetricValue", "86.4"), ("MetricName", "F1"), ("MetricValue", "2.3")), "difference"),
    ("Annotating half results in 0.78 Kendall ’s τ , with a 30 - 40 % increase in deviation .",
     (("MetricValue", "0.78"), ("MetricName", "Kendall ’s τ"), ("MetricValue", "30")), "difference"),
])
def test_sentence_bounds_confidence_levels_and_changes_are_no_scores(sentence, names, reason):
    """Sentences of LISA, Bottom-Up, SciBERT, SPECTER and LongEval: the last value of each is no score."""
    summary = summarize_paper("p", [marked(sentence, *names)])
    last = names[-1][1] if names[-1][0] == "MetricValue" else names[-2][1]
    assert last not in {r.value for r in summary.results}
    assert (last, reason) in {(n.value, n.reason) for n in summary.not_results}


def test_the_score_a_change_starts_from_is_not_the_named_model_s():
    """ELMo: "After adding ELMo ..., test set F1 improved by 4.7 % from 81.1 % to 85.8 %": 81.1
    is the baseline's F1, 85.8 ELMo's."""
    p = marked("After adding ELMo to the baseline , test set F1 improved by 4.7 % from 81.1 % to 85.8 % .",
               ("MethodName", "ELMo"), ("MetricName", "F1"), ("MetricValue", "4.7 %"), ("MetricValue", "81.1 %"),
               ("MetricValue", "85.8 %"))
    assert {(r.value, r.model) for r in summarize_paper("p", [p]).results} == {("81.1 %", None), ("85.8 %", "ELMo")}


def test_a_metric_right_after_values_compared_is_theirs():
    """LongEval: "( 93 % vs 92 % accuracy , 0.71 vs 0.64 Fleiss κ )"; LISA: "( 87.5 vs. 85.7
    average LAS )" after an F1 named earlier in the sentence."""
    longeval = marked("the no - hint setting scores higher ( 93 % vs 92 % accuracy , 0.71 vs 0.64 Fleiss κ ) .",
                      ("MetricValue", "93 %"), ("MetricValue", "92 %"), ("MetricName", "accuracy"),
                      ("MetricValue", "0.71"), ("MetricValue", "0.64"), ("MetricName", "Fleiss κ"))
    got = {(r.value, r.metric) for r in summarize_paper("p", [longeval]).results}
    assert {("93 %", "accuracy"), ("0.71", "Fleiss κ"), ("0.64", "Fleiss κ")} <= got


def test_two_tables_side_by_side_each_row_label_heads_its_own_numbers():
    """ULMFiT Table 2: IMDb's models and errors left, TREC-6's right, one line of the page each:
    "oh - LSTM ( Johnson and Zhang , 2016 ) 5.9 TBCNN ( Mou et al . , 2015 ) 4.0"."""
    rows = [row([("Model", 0), ("Test", 1), ("Model", 2), ("Test", 3)]),
            row([("CoVe ( McCann et al . , 2017 )", 0), ("8.2", 1), ("CoVe ( McCann et al . , 2017 )", 2), ("4.2", 3)]),
            row([("oh - LSTM ( Johnson and Zhang , 2016 )", 0), ("5.9", 1), ("TBCNN ( Mou et al . , 2015 )", 2),
                 ("4.0", 3)]),
            caption("Table 2 : Test error rates ( % ) on two text classification datasets .", ("MetricName", 3, 6))]
    got = {(r.value, r.model) for r in summarize_paper("p", rows).results}
    assert {("5.9", "oh - LSTM"), ("4.0", "TBCNN")} <= got


def test_a_count_column_repeated_per_group_does_not_make_a_statistics_table(papers):
    """Multi-LexSum Table 3: "D → L", "D → S", "D → T" over "R-1 f1 R-2 f1 R - L f1 BS f1 Words"
    each: "Words" (summary lengths, counts) thrice is one count head, the rest are scores."""
    got = {(r.dataset, r.metric, r.value, r.model) for r in papers["arxiv_2206.10883_multi_lexsum"].results}
    assert {("Multi-LexSum D → L", "R-1 f1", "53.73", "PRIMERA"), ("Multi-LexSum D → S", "R-2 f1", "22.08", "LED-16384"),
            ("Multi-LexSum D → T", "R-2 f1", "9.84", "LED-16384")} <= got
    assert ("416.3", "count") in {(n.value, n.reason) for n in papers["arxiv_2206.10883_multi_lexsum"].not_results}


def test_a_block_label_left_of_its_metric_heads_is_its_data_and_pairs_and_averages_are_told_apart(papers):
    """LISA Table 2: "WSJ Test P R F1" over one block of rows, "Brown Test P R F1" over the next;
    BERT Table 1: "MNLI-(m / mm )" over "86.7/85.9", "Average" over GLUE's F1s, accuracies and
    correlations (the caption gives each task its metric)."""
    lisa = {(r.dataset, r.metric, r.value, r.model) for r in papers["arxiv_1804.08199_lisa_srl_emnlp2018"].results
            if r.table == "table 2"}
    assert {("WSJ", "F1", "84.8", "Tan et al . ( 2018 )"), ("Brown", "F1", "74.1", "Tan et al . ( 2018 )")} <= lisa
    bert = {(r.dataset, r.metric, r.value) for r in papers["arxiv_1810.04805_bert_naacl2019"].results}
    assert {("MNLI-m", "accuracy", "86.7"), ("MNLI-mm", "accuracy", "85.9"), ("GLUE Average", "average", "82.1")} <= bert
    assert is_language("it") and is_language("Italian") and not is_language("IT")


def test_a_jsonl_table_row_whose_cells_point_past_its_tokens_is_refused_in_one_line_and_the_other_papers_go_on(
        cli, tmp_path: Path) -> None:
    """Cells past a row's tokens left a row of no cell, and the reader an IndexError traceback."""
    from sciner.formats.jsonl import format_jsonl

    good, bad = stacked_blocks(), stacked_blocks()
    bad[2].meta["cells"] = [[0, 1, 0, 0], [5, 99, 1, 1]]  # "BiAF 95.73 93.97": 3 tokens
    (tmp_path / "good.jsonl").write_text(format_jsonl(good))
    (tmp_path / "bad.jsonl").write_text(format_jsonl(bad))
    run = cli("summarize", tmp_path / "bad.jsonl", tmp_path / "good.jsonl", "--json", "-o", tmp_path / "out.json")
    assert "Traceback" not in run.stderr and "IndexError" not in run.stderr
    # said as it happens (after the progress bar's text) and in the list of failed inputs, one line each
    said = {x.strip().rpartition("error[E001]: ")[2] for x in run.stderr.splitlines() if "cells[" in x}
    [line] = said
    assert line.startswith(f"{tmp_path / 'bad.jsonl'}:3: field 'cells[1]' must be") and "<= 3" in line
    import json

    summary = json.loads((tmp_path / "out.json").read_text())
    assert [p["doc"] for p in summary["papers"]] == ["good"]


@pytest.mark.parametrize("cells", [
    [[3, 3, 0, 0]],  # no token: the row had no cell left
    [[0, 1, 3, 0], [1, 2, 1, 1], [2, 3, 2, 2]],  # columns in reverse
    [[0, 1, 7, 7], [1, 2, 1, 1], [2, 3, 2, 2]],  # out of column order: read_row read its row again, forever
])
def test_a_table_row_built_by_hand_with_cells_that_are_no_cells_is_read_without_a_traceback(cells) -> None:
    """Paragraphs given to summarize_paper in Python are not checked as JSONL is: such a row
    loses its bad cells (or is dropped) and the table's other rows are read as before."""
    paragraphs = stacked_blocks()
    paragraphs[2].meta["cells"] = cells  # the English block's one data row
    summary = summarize_paper("p", paragraphs)
    assert {("Chinese", "UAS", "90.20"), ("Chinese", "LAS", "88.94")} <= {
        (r.dataset, r.metric, r.value) for r in summary.results}


def test_dataset_heads_without_a_metric_take_the_metric_the_paper_s_sentences_give_each():
    """Dataset heads and a caption naming no metric ("POS CoNLL2000 CoNLL2003"): each column's
    metric is the one the paper's sentences give its dataset; a dataset the sentences give two
    metrics, or none, gets none."""
    paragraphs = [
        bracketed("We report [F1|MetricName] on [CoNLL2000|DatasetName] and [CoNLL2003|DatasetName] ."),
        bracketed("On [POS|DatasetName] we report [accuracy|MetricName] and [F1|MetricName] ."),
        row([("Model", 0), ("POS", 1), ("CoNLL2000", 2), ("CoNLL2003", 3)],
            ("DatasetName", 1, 2), ("DatasetName", 2, 3), ("DatasetName", 3, 4)),
        row([("BiLSTM", 0), ("97.55", 1), ("94.46", 2), ("90.10", 3)], ("MethodName", 0, 1)),
        caption("Table 2 : Comparison of tagging performance for various models ."),
    ]
    summary = summarize_paper("p", paragraphs)
    assert {(r.dataset, r.metric, r.value) for r in summary.results} == {
        ("CoNLL2000", "F1", "94.46"), ("CoNLL2003", "F1", "90.10")}
    assert ("97.55", "no metric") in {(o.value, o.reason) for o in summary.not_results}


def test_two_metrics_in_a_head_or_a_row_label_each_name_their_score_of_x_y_cells():
    """"F1 / EM" over "90.9/84.1": F1 90.9, EM 84.1; a label "QQP ( Accuracy / F1 )", Accuracy tagged
    in it, over "89.2/71.2": Accuracy 89.2, F1 71.2."""
    heads = [row([("Model", 0), ("SQuAD v1.1", 1), ("RACE", 2)], ("DatasetName", 1, 3), ("DatasetName", 3, 4)),
             row([("F1 / EM", 1), ("Acc", 2)]), row([("BERT", 0), ("90.9/84.1", 1), ("72.0", 2)], ("MethodName", 0, 1))]
    assert {(r.dataset, r.metric, r.value) for r in summarize_paper("p", heads).results} == {
        ("SQuAD v1.1", "F1", "90.9"), ("SQuAD v1.1", "EM", "84.1"), ("RACE", "Acc", "72.0")}
    transposed = [row([("Task", 0), ("BERT", 1)], ("MethodName", 1, 2), table="table 3"),
                  row([("QQP ( Accuracy / F1 )", 0), ("89.2/71.2", 1)], ("DatasetName", 0, 1), ("MetricName", 2, 3),
                      table="table 3")]
    assert {(r.metric, r.value) for r in summarize_paper("p", transposed).results} == {
        ("Accuracy", "89.2"), ("F1", "71.2")}


def test_a_label_cell_set_once_over_its_rows_is_each_of_theirs_and_a_language_pair_is_the_data():
    """"EN→FR" left of the first of its rows only: the rows below it are EN→FR's too, "EN→DE"
    starts the next; a label column whose first data row is empty carries nothing."""
    rows = [row([("Size", 1), ("BLEU", 2)]),
            row([("EN→FR", 0), ("Baseline", 1), ("33.13", 2)]), row([("TWWT", 1), ("33.46", 2)]),
            row([("EN→DE", 0), ("Baseline", 1), ("16.79", 2)]), row([("TWWT", 1), ("17.15", 2)])]
    assert {(r.dataset, r.value, r.model) for r in summarize_paper("p", rows).results} == {
        ("EN→FR", "33.13", None), ("EN→FR", "33.46", "TWWT"), ("EN→DE", "16.79", None), ("EN→DE", "17.15", "TWWT")}
    centred = [rows[0], rows[2], rows[1], rows[4], rows[3]]
    assert ("33.46", "TWWT") in {(r.value, r.model) for r in summarize_paper("p", centred).results
                                 if r.dataset is None}


def test_a_dataset_head_left_of_its_metric_heads_is_the_data_of_the_models_under_it():
    """"SQuAD2.0 EM F1 SQuAD1.1 EM F1", two tables side by side: the models under "SQuAD2.0"
    were measured on SQuAD2.0, those under "SQuAD1.1" on SQuAD1.1; a head over the labels with
    no metric head right of it ("Subforum") names no data."""
    rows = [row([("SQuAD2.0", 0), ("EM", 1), ("F1", 2), ("SQuAD1.1", 3), ("EM", 4), ("F1", 5)],
                ("DatasetName", 0, 1), ("DatasetName", 3, 4)),
            row([("XLNet", 0), ("87.9", 1), ("90.6", 2), ("XLNet", 3), ("89.7", 4), ("95.1", 5)],
                ("MethodName", 0, 1), ("MethodName", 3, 4))]
    assert {(r.dataset, r.metric, r.value, r.model) for r in summarize_paper("p", rows).results} == {
        ("SQuAD2.0", "EM", "87.9", "XLNet"), ("SQuAD2.0", "F1", "90.6", "XLNet"),
        ("SQuAD1.1", "EM", "89.7", "XLNet"), ("SQuAD1.1", "F1", "95.1", "XLNet")}


def test_a_metric_head_cut_into_two_columns_is_one_head_over_its_group_of_split_heads():
    """"Exact" "Match" "F1" over "Dev Test Dev Test": "Exact Match" heads the first two columns,
    "F1" the last two (not "Exact" over Dev and "Match" over Test, the F1 of Test without a metric)."""
    rows = [row([("Exact", 1), ("Match", 2), ("F1", 3)]), row([("Dev", 1), ("Test", 2), ("Dev", 3), ("Test", 4)]),
            row([("DCR", 0), ("62.5", 1), ("62.4", 2), ("71.2", 3), ("71.0", 4)], ("MethodName", 0, 1))]
    assert [(r.metric, r.value) for r in summarize_paper("p", rows).results] == [
        ("Exact Match", "62.5"), ("Exact Match", "62.4"), ("F1", "71.2"), ("F1", "71.0")]


def test_a_metric_head_with_its_unit_in_brackets_heads_the_sub_heads_under_it():
    """"Accuracy [ % ]" ("Accuracy" tagged) set over "Semantic Syntactic Total": each column's
    metric; the untagged "[ % ]" says nothing that would make the head name two things."""
    rows = [row([("Model", 0), ("Accuracy [ % ]", 2)], ("MetricName", 1, 2)),
            row([("Semantic", 1), ("Syntactic", 2), ("Total", 3)]),
            row([("CBOW", 0), ("57.3", 1), ("68.9", 2), ("63.7", 3)], ("MethodName", 0, 1))]
    assert [(r.metric, r.value) for r in summarize_paper("p", rows).results] == [
        ("Accuracy [ % ]", "57.3"), ("Accuracy [ % ]", "68.9"), ("Accuracy [ % ]", "63.7")]


def test_a_metrics_column_gives_each_row_its_metrics():
    """"Task Metrics Dev Test": the "Metrics" column's "EM / F1" names each score of its row's
    "x / y" cells, "F1" the next row's."""
    rows = [row([("Task", 0), ("Metrics", 1), ("Dev", 2), ("Test", 3)]),
            row([("DRCD", 0), ("EM / F1", 1), ("88.5/93.8", 2), ("88.0/93.4", 3)], ("DatasetName", 0, 1)),
            row([("MSRA - NER", 0), ("F1", 1), ("95.2", 2), ("93.8", 3)], ("DatasetName", 0, 3))]
    assert [(r.dataset, r.metric, r.value) for r in summarize_paper("p", rows).results] == [
        ("DRCD", "EM", "88.5"), ("DRCD", "F1", "93.8"), ("DRCD", "EM", "88.0"), ("DRCD", "F1", "93.4"),
        ("MSRA - NER", "F1", "95.2"), ("MSRA - NER", "F1", "93.8")]


def test_size_columns_and_rows_of_counts_do_not_make_a_results_table_one_of_statistics():
    """"# Params # FLOPs" beside "BLEU": only those columns are sizes; "# of train samples"
    labelling a row of amounts above the scores is no count head over the columns."""
    sizes = [row([("Model", 0), ("# Params", 1), ("# FLOPs", 2), ("BLEU", 3)]),
             row([("BBPE", 0), ("47 M", 1), ("2.1", 2), ("27.08", 3)], ("MethodName", 0, 1))]
    summary = summarize_paper("p", sizes)
    assert [(r.metric, r.value) for r in summary.results] == [("BLEU", "27.08")]
    assert ("statistic" not in {o.reason for o in summary.not_results})
    counted = [row([("KFTT", 1), ("TED", 2)], ("DatasetName", 0, 1), ("DatasetName", 1, 2)),
               row([("# of train samples", 0), ("440 K", 1), ("223 K", 2)]),
               row([("# of test samples", 0), ("1.2 K", 1), ("8.5 K", 2)]),
               row([("BBPE", 0), ("24.15", 1), ("15.59", 2)], ("MethodName", 0, 1)),
               caption("Table 2 : Ja - En test BLEU scores .", ("MetricName", 7, 8))]
    assert [(r.dataset, r.metric, r.value) for r in summarize_paper("p", counted).results] == [
        ("KFTT", "BLEU", "24.15"), ("TED", "BLEU", "15.59")]


def test_a_table_nothing_of_which_names_its_data_is_on_the_data_the_paper_is_about():
    """SQuAD named in most of the paper's mentions of data: a table whose heads, rows and caption
    name no data measured it; a head naming part of the data ("Mismatched") is kept as it is."""
    text = [bracketed("We evaluate on [SQuAD|DatasetName] ."), bracketed("[SQuAD|DatasetName] has questions ."),
            bracketed("Unlike [CNN|DatasetName] , [SQuAD|DatasetName] answers are spans .")]
    rows = [row([("Model", 0), ("EM", 1), ("Mismatched", 2)]),
            row([("DCR", 0), ("62.5", 1), ("71.2", 2)], ("MethodName", 0, 1))]
    assert [(r.dataset, r.metric, r.value) for r in summarize_paper("p", text + rows).results
            if r.table] == [("SQuAD", "EM", "62.5")]
    assert [r.dataset for r in summarize_paper("p", text[2:] * 2 + rows).results if r.table] == [None]


def test_a_table_nothing_of_which_names_its_data_is_on_the_data_the_prose_citing_it_names():
    """"Table 2 shows results on CoNLL 2003": the data of a table whose heads, rows and caption
    name none, before the paper's main data; a corpus a sentence says is trained on is not; a
    paragraph citing the table names its data where the citing sentence does not; two names, none;
    a task head over the column ("Image Retrieval") is the task on that data; "Results on the
    resume NER test data are shown in Table 8", "resume" untagged: "resume NER"."""
    main = [bracketed("We evaluate on [SQuAD|DatasetName] ."), bracketed("[SQuAD|DatasetName] has questions .")] * 3
    rows = [row([("Model", 0), ("F1", 1)]), row([("DCR", 0), ("62.5", 1)], ("MethodName", 0, 1))]

    def dataset(*prose: str) -> str | None:
        return next(r.dataset for r in summarize_paper("p", main + [bracketed(p) for p in prose] + rows).results
                    if r.table)

    assert dataset("Table 2 shows results on the [CoNLL 2003|DatasetName] test set .") == "CoNLL 2003"
    assert dataset("Our model does well . We tested on the [CoNLL 2003|DatasetName] data ; see Table 2 .") == "CoNLL 2003"
    assert dataset("We used the [News|DatasetName] corpus for training . Table 2 shows the scores .") == "SQuAD"
    assert dataset("Table 2 shows results . They are on [CoNLL 2003|DatasetName] .") == "CoNLL 2003"
    assert dataset("Table 2 shows results on [CoNLL 2003|DatasetName] and [OntoNotes|DatasetName] .") == "SQuAD"
    assert dataset("Table 3 shows results on [OntoNotes|DatasetName] .") == "SQuAD"
    # the words between "results on" and "test data" where the model tagged no data there
    assert dataset("Results on the resume [NER|TaskName] test data are shown in Table 2 .") == "resume NER"
    assert dataset("Results on all the [NER|TaskName] datasets are shown in Table 2 .") == "SQuAD"
    rows[:1] = [row([("Image Retrieval", 1)], ("TaskName", 0, 2)), row([("Model", 0), ("R@1", 1)])]
    assert dataset("Table 2 shows results on [COCO|DatasetName] .") == "COCO"  # a task over the column: on COCO


def test_a_row_label_tagged_as_a_task_that_cites_prior_work_is_the_row_s_model():
    """CasRel's Table 2: "NovelTagging ( Zheng et al . , 2017 )", the model tagging
    "NovelTagging" as a task (here and in the prose): a cited method, the row's model, no task."""
    heads = [row([("NYT", 1)], ("DatasetName", 0, 1)), row([("F1", 1)], ("MetricName", 0, 1))]
    cited = row([("NovelTagging ( Zheng et al . , 2017 )", 0), ("42.0", 1)], ("TaskName", 0, 1))
    prose = bracketed("[NovelTagging|TaskName] tags each word .")  # the prose tags it a task too
    got = [(r.model, r.task, r.dataset) for r in summarize_paper("p", [prose, *heads, cited]).results]
    assert got == [("NovelTagging", None, "NYT")]


def test_a_score_under_a_train_head_is_on_the_training_data_and_no_result():
    """ESIM's Table 1, "Model # Para . Train Test" over SNLI accuracies: the "Train" column's
    99.7 is the training accuracy, a `not_result` "train"; the "Test" column's 78.2 a result;
    a "Test + Train" head (SICK's whole set) still holds results."""
    rows = [caption("Table 2 : Accuracies of the models on SNLI .", ("MetricName", 3, 4), ("DatasetName", 8, 9)),
            row([("Model", 0), ("Train", 1), ("Test", 2), ("Test + Train", 3)]),
            row([("LSTM", 0), ("99.7", 1), ("78.2", 2), ("80.1", 3)], ("MethodName", 0, 1))]
    summary = summarize_paper("p", rows)
    assert {r.value for r in summary.results} == {"78.2", "80.1"}
    assert ("99.7", "train") in {(n.value, n.reason) for n in summary.not_results}


def test_a_metric_the_prose_gives_the_data_is_not_one_its_numbers_cannot_be():
    """RCNN's "We reduce the error rate by 33 % for the 20News dataset" beside a table of 92.81
    under "20News": no error rate (over 50 it is an accuracy); a 7.2 under it is one."""
    prose = bracketed("We reduce the [error rate|MetricName] by 33 % for the [20News|DatasetName] dataset .")
    heads = row([("Model", 0), ("20News", 1)], ("DatasetName", 1, 2))
    scores = [row([("BoW + LR", 0), ("92.81", 1)]), row([("RCNN", 0), ("7.2", 1)])]
    got = {r.value: r.metric for r in summarize_paper("p", [prose, heads, *scores]).results if r.table}
    assert got == {"7.2": "error rate"}


def test_a_table_whose_metric_nothing_names_takes_the_one_the_sentences_citing_it_name():
    """"Table 2 shows the accuracy of our models on InsuranceQA" over "Model Test1 Test2", no
    metric in heads, caption or the paper's other prose: accuracy; a sentence naming two
    metrics, or a table nothing cites, gives none; a benchmark's convention comes first."""
    rows = [row([("Model", 0), ("Test1", 1), ("Test2", 2)]), row([("QA-LSTM", 0), ("68.4", 1), ("68.1", 2)])]

    def metrics(*prose: str) -> set[str | None]:
        said = [bracketed("We evaluate on [InsuranceQA|DatasetName] only ."), *(bracketed(p) for p in prose)]
        return {r.metric for r in summarize_paper("p", said * 2 + rows).results if r.table}

    assert metrics("Table 2 shows the [accuracy|MetricName] of our models .") == {"accuracy"}
    assert metrics("Table 2 shows [accuracy|MetricName] and [MRR|MetricName] .") == set()
    assert metrics("Table 3 shows the [accuracy|MetricName] of our models .") == set()
    glue = [row([("Model", 0), ("CoLA", 1)], ("DatasetName", 1, 2)), row([("BERT", 0), ("60.5", 1)])]
    said = [bracketed("Table 2 shows the [accuracy|MetricName] of our models ."),
            bracketed("We report [F1|MetricName] elsewhere .")]  # two metrics: no paper's one
    assert {r.metric for r in summarize_paper("p", [*said, *glue]).results} == {"Matthews correlation"}


@pytest.mark.parametrize(("label", "model", "citation"), [
    ("BiLSTM ( Lample et al . , 2016 )", "BiLSTM", "Lample et al . , 2016"), ("LSTM [ 22 ]", "LSTM", "22"),
    ("Mixed VAT [ 31 , 23 ]", "Mixed VAT", "31 , 23"), ("GCN ( K=0 ) ( Zhang et al . , 2018 )", "GCN ( K=0 )", "Zhang et al . , 2018"),
    ("BERT base Devlin et al . ( 2019 )", "BERT base", "Devlin et al . ( 2019 )"),
    ("Lample et al . ( 2016 )", "Lample et al . ( 2016 )", None), ("Ma & Hovy ( 2016 )", "Ma & Hovy ( 2016 )", None),
    ("BiLSTM - Max ( on SNLI )", "BiLSTM - Max ( on SNLI )", None), ("( 2016 )", "( 2016 )", None)])
def test_a_citation_ending_a_row_label_is_apart_from_its_model(label, model, citation):
    assert split_citation(label) == (model, citation)


def test_a_row_citing_prior_work_gives_the_model_and_the_citation_apart_and_is_no_row_of_ours():
    """"BiLSTM ( Lample et al . , 2016 )" and "CNN [ 22 ]" under an "Ours" group label: baselines
    named "BiLSTM" and "CNN", their citations kept apart; "Ours-Net" beside them is the paper's."""
    rows = [row([("Model", 0), ("F1", 1)]), row([("Ours", 0)]),
            row([("BiLSTM ( Lample et al . , 2016 )", 0), ("90.9", 1)], ("MethodName", 0, 1)),
            row([("CNN [ 22 ]", 0), ("89.1", 1)], ("MethodName", 0, 1)),
            row([("Ours-Net", 0), ("91.2", 1)], ("MethodName", 0, 1))]
    assert [(r.model, r.citation, r.ours) for r in summarize_paper("p", rows).results] == [
        ("BiLSTM", "Lample et al . , 2016", False), ("CNN", "22", False), ("Ours-Net", None, True)]


def test_a_result_is_another_s_where_the_paper_cites_it_and_not_told_where_it_does_not():
    """``ours`` False only on the paper's word: a row citing prior work, a row named (bare of its
    size) as the prose cites ("BERT LARGE", "BERT ( Devlin et al . , 2019 )"), a row adding
    nothing to a citing row's first word ("BIAF re - impl"), a sentence citing before its value;
    None (not told) for the rest: an uncited "CRF", a "BIAF + char" adding to the cited one, a
    sentence naming no citation."""
    prose = bracketed("We compare with [BERT|MethodName] ( Devlin et al . , 2019 ) .")
    head = row([("Model", 0), ("F1", 1)], ("MetricName", 1, 2))
    rows = [row([("BIAF ( Dozat and Manning , 2017 )", 0), ("90.9", 1)]), row([("BIAF re - impl", 0), ("90.1", 1)]),
            row([("BIAF + char", 0), ("90.4", 1)]), row([("BERT LARGE", 0), ("91.0", 1)]),
            row([("CRF", 0), ("88.0", 1)])]
    theirs = bracketed("The model of Lee et al . ( 2017 ) reaches [67.2|MetricValue] [F1|MetricName] on "
                       "[SQuAD|DatasetName] .")
    plain = bracketed("A [CNN|MethodName] reaches [61.0|MetricValue] [F1|MetricName] on [SQuAD|DatasetName] .")
    got = {r.value: r.ours for r in summarize_paper("p", [prose, head, *rows, theirs, plain]).results}
    assert got == {"90.9": False, "90.1": False, "90.4": None, "91.0": False, "88.0": None, "67.2": False,
                   "61.0": None}


def test_rows_below_every_row_citing_prior_work_are_the_paper_s_own():
    """Two rows citing prior work, then rows citing none: those are the paper's own, set under
    the work it compares with; not a row whose first word a citing row starts with (the cited
    "NeuralCRF" again, reimplemented), nor one whose first word the prose cites ("CoVe , First
    Layer"); a table with one citing row, or one marked already, is left as it is."""
    head = row([("Model", 0), ("F1", 1)], ("MetricName", 1, 2))
    cited = [row([("BiLSTM ( Lample et al . , 2016 )", 0), ("90.9", 1)]), row([("NeuralCRF [ 22 ]", 0), ("89.1", 1)])]
    below = [row([("Structured Attention", 0), ("91.5", 1)]), row([("NeuralCRF", 0), ("89.3", 1)]),
             row([("CoVe , First Layer", 0), ("88.0", 1)])]
    prose = bracketed("We compare with [CoVe|MethodName] ( McCann et al . , 2017 ) .")
    got = {r.model: r.ours for r in summarize_paper("p", [prose, head, *cited, *below]).results}
    assert got == {"BiLSTM": False, "NeuralCRF": False, "Structured Attention": True, "CoVe , First Layer": None}
    assert [r.ours for r in summarize_paper("p", [prose, head, cited[0], *below]).results] == [False, None, None, None]
    assert not [r for r in summarize_paper("p", [prose, head, *below, *cited]).results if r.ours]  # none below


def test_a_caption_of_two_tables_side_by_side_names_the_data_of_each():
    """"Left : ... on SICK . Right : ... on MSRP": the columns from the second "Method" head on are
    the right table's, on MSRP; those before it on SICK. A caption saying which side is which
    in parentheses ("SICK ( left ) and MSRP ( right )") does alike; a table without a second
    label head takes neither."""
    rows = [row([("Method", 0), ("F1", 1)]), row([("Method", 2), ("Acc", 3)]),
            row([("LSTM", 0), ("0.28", 1)], ("MethodName", 0, 1)), row([("RAE", 2), ("76.8", 3)], ("MethodName", 0, 1))]
    left_right = caption("Table 2 : Left : results on SICK . Right : results on MSRP .", ("DatasetName", 7, 8),
                         ("DatasetName", 13, 14))
    said = caption("Table 2 : Results on SICK ( left ) and MSRP ( right ) .", ("DatasetName", 5, 6), ("DatasetName", 10, 11))
    for text in (left_right, said):
        assert [(r.dataset, r.metric, r.value) for r in summarize_paper("p", [text] + rows).results] == [
            ("SICK", "F1", "0.28"), ("MSRP", "Acc", "76.8")]
    one_table = [rows[0], rows[2], row([("RAE", 0), ("0.30", 1)], ("MethodName", 0, 1))]
    assert {r.dataset for r in summarize_paper("p", [left_right] + one_table).results} == {None}


def test_a_caption_of_two_tables_side_by_side_gives_its_task_to_the_side_naming_it():
    """Skip-Thought Table 3 ("Left : ... SICK semantic relatedness subtask . Right : ... Microsoft
    Paraphrase Corpus"): the task is the left table's, not the paraphrase scores' on the right."""
    prose = tagged("We evaluate on semantic relatedness .", ("TaskName", 3, 5))
    rows = [row([("Method", 0), ("F1", 1)]), row([("Method", 2), ("Acc", 3)]),
            row([("LSTM", 0), ("0.28", 1)], ("MethodName", 0, 1)), row([("RAE", 2), ("76.8", 3)], ("MethodName", 0, 1))]
    left_right = caption("Table 2 : Left : semantic relatedness on SICK . Right : results on MSRP .",
                         ("TaskName", 5, 7), ("DatasetName", 8, 9), ("DatasetName", 14, 15))
    assert [(r.dataset, r.task) for r in summarize_paper("p", [prose, left_right] + rows).results] == [
        ("SICK", "semantic relatedness"), ("MSRP", None)]


def test_two_dataset_names_joined_before_dataset_in_a_caption_are_one_dataset():
    """"on the CNN and Daily Mail dataset": one dataset; "on the WN18 and FB15k datasets": two, so
    the caption gives its table none."""
    one = caption("Table 2 : ROUGE on the CNN and Daily Mail dataset .", ("DatasetName", 6, 7), ("DatasetName", 8, 10))
    two = caption("Table 2 : Hits on the WN18 and FB15k datasets .", ("DatasetName", 6, 7), ("DatasetName", 8, 9))
    assert read_caption([one], 7, "table 2", lambda text: {}).names.get("DatasetName") == "CNN and Daily Mail"
    assert read_caption([two], 7, "table 2", lambda text: {}).names.get("DatasetName") is None


def test_a_head_giving_its_metric_in_parentheses_heads_a_result_column():
    """"CoLA ( MCC )": MCC on CoLA; "Overall ( Acc )": Acc, its numbers results, not dropped."""
    rows = [row([("Model", 0), ("CoLA ( MCC )", 1), ("Overall ( Acc )", 2)], ("DatasetName", 1, 2)),
            row([("BERT", 0), ("60.6", 1), ("77.0", 2)], ("MethodName", 0, 1))]
    assert [(r.dataset, r.metric, r.value) for r in summarize_paper("p", rows).results] == [
        ("CoLA", "MCC", "60.6"), (None, "Acc", "77.0")]


def test_a_difference_head_without_letters_holds_no_scores_whatever_the_fallbacks():
    """"∆" right of "F1 ( dev )" in a paper about WSJ whose sentences give WSJ F1: its numbers are
    differences, not F1 on WSJ."""
    text = [bracketed("We report [F1|MetricName] on [WSJ|DatasetName] ."), bracketed("[WSJ|DatasetName] is big ."),
            bracketed("[WSJ|DatasetName] again .")]
    rows = [row([("Encoder", 0), ("F1 ( dev )", 1), ("∆", 2)]),
            row([("LSTM", 0), ("92.24", 1), ("-0.43", 2)], ("MethodName", 0, 1))]
    summary = summarize_paper("p", text + rows)
    assert [(r.metric, r.value) for r in summary.results if r.table] == [("F1", "92.24")]
    assert ("-0.43", "difference") in {(o.value, o.reason) for o in summary.not_results}


def test_named_of_named_entity_recognition_proposes_nothing():
    """LR-CNN's abstract: "Chinese named entity recognition ( NER ) that applies long short - term
    memory ( LSTM ) ... has achieved great success": "named" there names nothing, so LSTM is no
    proposed method (a regression: every LSTM baseline row was marked ours); "a model named
    LR-CNN" still proposes it."""
    abstract = tagged("Chinese named entity recognition ( NER ) that applies long short - term memory ( LSTM ) "
                      "has achieved great success .", ("TaskName", 0, 4), ("MethodName", 15, 16))
    abstract.meta.update(kind="abstract", section="Abstract")
    assert summarize_paper("p", [abstract]).proposed == []
    named = tagged("We build a model named LR-CNN .", ("MethodName", 5, 6))
    named.meta.update(kind="abstract", section="Abstract")
    assert summarize_paper("p", [named]).proposed == ["LR-CNN"]


def test_an_acronym_the_abstract_defines_for_a_title_phrase_is_proposed():
    """BiDAF's title has no colon ("Bi - Directional Attention Flow for Machine Comprehension");
    its abstract defines "BIDAF" for the title's phrase: BIDAF is proposed, the task's "MC" is not."""
    title = tagged("BI - DIRECTIONAL ATTENTION FLOW FOR MACHINE COMPREHENSION", ("TaskName", 6, 8))
    title.meta.update(kind="title")
    abstract = tagged("Machine comprehension ( MC ) is hard . In this paper we introduce the Bi - Directional "
                      "Attention Flow ( BIDAF ) network .", ("TaskName", 0, 2), ("TaskName", 3, 4))
    abstract.meta.update(kind="abstract", section="Abstract")
    assert summarize_paper("p", [title, abstract]).proposed == ["BIDAF"]


def test_a_short_form_of_several_words_defined_for_a_proposed_name_marks_its_rows_ours():
    """"the Attention Sum Reader ( AS Reader )": "AS Reader" is proposed too, so the rows "AS
    Reader ( avg ensemble )" are the paper's own (a regression: none was); "( AS )" alone or a
    short form of another name ("Memory Network ( MemNN )") is no such short form."""
    title = tagged("Text Understanding with the Attention Sum Reader Network", ("MethodName", 4, 7))
    title.meta.update(kind="title")
    abstract = tagged("We present the Attention Sum Reader ( AS Reader ) . It beats the Memory Network ( "
                      "MemNN Reader ) .", ("MethodName", 3, 6), ("MethodName", 14, 16))
    abstract.meta.update(kind="abstract", section="Abstract")
    rows = [row([("Model", 0), ("CNN", 1)], ("DatasetName", 1, 2)),
            row([("AS Reader ( avg ensemble )", 0), ("75.4", 1)]), row([("MemNN Reader", 0), ("69.4", 1)])]
    summary = summarize_paper("p", [title, abstract, caption("Table 2 : Accuracy on CNN .", ("MetricName", 3, 4),
                                                             ("DatasetName", 5, 6)), *rows])
    assert summary.proposed == ["Attention Sum Reader", "AS Reader"]
    assert {(r.value, r.ours) for r in summary.results} == {("75.4", True), ("69.4", None)}


def test_a_title_that_is_a_name_is_proposed_with_the_initials_the_paper_uses():
    """A colon-less title whose leading capitalised words the paper tags as a method elsewhere
    ("Universal Sentence Encoder", its rows "USE_T"; "Weighted Transformer Network for ...") is
    proposed; a title leading with a task or an activity ("Neural Machine Translation with ...",
    "Constituency Parsing with ...") or whose words the paper never tags is not."""
    def paper(title_text: str, *title_spans: tuple[str, int, int], body: str = "Rows : USE_T and Universal "
              "Sentence Encoder and Weighted Transformer Network and Neural Machine Translation .") -> list[str]:
        title = tagged(title_text, *title_spans)
        title.meta.update(kind="title")
        tokens = body.split()
        spans = [("MethodName", k, k + 1) for k, w in enumerate(tokens) if w == "USE_T"]
        for phrase in ("Universal Sentence Encoder", "Weighted Transformer Network", "Neural Machine Translation"):
            words = phrase.split()
            spans += [("MethodName", k, k + len(words)) for k in range(len(tokens))
                      if tokens[k:k + len(words)] == words]
        return summarize_paper("p", [title, tagged(body, *spans)]).proposed

    assert paper("Universal Sentence Encoder") == ["Universal Sentence Encoder", "USE"]
    assert paper("Weighted Transformer Network for Machine Translation") == ["Weighted Transformer Network"]
    assert paper("Neural Machine Translation with Byte - Level Subwords", ("TaskName", 0, 3)) == []
    assert paper("Constituency Parsing with a Self - Attentive Encoder") == []
    assert paper("Universal Sentence Encoder", body="Nothing tagged here .") == []


@pytest.mark.parametrize(("text", "spans", "section", "proposed"), [
    ("Our largest model , GPT-2 , is a 1.5B parameter Transformer .", [("MethodName", 4, 5)], "Title", ["GPT-2"]),
    ("This model , the deep averaging network ( DAN ) , works in three steps .",
     [("MethodName", 4, 7), ("MethodName", 8, 9)], "1 Introduction", ["DAN"]),
    ("This model , the deep averaging network ( DAN ) , works in three steps .",
     [("MethodName", 4, 7), ("MethodName", 8, 9)], "3 Model", []),
    ("The largest model , GPT-2 , is a 1.5B parameter Transformer .", [("MethodName", 4, 5)], "Title", [])])
def test_our_model_and_this_model_in_apposition_name_the_proposed_method(text, spans, section, proposed):
    """ "Our largest model , GPT-2" (under the title, where the layout set no abstract heading
    apart) and "This model , the deep averaging network ( DAN )" in the introduction name the
    paper's own method; the same words in a later section, or "The largest model", do not."""
    p = tagged(text, *spans)
    p.meta.update(section=section)
    assert summarize_paper("p", [p]).proposed == proposed


@pytest.mark.parametrize(("text", "spans", "proposed"), [
    ("We propose MaLSTM , a siamese adaptation of our LSTM .", [(2, 3), (9, 10)], ["MaLSTM"]),  # a coined word's tail
    ("We propose PRGC . Our PRGC Random beats it .", [(2, 3), (5, 7)], ["PRGC", "PRGC Random"]),  # a variant
])
def test_a_name_that_ends_a_coined_word_of_another_proposed_name_is_not_proposed(text, spans, proposed):
    """The Manhattan LSTM paper's "MaLSTM" adapts the "LSTM" its body also calls "our LSTM": rows
    of another's "Dependency Tree - LSTM" are not its own. A name begun by another ("PRGC" of
    "PRGC Random") stays."""
    p = tagged(text, *[("MethodName", a, b) for a, b in spans])
    p.meta.update(kind="abstract", section="Abstract")
    assert summarize_paper("p", [p]).proposed == proposed


def test_a_title_naming_its_method_before_a_colon_and_names_cited_as_prior_work():
    """ELECTRA's title names it before a colon, untagged; its abstract's "we propose" sentence also
    names RoBERTa, which it cites, and GAN: only ELECTRA and its variant are proposed. Without
    such a title, a name the introduction cites is still no proposed one."""
    title = tagged("ELECTRA : PRE - TRAINING TEXT ENCODERS AS DISCRIMINATORS")
    title.meta.update(kind="title")
    abstract = tagged("We propose ELECTRA-Large , which beats RoBERTa ( Liu et al . , 2019 ) and a GAN .",
                      ("MethodName", 2, 3), ("MethodName", 6, 7), ("MethodName", 17, 18))
    abstract.meta.update(kind="abstract", section="Abstract")
    assert summarize_paper("p", [title, abstract]).proposed == ["ELECTRA", "ELECTRA-Large"]
    plain = tagged("We propose FooNet , which beats RoBERTa ( Liu et al . , 2019 ) .", ("MethodName", 2, 3),
                   ("MethodName", 6, 7))
    assert summarize_paper("p", [plain]).proposed == ["FooNet"]


@pytest.mark.parametrize(("head", "proposed"), [
    ("CheckList", ["CheckList"]), ("Multi - LexSum", ["Multi-LexSum"]), ("Tree LSTM", ["Tree LSTM"]),
    ("Beyond Accuracy", []), ("Deep Learning", []),
])
def test_an_untagged_title_head_before_a_colon_is_proposed_only_when_it_reads_as_a_coined_name(head, proposed):
    """"Beyond Accuracy : Behavioral Testing of NLP Models": title-case words describe; "CheckList
    : ...", "Multi - LexSum : ..." coin a name."""
    title = tagged(f"{head} : Behavioral Testing of NLP Models")
    title.meta.update(kind="title")
    assert summarize_paper("p", [title]).proposed == proposed


def test_rows_labelled_as_the_paper_s_own_and_its_ablations_are_ours():
    """Shortcut-Stacked Encoders Table 5 ("Our Shortcut - Stacked Encoder"), the TriviaQA paper's
    "our model + TF - IDF + sum", an ablation row beside them ("w/o attention"); a cited row is not
    ours; a row "Our X" names X as proposed, "our model + ..." names nothing."""
    rows = [row([("Model", 0), ("Acc", 1)], ("MetricName", 1, 2), table="table 5"),
            row([("CBOW ( Mikolov et al . , 2013 )", 0), ("80.1", 1)], ("MethodName", 0, 1), table="table 5"),
            row([("Our Shortcut - Stacked Encoder", 0), ("86.1", 1)], table="table 5"),
            row([("our model + TF - IDF + sum", 0), ("61.1", 1)], table="table 5"),
            row([("w/o attention", 0), ("84.0", 1)], table="table 5"),
            row([("Model", 0), ("Acc", 1)], ("MetricName", 1, 2), table="table 6"),
            row([("w/o attention", 0), ("70.0", 1)], table="table 6")]
    summary = summarize_paper("p", rows)
    assert [(r.value, r.ours) for r in summary.results] == [("80.1", False), ("86.1", True), ("61.1", True),
                                                           ("84.0", True), ("70.0", None)]
    assert summary.proposed == ["Shortcut-Stacked Encoder"]


ULMFIT = (("MetricName", "error"), ("MetricValue", "7.64"), ("MetricValue", "4.6"), ("DatasetName", "IMDb"))


@pytest.mark.parametrize(("sentence", "names", "value", "ours"), [
    ("In the CoNLL 2003 NER task , our model scores 91.93 mean F 1 .",
     (("DatasetName", "CoNLL 2003"), ("MetricValue", "91.93"), ("MetricName", "mean F 1")), "91.93", True),
    ("We submitted this model and achieved 66.37 EM on TriviaQA .",
     (("MetricValue", "66.37"), ("MetricName", "EM"), ("DatasetName", "TriviaQA")), "66.37", True),
    ("The table shows that our ESIM model achieves an accuracy of 88.0 % .",
     (("MethodName", "ESIM"), ("MetricName", "accuracy"), ("MetricValue", "88.0 %")), "88.0 %", True),
    ("Dai and Le ( 2015 ) only achieves an error of 7.64 vs. 4.6 for our method on IMDb .", ULMFIT, "4.6", True),
    ("Dai and Le ( 2015 ) only achieves an error of 7.64 vs. 4.6 for our method on IMDb .", ULMFIT, "7.64", False),
    ("our single model achieves 84.6 F1 , better than the best published F1 score of 81.8 .",
     (("MetricValue", "84.6"), ("MetricName", "F1"), ("MetricName", "F1 score"), ("MetricValue", "81.8")), "81.8",
     None),
    ("we find that the DRecNN obtains 41.7 % accuracy .",
     (("MethodName", "DRecNN"), ("MetricValue", "41.7 %"), ("MetricName", "accuracy")), "41.7 %", None),
    ("We fine - tune BERT on SQuAD and reach 88.5 F1 .",
     (("MethodName", "BERT"), ("DatasetName", "SQuAD"), ("MetricValue", "88.5"), ("MetricName", "F1")), "88.5", None),
])
def test_a_sentence_saying_a_score_is_the_paper_s_own(sentence, names, value, ours):
    """Sentences of TagLM, the TriviaQA paper, ESIM, ULMFiT, QANet and DAN: "our model" or "we"
    before a score, with no comparison, citation or other method between, or "for our method"
    right after it, make it the paper's own."""
    summary = summarize_paper("p", [marked(sentence, *names)])
    assert [r.ours for r in summary.results if r.value == value] == [ours]


@pytest.mark.parametrize(("sentence", "names", "value", "reason"), [
    ("The Weighted Transformer achieves a 1.1 BLEU score improvement over the state - of - the - art .",
     (("MethodName", "Weighted Transformer"), ("MetricValue", "1.1"), ("MetricName", "BLEU score")), "1.1",
     "difference"),
    ("Without TriviaQA data , we only lose 0.4 F1 .", (("MetricValue", "0.4"), ("MetricName", "F1")), "0.4",
     "difference"),
    ("The model converges 15 − 40 % faster in BLEU .", (("MetricValue", "40 %"), ("MetricName", "BLEU")), "40 %",
     "difference"),
    ("adding ELMo improves accuracy by an average of 0.7 % .", (("MetricName", "accuracy"), ("MetricValue", "0.7 %")),
     "0.7 %", "difference"),
    ("averaging all layers improves F 1 another 0.3 % .", (("MetricName", "F 1"), ("MetricValue", "0.3 %")), "0.3 %",
     "difference"),
    ("previous work reported from 0.28 to 0.75 improvement in F 1 .",
     (("MetricValue", "0.28"), ("MetricValue", "0.75"), ("MetricName", "F 1")), "0.28", "difference"),
    ("We see that 0.7 % of improvement in accuracy is achieved .",
     (("MetricValue", "0.7 %"), ("MetricName", "accuracy")), "0.7 %", "difference"),
    ("we achieve a substantial improvement in accuracy ( around 2 % ) .",
     (("MetricName", "accuracy"), ("MetricValue", "2 %")), "2 %", "difference"),
    ("We tuned F1 with a λ of 0.05 .", (("MetricName", "F1"), ("HyperparameterName", "λ"), ("MetricValue", "0.05")),
     "0.05", "setting"),
    ("it beats the best result of 91.62 F1 ( at 95 % , two - sided Welch t - test ) .",
     (("MetricValue", "91.62"), ("MetricName", "F1"), ("MetricValue", "95 %")), "95 %", "setting"),
])
def test_changes_and_settings_in_sentences_are_no_scores(sentence, names, value, reason):
    """Sentences of the Weighted Transformer, BERT, ELMo, TagLM, ERNIE, the Shortcut-Stacked
    Encoders and a made-up λ: a gain, a loss, a speed-up or a setting is no result."""
    summary = summarize_paper("p", [marked(sentence, *names)])
    assert value not in {r.value for r in summary.results}
    assert (value, reason) in {(n.value, n.reason) for n in summary.not_results}


@pytest.mark.parametrize(("sentence", "names", "value"), [
    ("a stop - word filter further increases accuracy to 63.24 % .", (("MetricName", "accuracy"),
                                                                      ("MetricValue", "63.24 %")), "63.24 %"),
    ("the smallest model does not exceed the 1.0 % accuracy of a simple baseline .",
     (("MetricValue", "1.0 %"), ("MetricName", "accuracy")), "1.0 %"),
    ("We achieved lower accuracy 66 % on the smaller data .", (("MetricName", "accuracy"), ("MetricValue", "66 %")),
     "66 %"),
    ("A 11 member ensemble pushes F 1 to 87.4 % , 1.0 % increase over the previous ensemble best .",
     (("MetricName", "F 1"), ("MetricValue", "87.4 %"), ("MetricValue", "1.0 %")), "87.4 %"),
    ("performance increases from 90.87 % to 91.93 % F 1 .",
     (("MetricValue", "90.87 %"), ("MetricValue", "91.93 %"), ("MetricName", "F 1")), "91.93 %"),
])
def test_scores_next_to_words_of_change_are_still_scores(sentence, names, value):
    """GPT-2, word2vec, ELMo and TagLM: a score reached ("increases accuracy to 63.24 %"), one
    compared ("does not exceed the 1.0 %") or an adjective's ("lower accuracy 66 %") is a result."""
    assert value in {r.value for r in summarize_paper("p", [marked(sentence, *names)]).results}


@pytest.mark.parametrize(("text", "value", "read"), [
    ("F1 rose with λ = 3 × 10−5 .", "3", "3 × 10−5"),
    ("F1 rose with λ = 3 × 10−5 .", "10−5", "3 × 10−5"),
    ("F1 rose with λ = 3 e-5 .", "3", "3 e-5"),
    ("F1 of ( 3 × 100 ) .", "3", "3"),
])
def test_a_number_in_scientific_notation_is_one_value(text, value, read):
    """"3 × 10−5" (QANet's λ) is one number, never "3"; "3 × 100" is a product, not one."""
    p = marked(text, ("MetricName", "F1"), ("HyperparameterValue", value))
    summary = summarize_paper("p", [p])
    assert [v.value for v in summary.values] == [read]


def test_a_task_cut_from_a_hyphenated_word_is_no_task():
    """GPT-2 Table 3's caption "Zero - shot results on many datasets" and its text's "in a zero -
    shot setting": no task "Zero" (nor "zero"); "NER - based" still names NER."""
    rows = [caption("Table 2 : Zero - shot results on many datasets .", ("TaskName", 3, 4)),
            tagged("We test in a zero - shot setting and an NER - based one .", ("TaskName", 4, 5),
                   ("TaskName", 10, 11)),
            row([("Model", 0), ("Acc", 1)], ("MetricName", 1, 2)),
            row([("GPT-2", 0), ("70.7", 1)], ("MethodName", 0, 1))]
    summary = summarize_paper("p", rows)
    assert [r.task for r in summary.results] == [None]
    assert [e.name for e in summary.entities if e.type == "TaskName"] == ["NER"]


def test_every_number_of_a_table_body_is_a_result_or_a_not_result_an_unreadable_cell_an_unread_one():
    """A section number the layout set in a table ("5.2.1"), a sum ("512 + 512") and a score
    with a dash for its pair ("86.6/-") were neither results nor not results: each is now one."""
    paragraphs = stacked_blocks() + [
        row([("BiAF", 0), ("86.6/-", 1), ("512 + 512", 2)], ("MethodName", 0, 1)), row([("5.2.1", 0)]),
        row([("300D LSTM", 0), ("81.2", 1), ("0.763 / 0.719 ( r )", 2), ("335 M", 3)])]
    summary = summarize_paper("p", paragraphs)
    assert ("Chinese", "UAS", "86.6") in {(r.dataset, r.metric, r.value) for r in summary.results}
    # what no reading covers: a number it cannot read, an amount; a label's "300D" is no number
    assert {(n.value, n.reason) for n in summary.not_results if n.reason in ("unread", "amount")} == {
        ("512 + 512", "unread"), ("5.2.1", "unread"), ("0.763 / 0.719 ( r )", "unread"), ("335 M", "amount")}
    cells = [(i, start, end) for i, p in enumerate(paragraphs) for start, end, _, _ in p.meta["cells"]
             if prints_numbers_only(" ".join(p.tokens[start:end]))]
    places = [x.place for x in (*summary.results, *summary.not_results, *summary.values)]
    assert all(any(p == i and s < end and e > start for p, s, e in places) for i, start, end in cells)


@pytest.mark.parametrize(("name", "part", "metric"), [
    ("CoLA", None, "Matthews correlation"), ("SST-2", None, "accuracy"), ("MNLI-m", None, "accuracy"),
    ("MNLI-(m/mm)", (1, 2), "accuracy"), ("MRPC", None, "F1"), ("QQP", (1, 2), "accuracy"),
    ("STS-B", None, "Pearson correlation"), ("STS-B", (1, 2), "Spearman correlation"),
    ("SQuAD v2.0", None, "EM"), ("SQuAD 1.1", (1, 2), "F1"), ("BoolQ", None, "accuracy"),
    ("CoNLL 2003", None, "F1"), ("CoNLL-2002 Spanish NER", None, "F1"), ("CoNLL 2012", None, None),
    ("CoNLL", None, None), ("VQA 2.0", None, "accuracy"), ("NLVR2", None, "accuracy"), ("VQA-CP", None, None),
    ("enwik8", None, "bits per character"), ("SSTX", None, None), ("Model", None, None), (None, None, None),
    ("GLUE", None, "score"), ("SuperGLUE", None, "score"), ("GLUE CoLA", None, None),
])
def test_a_benchmark_task_s_metric_by_convention(name, part, metric):
    assert benchmark_metric(name, part) == metric


@pytest.mark.parametrize(("name", "beside", "metric"), [
    ("AX", ("CoLA", "MRPC", "Score"), "Matthews correlation"), ("AX", ("Model", "Score"), None),
    ("CR", ("SST-5", "NER"), "accuracy"), ("CR", ("MR",), "accuracy"), ("CR", ("Foo", "Bar"), None),
])
def test_a_suite_s_short_task_name_takes_its_convention_only_beside_other_benchmark_tasks(name, beside, metric):
    assert benchmark_metric(name, None, beside) == metric


def test_benchmark_task_heads_with_no_metric_anywhere_take_the_benchmark_s_marked_as_assumed():
    """GLUE heads alone ("CoLA SST-2 MRPC MNLI-(m/mm)"), no metric in the caption or the
    sentences: each column takes its task's official metric ("x / y" cells split in order: MRPC's
    F1/Acc, MNLI's matched/mismatched), the header saying the metric was assumed; a head that is
    no benchmark task keeps none; a metric the caption names still wins."""
    paragraphs = [
        row([("Model", 0), ("CoLA", 1), ("MRPC", 2), ("MNLI-(m/mm)", 3), ("Foo", 4)],
            ("DatasetName", 1, 2), ("DatasetName", 2, 3), ("DatasetName", 3, 4), ("DatasetName", 4, 5)),
        row([("BERT", 0), ("60.5", 1), ("89.3/85.4", 2), ("86.7/85.9", 3), ("71.0", 4)], ("MethodName", 0, 1)),
        caption("Table 1 : GLUE test results ."),
    ]
    summary = summarize_paper("p", paragraphs)
    assert {(r.dataset, r.metric, r.value) for r in summary.results} == {
        ("CoLA", "Matthews correlation", "60.5"), ("MRPC", "F1", "89.3"), ("MRPC", "accuracy", "85.4"),
        ("MNLI-m", "accuracy", "86.7"), ("MNLI-mm", "accuracy", "85.9")}
    assert all(r.header and r.header.endswith(ASSUMED) for r in summary.results)
    assert ("71.0", "no metric") in {(o.value, o.reason) for o in summary.not_results}
    said = [*paragraphs[:2], caption("Table 1 : Accuracy on the GLUE test sets .", ("MetricName", 3, 4))]
    assert {(r.metric, r.header) for r in summarize_paper("p", said).results if r.dataset == "CoLA"} == {
        ("Accuracy", "CoLA")}


@pytest.mark.parametrize(("name", "value", "share", "metric"), [
    ("Weibo", 58.79, False, "F1"), ("Weibo NER", 58.79, False, "F1"), ("SST-5", 57.6, False, "accuracy"),
    ("MSRA", 93.7, False, "F1"), ("Text8", 1.08, False, "bits per character"),
    ("Text8", 2.34, True, None), ("Text8", 75.9, False, None),  # "2.34 %": a share; 75.9: no bit count
    ("DBpedia", 1.3, False, "error rate"), ("DBpedia", 98.6, False, None),  # 98.6: an accuracy, no error rate
    ("CNN / Daily Mail", 41.2, False, None),  # ROUGE-1, -2 and -L alike: no one metric
    ("Foo", 50.0, False, None), (None, 1.0, False, None), ("MR", 80.5, False, None),  # two letters say too little
])
def test_a_dataset_s_usual_metric_on_leaderboards(name, value, share, metric):
    assert usual_metric(name, value, share) == metric


def test_data_heads_with_no_metric_anywhere_take_their_leaderboards_usual_one_marked_as_such():
    """LR-CNN's ablation table: "MSRA Resume" over F1s that neither caption nor prose names: each
    column takes its data's one leaderboard metric, the header saying so. A head row naming data
    with no such metric beside them ("PTB text8"), a caption naming a metric the reader could
    not place, and an "x / y" pair take none."""
    heads = row([("Models", 0), ("MSRA", 1), ("Resume", 2)], ("DatasetName", 1, 2), ("DatasetName", 2, 3))
    scores = row([("LR-CNN", 0), ("93.71", 1), ("95.11", 2)], ("MethodName", 0, 1))
    summary = summarize_paper("p", [heads, scores, caption("Table 2 : Ablation study .")])
    assert {(r.dataset, r.metric, r.value) for r in summary.results} == {("MSRA", "F1", "93.71"), ("Resume", "F1", "95.11")}
    assert all(r.header and r.header.endswith(USUAL) for r in summary.results)
    mixed = row([("Models", 0), ("PTB", 1), ("text8", 2)], ("DatasetName", 1, 2), ("DatasetName", 2, 3))
    assert not summarize_paper("p", [mixed, row([("Tied", 0), ("0.14", 1), ("0.28", 2)])]).results
    named = caption("Table 2 : Spearman ’s correlation is reported .")
    assert not [r for r in summarize_paper("p", [heads, scores, named]).results if USUAL in (r.header or "")]
    pair = row([("LR-CNN", 0), ("93.71/93.5", 1), ("95.11", 2)], ("MethodName", 0, 1))
    assert {r.value for r in summarize_paper("p", [heads, pair]).results} == {"95.11"}


def test_heads_tagged_as_methods_fewer_than_the_data_heads_beside_them_are_data():
    """Faruqui and Dyer's Table 1: "WS-353 WS-SIM RG-65 MC-30 MTurk-287" over Spearman's
    correlations, "WS-SIM" and "MC-30" tagged as methods, the other three as data: all five are
    data (before: the row's language pair "De - En" the data of the two, the heads their
    models). Two methods beside one dataset head stay models over their columns."""
    heads = row([("Lang", 0), ("WS-353", 1), ("WS-SIM", 2), ("WS-REL", 3), ("RG-65", 4), ("MC-30", 5), ("MTurk-287", 6),
                 ("SEM-REL", 7)], ("DatasetName", 1, 2), ("MethodName", 2, 3), ("DatasetName", 4, 5),
                ("MethodName", 5, 6), ("DatasetName", 6, 7), ("TaskName", 7, 8))
    scores = row([("De - En", 0), ("68.0", 1), ("74.4", 2), ("64.6", 3), ("75.5", 4), ("81.9", 5), ("53.6", 6), ("43.9", 7)])
    said = caption("Table 2 : Spearman ’s correlation on different tasks .", ("MetricName", 3, 6))
    got = {(r.dataset, r.model, r.value) for r in summarize_paper("p", [said, heads, scores]).results}
    assert {("WS-SIM", None, "74.4"), ("MC-30", None, "81.9"), ("WS-353", None, "68.0")} <= got
    models = row([("Data", 0), ("BiLSTM", 1), ("CRF", 2), ("SST", 3)],
                 ("MethodName", 1, 2), ("MethodName", 2, 3), ("DatasetName", 3, 4))
    got = {(r.dataset, r.model) for r in summarize_paper("p", [said, models, row([("CoNLL", 0), ("91.0", 1), ("90.2", 2),
                                                                                    ("88.1", 3)])]).results}
    assert ("CoNLL", "BiLSTM") in got


def test_a_sentence_giving_each_task_its_metric_and_one_to_the_others_scores_a_glue_table():
    """ELECTRA's "Our evaluation metrics are Spearman correlation for STS , Matthews correlation
    for CoLA , and accuracy for the other GLUE tasks": STS and CoLA take theirs, MRPC beside them
    the others' accuracy (not the convention's F1), the GLUE score column none of them; a GLUE
    table of a paper that says nothing of the others keeps the convention."""
    text = tagged("Our evaluation metrics are Spearman correlation for STS , Matthews correlation for CoLA , "
                  "and accuracy for the other GLUE tasks .", ("MetricName", 4, 6), ("DatasetName", 7, 8),
                  ("MetricName", 9, 11), ("DatasetName", 12, 13), ("MetricName", 15, 16), ("DatasetName", 20, 21))
    rows = [row([("Model", 0), ("CoLA", 1), ("MRPC", 2), ("STS", 3), ("Score", 4)],
                ("DatasetName", 1, 2), ("DatasetName", 2, 3), ("DatasetName", 3, 4), ("DatasetName", 4, 5)),
            row([("ELECTRA", 0), ("71.7", 1), ("90.7", 2), ("92.5", 3), ("89.4", 4)], ("MethodName", 0, 1))]
    got = {r.dataset: r.metric for r in summarize_paper("p", [text, *rows]).results}
    assert got == {"CoLA": "Matthews correlation", "MRPC": "accuracy", "STS": "Spearman correlation"}
    alone = {r.dataset: r.metric for r in summarize_paper("p", rows).results}
    assert alone["MRPC"] == "F1"


def test_an_average_column_beside_data_with_no_metric_named_takes_theirs_or_is_an_average():
    """"Average" right of GLUE heads whose metrics differ by convention: an "average"; right of
    heads whose one metric the prose gives: that metric; right of data no metric is known for:
    still no result."""
    heads = row([("Model", 0), ("CoLA", 1), ("SST-2", 2), ("Average", 3)], ("DatasetName", 1, 2), ("DatasetName", 2, 3))
    scores = row([("BERT", 0), ("52.1", 1), ("93.5", 2), ("72.8", 3)], ("MethodName", 0, 1))
    got = {(r.dataset, r.metric) for r in summarize_paper("p", [heads, scores]).results if r.value == "72.8"}
    assert got == {("GLUE Average", "average")}  # GLUE's tasks beside it: GLUE's average
    heads = row([("Model", 0), ("Foo", 1), ("Bar", 2), ("Average", 3)], ("DatasetName", 1, 2), ("DatasetName", 2, 3))
    assert not [r for r in summarize_paper("p", [heads, scores]).results if r.value == "72.8"]
    said = tagged("We report accuracy on Foo and Bar .", ("MetricName", 2, 3), ("DatasetName", 4, 5), ("DatasetName", 6, 7))
    got = {(r.dataset, r.metric) for r in summarize_paper("p", [said, heads, scores]).results if r.value == "72.8"}
    assert got == {("Foo – Bar Average", "accuracy")}


def test_heads_naming_nothing_below_data_rows_go_on_in_the_data_of_the_group_above():
    """kNN-NER Table 1: "English CoNLL 2003" over "Model P R F1", then "Base Model" rows and
    "Large Model" rows, each label set over two cells: the Large rows are on CoNLL 2003 too, not
    on the paper's most named "Chinese" (a language is no dataset)."""
    rows = [row([("Model", 0), ("Precision", 1), ("F1", 2)]),
            row([("English CoNLL 2003", 0)], ("DatasetName", 1, 3)),
            row([("Base", 0), ("Model", 1)]),
            row([("BERT-Base", 0), ("90.69", 1), ("91.32", 2)], ("MethodName", 0, 1)),
            row([("Large", 0), ("Model", 1)]),
            row([("BERT-Large", 0), ("91.54", 1), ("92.16", 2)], ("MethodName", 0, 1))]
    prose = [tagged("Results on Chinese datasets .", ("DatasetName", 2, 3))] * 4
    got = {(r.model, r.metric): r.dataset for r in summarize_paper("p", [*prose, *rows]).results}
    assert got == {("BERT-Base", "Precision"): "English CoNLL 2003", ("BERT-Base", "F1"): "English CoNLL 2003",
                   ("BERT-Large", "Precision"): "English CoNLL 2003", ("BERT-Large", "F1"): "English CoNLL 2003"}


def test_group_labels_in_one_cell_under_a_block_title_keep_the_title_s_data():
    """kNN-NER Table 1 as the PDF reader now sets it: "English CoNLL 2003" over the block's heads
    "Model Precision Recall F1", then "Base Model" and "Large Model" each one cell, group labels
    naming no data: their rows are on CoNLL 2003 (a regression: no dataset)."""
    rows = [row([("English CoNLL 2003", 0)], ("DatasetName", 1, 3)),
            row([("Model", 0), ("Precision", 1), ("F1", 2)]),
            row([("Base Model", 0)]),
            row([("BERT-Base", 0), ("90.69", 1), ("91.32", 2)], ("MethodName", 0, 1)),
            row([("Large Model", 0)]),
            row([("BERT-Large", 0), ("91.54", 1), ("92.16", 2)], ("MethodName", 0, 1))]
    got = {(r.model, r.metric): r.dataset for r in summarize_paper("p", rows).results}
    assert set(got.values()) == {"English CoNLL 2003"} and len(got) == 4


def test_a_metric_spelled_as_the_data_it_is_on_is_no_metric():
    """"Semantic Textual Similarity ( STS )" over the STS columns, read as a metric and as the
    data: the number is no result with the data as its metric."""
    rows = [row([("Model", 0), ("STS", 1)], ("MetricName", 1, 2)),
            row([("USE", 0), ("61.4", 1)], ("MethodName", 0, 1))]
    prose = tagged("We evaluate on STS .", ("DatasetName", 3, 4))
    summary = summarize_paper("p", [prose, *rows])
    assert not [r for r in summary.results if r.metric == r.dataset]


def test_a_benchmark_the_caption_names_is_its_data_even_tagged_as_a_task():
    """"Model performance on VQA ." with VQA tagged as a task, over "Test - Dev Test - Std":
    the results are on VQA (the heads are its splits), with VQA's accuracy."""
    rows = [caption("Table 1 : Model performance on VQA .", ("TaskName", 6, 7), page=7),
            row([("Model", 0), ("Test - Dev", 1), ("Test - Std", 2)], table="table 1"),
            row([("VisualBERT", 0), ("70.80", 1), ("71.00", 2)], ("MethodName", 0, 1), table="table 1")]
    summary = summarize_paper("p", rows)
    assert {(r.dataset, r.metric, r.value) for r in summary.results} == {
        ("VQA", "accuracy", "70.80"), ("VQA", "accuracy", "71.00")}  # "Test - Std": a split, no deviation


def test_a_language_is_no_dataset_for_a_table_nothing_of_which_names_its_data():
    rows = [row([("Model", 0), ("F1", 1)]), row([("BERT", 0), ("91.3", 1)], ("MethodName", 0, 1))]
    for name in ("Chinese", "WikiNER"):
        prose = [tagged(f"We evaluate on {name} .", ("DatasetName", 3, 4))] * 4
        [result] = summarize_paper("p", [*prose, *rows]).results
        assert result.dataset == (None if name == "Chinese" else name)


@pytest.mark.parametrize(("text", "entities", "given"), [
    # each name takes the metrics between the name before it and it, else those of the name before
    ("F1 scores are reported for QQP and MRPC , Spearman correlations are reported for STS-B .",
     [("MetricName", 0, 1), ("DatasetName", 5, 6), ("DatasetName", 7, 8), ("MetricName", 9, 11),
      ("DatasetName", 14, 15)], {"qqp": "F1", "mrpc": "F1", "stsb": "Spearman correlations"}),
    # a name opening a clause ("For FIGER ,") takes the metrics after it: several, so none
    ("For FIGER , we adopt accuracy and macro F1 , and for Open Entity precision .",
     [("DatasetName", 1, 2), ("MetricName", 5, 6), ("MetricName", 7, 9), ("DatasetName", 12, 14),
      ("MetricName", 14, 15)], {"openentity": "precision"}),
    # one metric: every name of the sentence
    ("We report accuracy on SST-2 and TREC .",
     [("MetricName", 2, 3), ("DatasetName", 4, 5), ("DatasetName", 6, 7)], {"sst2": "accuracy", "trec": "accuracy"}),
    # names said to use, or to be, a metric after them take it ("metrics are", "use", "is")
    ("TriviaQA , Hyperpartisan metrics are F1 , WikiHop and IMDB use accuracy .",
     [("DatasetName", 0, 1), ("DatasetName", 2, 3), ("MetricName", 5, 6), ("DatasetName", 7, 8),
      ("DatasetName", 9, 10), ("MetricName", 11, 12)],
     {"triviaqa": "F1", "hyperpartisan": "F1", "wikihop": "accuracy", "imdb": "accuracy"}),
    # a metric cut at its "’s" goes on past it
    ("CoLA uses Matthew ’s Corr .", [("DatasetName", 0, 1), ("MetricName", 2, 3)], {"cola": "Matthew ’s Corr"}),
    # no name tagged as a metric reads as one: nothing
    ("textual similarity ( STS ) and sentiment ( SST ) .",
     [("MetricName", 0, 2), ("DatasetName", 3, 4), ("DatasetName", 8, 9)], {}),
])
def test_the_prose_gives_each_dataset_the_metric_said_of_it(text, entities, given):
    assert said_metrics([tagged(text, *entities)], lambda name: {}).by_name == given


def test_the_metric_said_of_the_other_data_holds_for_the_data_beside_those_named():
    """"The evaluation metric of 20News is Macro-F1 . The other three datasets use accuracy":
    accuracy for the data the two sentences give no metric, and only beside 20News."""
    p = tagged("The evaluation metric of 20News is Macro-F1 . The other three datasets use accuracy as the metric .",
               ("DatasetName", 4, 5), ("MetricName", 6, 7), ("MetricName", 13, 14))
    said = said_metrics([p], lambda name: {})
    assert said.by_name == {"20news": "Macro-F1"}
    assert said.other("fudan", ["20news", "fudan"]) == "accuracy"
    assert said.other("fudan", ["imdb", "fudan"]) is None
    assert said.other("20news", ["20news", "fudan"]) is None


def test_a_head_cut_short_from_the_name_the_text_gives_a_metric_takes_that_metric():
    """RCNN: the text says "The evaluation metric of the 20Newsgroups is the Macro-F1 measure .
    The other three datasets use accuracy", its Table 2 heads "20News Fudan ACL SST": 20News
    is 20Newsgroups cut short, so the others beside it take accuracy (a regression: no metric
    for any of them); a version is not a word cut off ("SQuAD" is not "SQuAD v1.1")."""
    rows = [tagged("The evaluation metric of the 20Newsgroups is the Macro-F1 measure . "
                   "The other three datasets use accuracy as the metric . We report F1 on SQuAD v1.1 .",
                   ("DatasetName", 5, 6), ("MetricName", 8, 9), ("MetricName", 16, 17), ("MetricName", 23, 24),
                   ("DatasetName", 25, 27)),
            row([("Model", 0), ("20News", 1), ("ACL", 2)], ("DatasetName", 1, 2), ("DatasetName", 2, 3)),
            row([("RCNN", 0), ("96.49", 1), ("49.19", 2)], ("MethodName", 0, 1))]
    got = {r.value: r.metric for r in summarize_paper("p", rows).results}
    assert got == {"96.49": "Macro-F1", "49.19": "accuracy"}
    said = said_metrics(rows[:1], lambda name: {})
    assert said.metric("20news") == "Macro-F1" and said.metric("squad") is None and said.metric("20n") is None


def test_the_metric_said_of_the_other_data_is_the_one_its_own_clause_says_so():
    """R-Drop: "STS-B is the Pearson correlation ; Matthew ’s correlation is used for CoLA ; Other
    tasks are measured by Accuracy": the others' is Accuracy, not the Matthew's correlation of
    the clause before (a regression: MRPC and RTE took Matthew's correlation)."""
    p = tagged("The result for STS-B is the Pearson correlation ; Matthew ’s correlation is used for CoLA ; "
               "Other tasks are measured by Accuracy .",
               ("DatasetName", 3, 4), ("MetricName", 6, 8), ("MetricName", 9, 12), ("DatasetName", 15, 16),
               ("MetricName", 22, 23))
    said = said_metrics([p], lambda name: {})
    assert said.by_name == {"stsb": "Pearson correlation", "cola": "Matthew ’s correlation"}
    assert said.other("mrpc", ["stsb", "cola", "mrpc"]) == "Accuracy"


def test_a_caption_saying_each_dataset_s_metric_gives_its_own_table_s_columns_theirs():
    """Longformer Table 8: "TriviaQA metrics are F1 , IMDB uses accuracy" in the caption (and the
    paper's text saying none): F1 over TriviaQA, accuracy over IMDB."""
    rows = [caption("Table 2 : Results . TriviaQA metrics are F1 , IMDB uses accuracy .", ("DatasetName", 5, 6),
                    ("MetricName", 8, 9), ("DatasetName", 10, 11), ("MetricName", 12, 13)),
            row([("Model", 0), ("TriviaQA", 1), ("IMDB", 2)], ("DatasetName", 1, 2), ("DatasetName", 2, 3)),
            row([("Longformer", 0), ("75.2", 1), ("95.7", 2)], ("MethodName", 0, 1))]
    got = {r.value: r.metric for r in summarize_paper("p", rows).results}
    assert got == {"75.2": "F1", "95.7": "accuracy"}


def test_a_squad_pair_with_no_metric_named_is_told_apart_by_size_f1_never_under_exact_match():
    """"SQuAD1.1" over "89.3/82.3" (ALBERT's F1/EM) and "80.4/88.5" (EM/F1): the larger F1, the
    smaller EM, in either order; QQP's "F1 / accuracy" pair keeps its order."""
    rows = [row([("Model", 0), ("SQuAD1.1", 1), ("QQP", 2)], ("DatasetName", 1, 2), ("DatasetName", 2, 3)),
            row([("ALBERT", 0), ("89.3/82.3", 1), ("71.2/89.2", 2)], ("MethodName", 0, 1)),
            row([("BERT", 0), ("80.4/88.5", 1), ("72.1/89.3", 2)], ("MethodName", 0, 1))]
    got = {(r.model, r.value): r.metric for r in summarize_paper("p", rows).results}
    assert got == {("ALBERT", "89.3"): "F1", ("ALBERT", "82.3"): "EM", ("BERT", "80.4"): "EM", ("BERT", "88.5"): "F1",
                   ("ALBERT", "71.2"): "F1", ("ALBERT", "89.2"): "accuracy", ("BERT", "72.1"): "F1",
                   ("BERT", "89.3"): "accuracy"}


def test_a_squad_pair_whose_metric_a_sentence_names_is_still_told_apart_by_size():
    """ALBERT Table 10: "89.1/86.3" under "SQuAD2.0 test" where the prose names F1 of SQuAD2.0:
    not F1 twice, but the larger F1 and the smaller EM (a regression: both were F1)."""
    rows = [tagged("We report F1 on SQuAD2.0 .", ("MetricName", 2, 3), ("DatasetName", 4, 5)),
            row([("Models", 0), ("SQuAD2.0 test", 1)], ("DatasetName", 1, 2)),
            row([("XLNet", 0), ("89.1/86.3", 1)], ("MethodName", 0, 1))]
    got = {r.value: r.metric for r in summarize_paper("p", rows).results}
    assert got == {"89.1": "F1", "86.3": "EM"}


def test_a_dataset_column_of_labels_under_heads_with_percentiles_lists_the_data_never_the_system():
    """Wieting et al.'s Table 2: "Dataset 50 % 75 % Max PP DAN GloVe" over "MSRpar 51.5 ...":
    the first row is heads (a percentile among them), each label the data of its row and never
    its system; the system is a method tagged over the column, else not known (regressions:
    the heads were read as scores "50 %", the data row as the system "MSRpar")."""
    rows = [caption("Table 2 : Results on SemEval textual similarity datasets ( Pearson ’s r ) .",
                    ("DatasetName", 5, 6), ("MetricName", 10, 12)),
            row([("Dataset", 0), ("50 %", 1), ("Max", 2), ("DAN", 3), ("GloVe", 4)], ("MethodName", 4, 5)),
            row([("MSRpar", 0), ("51.5", 1), ("73.4", 2), ("40.3", 3), ("47.7", 4)], ("DatasetName", 0, 1))]
    summary = summarize_paper("p", rows)
    got = {(r.value, r.dataset, r.model) for r in summary.results}
    assert ("40.3", "MSRpar", "DAN") in got
    assert all(r.dataset == "MSRpar" and r.model != "MSRpar" for r in summary.results)
    assert not {"50 %", "50%"} & {r.value for r in summary.results}


def test_a_part_of_the_caption_s_data_takes_the_data_s_usual_metric():
    """LGN Table 4 "Main results on Weibo" over "NE NM": Weibo's parts, scored with Weibo's usual
    metric (F1); not a column the caption explains ("Spread is measured as ... tokens"), nor
    one under a head naming a setting ("Transfer" over "micro")."""
    rows = [caption("Table 2 : Main results on Weibo . Spread is measured as the number of tokens .",
                    ("DatasetName", 6, 7)),
            row([("Models", 0), ("NE", 1), ("Spread", 2)]),
            row([("Lattice LSTM", 0), ("53.04", 1), ("37.3", 2)], ("MethodName", 0, 2))]
    summary = summarize_paper("p", rows)
    assert {(r.value, r.dataset, r.metric) for r in summary.results} == {("53.04", "Weibo NE", "F1")}
    assert ("37.3", "no metric") in {(n.value, n.reason) for n in summary.not_results}
    rows = [caption("Table 2 : Results on Weibo and transfer tasks .", ("DatasetName", 5, 6)),
            row([("Transfer", 1)]), row([("Model", 0), ("micro", 1)]),
            row([("LSTM", 0), ("79.5", 1)], ("MethodName", 0, 1))]
    assert not summarize_paper("p", rows).results


def test_a_label_cell_under_another_head_beside_the_models_column_is_a_setting_of_the_row():
    """CGN Table 1 "Extra Resource Models ... F1" over "Automatic word seg | Peng and Dredze (
    2015 ) | 51.96": the model is the cell under "Models", what it used its setting (a
    regression: the model was "Automatic word seg")."""
    rows = [caption("Table 2 : Main results on Weibo NER .", ("DatasetName", 5, 7)),
            row([("Extra Resource", 0), ("Models", 1), ("F1", 2)], ("MetricName", 3, 4)),
            row([("Automatic word seg", 0), ("Peng and Dredze ( 2015 )", 1), ("51.96", 2)]),
            row([("Lexicon", 0), ("CGN", 1), ("56.45", 2)], ("MethodName", 1, 2))]
    got = {r.value: (r.model, r.setting) for r in summarize_paper("p", rows).results}
    assert got == {"51.96": ("Peng and Dredze ( 2015 )", "Automatic word seg"), "56.45": ("CGN", "Lexicon")}


def test_an_mrpc_or_qqp_pair_printed_either_way_is_told_apart_by_size():
    """DeCLUTR Table 2 "74.61/82.65" under "MRPC" (accuracy / F1, the reverse of GLUE's order):
    MRPC's F1 is over its accuracy and QQP's under it, whichever the cell prints first."""
    rows = [row([("Model", 0), ("MRPC", 1), ("QQP", 2)], ("DatasetName", 1, 2), ("DatasetName", 2, 3)),
            row([("DeCLUTR", 0), ("74.61/82.65", 1), ("89.2/71.2", 2)], ("MethodName", 0, 1))]
    got = {r.value: r.metric for r in summarize_paper("p", rows).results}
    assert got == {"74.61": "accuracy", "82.65": "F1", "89.2": "accuracy", "71.2": "F1"}


def test_heads_of_a_difficulty_level_a_total_or_a_published_figure_are_no_part_of_the_dataset():
    """Spider Table 2's "Easy Medium Hard Extra Hard All" over the caption's data, a "Total"
    and a "Published" head: how a score was got, not what it was measured on."""
    rows = [caption("Table 2 : Accuracy on the Spider test set .", ("MetricName", 3, 4), ("DatasetName", 6, 7)),
            row([("Model", 0), ("Easy", 1), ("Extra Hard", 2), ("Total", 3), ("Published", 4), ("Hard Negatives", 5)]),
            row([("Seq2Seq", 0), ("29.3", 1), ("3.0", 2), ("14.1", 3), ("15.3", 4), ("20.1", 5)], ("MethodName", 0, 1))]
    got = {r.value: r.dataset for r in summarize_paper("p", rows).results}
    assert got == {"29.3": "Spider", "3.0": "Spider", "14.1": "Spider", "15.3": "Spider",
                   "20.1": "Spider Hard Negatives"}


def test_a_name_tagged_across_two_heads_names_each_head_its_own_piece():
    """XLNet Table 4: "IMDB Yelp-2" tagged as one dataset over two columns (the paper's entity
    of that name takes the sentence's "IMDB" and "Yelp-2" in); each column's
    dataset is its own head."""
    rows = [tagged("We evaluate on IMDB , Yelp-2 , Yelp-5 .", ("DatasetName", 3, 4), ("DatasetName", 5, 6),
                   ("DatasetName", 7, 8)),
            caption("Table 4 : Error rates on text classification .", ("MetricName", 3, 5)),
            row([("Model", 0), ("IMDB", 1), ("Yelp-2", 2)], ("DatasetName", 1, 3)),
            row([("DPCNN", 0), ("4.32", 1), ("2.64", 2)], ("MethodName", 0, 1))]
    got = {(r.value, r.dataset) for r in summarize_paper("p", rows).results}
    assert got == {("4.32", "IMDB"), ("2.64", "Yelp-2")}


def test_a_head_whose_next_head_folds_to_nothing_is_not_joined_to_it():
    """Skip-thought Table 3's "r ρ MSE": "ρ" beside "r" is a head of its own (a metric no
    letter of which survives folding), not the end of an "r ρ" head over both columns."""
    rows = [caption("Table 3 : Test set results on the SICK semantic relatedness subtask ."),
            row([("Method", 0), ("r", 1), ("ρ", 2), ("MSE", 3)], ("MetricName", 3, 4)),
            row([("LSTM", 0), ("0.8528", 1), ("0.7911", 2), ("0.2831", 3)], ("MethodName", 0, 1))]
    got = {(r.value, r.metric) for r in summarize_paper("p", rows).results}
    assert {("0.8528", "r"), ("0.7911", "ρ"), ("0.2831", "MSE")} <= got and not any("r ρ" in m for _, m in got)


def test_a_power_of_two_under_heads_naming_no_metric_nor_data_is_a_setting():
    """MobileBERT Table 2: "# Params h inter h intra # Head SQuAD" under a caption giving SQuAD
    F1: "512" under "h inter" is a width; "82.0" under "SQuAD" is the score."""
    rows = [caption("Table 2 : Results on SQuAD v1.1 dev F1 score .", ("DatasetName", 4, 6), ("MetricName", 7, 8)),
            row([("Model", 0), ("h inter", 1), ("h intra", 2), ("SQuAD", 3)], ("DatasetName", 5, 6)),
            row([("( a )", 0), ("512", 1), ("128", 2), ("82.0", 3)])]
    summary = summarize_paper("p", rows)
    assert [r.value for r in summary.results] == ["82.0"]
    assert {(n.value, n.reason) for n in summary.not_results} >= {("512", "setting"), ("128", "setting")}


@pytest.mark.parametrize(("caption_text", "ours"), [
    ("Table 2 : Bits per character of our best model on text8 .", True),
    ("Table 2 : Evaluation of FooNet on text8 .", True),
    ("Table 2 : Comparison of our best model with previous work on text8 .", None),
    ("Table 2 : Bits per character on text8 .", None)])
def test_a_table_naming_no_model_is_the_one_its_caption_says_is_the_paper_s_own(caption_text, ours):
    """A table whose rows name no model (only sizes or settings) holds the results of the model
    its caption names as the paper's own ("our best model", the proposed FooNet), unless the
    caption says it compares that model with others."""
    abstract = tagged("We propose FooNet , a model .", ("MethodName", 2, 3))
    abstract.meta.update(kind="abstract", section="Abstract")
    rows = [caption(caption_text, ("DatasetName", caption_text.split().index("text8"),
                                   caption_text.split().index("text8") + 1)),
            row([("Layers", 0), ("bpc", 1)], ("MetricName", 1, 2)),
            row([("12", 0), ("1.18", 1)]),
            row([("64", 0), ("1.13", 1)])]
    summary = summarize_paper("p", [abstract] + rows)
    assert {r.value: r.ours for r in summary.results if r.table} == {"1.18": ours, "1.13": ours}


def test_a_column_head_naming_the_proposed_method_marks_its_results_and_not_its_predecessor_s():
    """Results with no model under "ERNIE 2.0 BASE > Dev" (the methods over columns, tasks down
    the rows) are the paper's own; those under "ERNIE 1.0 BASE > Dev" beside them are not."""
    def result(value: str, header: str) -> Result:
        return Result(task=None, dataset="XNLI", metric="Acc", value=value, model=None, place=(2, 0, 1),
                      table="table 7", header=header)

    results = [result("77.2", "ERNIE 1.0 BASE > Dev"), result("79.7", "ERNIE 2.0 BASE > Dev")]
    mark_ours(results, ["ERNIE 2.0"])
    assert [r.ours for r in results] == [None, True]


@pytest.mark.parametrize(("text", "names", "proposed"), [
    ("One is a unidirectional encoder , which we subsequently refer to as uni-skip . uni-skip is fast .",
     ["uni-skip", "uni-skip"], ["uni-skip"]),
    ("We refer to this model throughout as combine-skip . combine-skip is fast .", ["combine-skip", "combine-skip"],
     ["combine-skip"]),
    ("Our BiLSTM-max trained on SNLI performs much better .", ["BiLSTM-max"], ["BiLSTM-max"]),
    ("We refer to this baseline as bow-avg .", ["bow-avg"], []),
    ("Our CUDA kernel supports the autoregressive mode .", ["CUDA"], []),
    ("We compare with LSTM ( Hochreiter et al . , 1997 ) and our LSTM ( Hochreiter et al . , 1997 ) .",
     ["LSTM", "LSTM"], [])])
def test_names_the_body_gives_the_paper_s_own_models_are_proposed(text, names, proposed):
    """A later section names the paper's own variants ("which we subsequently refer to as
    uni-skip", "Our BiLSTM-max trained on SNLI"); not a baseline so named, not a tool ("our CUDA
    kernel"), not a name the paper cites."""
    tokens = text.split()
    spans = []
    for name in names:
        at = next(k for k in range(len(tokens)) if tokens[k] == name and ("MethodName", k, k + 1) not in spans)
        spans.append(("MethodName", at, at + 1))
    p = tagged(text, *spans)
    p.meta.update(section="3 Model")
    assert summarize_paper("p", [p]).proposed == proposed


def test_senteval_task_heads_take_accuracy_only_beside_each_other():
    """"Model MR CR SUBJ" over scores with no metric anywhere: SentEval's tasks, scored by
    accuracy; "MR" alone over a column says too little to give it any."""
    def read(heads: list[str]) -> tuple[set[tuple[str, str | None]], set[str]]:
        rows = [caption("Table 2 : Model performance on transfer tasks ."),
                row([("Model", 0)] + [(h, k + 1) for k, h in enumerate(heads)]),
                row([("FooNet", 0)] + [(f"8{k}.5", k + 1) for k in range(len(heads))], ("MethodName", 0, 1))]
        summary = summarize_paper("p", rows)
        return {(r.dataset, r.metric) for r in summary.results}, {n.reason for n in summary.not_results}

    assert read(["MR", "CR", "SUBJ"])[0] == {("MR", "accuracy"), ("CR", "accuracy"), ("SUBJ", "accuracy")}
    assert read(["MR"]) == (set(), {"no metric"})


@pytest.mark.parametrize(("text", "said"), [
    ("Table 3 : Results on CMRC . The average score of 10 independent runs is depicted in brackets .", "average"),
    ("Table 3 : Accuracy ; mean of five runs in parentheses .", "mean"),
    ("Table 3 : Accuracy ; standard deviation in parentheses .", None),
    ("Table 3 : F1 ; the number of test examples in brackets .", None),
    ("Table 3 : F1 ; the average score of 10 runs .", None),
])
def test_a_caption_says_whether_its_brackets_hold_a_score(text, said):
    assert bracketed_score(text.split()) == said


def test_a_score_in_brackets_the_caption_calls_an_average_is_a_result_in_every_table_of_the_paper():
    """"65.5 ( 64.4 )" where a caption says the average of the runs is in brackets: 64.4 is a
    result too (setting "average"), in that table and in another whose caption says nothing of
    brackets; a number in brackets of another size ("12.0 ( 30.5 )") stays no result; without such a caption the
    bracketed number is "parenthesized"."""
    def table(label: str, cell: str) -> list[Paragraph]:
        return [row([("Model", 0), ("EM", 1)], table=label),
                row([("BERT", 0), (cell, 1)], ("MethodName", 0, 1), table=label)]
    said = caption("Table 2 : Results on CMRC . The average score of 10 runs is depicted in brackets .",
                   ("DatasetName", 5, 6))
    other = caption("Table 3 : Results on DRCD .", ("DatasetName", 5, 6))
    paper = [said, *table("table 2", "65.5 ( 64.4 )"), other, *table("table 3", "83.1 ( 82.7 )"),
             *table("table 4", "12.0 ( 30.5 )")]
    summary = summarize_paper("p", paper)
    assert [(r.dataset, r.value, r.setting) for r in summary.results] == [
        ("CMRC", "65.5", None), ("CMRC", "64.4", "average"), ("DRCD", "83.1", None), ("DRCD", "82.7", "average"),
        (None, "12.0", None)]
    assert [(n.value, n.reason) for n in summary.not_results] == [("30.5", "parenthesized")]
    plain = summarize_paper("p", [other, *table("table 3", "83.1 ( 82.7 )")])
    assert [(n.value, n.reason) for n in plain.not_results] == [("82.7", "parenthesized")]


def test_a_name_a_caption_says_results_are_on_is_the_data_whatever_it_was_tagged():
    """"Results on DRCD" with DRCD tagged a method: the data of the table; "Results of the X
    system" stays a method."""
    on = caption("Table 2 : Results on DRCD ( Traditional Chinese ) .", ("MethodName", 5, 6))
    of = caption("Table 2 : Results of DRCD .", ("MethodName", 5, 6))
    assert read_caption([on], 7, "table 2", lambda text: {}).names == {"DatasetName": "DRCD"}
    assert read_caption([of], 7, "table 2", lambda text: {}).names == {"MethodName": "DRCD"}


def test_a_caption_giving_a_metric_to_each_side_of_one_table_splits_it_where_the_prose_says():
    """"Spearman 's correlation ( left ) and accuracy ( right )" over one table: the paper's
    sentences give SYN-REL accuracy, so its column and those right of it take accuracy, those
    left of it the correlation; where no sentence tells where the right side starts, none."""
    said = tagged("We report the accuracy on SYN-REL .", ("MetricName", 3, 4), ("TaskName", 5, 6))
    text = caption("Table 2 : Spearman 's correlation ( left ) and accuracy ( right ) on different tasks .",
                   ("MetricName", 3, 6), ("MetricName", 10, 11))
    rows = [row([("Lang", 0), ("WS-353", 1), ("RG-65", 2), ("SYN-REL", 3)], ("DatasetName", 1, 2),
                ("DatasetName", 2, 3), ("TaskName", 3, 4)),
            row([("Ours", 0), ("68.0", 1), ("75.5", 2), ("45.5", 3)], ("MethodName", 0, 1))]
    assert [(r.metric, r.value) for r in summarize_paper("p", [said, text, *rows]).results] == [
        ("Spearman 's correlation", "68.0"), ("Spearman 's correlation", "75.5"), ("accuracy", "45.5")]
    assert [r.metric for r in summarize_paper("p", [text, *rows]).results] == []


@pytest.mark.parametrize(("text", "metric"), [
    ("Table 2 : Small model BPC on text8 & enwik8", "BPC"),
    ("Table 2 : All values are F1 scores .", "F1"),
    ("Table 2 : Models trained with RL on the data .", None),
    ("Table 2 : Small model BPC and BLEU on text8", None),
])
def test_a_caption_names_its_one_metric_untagged_an_acronym_of_three_capitals_alone(text, metric):
    assert read_caption([caption(text)], 7, "table 2", lambda t: {}).names.get("MetricName") == metric


def test_a_head_giving_two_metrics_in_parentheses_heads_the_two_scores_of_its_cells():
    """"SQuAD v1.1 ( F1 / EM )" over "93.1/87.2": F1 93.1 and EM 87.2 on SQuAD v1.1."""
    rows = [row([("Model", 0), ("SQuAD v1.1 ( F1 / EM )", 1)], ("DatasetName", 1, 3)),
            row([("BERT", 0), ("93.1/87.2", 1)], ("MethodName", 0, 1))]
    assert [(r.dataset, r.metric, r.value) for r in summarize_paper("p", rows).results] == [
        ("SQuAD v1.1", "F1", "93.1"), ("SQuAD v1.1", "EM", "87.2")]


@pytest.mark.parametrize(("text", "dataset"), [
    ("Table 2 : En - De test BLEU .", "En-De"), ("Table 2 : BLEU on EN→DE .", "EN→DE"),
    ("Table 2 : BLEU on En - De and En - Fr .", None), ("Table 2 : X - En test BLEU .", None),
])
def test_a_caption_naming_no_dataset_but_one_translation_direction_names_that(text, dataset):
    assert read_caption([caption(text)], 7, "table 2", lambda t: {}).names.get("DatasetName") == dataset


def test_a_size_in_parentheses_in_a_row_label_makes_no_row_of_counts():
    """"twitter ( 19.7B words )": a corpus and its size labelling a row of scores; "# words" is a
    row of counts."""
    from sciner.summary.tables.cells import row_reason
    assert row_reason("unsupervised twitter ( 19.7B words ) Sent2Vec") is None
    assert row_reason("# words") == "count"


def test_a_line_of_running_text_set_among_the_heads_heads_nothing():
    """A line of the text the PDF reader set in the table over its heads ("between all pairs of
    words evaluated for the different embed-") heads no column: its "words" makes no count,
    its "NNLM" no model."""
    rows = [row([("between all pairs of words evaluated for the different embed-", 0)], table="table 2"),
            row([("the word2vec models and the small and", 0), ("NNLM", 1)], ("MethodName", 7, 8)),
            row([("Model", 0), ("Test", 1)]),
            row([("Large", 0), ("78.4", 1)], ("MethodName", 0, 1))]
    rows[0].meta["cells"] = [[0, len(rows[0].tokens), 0, 1]]
    text = caption("Table 2 : Word level perplexity on PTB", ("MetricName", 3, 6), ("DatasetName", 7, 8))
    assert [(r.model, r.metric, r.value) for r in summarize_paper("p", [text, *rows]).results] == [
        ("Large", "Word level perplexity", "78.4")]


def test_a_measure_or_a_data_size_left_of_the_scores_makes_no_row_of_times_or_counts():
    """"342 ms" under "Latency" left of GLUE scores is no label (nor a row of times); "2.8
    Billion words" labelling a row with its data's size makes no row of counts."""
    latency = [row([("Model", 0), ("Latency", 1), ("CoLA", 2)], ("DatasetName", 2, 3)),
               row([("BERT BASE", 0), ("342 ms", 1), ("52.1", 2)], ("MethodName", 0, 2))]
    assert [(r.model, r.dataset, r.value) for r in summarize_paper("p", latency).results] == [
        ("BERT BASE", "CoLA", "52.1")]
    sized = [row([("Data", 0), ("Model", 1), ("MR ( Acc )", 2), ("CR ( Acc )", 3)]),
             row([("2.8 Billion words", 0), ("C - PHRASE", 1), ("75.7", 2), ("78.8", 3)], ("MethodName", 4, 7))]
    assert [(r.metric, r.value) for r in summarize_paper("p", sized).results] == [("Acc", "75.7"), ("Acc", "78.8")]


def test_the_data_a_paper_says_it_is_evaluated_on_is_the_data_of_tables_naming_none():
    """"We use the WikiReading dataset" in a paper naming WikiReading more often than any other
    dataset: a table whose heads and caption name no data is on WikiReading; a dataset another
    paper "used" ("( 2016 ) used ... the InfoboxQA dataset") and one trained on are not said of
    this paper's evaluation; a dataset no more often named than another is no paper's data."""
    use = tagged("We use the WikiReading dataset .", ("DatasetName", 3, 4))
    again = tagged("WikiReading aligns Wikidata relations with WikiReading articles .", ("DatasetName", 0, 1),
                   ("DatasetName", 2, 3), ("DatasetName", 5, 6))
    other = tagged("They used a similar process , yielding the InfoboxQA dataset .", ("DatasetName", 8, 9))
    trained = tagged("We evaluate models trained on Wikidata .", ("DatasetName", 5, 6))
    rows = [row([("Model", 0), ("F1", 1)]), row([("KB Relation", 0), ("89.4", 1)], ("MethodName", 0, 2))]
    known = lambda text: {}  # noqa: E731
    assert evaluated_dataset([use, other, trained, again], known) == "WikiReading"
    assert [r.dataset for r in summarize_paper("p", [use, other, trained, again, *rows]).results] == ["WikiReading"]
    assert [r.dataset for r in summarize_paper("p", [use, other, trained, *rows]).results] == [None]


def test_a_caption_naming_other_datasets_keeps_the_papers_own_from_its_columns():
    """A caption naming text8 and IMDB (which column is which unsaid): the paper's own PTB is
    not its data; a caption naming PTB among others keeps it."""
    said = [tagged("We evaluate on the PTB dataset .", ("DatasetName", 4, 5))] * 3
    rows = [row([("Model", 0), ("Perplexity", 1)]), row([("LSTM", 0), ("91.2", 1)], ("MethodName", 0, 1))]
    others = caption("Table 2 : Perplexity on the text8 and IMDB", ("DatasetName", 6, 7), ("DatasetName", 8, 9))
    ptb = caption("Table 2 : Perplexity on the PTB and IMDB", ("DatasetName", 6, 7), ("DatasetName", 8, 9))
    assert [r.dataset for r in summarize_paper("p", [*said, *rows]).results] == ["PTB"]
    assert [r.dataset for r in summarize_paper("p", [*said, others, *rows]).results] == [None]
    assert [r.dataset for r in summarize_paper("p", [*said, ptb, *rows]).results] == ["PTB"]


def test_a_setting_head_over_a_column_leaves_it_the_papers_data():
    """"Single" over the EM column of a paper about SQuAD (three mentions): EM on SQuAD, as under
    "Model"."""
    said = [tagged("We evaluate on the SQuAD dataset .", ("DatasetName", 4, 5))] * 3
    rows = [row([("Single", 1)]), row([("EM", 1)]), row([("BiDAF", 0), ("73.3", 1)], ("MethodName", 0, 1))]
    assert [(r.dataset, r.metric) for r in summarize_paper("p", [*said, *rows]).results] == [("SQuAD", "EM")]


def test_the_papers_one_metric_scores_a_table_whose_data_only_its_caption_names():
    """bert-wwm Table 7: "Results on ChnSentiCorp ." over "Dev Test" heads, the paper's one metric
    (accuracy) given that data in its prose: each cell is an accuracy on ChnSentiCorp. Where the
    prose names the metric beside no data, or not at all, the cells stay not results ("no metric")."""
    said = tagged("We report accuracy on ChnSentiCorp .", ("MetricName", 2, 3), ("DatasetName", 4, 5))
    rows = [caption("Table 7 : Results on ChnSentiCorp .", ("DatasetName", 5, 6)),
            row([("Model", 0), ("Dev", 1), ("Test", 2)], table="table 7"),
            row([("BERT", 0), ("94.7", 1), ("95.0", 2)], ("MethodName", 0, 1), table="table 7")]
    got = {(r.dataset, r.metric, r.value) for r in summarize_paper("p", [said, *rows]).results}
    assert got == {("ChnSentiCorp", "accuracy", "94.7"), ("ChnSentiCorp", "accuracy", "95.0")}
    for paper in (rows, [tagged("We report accuracy .", ("MetricName", 2, 3)), *rows]):
        unscored = summarize_paper("p", paper)
        assert not unscored.results and {o.reason for o in unscored.not_results} == {"no metric"}


def test_a_symbol_heading_a_column_takes_the_metric_the_caption_spells_out():
    """MaLSTM Table 2: "Method r ρ MSE" under a caption "Pearson correlation ( r ) , Spearman 's ρ
    , and mean squared error": the columns are those metrics; "r" alone with no caption stays "r"."""
    text = "Table 2 : Test set Pearson correlation ( r ) , Spearman 's ρ , and mean squared error ."
    rows = [caption(text, ("MetricName", 5, 7), ("MetricName", 11, 14), ("MetricName", 17, 20)),
            row([("Method", 0), ("r", 1), ("ρ", 2), ("MSE", 3)], ("MetricName", 3, 4)),
            row([("MaLSTM", 0), ("0.8822", 1), ("0.8345", 2), ("0.2286", 3)], ("MethodName", 0, 1))]
    got = [(r.metric, r.value) for r in summarize_paper("p", rows).results]
    assert got == [("Pearson correlation", "0.8822"), ("Spearman 's ρ", "0.8345"), ("MSE", "0.2286")]
    without = [(r.metric, r.value) for r in summarize_paper("p", rows[1:]).results]
    assert without == [("r", "0.8822"), ("ρ", "0.8345"), ("MSE", "0.2286")]


def test_heads_saying_which_output_is_scored_qualify_the_metric_not_the_data():
    """CogQA Table 1: "Ans Sup Joint" each over "EM F1" under a caption "Results on HotpotQA":
    "Ans EM" on HotpotQA, not EM on a dataset "Ans"; an untagged head that is no such word
    ("Laptop" over "P R F1") still qualifies the data."""
    rows = [caption("Table 2 : Results on HotpotQA .", ("DatasetName", 5, 6)),
            row([("Ans", 1), ("Joint", 3)]),
            row([("Model", 0), ("EM", 1), ("F1", 2), ("EM", 3), ("F1", 4)],
                ("MetricName", 1, 2), ("MetricName", 2, 3), ("MetricName", 3, 4), ("MetricName", 4, 5)),
            row([("CogQA", 0), ("37.1", 1), ("48.9", 2), ("12.4", 3), ("34.9", 4)], ("MethodName", 0, 1))]
    rows[1].meta["cells"] = [[0, 1, 1, 2], [1, 2, 3, 4]]  # each head spans its two metric columns
    got = {(r.dataset, r.metric, r.value) for r in summarize_paper("p", rows).results}
    assert got == {("HotpotQA", "Ans EM", "37.1"), ("HotpotQA", "Ans F1", "48.9"),
                   ("HotpotQA", "Joint EM", "12.4"), ("HotpotQA", "Joint F1", "34.9")}
    assert names_aspect("Relation") and names_aspect("Sup") and not names_aspect("Laptop")


def test_a_dataset_title_over_a_block_of_heads_is_the_data_of_all_its_columns():
    """kNN-NER Table 2: "Chinese OntoNotes 4.0" above "Model Precision Recall F1", then "Chinese"
    "MSRA" (the PDF reader set the title in the label column, in two cells) above the next block:
    every column of a block is on its title's data, not the column the title sits over."""
    rows = [row([("Chinese OntoNotes 4.0", 0)], ("DatasetName", 0, 3)),
            row([("Model", 0), ("Precision", 1), ("Recall", 2), ("F1", 3)]),
            row([("BERT-Base", 0), ("78.01", 1), ("80.35", 2), ("79.16", 3)], ("MethodName", 0, 1)),
            row([("Chinese", 0), ("MSRA", 1)], ("DatasetName", 1, 2)),
            row([("Model", 0), ("Precision", 1), ("Recall", 2), ("F1", 3)]),
            row([("BERT-Base", 0), ("94.97", 1), ("94.62", 2), ("94.80", 3)], ("MethodName", 0, 1))]
    got = {r.value: r.dataset for r in summarize_paper("p", rows).results}
    assert got == {"78.01": "Chinese OntoNotes 4.0", "80.35": "Chinese OntoNotes 4.0", "79.16": "Chinese OntoNotes 4.0",
                   "94.97": "Chinese MSRA", "94.62": "Chinese MSRA", "94.80": "Chinese MSRA"}
    # a title that says more than the data's name ("Results on MSRA") is a head as before
    said = [row([("Results on MSRA", 0)], ("DatasetName", 2, 3)), *rows[1:3]]
    assert {r.dataset for r in summarize_paper("p", said).results} != {"MSRA"}


def test_what_a_caption_s_key_spells_a_short_form_out_as_is_not_the_table_s():
    """FreeLB Table 3: "“ MTL ” stands for multi - task learning" in the caption, with the task
    tagged: the table is not of multi-task learning; a task the caption says of it still is."""
    rows = [row([("Model", 0), ("Accuracy", 1)], ("MetricName", 1, 2), table="table 3"),
            row([("RoBERTa", 0), ("64.4", 1)], ("MethodName", 0, 1), table="table 3")]
    key = caption("Table 3 : Results on ARC . “ MTL ” stands for multi - task learning .", ("TaskName", 12, 16), page=7)
    [result] = summarize_paper("p", [key, *rows]).results
    assert result.task is None
    said = caption("Table 3 : Question answering results on ARC .", ("TaskName", 3, 5), page=7)
    [result] = summarize_paper("p", [said, *rows]).results
    assert result.task == "Question answering"


def test_the_data_a_caption_says_results_are_on_untagged_there_is_the_data_the_paper_tags_elsewhere():
    """LGN Table 5: "Main results on Resume ." with "Resume" untagged in the caption but tagged
    as data in the prose: the results are on Resume; words the paper never tags as data
    ("Main results on long sentences .") give no dataset."""
    prose = [tagged("We evaluate on Resume and Weibo .", ("DatasetName", 3, 4), ("DatasetName", 5, 6))] * 2
    rows = [row([("Models", 0), ("F1", 1)], table="table 5"),
            row([("LGN", 0), ("95.37", 1)], ("MethodName", 0, 1), table="table 5")]
    for words, data in (("Resume", "Resume"), ("long sentences", None)):
        said = caption(f"Table 5 : Main results on {words} .", page=7)
        [result] = summarize_paper("p", [*prose, said, *rows]).results
        assert (result.dataset, result.metric) == (data, "F1")
    # LR-CNN Table 5: "Main results on Resume NER .", "Resume" tagged nowhere: the words as
    # written, not the paper's main data (OntoNotes)
    main = [tagged("We evaluate on OntoNotes .", ("DatasetName", 3, 4))] * 3
    said = caption("Table 5 : Main results on Resume NER .", page=7)
    [result] = summarize_paper("p", [*main, said, *rows]).results
    assert result.dataset == "Resume NER"


def test_a_label_set_about_the_middle_of_the_rows_it_labels_is_each_of_theirs():
    """AdaPU Table 3: the dataset column's "CoNLL ( en )" set beside the third of its rows' types,
    "MUC" on a line of its own between "LOC" and "ORG": each cycle of types is one dataset's block,
    and the one dataset set within it is every row's of it (not carried into the next block)."""
    rows = [row([("Dataset", 0), ("Type", 1), ("AdaPU", 2)], ("MethodName", 2, 3)),
            row([("PER", 1), ("90.17", 2)]), row([("LOC", 1), ("85.62", 2)]),
            row([("CoNLL ( en )", 0), ("ORG", 1), ("76.03", 2)], ("DatasetName", 0, 4)),
            row([("Overall", 1), ("82.94", 2)]),
            row([("PER", 1), ("85.26", 2)]), row([("LOC", 1), ("77.35", 2)]),
            row([("MUC", 0)], ("DatasetName", 0, 1)),
            row([("ORG", 1), ("60.15", 2)]), row([("Overall", 1), ("71.60", 2)]),
            row([("PER", 1), ("74.66", 2)]), row([("Twitter", 0)], ("DatasetName", 0, 1)),
            row([("LOC", 1), ("65.18", 2)])]
    caption_ = caption("Table 2 : Model performance by F1 .", ("MetricName", 5, 6))
    got = {r.value: r.dataset for r in summarize_paper("p", [caption_, *rows]).results}
    assert got == {"90.17": "CoNLL ( en )", "85.62": "CoNLL ( en )", "76.03": "CoNLL ( en )",
                   "82.94": "CoNLL ( en )", "85.26": "MUC", "77.35": "MUC", "60.15": "MUC", "71.60": "MUC",
                   "74.66": "Twitter", "65.18": "Twitter"}


def test_a_label_set_atop_its_block_labels_the_block_whose_cycle_it_opens():
    """Byte-level BPE Table 5: "T base" beside the first of its rows, "T big" beside the first of
    the next cycle; "BPE 32 K" and "BPE 32K+" are two rows of one cycle, not two cycles."""
    rows = [row([("Model", 0), ("Test BLEU", 2)], ("MetricName", 2, 3)),
            row([("T base", 0), ("BPE 32 K", 1), ("27.31", 2)], ("MethodName", 0, 2)),
            row([("BPE 32K+", 1), ("27.41", 2)]), row([("Char+", 1), ("26.73", 2)]),
            row([("T big", 0), ("BPE 32 K", 1), ("28.36", 2)], ("MethodName", 0, 2)),
            row([("BPE 32K+", 1), ("28.77", 2)]), row([("Char+", 1), ("27.24", 2)])]
    got = {r.value: r.model.split()[1] for r in summarize_paper("p", rows).results}
    assert got == {"27.31": "base", "27.41": "base", "26.73": "base", "28.36": "big", "28.77": "big", "27.24": "big"}


def test_heads_set_about_the_middle_of_their_metric_columns_head_the_columns_nearest_them():
    """LaiY Table 1: "DBQA" set over the second of "MAP MRR P@1", "KBRE" over the last two
    ("P@1 MRR"): each dataset heads the metric columns nearest it, not the one it sits over."""
    rows = [row([("DBQA", 2), ("KBRE", 4)], ("DatasetName", 0, 1), ("DatasetName", 1, 2)),
            row([("MAP", 1), ("MRR", 2), ("P@1", 3), ("P@1", 4), ("MRR", 5)]),
            row([("LCN", 0), (".8895", 1), (".8902", 2), ("83.24 %", 3), ("93.32 %", 4), (".9592", 5)],
                ("MethodName", 0, 1))]
    rows[0].meta["cells"] = [[0, 1, 2, 2], [1, 2, 4, 5]]
    got = [(r.metric, r.dataset) for r in summarize_paper("p", rows).results]
    assert got == [("MAP", "DBQA"), ("MRR", "DBQA"), ("P@1", "DBQA"), ("P@1", "KBRE"), ("MRR", "KBRE")]


def test_a_task_only_the_tables_name_is_no_task_of_the_scores():
    """InferSent Table 4: "Transfer" over SentEval's columns, tagged there as a task, is no task
    the paper's text names: its scores carry no task; one the text tags too ("NER") is theirs."""
    for head, prose in (("Transfer", None), ("NER", tagged("We evaluate on NER .", ("TaskName", 3, 4)))):
        rows = [row([(head, 1)], ("TaskName", 0, 1)), row([("Model", 0), ("F1", 1)]),
                row([("BiLSTM", 0), ("85.1", 1)], ("MethodName", 0, 1))]
        [result] = summarize_paper("p", [*([prose] if prose else []), *rows]).results
        assert result.task == (None if head == "Transfer" else "NER")


def test_heads_over_check_marks_name_a_setting_not_the_data():
    """Self-attentive parser Table 4: "Word" "embeddings" over "✓ ✗" (with and without them):
    no dataset "Word" or "embeddings"; the caption's data is the scores'."""
    rows = [caption("Table 2 : F1 on the PTB development set .", ("MetricName", 3, 4), ("DatasetName", 6, 7)),
            row([("Word", 1), ("embeddings", 2)]), row([("✓", 1), ("✗", 2)]),
            row([("CharLSTM", 0), ("93.40", 1), ("93.61", 2)], ("MethodName", 0, 1))]
    assert {r.dataset for r in summarize_paper("p", rows).results} == {"PTB"}


def test_a_translation_direction_a_head_names_overrides_the_caption_s_other_direction():
    """Weighted Transformer Table 1: "EN - DE BLEU" and "EN - FR BLEU" heads, the caption's one
    tagged dataset "WMT 2014 English-to-German" (and "EN-FR" tagged as a task): the EN-FR
    column is on EN-FR, no task is a direction."""
    rows = [caption("Table 2 : Results on the WMT 2014 English-to-German ( EN-DE ) and English-to-French ( EN-FR ) .",
                    ("DatasetName", 6, 9), ("TaskName", 15, 16)),
            row([("Model", 0), ("EN - DE BLEU", 1), ("EN - FR BLEU", 2)], ("MetricName", 4, 5), ("MetricName", 8, 9)),
            row([("Weighted Transformer", 0), ("28.4", 1), ("38.9", 2)], ("MethodName", 0, 2))]
    got = {r.value: (r.dataset, r.task) for r in summarize_paper("p", rows).results}
    assert got == {"28.4": ("WMT 2014 English-to-German", None), "38.9": ("EN-FR", None)}


def test_scores_under_a_metric_beside_count_columns_are_results_where_the_caption_says_so():
    """Multi-LexSum Table 5: "Samples R-1 Words" heads, two of them counts, under a caption on
    "BART performance": the R-1 numbers are results, the counts no scores; under a caption
    comparing datasets (Table 2, "Samples Docs Words Coverage") every number is a statistic."""
    def read(title: str) -> tuple[list[str], set[str]]:
        rows = [caption(f"Table 2 : {title} .", page=7),
                row([("Model", 0), ("Samples", 1), ("R-1", 2), ("Words", 3)], ("MetricName", 2, 3)),
                row([("BART", 0), ("6517", 1), ("47.89", 2), ("336.6", 3)], ("MethodName", 0, 1))]
        summary = summarize_paper("p", rows)
        return [r.value for r in summary.results], {n.reason for n in summary.not_results}
    assert read("Comparing BART performance under multitask and single - task scenarios") == (["47.89"], {"count"})
    assert read("Comparison of Multi - LexSum to other summarization datasets")[0] == []


def test_a_task_cut_from_the_caption_s_name_for_it_is_no_task():
    """GloVe Table 3: "Spearman rank correlation on word similarity tasks" with only "word"
    tagged as a task: no task "word"; "on translation tasks" keeps its task."""
    rows = [row([("Model", 0), ("WS353", 1)], ("DatasetName", 1, 2)),
            row([("GloVe", 0), ("75.9", 1)], ("MethodName", 0, 1))]
    for words, task in (("word similarity", None), ("translation", "translation")):
        said = caption(f"Table 2 : Spearman correlation on {words} tasks .", ("MetricName", 3, 5), ("TaskName", 6, 7))
        [result] = summarize_paper("p", [said, *rows]).results
        assert result.task == task


def test_a_label_under_a_models_head_that_the_paper_calls_a_method_stays_the_model():
    """Multi-LexSum Table 4: "PEGASUS" under "Models" and "S Fine - tuning" tagged as a method
    over the columns: PEGASUS is the model, not the data."""
    prose = tagged("We fine-tune PEGASUS and BART .", ("MethodName", 2, 3), ("MethodName", 4, 5))
    rows = [row([("Models", 0), ("R-1", 1), ("R-2", 2)], ("MetricName", 1, 2), ("MetricName", 2, 3)),
            row([("L → S Fine - tuning", 1), ("{ L , D } → S", 2)], ("MethodName", 2, 6)),
            row([("PEGASUS", 0), ("54.32", 1), ("35.62", 2)], ("MethodName", 0, 1))]
    got = {(r.model, r.dataset) for r in summarize_paper("p", [prose, *rows]).results}
    assert got == {("PEGASUS", None)}


@pytest.mark.parametrize(("proposed", "model", "ours"), [
    ("lattice LSTM", "Lattice", True),  # the first word of the name, alone
    ("kNN-NER", "BERT - Base+kNN", True),  # a coined first part added to a model
    ("kNN-NER", "BERT - Base", None),
    ("Lattice CNNs", "Char+Lattice", None),  # a plain word added: another's combination
    ("RNN Encoder-Decoder", "RNN", None),  # the first word alone, under five letters
])
def test_a_row_naming_the_proposed_method_by_its_first_word_is_ours(proposed, model, ours):
    """LatticeLSTM's rows "Lattice" (the paper proposes "lattice LSTM"), kNN-NER's "BERT - Base+kNN"."""
    results = [Result(task=None, dataset="MSRA", metric="F1", value="93.2", model=model, place=(2, 0, 1),
                      table="table 4")]
    mark_ours(results, [proposed])
    assert results[0].ours is ours


def test_a_run_of_digits_the_pdf_hid_in_a_label_is_no_part_of_the_model():
    """AGGCN Table 1: "00000000000000000 + multi - task", the zeros text the PDF hid: the row's
    model is the label as printed; "RoBERTa 2019" keeps its year."""
    rows = [row([("Model", 0), ("Accuracy", 1)], ("MetricName", 1, 2)),
            row([("00000000000000000 + multi - task", 0), ("78.5", 1)]),
            row([("LSTM 2019", 0), ("77.1", 1)])]
    assert [r.model for r in summarize_paper("p", rows).results] == ["+ multi - task", "LSTM 2019"]


def test_a_result_s_task_is_one_the_paper_mostly_calls_a_task():
    """A caption tagging "NBSVM" as a task where the prose calls it a method twice: no task on the
    table's results; "sentiment classification", a task in the prose, stays; a sentence's task
    likewise."""
    prose = [bracketed("[NBSVM|MethodName] is strong ."), bracketed("We beat [NBSVM|MethodName] .")]
    rows = [row([("Model", 0), ("CR", 1)], ("DatasetName", 1, 2)), row([("CNN", 0), ("84.7", 1)], ("MethodName", 0, 1))]

    def tasks(words: str, *spans: tuple[str, int, int]) -> set[str | None]:
        said = caption(f"Table 2 : Accuracy of {words} .", ("MetricName", 3, 4), *spans)
        return {r.task for r in summarize_paper("p", [*prose, said, *rows]).results}

    assert tasks("NBSVM", ("TaskName", 5, 6)) == {None}
    task = bracketed("We study [sentiment classification|TaskName] .")
    said = caption("Table 2 : Accuracy of sentiment classification .", ("MetricName", 3, 4), ("TaskName", 5, 7))
    assert {r.task for r in summarize_paper("p", [*prose, task, said, *rows]).results} == {"sentiment classification"}
    sentence = tagged("NBSVM reaches 80.1 accuracy on CR .", ("TaskName", 0, 1), ("MetricValue", 2, 3),
                      ("MetricName", 3, 4), ("DatasetName", 5, 6))
    assert [r.task for r in summarize_paper("p", [*prose, sentence]).results] == [None]
    # a setting the paper calls a task ("multi-task" and "Transfer" over a table's columns) is none either
    setting = [bracketed("We train [multi - task|TaskName] models ."), bracketed("[Multi - task|TaskName] helps .")]
    said = caption("Table 2 : Accuracy of multi - task models .", ("MetricName", 3, 4), ("TaskName", 5, 8))
    assert {r.task for r in summarize_paper("p", [*setting, said, *rows]).results} == {None}


def test_a_bracket_tagged_as_a_metric_value_apart_from_its_number_is_no_value():
    """"It achieves the best performance ( 72.4 % of F 1 )" with "(" tagged as a MetricValue of
    its own: one result, 72.4 %, and no value "(" (a result "(" before)."""
    p = tagged("It achieves the best performance ( 72.4 % of F 1 ) on ACE .", ("MetricValue", 5, 6),
               ("MetricValue", 6, 8), ("MetricName", 9, 11), ("DatasetName", 13, 14))
    summary = summarize_paper("p", [p])
    assert [r.value for r in summary.results] == ["72.4 %"]
    assert "(" not in {v.value for v in summary.values} | {n.value for n in summary.not_results}


def test_a_sentence_score_naming_no_data_takes_the_one_dataset_its_paragraph_names_twice():
    """"We use the shared - norm approach on the TriviaQA test set . ... our model reaches 66.04
    EM on the dev set ." (TriviaQA named twice in the paragraph): the score is on TriviaQA; a
    paragraph naming the data once, or two datasets, gives none."""
    def read(text: str, *data: tuple[int, int]) -> list[str | None]:
        tokens = text.split()
        at = tokens.index("66.04")
        p = tagged(text, ("MetricValue", at, at + 1), ("MetricName", at + 1, at + 2),
                   *(("DatasetName", a, b) for a, b in data))
        return [r.dataset for r in summarize_paper("p", [p]).results]
    text = "We evaluate on the TriviaQA test set . TriviaQA is hard . Our model reaches 66.04 EM on the dev set ."
    assert read(text, (4, 5), (8, 9)) == ["TriviaQA"]
    assert read(text, (4, 5)) == [None]
    two = "We evaluate on the TriviaQA test set . SQuAD is hard . Our model reaches 66.04 EM on the dev set ."
    assert read(two, (4, 5), (8, 9)) == [None]


@pytest.mark.parametrize(("heads", "data"), [
    (("MNLI-m", "MRPC", "CoLA"), "GLUE Average"), (("MR", "CR", "SUBJ"), "SentEval Average"),
    # two suites: which is not known; the span of the data it averages says whose
    (("MNLI-m", "BoolQ", "Foo"), "MNLI-m – Foo Average"),
    (("SST-2", "IMDB", "QNLI"), "SST-2 – QNLI Average"),  # a benchmark of no suite beside GLUE's (Linformer Table 2)
])
def test_an_average_column_beside_one_suite_s_tasks_is_that_suite_s_average(heads, data):
    """TinyBERT Table 4: "Average" right of "MNLI-m MNLI-mm MRPC CoLA" is GLUE's average, not a
    dataset "Average"."""
    cells = [("System", 0), *((h, k + 1) for k, h in enumerate(heads)), ("Average", len(heads) + 1)]
    rows = [row(cells, *(("DatasetName", k + 1, k + 2) for k in range(len(heads)))),
            row([("TinyBERT", 0), ("83.3", 1), ("86.3", 2), ("50.6", 3), ("73.4", 4)], ("MethodName", 0, 1))]
    got = {r.dataset for r in summarize_paper("p", rows).results if r.value == "73.4"}
    assert got == {data}


def test_a_sentence_value_of_a_metric_that_is_a_change_is_a_difference():
    """"achieving 12.1 % relative error reductions on ACE2005": a change, no score."""
    text = "Our model achieves 12.1 % relative error reductions on ACE2005 ."
    p = tagged(text, ("MetricValue", 3, 5), ("MetricName", 5, 8), ("DatasetName", 9, 10))
    summary = summarize_paper("p", [p])
    assert not summary.results and [(n.value, n.reason) for n in summary.not_results] == [("12.1 %", "difference")]


def test_a_sentence_number_printed_like_a_score_that_the_tagger_left_untagged_is_a_not_result():
    """GPT-2: "GPT-2 answers 4.1 % of questions correctly" with "4.1 %" tagged as nothing was in
    neither list (a regression, issue 47's no silent drop): it is an "untagged" not result; a
    tagged value, a section number and a whole number without "%" are not."""
    p = tagged("GPT-2 answers 4.1 % of questions correctly , 0.37 on average ( see Section 5.2 ) over 12 runs "
               "with a dropout of 0.1 .", ("MethodName", 0, 1), ("HyperparameterName", 21, 22),
               ("HyperparameterValue", 23, 24))
    summary = summarize_paper("p", [p])
    assert [(n.value, n.reason, n.place) for n in summary.not_results] == [
        ("4.1 %", "untagged", (0, 2, 4)), ("0.37", "untagged", (0, 8, 9))]
    assert not summary.results


def test_a_label_cell_ending_in_flops_is_the_label_then_an_amount():
    """ELECTRA Table 8: "ELECTRA - Small++ 3.3e19 ( 18x )" set as one cell beside the scores: the
    model is "ELECTRA - Small++", its FLOPs no part of its name (a regression) and no score."""
    rows = [row([("Model", 0), ("Train FLOPs", 1), ("CoLA", 2)], ("DatasetName", 3, 4)),
            row([("ELECTRA - Small++ 3.3e19 ( 18x )", 0), ("55.6", 2)], ("MethodName", 0, 3))]
    summary = summarize_paper("p", rows)
    assert [(r.model, r.value) for r in summary.results] == [("ELECTRA - Small++", "55.6")]
    assert [n.value for n in summary.not_results] == ["3.3e19", "18x"]


def test_an_average_column_beside_data_of_no_one_suite_is_the_average_of_their_task():
    """DCLR Table 1: "Avg ." right of STS12 ... SICK-R, data of the task STS: the dataset is "STS
    Avg .", not "Avg ." alone (a regression: a judge's "Avg. is not a dataset")."""
    rows = [tagged("We report Spearman correlation on STS12 and SICK-R for the STS task .", ("MetricName", 2, 4),
                   ("DatasetName", 5, 6), ("DatasetName", 7, 8), ("TaskName", 10, 11)),
            row([("Models", 0), ("STS12", 1), ("SICK-R", 2), ("Avg .", 3)], ("DatasetName", 1, 2),
                ("DatasetName", 2, 3)),
            row([("SimCSE", 0), ("68.40", 1), ("72.23", 2), ("76.25", 3)], ("MethodName", 0, 1))]
    got = {r.value: (r.dataset, r.task) for r in summarize_paper("p", rows).results}
    assert got["76.25"][0] in ("STS Avg .", "STS12 – SICK-R Avg .") and got["76.25"][0] != "Avg ."


def test_the_rows_of_a_table_of_the_paper_s_own_variations_are_its_own():
    """Stack-Pointer Table 7 ("Parsing performance of different variations of our model ...,
    together with the BIAF parser as the baseline"): "Basic", "Basic + gpar", "Full" and the
    beam rows under them are the paper's own; "BiAF", a row of another table citing it ("BIAF :
    Dozat and Manning ( 2017 )"), and a name the prose cites ("Lattice LSTM ( Zhang and Yang ,
    2018 )" in LGN's ablation) are not; a caption of no variation marks nothing."""
    def results(caption: str, table: str = "table 7") -> list[Result]:
        made = [Result(task=None, dataset="English", metric="UAS", value=str(90 + k), model=model,
                       place=(5 + k, 0, 1), table=table, caption=caption)
                for k, model in enumerate(["BiAF", "Basic", "Basic + gpar", None, "Full", "Lattice LSTM"])]
        made.append(Result(task=None, dataset="English", metric="UAS", value="95.7", model="BIAF",
                           place=(2, 0, 1), table="table 1", citation="Dozat and Manning ( 2017 )"))
        mark_ours(made, ["STACKPTR"], paragraphs=[tagged("Lattice LSTM ( Zhang and Yang , 2018 ) reads words .",
                                                         ("MethodName", 0, 2))])
        return made

    variations = results("Table 7 : Parsing performance of different variations of our model on the test sets")
    assert [r.ours for r in variations[:6]] == [False, True, True, True, True, False]
    ablation = results("Table 6 : An ablation study of LGN .", table="table 6")
    assert [r.ours for r in ablation[:6]] == [False, True, True, True, True, False]
    assert not any(r.ours for r in results("Table 7 : Parsing performance on the test sets"))
    ulmfit = [Result(task=None, dataset="TREC-6", metric="error", value="6.86", model="Freez", place=(3, 0, 1),
                     table="table 7", caption="Table 7 : Validation error rates for ULMFiT with different methods")]
    mark_ours(ulmfit, ["ULMFiT"])
    assert ulmfit[0].ours


def test_a_caption_s_task_right_after_one_of_its_several_datasets_is_that_one_s_only():
    """DeBERTa Table 2: "Results on MNLI , SQuAD v1.1 and CoNLL 2003 NER development set .": NER is
    CoNLL 2003's, not the task of the MNLI and SQuAD columns; "NER results on CoNLL 2003 and
    OntoNotes ." gives NER to both."""
    rows = [row([("Model", 0), ("MNLI", 1), ("SQuAD v1.1", 2)], ("DatasetName", 1, 2), ("DatasetName", 2, 4)),
            row([("Acc", 1), ("F1", 2)], ("MetricName", 0, 1), ("MetricName", 1, 2)),
            row([("XLNet", 0), ("90.8", 1), ("95.1", 2)], ("MethodName", 0, 1))]
    after = caption("Table 2 : Results on MNLI , SQuAD v1.1 and CoNLL 2003 NER development set .",
                    ("DatasetName", 5, 6), ("DatasetName", 7, 9), ("DatasetName", 10, 12), ("TaskName", 12, 13))
    assert [r.task for r in summarize_paper("p", [after, *rows]).results] == [None, None]
    before = caption("Table 2 : NER results on CoNLL 2003 and OntoNotes .", ("TaskName", 3, 4),
                     ("DatasetName", 6, 8), ("DatasetName", 9, 10))
    assert [r.task for r in summarize_paper("p", [before, *rows]).results] == ["NER", "NER"]


def test_numbers_under_a_heading_of_hyper_parameters_read_into_a_table_are_settings():
    """FreeLB's appendix: "A.2 HYPER - PARAMETERS" over "MNLI QNLI CoLA" and rows "m 2 2 3", read as
    one table with no caption: settings, not scores on the data (nor CoLA's Matthews correlation);
    a caption's sentence about hyperparameters run into the heads leaves the scores scores."""
    body = [row([("MNLI", 1), ("QNLI", 2), ("CoLA", 3)], ("DatasetName", 0, 1), ("DatasetName", 1, 2),
                ("DatasetName", 2, 3), table="table 6"),
            row([("m", 0), ("2", 1), ("2", 2), ("3", 3)], table="table 6")]
    heading = row([("A.2 HYPER - PARAMETERS", 0)], table="table 6")
    paper = summarize_paper("p", [heading, *body])
    assert not paper.results and {n.reason for n in paper.not_results if n.table} == {"setting"}
    prose = row([("runs with the same hyperparameter but different random seeds", 0)], table="table 6")
    assert len(summarize_paper("p", [prose, *body]).results) == 3


def test_a_table_its_caption_opens_as_statistics_holds_no_scores_whatever_heads_it():
    """AdaPU Table 4: "Statistic information of the extended dictionary": the dictionary's size,
    precision and recall are statistics of it, not a system's scores; "Results ..." keeps them."""
    rows = [row([("Type", 0), ("Size", 1), ("Precision", 2), ("Recall", 3)], ("MetricName", 2, 3),
                ("MetricName", 3, 4), table="table 4"),
            row([("PER", 0), ("10,159", 1), ("89.65", 2), ("19.08", 3)], table="table 4")]
    said = caption("Table 4 : Statistic information of the extended dictionary .", page=7)
    paper = summarize_paper("p", [said, *rows])
    assert not paper.results and {n.reason for n in paper.not_results if n.table} <= {"statistic", "count"}
    said = caption("Table 4 : Results of the extended dictionary .", page=7)
    assert {r.value for r in summarize_paper("p", [said, *rows]).results} == {"89.65", "19.08"}


def test_a_row_citing_the_paper_s_own_report_is_its_own_where_the_caption_says_our():
    """R-NET Table 2, "The performance of our R - NET and competing approaches": the row "R - NET (
    Wang et al . , 2017 )" cites the authors' own report and is the paper's; a citing row the
    caption does not call "our" stays another's."""
    def result(model: str, citation: str) -> Result:
        return Result(task=None, dataset="SQuAD", metric="EM", value="72.3", model=model, place=(9, 0, 1),
                      table="table 2", citation=citation,
                      caption="Table 2 : The performance of our R - NET and competing approaches on SQuAD .")
    ours, theirs = result("R - NET", "Wang et al . , 2017"), result("BiDAF", "Seo et al . , 2016")
    mark_ours([ours, theirs], ["R-NET"])
    assert ours.ours and not theirs.ours


@pytest.mark.parametrize(("header", "ours"), [("Baseline > LSTM > [ 22 ]", False), ("Baselines > LSTM", False),
                                              ("MemN2N > PE", True), ("ELMO + > BASELINE", True)])
def test_a_column_under_a_baseline_head_or_a_citation_is_no_model_of_the_paper(header, ours):
    """End-To-End Memory Networks Table 1: "LSTM" under "Baseline" and "[ 22 ]" is another's,
    though the paper names LSTMs among its own; ELMo's "ELMO + / BASELINE" column is its own."""
    result = Result("QA", None, "error", "50.0", "LSTM" if "LSTM" in header else "MemN2N", (3, 1, 2), None,
                    "table 1", header=header)
    mark_ours([result], ["LSTM", "MemN2N", "ELMo"])
    assert result.ours is ours
