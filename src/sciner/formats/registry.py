"""The one format registry: every file format sciner reads or writes, by name.

============ ===================== ===== ====== ============================================ ==========================
name         suffixes              reads writes what it is                                   tokens it cannot carry
============ ===================== ===== ====== ============================================ ==========================
text         .txt                  yes   yes    one paragraph per line, tokens split on      space, line break, CR;
                                                spaces                                       empty paragraph
conll        .conll .bio .iob .tsv yes   yes    ``token<TAB>tag``, a blank line between      tab, line break, CR, only
                                                paragraphs                                   whitespace, -DOCSTART-;
                                                                                             empty paragraph
jsonl        .jsonl                yes   yes    sciner JSONL: tokens + entity spans (+       none
                                                scores)
doccano      .doccano.jsonl        yes   yes    doccano JSONL: ``text`` + ``label`` offsets  none
                                                (+ ``tokens``)
labelstudio  .json                 yes   yes    Label Studio tasks / JSON export (+          none
                                                ``data.tokens``)
spacy        .spacy                yes   yes    spaCy DocBin                                 none
pdf          .pdf                  yes   no     a paper: extracted with :mod:`sciner.pdf`    (read only)
html         .html .htm            no    yes    a page to read (:mod:`sciner.formats.html`)     none
============ ===================== ===== ====== ============================================ ==========================

No format carries an empty token or a lone surrogate. Writing a token (or an empty
paragraph) that the chosen format cannot carry is refused before anything is written, with
:class:`~sciner.errors.UnwritableTokenError` naming the paragraph and token; see
:mod:`sciner.formats.tokens`.

Every verb that reads or writes a file asks this module: by the ``--from``/``--to`` name when
the user gives one, else by the suffix. A known suffix decides alone (a ``.txt`` is always
paragraph text, a ``.json`` always Label Studio), with one exception: a ``.jsonl`` whose first
object is doccano's (a ``label`` list, or a ``text`` without ``tokens``) is doccano; sciner
JSONL always has ``tokens`` and never ``label``. The content is sniffed only for a suffix that
no format claims, and a paragraph line is never mistaken for CoNLL or JSONL: only lines that
are all ``token<TAB>valid tag`` are CoNLL, and only a first line that parses as a JSON object
is JSONL.
"""

from __future__ import annotations

import importlib
import json
import zlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sciner.document import Paragraph
from sciner.errors import InputFormatError, OutputError
from sciner.formats.kinds import check_include
from sciner.labels import is_valid_tag

# (path, **its options) -> the file's paragraphs.
Reader = Callable[..., list[Paragraph]]
# (paragraphs, title) -> the file's content; text is written as UTF-8.
ParagraphRenderer = Callable[[Sequence[Paragraph], str], "str | bytes"]


@dataclass(frozen=True)
class Format:
    """One file format: its name, the suffixes that stand for it, and how to read and render it."""

    name: str
    suffixes: tuple[str, ...]
    read: Reader | None
    render: ParagraphRenderer | None
    # False for formats that hold tokens only (paragraph text, PDF).
    carries_entities: bool = True
    # Bytes, not text: never written to standard output.
    binary: bool = False
    description: str = ""
    # How ``sciner extract`` writes a paper's paragraphs in this format (no entities yet; each
    # paragraph's ``meta`` has its ``text``, ``section``, ``page`` and ``kind``, and ``doc``
    # when several papers share one output). None: extract does not write this format.
    render_extracted: ParagraphRenderer | None = None
    # The options its reader takes (a PDF's ``include``), each with the function that checks a
    # value and returns it as the reader takes it: a verb hands every reading option to
    # :func:`read_with`, and each reader gets only its own.
    options: Mapping[str, Callable[[Any], Any]] = field(default_factory=dict, compare=False, hash=False)


def _reader(module: str, name: str, **options: Any) -> Reader:
    """``module.name(path, **options)``, the module imported on first use (spaCy and the PDF
    stack are slow to import, and most runs need one format)."""

    def read(path: Path, **given: Any) -> list[Paragraph]:
        return getattr(importlib.import_module(module), name)(path, **options, **given)

    return read


