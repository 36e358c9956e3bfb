"""``sciner pretrain``: continued pretraining of the encoder with span masking and the span boundary objective."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from sciner.cli.app import app
from sciner.cli.options import Device, Quiet, Threads


@app.command()
def pretrain(
    config: Annotated[
        Optional[Path],
        typer.Option("--config", "-c", help="TOML config (keys of PretrainConfig); defaults if omitted.", show_default=False),
    ] = None,
    overrides: Annotated[
        Optional[list[str]],
        typer.Option("--set", help="Override one config key: --set steps=2000 (repeatable).", show_default=False),
    ] = None,
    output: Annotated[
        Optional[Path],
        typer.Option("--output", "-o", help="Folder for checkpoints, loss.tsv and encoder/ (default: the config's output_dir).",
                     show_default=False),
    ] = None,
    resume: Annotated[bool, typer.Option("--resume", help="Continue from the checkpoint in the output folder.")] = False,
    stop_after: Annotated[
        Optional[int],
        typer.Option("--stop-after", help="Stop after this many steps (with a checkpoint); go on later with --resume.", show_default=False),
    ] = None,
    device: Device = None,
    threads: Threads = None,
    quiet: Quiet = False,
    cache_only: Annotated[
        bool,
        typer.Option("--cache-only", help="Only tokenize raw_data into the raw_cache folder (resumable), then stop."),
    ] = False,
) -> None:
    """Continue pretraining an encoder on raw NLP-paper text with SpanBERT's recipe.

    Whole-word spans with geometric lengths (p=0.2, at most 10 words) are masked until 15%
    of the subwords are covered (80% [MASK], 10% random, 10% unchanged per span); the loss
    is masked-LM plus the span boundary objective, on single contiguous segments. Writes
    loss.tsv, a checkpoint every checkpoint_every steps, and the final encoder to
    OUTPUT_DIR/encoder, which `sciner train` accepts as its encoder.

    With raw_cache set, the corpus is tokenized once into that folder (compact subword ids,
    copied as it is to a machine without spaCy); --cache-only makes it and stops.

    Example: sciner pretrain --config configs/pretrain.toml --set steps=1500 -o runs/pretrain-minilm
    """
    from sciner.pretrain.config import load_pretrain_config
    from sciner.pretrain.loop import pretrain as run_pretraining

    cfg = load_pretrain_config(config, overrides or [])
    if device is not None:
        cfg.device = device
    if threads is not None:
        cfg.num_threads = threads
    if output is not None:  # -o as on every verb; the config's output_dir stays its default
        cfg.output_dir = str(output)
    if cache_only:
        _build_cache(cfg, quiet)
        return
    folder = run_pretraining(cfg, resume=resume, progress=not quiet, stop_after=stop_after)
    if folder is None:
        typer.echo(f"stopped with a checkpoint in {cfg.output_dir}; continue with --resume")
    else:
        typer.echo(f"encoder saved to {folder}")


def _build_cache(cfg, quiet: bool) -> None:
    """``--cache-only``: tokenize the raw corpus into ``cfg.raw_cache`` for ``cfg.encoder``'s tokenizer."""
    from transformers import AutoTokenizer

    from sciner.errors import ConfigError
    from sciner.pretrain.cache import build_cache
    from sciner.pretrain.config import resolve_encoder

    if not cfg.raw_cache:
        raise ConfigError("--cache-only: set raw_cache (the cache folder), e.g. --set raw_cache=runs/raw-cache-minilm")
    tokenizer = AutoTokenizer.from_pretrained(resolve_encoder(cfg.encoder))
    folder = build_cache(cfg.raw_data_dir(), tokenizer, Path(cfg.raw_cache), progress=None if quiet else typer.echo)
    typer.echo(f"cache written to {folder}")
