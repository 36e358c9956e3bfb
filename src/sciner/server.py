"""``sciner serve``: the tagger behind a local HTTP API and a web page (FastAPI + uvicorn).

- ``GET /health``: ``{"status": "ok", "model": ...}``;
- ``POST /v1/tag``: JSON ``{"paragraphs": [[tokens...], ...]}`` or ``{"text": "..."}`` (one
  paragraph per non-blank line, tokenized as ``sciner predict --tokenize`` does), plain text
  (``Content-Type: text/plain``, read as ``{"text": ...}``), or a PDF body
  (``Content-Type: application/pdf``, read as ``sciner predict paper.pdf`` reads it;
  ``?include=tables,captions`` as ``--include`` does). The answer is ``{"paragraphs":
  [{"tokens", "tags", "spans": [{"start", "end", "label", "score"}], ...}]}``; the paragraphs of
  one request are one paper, so the tags are exactly those of ``sciner predict`` on the same
  paragraphs in one file;
- ``POST /v1/summarize``: the same bodies, answered with ``sciner summarize``'s JSON of the one paper;
- ``POST /v1/paper``: the same bodies, tagged once and answered with both: ``{"paragraphs",
  "summary", "jsonl"}`` (``jsonl``: the paper as ``sciner predict -o paper.jsonl`` writes it);
- ``GET /``: a page to paste text or drop a PDF and read the tagged paper and its summary.

The model is loaded once. Requests arriving together are tagged together: a :class:`Batcher`
gathers the paragraphs of the requests that wait (up to ``batch_tokens``) into one
:meth:`Tagger.tag` call, each request its own document. Every error is JSON,
``{"error": {"code", "message"}}``: 400 for a body that is not JSON (or nested too deep, or
with too long a number) or empty, 413 over ``max_body_bytes`` or ``max_tokens``, 415 for another
content type or none, 422 for a wrong shape, a file that is not a PDF or an ``include`` that
cannot apply, 504 past ``timeout_s``. A client that goes away mid-body is let go without a word.
Other routes (the corpus index's) join through ``create_app(..., routers=[...])``. The server
binds to 127.0.0.1 unless told otherwise.
"""


import asyncio
import json
import tempfile
from dataclasses import dataclass, field
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sciner.document import Paragraph
from sciner.errors import ConfigError, ScinerError

HOST = "127.0.0.1"
PORT = 8000


@dataclass(frozen=True)
class Limits:
    """What one request may ask: body size, tokens to tag, and seconds to wait for its tags."""

    max_body_bytes: int = 50 * 1024 * 1024
    max_tokens: int = 200_000
    timeout_s: float = 120.0
    # Paragraphs of waiting requests are tagged together up to this many tokens a call.
    batch_tokens: int = 20_000


