"""The Typer application object that every verb module registers its command on."""

from __future__ import annotations

from typing import Annotated

import click
import typer
import typer.core

# -h works wherever --help does, on the app and on every verb.
CONTEXT = {"help_option_names": ["-h", "--help"]}

# The verbs in the order of a user's work: text out of PDFs, tagging, looking at and scoring
# the tags, summarizing papers, then making and inspecting models. `sciner -h` lists them in this order.
WORKFLOW = ("extract", "predict", "convert", "show", "summarize", "index", "query", "serve", "evaluate", "compare", "report", "data", "train",
            "calibrate", "pretrain", "distill", "ngrams", "info", "export")


class WorkflowGroup(typer.core.TyperGroup):
    """Lists the verbs in :data:`WORKFLOW` order (Typer would list sub-apps such as ``data``
    after every command, and the rest in import order)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        def rank(name: str) -> int:
            return WORKFLOW.index(name) if name in WORKFLOW else len(WORKFLOW)

        return sorted(super().list_commands(ctx), key=rank)


app = typer.Typer(
    name="sciner",
    cls=WorkflowGroup,
    help=(
        "Find scientific entities (methods, datasets, tasks, metrics, hyperparameters) in NLP papers.\n\n"
        "Example: sciner predict paper.pdf -o paper.conll"
    ),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings=CONTEXT,
)


def _print_version(value: bool) -> None:
    if value:
        from sciner.version import __version__

        typer.echo(f"sciner {__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[
        bool, typer.Option("--version", callback=_print_version, is_eager=True, help="Print sciner's version and exit.")
    ] = False,
) -> None:
    """Find scientific entities (methods, datasets, tasks, metrics, hyperparameters) in NLP papers.

    Example: sciner predict paper.pdf -o paper.conll
    """
