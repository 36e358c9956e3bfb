"""`sciner serve`: the API in process (tags identical to the tagger's, every bad request a JSON
4xx, the server still answering after them), a real server on 127.0.0.1 under 32 concurrent
clients, and the page in headless Chromium."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient  # noqa: E402

from sciner.serve.app import Limits, create_app  # noqa: E402
from sciner.serve.bodies import paragraph_answer  # noqa: E402

SENTENCES = [
    "We fine - tune BERT on SQuAD v1.1 and report F1 .",
    "The learning rate is 5e-5 and the batch size is 32 .",
    "Our model outperforms ELMo on CoNLL-2003 named entity recognition .",
    "We train a BiLSTM - CRF tagger with dropout 0.5 .",
    "Machine translation results on WMT14 are given in BLEU .",
    "RoBERTa reaches 90.2 accuracy on MNLI .",
]
PARAGRAPHS = [s.split() for s in SENTENCES]


@pytest.fixture(scope="module")
def client(shipped_tagger) -> TestClient:
    return TestClient(create_app(shipped_tagger, Limits(max_body_bytes=64 * 1024, max_tokens=500)))


def expected(tagger, paragraphs: list[list[str]]) -> list[dict]:
    """What /v1/tag must answer: the tagger's tags of the paragraphs as one paper, as `sciner predict` tags a file."""
    return [paragraph_answer(p) for p in tagger.tag(paragraphs)]


