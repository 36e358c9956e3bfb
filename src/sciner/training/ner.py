"""NER training: batches by length, AdamW with warmup, dev F1 each epoch, early stopping,
a checkpoint every ``train.checkpoint_every_steps`` batches and each epoch (and on
Ctrl-C/SIGTERM) and ``resume`` after an interruption. The same seed gives the same model.
Device, optimizer, schedule, checkpoints and resume rules come from
:mod:`sciner.training.loop`, shared with pretraining."""

from __future__ import annotations

import dataclasses
import json
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sciner.version import __version__
from sciner.model.batching import length_batches
from sciner.config import Config
from sciner.data.assemble import Corpus, assemble
from sciner.document import Paragraph
from sciner.labels import BIO_TAGS
from sciner.outputs import write_atomic
from sciner.provenance import git_commit
from sciner.model.device import autocast, hardware, pick_device
from sciner.training.loop import (
    CHECKPOINT, checkpoint_to_resume, interruptible, make_optimizer, restore_training_state, save_training_state,
    stop_if_requested,
)


def evaluate_model(model: Any, paragraphs: list[Paragraph], batch_subwords: int) -> dict[str, Any]:
    """Exact-span scores of ``model`` on tagged ``paragraphs`` (the ``sciner evaluate --json`` shape)."""
    from sciner.evaluate.metrics import classification_report
    from sciner.document import spans_to_bio
    from sciner.inference.batch import predict_spans

    spans = predict_spans(model, [p.tokens for p in paragraphs], batch_subwords=batch_subwords)
    pred = [spans_to_bio(s, len(p.tokens)) for s, p in zip(spans, paragraphs)]
    return classification_report([p.tags or [] for p in paragraphs], pred).to_dict()


@dataclass
class TrainResult:
    best_f1: float
    best_epoch: int
    history: list[dict[str, Any]]
    output: Path


# What a resumed run must keep: everything that shapes the data, the model, the batches and
# the schedule. Threads, device and patience may change.
RESUME_FIXED = (
    "data.dev_groups", "data.exclude_groups", "data.max_block_tokens", "data.drop_references",
    "data.keep_empty_fraction", "model", "train.seed", "train.epochs", "train.batch_subwords", "train.lr",
    "train.head_lr", "train.weight_decay", "train.warmup_ratio", "train.max_batches_per_epoch",
    "train.max_dev_paragraphs", "train.max_train_paragraphs",
    "distill.soft_labels", "distill.soft_weight", "distill.temperature", "distill.soft_ratio",
)


def step_checkpoint_due(every: int, step: int, epoch_done: bool) -> bool:
    """Whether batch number ``step`` (counted over the run, from 1) ends with a checkpoint;
    an epoch's last batch never does, as the epoch's own checkpoint follows its dev scores."""
    return every > 0 and step % every == 0 and not epoch_done


@dataclass
class Progress:
    """Where a run stands: batches ``[0, batch)`` of ``epoch`` are done. Saved in checkpoints."""

    epoch: int = 0
    batch: int = 0
    running: float = 0.0
    best_f1: float = -1.0
    best_epoch: int = -1
    history: list[dict[str, Any]] = field(default_factory=list)


def summary(cfg: Config, corpus: Corpus, train_paras: list[Paragraph], dev_paras: list[Paragraph],
            batches_per_epoch: int, device: Any) -> str:
    """What a run is about to do, printed before its first step: a wrong data folder, a
    forgotten override or a CPU run meant for a GPU shows at once, not after an epoch."""
    tc = cfg.train
    every = f"every {tc.checkpoint_every_steps} batches and " if tc.checkpoint_every_steps else ""
    return "\n".join([
        f"data     {cfg.data.root()}: train {len(train_paras)} paragraphs, {_tokens(train_paras)} tokens; "
        f"dev {len(dev_paras)} paragraphs, {_tokens(dev_paras)} tokens of {len(corpus.dev_groups)} groups "
        f"({', '.join(corpus.dev_groups)})",
        f"model    encoder {cfg.model.encoder}, head {cfg.model.head}",
        f"train    {tc.epochs} epochs of {batches_per_epoch} batches ({tc.batch_subwords} subwords), "
        f"lr {tc.lr:g} (heads {tc.head_lr:g}), seed {tc.seed}, patience {tc.patience}",
        f"compute  {device}, {tc.threads} threads; checkpoint {every}after each epoch",
    ])


def _tokens(paragraphs: list[Paragraph]) -> int:
    return sum(len(p.tokens) for p in paragraphs)


