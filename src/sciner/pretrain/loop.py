"""The continued-pretraining loop: AdamW with linear warmup/decay, checkpoints, resume, loss curve.

Output folder:

- ``config.json``: the config of the run;
- ``loss.tsv``: ``step, loss, mlm, sbo, lr, elapsed_s``, the mean over every ``log_every`` steps
  (``lr`` is the encoder's; the heads' follows the same schedule from ``head_lr``);
- ``checkpoint.pt``: the latest checkpoint (model with heads, optimizer, scheduler, step,
  data-stream position, RNG states), replaced atomically every ``checkpoint_every`` steps and on Ctrl-C/SIGTERM;
- ``encoder/``: the final encoder and tokenizer (``save_pretrained``), usable as the
  ``encoder`` of ``sciner train``.

Each step's masking uses its own generator seeded by ``(seed, step)``, and the data stream
resumes from a saved :class:`~sciner.pretrain.corpus.StreamPosition`, so a resumed run sees
exactly the batches an uninterrupted one would have.
"""

from __future__ import annotations

import dataclasses
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch

from sciner.outputs import write_atomic
from sciner.pretrain.config import PretrainConfig, resolve_encoder
from sciner.model.device import autocast, hardware, pick_device
from sciner.training.loop import (
    CHECKPOINT, checkpoint_to_resume, interruptible, make_optimizer, restore_training_state, save_training_state,
    stop_if_requested,
)
LOSS_FILE = "loss.tsv"
LOSS_HEADER = "step\tloss\tmlm\tsbo\tlr\telapsed_s\n"
# Fields that define the model or the data stream: a resumed run must keep them.
RESUME_FIXED = (
    "encoder", "raw_data", "raw_cache", "seq_len", "batch_size", "seed", "min_segment_words", "pool_batches",
    "sbo_position_dim", "freeze_word_embeddings",
)


def pretrain(
    cfg: PretrainConfig, resume: bool = False, progress: bool = True, stop_after: int | None = None
) -> Path | None:
    """Run (or resume) continued pretraining as ``cfg`` says; return the folder of the final encoder.

    ``stop_after`` ends this invocation after that many steps with a checkpoint (and returns
    None), as an interruption would: the run goes on later with ``resume=True``. Ctrl-C or
    SIGTERM saves a checkpoint after the current step.
    """
    from sciner.model.encoder import load_encoder
    from sciner.pretrain.batch import mask_batch, random_token_ids
    from sciner.pretrain.corpus import SegmentStream, StreamPosition
    from sciner.pretrain.objectives import SpanBertPretrainer

    out = Path(cfg.output_dir)
    checkpoint = checkpoint_to_resume(out, resume)
    device = pick_device(cfg.device)
    torch.set_num_threads(cfg.num_threads)

    # sciner's one encoder loader: offline, no custom code, no bars of transformers' own.
    encoder, tokenizer = load_encoder(str(resolve_encoder(cfg.encoder)))
    torch.manual_seed(cfg.seed)
    model = SpanBertPretrainer(encoder, cfg.seq_len, cfg.sbo_position_dim)
    if cfg.freeze_word_embeddings:
        model.encoder.get_input_embeddings().weight.requires_grad_(False)
    model.to(device)
    cfg = dataclasses.replace(cfg, lr=cfg.encoder_lr(model.encoder.config.hidden_size))  # config.json says which
    optimizer, scheduler = make_optimizer(model, lr=cfg.lr, head_lr=cfg.head_lr, weight_decay=cfg.weight_decay,
                                          warmup=cfg.warmup_steps, total=cfg.steps)

    step, position, elapsed = 0, StreamPosition(), 0.0
    if checkpoint is not None:  # (not named `progress`: that is whether to draw the bar)
        restored = restore_training_state(checkpoint, cfg.to_dict(), RESUME_FIXED, model, optimizer, scheduler)
        step, position, elapsed = restored["step"], StreamPosition(**restored["position"]), restored["elapsed"]
    write_atomic(out / "config.json", json.dumps(cfg.to_dict(), indent=2) + "\n")
    log = _open_loss_log(out / LOSS_FILE, keep_until=step)

    index = open_corpus(cfg, tokenizer)
    stream = SegmentStream(
        index, tokenizer, cfg.seq_len, cfg.batch_size, cfg.seed, cfg.min_segment_words, cfg.pool_batches
    ).batches(position)
    replacement_ids = random_token_ids(tokenizer)
    masking = cfg.masking()
    trainable = [p for p in model.parameters() if p.requires_grad]

    from tqdm import tqdm

    bar = tqdm(total=cfg.steps, initial=step, disable=not progress, dynamic_ncols=True,
               mininterval=1.0 if sys.stderr.isatty() else 30.0)
    window: list[tuple[float, float, float]] = []
    model.train()
    started = time.monotonic() - elapsed
    last_step = cfg.steps if stop_after is None else min(cfg.steps, step + stop_after)

    def save() -> Path:
        return save_training_state(out / CHECKPOINT, cfg.to_dict(), model, optimizer, scheduler, step=step,
                                   position=dataclasses.asdict(position), elapsed=time.monotonic() - started)

    resume_command = "sciner pretrain --resume (same config)"
    with interruptible(resume_command) as stop:
        while step < last_step:
            stop_if_requested(stop, save, resume_command)
            segments, next_position = next(stream)
            rng = np.random.default_rng([cfg.seed, step])
            batch = mask_batch(segments, rng, masking, tokenizer.mask_token_id, tokenizer.pad_token_id,
                               replacement_ids)
            with autocast(device):
                loss = model(_to_device(batch, device))
            loss.total.backward()
            torch.nn.utils.clip_grad_norm_(trainable, cfg.max_grad_norm)
            optimizer.step()
            scheduler.step()
            optimizer.zero_grad(set_to_none=True)
            step, position = step + 1, next_position
            window.append((loss.total.item(), loss.mlm.item(), loss.sbo.item()))
            bar.update(1)
            bar.set_postfix(loss=f"{np.mean([w[0] for w in window]):.3f}", refresh=False)
            if step % cfg.log_every == 0 or step == last_step:
                _log_row(log, step, window, scheduler.get_last_lr()[0], time.monotonic() - started)
                window = []
            if step % cfg.checkpoint_every == 0 or step == last_step:
                save()
    bar.close()
    log.close()
    index.close()
    if step < cfg.steps:
        return None
    return _save_encoder(out / "encoder", model, tokenizer, cfg, step, hardware(device))