class RequestError(Exception):
    """A request that cannot be answered: an HTTP status, a short code and a one-line message."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


@dataclass
class _Job:
    paragraphs: list[Paragraph]
    done: asyncio.Future = field(repr=False)  # type: ignore[type-arg]


class Batcher:
    """Tags the paragraphs of concurrent requests in shared :meth:`Tagger.tag` calls, one at a
    time (the model is not shared between threads), each request decoded as its own paper."""

    def __init__(self, tagger: Any, batch_tokens: int) -> None:
        self.tagger = tagger
        self.batch_tokens = batch_tokens
        self.loop: asyncio.AbstractEventLoop | None = None
        self.queue: asyncio.Queue[_Job] | None = None
        self.worker: asyncio.Task | None = None  # type: ignore[type-arg]

    async def tag(self, paragraphs: list[Paragraph]) -> list[Paragraph]:
        """The tagged ``paragraphs`` of one request."""
        if not paragraphs:
            return []
        loop = asyncio.get_running_loop()
        if self.queue is None or self.loop is not loop:  # the first request (of this event loop)
            self.loop, self.queue = loop, asyncio.Queue()
            self.worker = asyncio.create_task(self._run(self.queue))
        job = _Job(paragraphs, asyncio.get_running_loop().create_future())
        await self.queue.put(job)
        return await job.done

    async def _run(self, queue: "asyncio.Queue[_Job]") -> None:
        while True:
            jobs = [await queue.get()]
            tokens = sum(len(p.tokens) for p in jobs[0].paragraphs)
            while not queue.empty() and tokens < self.batch_tokens:
                job = queue.get_nowait()
                jobs.append(job)
                tokens += sum(len(p.tokens) for p in job.paragraphs)
            jobs = [job for job in jobs if not job.done.cancelled()]  # their clients gave up
            if not jobs:
                continue
            everything = [p for job in jobs for p in job.paragraphs]
            documents = [k for k, job in enumerate(jobs) for _ in job.paragraphs]
            try:
                tagged = await asyncio.to_thread(self.tagger.tag, everything, documents=documents)
            except Exception as err:  # noqa: BLE001 (each waiting request answers with it)
                for job in jobs:
                    if not job.done.done():
                        job.done.set_exception(err)
                continue
            start = 0
            for job in jobs:
                part, start = tagged[start : start + len(job.paragraphs)], start + len(job.paragraphs)
                if not job.done.done():
                    job.done.set_result(part)


def paragraph_answer(p: Paragraph) -> dict[str, Any]:
    """One tagged paragraph as the API answers it: tokens, BIO tags and scored spans."""
    spans = [{"start": s.start, "end": s.end, "label": s.label,
              **({"score": round(float(s.score), 4)} if s.score is not None else {})} for s in p.spans or []]
    answer: dict[str, Any] = {"tokens": list(p.tokens), "tags": list(p.tags or []), "spans": spans}
    answer.update((k, p.meta[k]) for k in ("page", "section", "kind", "table") if k in p.meta)
    return answer


# The content types a body may have, and how each is read.
JSON_TYPES = ("application/json", "application/x-www-form-urlencoded")  # curl -d sends a form's type
TEXT_TYPE, PDF_TYPE = "text/plain", "application/pdf"


def read_request(body: bytes, content_type: str, limits: Limits, include: Sequence[str] = ()) -> list[Paragraph]:
    """The paragraphs a request body asks to tag (see the module); :class:`RequestError` if none.
    ``include``: the PDF element kinds to read besides body text (PDF bodies only)."""
    kind = content_type.split(";")[0].strip().lower()
    if not body:
        raise RequestError(400, "empty", "the request has no body: send JSON, text or a PDF")
    if include and kind != PDF_TYPE:
        raise RequestError(422, "include_needs_pdf", f"include={','.join(include)} reads PDF elements: "
                                                      "send the PDF (Content-Type: application/pdf)")
    if kind == PDF_TYPE:
        paragraphs = _pdf_paragraphs(body, include)
    elif kind in JSON_TYPES:
        paragraphs = _json_paragraphs(body)
    elif kind == TEXT_TYPE:
        paragraphs = _text_paragraphs(_utf8(body))
    else:
        named = f"Content-Type {kind!r}" if kind else "no Content-Type"
        raise RequestError(415, "unsupported_media_type",
                           f"{named}: send application/json, text/plain or application/pdf")
    tokens = sum(len(p.tokens) for p in paragraphs)
    if tokens > limits.max_tokens:
        raise RequestError(413, "too_many_tokens", f"{tokens} tokens; at most {limits.max_tokens} a request")
    return paragraphs


def _utf8(body: bytes) -> str:
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError as err:
        raise RequestError(400, "not_utf8", f"the body is not UTF-8 ({err.reason} at byte {err.start})") from None


def _text_paragraphs(text: str) -> list[Paragraph]:
    """One paragraph per non-blank line, tokenized as ``sciner predict --tokenize`` does."""
    from sciner.tokenize import tokenize_paragraphs

    lines = [line for line in text.splitlines() if line.strip()]
    return [Paragraph(tokens) for tokens in tokenize_paragraphs(lines)]


def _json_paragraphs(body: bytes) -> list[Paragraph]:
    try:
        obj = json.loads(_utf8(body))
    except RecursionError:
        raise RequestError(400, "invalid_json", "the body is nested too deep to read as JSON") from None
    except ValueError as err:  # not JSON, or an integer over Python's digit limit
        raise RequestError(400, "invalid_json", f"the body is not JSON ({str(err).splitlines()[0]})") from None
    if not isinstance(obj, dict) or ("paragraphs" in obj) == ("text" in obj):
        raise RequestError(422, "wrong_shape", 'expected {"paragraphs": [[token, ...], ...]} or {"text": "..."}')
    if "text" in obj:
        if not isinstance(obj["text"], str):
            raise RequestError(422, "wrong_shape", '"text" must be a string')
        return _text_paragraphs(obj["text"])
    paragraphs = obj["paragraphs"]
    if not isinstance(paragraphs, list) or not all(
            isinstance(p, list) and p and all(isinstance(t, str) and t.strip() for t in p) for p in paragraphs):
        raise RequestError(422, "wrong_shape", '"paragraphs" must be a list of non-empty lists of non-blank tokens')
    return [Paragraph(list(p)) for p in paragraphs]


def _pdf_paragraphs(body: bytes, include: Sequence[str] = ()) -> list[Paragraph]:
    from sciner.pdf import read_pdf_paragraphs

    if not body.startswith(b"%PDF-"):
        raise RequestError(422, "not_a_pdf", "the body does not start with %PDF-: not a PDF")
    with tempfile.TemporaryDirectory(prefix="sciner-serve-") as folder:
        path = Path(folder) / "upload.pdf"
        path.write_bytes(body)
        try:
            paragraphs = read_pdf_paragraphs(path, include=include)
        except ScinerError as err:
            raise RequestError(422, "unreadable_pdf", str(err.message).replace(str(path), "the PDF")) from None
    for p in paragraphs:
        p.source = "upload.pdf"
    return paragraphs


def include_of(query: str | None) -> frozenset[str]:
    """The ``?include=`` of a request as ``--include`` reads it (422 for an unknown kind)."""
    from sciner.errors import InputFormatError
    from sciner.pdf import check_include

    kinds = [k.strip() for k in (query or "").split(",") if k.strip()]
    try:
        return check_include(kinds)
    except InputFormatError as err:
        raise RequestError(422, "unknown_include", err.message.replace("--include", "include")) from None


def create_app(tagger: Any, limits: Limits = Limits(), routers: Sequence[Any] = ()) -> Any:
    """The FastAPI application serving ``tagger`` (a loaded :class:`~sciner.inference.tagger.Tagger`),
    with the routes of each of ``routers`` (FastAPI ``APIRouter`` objects, e.g. the corpus index's) added.
    Their errors answer as these do when they raise :class:`RequestError`."""
    try:
        from fastapi import FastAPI, Request
        from fastapi.responses import HTMLResponse, JSONResponse
    except ImportError:
        raise ConfigError("sciner serve needs FastAPI and uvicorn: pip install 'sciner[serve]'") from None
    from starlette.exceptions import HTTPException as StarletteHTTPException
    from starlette.requests import ClientDisconnect

    app = FastAPI(title="sciner", docs_url=None, redoc_url=None, openapi_url=None)
    batcher = Batcher(tagger, limits.batch_tokens)
    from sciner.summary.files import gazetteer_folder
    from sciner.summary.names import Gazetteer

    gazetteer = Gazetteer(gazetteer_folder())  # the shipped canonical names (and $SCINER_DATA's), read on the first summary

    def error(status: int, code: str, message: str) -> Any:
        return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)

    @app.exception_handler(RequestError)
    async def request_error(request: Any, err: RequestError) -> Any:
        return error(err.status, err.code, err.message)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Any, err: Any) -> Any:
        return error(err.status_code, "not_found" if err.status_code == 404 else "http_error", str(err.detail))

    async def paragraphs_of(request: Request) -> list[Paragraph]:
        include = include_of(request.query_params.get("include"))
        declared = request.headers.get("content-length")
        if declared and declared.isdigit() and int(declared) > limits.max_body_bytes:
            raise RequestError(413, "body_too_large", f"{declared} bytes; at most {limits.max_body_bytes} a request")
        body = bytearray()
        try:
            async for chunk in request.stream():
                body += chunk
                if len(body) > limits.max_body_bytes:
                    raise RequestError(413, "body_too_large", f"over {limits.max_body_bytes} bytes")
        except ClientDisconnect:  # nobody is left to answer
            raise RequestError(400, "client_disconnected", "the client went away before sending the body") from None
        kind = request.headers.get("content-type", "")
        if kind.split(";")[0].strip().lower() == PDF_TYPE:
            return await asyncio.to_thread(read_request, bytes(body), kind, limits, include)
        return read_request(bytes(body), kind, limits, include)

    async def tagged(request: Request) -> list[Paragraph]:
        paragraphs = await paragraphs_of(request)
        try:
            return await asyncio.wait_for(batcher.tag(paragraphs), limits.timeout_s)
        except asyncio.TimeoutError:
            raise RequestError(504, "timeout", f"not tagged within {limits.timeout_s:g} s") from None

    def summary_of(paragraphs: list[Paragraph]) -> dict[str, Any]:
        from sciner.summary.assemble import summarize_paper
        from sciner.summary.render import summary_json

        return summary_json([summarize_paper("request", paragraphs, gazetteer)], {})["papers"][0]

    @app.get("/health")
    async def health() -> Any:
        return {"status": "ok", "model": str(tagger.path) if tagger.path else "shipped"}

    @app.post("/v1/tag")
    async def tag(request: Request) -> Any:
        return {"paragraphs": [paragraph_answer(p) for p in await tagged(request)]}

    @app.post("/v1/summarize")
    async def summarize(request: Request) -> Any:
        return summary_of(await tagged(request))

    @app.post("/v1/paper")
    async def paper(request: Request) -> Any:
        from sciner.formats.jsonl import format_jsonl

        paragraphs = await tagged(request)
        return {"paragraphs": [paragraph_answer(p) for p in paragraphs], "summary": summary_of(paragraphs),
                "jsonl": format_jsonl(paragraphs)}

    @app.get("/", response_class=HTMLResponse)
    async def page() -> Any:
        return PAGE

    for router in routers:
        app.include_router(router)
    return app


def serve(tagger: Any, host: str = HOST, port: int = PORT, limits: Limits = Limits(), quiet: bool = False,
          routers: Sequence[Any] = ()) -> None:
    """Serve ``tagger`` (and ``routers``' routes, see :func:`create_app`) until interrupted (``sciner serve``)."""
    try:
        import uvicorn
    except ImportError:
        raise ConfigError("sciner serve needs FastAPI and uvicorn: pip install 'sciner[serve]'") from None
    app = create_app(tagger, limits, routers)
    if not quiet:
        import sys

        print(f"sciner serving on http://{host}:{port}/ (Ctrl-C stops)", file=sys.stderr)
    uvicorn.run(app, host=host, port=port, log_level="warning" if not quiet else "error", access_log=False)


# The page: paste text or drop a PDF; one POST /v1/paper brings back the tagged paper (marked up
# as `sciner show` marks it, in labels.py's colours), its summary and the JSONL to download.
PAGE_BODY = """
<p class="subtitle">Paste text (one paragraph per line) or drop a PDF; entities are tagged on this machine.</p>
<textarea id="text" placeholder="We fine-tune BERT on SQuAD v1.1 with a learning rate of 5e-5 and report F1."></textarea>
<div id="drop">drop a PDF (or a .txt) here, or <input type="file" id="file" accept="application/pdf,text/plain">
<label><input type="checkbox" id="tables"> read tables and captions</label></div>
<button id="go">Tag</button> <span id="status"></span> <a id="download" hidden download="paper.jsonl">download JSONL</a>
<div id="summary"></div><div id="paper"></div>
<script>
const $ = id => document.getElementById(id);
function esc(s){return String(s).replace(/[&<>"']/g, c => ({"&":"&amp;","<":"&lt;",">":"&gt;",'"':"&quot;","'":"&#x27;"}[c]));}
function mark(text, s){  // as sciner.formats.html.mark writes it
  const cls = "ent ent-" + s.label.replace(/[^A-Za-z0-9_-]/g, "_");
  const score = s.score === undefined ? "" : '<span class="score">' + s.score.toFixed(2) + "</span>";
  const title = s.score === undefined ? s.label : s.label + " (score " + s.score.toFixed(2) + ")";
  return '<mark class="' + cls + '" data-type="' + esc(s.label) + '" title="' + esc(title) + '">' + esc(text)
         + '<span class="ent-label">' + esc(s.label) + "</span>" + score + "</mark>";
}
function where(p){ return p ? (p.page ? "p. " + p.page : "") + (p.table ? " " + p.table : "") : ""; }
function render(paragraphs){
  return paragraphs.map((p, j) => {
    const out = []; let i = 0;
    for (const s of p.spans){
      if (s.start < i) continue;
      if (s.start > i) out.push(esc(p.tokens.slice(i, s.start).join(" ")));
      out.push(mark(p.tokens.slice(s.start, s.end).join(" "), s));
      i = s.end;
    }
    if (i < p.tokens.length) out.push(esc(p.tokens.slice(i).join(" ")));
    return '<div class="paragraph" id="p' + j + '"><div class="para-head">¶ ' + (j + 1)
           + (p.page ? " · page " + p.page : "") + "</div>" + out.join(" ") + "</div>";
  }).join("");
}
function table(title, heads, rows){
  return "<h2>" + title + " (" + rows.length + ")</h2><table><tr>" + heads.map(h => "<th>" + h + "</th>").join("")
         + "</tr>" + rows.map(r => "<tr>" + r.map(c => "<td>" + c + "</td>").join("") + "</tr>").join("") + "</table>";
}
function link(paragraphs, j){ return '<a href="#p' + j + '">¶' + (j + 1) + "</a> " + esc(where(paragraphs[j])); }
function summary(s, paragraphs){
  const name = v => v === null ? "" : esc(v);
  return table("Results", ["task", "dataset", "metric", "value", "model", "where"], s.results.map(r =>
           [name(r.task), name(r.dataset), name(r.metric), esc(r.value), name(r.model), link(paragraphs, r.paragraph)]))
       + table("Values", ["type", "value", "of", "where"], s.values.map(v =>
           [esc(v.type), esc(v.value), name(v.of), link(paragraphs, v.paragraph)]))
       + table("Entities", ["type", "name", "mentions", "spellings"], s.entities.map(e =>
           [esc(e.type), esc(e.name), e.mentions, esc(e.surface.join(" | "))]));
}
async function send(body, type){
  $("status").textContent = "tagging..."; $("download").hidden = true;
  const url = "/v1/paper" + (type === "application/pdf" && $("tables").checked ? "?include=tables,captions" : "");
  const answer = await fetch(url, {method: "POST", headers: {"Content-Type": type}, body});
  const paper = await answer.json();
  if (!answer.ok){ $("status").textContent = paper.error.message; return; }
  $("paper").innerHTML = "<h2>Tagged text</h2>" + render(paper.paragraphs);
  $("summary").innerHTML = summary(paper.summary, paper.paragraphs);
  $("download").href = URL.createObjectURL(new Blob([paper.jsonl], {type: "application/jsonl"}));
  $("download").hidden = false;
  $("status").textContent = paper.paragraphs.length + " paragraphs";
}
$("go").onclick = () => send(JSON.stringify({text: $("text").value}), "application/json");
const kind = f => /[.]pdf$/i.test(f.name) || f.type === "application/pdf" ? "application/pdf" : "text/plain";
$("file").onchange = e => e.target.files[0] && send(e.target.files[0], kind(e.target.files[0]));
$("drop").ondragover = e => e.preventDefault();
$("drop").ondrop = e => { e.preventDefault(); const f = e.dataTransfer.files[0]; if (f) send(f, kind(f)); };
const q = new URLSearchParams(location.search).get("text");
if (q){ $("text").value = q; $("go").onclick(); }
</script>
"""
PAGE_CSS = """
textarea { width: 100%; height: 9rem; font: inherit; }
#drop { border: 2px dashed #aaa; padding: 1rem; margin: .5rem 0; text-align: center; color: #666; }
#status { color: #666; } #download { margin-left: 1em; }
"""


def _page() -> str:
    from sciner.formats.html import page

    return page("sciner", PAGE_BODY, extra_css=PAGE_CSS)


PAGE = _page()
