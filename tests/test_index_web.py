"""The corpus routes of ``sciner serve --index``: read-only JSON with limits, and the page in Chromium."""

from __future__ import annotations

import re
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
from fastapi import FastAPI  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402

import sciner  # noqa: E402
from sciner.errors import InputFormatError  # noqa: E402
from sciner.serve.corpus import MAX_LIMIT, corpus_router  # noqa: E402

from helpers.browser import CHROMIUM, chromium, served  # noqa: E402
from helpers.papers import indexed_corpus  # noqa: E402

@pytest.fixture(scope="module")
def db(tmp_path_factory) -> Path:
    return indexed_corpus(tmp_path_factory.mktemp("papers"))


@pytest.fixture(scope="module")
def client(db: Path) -> TestClient:
    app = FastAPI()
    app.include_router(corpus_router(db))
    return TestClient(app)


def test_the_json_routes_answer_as_sciner_query_does(client: TestClient, db: Path) -> None:
    board = client.get("/v1/corpus/results", params={"dataset": "squad", "metric": "F1"}).json()
    with sciner.Index(db) as ix:
        assert board == [vars(r) for r in ix.results(dataset="squad", metric="F1")]
    assert [p["paper"] for p in client.get("/v1/corpus/papers", params={"entity": "xlnet"}).json()] == ["beta"]
    assert client.get("/v1/corpus/entities", params={"type": "DatasetName", "limit": 1}).json()[0]["name"] == "SQuAD"
    assert client.get("/v1/corpus/values", params={"of": "learning rate"}).json()[0]["value"] == "5e-5"
    hit = client.get("/v1/corpus/search", params={"q": "span masking"}).json()[0]
    assert client.get(f"/v1/corpus/paragraphs/{hit['paragraph_id']}").json()["text"].startswith("Span masking")
    assert client.get("/v1/corpus/leaderboards").json()[0] == {"task": None, "dataset": "SQuAD", "metric": "F1",
                                                               "papers": 3, "spellings": "SQuAD", "settings": "",
                                                               "dataset_key": "squad", "metric_key": "f1"}


@pytest.mark.parametrize("url, status, code", [
    (f"/v1/corpus/results?limit={MAX_LIMIT + 1}", 422, "bad_limit"),
    ("/v1/corpus/search?q=" + "x" * 600, 422, "too_long"),
    ("/v1/corpus/search", 422, "missing"),
    ("/v1/corpus/paragraphs/999999", 404, "not_found"),
    # A value of the wrong type was FastAPI's own 422 ({"detail": ...}), not the server's JSON error.
    ("/v1/corpus/results?limit=abc", 422, "bad_value"),
    ("/v1/corpus/results?ours=maybe", 422, "bad_value"),
    ("/v1/corpus/paragraphs/abc", 422, "bad_value"),
    ("/v1/corpus/leaderboards?min_papers=0", 422, "bad_value"),
    ("/v1/corpus/entities?limit=0", 422, "bad_limit"),
    ("/v1/corpus/papers?type=MethodName", 422, "missing"),
    ("/v1/corpus/results?dataset=" + "x" * 600, 422, "too_long"),
    # A number SQLite cannot hold was an OverflowError and a 500 in text; a NUL, SQLite's "unterminated string".
    ("/v1/corpus/paragraphs/100000000000000000000000", 422, "bad_value"),
    ("/v1/corpus/results?limit=100000000000000000000000", 422, "bad_value"),
    ("/corpus/paragraphs/100000000000000000000000", 422, "bad_value"),
    ("/corpus/paragraphs/abc", 422, "bad_value"),
    ("/v1/corpus/search?q=%00", 422, "bad_value"),
    # An unknown entity type answered 200 [].
    ("/v1/corpus/papers?entity=bert&type=Bogus", 422, "bad_value"),
    ("/v1/corpus/entities?type=Bogus", 422, "bad_value"),
])
def test_limits_and_unknowns_are_json_errors(client: TestClient, url: str, status: int, code: str) -> None:
    answer = client.get(url)
    assert answer.status_code == status and answer.json()["error"]["code"] == code


def test_an_unknown_entity_type_is_refused_naming_the_seven_and_any_case_of_one_is_read(client: TestClient) -> None:
    from sciner.labels import ENTITY_TYPES

    message = client.get("/v1/corpus/entities", params={"type": "Bogus"}).json()["error"]["message"]
    assert all(kind in message for kind in ENTITY_TYPES) and "'Bogus'" in message
    assert client.get("/v1/corpus/entities", params={"type": "datasetname"}).json() == \
        client.get("/v1/corpus/entities", params={"type": "DatasetName"}).json() != []


@pytest.mark.parametrize("q", ["*", '"', '"unbalanced', "* BERT", "\x00"])
def test_a_search_the_index_cannot_run_is_a_json_answer_never_a_500(client: TestClient, q: str) -> None:
    """These answered 500 text/plain with a traceback in the log. Searched as words once the
    index quotes FTS5's syntax (a list), or refused in the one JSON error until then; never a 500."""
    answer = client.get("/v1/corpus/search", params={"q": q})
    assert answer.status_code < 500 or answer.status_code == 503, answer.text
    assert answer.headers["content-type"] == "application/json"
    found = answer.json()
    assert isinstance(found, list) or set(found) == {"error"} and set(found["error"]) == {"code", "message"}


