"""``sciner calibrate``: fit per-type decision biases of a BIO model on its dev groups."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import Optional

import typer

from sciner.cli.app import app
from sciner.cli.options import Precision, Quiet, Threads


@app.command()
def calibrate(
    model: Path = typer.Argument(..., metavar="MODEL", help="Model directory (BIO head) to calibrate.", show_default=False),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="Write the calibrated model here (default: update MODEL in place).", show_default=False),
    data: Optional[Path] = typer.Option(None, "--data", show_default=False,
                                        help="Shared data directory (default: $SCINER_DATA, else the model's data.data_dir)."),
    precision: Precision = "auto",
    threads: Threads = None,
    quiet: Quiet = False,
) -> None:
    """Fit a decision bias per entity type on the model's dev groups, and report its honest effect.

    Groups annotate with different density, so a model trained on some groups tends to miss
    entities that held-out groups mark (precision far above recall). A bias on each type's
    B-/I- log-probabilities, applied before Viterbi, moves that balance; each type's bias is
    chosen to maximise its F1 on the dev groups. The report's "cross-fitted" scores decode
    each dev group with biases fit on the other dev groups only; they, not the in-sample
    fit, measure what calibrating gains.

    The biases go into model.json ("type_bias"), which `sciner predict` applies.

    Example: sciner calibrate runs/bio -o runs/bio-calibrated
    """
    import shutil

    import torch

    from sciner.config import data_root
    from sciner.data.assemble import assemble
    from sciner.errors import ModelError
    from sciner.evaluate.metrics import classification_report
    from sciner.inference.calibrate import DEFAULT, calibrate as run_calibration
    from sciner.inference.tagger import Tagger
    from sciner.model.heads import head_spec
    from sciner.model.store import META, load_model_meta
    from sciner.outputs import write_atomic

    cfg, _, _ = load_model_meta(model)
    if not head_spec(cfg.model.head).scores_tags:
        raise ModelError(f"{model}: calibrate needs a BIO model, not head {cfg.model.head!r}")
    torch.set_num_threads(threads or cfg.train.threads)
    tagger = Tagger.load(model, precision=precision)
    # The data folder recorded in a model is where it lay when the model was trained: this
    # machine's $SCINER_DATA knows better.
    cfg.data.data_dir = str(data_root(data, recorded=cfg.data.data_dir))
    # The corpus training saw: the model's data config and training seed.
    corpus = assemble(cfg.data, seed=cfg.train.seed)
    if not quiet:
        typer.echo(f"dev: {len(corpus.dev)} paragraphs of groups {', '.join(corpus.dev_groups)}", err=True)
    log_probs = tagger.log_probs([p.tokens for p in corpus.dev])
    result = run_calibration(log_probs, [p.tags for p in corpus.dev], corpus.dev_group_of, DEFAULT)
    before = classification_report(result.gold, result.uncalibrated)
    after = classification_report(result.gold, result.cross_fitted)

    typer.echo(f"{'dev F1':<22}{'no bias':>9}{'cross-fitted':>14}{'bias':>8}")
    for etype, scores in before.per_type.items():
        typer.echo(f"{etype:<22}{scores.f1:9.4f}{after.per_type[etype].f1:14.4f}"
                   f"{result.chosen.get(etype, 0.0):+8.2f}")
    typer.echo(f"{'micro':<22}{before.micro.f1:9.4f}{after.micro.f1:14.4f}")
    typer.echo(f"{'macro':<22}{before.macro.f1:9.4f}{after.macro.f1:14.4f}")

    target = output or model
    if output is not None:
        shutil.copytree(model, output, dirs_exist_ok=True)
    meta = dict(tagger.meta)
    meta["type_bias"] = {t: b for t, b in result.chosen.items() if b != 0.0}
    meta["calibration"] = {
        "dev_groups": corpus.dev_groups,
        "precision": tagger.precision,
        "config": asdict(DEFAULT),
        "cross_fitted_biases": result.cross_fitted_bias,
        "dev_uncalibrated": before.to_dict(),
        "dev_cross_fitted": after.to_dict(),
    }
    write_atomic(target / META, json.dumps(meta, indent=2) + "\n")
    typer.echo(f"type_bias {json.dumps(meta['type_bias'])} written to {target / META}")
