"""Standard input and output as files: ``-`` names them on the command line.

The format readers take a path, and the registry may read a file twice (it sniffs the content
of a file without a known suffix, then reads it). A stream can be read only once: read
twice, ``/dev/stdin`` gave the sniffer everything and the reader nothing (0 tokens, exit 0).
So a stream (``-``, ``/dev/stdin``, a pipe, a shell's ``<(...)``) is copied once into a
temporary regular file, and errors and paragraphs name the stream, not the copy.
"""

from __future__ import annotations

import contextlib
import stat
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

from sciner.errors import OutputError, ScinerError

STDIO = "-"
# What a stream is called in messages and as a document's name.
STDIN_NAME = "<stdin>"


def is_stdio(name: str | Path | None) -> bool:
    """True when a command-line path is ``-`` (standard input, or standard output for ``-o``)."""
    return name is not None and str(name) == STDIO


def is_stream(path: str | Path) -> bool:
    """True for ``-`` and for anything that exists but is neither a regular file nor a folder
    (``/dev/stdin``, a named pipe, ``/dev/fd/63``): what cannot be read twice."""
    if is_stdio(path):
        return True
    try:
        mode = Path(path).stat().st_mode
    except OSError:
        return False
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


def display_name(path: str | Path) -> str:
    """How an input is named in messages: ``<stdin>`` for ``-``, else the path as given."""
    return STDIN_NAME if is_stdio(path) else str(path)


@contextlib.contextmanager
def readable(path: str | Path) -> Iterator[Path]:
    """``path`` itself, or for a stream a regular file holding its bytes, read once.

    The copy keeps the stream's name (``stdin`` for ``-``), so its suffix, if any, still
    decides the format; a :class:`ScinerError` raised while reading it names the stream.
    """
    if not is_stream(path):
        yield Path(path)
        return
    with tempfile.TemporaryDirectory(prefix="sciner-stream-") as folder:
        copy = Path(folder) / ("stdin" if is_stdio(path) else Path(path).name)
        copy.write_bytes(sys.stdin.buffer.read() if is_stdio(path) else Path(path).read_bytes())
        try:
            yield copy
        except ScinerError as err:
            err.message = err.message.replace(str(copy), display_name(path))
            raise


def file_names(paths: list[Path]) -> list[Path]:
    """The paths as outputs mirrored into a folder name them: standard input is a file called ``stdin``."""
    return [Path("stdin") if is_stdio(p) else p for p in paths]


def write_stdout(content: str | bytes) -> None:
    """Write a text format's content to standard output (binary formats are refused beforehand)."""
    if isinstance(content, bytes):
        raise OutputError("a binary format is not written to standard output; give an output file")
    sys.stdout.write(content)
    sys.stdout.flush()