def open_corpus(cfg: PretrainConfig, tokenizer: Any) -> Any:
    """The paragraphs to pretrain on: the cache ``raw_cache`` (made first when it is not there
    yet) or, without one, the raw folder, tokenized as it is read."""
    from sciner.pretrain.cache import META, CachedParagraphs, build_cache
    from sciner.pretrain.corpus import ParagraphIndex, raw_files

    if not cfg.raw_cache:
        return ParagraphIndex(raw_files(cfg.raw_data_dir()))
    if not (Path(cfg.raw_cache) / META).exists():
        build_cache(cfg.raw_data_dir(), tokenizer, Path(cfg.raw_cache))
    return CachedParagraphs(cfg.raw_cache, tokenizer)


def _to_device(batch: Any, device: torch.device) -> Any:
    """The masked batch with its tensors on ``device``."""
    return dataclasses.replace(batch, **{f.name: getattr(batch, f.name).to(device)
                                         for f in dataclasses.fields(batch)})


def _open_loss_log(path: Path, keep_until: int):
    """Open loss.tsv for appending, first dropping rows after ``keep_until`` (steps a resume redoes)."""
    rows: list[str] = []
    if keep_until > 0 and path.exists():
        for line in path.read_text(encoding="utf-8").splitlines(keepends=True)[1:]:
            if int(line.split("\t", 1)[0]) <= keep_until:
                rows.append(line)
    handle = open(path, "w", encoding="utf-8")
    handle.write(LOSS_HEADER)
    handle.writelines(rows)
    handle.flush()
    return handle


def _log_row(handle, step: int, window: list[tuple[float, float, float]], lr: float, elapsed: float) -> None:
    total, mlm, sbo = (float(np.mean(col)) for col in zip(*window))
    handle.write(f"{step}\t{total:.4f}\t{mlm:.4f}\t{sbo:.4f}\t{lr:.3e}\t{elapsed:.1f}\n")
    handle.flush()


def _save_encoder(folder: Path, model, tokenizer, cfg: PretrainConfig, step: int, where: str) -> Path:
    """Save the encoder so that it loads like any HF folder, with a note of how it was made."""
    folder.mkdir(parents=True, exist_ok=True)
    model.encoder.save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    note = {"made_by": "sciner pretrain", "steps": step, "config": cfg.to_dict(), "hardware": where}
    write_atomic(folder / "sciner_pretrain.json", json.dumps(note, indent=2) + "\n")
    return folder


def read_loss_curve(output_dir: str | Path) -> list[dict[str, float]]:
    """The rows of a run's loss.tsv as dicts (for plots and reports)."""
    lines = (Path(output_dir) / LOSS_FILE).read_text(encoding="utf-8").splitlines()
    header = lines[0].split("\t")
    return [dict(zip(header, map(float, line.split("\t")))) for line in lines[1:] if line]


__all__ = ["pretrain", "read_loss_curve"]
