"""What the verbs that read or write tagged files share: the ``--from``/``--to`` help built from
the format registry, their validation, and the check that ``-o`` names a file."""

from __future__ import annotations

from pathlib import Path

from sciner.errors import InputFormatError, OutputError
from sciner.formats.registry import READ_FORMATS, WRITE_FORMATS, get_format
from sciner.outputs import wants_directory

def from_help(files: str = "the input files") -> str:
    """The ``--from`` help of a verb reading ``files``."""
    return f"Format of {files}: {', '.join(READ_FORMATS)}. Default: from each file's extension."


FROM_HELP = from_help()
TO_HELP = f"Format of the output: {', '.join(WRITE_FORMATS)}. Default: from the output's extension."


def reading_format(name: str | None) -> str | None:
    """``--from`` checked against the formats sciner reads (a one-line error listing them)."""
    return get_format(name, reading=True).name if name else None


def writing_format(name: str | None) -> str | None:
    """``--to`` checked against the formats sciner writes (a one-line error listing them)."""
    return get_format(name, reading=False).name if name else None


def file_output(output: str) -> Path:
    """``-o`` of a verb that writes one file: refused when it names a folder (an existing one,
    or a path ending in ``/``, which would otherwise become a file named after the folder)."""
    if wants_directory(output):
        raise OutputError(f"{output}: is a directory; -o needs a file name")
    return Path(output)


JSON_HELP = "Short for --to jsonl: the one spelling of JSON output on every verb."


def json_or_to(to_format: str | None, as_json: bool) -> str | None:
    """The output format named by ``--to`` and ``--json`` (which means ``--to jsonl``); the two
    naming different formats is a one-line error."""
    if not as_json:
        return to_format
    if to_format and to_format.lower() != "jsonl":
        raise InputFormatError(f"--json means --to jsonl, but --to says {to_format!r}; give one of them")
    return "jsonl"
