"""``sciner serve``: the tagger behind a local HTTP API and a web page (FastAPI + uvicorn).

This module is the application; the serve package's other modules are its parts: bodies.py
(what a request holds, how a tagged paragraph is answered), batcher.py (requests tagged
together), errors.py (the one JSON error), page.py (the page at ``/``) and corpus.py (the
routes and page of ``--index``, made from the index's question table).

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
cannot apply, 504 past ``timeout_s``, and 500 with code ``internal`` for any error no route
answered (:class:`~sciner.serve.errors.CatchAll`: one line in the log, no traceback). A client that goes away mid-body is let go without a word.
Other routes (the corpus index's, :func:`sciner.serve.corpus.corpus_router`) join through
``create_app(..., routers=[...])``. The server binds to 127.0.0.1 unless told otherwise.
"""

# No ``from __future__ import annotations`` here: FastAPI reads the routes' annotations
# (``request: Request``, imported inside create_app) as objects.
import asyncio
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sciner.document import Paragraph
from sciner.errors import ConfigError
from sciner.formats.jsonl import format_jsonl
from sciner.formats.kinds import text_of, with_tagged
from sciner.serve.batcher import Batcher
from sciner.serve.bodies import PDF_TYPE, include_of, paragraph_answer, read_request
from sciner.serve.errors import CatchAll, RequestError, error_response
from sciner.serve.page import PAGE
from sciner.summary.assemble import summarize_paper
from sciner.summary.files import gazetteer_folder
from sciner.summary.names import Gazetteer

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


def create_app(tagger: Any, limits: Limits = Limits(), routers: Sequence[Any] = ()) -> Any:
    """The FastAPI application serving ``tagger`` (a loaded :class:`~sciner.inference.tagger.Tagger`),
    with the routes of each of ``routers`` (FastAPI ``APIRouter`` objects, e.g. the corpus index's) added.
    Their errors answer as these do when they raise :class:`RequestError`."""
    # FastAPI is imported only when a server is made: it is an extra (pip install 'sciner[serve]').
    try:
        from fastapi import FastAPI, Request
        from fastapi.responses import HTMLResponse
    except ImportError:
        raise ConfigError("sciner serve needs FastAPI and uvicorn: pip install 'sciner[serve]'") from None
    from starlette.exceptions import HTTPException as StarletteHTTPException
    from starlette.requests import ClientDisconnect

    app = FastAPI(title="sciner", docs_url=None, redoc_url=None, openapi_url=None)
    app.add_middleware(CatchAll)  # any error no route answered: JSON "internal", 500, one line in the log
    batcher = Batcher(tagger, limits.batch_tokens)
    gazetteer = Gazetteer(gazetteer_folder())  # the shipped canonical names (and $SCINER_DATA's), read on the first summary

    @app.exception_handler(RequestError)
    async def request_error(request: Any, err: RequestError) -> Any:
        return error_response(err.status, err.code, err.message)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Any, err: Any) -> Any:
        return error_response(err.status_code, "not_found" if err.status_code == 404 else "http_error", str(err.detail))

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
            return await asyncio.to_thread(read_request, bytes(body), kind, limits.max_tokens, include)
        return read_request(bytes(body), kind, limits.max_tokens, include)

    async def tagged(request: Request) -> list[Paragraph]:
        paragraphs = await paragraphs_of(request)
        try:  # (a float's text, kind "figure", written untagged as predict writes it)
            return with_tagged(paragraphs, await asyncio.wait_for(batcher.tag(text_of(paragraphs)), limits.timeout_s))
        except asyncio.TimeoutError:
            raise RequestError(504, "timeout", f"not tagged within {limits.timeout_s:g} s") from None

    def summary_of(paragraphs: list[Paragraph]) -> dict[str, Any]:
        """``sciner summarize``'s JSON of the one paper (:func:`sciner.summarize_paper`)."""
        return summarize_paper("request", paragraphs, gazetteer).to_json()

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
    try:  # an extra, as FastAPI is
        import uvicorn
    except ImportError:
        raise ConfigError("sciner serve needs FastAPI and uvicorn: pip install 'sciner[serve]'") from None
    app = create_app(tagger, limits, routers)
    if not quiet:
        print(f"sciner serving on http://{host}:{port}/ (Ctrl-C stops)", file=sys.stderr)
    uvicorn.run(app, host=host, port=port, log_level="warning" if not quiet else "error", access_log=False)
