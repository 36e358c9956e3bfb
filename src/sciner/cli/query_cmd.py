"""``sciner query``: questions to a corpus index (``sciner index``), answered as a table, JSON,
CSV or HTML."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Optional

import typer
import typer.core

from sciner.cli.app import CONTEXT, app


class _QueryGroup(typer.core.TyperGroup):
    """Click reads a group's options only before its arguments; ``sciner query INDEX --sql ...``
    (no question named) is read as ``sciner query --sql ... INDEX``. ``sciner query results -h``
    shows the question's help without an INDEX."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        if args and args[0] in self.commands and {"-h", "--help"} & set(args):
            args = ["INDEX", *args]
        if len(args) > 1 and not args[0].startswith("-") and not any(a in self.commands for a in args[1:]):
            args = [*args[1:], args[0]]
        return super().parse_args(ctx, args)


query_app = typer.Typer(
    name="query", cls=_QueryGroup, no_args_is_help=True, context_settings=CONTEXT, rich_markup_mode=None,
    help="Ask a corpus index (sciner index) questions: leaderboards, papers naming an entity, the most used "
         "names, the values given to a name, full-text search, or any read-only SQL.\n\n"
         'Example: sciner query corpus.sqlite --sql "SELECT doc, title FROM papers LIMIT 5"',
)
app.add_typer(query_app)

Output = Annotated[Optional[str], typer.Option("--output", "-o", show_default=False,
                                               help="Write the answer to x.csv, x.html or x.json instead of printing it.")]
Json = Annotated[bool, typer.Option("--json", help="Print the answer as JSON.")]
Limit = Annotated[int, typer.Option("--limit", "-n", min=1, help="Most rows to answer.")]
Type = Annotated[Optional[str], typer.Option("--type", show_default=False,
                                             help="Only this entity type (MethodName, DatasetName, TaskName, "
                                                  "MetricName, HyperparameterName).")]


def _answer(ctx: typer.Context, question: str, ask: Any, output: Optional[str], as_json: bool,
            columns: tuple[str, ...] | None = None) -> None:
    """Open the index, ask, and print or write the answer."""
    from sciner.index.query import Index
    from sciner.index.render import answer_format, render, table

    db: Path = ctx.obj["db"]
    output = output or ctx.obj.get("output")
    as_json = as_json or ctx.obj.get("json", False)
    with Index(db) as corpus:
        answer = ask(corpus)
    if output:
        from sciner.outputs import Outputs

        fmt = answer_format(output)
        written = Outputs([db]).write(output, render(answer, fmt, f"sciner query {question}"))
        if not ctx.obj.get("quiet"):
            typer.echo(f"wrote {written}", err=True)
    elif as_json:
        typer.echo(render(answer, "json"), nl=False)
    else:
        typer.echo(table(answer, columns), nl=False)


@query_app.callback(invoke_without_command=True)
def query(
    ctx: typer.Context,
    db: Annotated[Path, typer.Argument(metavar="INDEX", help="The index file (made by sciner index).",
                                       show_default=False)],
    sql: Annotated[Optional[str], typer.Option("--sql", show_default=False,
                                               help="Run this read-only SQL over the index (tables: docs/index.md).")] = None,
    output: Output = None,
    as_json: Json = False,
    limit: Annotated[Optional[int], typer.Option("--limit", "-n", min=1, show_default=False,
                                                 help="Most rows --sql answers (default: all).")] = None,
) -> None:
    """Ask INDEX a question (the commands below), or run read-only SQL over it with --sql.

    Names are matched as sciner summarize matches them: case, hyphens, spaces and plurals do
    not matter (--dataset squad finds SQuAD). Each answer prints as a table, or as JSON with
    --json, or goes to a .csv, .html or .json file with -o.

    Example: sciner query corpus.sqlite --sql "SELECT doc, title FROM papers LIMIT 5"
    """
    ctx.obj = {"db": db, "output": output, "json": as_json}
    if ctx.invoked_subcommand is None:
        if sql is None:
            from sciner.errors import InputFormatError

            raise InputFormatError("sciner query INDEX: give a question (results, papers, entities, values, search) "
                                   "or --sql; see sciner query --help")
        _answer(ctx, "--sql", lambda corpus: corpus.sql(sql, limit), output, as_json)
    elif sql is not None:
        from sciner.errors import InputFormatError

        raise InputFormatError(f"--sql and {ctx.invoked_subcommand}: ask one question at a time")


