"""``sciner data``: inspect the training data as training will see it."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from sciner.cli.app import CONTEXT, app
from sciner.cli.options import ConfigFile, DataDir, Json, Overrides, Quiet

data_app = typer.Typer(help="Inspect the assembled training data.\n\nExample: sciner data stats --data ../shared/data", context_settings=CONTEXT,
                       no_args_is_help=True)
app.add_typer(data_app, name="data")


@data_app.command("stats")
def stats(
    config: ConfigFile = None,
    data: DataDir = None,
    overrides: Overrides = [],  # noqa: B006 (typer copies it)
    as_json: Json = False,
    quiet: Quiet = False,
) -> None:
    """Per-group and per-type counts of the train and dev data after splitting, dedup and filtering.

    Example: sciner data stats --data ../shared/data --set data.max_block_tokens=64
    """
    from sciner.config import load_config
    from sciner.data.stats import corpus_stats, format_table

    cfg = load_config(config, overrides)
    if data is not None:
        cfg.data.data_dir = str(data)
    rows, corpus = corpus_stats(cfg)
    typer.echo(json.dumps(rows, indent=2) if as_json else format_table(rows, corpus))
