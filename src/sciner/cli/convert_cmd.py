"""``sciner convert``: move tagged paragraphs between sciner's formats and other tools'."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from sciner.cli.app import app
from sciner.cli.options import FROM_HELP, JSON_HELP, TO_HELP


@app.command()
def convert(
    src: Annotated[Path, typer.Argument(metavar="IN", help="File to read; - is standard input (format: --from, else its content).", show_default=False)],
    dst: Annotated[str, typer.Argument(metavar="OUT", help="File to write; - is standard output (format: --to, else conll).", show_default=False)],
    to_format: Annotated[
        Optional[str], typer.Option("--to", help=TO_HELP, show_default=False)
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help=JSON_HELP)] = False,
    from_format: Annotated[
        Optional[str], typer.Option("--from", help=FROM_HELP, show_default=False)
    ] = None,
    label_config: Annotated[
        Optional[str],
        typer.Option("--label-config", help="Also write the Label Studio labeling config (XML) for these tasks.", show_default=False),
    ] = None,
) -> None:
    """Convert tagged paragraphs between formats, keeping every token as it is.

    Formats come from the extensions: .conll (token<TAB>tag), .jsonl (sciner JSONL),
    .json (Label Studio: tasks with the entities as predictions, for pre-annotation; reads
    Label Studio's JSON export back, a person's annotation winning over the prediction),
    .doccano.jsonl (doccano; or --to doccano), .spacy (spaCy DocBin), .txt (one paragraph
    per line, no tags). Tokens travel with the data, so nothing is re-tokenized. With OUT
    as -, the summary goes to stderr: sciner convert pred.conll - --json | jq .

    Example: sciner convert pred.conll tasks.json --label-config config.xml
    """
    from sciner.cli.options import file_output, json_or_to
    from sciner.errors import OutputError
    from sciner.formats.convert import convert as convert_file
    from sciner.formats.labelstudio import label_config as labelstudio_config
    from sciner.outputs import Outputs
    from sciner.stdio import display_name, is_stdio, readable

    target = file_output(dst)
    outputs = Outputs([src])
    config = None if label_config is None else outputs.check(file_output(label_config))
    # OUT itself is checked against the input by the conversion (standard output never is).
    if config is not None and not is_stdio(dst) and config.resolve() == target.resolve():
        raise OutputError(f"{config}: --label-config and OUT name the same file")
    with readable(src) as local:
        done = convert_file(local, target, from_format=from_format, to_format=json_or_to(to_format, as_json))
    typer.echo(
        f"wrote {done.paragraphs} paragraphs ({done.entities} entities) "
        f"from {display_name(src)} ({done.source_format}) to {'<stdout>' if is_stdio(dst) else target} "
        f"({done.target_format})",
        err=is_stdio(dst),  # stdout carries the data
    )
    if config is not None:
        outputs.write(config, labelstudio_config())
        typer.echo(f"wrote the Label Studio labeling config to {config}")
