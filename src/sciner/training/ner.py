"""The training loop: batches by length, AdamW with warmup, dev F1 each epoch, early stopping,
a checkpoint each epoch and ``resume`` after an interruption. The same seed gives the same model."""

from __future__ import annotations

import json
import random
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sciner.model.batching import length_batches
from sciner.config import Config
from sciner.data.assemble import Corpus, assemble
from sciner.document import Paragraph
from sciner.labels import BIO_TAGS

CHECKPOINT = "checkpoint.pt"


def git_commit() -> str:
    """The current git commit of the sciner checkout, or 'unknown'."""
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True,
                             cwd=Path(__file__).parent, timeout=5)
        return out.stdout.strip() if out.returncode == 0 and out.stdout.strip() else "unknown"
    except (OSError, subprocess.SubprocessError):
        return "unknown"


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


def train(cfg: Config, output: str | Path, *, resume: bool = False, corpus: Corpus | None = None,
          show_progress: bool = True) -> TrainResult:
    """Train a model as ``cfg`` says; the best epoch (by dev micro F1) is saved to ``output``."""
    import numpy as np
    import torch
    from tqdm import tqdm

    from sciner.model.network import featurize_many
    from sciner.model.store import build_model, save_model

    output = Path(output)
    output.mkdir(parents=True, exist_ok=True)
    tc = cfg.train
    torch.set_num_threads(tc.threads)
    random.seed(tc.seed)
    np.random.seed(tc.seed)
    torch.manual_seed(tc.seed)

    corpus = corpus or assemble(cfg.data, seed=tc.seed)
    train_paras = corpus.train
    if tc.max_train_paragraphs:
        train_paras = random.Random(tc.seed).sample(train_paras, min(tc.max_train_paragraphs, len(train_paras)))
    dev_paras = corpus.dev[: tc.max_dev_paragraphs] if tc.max_dev_paragraphs else corpus.dev

    model = build_model(cfg.model)
    feats = featurize_many(model.tokenizer, [p.tokens for p in train_paras], cfg.model, [p.tags for p in train_paras])
    lengths = [f.n_subwords + 2 for f in feats]

    encoder_params = [p for n, p in model.named_parameters() if n.startswith("encoder.") and p.requires_grad]
    head_params = [p for n, p in model.named_parameters() if not n.startswith("encoder.") and p.requires_grad]
    optimizer = torch.optim.AdamW(
        [{"params": encoder_params, "lr": tc.lr}, {"params": head_params, "lr": tc.head_lr}],
        weight_decay=tc.weight_decay,
    )
    batches_per_epoch = len(length_batches(lengths, tc.batch_subwords, seed=tc.seed))
    if tc.max_batches_per_epoch:
        batches_per_epoch = min(batches_per_epoch, tc.max_batches_per_epoch)
    total_steps = max(1, batches_per_epoch * tc.epochs)
    warmup = max(1, int(tc.warmup_ratio * total_steps))

    def lr_lambda(step: int) -> float:
        if step < warmup:
            return (step + 1) / warmup
        return max(0.0, (total_steps - step) / max(1, total_steps - warmup))

    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lr_lambda)
    history: list[dict[str, Any]] = []
    best_f1, best_epoch, start_epoch = -1.0, -1, 0

    ckpt_path = output / CHECKPOINT
    if resume and ckpt_path.exists():
        ckpt = torch.load(ckpt_path, weights_only=False)
        model.load_state_dict(ckpt["model"])
        optimizer.load_state_dict(ckpt["optimizer"])
        scheduler.load_state_dict(ckpt["scheduler"])
        torch.set_rng_state(ckpt["torch_rng"])
        history, best_f1, best_epoch, start_epoch = ckpt["history"], ckpt["best_f1"], ckpt["best_epoch"], ckpt["epoch"] + 1
        if show_progress:
            print(f"resuming after epoch {start_epoch} (best dev micro F1 {best_f1:.4f} at epoch {best_epoch + 1})")

    meta_base = {
        "labels": list(BIO_TAGS),
        "encoder": cfg.model.encoder,
        "config": cfg.to_dict(),
        "git_commit": git_commit(),
        "seed": tc.seed,
        "train_paragraphs": len(train_paras),
        "train_tokens": sum(len(p.tokens) for p in train_paras),
        "dev_groups": corpus.dev_groups,
        "dev_paragraphs": len(dev_paras),
    }

    for epoch in range(start_epoch, tc.epochs):
        if epoch - best_epoch > tc.patience and best_epoch >= 0:
            break
        model.train()
        batches = length_batches(lengths, tc.batch_subwords, seed=tc.seed * 1000 + epoch)[:batches_per_epoch]
        bar = tqdm(batches, desc=f"epoch {epoch + 1}/{tc.epochs}", unit="batch", disable=not show_progress,
                   dynamic_ncols=True)
        running, started = 0.0, time.time()
        for k, batch in enumerate(bar):
            loss = model.loss([feats[i] for i in batch])
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_([p for p in model.parameters() if p.requires_grad], 1.0)
            optimizer.step()
            scheduler.step()
            running = loss.item() if k == 0 else 0.98 * running + 0.02 * loss.item()
            bar.set_postfix(loss=f"{running:.4f}")
        scores = evaluate_model(model, dev_paras, tc.batch_subwords * 2)
        f1 = scores["micro"]["f1"]
        history.append({"epoch": epoch + 1, "loss": round(running, 5), "dev": scores,
                        "seconds": round(time.time() - started, 1)})
        improved = f1 > best_f1
        if improved:
            best_f1, best_epoch = f1, epoch
            save_model(model, output, {**meta_base, "epoch": epoch + 1, "dev_scores": scores, "history": history})
        if show_progress:
            tqdm.write(f"epoch {epoch + 1}: loss {running:.4f}  dev micro F1 {f1:.4f}"
                       f"  macro F1 {scores['macro']['f1']:.4f}{'  (best, saved)' if improved else ''}")
        torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(),
                    "scheduler": scheduler.state_dict(), "torch_rng": torch.get_rng_state(), "history": history,
                    "best_f1": best_f1, "best_epoch": best_epoch, "epoch": epoch}, ckpt_path)
        (output / "history.json").write_text(json.dumps(history, indent=2) + "\n", encoding="utf-8")
    return TrainResult(best_f1=best_f1, best_epoch=best_epoch + 1, history=history, output=output)
