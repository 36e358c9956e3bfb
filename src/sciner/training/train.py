"""``train()``: the one entry point of NER training, which picks the task (gold tags, or a
student with soft labels as well) and runs it in the one loop."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sciner.config import Config
from sciner.data.assemble import Corpus
from sciner.training.loop import run
from sciner.training.ner import NerTask
from sciner.training.soft import SoftLabelTask


@dataclass
class TrainResult:
    best_f1: float
    best_epoch: int
    history: list[dict[str, Any]]
    output: Path


def train(cfg: Config, output: str | Path, *, resume: bool = False, corpus: Corpus | None = None,
          show_progress: bool = True, resume_command: str | None = None) -> TrainResult:
    """Train a model as ``cfg`` says; the best epoch (by dev micro F1) is saved to ``output``.

    With ``distill.soft_labels`` set, the model is a student learning from them as well
    (:class:`~sciner.training.soft.SoftLabelTask`). A checkpoint is saved every
    ``train.checkpoint_every_steps`` batches and after each epoch. Ctrl-C or SIGTERM saves one
    after the current step and prints ``resume_command`` (the CLI passes the user's own
    command line); ``resume=True`` continues from the checkpoint exactly as if the run had not
    stopped.
    """
    task = SoftLabelTask(cfg, corpus) if cfg.distill.soft_labels else NerTask(cfg, corpus)
    at = run(task, output, resume=resume, show_progress=show_progress, resume_command=resume_command)
    return TrainResult(best_f1=at.best_f1, best_epoch=at.best_epoch + 1, history=at.history, output=Path(output))
