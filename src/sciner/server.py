"""``sciner serve``: the tagger behind a local HTTP API and a web page (FastAPI + uvicorn).

- ``GET /health``: ``{"status": "ok", "model": ...}``;
- ``POST /v1/tag``: JSON ``{"paragraphs": [[tokens...], ...]}`` or ``{"text": "..."}`` (one
  paragraph per non-blank line, tokenized as ``sciner predict --tokenize`` does), or a PDF body
  (``Content-Type: application/pdf``, read as ``sciner predict paper.pdf`` reads it). The answer
  is ``{"paragraphs": [{"tokens", "tags", "spans": [{"start", "end", "label", "score"}], ...}]}``;
  the paragraphs of one request are one paper, so the tags are exactly those of ``sciner
  predict`` on the same paragraphs in one file;
- ``POST /v1/summarize``: the same bodies, answered with ``sciner summarize``'s JSON of the one paper;
- ``GET /``: a page to paste text or drop a PDF and read the tagged paper and its summary.

The model is loaded once. Requests arriving together are tagged together: a :class:`Batcher`
gathers the paragraphs of the requests that wait (up to ``batch_tokens``) into one
:meth:`Tagger.tag` call, each request its own document. Every error is JSON,
``{"error": {"code", "message"}}``: 400 for a body that is not JSON or empty, 413 over
``max_body_bytes`` or ``max_tokens``, 415 for another content type, 422 for a wrong shape or a
file that is not a PDF, 504 past ``timeout_s``. The server binds to 127.0.0.1 unless told otherwise.
"""


import asyncio
import json
import tempfile
from dataclasses import dataclass, field
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
    answer.update((k, p.meta[k]) for k in ("page", "section") if k in p.meta)
    return answer


def read_request(body: bytes, content_type: str, limits: Limits) -> list[Paragraph]:
    """The paragraphs a request body asks to tag (see the module); :class:`RequestError` if none."""
    kind = content_type.split(";")[0].strip().lower()
    if not body:
        raise RequestError(400, "empty", "the request has no body: send JSON or a PDF")
    if kind == "application/pdf":
        paragraphs = _pdf_paragraphs(body)
    elif kind in ("application/json", "", "text/plain", "application/x-www-form-urlencoded"):
        paragraphs = _json_paragraphs(body)  # curl -d sends JSON as a form unless told otherwise
    else:
        raise RequestError(415, "unsupported_media_type",
                           f"Content-Type {kind!r}: send application/json or application/pdf")
    tokens = sum(len(p.tokens) for p in paragraphs)
    if tokens > limits.max_tokens:
        raise RequestError(413, "too_many_tokens", f"{tokens} tokens; at most {limits.max_tokens} a request")
    return paragraphs


def _json_paragraphs(body: bytes) -> list[Paragraph]:
    try:
        obj = json.loads(body)
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise RequestError(400, "invalid_json", f"the body is not JSON ({err})") from None
    if not isinstance(obj, dict) or ("paragraphs" in obj) == ("text" in obj):
        raise RequestError(422, "wrong_shape", 'expected {"paragraphs": [[token, ...], ...]} or {"text": "..."}')
    if "text" in obj:
        if not isinstance(obj["text"], str):
            raise RequestError(422, "wrong_shape", '"text" must be a string')
        from sciner.tokenize import tokenize_paragraphs

        lines = [line for line in obj["text"].splitlines() if line.strip()]
        return [Paragraph(tokens) for tokens in tokenize_paragraphs(lines)]
    paragraphs = obj["paragraphs"]
    if not isinstance(paragraphs, list) or not all(
            isinstance(p, list) and p and all(isinstance(t, str) and t.strip() for t in p) for p in paragraphs):
        raise RequestError(422, "wrong_shape", '"paragraphs" must be a list of non-empty lists of non-blank tokens')
    return [Paragraph(list(p)) for p in paragraphs]


