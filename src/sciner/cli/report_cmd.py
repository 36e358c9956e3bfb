"""``sciner report``: an HTML or Markdown experiment report on one or more systems."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from sciner.cli.app import app
from sciner.config import BOOTSTRAP_SAMPLES, BOOTSTRAP_SEED
from sciner.cli.options import From, Quiet


@app.command()
def report(
    gold: Annotated[Path, typer.Argument(metavar="GOLD", help="Gold file in any tagged format.", show_default=False)],
    systems: Annotated[
        list[Path],
        typer.Argument(metavar="SYS...", help="Predictions of one or more systems, same paragraphs and tokens as GOLD.", show_default=False),
    ],
    output: Annotated[str, typer.Option("-o", "--output", help="Report file: .html (self-contained) or .md.", show_default=False)],
    name: Annotated[
        Optional[list[str]],
        typer.Option("--name", help="Name of a system, once per system in order (default: file names).", show_default=False),
    ] = None,
    samples: Annotated[int, typer.Option("--samples", min=1, help="Paired-bootstrap resamples.")] = BOOTSTRAP_SAMPLES,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the bootstrap.")] = BOOTSTRAP_SEED,
    examples: Annotated[int, typer.Option("--examples", min=0, help="Example paragraphs where the systems differ.")] = 8,
    from_format: From = None,
    quiet: Quiet = False,
) -> None:
    """Write an experiment report comparing systems' predictions with GOLD.

    It holds micro/macro/per-type precision, recall and F1 of each system; pairwise
    paired-bootstrap significance (overall and per type); F1 by entity length and by
    casing; a confusion table between gold and predicted types on overlapping spans (with
    missed and spurious entities); side-by-side example paragraphs where the systems
    differ; and plots. HTML embeds the plots; Markdown writes them as PNG files beside it.

    Example: sciner report gold.conll crf.conll bert.conll -o report.html
    """
    from sciner.cli.options import file_output
    from sciner.view.report_output import report as write_report

    for path in write_report(gold, systems, file_output(output), names=name, samples=samples, seed=seed,
                             examples=examples, from_format=from_format):
        if not quiet:
            typer.echo(f"wrote {path}")
