"""``sciner train``: train a model from a config."""

from __future__ import annotations

from pathlib import Path

import typer

from sciner.cli.app import app
from sciner.cli.options import ConfigFile, DataDir, Device, Overrides, Quiet, Resume, Threads


@app.command()
def train(
    config: ConfigFile = None,
    output: Path = typer.Option(Path("runs/model"), "--output", "-o", help="Directory for the model, checkpoint, loss.tsv and history."),
    overrides: Overrides = [],  # noqa: B006 (typer copies it)
    data: DataDir = None,
    resume: Resume = False,
    device: Device = None,
    threads: Threads = None,
    quiet: Quiet = False,
) -> None:
    """Train a tagger on the annotated groups; dev = whole held-out groups.

    Prints a summary of the data and config before the first step, then progress with the
    loss and dev F1. Saves the best epoch by dev micro F1 (model.json + weights.safetensors),
    a checkpoint every train.checkpoint_every_steps batches and each epoch, history.json, and
    loss.tsv (the mean loss of every train.log_every batches).
    Ctrl-C or SIGTERM saves a checkpoint after the current step and prints the command that
    continues the run (this one, with --resume).

    Example: sciner train --config configs/default.toml --set train.epochs=3 -o runs/bio
    """
    from sciner.cli.options import resume_command, training_config
    from sciner.training.train import train as run_training

    cfg = training_config(config, overrides, data, device, threads)
    result = run_training(cfg, output, resume=resume, show_progress=not quiet, resume_command=resume_command())
    typer.echo(f"best dev micro F1 {result.best_f1:.4f} at epoch {result.best_epoch}; model in {result.output}")
