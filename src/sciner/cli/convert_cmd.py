"""``sciner convert``: move tagged paragraphs between sciner's formats and other tools'."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from sciner.cli.app import app
from sciner.cli.options import From, JsonLines, TO_HELP, Quiet


@app.command()
def convert(
    src: Annotated[Path, typer.Argument(metavar="IN", help="File to read; - is standard input (format: --from, else its content).", show_default=False)],
    dst: Annotated[str, typer.Argument(metavar="OUT", help="File to write; - is standard output (format: --to, else conll).", show_default=False)],
    to_format: Annotated[
        Optional[str], typer.Option("--to", help=TO_HELP, show_default=False)
    ] = None,
    as_json: JsonLines = False,
    from_format: From = None,
    label_config: Annotated[
        Optional[str],
        typer.Option("--label-config", help="Also write the Label Studio labeling config (XML) for these tasks.", show_default=False),
    ] = None,
    retokenize: Annotated[bool, typer.Option(
        "--retokenize", help="Cut the tokens again with the task's tokenizer (spaCy's, as the task's inputs), "
                             "moving each entity onto the new tokens by character offsets; says how many "
                             "could not be placed.")] = False,
    quiet: Quiet = False,
) -> None:
    """Convert tagged paragraphs between formats, keeping every token as it is.

    Formats come from the extensions: .conll (token<TAB>tag), .jsonl (sciner JSONL),
    .json (Label Studio: tasks with the entities as predictions, for pre-annotation; reads
    Label Studio's JSON export back, a person's annotation winning over the prediction),
    .doccano.jsonl (doccano; or --to doccano), .spacy (spaCy DocBin), .txt (one paragraph
    per line, no tags). Tokens travel with the data, so nothing is re-tokenized unless
    --retokenize says so (gold whose "performance," is one token scores badly against
    predictions, which split it). With OUT
    as -, the summary goes to stderr: sciner convert pred.conll - --json | jq .

    Example: sciner convert pred.conll tasks.json --label-config config.xml
    """
    from sciner.cli.options import file_output, json_or_to
    from sciner.formats.convert import convert as convert_file
    from sciner.stdio import display_name, is_stdio

    target = file_output(dst)
    done = convert_file(src, target, from_format=from_format, to_format=json_or_to(to_format, as_json),
                        label_config=None if label_config is None else file_output(label_config),
                        retokenize=retokenize)
    if done.not_placed:  # said even with -q: entities were left out
        typer.echo(f"warning: {done.not_placed} of {done.entities + done.not_placed} entities could not be placed "
                   "on the new tokens (their first or last character is inside a new token) and were left out",
                   err=True)
    if quiet:
        return
    if retokenize:
        typer.echo(f"re-tokenized: {done.tokens_before} tokens became {done.tokens_after}", err=is_stdio(dst))
    typer.echo(
        f"wrote {done.paragraphs} paragraphs ({done.entities} entities) "
        f"from {display_name(src)} ({done.source_format}) to {'<stdout>' if is_stdio(dst) else target} "
        f"({done.target_format})"
        + (f"; {done.not_written} entities not written: {done.target_format} holds tokens only" if done.not_written else ""),
        err=is_stdio(dst),  # stdout carries the data
    )
    if done.label_config is not None:
        typer.echo(f"wrote the Label Studio labeling config to {done.label_config}")
