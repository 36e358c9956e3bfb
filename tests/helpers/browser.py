"""The corpus routes served on a free local port, and headless Chromium to read them as a browser does."""

from __future__ import annotations

import contextlib
import socket
import subprocess
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync")


@contextlib.contextmanager
def served(db: Path) -> Iterator[str]:
    """The corpus routes over the index ``db``, served while the block runs; yields their base URL."""
    import uvicorn
    from fastapi import FastAPI

    from sciner.serve.corpus import corpus_router

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    app = FastAPI()
    app.include_router(corpus_router(db))
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error"))
    threading.Thread(target=server.run, daemon=True).start()
    url = f"http://127.0.0.1:{port}"
    for _ in range(200):
        try:
            urllib.request.urlopen(url + "/corpus", timeout=1).close()
            break
        except OSError:
            time.sleep(0.05)
    try:
        yield url
    finally:
        server.should_exit = True


@contextlib.contextmanager
def chromium() -> Iterator[Callable[..., str]]:
    """A function running headless Chromium with the given arguments (one fresh profile for the
    block), answering its standard output (``--dump-dom``: the page as the browser built it)."""
    with tempfile.TemporaryDirectory() as profile:
        def run(*args: str) -> str:
            return subprocess.run([str(CHROMIUM), *FLAGS, f"--user-data-dir={profile}", *args],
                                  capture_output=True, text=True, timeout=120, check=True).stdout
        yield run