def train(cfg: Config, output: str | Path, *, resume: bool = False, corpus: Corpus | None = None,
          show_progress: bool = True, resume_command: str | None = None) -> TrainResult:
    """Train a model as ``cfg`` says; the best epoch (by dev micro F1) is saved to ``output``.

    A checkpoint is saved every ``train.checkpoint_every_steps`` batches and after each epoch.
    Ctrl-C or SIGTERM saves one after the current step and prints ``resume_command`` (the CLI
    passes the user's own command line); ``resume=True`` continues from the checkpoint
    exactly as if the run had not stopped.
    """
    import numpy as np
    import torch
    from tqdm import tqdm

    from sciner.training.soft import load_soft_batches, soft_meta, step_loss
    from sciner.model.network import featurize_many
    from sciner.model.store import build_model, save_model

    cfg.validate()  # a config built in code gets the checks a config file gets
    output = Path(output)
    tc = cfg.train
    ckpt = checkpoint_to_resume(output, resume)
    device = pick_device(tc.device)
    torch.set_num_threads(tc.threads)
    random.seed(tc.seed)
    np.random.seed(tc.seed)
    torch.manual_seed(tc.seed)

    corpus = corpus or assemble(cfg.data, seed=tc.seed)
    train_paras = [p for p in corpus.train if p.tokens]
    if tc.max_train_paragraphs:
        train_paras = random.Random(tc.seed).sample(train_paras, min(tc.max_train_paragraphs, len(train_paras)))
    dev_paras = corpus.dev[: tc.max_dev_paragraphs] if tc.max_dev_paragraphs else corpus.dev

    model = build_model(cfg.model).to(device)
    soft = load_soft_batches(model, cfg)  # None: gold only; else a student distilled from soft labels
    feats = featurize_many(model.tokenizer, [p.tokens for p in train_paras], cfg.model, [p.tags for p in train_paras])
    lengths = [f.n_subwords + 2 for f in feats]
    batches_per_epoch = len(length_batches(lengths, tc.batch_subwords, seed=tc.seed))
    if tc.max_batches_per_epoch:
        batches_per_epoch = min(batches_per_epoch, tc.max_batches_per_epoch)
    total_steps = max(1, batches_per_epoch * tc.epochs)
    optimizer, scheduler = make_optimizer(model, lr=tc.lr, head_lr=tc.head_lr, weight_decay=tc.weight_decay,
                                          warmup=max(1, int(tc.warmup_ratio * total_steps)), total=total_steps)
    at = Progress()
    if ckpt is not None:  # restored before the summary: a bad checkpoint is the only line printed
        at = Progress(**restore_training_state(ckpt, cfg.to_dict(), RESUME_FIXED, model, optimizer, scheduler))
    if show_progress:
        print(summary(cfg, corpus, train_paras, dev_paras, batches_per_epoch, device), file=sys.stderr)
        if ckpt is not None:
            print(f"resuming at epoch {at.epoch + 1}, batch {at.batch} "
                  f"(best dev micro F1 {at.best_f1:.4f} at epoch {at.best_epoch + 1})", file=sys.stderr)

    def checkpoint() -> Path:
        return save_training_state(output / CHECKPOINT, cfg.to_dict(), model, optimizer, scheduler,
                                   **dataclasses.asdict(at))

    meta_base = {
        "labels": list(BIO_TAGS),
        "encoder": cfg.model.encoder,
        "config": cfg.to_dict(),
        "git_commit": git_commit(),
        "sciner_version": __version__,
        "data_dir": str(cfg.data.root()),
        "seed": tc.seed,
        "train_paragraphs": len(train_paras),
        "train_tokens": sum(len(p.tokens) for p in train_paras),
        "dev_groups": corpus.dev_groups,
        "dev_paragraphs": len(dev_paras),
        "hardware": hardware(device),
        **soft_meta(cfg),
    }
    if resume_command is None:
        resume_command = (f"sciner distill student --soft {cfg.distill.soft_labels} --resume -o {output} (same config)"
                          if soft is not None else f"sciner train --resume -o {output} (same config)")
    with interruptible(resume_command) as stop:
        while at.epoch < tc.epochs and not (at.best_epoch >= 0 and at.epoch - at.best_epoch > tc.patience):
            epoch = at.epoch
            model.train()
            batches = length_batches(lengths, tc.batch_subwords, seed=tc.seed * 1000 + epoch)[:batches_per_epoch]
            bar = tqdm(total=len(batches), initial=at.batch, desc=f"epoch {epoch + 1}/{tc.epochs}", unit="batch",
                       disable=not show_progress, dynamic_ncols=True)
            started = time.time()
            while at.batch < len(batches):
                stop_if_requested(stop, checkpoint, resume_command)
                with autocast(device):
                    loss = model.loss([feats[i] for i in batches[at.batch]], tc.batch_subwords)
                    loss = step_loss(model, loss, soft, epoch * batches_per_epoch + at.batch, cfg)
                optimizer.zero_grad()
                loss.backward()
                torch.nn.utils.clip_grad_norm_([p for p in model.parameters() if p.requires_grad], tc.max_grad_norm)
                optimizer.step()
                scheduler.step()
                at.running = loss.item() if at.batch == 0 else 0.98 * at.running + 0.02 * loss.item()
                at.batch += 1
                if step_checkpoint_due(tc.checkpoint_every_steps, epoch * batches_per_epoch + at.batch,
                                       at.batch == len(batches)):
                    checkpoint()
                bar.update(1)
                bar.set_postfix(loss=f"{at.running:.4f}",
                                **({"dev_f1": f"{at.history[-1]['dev']['micro']['f1']:.4f}"} if at.history else {}))
            bar.close()
            scores = evaluate_model(model, dev_paras, tc.batch_subwords * 2)
            f1 = scores["micro"]["f1"]
            at.history.append({"epoch": epoch + 1, "loss": round(at.running, 5), "dev": scores,
                               "seconds": round(time.time() - started, 1)})
            improved = f1 > at.best_f1
            if improved:
                at.best_f1, at.best_epoch = f1, epoch
                save_model(model, output, {**meta_base, "epoch": epoch + 1, "dev_scores": scores,
                                           "history": at.history})
            if show_progress:
                tqdm.write(f"epoch {epoch + 1}: loss {at.running:.4f}  dev micro F1 {f1:.4f}"
                           f"  macro F1 {scores['macro']['f1']:.4f}{'  (best, saved)' if improved else ''}")
            at.epoch, at.batch = epoch + 1, 0
            checkpoint()
            write_atomic(output / "history.json", json.dumps(at.history, indent=2) + "\n")
    return TrainResult(best_f1=at.best_f1, best_epoch=at.best_epoch + 1, history=at.history, output=output)