def test_tokens_and_text_are_tagged_as_the_tagger_tags_them(client, shipped_tagger):
    answer = client.post("/v1/tag", json={"paragraphs": PARAGRAPHS})
    assert answer.status_code == 200
    assert answer.json()["paragraphs"] == expected(shipped_tagger, PARAGRAPHS)
    assert any(s["label"] == "MethodName" for p in answer.json()["paragraphs"] for s in p["spans"])
    text = "We fine-tune BERT on SQuAD v1.1 and report F1.\n\nThe learning rate is 5e-5."
    answer = client.post("/v1/tag", json={"text": text})
    assert answer.status_code == 200
    tagged = shipped_tagger.tag_text([line for line in text.splitlines() if line.strip()])
    assert answer.json()["paragraphs"] == [paragraph_answer(p) for p in tagged]
    assert answer.json()["paragraphs"][0]["tokens"][:4] == ["We", "fine", "-", "tune"]
    # curl -d without -H sends a form's content type: the JSON body is read all the same.
    form = client.post("/v1/tag", content=json.dumps({"text": text}),
                       headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert form.status_code == 200 and form.json() == answer.json()


def test_summarize_names_the_paper_s_entities(client):
    answer = client.post("/v1/summarize", json={"paragraphs": PARAGRAPHS})
    assert answer.status_code == 200
    names = {(e["type"], e["name"]) for e in answer.json()["entities"]}
    assert ("MethodName", "BERT") in names
    assert {"doc", "entities", "values", "results"} <= set(answer.json())


@pytest.mark.parametrize("body,headers,status,code", [
    (b"{not json", {"Content-Type": "application/json"}, 400, "invalid_json"),
    (b"", {"Content-Type": "application/json"}, 400, "empty"),
    (json.dumps({"paragraphs": "We use BERT"}).encode(), {"Content-Type": "application/json"}, 422, "wrong_shape"),
    (json.dumps({"paragraphs": [[]]}).encode(), {"Content-Type": "application/json"}, 422, "wrong_shape"),
    (json.dumps({"text": 5}).encode(), {"Content-Type": "application/json"}, 422, "wrong_shape"),
    (json.dumps([1, 2]).encode(), {"Content-Type": "application/json"}, 422, "wrong_shape"),
    (b"hello, I am no PDF", {"Content-Type": "application/pdf"}, 422, "not_a_pdf"),
    (b"%PDF-1.4 cut short", {"Content-Type": "application/pdf"}, 422, "unreadable_pdf"),
    (b"<xml/>", {"Content-Type": "text/xml"}, 415, "unsupported_media_type"),
    # No content type is not silently JSON.
    (json.dumps({"text": "We use BERT."}).encode(), {}, 415, "unsupported_media_type"),
    # Thousands of nested lists (json's RecursionError) and an integer over Python's 4,300 digits (ValueError).
    (b"[" * 30_000 + b"]" * 30_000, {"Content-Type": "application/json"}, 400, "invalid_json"),
    (b'{"text": ' + b"9" * 5000 + b"}", {"Content-Type": "application/json"}, 400, "invalid_json"),
    (b"\xff\xfe not UTF-8", {"Content-Type": "text/plain"}, 400, "not_utf8"),
    (b"x" * (65 * 1024), {"Content-Type": "application/json"}, 413, "body_too_large"),
    (b"[" * (65 * 1024), {"Content-Type": "application/json"}, 413, "body_too_large"),
    (json.dumps({"paragraphs": [["tok"] * 501]}).encode(), {"Content-Type": "application/json"}, 413,
     "too_many_tokens"),
], ids=lambda v: repr(v)[:24] if isinstance(v, bytes) else None)
def test_a_bad_request_is_a_json_4xx_and_the_server_goes_on(client, body, headers, status, code):
    answer = client.post("/v1/tag", content=body, headers=headers)
    assert answer.status_code == status, answer.text
    error = answer.json()["error"]
    assert error["code"] == code and error["message"] and "\n" not in error["message"]
    assert client.get("/health").json()["status"] == "ok"
    assert client.post("/v1/tag", json={"paragraphs": PARAGRAPHS[:1]}).status_code == 200


@pytest.mark.parametrize("route", ["/v1/tag", "/v1/summarize", "/v1/paper"])
@pytest.mark.parametrize("query,code", [("tables", "include_needs_pdf"), ("tables,nonsense", "unknown_include")])
def test_include_is_honoured_or_refused_in_json_never_ignored(client, route, query, code):
    answer = client.post(f"{route}?include={query}", json={"paragraphs": PARAGRAPHS[:1]})
    assert answer.status_code == 422 and answer.json()["error"]["code"] == code, answer.text
    assert "include" in answer.json()["error"]["message"]


def test_plain_text_is_tagged_as_text(client):
    text = "We fine-tune BERT on SQuAD v1.1 and report F1.\n\nThe learning rate is 5e-5."
    plain = client.post("/v1/tag", content=text.encode(), headers={"Content-Type": "text/plain; charset=utf-8"})
    assert plain.status_code == 200, plain.text
    assert plain.json() == client.post("/v1/tag", json={"text": text}).json()


def test_one_paper_request_gives_the_tags_the_summary_and_the_jsonl(client, shipped_tagger):
    from sciner.formats.jsonl import format_jsonl

    answer = client.post("/v1/paper", json={"paragraphs": PARAGRAPHS})
    assert answer.status_code == 200, answer.text
    paper = answer.json()
    assert paper["paragraphs"] == expected(shipped_tagger, PARAGRAPHS)
    assert paper["summary"] == client.post("/v1/summarize", json={"paragraphs": PARAGRAPHS}).json()
    assert paper["jsonl"] == format_jsonl(shipped_tagger.tag(PARAGRAPHS))


def test_a_client_that_goes_away_mid_body_is_let_go_without_a_traceback(shipped_tagger):
    """The ASGI app is called as uvicorn calls it: the client sends part of the body, then disconnects.
    An exception out of the app is what uvicorn logs as a traceback."""
    import asyncio

    app = create_app(shipped_tagger)
    messages = [{"type": "http.request", "body": b'{"paragraphs": [["We"', "more_body": True},
                {"type": "http.disconnect"}]
    sent: list[dict] = []

    async def receive() -> dict:
        return messages.pop(0) if messages else {"type": "http.disconnect"}

    async def send(message: dict) -> None:
        sent.append(message)

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST", "scheme": "http",
             "path": "/v1/tag", "raw_path": b"/v1/tag", "query_string": b"", "root_path": "",
             "headers": [(b"content-type", b"application/json"), (b"content-length", b"1000")],
             "client": ("127.0.0.1", 5000), "server": ("127.0.0.1", 8000)}
    asyncio.run(app(scope, receive, send))  # raises if the disconnect escapes the app
    assert sent[0]["type"] == "http.response.start" and sent[0]["status"] == 400


def test_routers_add_routes_that_answer_errors_in_json(shipped_tagger):
    from fastapi import APIRouter

    from sciner.serve.errors import RequestError

    router = APIRouter()

    @router.get("/corpus/ping")
    async def ping() -> dict:
        return {"pong": True}

    @router.get("/corpus/fail")
    async def fail() -> dict:
        raise RequestError(422, "no_index", "no index is open")

    client = TestClient(create_app(shipped_tagger, routers=[router]))
    assert client.get("/corpus/ping").json() == {"pong": True}
    answer = client.get("/corpus/fail")
    assert answer.status_code == 422 and answer.json()["error"]["code"] == "no_index"


