"""The /corpus page of ``sciner serve --index`` over papers written to trip it (issue 48): its
facets leave out tags that name nothing, its boards come by papers then results, a form asks
for a dataset's or a metric's leaderboard, and a table row's page shows its table's caption and
header rows with a link to the paper."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
from fastapi import FastAPI  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402

import sciner  # noqa: E402
from sciner.formats.jsonl import write_jsonl  # noqa: E402
from sciner.serve.corpus import corpus_router  # noqa: E402

from helpers.papers import bracketed, caption, row, write_corpus  # noqa: E402

# No dataset shared by two papers: ZData's board has three results, AData's one. "Sentence" and
# "Human" are tagged in two papers but written untagged in more paragraphs; "Transformer" is
# tagged wherever it is written; "Mean" is no name whatever its tags; "Foo" is tagged once.
PAPERS = {
    "delta": ["[ModelA|MethodName] reaches [70.1|MetricValue] [Acc|MetricName] on [ZData|DatasetName] .",
              "[ModelB|MethodName] reaches [60.2|MetricValue] [Acc|MetricName] on [ZData|DatasetName] .",
              "[ModelC|MethodName] reaches [50.3|MetricValue] [Acc|MetricName] on [ZData|DatasetName] .",
              "Each [Sentence|TaskName] is read by a [Human|MethodName] , its [Mean|MetricName] taken .",
              "We tag the [Transformer|MethodName] once ."],
    "eps": ["[ModelD|MethodName] reaches [40.4|MetricValue] [Acc|MetricName] on [AData|DatasetName] .",
            "Each [Sentence|TaskName] is read by a [Human|MethodName] , and the [Transformer|MethodName] too .",
            "A sentence , a human , a sentence , a human .", "Another sentence read by a human .",
            "One more sentence and human .", "Yet another sentence for a human .",
            "The [Mean|MetricName] of [Foo|MethodName] is [3.2|MetricValue] ."],
}


@pytest.fixture(scope="module")
def client(tmp_path_factory) -> TestClient:
    folder = write_corpus(tmp_path_factory.mktemp("papers"), PAPERS)
    table = [caption("Table 2 : Results on WikiQA .", ("DatasetName", 5, 6)),
             row([("Model", 0), ("MAP", 1)], ("MetricName", 1, 2)),
             row([("ModelE", 0), ("71.3", 1)], ("MethodName", 0, 1), ("MetricValue", 1, 2))]
    write_jsonl([bracketed("We compare models ."), *table], folder / "zeta.jsonl")
    db = folder / "corpus.sqlite"
    sciner.index_files([folder], db, show_progress=False, gazetteers=False)
    app = FastAPI()
    app.include_router(corpus_router(db))
    return TestClient(app)


def facet(page: str, kind: str) -> list[str]:
    found = re.search(f'<div class="facet" data-type="{kind}">(.*?)</div>', page)
    assert found, kind
    return re.findall(r'<a href="[^"]*">([^<]+)</a>', found.group(1))


def test_the_facets_show_names_not_junk(client: TestClient) -> None:
    page = client.get("/corpus").text
    assert facet(page, "MethodName") == ["Transformer"]  # not Human, nor ModelA..E or Foo (one mention each)
    assert facet(page, "TaskName") == []  # "Sentence" is written untagged in four paragraphs more
    assert facet(page, "MetricName") == ["Acc"]  # not "Mean"


def test_without_a_shared_dataset_the_board_of_most_results_comes_first(client: TestClient) -> None:
    page = client.get("/corpus").text
    boards = re.findall(r"<h3>([^<]+)</h3><div class=\"chart\"", page)
    assert boards[:2] == ["ZData · Acc", "AData · Acc"]


def test_a_form_asks_for_a_dataset_or_a_metric_leaderboard(client: TestClient) -> None:
    page = client.get("/corpus").text
    form = re.search(r'<form id="board" action="/corpus" method="get">(.*?)</form>', page)
    assert form and 'name="dataset"' in form.group(1) and 'name="metric"' in form.group(1)
    asked = client.get("/corpus", params={"dataset": "zdata"}).text
    board = re.search(r'<div id="asked">(.*?)</div>', asked).group(1)
    assert re.findall(r'class=\'value\'>([^<]+)<', board) == ["70.1", "60.2", "50.3"]
    in_metric = client.get("/corpus", params={"metric": "acc"}).text
    assert re.findall(r"<td>(\w+Data)</td>", re.search(r'<div id="asked">(.*?)</div>', in_metric).group(1)) == [
        "AData", "ZData", "ZData", "ZData"]
    nothing = client.get("/corpus", params={"metric": "BLEU"}).text
    assert '<div id="asked"><p>no result</p></div>' in nothing


def test_a_table_row_s_page_shows_the_caption_and_header_with_a_link_to_the_paper(client: TestClient) -> None:
    hit = client.get("/v1/corpus/results", params={"dataset": "wikiqa"}).json()[0]
    page = client.get(f"/corpus/paragraphs/{hit['paragraph_id']}").text
    assert ('<table id="table"><caption>Table 2: Results on WikiQA.</caption><tr><th>Model MAP</th></tr>'
            '<tr id="paragraph"><td>ModelE 71.3</td></tr></table>') in page
    link = re.search(r'<a href="(/corpus/papers/\d+/file)#page=7" class=\'paper\'>zeta</a>', page)
    assert link, page
    answer = client.get(link.group(1))
    assert answer.status_code == 200 and answer.text.splitlines()[0].startswith("{")  # the paper's JSONL
    assert client.get("/corpus/papers/999/file").json()["error"]["code"] == "not_found"


def test_a_body_paragraph_s_page_is_a_quote(client: TestClient) -> None:
    hit = client.get("/v1/corpus/results", params={"dataset": "adata"}).json()[0]
    page = client.get(f"/corpus/paragraphs/{hit['paragraph_id']}").text
    assert '<blockquote id="paragraph">ModelD reaches 40.4 Acc on AData.</blockquote>' in page
