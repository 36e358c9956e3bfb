"""``train()``: the one entry point of NER training, which picks the task (gold tags, or a
student with soft labels as well) and runs it in the one loop."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sciner.config import Config
from sciner.errors import ConfigError
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


def run_config(config: str | Path | None, overrides: Sequence[str], *, files: Sequence[str | Path] = (),
                    dev: Sequence[str | Path] = (), with_shared: bool = False, init: str | None = None) -> Config:
    """The config of a run: ``config`` and ``overrides`` (``--set``), with your annotation
    ``files`` and ``dev`` papers (absolute, so calibration and resume read the same ones from
    any folder), and with ``init``: the model to train on, whose network replaces ``[model]``
    and whose small-data schedule (``train.init_schedule``) goes under ``overrides``."""
    from sciner.config import load_config
    from sciner.model.store import load_model_meta, model_directory

    cfg = load_config(config, list(overrides))
    if init:
        cfg = load_config(config, [*cfg.train.init_schedule, *overrides])
        path = model_directory(init)  # a shipped model's name (default, fast), else a folder, as --model
        cfg.model = load_model_meta(path)[0].model
        cfg.train.init = str(path.resolve())
    if files:
        cfg.data.files = [str(Path(f).resolve()) for f in files]
        cfg.data.dev_files = [str(Path(f).resolve()) for f in dev]
        cfg.data.with_shared = cfg.data.with_shared or with_shared
    elif dev or with_shared:
        raise ConfigError("--dev and --with-shared go with your annotation files: sciner train FILES... -o RUN")
    cfg.validate()
    return cfg


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
