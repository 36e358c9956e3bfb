"""``sciner query``: questions to a corpus index (``sciner index``), answered as a table, JSON,
CSV or HTML. One subcommand per question of :data:`sciner.index.questions.QUESTIONS`, made from
its declaration; each takes ``-o``, ``--to``, ``--json`` and ``-q`` besides its own parameters."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, Optional

import typer
import typer.core

from sciner.cli.app import CONTEXT, app
from sciner.cli.options import Quiet, one_of
from sciner.errors import InputFormatError
from sciner.formats.registry import RENDERERS, renderer_for
from sciner.index.questions import QUESTIONS, Param, Question
from sciner.index.render import table
from sciner.outputs import Outputs

# The most rows beyond a table's row count that its "N more" line counts.
MORE_COUNTED = 10_000


class _QueryGroup(typer.core.TyperGroup):
    """Click reads a group's options only before its arguments: the group's options after INDEX
    are moved before it, so that ``sciner query INDEX --sql ...`` and ``sciner query INDEX -q
    results ...`` read as ``sciner query --sql ... INDEX`` and ``sciner query -q INDEX results ...``.
    ``sciner query results -h`` shows the question's help without an INDEX."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        if args and args[0] in self.commands and {"-h", "--help"} & set(args):
            args = ["INDEX", *args]
        if len(args) > 1 and not args[0].startswith("-"):
            named = next((i for i, a in enumerate(args[1:], start=1) if a in self.commands), len(args))
            args = [*args[1:named], args[0], *args[named:]]
        return super().parse_args(ctx, args)


query_app = typer.Typer(
    name="query", cls=_QueryGroup, no_args_is_help=True, context_settings=CONTEXT, rich_markup_mode=None,
    help="Ask a corpus index (sciner index) questions: leaderboards, papers naming an entity, the most used "
         "names, the values given to a name, full-text search, a paragraph, or any read-only SQL.\n\n"
         'Example: sciner query corpus.sqlite --sql "SELECT doc, title FROM papers LIMIT 5"',
)
app.add_typer(query_app)

Output = Annotated[Optional[str], typer.Option("--output", "-o", show_default=False,
                                               help="Write the answer to x.csv, x.html or x.json instead of printing it.")]
Json = Annotated[bool, typer.Option("--json", help="Print the answer as JSON (short for --to json).")]
To = Annotated[Optional[str], one_of("--to", tuple(RENDERERS["answer"]), show_default=False,
                                     help="Format of the answer. Default: from -o's extension; without -o, a table.")]


def _answer(ctx: typer.Context, question: Question, values: dict[str, Any], output: Optional[str],
            to: Optional[str], as_json: bool, quiet: bool, asked_as: str = "") -> None:
    """Open the index, ask, and print or write the answer (the group's -o, --to, --json, -q count
    too); ``asked_as``: how the command line named the question (an HTML answer's title), if not by name."""
    # Imported here: the index reader needs the summary's name folding, which the other verbs'
    # start-up does without.
    from sciner.index.query import Index

    db: Path = ctx.obj["db"]
    output, to = output or ctx.obj["output"], to or ctx.obj["to"]
    as_table = not (output or to or as_json or ctx.obj["json"])
    with Index(db) as corpus:
        answer, more = _ask(corpus, question, values, count_more=as_table)
        notes = getattr(corpus, question.notes)(**values) if question.notes and not (quiet or ctx.obj["quiet"]) else []
    if question.one:
        answer = [answer]
    title = f"sciner query {asked_as or question.name}"
    if output:
        written = Outputs([db]).write(output, renderer_for("answer", output, to).render(answer, title))
        if not (quiet or ctx.obj["quiet"]):
            typer.echo(f"wrote {written}", err=True)
    elif to or as_json or ctx.obj["json"]:
        typer.echo(renderer_for("answer", None, to or "json").render(answer, title), nl=False)
    else:
        typer.echo(table(answer, question.columns) + more, nl=False)
    for note in notes:  # what the answer matched and left out, beside it (stdout stays the answer)
        typer.echo(f"note: {note}", err=True)