def test_an_error_no_route_answered_is_the_json_error_internal_and_one_line_in_the_log(caplog):
    """A route that raises what nobody foresaw answered 500 text/plain, a traceback in the log."""
    import logging

    from fastapi import APIRouter

    router = APIRouter()

    @router.get("/corpus/overflow")
    def overflow() -> dict:  # as sqlite3 raises for a number it cannot hold
        raise OverflowError("Python int too large to convert to SQLite INTEGER")

    @router.get("/corpus/broken")
    async def broken() -> dict:
        raise KeyError("a\nb")

    client = TestClient(create_app(object(), routers=[router]))  # raise_server_exceptions: none may escape
    for path, kind in [("/corpus/overflow", "OverflowError"), ("/corpus/broken", "KeyError")]:
        caplog.clear()
        with caplog.at_level(logging.ERROR, logger="sciner.serve"):
            answer = client.get(path)
        assert answer.status_code == 500 and answer.headers["content-type"] == "application/json"
        assert answer.json()["error"]["code"] == "internal" and kind in answer.json()["error"]["message"]
        assert "Traceback" not in answer.text and "\n" not in answer.json()["error"]["message"]
        [record] = [r for r in caplog.records if r.name == "sciner.serve"]
        assert record.exc_info is None and "\n" not in record.getMessage() and path in record.getMessage()
    assert client.get("/").status_code == 200  # and the server goes on


def test_an_unknown_route_and_a_timeout_answer_in_json(shipped_tagger):
    client = TestClient(create_app(shipped_tagger, Limits(timeout_s=1e-6)))
    assert client.get("/v2/nothing").json()["error"]["code"] == "not_found"
    answer = client.post("/v1/tag", json={"paragraphs": PARAGRAPHS})
    assert answer.status_code == 504 and answer.json()["error"]["code"] == "timeout"


