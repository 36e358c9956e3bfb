"""A run's inputs: files, folders (their files of the formats read, sorted), globs and ``-``
(standard input), read through the format registry into paragraphs.

Reading options reach the readers through the registry: ``tokenize`` (paragraph text is
untokenized text) is read here, a PDF's ``include`` is the PDF reader's option.
"""

from __future__ import annotations

import glob
import os
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from sciner.document import Paragraph
from sciner.errors import InputFormatError, InputNotFoundError, ScinerError
from sciner.formats.registry import (
    FORMATS, READ_FORMATS, check_reader_options, input_format, read_with, reading_format, suffix_format,
)
from sciner.stdio import display_name, is_stdio, is_stream, readable

# Beside papers a .tsv is more often a table (pdfs/PDF_LIST.tsv) than CoNLL: it is read as
# CoNLL when named, never swept in from a folder.
NAMED_ONLY_SUFFIXES: tuple[str, ...] = (".tsv",)


def folder_suffixes(formats: tuple[str, ...]) -> list[str]:
    """The suffixes that a folder is expanded to for a verb reading ``formats``."""
    return [s for n in formats for s in FORMATS[n].suffixes if s not in NAMED_ONLY_SUFFIXES]


def _found_in_folder(path: Path, formats: tuple[str, ...]) -> bool:
    fmt = suffix_format(path)
    return (fmt is not None and fmt.name in formats and path.is_file()
            and not path.name.lower().endswith(NAMED_ONLY_SUFFIXES))


def walk_folder(folder: Path, formats: tuple[str, ...]) -> tuple[list[Path], Counter[str]]:
    """The files of ``folder`` and of every folder below it whose suffix is one of ``formats``
    (sorted by path; hidden files and folders left out), and how many others were skipped, by
    why: "hidden", "named only" (a .tsv) or their suffix."""
    found: list[Path] = []
    skipped: Counter[str] = Counter()
    for root, dirs, names in os.walk(folder):
        skipped["hidden"] += sum(d.startswith(".") for d in dirs)
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in names:
            path = Path(root) / name
            if name.startswith("."):
                skipped["hidden"] += 1
            elif _found_in_folder(path, formats):
                found.append(path)
            elif name.lower().endswith(NAMED_ONLY_SUFFIXES):
                skipped["named only"] += 1
            else:
                skipped[path.suffix.lower() or "no suffix"] += 1
    return sorted(found), +skipped  # + drops the reasons counted zero times


def describe_skipped(folder: Path, found: int, skipped: Counter[str]) -> str:
    """One line saying what a folder gave and what it left out, and why."""
    why = {"hidden": "hidden", "named only": ".tsv: read as CoNLL only when named"}
    parts = [f"{n} {why.get(reason, reason)}" for reason, n in sorted(skipped.items(), key=lambda kv: (-kv[1], kv[0]))]
    return f"{folder}: {found} file(s) to read; skipped {sum(skipped.values())} ({', '.join(parts)})"


def expand_inputs(items: list[str], formats: tuple[str, ...] = READ_FORMATS,
                  notes: Callable[[str], object] | None = None) -> list[Path]:
    """Files named directly (``-`` is standard input), the files of a named directory and of the
    directories below it whose suffix is one of ``formats`` (sorted; never a .tsv, nothing
    hidden), and glob matches. What a directory left out goes to ``notes`` as one line."""
    paths: list[Path] = []
    for item in items:
        p = Path(item)
        if is_stdio(item):
            paths.append(p)
        elif p.is_dir():
            found, skipped = walk_folder(p, formats)
            if not found:
                suffixes = ", ".join(folder_suffixes(formats))
                raise InputNotFoundError(f"{p}: directory holds no file to read here ({suffixes})")
            if skipped and notes is not None:
                notes(describe_skipped(p, len(found), skipped))
            paths.extend(found)
        elif p.exists():
            paths.append(p)
        elif any(ch in item for ch in "*?["):
            matches = sorted(Path(m) for m in glob.glob(item, recursive=True) if Path(m).is_file())
            if not matches:
                raise InputNotFoundError(f"{item}: pattern matches no file")
            paths.extend(matches)
        else:
            raise InputNotFoundError(f"{p}: no such file or directory")
    return paths


def expand_each(items: Sequence[str | Path], on_error: Callable[[ScinerError], object],
                formats: tuple[str, ...] = READ_FORMATS, notes: Callable[[str], object] | None = None) -> list[Path]:
    """The input files of ``items`` (files, folder trees of ``formats``, globs, ``-``); an item
    that names nothing goes to ``on_error``, and the others are still expanded; what a folder
    left out goes to ``notes``."""
    paths: list[Path] = []
    for item in items:
        try:
            paths.extend(expand_inputs([str(item)], formats=formats, notes=notes))
        except ScinerError as err:
            on_error(err)
    # A file named twice (a folder and a file in it) is read once, where it first came.
    return list(dict.fromkeys(paths))


def status_line(show: bool) -> Callable[[str], object] | None:
    """A printer of status lines on stderr (above a progress bar, not through it), or None when
    they are silenced (``-q``)."""
    if not show:
        return None
    from tqdm import tqdm

    return lambda line: tqdm.write(line, file=sys.stderr)


