"""``sciner ngrams``: build Span Fine-tuning's n-gram dictionary from raw text."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from sciner.cli.app import app
from sciner.cli.options import Quiet
from sciner.data.ngrams import STATS_THRESHOLDS


@app.command()
def ngrams(
    output: Annotated[Path, typer.Option("--output", "-o", help="Dictionary file to write (.txt.gz).", show_default=False)],
    data: Annotated[
        Optional[Path],
        typer.Option("--data", help="Folder of raw *.txt (one paragraph per line) or one such file. "
                     "Default: $SCINER_DATA/raw, else ../shared/data/raw.", show_default=False),
    ] = None,
    min_count: Annotated[int, typer.Option("--min-count", help="Keep n-grams occurring MORE than this many times.")] = 10,
    max_lines: Annotated[
        Optional[int],
        typer.Option("--max-lines", help="Count on a random sample of this many paragraphs (seeded).", show_default=False),
    ] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the --max-lines sample.")] = 13,
    stats_on: Annotated[
        Optional[Path],
        typer.Option("--stats", help="Paragraph file (one tokenized paragraph per line): print the "
                     "dictionary size against average spans per sentence on it.", show_default=False),
    ] = None,
    thresholds: Annotated[
        str, typer.Option("--thresholds", help="Comma-separated count thresholds for --stats.")
    ] = ",".join(map(str, STATS_THRESHOLDS)),
    quiet: Quiet = False,
) -> None:
    """Count all n-grams (2 <= n <= 5, lower-cased, within sentences) and keep the frequent ones.

    The dictionary drives the greedy longest-match segmentation of the span fine-tuning
    head. With --stats, the counts are made at the lowest of --min-count and --thresholds,
    and a table of dictionary size against average spans per sentence of the --stats file
    is printed for each threshold (the Span Fine-tuning paper's Figure 3); the file written
    keeps only n-grams above --min-count.

    Example: sciner ngrams --max-lines 100000 --min-count 20 -o ngrams.txt.gz --stats ../shared/data/test-inputs/2022-official-test.txt
    """
    from sciner.data.ngrams import build_dictionary
    from sciner.errors import ConfigError

    try:
        levels = [int(t) for t in thresholds.split(",") if t.strip()]
    except ValueError:
        raise ConfigError(f"--thresholds {thresholds!r}: expected comma-separated integers") from None
    done = build_dictionary(output, data=data, min_count=min_count, max_lines=max_lines, seed=seed, stats_on=stats_on,
                            thresholds=levels)
    if not quiet:
        typer.echo(f"wrote {len(done.dictionary)} n-grams occurring more than {min_count} times to {output}")
    if stats_on:
        typer.echo(f"segmentation of {done.sentences} sentences of {stats_on}:")
        typer.echo("min_count\tsize\tspans/sentence\ttokens/sentence\tshare in multi-token spans")
        for row in done.stats:
            typer.echo(
                f"{row.min_count}\t{row.size}\t{row.spans_per_sentence:.2f}\t"
                f"{row.tokens_per_sentence:.2f}\t{row.tokens_in_multiword_spans:.3f}"
            )
