"""``sciner show``: a self-contained HTML page of a tagged file, or of its diff against gold."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from sciner.cli.app import app
from sciner.cli.options import From, Quiet


@app.command()
def show(
    file: Annotated[
        Path,
        typer.Argument(
            metavar="FILE",
            help="Tagged file: .conll, .jsonl, Label Studio .json, .doccano.jsonl or .spacy.",
            show_default=False,
        ),
    ],
    output: Annotated[str, typer.Option("-o", "--output", help="HTML file to write.", show_default=False)],
    gold: Annotated[
        Optional[Path],
        typer.Option("--gold", help="Gold file with the same paragraphs: show correct, missed and spurious entities.", show_default=False),
    ] = None,
    title: Annotated[Optional[str], typer.Option("--title", help="Page title (default: the file name).", show_default=False)] = None,
    limit: Annotated[
        Optional[int], typer.Option("--limit", min=1, help="Show only the first N paragraphs.", show_default=False)
    ] = None,
    from_format: From = None,
    quiet: Quiet = False,
) -> None:
    """Write one HTML page with FILE's entities highlighted per type, a legend and per-type counts.

    With --gold, the page marks each entity as correct (same type and boundaries in gold),
    missed (only in gold) or spurious (only in FILE), with counts per type. The page has no
    external assets: open it in any browser, or attach it.

    Example: sciner show pred.conll --gold gold.conll -o diff.html
    """
    from sciner.cli.options import file_output
    from sciner.view.show import show as show_page

    target = show_page(file, file_output(output), gold=gold, title=title, limit=limit, from_format=from_format)
    if not quiet:
        typer.echo(f"wrote {target}")
