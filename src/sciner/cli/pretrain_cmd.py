"""``sciner pretrain``: continued pretraining of the encoder with span masking and the span boundary objective."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from sciner.cli.app import app
from sciner.cli.options import ConfigFile, DataDir, Device, Overrides, Quiet, Resume, Threads


@app.command()
def pretrain(
    config: ConfigFile = None,
    overrides: Overrides = [],  # noqa: B006 (typer copies it)
    output: Annotated[
        Optional[Path],
        typer.Option("--output", "-o", help="Folder for checkpoints, loss.tsv and encoder/ "
                                            "(default: runs/pretrain-minilm).", show_default=False),
    ] = None,
    data: DataDir = None,
    resume: Resume = False,
    stop_after: Annotated[
        Optional[int],
        typer.Option("--stop-after", min=1, help="Stop after this many steps (with a checkpoint); go on later with --resume.",
                     show_default=False),
    ] = None,
    device: Device = None,
    threads: Threads = None,
    quiet: Quiet = False,
    cache_only: Annotated[
        bool,
        typer.Option("--cache-only", help="Only tokenize the raw text into the pretrain.raw_cache folder (resumable), then stop."),
    ] = False,
) -> None:
    """Continue pretraining an encoder on raw NLP-paper text with SpanBERT's recipe.

    Whole-word spans with geometric lengths (p=0.2, at most 10 words) are masked until 15%
    of the subwords are covered (80% [MASK], 10% random, 10% unchanged per span); the loss
    is masked-LM plus the span boundary objective, on single contiguous segments. Runs in the
    same loop as `sciner train`: loss.tsv, a checkpoint every train.checkpoint_every_steps
    steps, Ctrl-C saves one; the final encoder goes to OUTPUT/encoder, which `sciner train`
    accepts as model.encoder.

    With pretrain.raw_cache set, the corpus is tokenized once into that folder (compact
    subword ids, copied as it is to a machine without spaCy); --cache-only makes it and stops.

    Example: sciner pretrain --config configs/pretrain.toml --set pretrain.steps=1500 -o runs/pretrain-minilm
    """
    from sciner.cli.options import resume_command, training_config
    from sciner.config import old_output_dir
    from sciner.pretrain.task import DEFAULT_OUTPUT, pretrain as run_pretraining

    cfg = training_config(config, overrides, data, device, threads)
    # -o as on every verb; an older, flat config file's output_dir is still honoured.
    folder = output or Path(old_output_dir(config) or DEFAULT_OUTPUT)
    if cache_only:
        _build_cache(cfg, quiet)
        return
    encoder = run_pretraining(cfg, folder, resume=resume, progress=not quiet, stop_after=stop_after,
                              resume_command=resume_command())
    if encoder is None:
        typer.echo(f"stopped with a checkpoint in {folder}; continue with --resume")
    else:
        typer.echo(f"encoder saved to {encoder}")


def _build_cache(cfg, quiet: bool) -> None:
    """``--cache-only``: tokenize the raw corpus into ``pretrain.raw_cache`` for ``model.encoder``'s tokenizer."""
    from transformers import AutoTokenizer

    from sciner.errors import ConfigError
    from sciner.model.encoder import encoder_folder
    from sciner.pretrain.cache import build_cache
    from sciner.pretrain.task import raw_folder

    if not cfg.pretrain.raw_cache:
        raise ConfigError("--cache-only: set pretrain.raw_cache (the cache folder), "
                          "e.g. --set pretrain.raw_cache=runs/raw-cache-minilm")
    tokenizer = AutoTokenizer.from_pretrained(encoder_folder(cfg.model.encoder))
    folder = build_cache(raw_folder(cfg), tokenizer, Path(cfg.pretrain.raw_cache), progress=None if quiet else typer.echo)
    typer.echo(f"cache written to {folder}")