def _renderer(module: str, name: str) -> ParagraphRenderer:
    """``module.name(paragraphs)`` (formats without a title), the module imported on first use."""

    def render(paragraphs: Sequence[Paragraph], title: str) -> str | bytes:
        return getattr(importlib.import_module(module), name)(paragraphs)

    return render


def _render_html(paragraphs: Sequence[Paragraph], title: str) -> str:
    from sciner.formats.html import render_entities

    return render_entities(paragraphs, title=title or "sciner entities")


# The suffixes of the formats a summary and a query's answer are written in (and a page of
# paragraphs), written once.
OUTPUT_SUFFIXES: dict[str, tuple[str, ...]] = {"json": (".json",), "csv": (".csv",), "html": (".html", ".htm")}
_F = "sciner.formats"  # the package of the format modules
FORMATS: dict[str, Format] = {
    f.name: f
    for f in (
        Format("text", (".txt",), _reader(f"{_F}.paragraphs", "read_paragraphs"),
               _renderer(f"{_F}.paragraphs", "format_paragraphs"), carries_entities=False,
               description="one paragraph per line, tokens separated by spaces",
               render_extracted=_renderer(f"{_F}.paragraphs", "format_paragraphs")),
        # Read with require_tags=False: a one-column file is tokens to tag.
        Format("conll", (".conll", ".bio", ".iob", ".tsv"), _reader(f"{_F}.conll", "read_conll", require_tags=False),
               _renderer(f"{_F}.conll", "format_conll"), description="token<TAB>tag, a blank line between paragraphs"),
        Format("jsonl", (".jsonl",), _reader(f"{_F}.jsonl", "read_jsonl"), _renderer(f"{_F}.jsonl", "format_jsonl"),
               description="sciner JSONL: tokens and entity spans with scores",
               render_extracted=_renderer(f"{_F}.jsonl", "format_extracted")),
        Format("doccano", (".doccano.jsonl",), _reader(f"{_F}.doccano", "read_doccano"),
               _renderer(f"{_F}.doccano", "format_doccano"), description="doccano JSONL: text and label offsets"),
        Format("labelstudio", (".json",), _reader(f"{_F}.labelstudio", "read_labelstudio"),
               _renderer(f"{_F}.labelstudio", "format_labelstudio"),
               description="Label Studio tasks (import) or JSON export"),
        Format("spacy", (".spacy",), _reader(f"{_F}.docbin", "read_docbin"), _renderer(f"{_F}.docbin", "format_docbin"),
               binary=True, description="spaCy DocBin"),
        Format("pdf", (".pdf",), _reader("sciner.pdf", "read_pdf_paragraphs"), None, carries_entities=False,
               description="a paper's PDF", options={"include": check_include}),
        Format("html", OUTPUT_SUFFIXES["html"], None, _render_html, description="a self-contained page to read"),
    )
}

READ_FORMATS: tuple[str, ...] = tuple(n for n, f in FORMATS.items() if f.read is not None)
WRITE_FORMATS: tuple[str, ...] = tuple(n for n, f in FORMATS.items() if f.render is not None)
# The formats that can be read with their entities (gold or tagged files: train, evaluate).
TAGGED_FORMATS: tuple[str, ...] = tuple(n for n in READ_FORMATS if FORMATS[n].carries_entities)
EXTRACT_FORMATS: tuple[str, ...] = tuple(n for n, f in FORMATS.items() if f.render_extracted is not None)
# Suffixes, longest first, so that ``.doccano.jsonl`` wins over ``.jsonl``.
_SUFFIXES: list[tuple[str, str]] = sorted(
    ((s, f.name) for f in FORMATS.values() for s in f.suffixes), key=lambda item: -len(item[0])
)


@dataclass(frozen=True)
class Renderer:
    """One format that one kind of output is written in: its name, the suffixes that stand for
    it, and the function that renders it (paragraphs: ``(paragraphs, title)``; a summary:
    ``(papers, corpus)``; a query's answer: ``(answer, title)``)."""

    name: str
    suffixes: tuple[str, ...]
    render: Callable[..., "str | bytes"]
    # Bytes, not text: never written to standard output.
    binary: bool = False