def _pdf_paragraphs(body: bytes) -> list[Paragraph]:
    from sciner.pdf import read_pdf_paragraphs

    if not body.startswith(b"%PDF-"):
        raise RequestError(422, "not_a_pdf", "the body does not start with %PDF-: not a PDF")
    with tempfile.TemporaryDirectory(prefix="sciner-serve-") as folder:
        path = Path(folder) / "upload.pdf"
        path.write_bytes(body)
        try:
            paragraphs = read_pdf_paragraphs(path)
        except ScinerError as err:
            raise RequestError(422, "unreadable_pdf", str(err.message).replace(str(path), "the PDF")) from None
    for p in paragraphs:
        p.source = "upload.pdf"
    return paragraphs


def create_app(tagger: Any, limits: Limits = Limits()) -> Any:
    """The FastAPI application serving ``tagger`` (a loaded :class:`~sciner.inference.tagger.Tagger`)."""
    try:
        from fastapi import FastAPI, Request
        from fastapi.responses import HTMLResponse, JSONResponse
    except ImportError:
        raise ConfigError("sciner serve needs FastAPI and uvicorn: pip install 'sciner[serve]'") from None
    from starlette.exceptions import HTTPException as StarletteHTTPException

    app = FastAPI(title="sciner", docs_url=None, redoc_url=None, openapi_url=None)
    batcher = Batcher(tagger, limits.batch_tokens)
    from sciner.summary.files import gazetteer_folder
    from sciner.summary.names import Gazetteer

    gazetteer = Gazetteer(gazetteer_folder())  # the data folder's canonical names, read on the first summary

    def error(status: int, code: str, message: str) -> Any:
        return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)

    @app.exception_handler(RequestError)
    async def request_error(request: Any, err: RequestError) -> Any:
        return error(err.status, err.code, err.message)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Any, err: Any) -> Any:
        return error(err.status_code, "not_found" if err.status_code == 404 else "http_error", str(err.detail))

    async def paragraphs_of(request: Request) -> list[Paragraph]:
        declared = request.headers.get("content-length")
        if declared and declared.isdigit() and int(declared) > limits.max_body_bytes:
            raise RequestError(413, "body_too_large", f"{declared} bytes; at most {limits.max_body_bytes} a request")
        body = bytearray()
        async for chunk in request.stream():
            body += chunk
            if len(body) > limits.max_body_bytes:
                raise RequestError(413, "body_too_large", f"over {limits.max_body_bytes} bytes")
        kind = request.headers.get("content-type", "")
        if kind.split(";")[0].strip().lower() == "application/pdf":
            return await asyncio.to_thread(read_request, bytes(body), kind, limits)
        return read_request(bytes(body), kind, limits)

    async def tagged(request: Request) -> list[Paragraph]:
        paragraphs = await paragraphs_of(request)
        try:
            return await asyncio.wait_for(batcher.tag(paragraphs), limits.timeout_s)
        except asyncio.TimeoutError:
            raise RequestError(504, "timeout", f"not tagged within {limits.timeout_s:g} s") from None

    @app.get("/health")
    async def health() -> Any:
        return {"status": "ok", "model": str(tagger.path) if tagger.path else "shipped"}

    @app.post("/v1/tag")
    async def tag(request: Request) -> Any:
        return {"paragraphs": [paragraph_answer(p) for p in await tagged(request)]}

    @app.post("/v1/summarize")
    async def summarize(request: Request) -> Any:
        from sciner.summary.assemble import summarize_paper
        from sciner.summary.render import summary_json

        paper = summarize_paper("request", await tagged(request), gazetteer)
        return summary_json([paper], {})["papers"][0]

    @app.get("/", response_class=HTMLResponse)
    async def page() -> Any:
        return PAGE

    return app


