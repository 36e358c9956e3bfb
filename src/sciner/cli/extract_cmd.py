"""``sciner extract``: turn a paper's PDF into the task's input, one tokenized paragraph per line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Optional

import typer

from sciner.cli.app import app


@app.command()
def extract(
    paper: Annotated[Path, typer.Argument(metavar="PAPER.pdf", help="The paper's PDF (with a text layer).", show_default=False)],
    output: Annotated[
        Optional[str],
        typer.Option("-o", "--output", help="Write here instead of standard output.", show_default=False),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="JSON lines with tokens, text, section, page and kind.")
    ] = False,
) -> None:
    """Extract the title, abstract, section headers, body paragraphs and appendices of PAPER.pdf.

    Each paragraph is tokenized as the task's inputs are (spaCy's English tokenizer) and
    written on its own line, tokens separated by spaces. Dropped: running headers and
    footers, page numbers, authors, figure and table captions, tables, display equations,
    footnote markers and the reference list. Hyphenation at line ends is undone where the
    paper spells the word without a hyphen; ligatures are expanded.

    Example: sciner extract paper.pdf -o paper.txt
    """
    from sciner.cli.options import file_output
    from sciner.outputs import Outputs
    from sciner.pdf import extract_pdf

    outputs = Outputs([paper])
    target = None if output is None else outputs.check(file_output(output))
    paragraphs = extract_pdf(paper)
    if as_json:
        lines = [
            json.dumps(
                {"tokens": p.tokens, "text": p.text, "section": p.section, "page": p.page, "kind": p.kind},
                ensure_ascii=False,
            )
            for p in paragraphs
        ]
    else:
        lines = [" ".join(p.tokens) for p in paragraphs]
    text = "".join(line + "\n" for line in lines)
    if target is None:
        typer.echo(text, nl=False)
    else:
        outputs.write(target, text)
        typer.echo(f"{len(paragraphs)} paragraphs from {paper} -> {target}", err=True)