def is_tagged(paragraphs: Sequence[Paragraph]) -> bool:
    """True when the paragraphs carry tags to use as they are: every one has tags and one has an
    entity (a one-column CoNLL has no tags; a JSONL that ``sciner extract`` wrote has no entities)."""
    return bool(paragraphs) and all(p.spans is not None for p in paragraphs) and any(p.spans for p in paragraphs)


@dataclass(frozen=True)
class Reading:
    """How a run reads its inputs (it crosses to worker processes, so it holds names, not
    objects): ``format`` (``--from``; None: each file's suffix, else its content),
    ``tokenize`` (paragraph text is untokenized), ``include`` (a PDF reader's option: what
    besides the body it reads, of :data:`sciner.pdf.INCLUDE`) and ``tags`` (keep the tags an
    input carries, when :func:`is_tagged`; else they are dropped). Calling it reads one input
    (:func:`read_input`)."""

    format: str | None = None
    tokenize: bool = False
    include: tuple[str, ...] = ()
    tags: bool = False

    @classmethod
    def of(cls, from_format: str | None = None, *, tokenize: bool = False, include: Sequence[str] = (),
           tags: bool = False) -> "Reading":
        """A reading checked before any input is read: a known ``--from``, known ``include`` kinds."""
        options = check_reader_options({"include": tuple(include)})
        return cls(reading_format(from_format), tokenize, tuple(sorted(options["include"])), tags)

    def __call__(self, path: Path) -> list[Paragraph]:
        return read_input(path, self.format, tokenize=self.tokenize, include=self.include, tags=self.tags)


def read_input(path: Path, fmt: str | None = None, *, tokenize: bool = False,
               include: Sequence[str] = (), name: str | None = None, tags: bool = False) -> list[Paragraph]:
    """Paragraphs of one input file in any readable format; their entities, if any, are dropped
    (``tags``: kept when the input :func:`is_tagged`).

    ``-`` (or ``/dev/stdin``, a pipe) is read once from the stream, in ``fmt``, else in the
    format its content shows (paragraph text unless unmistakably another). With ``tokenize``
    paragraph text is untokenized text, one paragraph per line (see :func:`read_raw_text`).
    ``include`` adds a PDF's table rows, captions and footnotes (:data:`sciner.pdf.INCLUDE`).
    A file the system will not let us read (permissions, a folder, a device error) is a
    :class:`~sciner.errors.InputNotFoundError` naming it, like a missing one. ``name``: what
    messages and the paragraphs call the input when ``path`` is a stream's copy already made.
    """
    name = name or display_name(path)
    copied = is_stream(path) or name != str(path)
    try:
        with readable(path) as local:
            paragraphs = read_local(local, fmt, tokenize=tokenize, include=include, name=name)
    except OSError as err:
        raise InputNotFoundError(f"{name}: cannot be read ({err.strerror or type(err).__name__})") from None
    keep = tags and is_tagged(paragraphs)
    for p in paragraphs:
        if not keep:
            p.spans = None
        if copied:  # the paragraphs came from a temporary copy: name the stream
            p.source = name
    return paragraphs


def read_local(path: Path, fmt: str | None = None, *, tokenize: bool = False, include: Sequence[str] = (),
               name: str | None = None) -> list[Paragraph]:
    """The paragraphs of a regular file (a stream's copy: see :func:`sciner.stdio.readable`),
    entities kept; ``name`` is what messages call it (``<stdin>`` for a copy of standard input)."""
    chosen = input_format(path, fmt)
    # A PDF's paragraphs are always tokenized the task's way; tagged formats carry their tokens.
    if tokenize and chosen.name != "pdf":
        if chosen.name != "text":
            raise InputFormatError(f"{name or path}: --tokenize reads untokenized text, one paragraph per line; "
                                   f"a {chosen.name} file carries its own tokens")
        return read_raw_text(path)
    paragraphs = read_with(chosen, path, {"include": tuple(include)})
    if chosen.name == "text":
        warn_if_untokenized(paragraphs, name or display_name(path))
    return paragraphs


_warned_untokenized = False  # the warning is said once a run, not once per input


def warn_if_untokenized(paragraphs: list[Paragraph], name: str) -> None:
    """Say once, on stderr, when text read as tokenized looks untokenized (punctuation glued to
    words gets worse tags), with the input's ``name``, the share of such tokens and the option
    that tokenizes it."""
    global _warned_untokenized
    from sciner.tokenize import GLUED_WARNING_SHARE, glued_share

    if _warned_untokenized:
        return
    share, examples = glued_share(p.tokens for p in paragraphs)
    if share > GLUED_WARNING_SHARE:
        _warned_untokenized = True
        print(f"warning: {name}: {share:.0%} of the tokens have punctuation glued to them "
              f"({', '.join(repr(t) for t in examples)}): the text looks untokenized; pass --tokenize "
              "to tokenize it as the task's inputs were", file=sys.stderr)


def read_raw_text(path: Path) -> list[Paragraph]:
    """Untokenized text, one paragraph per non-blank line, tokenized with the task's tokenizer
    (:mod:`sciner.tokenize`): the tokens the task's inputs would have had."""
    from sciner.formats.textfile import read_lines
    from sciner.tokenize import tokenize_paragraphs

    numbered = [(n, line) for n, line in enumerate(read_lines(path), start=1) if line.strip()]
    token_lists = tokenize_paragraphs(line for _, line in numbered)
    return [Paragraph(tokens, source=str(path), line=n) for (n, _), tokens in zip(numbered, token_lists)]