def serve(tagger: Any, host: str = HOST, port: int = PORT, limits: Limits = Limits(), quiet: bool = False) -> None:
    """Serve ``tagger`` until interrupted (``sciner serve``)."""
    try:
        import uvicorn
    except ImportError:
        raise ConfigError("sciner serve needs FastAPI and uvicorn: pip install 'sciner[serve]'") from None
    app = create_app(tagger, limits)
    if not quiet:
        import sys

        print(f"sciner serving on http://{host}:{port}/ (Ctrl-C stops)", file=sys.stderr)
    uvicorn.run(app, host=host, port=port, log_level="warning" if not quiet else "error", access_log=False)


# The page: paste text or drop a PDF; the tagged paper and its summary come back from the API.
PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>sciner</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}
textarea{width:100%;height:9rem;font:inherit}
#drop{border:2px dashed #aaa;padding:1rem;margin:.5rem 0;text-align:center;color:#666}
mark{padding:0 .15em;border-radius:3px} mark small{font-size:.65em;margin-left:.2em;opacity:.75}
.MethodName{background:#cfe8ff}.HyperparameterName{background:#ffe0b3}.HyperparameterValue{background:#ffd1dc}
.MetricName{background:#d5f5d5}.MetricValue{background:#e8d5ff}.TaskName{background:#fff3a8}.DatasetName{background:#c8f0ee}
#status{color:#666} table{border-collapse:collapse} td,th{padding:.1rem .6rem;text-align:left;border-bottom:1px solid #eee}
</style></head><body>
<h1>sciner</h1>
<p>Paste text (one paragraph per line) or drop a PDF; entities are tagged on this machine.</p>
<textarea id="text" placeholder="We fine-tune BERT on SQuAD v1.1 with a learning rate of 5e-5 and report F1."></textarea>
<div id="drop">drop a PDF here, or <input type="file" id="file" accept="application/pdf"></div>
<button id="go">Tag</button> <span id="status"></span>
<div id="paper"></div><div id="summary"></div>
<script>
const $ = id => document.getElementById(id);
function esc(s){return s.replace(/[&<>"]/g, c => ({"&":"&amp;","<":"&lt;",">":"&gt;",'"':"&quot;"}[c]));}
function render(paragraphs){
  return paragraphs.map(p => {
    const out = []; let i = 0;
    for (const s of p.spans){
      out.push(esc(p.tokens.slice(i, s.start).join(" ")));
      out.push('<mark class="entity ' + s.label + '" data-label="' + s.label + '">' + esc(p.tokens.slice(s.start, s.end).join(" "))
               + '<small>' + s.label + '</small></mark>');
      i = s.end;
    }
    out.push(esc(p.tokens.slice(i).join(" ")));
    return "<p>" + out.join(" ") + "</p>";
  }).join("");
}
function table(summary){
  const rows = summary.entities.map(e => "<tr><td>" + esc(e.type) + "</td><td>" + esc(e.name) + "</td><td>" + e.mentions + "</td></tr>");
  return "<h2>Entities</h2><table><tr><th>type</th><th>name</th><th>mentions</th></tr>" + rows.join("") + "</table>";
}
async function send(body, type){
  $("status").textContent = "tagging...";
  const tag = await fetch("/v1/tag", {method: "POST", headers: {"Content-Type": type}, body});
  const answer = await tag.json();
  if (!tag.ok){ $("status").textContent = answer.error.message; return; }
  $("paper").innerHTML = render(answer.paragraphs);
  const sum = await fetch("/v1/summarize", {method: "POST", headers: {"Content-Type": type}, body});
  if (sum.ok) $("summary").innerHTML = table(await sum.json());
  $("status").textContent = answer.paragraphs.length + " paragraphs";
}
$("go").onclick = () => send(JSON.stringify({text: $("text").value}), "application/json");
$("file").onchange = e => e.target.files[0] && send(e.target.files[0], "application/pdf");
$("drop").ondragover = e => e.preventDefault();
$("drop").ondrop = e => { e.preventDefault(); const f = e.dataTransfer.files[0]; if (f) send(f, "application/pdf"); };
const q = new URLSearchParams(location.search).get("text");
if (q){ $("text").value = q; $("go").onclick(); }
</script></body></html>
"""