def _lazy(module: str, name: str) -> Callable[..., "str | bytes"]:
    """``module.name``, imported at its first call: summaries and answers are rendered by the
    summary and index code, floors above this registry (and a command line that only lists the
    formats imports neither)."""

    def render(*args: Any) -> str | bytes:
        return getattr(importlib.import_module(module), name)(*args)

    return render


def _rows(*rows: Renderer) -> dict[str, Renderer]:
    return {row.name: row for row in rows}


_SUMMARY, _ANSWER = "sciner.summary.render", "sciner.index.render"
# Every output renderer, Datasette's way: the kind of thing rendered -> format name -> its row.
# Adding a format is one row here and its function; paragraphs' rows are the formats above that
# sciner writes (read by suffix with :func:`output_format`, which also knows the read-only ones).
RENDERERS: dict[str, dict[str, Renderer]] = {
    "paragraphs": _rows(*(Renderer(f.name, f.suffixes, f.render, f.binary) for f in FORMATS.values() if f.render)),
    "summary": _rows(Renderer("json", OUTPUT_SUFFIXES["json"], _lazy(_SUMMARY, "render_json")),
                     Renderer("csv", OUTPUT_SUFFIXES["csv"], _lazy(_SUMMARY, "render_csv")),
                     Renderer("html", OUTPUT_SUFFIXES["html"], _lazy(_SUMMARY, "render_html"))),
    "answer": _rows(Renderer("json", OUTPUT_SUFFIXES["json"], _lazy(_ANSWER, "render_json")),
                    Renderer("csv", OUTPUT_SUFFIXES["csv"], _lazy(_ANSWER, "render_csv")),
                    Renderer("html", OUTPUT_SUFFIXES["html"], _lazy(_ANSWER, "render_html"))),
}
# What `sciner summarize` writes: the command line lists them without importing the summary code.
SUMMARY_FORMATS: tuple[str, ...] = tuple(RENDERERS["summary"])


def renderer_for(kind: str, path: str | Path | None, given: str | None = None, default: str = "json") -> Renderer:
    """How to write a ``kind`` of output (a ``summary``, an ``answer``) to ``path``: in the
    format ``given`` (``--to``), else the one whose suffix ``path`` ends with (the longest),
    else, with no path (standard output), in ``default``. A one-line error for an unknown name
    or suffix, listing the choices."""
    rows = RENDERERS[kind]
    if given:
        if given.lower() not in rows:
            raise InputFormatError(f"unknown {kind} format {given!r}; expected one of {', '.join(rows)}")
        return rows[given.lower()]
    if path is None:
        return rows[default]
    name = Path(path).name.lower()
    suffixes = sorted(((s, row) for row in rows.values() for s in row.suffixes), key=lambda item: -len(item[0]))
    found = next((row for s, row in suffixes if name.endswith(s) and len(name) > len(s)), None)
    if found is None:
        raise InputFormatError(f"{path}: cannot tell the {kind} format from the extension; expected "
                               f"{', '.join(sorted(s for s, _ in suffixes))}, or name it with --to ({', '.join(rows)})")
    return found


def get_format(name: str, *, reading: bool | None = None) -> Format:
    """The format called ``name`` (case-insensitive); ``reading`` True/False also checks that
    it can be read/written. Raises :class:`InputFormatError` naming the choices."""
    fmt = FORMATS.get(name.lower())
    choices = READ_FORMATS if reading else WRITE_FORMATS if reading is False else tuple(FORMATS)
    if fmt is None or fmt.name not in choices:
        verb = " to read" if reading else " to write" if reading is False else ""
        raise InputFormatError(f"unknown format{verb} {name!r}; expected one of {', '.join(choices)}")
    return fmt


def reading_format(name: str | None) -> str | None:
    """``--from`` checked against the formats sciner reads (a one-line error listing them)."""
    return get_format(name, reading=True).name if name else None


def suffix_format(path: str | Path) -> Format | None:
    """The format whose suffix ``path`` ends with, or None."""
    match = _matching_suffix(Path(path).name)
    return FORMATS[match[1]] if match else None