@query_app.command()
def results(
    ctx: typer.Context,
    dataset: Annotated[Optional[str], typer.Option("--dataset", show_default=False, help="Results on this dataset.")] = None,
    metric: Annotated[Optional[str], typer.Option("--metric", show_default=False, help="Results in this metric.")] = None,
    task: Annotated[Optional[str], typer.Option("--task", show_default=False, help="Results for this task.")] = None,
    model: Annotated[Optional[str], typer.Option("--model", show_default=False, help="Results of this method.")] = None,
    ours: Annotated[bool, typer.Option("--ours", help="Only results of the papers' own methods.")] = False,
    limit: Limit = 20,
    output: Output = None,
    as_json: Json = False,
) -> None:
    """A leaderboard: results on a dataset in a metric, best first (lower-is-better metrics such
    as error rate, perplexity and WER ascending), one row per paper and model, each with the
    paragraph it was read from.

    Example: sciner query corpus.sqlite results --dataset SQuAD --metric F1
    """
    _answer(ctx, "results", lambda c: c.results(dataset=dataset, metric=metric, task=task, model=model, ours=ours,
                                                limit=limit), output, as_json,
            ("rank", "value", "metric", "dataset", "task", "model", "ours", "paper", "paragraph"))


@query_app.command()
def papers(
    ctx: typer.Context,
    entity: Annotated[str, typer.Option("--entity", "-e", help="The name to look for.", show_default=False)],
    type: Type = None,
    limit: Limit = 20,
    output: Output = None,
    as_json: Json = False,
) -> None:
    """The papers naming an entity, most mentions first.

    Example: sciner query corpus.sqlite papers --entity BERT --type MethodName
    """
    _answer(ctx, "papers", lambda c: c.papers(entity, type=type, limit=limit), output, as_json,
            ("paper", "title", "type", "name", "mentions"))


@query_app.command()
def entities(
    ctx: typer.Context,
    type: Type = None,
    top: Annotated[int, typer.Option("--top", min=1, help="How many names.")] = 20,
    output: Output = None,
    as_json: Json = False,
) -> None:
    """The names the most papers use, with their papers and mentions.

    Example: sciner query corpus.sqlite entities --type DatasetName --top 20
    """
    _answer(ctx, "entities", lambda c: c.entities(type, top=top), output, as_json)


@query_app.command()
def values(
    ctx: typer.Context,
    of: Annotated[str, typer.Option("--of", help="The name whose values to count (a hyperparameter or metric).",
                                    show_default=False)],
    limit: Limit = 20,
    output: Output = None,
    as_json: Json = False,
) -> None:
    """The values papers give to a name, most frequent first: e.g. the learning rates used.

    Example: sciner query corpus.sqlite values --of "learning rate"
    """
    _answer(ctx, "values", lambda c: c.values(of, limit=limit), output, as_json)


@query_app.command()
def search(
    ctx: typer.Context,
    text: Annotated[str, typer.Argument(help='Words to find (SQLite FTS5: all words; "a phrase" in quotes; OR; '
                                             'prefix*).', show_default=False)],
    limit: Limit = 20,
    output: Output = None,
    as_json: Json = False,
) -> None:
    """Full-text search over the paragraphs, best match first, the matching words in [brackets].

    Example: sciner query corpus.sqlite search "span masking"
    """
    _answer(ctx, "search", lambda c: c.search(text, limit=limit), output, as_json,
            ("paper", "paragraph_id", "page", "section", "snippet"))
