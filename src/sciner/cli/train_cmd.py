"""``sciner train``: train a model from a config."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from sciner.cli.app import app


@app.command()
def train(
    config: Optional[Path] = typer.Option(None, "--config", "-c", help="TOML config with [data], [model], [train] tables; omitted = all defaults."),
    output: Path = typer.Option(Path("runs/model"), "--output", "-o", help="Directory for the model, checkpoint and history."),
    overrides: list[str] = typer.Option([], "--set", help="Override one value: section.key=value (repeatable)."),
    data: Optional[Path] = typer.Option(None, "--data", help="Shared data directory (overrides data.data_dir)."),
    resume: bool = typer.Option(False, "--resume", help="Continue from the checkpoint in --output after an interruption."),
    device: Optional[str] = typer.Option(None, "--device", help="auto (cuda if available), cpu or cuda; overrides train.device."),
) -> None:
    """Train a tagger on the annotated groups; dev = whole held-out groups.

    Saves the best epoch by dev micro F1 (model.json + weights.safetensors), a checkpoint
    each epoch (and on Ctrl-C), and history.json.

    Example: sciner train --config configs/default.toml --set train.epochs=3 -o runs/bio
    """
    from sciner.config import load_config
    from sciner.training.ner import train as run_training

    cfg = load_config(config, overrides)
    if data is not None:
        cfg.data.data_dir = str(data)
    if device is not None:
        cfg.train.device = device
    result = run_training(cfg, output, resume=resume)
    typer.echo(f"best dev micro F1 {result.best_f1:.4f} at epoch {result.best_epoch}; model in {result.output}")
