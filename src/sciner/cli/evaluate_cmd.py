"""``sciner evaluate`` and ``sciner compare``: score predictions against gold, compare two systems."""

from __future__ import annotations

import json
from enum import Enum
from pathlib import Path
from typing import Annotated, Optional

import typer

from sciner.cli.app import app
from sciner.config import BOOTSTRAP_SAMPLES, BOOTSTRAP_SEED
from sciner.cli.options import Json, Quiet, from_option

_FROM = from_option("every file (gold, predictions, --train)")


class TableFormat(str, Enum):
    table = "table"
    conlleval = "conlleval"


@app.command()
def evaluate(
    gold: Annotated[Path, typer.Argument(metavar="GOLD", help="Gold file in any tagged format (CoNLL, JSONL, doccano, Label Studio, spaCy), or a folder of them (paired with PRED's files by name).", show_default=False)],
    pred: Annotated[Path, typer.Argument(metavar="PRED", help="Predicted file with the same paragraphs and tokens, or a folder (as predict -o DIR/ writes it).", show_default=False)],
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as one JSON document (overrides --format).")] = False,
    output_format: Annotated[
        TableFormat, typer.Option("--format", help="Text layout: an aligned table, or conlleval.pl's summary.")
    ] = TableFormat.table,
    train: Annotated[
        Optional[Path],
        typer.Option("--train", help="Training file: adds scores for entities seen / unseen in it.", show_default=False),
    ] = None,
    from_format: Annotated[Optional[str], _FROM] = None,
    quiet: Quiet = False,
) -> None:
    """Exact-span precision, recall and F1 of PRED against GOLD: per type, micro and macro, with support.

    An entity counts as correct only when its type and its first and last token match a gold
    entity. A stray I-X tag (after O, at the start, or after another type) is read as the
    start of an entity, as conlleval does; on valid BIO the numbers equal seqeval's strict
    IOB2 mode. The paragraphs and tokens of both files must be identical.

    Also reported: scores by entity length (1, 2, 3, 4+ tokens), by casing (lower,
    capitalised, all caps, contains a digit) and, with --train, for entities seen or unseen
    (same tokens and type) in the training file.

    GOLD and PRED may be folders: each gold file is paired with the predicted file of the
    same name (any tagged suffix), as `sciner predict gold/ -o pred/` writes them.

    Example: sciner evaluate gold.conll pred.conll --train train.conll
    """
    from sciner.evaluate import evaluate_files
    from sciner.formats.registry import reading_format
    from sciner.evaluate.render import format_conlleval, format_table

    result = evaluate_files(gold, pred, train, fmt=reading_format(from_format))
    if as_json:
        typer.echo(json.dumps(result.to_dict(), indent=2))
    elif output_format is TableFormat.conlleval:
        typer.echo(format_conlleval(result.pairs), nl=False)
    else:
        typer.echo(format_table(result, str(gold), str(pred)), nl=False)


@app.command()
def compare(
    gold: Annotated[Path, typer.Argument(metavar="GOLD", help="Gold file in any tagged format.", show_default=False)],
    pred_a: Annotated[Path, typer.Argument(metavar="A", help="Predictions of system A.", show_default=False)],
    pred_b: Annotated[Path, typer.Argument(metavar="B", help="Predictions of system B.", show_default=False)],
    as_json: Json = False,
    samples: Annotated[int, typer.Option("--samples", min=1, help="Number of bootstrap samples.")] = BOOTSTRAP_SAMPLES,
    seed: Annotated[int, typer.Option("--seed", help="Random seed; the same seed gives the same numbers.")] = BOOTSTRAP_SEED,
    from_format: Annotated[Optional[str], _FROM] = None,
    quiet: Quiet = False,
) -> None:
    """Is system A better than system B? Paired bootstrap over papers (or paragraphs) on micro F1, and per type.

    Papers are resampled with replacement where the gold names two or more (-DOCSTART-
    documents, JSONL's doc, or the files of folders given as GOLD, A and B), else paragraphs;
    the output says which. Each sample recomputes the exact-span F1 of
    both systems. Reported: delta = F1(A) - F1(B) on the full data, the 95% interval of the
    resampled deltas, and p = the share of samples in which A is not better than B. Spans are
    read as in 'sciner evaluate' (a stray I- starts an entity).

    Example: sciner compare gold.conll new.conll old.conll --seed 0
    """
    from sciner.evaluate import compare_files
    from sciner.formats.registry import reading_format
    from sciner.evaluate.render import format_comparison

    result = compare_files(gold, pred_a, pred_b, samples=samples, seed=seed, fmt=reading_format(from_format))
    if as_json:
        typer.echo(json.dumps(result.to_dict(), indent=2))
    else:
        typer.echo(format_comparison(result, str(gold), str(pred_a), str(pred_b)), nl=False)