def _matching_suffix(name: str) -> tuple[str, str] | None:
    """(suffix, format name) of the longest format suffix ``name`` ends in (case-insensitive),
    with something before it; None when there is none."""
    lowered = name.lower()
    return next(((s, f) for s, f in _SUFFIXES if lowered.endswith(s) and len(lowered) > len(s)), None)


def without_suffix(name: str) -> str:
    """``name`` less the suffix of the format it would be read as (``a/x.conll`` -> ``a/x``);
    a name with no such suffix stays whole."""
    match = _matching_suffix(Path(name).name)
    return name[: -len(match[0])] if match else name


def _first_line(path: Path) -> str | None:
    """The first non-blank line of a text file (None if there is none or it is not text)."""
    try:
        with open(path, encoding="utf-8-sig", errors="strict", newline="\n") as handle:
            for line in handle:
                if line.strip():
                    return line.strip()
    except (UnicodeDecodeError, OSError):
        return None
    return None


def _looks_like_doccano(line: str | None) -> bool:
    """True for doccano's first object: a ``label`` list (sciner's doccano also keeps
    ``tokens``), or a ``text`` without ``tokens``. sciner JSONL has ``tokens``, never ``label``."""
    try:
        obj = json.loads(line) if line else None
    except (ValueError, RecursionError):  # the reader reports it: not JSON, too long a number, too deep
        return False
    return isinstance(obj, dict) and ("label" in obj or ("text" in obj and "tokens" not in obj))


def _looks_like_docbin(head: bytes) -> bool:
    """True for a spaCy DocBin: zlib-compressed msgpack whose first keys are ``version``, ``attrs``."""
    try:
        start = zlib.decompressobj().decompress(head, 64)
    except zlib.error:
        return False
    return b"version" in start and b"attrs" in start