def test_a_pdf_body_is_tagged_as_predict_tags_the_pdf(client, shipped_tagger, shared_data):
    """One /v1/paper?include=tables,captions: the tags of `sciner predict paper.pdf --include tables,captions`,
    the summary read off them (table results included, with their page and table) and the JSONL."""
    pdf = shared_data / "pdfs" / "acl2007_bunescu_relation_extraction.pdf"
    if not pdf.is_file():
        pytest.skip(f"{pdf} not found")
    from sciner.formats.jsonl import format_jsonl
    from sciner.pdf import read_pdf_paragraphs
    from sciner.summary.assemble import summarize_paper
    from sciner.summary.files import gazetteer_folder
    from sciner.summary.names import Gazetteer

    big = TestClient(create_app(shipped_tagger))
    answer = big.post("/v1/paper?include=tables,captions", content=pdf.read_bytes(),
                      headers={"Content-Type": "application/pdf"})
    assert answer.status_code == 200, answer.text
    paragraphs = read_pdf_paragraphs(pdf, include=["tables", "captions"])
    for p in paragraphs:
        p.source = "upload.pdf"
    tagged = shipped_tagger.tag(paragraphs)
    paper = answer.json()
    assert paper["paragraphs"] == [paragraph_answer(p) for p in tagged]
    assert paper["paragraphs"][0]["page"] == 1
    summary = summarize_paper("request", tagged, Gazetteer(gazetteer_folder())).to_json()
    assert paper["summary"] == summary
    from_tables = [r for r in summary["results"] if paper["paragraphs"][r["paragraph"]].get("kind") == "table"]
    assert from_tables and paper["paragraphs"][from_tables[0]["paragraph"]]["table"].startswith("table")
    assert paper["jsonl"] == format_jsonl(tagged) and '"kind": "table"' in paper["jsonl"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _post(url: str, obj: object) -> dict:
    request = urllib.request.Request(url, data=json.dumps(obj).encode(), headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=120) as response:
        return json.loads(response.read())


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """``sciner serve`` as a user starts it, on a free loopback port, fp32 like the session's tagger."""
    port = _free_port()
    log = tmp_path_factory.mktemp("serve") / "serve.log"
    with open(log, "w") as out:
        process = subprocess.Popen([sys.executable, "-m", "sciner", "serve", "--port", str(port), "--precision", "fp32",
                                    "--device", "cpu", "--threads", "1", "-q"], stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(600):
            try:
                with urllib.request.urlopen(url + "/health", timeout=1) as response:
                    if response.status == 200:
                        break
            except (urllib.error.URLError, ConnectionError, OSError):
                if process.poll() is not None:
                    pytest.fail(f"sciner serve exited: {log.read_text()}")
                time.sleep(0.1)
        else:
            pytest.fail(f"sciner serve did not answer: {log.read_text()}")
        yield url
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_32_concurrent_clients_each_get_exactly_the_tags_of_predict(server, shipped_tagger, cli, loaded_once,
                                                                     tmp_path):
    requests = [[PARAGRAPHS[(i + k) % len(PARAGRAPHS)] for k in range(1 + i % 3)] for i in range(32)]
    with ThreadPoolExecutor(max_workers=32) as pool:
        answers = list(pool.map(lambda r: _post(server + "/v1/tag", {"paragraphs": r}), requests))
    for request, answer in zip(requests, answers):
        assert answer["paragraphs"] == expected(shipped_tagger, request)
    # ... which are `sciner predict`'s tags of the same paragraphs in one file.
    source, out = tmp_path / "in.txt", tmp_path / "out.conll"
    source.write_text("".join(" ".join(p) + "\n" for p in requests[2]), encoding="utf-8")
    assert cli("predict", source, "-o", out, "-q").returncode == 0
    blocks = out.read_text(encoding="utf-8").strip("\n").split("\n\n")
    assert [[row.split("\t")[1] for row in b.splitlines()] for b in blocks] == [p["tags"] for p in answers[2]["paragraphs"]]


CHROMIUM = Path("/usr/bin/chromium")


def test_the_page_has_the_colours_and_style_of_sciner_show():
    """labels.py's colours, through the very CSS `sciner show` pages carry (no colours of its own)."""
    from sciner.formats.html import BASE_CSS, type_css
    from sciner.labels import ENTITY_TYPES
    from sciner.serve.page import PAGE

    assert type_css(ENTITY_TYPES) in PAGE and BASE_CSS in PAGE
    assert PAGE.count("background: #") == BASE_CSS.count("background: #") + len(ENTITY_TYPES)  # none of its own


@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium")
def test_the_page_tags_pasted_text_in_a_browser(server, tmp_path):
    """One request brings the tagged text (marked up and coloured as `sciner show` marks it), the
    results, values and entities, and a JSONL download."""
    import re

    from sciner.labels import TYPE_COLOURS

    text = "We fine-tune BERT on SQuAD v1.1 with a learning rate of 5e-5 and reach an F1 of 88.5."
    url = f"{server}/?text={urllib.parse.quote(text)}"
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
             "--disable-component-update", "--disable-sync", "--virtual-time-budget=60000"]
    with tempfile.TemporaryDirectory() as profile:
        dom = subprocess.run([str(CHROMIUM), *flags, f"--user-data-dir={profile}", "--dump-dom", url],
                             capture_output=True, text=True, timeout=180, check=True).stdout
        png = tmp_path / "page.png"
        subprocess.run([str(CHROMIUM), *flags, f"--user-data-dir={profile}", f"--screenshot={png}",
                        "--window-size=1000,700", url], capture_output=True, text=True, timeout=180, check=True)
    # The marks `sciner show` writes (sciner.formats.html.mark), in labels.py's colours.
    assert '<mark class="ent ent-MethodName" data-type="MethodName"' in dom, dom[-3000:]
    assert re.search(r'>BERT<span class="ent-label">MethodName</span><span class="score">[01]\.\d\d</span></mark>', dom)
    for label, colour in TYPE_COLOURS.items():
        assert f".ent-{label} {{ background: {colour}; }}" in dom
    for heading in ("Tagged text", "Results (", "Values (", "Entities ("):
        assert f"<h2>{heading}" in dom
    results = dom[dom.index("<h2>Results ("):dom.index("<h2>Values (")]
    assert "88.5" in results and "SQuAD" in results
    assert re.search(r'<a id="download" download="paper.jsonl" href="blob:', dom), dom[:3000]
    assert png.stat().st_size > 5000


def test_serve_without_fastapi_is_one_line(monkeypatch, cli):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "fastapi" else real(name, *a))
    result = cli("serve", "--port", "0")
    assert result.returncode != 0 and "pip install 'sciner[serve]'" in result.stderr
