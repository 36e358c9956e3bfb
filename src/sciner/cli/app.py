"""The Typer application object that every verb module registers its command on."""

from __future__ import annotations

from typing import Annotated, Any

import click
import typer
import typer.core

# -h works wherever --help does, on the app and on every verb.
CONTEXT = {"help_option_names": ["-h", "--help"]}

# The verbs in the order of a user's work: text out of PDFs, tagging, looking at and scoring
# the tags, summarizing papers, then making and inspecting models. `sciner -h` lists them in this order.
WORKFLOW = ("extract", "predict", "convert", "show", "summarize", "index", "query", "serve", "evaluate", "compare", "report", "data", "train",
            "calibrate", "pretrain", "distill", "ngrams", "info", "export")


class UsageArgument(typer.core.TyperArgument):
    """An argument spelled as click spells it, ``INDEX``, ``[MODEL]``, ``INPUTS...``: Typer's own
    writes a required one in braces and keeps a parameter's lower-case name (``{inputs}...``)."""

    @property
    def display_name_raw(self) -> str:
        return self.metavar or (self.name or "").upper()

    def _usage_display_name(self) -> str:
        name = self.display_name_raw if self.required else f"[{self.display_name_raw}]"
        return name if self.nargs == 1 else f"{name}..."


def spell_arguments(command: click.Command) -> None:
    """Make every argument of ``command`` and its subcommands a :class:`UsageArgument`. Typer
    builds its arguments itself (no class to pass in), so they change class once built; the
    subclass adds no state, only spellings."""
    for param in command.params:
        if type(param) is typer.core.TyperArgument:
            param.__class__ = UsageArgument
    for sub in getattr(command, "commands", {}).values():
        spell_arguments(sub)


class WorkflowGroup(typer.core.TyperGroup):
    """Lists the verbs in :data:`WORKFLOW` order (Typer would list sub-apps such as ``data``
    after every command, and the rest in import order), their arguments spelled by :class:`UsageArgument`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        spell_arguments(self)

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
