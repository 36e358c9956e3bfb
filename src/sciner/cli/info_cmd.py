"""``sciner info``: what a model is, ``spacy info``-style: labels, encoder, training data, dev
scores, calibration, the sciner that made it and the one running, file sizes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Optional

import typer

from sciner.cli.app import app
from sciner.cli.options import Json, Quiet, ModelArgument
from sciner.model.info import format_info, model_info


@app.command()
def info(
    model: ModelArgument = None,
    as_json: Json = False,
    quiet: Quiet = False,  # info prints only its result; -q is accepted as on every verb
) -> None:
    """Describe a model (a folder, or an ONNX file `sciner export` wrote): labels, encoder,
    training data, dev scores per type (at training time, calibrated, and with the paper-level
    pass that `sciner predict` runs), calibration biases, the sciner version and git commit that
    trained it and that runs now, file sizes.

    Example: sciner info runs/bio --json
    """
    if model is not None and Path(model).suffix.lower() == ".onnx":
        from sciner.inference.onnx import exported_info

        facts = exported_info(model)
    else:
        facts = model_info(model)
    typer.echo(json.dumps(facts, indent=2) if as_json else format_info(facts))
