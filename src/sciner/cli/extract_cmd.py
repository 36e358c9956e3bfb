"""``sciner extract``: turn papers' PDFs into the task's input, one tokenized paragraph per line."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from sciner.cli.app import app
from sciner.cli.options import Include, JsonLines, Quiet
from sciner.formats.registry import EXTRACT_FORMATS


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
        typer.Option("--to", show_default=False, metavar=f"[{'|'.join(EXTRACT_FORMATS)}]",
                     help="text (one tokenized paragraph per line) or jsonl (tokens, text, section, page and kind; "
                          "'doc' too when several papers share one output). Default: from -o's extension, else text."),
    ] = None,
    as_json: JsonLines = False,
    include: Include = None,
    quiet: Quiet = False,
    workers: Annotated[
        Optional[int],
        typer.Option("--workers", min=1, show_default=False,
                     help="Extract into -o DIR with N processes: every paper's output is written as soon as it is "
                          "read, and recorded in DIR/manifest.jsonl."),
    ] = None,
) -> None:
    """Extract the title, abstract, section headers, body paragraphs and appendices of each paper.

    Each paragraph is tokenized as the task's inputs are (spaCy's English tokenizer) and
    written on its own line, tokens separated by spaces. Dropped: running headers and
    footers, page numbers, authors, figure and table captions, tables, display equations,
    footnote markers and the reference list (--include brings tables, captions and all
    footnotes back, each paragraph marked with its kind in JSONL). Hyphenation at line ends is undone where the
    paper spells the word without a hyphen; ligatures are expanded. A paper that cannot be
    read is reported and the others go on (exit code 9 when some failed). A corpus:
    --workers N extracts into -o DIR with N processes (sciner extract papers/ -o texts/ --workers 2).

    Example: sciner extract paper.pdf -o paper.txt
    """
    from sciner.cli.options import include_kinds, json_or_to
    from sciner.files.run import Engine, finish, say
    from sciner.pdf.files import extract as extract_papers

    done = extract_papers(papers, output, to_format=json_or_to(to_format, as_json), include=include_kinds(include),
                          engine=Engine.of(workers), show_progress=not quiet, on_error=say)
    raise typer.Exit(finish(done.failed, done=done.papers))
