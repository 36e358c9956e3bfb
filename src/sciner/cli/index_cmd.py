"""``sciner index``: papers -> one SQLite file to query (``sciner query``, pandas, DuckDB)."""

from __future__ import annotations

import sys
from typing import Optional

import typer

from sciner.cli.app import app
from sciner.cli.options import (
    PAPERS_HELP, DataDir, DeviceOwn, From, Include, ModelOption, NoGazetteers, Precision, Quiet, ThreadsOwn,
    include_kinds,
)



@app.command()
def index(
    inputs: list[str] = typer.Argument(..., help=PAPERS_HELP),
    output: str = typer.Option(..., "--output", "-o", help="The index: an SQLite file, created if missing, added to "
                               "if it exists."),
    prune: bool = typer.Option(False, "--prune", help="Remove the papers of indexed files that no longer exist."),
    replace: bool = typer.Option(False, "--replace", help="Read again the files indexed with other reading options "
                                 "(--include, --tokenize, --from), replacing their papers; without it they are kept "
                                 "as they are, and the run says so."),
    from_format: From = None,
    tokenize: bool = typer.Option(False, "--tokenize", help="Paragraph text is untokenized: tokenize each line first."),
    include: Include = None,
    no_gazetteers: NoGazetteers = False,
    data: DataDir = None,
    model: ModelOption = None,
    precision: Precision = "auto",
    device: DeviceOwn = "auto",
    threads: ThreadsOwn = 2,
    workers: Optional[int] = typer.Option(None, "--workers", min=1, show_default=False,
                                          help="Tag the inputs that need it with N processes (each loading the model "
                                               "once) into OUTPUT.tagged/, then index them here, one writer."),
    ray: bool = typer.Option(False, "--ray", help="Run the --workers as Ray actors (pip install 'sciner[ray]'), on a "
                                                  "local Ray started for the run."),
    ray_address: Optional[str] = typer.Option(None, "--ray-address", show_default=False,
                                              help="Run the --workers as actors on the Ray cluster at this address."),
    quiet: Quiet = False,
) -> None:
    """Index papers into one SQLite file: each paper's paragraphs (full-text searchable),
    mentions, entities under one name, values paired with their names, and results (task,
    dataset, metric, value, model, the paragraph read from), as sciner summarize reads them.

    Running it again adds new and changed files only (by content hash); a file indexed with
    other reading options is kept as it is (--replace reads it again); --prune removes the
    papers of files that are gone. Each paper is written in one transaction: a run stopped at
    any point keeps every paper wholly in or out, and the next run goes on. Ask it questions
    with sciner query; the schema is in docs/index.md.

    Example: sciner index ../shared/data/pdfs -o corpus.sqlite
    """
    from sciner.files.inputs import Reading
    from sciner.files.run import Engine, finish, say
    from sciner.index.run import index_files
    from sciner.inference.predict import TagOptions

    tagging = TagOptions(model=model, precision=precision, device=device, threads=threads)
    done = index_files(inputs, output, tagging=tagging,
                       reading=Reading.of(from_format, tokenize=tokenize, include=include_kinds(include)),
                       engine=Engine.of(workers, ray=ray, ray_address=ray_address), data=data,
                       gazetteers=not no_gazetteers, prune=prune, reread=replace, show_progress=not quiet,
                       on_error=say)
    if not quiet:
        print(done.describe(), file=sys.stderr)
    raise typer.Exit(finish(done.failed, done=done.files))