def _ask(corpus: Any, question: Question, values: dict[str, Any], *, count_more: bool) -> tuple[Any, str]:
    """The answer, and with ``count_more`` the line under a table cut at its row count (``-n``,
    ``--top``): how many rows more the index holds, counted up to :data:`MORE_COUNTED` in the
    same query, and the flag showing them ("" when nothing more)."""
    rows = next((p for p in question.params if p.rows), None)
    if not count_more or rows is None or question.one:
        return question.ask(corpus, values), ""
    wanted = values[rows.name]
    answer = question.ask(corpus, {**values, rows.name: wanted + MORE_COUNTED})
    further = len(answer) - wanted
    if further <= 0:
        return answer, ""
    count = f"more than {MORE_COUNTED:,}" if further >= MORE_COUNTED else f"{further:,}"
    return answer[:wanted], f"… {count} more row(s): {rows.cli_flags[0]} {wanted + min(further, MORE_COUNTED)} shows them\n"


def _option(param: Param) -> inspect.Parameter:
    """``param`` as a Typer parameter of the question's subcommand."""
    shown = param.type if param.required or param.default is not None else Optional[param.type]
    if param.argument:
        info: Any = typer.Argument(help=param.help, show_default=False)
    else:
        info = typer.Option(*param.cli_flags, help=param.help, min=1 if param.rows else param.minimum,
                            show_default=not param.required and param.default is not None)
    default = inspect.Parameter.empty if param.required else param.default
    return inspect.Parameter(param.name, inspect.Parameter.KEYWORD_ONLY, default=default,
                             annotation=Annotated[shown, info])


def _command(question: Question) -> Callable[..., None]:
    """The subcommand asking ``question``: its parameters as options (and arguments), then -o, --to, --json, -q."""

    def ask(ctx: typer.Context, output: Optional[str] = None, to: Optional[str] = None, as_json: bool = False,
            quiet: bool = False, **values: Any) -> None:
        _answer(ctx, question, values, output, to, as_json, quiet)

    keyword = inspect.Parameter.KEYWORD_ONLY
    ask.__signature__ = inspect.Signature([  # type: ignore[attr-defined]
        inspect.Parameter("ctx", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=typer.Context),
        *(_option(p) for p in question.params),
        inspect.Parameter("output", keyword, default=None, annotation=Output),
        inspect.Parameter("to", keyword, default=None, annotation=To),
        inspect.Parameter("as_json", keyword, default=False, annotation=Json),
        inspect.Parameter("quiet", keyword, default=False, annotation=Quiet),
    ])
    ask.__name__, ask.__doc__ = question.name, question.help
    return ask


for _question in QUESTIONS.values():
    query_app.command(name=_question.name)(_command(_question))


@query_app.callback(invoke_without_command=True)
def query(
    ctx: typer.Context,
    db: Annotated[Path, typer.Argument(metavar="INDEX", help="The index file (made by sciner index).",
                                       show_default=False)],
    sql: Annotated[Optional[str], typer.Option("--sql", show_default=False,
                                               help="Run this read-only SQL over the index (tables: docs/index.md); "
                                                    "the same as the sql question.")] = None,
    output: Output = None,
    to: To = None,
    as_json: Json = False,
    limit: Annotated[Optional[int], typer.Option("--limit", "-n", min=1, show_default=False,
                                                 help="Most rows --sql answers (default: all).")] = None,
    quiet: Quiet = False,
) -> None:
    """Ask INDEX a question (the commands below), or run read-only SQL over it with --sql.

    Names are matched as sciner summarize matches them: case, hyphens, spaces and plurals do
    not matter (--dataset squad finds SQuAD). Each answer prints as a table, or as JSON with
    --json (CSV or HTML with --to), or goes to a .csv, .html or .json file with -o.

    Example: sciner query corpus.sqlite --sql "SELECT doc, title FROM papers LIMIT 5"
    """
    ctx.obj = {"db": db, "output": output, "to": to, "json": as_json, "quiet": quiet}
    if ctx.invoked_subcommand is None:
        if sql is None:
            raise InputFormatError(f"sciner query INDEX: give a question ({', '.join(QUESTIONS)}) or --sql; "
                                   "see sciner query --help")
        _answer(ctx, QUESTIONS["sql"], {"query": sql, "limit": limit}, output, to, as_json, quiet, "--sql")
    elif sql is not None:
        raise InputFormatError(f"--sql and {ctx.invoked_subcommand}: ask one question at a time")
