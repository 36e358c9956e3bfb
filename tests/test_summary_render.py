"""Issue 33 item 3: the summary's CSV holds every record (papers with titles, entities, values,
results, with the page and table each was read from); the HTML names papers by title, says where
each value and result was read, and shows the results as model x dataset x metric."""

from __future__ import annotations

import csv
import io
import re

from sciner.document import Paragraph
from sciner.summary.assemble import Entity, PaperSummary, corpus_table
from sciner.summary.render import render_csv, render_html
from sciner.summary.values import Result, Value


def paper() -> PaperSummary:
    paragraphs = [
        Paragraph("BERT : Pre-training of Deep Bidirectional Transformers".split(), meta={"page": 1, "section": "Title"}),
        Paragraph("We fine-tune BERT with a learning rate of 5e-5 .".split(), meta={"page": 3, "section": "Setup"}),
        Paragraph("BERT LARGE 92.8".split(), meta={"page": 6, "section": "Results", "kind": "table",
                                                  "table": "table 7", "cells": [[0, 2, 0, 0], [2, 3, 1, 1]]}),
    ]
    return PaperSummary(
        doc="bert",
        entities=[Entity("MethodName", "BERT", ["BERT"], [(0, 0, 1), (1, 2, 3), (2, 0, 1)])],
        values=[Value("HyperparameterValue", "5e-5", "learning rate", (1, 8, 9))],
        results=[Result(None, "CoNLL-2003", "F1", "92.8", "BERT LARGE", (2, 2, 3)),
                 Result("NER", None, "F1", "90.1", None, (1, 2, 3))],
        paragraphs=paragraphs,
    )


def test_the_csv_has_a_row_per_paper_entity_value_and_result_with_where_it_was_read():
    rows = list(csv.DictReader(io.StringIO(render_csv([paper()], corpus_table([paper()])))))
    assert [r["record"] for r in rows] == ["paper", "entity", "value", "result", "result"]
    title, entity, value, table_result, sentence_result = rows
    assert title["name"] == "BERT: Pre-training of Deep Bidirectional Transformers" and title["doc"] == "bert"
    assert (entity["type"], entity["name"], entity["mentions"], entity["surface"]) == ("MethodName", "BERT", "3", "BERT")
    assert (value["type"], value["value"], value["of"], value["page"], value["paragraph"]) == \
        ("HyperparameterValue", "5e-5", "learning rate", "3", "1")
    assert (table_result["dataset"], table_result["metric"], table_result["value"], table_result["model"],
            table_result["page"], table_result["table"]) == ("CoNLL-2003", "F1", "92.8", "BERT LARGE", "6", "table 7")
    assert sentence_result["task"] == "NER" and sentence_result["table"] == "" and sentence_result["model"] == ""


def test_the_page_names_papers_by_title_and_shows_where_and_the_results_grid():
    page = render_html([paper()], corpus_table([paper()]))
    assert '<h2>BERT: Pre-training of Deep Bidirectional Transformers<span class="doc">bert</span></h2>' in page
    assert '<span class="where">p. 6, table 7</span>' in page and '<span class="where">p. 3</span>' in page
    grid = page[page.index("<h3>Results: model x dataset x metric</h3>"):]
    grid = grid[:grid.index("</table>")]
    assert "<th>CoNLL-2003 · F1</th>" in grid and "<th>- · F1</th>" in grid  # a sentence result naming no dataset
    # The one result that names model, dataset and metric, linked to its mention in the tagged text.
    assert re.search(r'<td>BERT LARGE</td><td[^>]*><a href="#d0-p2-t2" title="bert, p. 6">92.8</a></td>', grid), grid


def test_the_summary_and_the_index_take_a_paper_s_title_from_one_function():
    """paper_title was written twice: the summary's looked at the first five paragraphs, the
    index's at all of them, so a "Title" section further on titled the paper in the index only."""
    from sciner.index.write import paper_rows
    from sciner.summary.render import paper_title

    def untagged(tokens: str, **meta: str) -> Paragraph:
        return Paragraph(tokens.split(), ["O"] * len(tokens.split()), meta=meta)

    first = [untagged("BERT : Pre-training", section="Title"), untagged("We fine-tune BERT .", section="Setup")]
    assert paper_title(first) == "BERT: Pre-training" == paper_rows("bert", first, None, "m").title
    late = [*(untagged(f"Paragraph {i} .", section="Intro") for i in range(6)), untagged("Title", section="Title")]
    assert paper_title(late) is None and paper_rows("late", late, None, "m").title is None
    rows = list(csv.DictReader(io.StringIO(render_csv([PaperSummary("late", [], [], [], late)], {}))))
    assert rows[0]["name"] == ""


def test_the_csv_and_the_page_keep_ours_proposed_and_the_not_results_with_their_reasons():
    """Issue 48: the JSON had ``ours``, ``proposed`` and ``not_results``; the CSV and HTML dropped them."""
    from sciner.summary.values import NotResult

    summary = paper()
    summary.results[0].ours = True
    summary.proposed = ["BERT"]
    summary.not_results = [NotResult("+1.2", "difference", (2, 2, 3), "table 7")]
    rows = list(csv.DictReader(io.StringIO(render_csv([summary], corpus_table([summary])))))
    assert [r["record"] for r in rows] == ["paper", "entity", "proposed", "value", "result", "result", "not_result"]
    assert rows[2]["name"] == "BERT"
    assert [r["ours"] for r in rows if r["record"] == "result"] == ["1", ""]
    assert (rows[-1]["value"], rows[-1]["reason"], rows[-1]["table"], rows[-1]["paragraph"]) == \
        ("+1.2", "difference", "table 7", "2")
    page = render_html([summary], corpus_table([summary]))
    assert "<p>Proposes: BERT</p>" in page and "<th>ours</th>" in page
    assert re.search(r"<td>BERT LARGE</td><td>ours</td>", page)
    not_results = page[page.index('<details class="not-results">'):]
    assert "<td>+1.2</td><td>difference</td>" in not_results[:not_results.index("</details>")]
