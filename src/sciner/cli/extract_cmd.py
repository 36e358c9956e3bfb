"""``sciner extract``: turn papers' PDFs into the task's input, one tokenized paragraph per line."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer

from sciner.cli.app import app
from sciner.cli.options import JSON_HELP

if TYPE_CHECKING:  # pragma: no cover
    from sciner.cli.batch import Failures
    from sciner.outputs import Outputs
    from sciner.pdf import ExtractedParagraph

# extract's own outputs: what a PDF paragraph is, not tagged paragraphs (no entities yet).
EXTRACT_FORMATS: dict[str, str] = {"text": ".txt", "jsonl": ".jsonl"}


@app.command()
def extract(
    papers: Annotated[
        list[str],
        typer.Argument(metavar="PAPER.pdf...", show_default=False,
                       help="PDFs (with a text layer), folders (their .pdf files) or globs; - reads one PDF from standard input."),
    ],
    output: Annotated[
        Optional[str],
        typer.Option("-o", "--output", show_default=False,
                     help="A file (all papers together), or a folder (existing, or ending in /): one output per paper, "
                          "mirroring their paths. Default, or -: standard output."),
    ] = None,
    to_format: Annotated[
        Optional[str],
        typer.Option("--to", show_default=False,
                     help="text (one tokenized paragraph per line) or jsonl (tokens, text, section, page and kind; "
                          "'doc' too when several papers share one output). Default: from -o's extension, else text."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help=JSON_HELP)] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar or summary on stderr.")] = False,
) -> None:
    """Extract the title, abstract, section headers, body paragraphs and appendices of each paper.

    Each paragraph is tokenized as the task's inputs are (spaCy's English tokenizer) and
    written on its own line, tokens separated by spaces. Dropped: running headers and
    footers, page numbers, authors, figure and table captions, tables, display equations,
    footnote markers and the reference list. Hyphenation at line ends is undone where the
    paper spells the word without a hyphen; ligatures are expanded. A paper that cannot be
    read is reported and the others go on (exit code 9 when some failed).

    Example: sciner extract paper.pdf -o paper.txt
    """
    from sciner.cli.batch import Failures, expand_each
    from sciner.cli.options import json_or_to

    failures = Failures()
    paths = expand_each(papers, failures, formats=("pdf",))
    fmt = _extract_format(json_or_to(to_format, as_json), output)
    outputs, targets = _plan(paths, output, fmt)
    done = _extract_all(paths, outputs, targets, fmt, failures, quiet)
    failures.exit_if_any(done=done)


def _extract_format(given: str | None, output: str | None) -> str:
    """``--to`` checked, else from ``-o``'s extension (.jsonl: jsonl), else text."""
    from sciner.errors import InputFormatError

    if given is None:
        return "jsonl" if output is not None and output.lower().endswith(".jsonl") else "text"
    if given.lower() not in EXTRACT_FORMATS:
        raise InputFormatError(f"unknown format to extract to {given!r}; expected one of {', '.join(EXTRACT_FORMATS)}")
    return given.lower()


def _plan(paths: list[Path], output: str | None, fmt: str) -> tuple["Outputs", dict[Path, Path] | Path | None]:
    """Where the papers go, checked before any is read: one file per paper (a folder), one file,
    or standard output (None)."""
    from sciner.outputs import Outputs, wants_directory
    from sciner.stdio import file_names, is_stdio

    outputs = Outputs(paths)
    if output is None or is_stdio(output):
        return outputs, None
    if wants_directory(output):
        return outputs, dict(zip(paths, outputs.mirrored(output, file_names(paths), EXTRACT_FORMATS[fmt]))) if paths else {}
    return outputs, outputs.check(output)


def _extract_all(paths: list[Path], outputs: "Outputs", targets: dict[Path, Path] | Path | None, fmt: str,
                 failures: "Failures", quiet: bool) -> int:
    """Extract every paper; with one output per paper each is written as soon as it is done.
    Returns how many papers were extracted."""
    from tqdm import tqdm

    from sciner.errors import ScinerError
    from sciner.pdf import extract_pdf
    from sciner.stdio import display_name, readable, write_stdout

    together: list[str] = []
    done = n_paragraphs = 0
    several = len(paths) > 1
    for path in tqdm(paths, desc="extracting", unit="pdf", disable=quiet or not several, file=sys.stderr):
        try:
            # One paper alone gets a bar over its pages (a long paper takes seconds), made at the
            # first page read, so a file refused before that prints its one error line only.
            pages = _PageBar(disabled=quiet or several)
            with readable(path) as local:
                try:
                    paragraphs = extract_pdf(local, progress=pages.advance)
                finally:
                    pages.close()
        except ScinerError as err:
            failures.add(err)
            continue
        done += 1
        n_paragraphs += len(paragraphs)
        doc = display_name(path) if several and not isinstance(targets, dict) else None
        content = render_extracted(paragraphs, fmt, doc)
        if isinstance(targets, dict):
            _report(quiet, f"{len(paragraphs)} paragraphs from {display_name(path)} -> "
                           f"{outputs.write(targets[path], content)}")
        else:
            together.append(content)
    if done and targets is None:
        write_stdout("".join(together))
    elif done and isinstance(targets, Path):
        outputs.write(targets, "".join(together))
        _report(quiet, f"{n_paragraphs} paragraphs from {done} paper(s) -> {targets}")
    return done


class _PageBar:
    """A tqdm bar over one paper's pages, created when the extractor reports its first page."""

    def __init__(self, disabled: bool) -> None:
        self.disabled = disabled
        self.bar: Any = None

    def advance(self, done: int, total: int) -> None:
        if self.disabled:
            return
        if self.bar is None:
            from tqdm import tqdm

            self.bar = tqdm(total=total, desc="reading pages", unit="page", file=sys.stderr, leave=False)
        self.bar.update(done - self.bar.n)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def render_extracted(paragraphs: "list[ExtractedParagraph]", fmt: str, doc: str | None = None) -> str:
    """The lines of one paper in ``fmt``: tokens joined by spaces, or a JSON object per paragraph
    (naming the paper in ``doc`` when given)."""
    if fmt == "text":
        return "".join(" ".join(p.tokens) + "\n" for p in paragraphs)
    rows = []
    for p in paragraphs:
        row = {"tokens": p.tokens, "text": p.text, "section": p.section, "page": p.page, "kind": p.kind}
        rows.append(json.dumps(row if doc is None else {**row, "doc": doc}, ensure_ascii=False) + "\n")
    return "".join(rows)


def _report(quiet: bool, line: str) -> None:
    from tqdm import tqdm

    if not quiet:
        tqdm.write(line, file=sys.stderr)  # above the progress bar, not through it
