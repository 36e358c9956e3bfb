"""Strict text reading shared by all formats: UTF-8 only, errors name the file and line."""

from __future__ import annotations

from pathlib import Path

from sciner.errors import InputFormatError, InputNotFoundError


def read_text(path: str | Path) -> str:
    """Read ``path`` as UTF-8, without a leading byte-order mark.

    Invalid UTF-8 is refused (never replaced): the error names the line of the first bad byte.
    """
    path = Path(path)
    if not path.exists():
        raise InputNotFoundError(f"{path}: no such file")
    if path.is_dir():
        raise InputFormatError(f"{path}: is a directory, expected a file")
    data = path.read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise InputFormatError(
            f"{path}:{line}: invalid UTF-8 (byte 0x{data[exc.start]:02x}); re-encode the file as UTF-8"
        ) from None
    return text[1:] if text.startswith("\ufeff") else text


def keep_leading_bom(text: str) -> str:
    """``text`` ready to be written so that :func:`read_text` gives it back unchanged.

    Reading drops one leading byte-order mark, so a text whose first token starts with
    U+FEFF gets one more in front.
    """
    return "\ufeff" + text if text.startswith("\ufeff") else text


def read_lines(path: str | Path) -> list[str]:
    """Read ``path`` as UTF-8 (see :func:`read_text`) and return its lines without line endings."""
    text = read_text(path)
    # Only \n (and \r\n) end a line: str.splitlines() would also split tokens holding U+2028, \x0c, ...
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]
