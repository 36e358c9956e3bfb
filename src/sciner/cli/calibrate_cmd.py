"""``sciner calibrate``: fit per-type decision biases of a BIO model on its dev split."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Optional

import typer

from sciner.cli.app import app
from sciner.cli.options import DeviceOwn, Precision, Quiet, Threads, one_of
from sciner.config import CALIBRATION_UNITS


@app.command()
def calibrate(
    model: Path = typer.Argument(..., metavar="MODEL", help="Model directory (BIO head) to calibrate.", show_default=False),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="Write the calibrated model here (default: update MODEL in place).", show_default=False),
    data: Optional[Path] = typer.Option(None, "--data", show_default=False,
                                        help="Shared data directory (default: $SCINER_DATA, else the model's data.data_dir)."),
    precision: Precision = "auto",
    device: DeviceOwn = "auto",
    threads: Threads = None,
    by: Annotated[str, one_of("--by", CALIBRATION_UNITS,
                              help="Cross-fit over the dev split's groups, or its papers (a model trained on files).")] = "group",
    in_sample: bool = typer.Option(False, "--in-sample",
                                   help="With fewer than 2 dev units, fit the biases on the dev split anyway "
                                        "(recorded as in-sample; its scores are optimistic)."),
    quiet: Quiet = False,
) -> None:
    """Fit a decision bias per entity type on the model's dev split, and report its honest effect.

    Groups annotate with different density, so a model trained on some groups tends to miss
    entities that held-out groups mark (precision far above recall). A bias on each type's
    B-/I- log-probabilities, applied before Viterbi, moves that balance; each type's bias is
    chosen to maximise its F1 on the dev groups. The report's "cross-fitted" scores decode
    each dev group with biases fit on the other dev groups only; they, not the in-sample
    fit, measure what calibrating gains. `--by paper` holds out one dev paper at a time
    instead (for a model trained on files, whose dev split is a few papers). With fewer than
    two groups (papers) nothing can be cross-fitted: calibrate says so and fits nothing, unless
    --in-sample asks for biases fit and scored on the dev split itself (`sciner info` says so).

    Paper-level decoding (a paper's tags as evidence at its names' other occurrences, and
    whole names) is fit the same way on top of the biases, and kept ("paper_level" in
    model.json) only where its cross-fitted dev F1 is higher (column "+ paper").

    The biases go into model.json ("type_bias"), which `sciner predict` applies. With -o,
    the new folder holds the model only (model.json, weights), not a training run's checkpoint.

    Example: sciner calibrate runs/bio -o runs/bio-calibrated
    """
    from sciner.inference.calibrate import calibrate as calibrate_model
    from sciner.model.store import META

    done = calibrate_model(model, output, data=data, precision=precision, device=device, threads=threads,
                           show_progress=not quiet, unit=by, in_sample=in_sample)
    typer.echo(f"biases {done.fit_on()}")
    typer.echo(done.table())
    typer.echo(f"type_bias {json.dumps(done.type_bias)} written to {done.path / META}")
    if done.paper_level is not None:
        typer.echo(f"paper_level {json.dumps(done.paper_level.to_meta())} written to {done.path / META}")
    elif done.paper_cross_fitted is not None:
        typer.echo("paper-level decoding did not beat the biases alone on the dev split: not kept")
    else:
        typer.echo("paper-level decoding is kept only where cross-fitting shows it helps: not fit in-sample")
