"""CoNLL: ``token<TAB>tag`` per line, a blank line between paragraphs.

Two-column files separated by spaces are read too (the task's own example uses spaces),
and ``-DOCSTART-`` lines start documents: in a file that has them, each paragraph's
``meta["doc"]`` names its document (the file's stem, then ``stem#2``, ``stem#3``, ...), which
the paper-level pass and ``sciner summarize`` read as one paper each. Paragraphs from several
documents (their ``meta["doc"]``) are written with a ``-DOCSTART-`` line before each document,
so documents survive a round trip.

Being line- and tab-based, CoNLL cannot carry every token: writing refuses (before anything
is written) a token with a tab, line break or carriage return, a token that is only
whitespace, the token ``-DOCSTART-``, and an empty paragraph; see :mod:`sciner.formats.tokens`.
JSONL carries them all.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from sciner.document import Paragraph
from sciner.errors import InputFormatError
from sciner.formats.textfile import keep_leading_bom, read_lines
from sciner.formats.tokens import DOCSTART, check_writable, conll_rule
from sciner.labels import is_valid_tag


def _split_columns(line: str) -> list[str]:
    if "\t" in line:
        return line.split("\t")
    return line.split()


def document_name(path: str | Path, number: int) -> str:
    """The name of a CoNLL file's ``number``-th document (from 1): its stem, then ``stem#2``, ..."""
    stem = Path(path).stem if str(path) != "-" else "stdin"
    return stem if number <= 1 else f"{stem}#{number}"


def read_conll(path: str | Path, *, require_tags: bool = True) -> list[Paragraph]:
    """Read a CoNLL file into paragraphs with tags.

    With ``require_tags=False`` a one-column file (tokens only) is accepted and tags are None;
    a file is one or the other, so a one-column line in a tagged file is an error, not a token.
    Every verb reads CoNLL here, so a bad line gets one message everywhere, naming the file,
    the line and the reason: an empty token, a wrong column count or an unknown tag.
    """
    lines = read_lines(path)
    tagged = require_tags or any(len(_split_columns(line)) >= 2 for line in lines if line.strip())
    paragraphs: list[Paragraph] = []
    tokens: list[str] = []
    tags: list[str | None] = []
    start_line = 0
    documents = 0  # -DOCSTART- lines so far

    def flush() -> None:
        nonlocal tokens, tags
        if tokens:
            paragraphs.append(
                Paragraph(
                    tokens=tokens,
                    tags=[t for t in tags if t is not None] if tagged else None,
                    source=str(path),
                    line=start_line,
                    meta={"doc": document_name(path, documents)} if documents else {},
                )
            )
        tokens, tags = [], []

    for lineno, raw in enumerate(lines, start=1):
        if raw.strip() == "":
            flush()
            continue
        cols = _split_columns(raw)
        if cols[0] == DOCSTART:
            flush()
            documents += 1
            continue
        if not tokens:
            start_line = lineno
        token, tag = _token_and_tag(path, lineno, raw, cols, tagged)
        tokens.append(token)
        tags.append(tag)
    flush()
    return paragraphs


def _token_and_tag(path: str | Path, lineno: int, raw: str, cols: list[str], tagged: bool) -> tuple[str, str | None]:
    """One line's token and tag (None in a file of tokens only), or the line's one error."""
    where = f"{path}:{lineno}"
    if tagged and len(cols) == 1 and is_valid_tag(cols[0]) and (cols[0] != "O" or raw[:1].isspace()):
        raise InputFormatError(f"{where}: empty token before the tag {cols[0]!r}; expected token<TAB>tag")
    if len(cols) == 2 and tagged:
        token, tag = cols
        if not token.strip():
            raise InputFormatError(f"{where}: empty token before the tag {tag!r}; expected token<TAB>tag")
        if not is_valid_tag(tag):
            raise InputFormatError(f"{where}: unknown tag {tag!r}; expected O or B-/I- with one of the 7 entity types")
        return token, tag
    if len(cols) == 1 and not tagged:
        return cols[0], None
    expected = "2 columns (token, tag)" if tagged else "1 column (a token)"
    found = f"{len(cols)} column{'s' if len(cols) != 1 else ''}"
    raise InputFormatError(f"{where}: found {found} ({raw.strip()[:40]!r}), expected {expected}")


def format_conll(paragraphs: Iterable[Paragraph]) -> str:
    """Render paragraphs as ``token<TAB>tag`` lines with a blank line after each paragraph
    (untagged paragraphs get ``O``), and a ``-DOCSTART-`` line where a document (``meta["doc"]``)
    begins; :class:`UnwritableTokenError` on a token CoNLL cannot carry."""
    out = []
    doc = None
    for p in check_writable(paragraphs, "conll", conll_rule, empty_paragraphs=False):
        if "doc" in p.meta and p.meta["doc"] != doc:
            doc = p.meta["doc"]
            out.append(f"{DOCSTART}\n\n")
        tags = p.tags if p.spans is not None else ["O"] * len(p.tokens)  # tags are derived: once
        out.extend(f"{tok}\t{tag}\n" for tok, tag in zip(p.tokens, tags))
        out.append("\n")
    return keep_leading_bom("".join(out))


def write_conll(paragraphs: Iterable[Paragraph], path: str | Path) -> None:
    """Write paragraphs as CoNLL (atomically; see :func:`sciner.formats.registry.write_file`)."""
    from sciner.formats.registry import write_file

    write_file(list(paragraphs), path, "conll")
