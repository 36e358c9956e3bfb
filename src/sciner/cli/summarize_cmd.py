"""``sciner summarize``: tagged papers -> entities with one name each, values with what they
measure, results, and the corpus table, as JSON, CSV or an HTML page."""

from __future__ import annotations

import sys
from typing import Annotated, Optional

import typer

from sciner.cli.app import app
from sciner.cli.options import (
    PAPERS_HELP, DataDir, DeviceOwn, From, Include, ModelOption, NoGazetteers, Precision, Quiet, ThreadsOwn,
    include_kinds, one_of,
)
from sciner.formats.registry import SUMMARY_FORMATS



@app.command()
def summarize(
    inputs: list[str] = typer.Argument(..., help=PAPERS_HELP),
    output: str = typer.Option("-", "--output", "-o", help="summary.json, summary.csv (one row per paper, entity, value, result) "
                               "or summary.html (sortable tables linked to each mention); - is stdout (JSON)."),
    to_format: Annotated[Optional[str], one_of("--to", SUMMARY_FORMATS, show_default=False,
                                               help="Format of the summary. Default: from -o's extension, "
                                                    "else json.")] = None,
    as_json: bool = typer.Option(False, "--json", help="Short for --to json."),
    from_format: From = None,
    tokenize: bool = typer.Option(False, "--tokenize", help="Paragraph text is untokenized: tokenize each line first."),
    include: Include = None,
    retag: bool = typer.Option(False, "--retag", help="Tag inputs that already carry tags again with the model."),
    no_gazetteers: NoGazetteers = False,
    data: DataDir = None,
    model: ModelOption = None,
    precision: Precision = "auto",
    device: DeviceOwn = "auto",
    threads: ThreadsOwn = 2,
    quiet: Quiet = False,
) -> None:
    """Summarize papers: each entity once under one name (case, hyphen, space and plural
    variants folded, abbreviations joined to their long forms, leaderboard spellings from the
    gazetteers), every HyperparameterValue and MetricValue with the name it belongs to in its
    sentence, the results sentences report (task, dataset, metric, value, model), and the
    corpus table (papers x methods, datasets, tasks, metrics). With --include tables,captions
    a PDF's results tables are read too: each number under its column's metric and dataset,
    its row's model.

    Inputs without tags are tagged first (the model is loaded only then). A file that cannot
    be read is reported on stderr and the others go on.

    Example: sciner summarize ../shared/data/pdfs/arxiv_1810.04805_bert_naacl2019.pdf --include tables,captions -o summary.html
    """
    from sciner.errors import InputFormatError
    from sciner.files.inputs import Reading
    from sciner.files.run import finish, say
    from sciner.inference.predict import TagOptions
    from sciner.summary.files import summarize as summarize_files

    if as_json and to_format not in (None, "json"):
        raise InputFormatError(f"--json means --to json, but --to says {to_format!r}; give one of them")
    done = summarize_files(inputs, output, to_format="json" if as_json else to_format,
                           tagging=TagOptions(model=model, precision=precision, device=device, threads=threads),
                           reading=Reading.of(from_format, tokenize=tokenize, include=include_kinds(include)),
                           retag=retag, data=data, gazetteers=not no_gazetteers, show_progress=not quiet, on_error=say)
    if not quiet and done.written is not None:
        entities = sum(len(p.entities) for p in done.papers)
        values = sum(len(p.values) for p in done.papers)
        print(f"summarized {len(done.papers)} paper(s): {entities} entities, {values} values; wrote {done.written}",
              file=sys.stderr)
    raise typer.Exit(finish(done.failed, done=len(done.papers)))
