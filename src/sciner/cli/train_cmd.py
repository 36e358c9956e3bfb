"""``sciner train``: train a model from a config."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import Optional

import typer

from sciner.cli.app import app
from sciner.cli.options import Device, Quiet, Threads


@app.command()
def train(
    config: Optional[Path] = typer.Option(None, "--config", "-c", help="TOML config with [data], [model], [train] tables; omitted = all defaults."),
    output: Path = typer.Option(Path("runs/model"), "--output", "-o", help="Directory for the model, checkpoint and history."),
    overrides: list[str] = typer.Option([], "--set", help="Override one value: section.key=value (repeatable)."),
    data: Optional[Path] = typer.Option(None, "--data", help="Shared data directory (overrides data.data_dir; default: $SCINER_DATA, else ../shared/data).", show_default=False),
    resume: bool = typer.Option(False, "--resume", help="Continue from the checkpoint in --output after an interruption."),
    device: Device = None,
    threads: Threads = None,
    quiet: Quiet = False,
) -> None:
    """Train a tagger on the annotated groups; dev = whole held-out groups.

    Prints a summary of the data and config before the first step, then progress with the
    loss and dev F1. Saves the best epoch by dev micro F1 (model.json + weights.safetensors),
    a checkpoint every train.checkpoint_every_steps batches and each epoch, and history.json.
    Ctrl-C or SIGTERM saves a checkpoint after the current step and prints the command that
    continues the run (this one, with --resume).

    Example: sciner train --config configs/default.toml --set train.epochs=3 -o runs/bio
    """
    from sciner.cli.options import training_config
    from sciner.training.ner import train as run_training

    cfg = training_config(config, overrides, data, device)
    if threads is not None:
        cfg.train.threads = threads
    result = run_training(cfg, output, resume=resume, show_progress=not quiet,
                          resume_command=resume_command(sys.argv[1:]))
    typer.echo(f"best dev micro F1 {result.best_f1:.4f} at epoch {result.best_epoch}; model in {result.output}")


def resume_command(argv: list[str]) -> str:
    """The command that continues an interrupted run: the user's own, with ``--resume``."""
    return shlex.join(["sciner", *argv, *([] if "--resume" in argv else ["--resume"])])
