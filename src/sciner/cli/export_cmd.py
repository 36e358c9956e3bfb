"""``sciner export``: a model as one ONNX graph, for onnxruntime and the tools that read ONNX."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from sciner.cli.app import app
from sciner.cli.options import Quiet, ModelArgument


@app.command()
def export(
    model: ModelArgument = None,
    output: Annotated[Path, typer.Option("--output", "-o", help="The .onnx file to write.")] = Path("model.onnx"),
    quiet: Quiet = False,
) -> None:
    """Write the whole tagger (encoder, word shapes, BIO layer) as one ONNX graph, with the
    model's model.json in its metadata. `sciner predict --model model.onnx` tags with it
    through onnxruntime (pip install 'sciner[onnx]'); windows, batching and Viterbi decoding
    are the same code as the torch path's.

    Example: sciner export -o model.onnx
    """
    from sciner.errors import ConfigError
    from sciner.inference.onnx import export_onnx
    from sciner.model.store import ONNX_SUFFIX

    if output.suffix != ONNX_SUFFIX:
        raise ConfigError(f"--output: {output}: an ONNX file name ends in {ONNX_SUFFIX}")
    written = export_onnx(model, output)
    if not quiet:
        typer.echo(f"wrote {written} ({written.stat().st_size / 1e6:.1f} MB)", err=True)
