"""``sciner serve``: the tagger behind a local HTTP API and a web page."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from sciner.cli.app import app
from sciner.cli.options import DeviceOwn, ModelOption, Precision, Quiet, ThreadsOwn


@app.command()
def serve(
    host: str = typer.Option("127.0.0.1", "--host", help="Address to bind: loopback unless you mean to serve others."),
    port: int = typer.Option(8000, "--port", min=0, max=65535, help="Port to listen on."),
    model: ModelOption = None,
    precision: Precision = "auto",
    device: DeviceOwn = "auto",
    threads: ThreadsOwn = 2,
    max_body_mb: float = typer.Option(50.0, "--max-body-mb", min=0.001, help="Largest request body (413 above it)."),
    max_tokens: int = typer.Option(200_000, "--max-tokens", min=1, help="Most tokens one request may ask to tag (413 above)."),
    timeout: float = typer.Option(120.0, "--timeout", min=0.1, help="Seconds a request may wait for its tags (504 after)."),
    index: Optional[Path] = typer.Option(None, "--index", show_default=False,
                                         help="Also serve this corpus index (sciner index): a page at /corpus and "
                                              "read-only JSON at /v1/corpus/... (docs/index.md)."),
    quiet: Quiet = False,
) -> None:
    """Serve the tagger over HTTP: POST /v1/tag, /v1/summarize and /v1/paper (both in one
    answer, with the JSONL), GET /health, and a page at / to paste text or drop a PDF.

    Each takes {"paragraphs": [[tokens...]]}, {"text": "..."} (one paragraph a line, tokenized
    as predict --tokenize does), plain text (Content-Type: text/plain) or a PDF
    (Content-Type: application/pdf; ?include=tables,captions as --include reads it); /v1/tag
    answers {"paragraphs": [{"tokens", "tags", "spans"}]} with the tags `sciner predict` gives.
    The model is loaded once; requests arriving together are tagged in one batch; every error
    is JSON with a code. Needs pip install 'sciner[serve]'. Then, e.g.:
    curl -s localhost:8000/v1/tag -H 'Content-Type: text/plain' --data-binary 'We use BERT.'

    Example: sciner serve --port 8000
    """
    from sciner.inference.tagger import Tagger
    from sciner.serve.app import Limits, serve as run

    _check_installed()  # before the model loads
    routers = []
    if index is not None:
        from sciner.serve.corpus import corpus_router

        routers.append(corpus_router(index))  # a bad index is refused before the model loads
    tagger = Tagger.load(model, precision=precision, device=device)
    tagger.limit_threads(threads)
    tagger.preload()  # no request waits for a network to load
    limits = Limits(max_body_bytes=int(max_body_mb * 1024 * 1024), max_tokens=max_tokens, timeout_s=timeout)
    run(tagger, host=host, port=port, limits=limits, quiet=quiet, routers=routers)


def _check_installed() -> None:
    import importlib.util

    from sciner.errors import ConfigError

    if importlib.util.find_spec("fastapi") is None or importlib.util.find_spec("uvicorn") is None:
        raise ConfigError("sciner serve needs FastAPI and uvicorn: pip install 'sciner[serve]'")
