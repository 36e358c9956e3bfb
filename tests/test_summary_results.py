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
from sciner.summary.ours import CITATION, CITED, cited_names
from sciner.summary.papers import read_papers
from sciner.summary.tables.caption import read_caption
from sciner.summary.tables.cells import (
    cell_numbers, is_language, metric_like, not_score_head, prints_numbers_only, split_name, table_rows,
)
from sciner.summary.tables.namer import Namer
from sciner.summary.tables.reader import Table, data_rows, read_table

from helpers.papers import caption, row  # a table row and a caption as --include tables writes them

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
    ("85.2±0.6", [("85.2", None), ("0.6", "deviation")]), ("85.2 +/- 0.6", [("85.2", None), ("0.6", "deviation")]),
    ("3.5 [ 2.1 ]", [("3.5", None), ("2.1", None)]), ("84.7/85.0/84.9", [("84.7", None), ("85.0", None), ("84.9", None)]),
    ("86.6/-", [("86.6", None)]), (".69/ -", [("0.69", None)]), ("- 0.7 / -0.7", [("-0.7", None), ("-0.7", None)]),
    (".97", [("0.97", None)]), ("24 * *", [("24", None)]), ("86.2†", [("86.2", None)]), ("**85.2**", [("85.2", None)]),
    ("95.4 %", [("95.4%", None)]), ("1,806,230 ( 1,542,805 )", [("1,806,230", None), ("1,542,805", "parenthesized")]),
    ("1,024", [("1,024", None)]), ("3 × 10−5", [("3e-5", None)]), ("3e-5", [("3e-5", None)]), ("1.2E+3", [("1.2e+3", None)]),
    ("10−5", [("1e-5", None)]), ("1024", [("1024", None)]), ("100", [("100", None)]), ("5.2.1", []), ("512 + 512", []), ("2017 ) .", []),
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
])
def test_a_name_over_a_cell_of_several_scores_names_each_its_own(name, part, named):
    assert split_name(name, part) == named


@pytest.mark.parametrize(("text", "only"), [("85.2", True), ("5.2.1", True), ("512 + 512", True), ("3 × 10−5", True),
                                            ("86.78 b", True), ("392k", False), ("SST-2", False), ("Model", False)])
def test_a_cell_printing_numbers_only_is_one_no_reading_may_drop(text, only):
    assert prints_numbers_only(text) is only


@pytest.mark.parametrize(("head", "metric"), [("BLEU", "BLEU"), ("ROUGE-1", "ROUGE-1"), ("R-L", "R-L"), ("EM", "EM"),
                                              ("R1(%)", "R1"), ("Acc .", "Acc ."), ("MCC", "MCC"), ("MF1", "MF1"),
                                              ("P@1", "P@1"), ("Laptop", None), ("Arabic", None)])
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
    B ( 66.2 )" each value is its own name's; "we propose X" makes X's results ours."""
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
    assert [(r.model, r.value, r.ours) for r in summary.results] == [(None, "0.23", False), ("FooNet", "68.2", True),
                                                                     ("BarNet", "66.2", False)]
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
    assert ("CNN-DM", "R-1", "41.6", "NEUSUM ( Zhou et al . , 2018 )") in bottom_up


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
    assert "+ ELMo ( Peters et al . , 2018 )" in coref


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
    assert {("5.9", "oh - LSTM ( Johnson and Zhang , 2016 )"), ("4.0", "TBCNN ( Mou et al . , 2015 )")} <= got


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
    assert {("MNLI-m", "accuracy", "86.7"), ("MNLI-mm", "accuracy", "85.9"), (None, "average", "82.1")} <= bert
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