def sniff(path: Path) -> Format:
    """The format of a file whose suffix names none, from its content (paragraph text unless
    the content is unmistakably something else)."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(4096)  # not the whole file: a PDF may be megabytes
    except OSError:
        return FORMATS["text"]
    if head.startswith(b"%PDF-"):
        return FORMATS["pdf"]
    try:
        text = head.decode("utf-8")
    except UnicodeDecodeError:
        # The text reader reports the bad byte with its line.
        return FORMATS["spacy"] if _looks_like_docbin(head) else FORMATS["text"]
    first = _first_line(path)
    if first is not None and first.startswith("{"):
        try:
            json.loads(first)
        except (ValueError, RecursionError):
            return FORMATS["text"]
        return FORMATS["doccano"] if _looks_like_doccano(first) else FORMATS["jsonl"]
    if first is not None and first.startswith("["):
        try:
            json.loads(path.read_text(encoding="utf-8"))
            return FORMATS["labelstudio"]
        except (ValueError, RecursionError):  # JSONDecodeError and UnicodeDecodeError are ValueErrors
            return FORMATS["text"]
    lines = [line for line in text.split("\n")[:-1] if line.strip()][:50]
    if lines and all(len(cols := line.rstrip("\r").split("\t")) == 2 and is_valid_tag(cols[1]) for line in lines):
        return FORMATS["conll"]
    return FORMATS["text"]


def input_format(path: str | Path, given: str | None = None) -> Format:
    """The format to read ``path`` in: ``given`` (``--from``), else its suffix, else its content."""
    if given:
        return get_format(given, reading=True)
    path = Path(path)
    fmt = suffix_format(path)
    if fmt is None:
        return sniff(path)
    if fmt.read is None:
        raise InputFormatError(f"{path}: {fmt.name} files cannot be read; expected one of {', '.join(READ_FORMATS)}")
    if fmt.name == "jsonl" and _looks_like_doccano(_first_line(path)):
        return FORMATS["doccano"]
    return fmt


def output_format(path: str | Path | None, given: str | None = None, default: str = "conll") -> Format:
    """The format to write ``path`` in: ``given`` (``--to``), else its suffix, else ``default``."""
    if given:
        return get_format(given, reading=False)
    fmt = suffix_format(path) if path is not None else None
    if fmt is None:
        if path is not None and Path(path).suffix:
            raise InputFormatError(
                f"{path}: cannot tell the format from the extension; name it with --to ({', '.join(WRITE_FORMATS)})"
            )
        return get_format(default, reading=False)
    if fmt.render is None:
        raise InputFormatError(f"{path}: sciner does not write {fmt.name} files; expected one of {', '.join(WRITE_FORMATS)}")
    return fmt


def extract_format(output: str | Path | None, given: str | None = None) -> Format:
    """The format ``sciner extract`` writes ``output`` in: ``given`` (``--to``), else the
    extract format whose suffix ``output`` ends with, else paragraph text."""
    formats = [f for f in FORMATS.values() if f.render_extracted is not None]
    if given:
        chosen = FORMATS.get(given.lower())
        if chosen not in formats:
            raise InputFormatError(f"unknown format to extract to {given!r}; "
                                   f"expected one of {', '.join(f.name for f in formats)}")
        return chosen  # type: ignore[return-value]
    name = str(output or "").lower()
    by_suffix = sorted(((s, f) for f in formats for s in f.suffixes), key=lambda item: -len(item[0]))
    return next((f for suffix, f in by_suffix if name.endswith(suffix)), FORMATS["text"])


def read_file(path: str | Path, fmt: str | None = None) -> list[Paragraph]:
    """The paragraphs of ``path`` read in ``fmt`` (default: from its suffix, else its content)."""
    path = Path(path)
    return input_format(path, fmt).read(path)  # type: ignore[misc]


def check_reader_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """``options`` (a verb's reading options: a PDF's ``include``) checked by the formats whose
    readers take them, before any file is read (a one-line error for a bad value); an option
    that no reader takes is a programming error."""
    checked = dict(options)
    for name, value in options.items():
        checks = [fmt.options[name] for fmt in FORMATS.values() if name in fmt.options]
        if not checks:
            raise TypeError(f"no format reader takes the option {name!r}")
        for check in checks:
            checked[name] = check(value)
    return checked


def read_with(fmt: Format, path: str | Path, options: Mapping[str, Any] | None = None) -> list[Paragraph]:
    """The paragraphs of ``path`` read in ``fmt``, its reader given those of ``options`` it takes."""
    own = {name: value for name, value in (options or {}).items() if name in fmt.options}
    return fmt.read(Path(path), **own)  # type: ignore[misc,call-arg]


def read_annotated(path: str | Path, fmt: str | None = None, *, every_paragraph: bool = True) -> list[Paragraph]:
    """Like :func:`read_file`, for files that must carry entities (gold, predictions): a format
    without any (text, PDF) is a one-line error, and so, with ``every_paragraph``, is a
    paragraph without tags."""
    path = Path(path)
    chosen = input_format(path, fmt)
    if not chosen.carries_entities:
        raise InputFormatError(f"{path}: a {chosen.name} file has no tags (tag it first: sciner predict {path} "
                               f"-o tagged.jsonl); expected one of "
                               f"{', '.join(n for n in READ_FORMATS if FORMATS[n].carries_entities)}")
    paragraphs = chosen.read(path)  # type: ignore[misc]
    for p in paragraphs if every_paragraph else ():
        if p.spans is None:
            raise InputFormatError(f"{p.source}:{p.line}: paragraph has no tags")
    return paragraphs


def refuse_binary(fmt: Format) -> None:
    """Refuse, in one line and before any work, to send a binary format to standard output."""
    if fmt.binary:
        raise OutputError(f"{fmt.name} is a binary format and is not written to standard output; give an output file")


def render(paragraphs: Sequence[Paragraph], fmt: str | Format, title: str = "") -> str | bytes:
    """The content of a ``fmt`` file holding ``paragraphs`` (``title`` is the HTML page's)."""
    chosen = fmt if isinstance(fmt, Format) else get_format(fmt, reading=False)
    return chosen.render(paragraphs, title)  # type: ignore[misc]


def write_file(paragraphs: Sequence[Paragraph], path: str | Path, fmt: str | None = None, title: str = "") -> Format:
    """Write ``paragraphs`` to ``path`` atomically in ``fmt`` (default: from the suffix); returns the format."""
    from sciner.outputs import write_atomic

    chosen = output_format(path, fmt)
    write_atomic(path, render(paragraphs, chosen, title))
    return chosen
