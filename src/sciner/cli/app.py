"""The Typer application object that every verb module registers its command on."""

from __future__ import annotations

import typer

app = typer.Typer(
    name="sciner",
    help=(
        "Find scientific entities (methods, datasets, tasks, metrics, hyperparameters) in NLP papers.\n\n"
        "Example: sciner predict paper.pdf -o paper.conll"
    ),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)
