"""``sciner train``: train a model from a config, on the shared groups or on your own annotated papers."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from sciner.cli.app import app
from sciner.cli.options import ConfigFile, DataDir, Device, Overrides, Quiet, Resume, Threads


@app.command()
def train(
    files: Annotated[Optional[list[Path]], typer.Argument(
        metavar="[FILES_OR_FOLDERS]...", show_default=False,
        help="Your annotated papers (CoNLL, JSONL, Label Studio, doccano, spaCy; each file or -DOCSTART- "
             "document one paper). Omitted: the shared annotated groups of --data.")] = None,
    output: Path = typer.Option(Path("runs/model"), "--output", "-o", help="Directory for the model, history and loss.tsv."),
    dev: Annotated[Optional[list[Path]], typer.Option(
        "--dev", show_default=False,
        help="Dev papers (repeatable) to choose the epoch on; default: a seeded ~20% of FILES, at least 2 papers.")] = None,
    with_shared: Annotated[bool, typer.Option(
        "--with-shared", help="Also train on the shared annotated groups (dev stays your papers).")] = False,
    init: Annotated[Optional[str], typer.Option(
        "--init", show_default=False, metavar="MODEL",
        help="Train this model on ('default' = the shipped one, or a model folder) with the small-data "
             "schedule of train.init_schedule: lower learning rate, few epochs, kept only where it beats "
             "the model on your dev papers.")] = None,
    keep_checkpoint: Annotated[bool, typer.Option(
        "--keep-checkpoint", help="Keep checkpoint.pt (the optimizer's state, ~170 MB) when the run ends, "
                                  "to --resume it later with more epochs.")] = False,
    config: ConfigFile = None,
    overrides: Overrides = [],  # noqa: B006 (typer copies it)
    data: DataDir = None,
    resume: Resume = False,
    device: Device = None,
    threads: Threads = None,
    quiet: Quiet = False,
) -> None:
    """Train a tagger: on your annotated papers (dev = whole papers), or on the shared groups
    (dev = whole held-out groups).

    Prints the data, the dev papers and the config before the first step, then progress with
    the loss and dev F1. Saves the best epoch by dev micro F1 (model.json +
    weights.safetensors), history.json and loss.tsv; a checkpoint every
    train.checkpoint_every_steps batches and each epoch, removed when the run ends (unless
    --keep-checkpoint). Ctrl-C or SIGTERM saves a checkpoint after the current step and prints
    the command that continues the run (this one, with --resume); --resume with a larger
    train.epochs extends a run kept with --keep-checkpoint.

    Example: sciner train my_papers/ --init default -o runs/mine
    """
    from sciner.training.train import run_config
    from sciner.training.train import train as run_training
    from sciner.cli.options import resume_command, run_options

    cfg = run_options(run_config(config, overrides, files=files or [], dev=dev or [], with_shared=with_shared,
                                 init=init), data, device, threads)
    if keep_checkpoint:
        cfg.train.keep_checkpoint = True
    result = run_training(cfg, output, resume=resume, show_progress=not quiet, resume_command=resume_command())
    where = "the model trained on (epoch 0)" if result.best_epoch == 0 else f"epoch {result.best_epoch}"
    typer.echo(f"best dev micro F1 {result.best_f1:.4f} at {where}; model in {result.output}")