def test_the_page_says_a_refused_search_or_type_and_goes_on(client: TestClient) -> None:
    """/corpus?q=* answered 500 text/plain: the page, its search answered (searched as words once
    the index quotes FTS5's syntax, or the index's one line until then), or refused in words."""
    for params, part, refused in [({"q": "*"}, "hits", None), ({"q": "a\x00b"}, "hits", "NUL"),
                                  ({"entity": "LSTM", "type": "Bogus"}, "papers", "MethodName")]:
        answer = client.get("/corpus", params=params)
        assert answer.status_code == 200 and "text/html" in answer.headers["content-type"], params
        assert f'id="{part}"' in answer.text and "<h2>Leaderboards</h2>" in answer.text  # the rest is there
        if refused:
            said = re.search(f'<p id="{part}">([^<]+)</p>', answer.text)
            assert said and refused in said.group(1), params


def test_every_question_with_a_route_is_served_as_the_command_line_answers_it(client: TestClient, db: Path,
                                                                             cli) -> None:
    """The routes are made from the question table that makes the subcommands; raw SQL stays off HTTP."""
    import json

    from sciner.index.questions import QUESTIONS

    routes = {route.path for route in corpus_router(db).routes}
    assert {q.path for q in QUESTIONS.values() if q.path} <= routes and QUESTIONS["sql"].path is None
    assert client.get("/v1/corpus/sql", params={"query": "SELECT 1"}).status_code == 404
    for name, params, args in [("leaderboards", {"min_papers": 2}, ["--min-papers", "2"]),
                               ("entities", {"type": "MethodName", "limit": 3}, ["--type", "MethodName", "--top", "3"]),
                               ("search", {"q": "SQuAD", "limit": 2}, ["SQuAD", "-n", "2"]),
                               ("results", {"ours": "true"}, ["--ours"])]:
        asked = json.loads(cli("query", db, name, *args, "--json").stdout)
        assert client.get(f"/v1/corpus/{name}", params=params).json() == asked and asked, name


def test_the_routes_are_read_only_and_a_bad_index_is_refused_before_serving(client: TestClient, tmp_path) -> None:
    assert client.post("/v1/corpus/results").status_code == 405
    bad = tmp_path / "x.sqlite"
    bad.write_text("no database " * 100)
    with pytest.raises(InputFormatError, match="not a sciner index"):
        corpus_router(bad)


@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium")
def test_the_corpus_page_in_a_browser(db: Path, tmp_path: Path) -> None:
    with served(db) as url, chromium() as browse:
        dom = browse("--dump-dom", url + "/corpus?q=span+masking&entity=LSTM&type=MethodName")
        png = tmp_path / "corpus.png"
        browse(f"--screenshot={png}", "--window-size=1200,900", url + "/corpus")
        # Each leaderboard number links to its paragraph, which the paragraph page shows.
        first = re.search(r'href="(/corpus/paragraphs/\d+)" class="value">92.1<', dom)
        assert first, dom
        with urllib.request.urlopen(url + first.group(1), timeout=10) as answer:
            paragraph = answer.read().decode()
    assert "<h3>SQuAD · F1</h3>" in dom and 'class="leaderboard"' in dom
    assert '<div class="facet" data-type="DatasetName">' in dom and ">SQuAD</a>" in dom
    assert 'id="hits"' in dom and "[Span] [masking]" in dom  # the search box's answer
    assert 'id="papers"' in dom and "<td>alpha</td>" in dom  # the LSTM facet's papers
    assert '<blockquote id="paragraph">Our XLNet reaches 92.1 F1 on SQuAD.</blockquote>' in paragraph
    assert png.stat().st_size > 5000


def test_serve_refuses_a_bad_index_in_one_line_before_loading_the_model(cli, tmp_path: Path) -> None:
    bad = tmp_path / "notes.sqlite"
    bad.write_text("no database " * 100)
    run = cli("serve", "--index", bad)
    assert run.returncode != 0
    assert run.stderr.strip() == f"error[E001]: {bad}: not a sciner index (not an SQLite database)"


def test_the_server_s_page_and_the_corpus_routes_are_one_app(db: Path) -> None:
    from sciner.serve.app import create_app

    app = create_app(object(), routers=[corpus_router(db)])  # the tagger is not asked here
    client = TestClient(app)
    assert client.get("/v1/corpus/entities", params={"type": "MethodName"}).status_code == 200
    assert "sciner corpus" in client.get("/corpus").text and client.get("/").status_code == 200


@pytest.mark.parametrize("raised, status, code", [
    ("FileSystemError", 503, "index_unavailable"),  # locked by a writer past the wait, a full disk
    ("ScinerError", 422, "bad_question"),  # any other refusal of the index: the question's
])
def test_what_the_index_raises_is_the_json_error_of_its_kind(client: TestClient, monkeypatch, raised: str,
                                                             status: int, code: str) -> None:
    import sciner.errors

    def refuse(self, *args, **kwargs):
        raise getattr(sciner.errors, raised)("corpus.sqlite: the index is locked by another process")

    monkeypatch.setattr(sciner.Index, "leaderboards", refuse)
    answer = client.get("/v1/corpus/leaderboards")
    assert answer.status_code == status and answer.json() == {
        "error": {"code": code, "message": "corpus.sqlite: the index is locked by another process"}}
