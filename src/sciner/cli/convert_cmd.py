"""``sciner convert``: move tagged paragraphs between sciner's formats and other tools'."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from sciner.cli.app import app

_FORMAT_HELP = "conll, jsonl, labelstudio, doccano, spacy or text"


@app.command()
def convert(
    src: Annotated[Path, typer.Argument(metavar="IN", help="File to read.", show_default=False)],
    dst: Annotated[Path, typer.Argument(metavar="OUT", help="File to write.", show_default=False)],
    to_format: Annotated[
        Optional[str], typer.Option("--to", help=f"Format of OUT ({_FORMAT_HELP}); default: from its extension.", show_default=False)
    ] = None,
    from_format: Annotated[
        Optional[str], typer.Option("--from", help=f"Format of IN ({_FORMAT_HELP}); default: from its extension.", show_default=False)
    ] = None,
    label_config: Annotated[
        Optional[Path],
        typer.Option("--label-config", help="Also write the Label Studio labeling config (XML) for these tasks.", show_default=False),
    ] = None,
) -> None:
    """Convert tagged paragraphs between formats, keeping every token as it is.

    Formats come from the extensions: .conll (token<TAB>tag), .jsonl (sciner JSONL),
    .json (Label Studio: tasks with the entities as predictions, for pre-annotation; reads
    Label Studio's JSON export back, a person's annotation winning over the prediction),
    .doccano.jsonl (doccano; or --to doccano), .spacy (spaCy DocBin), .txt (one paragraph
    per line, no tags). Tokens travel with the data, so nothing is re-tokenized.

    Example: sciner convert pred.conll tasks.json --label-config config.xml
    """
    from sciner.formats.convert import convert as convert_file
    from sciner.formats.labelstudio import label_config as labelstudio_config

    done = convert_file(src, dst, from_format=from_format, to_format=to_format)
    typer.echo(
        f"wrote {done.paragraphs} paragraphs ({done.entities} entities) "
        f"from {src} ({done.source_format}) to {dst} ({done.target_format})"
    )
    if label_config is not None:
        label_config.write_text(labelstudio_config(), encoding="utf-8")
        typer.echo(f"wrote the Label Studio labeling config to {label_config}")
