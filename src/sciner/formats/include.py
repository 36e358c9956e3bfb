"""What ``--include tables`` reads, and where it can go: a PDF's table rows travel with their
table and cells only in sciner JSONL. Any other format would keep a row's words and drop its
cells, so that ``sciner summarize`` of the file finds none of the table's results; and on
inputs that are no PDFs (nor JSONL that an ``--include`` run wrote) ``--include`` reads
nothing. Both are refused in one line before anything is tagged, naming what works."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from sciner.errors import InputFormatError
from sciner.formats.kinds import Kind

# The --include names of a table's rows and of captions.
TABLES, CAPTIONS = str(Kind.TABLE.include), str(Kind.CAPTION.include)

# The formats that keep a table row's ``table`` and ``cells`` (see sciner.formats.jsonl.PROVENANCE).
KEEP_TABLES: tuple[str, ...] = ("jsonl",)


def check_include_kept(include: Sequence[str], inputs: Sequence[str | Path], output: str | Path | None,
                       to_format: str | None = None) -> None:
    """``sciner predict``'s check: :func:`check_include_has_pdfs`, then :func:`check_tables_kept`."""
    check_include_has_pdfs(include, inputs)
    check_tables_kept(include, output, to_format)


def check_tables_kept(include: Sequence[str], output: str | Path | None, to_format: str | None = None) -> None:
    """Refuse ``--include tables`` whose tags are written to ``output`` (``-o``; None or ``-``:
    standard output) in a format that drops table cells (``to_format``, else ``output``'s
    suffix, else CoNLL)."""
    if TABLES not in include:
        return
    from sciner.formats.registry import output_format
    from sciner.outputs import wants_directory
    from sciner.stdio import is_stdio

    target = None if output is None or is_stdio(output) or wants_directory(output) else output
    name = output_format(target, to_format).name
    if name not in KEEP_TABLES:
        raise InputFormatError(f"--include {TABLES}: {name} keeps no table cells, so a summary of it would find no "
                               "table results; write JSONL (-o tags.jsonl, or --to jsonl)")


def check_include_has_pdfs(include: Sequence[str], inputs: Sequence[str | Path]) -> None:
    """Refuse ``--include`` when every input is a file that is no PDF and none is a JSONL that an
    ``--include`` run wrote (it holds what was read: its paragraphs carry their ``kind``).
    Folders, globs and standard input may hold PDFs and are let through."""
    if not include or not inputs:
        return
    from sciner.formats.registry import suffix_format

    def surely_no_pdf(item: str | Path) -> bool:
        path = Path(item)
        if str(item) == "-" or not path.is_file():
            return False
        fmt = suffix_format(path)
        return fmt is not None and fmt.name != "pdf"  # an unknown suffix may be sniffed as a PDF

    if all(surely_no_pdf(item) for item in inputs) and not any(_holds_kinds(Path(item)) for item in inputs):
        raise InputFormatError(f"--include {','.join(include)}: reads a PDF's elements, and no input is a PDF "
                               "nor a JSONL written with --include (tag the PDFs with predict --include "
                               f"{TABLES},{CAPTIONS} -o tags.jsonl, then summarize tags.jsonl)")


def _holds_kinds(path: Path) -> bool:
    """Whether ``path`` is sciner JSONL whose paragraphs say their kind (written with ``--include``)."""
    from sciner.formats.registry import suffix_format

    fmt = suffix_format(path)
    if fmt is None or fmt.name != "jsonl":
        return False
    with path.open(encoding="utf-8", errors="replace") as lines:
        return any('"kind": "' in line for line in lines)
