"""The one training loop: every run (NER training, a student learning from soft labels,
span-masking pretraining) is a :class:`Task` fed to :func:`training_steps`, which sets it up
(:func:`prepare_run`) and trains it (:func:`run_steps`, a generator in the manner of spaCy's
``train_while_improving`` that yields after each optimizer step and each epoch).

A task supplies its model, batches, loss, and (if it has one) its evaluation; the loop owns
everything else, once: the set-up (device, threads and seeds, AdamW with its linear schedule,
resume) in a :class:`TrainingRun`, and the steps (clipping, the loss curve ``loss.tsv``, step
and epoch checkpoints, evaluation, the best score and early stopping, Ctrl-C and SIGTERM, the
progress bar).

Checkpoints (what they hold, how they are written and checked on resume) are
:mod:`sciner.training.checkpoints`.
"""

from __future__ import annotations

import contextlib
import dataclasses
import enum
import json
import random
import signal
import sys
import threading
import time
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Protocol

import numpy as np
import torch

from sciner.config import Config
from sciner.model.device import autocast, pick_device
from sciner.outputs import write_atomic
from sciner.training.checkpoints import CHECKPOINT, checkpoint_to_resume, restore_training_state, save_training_state

LOSS_FILE = "loss.tsv"
HISTORY_FILE = "history.json"


def parameter_groups(model: torch.nn.Module, weight_decay: float, lr: float, head_lr: float) -> list[dict[str, Any]]:
    """Encoder at ``lr``, everything else (heads) at ``head_lr``; weight decay on matrices
    only (not on biases or LayerNorm), as in BERT. Frozen parameters are left out.

    A weight shared by two modules (a tied output layer) counts once, as the encoder's,
    because the encoder's parameters come first.
    """
    groups: dict[tuple[bool, bool], list[torch.nn.Parameter]] = {}
    seen: set[int] = set()
    for name, param in model.named_parameters():
        if not param.requires_grad or id(param) in seen:
            continue
        seen.add(id(param))
        groups.setdefault((not name.startswith("encoder."), param.ndim >= 2), []).append(param)
    return [
        {"params": params, "lr": head_lr if is_head else lr, "weight_decay": weight_decay if matrix else 0.0}
        for (is_head, matrix), params in sorted(groups.items())
    ]


def linear_schedule(warmup: int, total: int, time_left: Callable[[], float] | None = None) -> Callable[[int], float]:
    """Learning-rate factor of each step: linear warmup over ``warmup`` steps, then linear decay to 0 at ``total``,
    or sooner where ``time_left`` (the share of a time limit still to run, 1 to 0) is lower: a run with a
    limit ends its decay when its time does, whichever comes first."""

    def factor(step: int) -> float:
        if step < warmup:
            return (step + 1) / max(1, warmup)
        by_steps = max(0.0, (total - step) / max(1, total - warmup))
        return by_steps if time_left is None else min(by_steps, max(0.0, time_left()))

    return factor


def make_optimizer(model: torch.nn.Module, *, lr: float, head_lr: float, weight_decay: float,
                   warmup: int, total: int, time_left: Callable[[], float] | None = None
                   ) -> tuple[torch.optim.Optimizer, Any]:
    """AdamW over :func:`parameter_groups` and its :func:`linear_schedule`."""
    optimizer = torch.optim.AdamW(parameter_groups(model, weight_decay, lr, head_lr), betas=(0.9, 0.999), eps=1e-8)
    return optimizer, torch.optim.lr_scheduler.LambdaLR(optimizer, linear_schedule(warmup, total, time_left))


def read_ahead(items: Iterator[Any], depth: int = 4) -> Iterator[Any]:
    """``items`` made by a background thread up to ``depth`` ahead, in their order: a task's batch
    making (pretraining's span masking) overlaps the optimizer step. Its exception is raised here;
    closing this generator stops the thread and closes ``items``."""
    import queue
    import threading

    done, stop = object(), threading.Event()
    made: queue.Queue = queue.Queue(maxsize=depth)

    def put(item: Any) -> bool:
        while not stop.is_set():
            try:
                made.put(item, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def work() -> None:
        try:
            for item in items:
                if not put((item, None)):
                    return
            put((done, None))
        except BaseException as error:  # noqa: BLE001 - handed to the consumer
            put((done, error))
        finally:
            close = getattr(items, "close", None)
            if close is not None:
                close()

    thread = threading.Thread(target=work, name="sciner-read-ahead", daemon=True)
    thread.start()
    try:
        while True:
            item, error = made.get()
            if item is done:
                if error is not None:
                    raise error
                return
            yield item
    finally:
        stop.set()
        thread.join()


class StopRequest:
    """Set by Ctrl-C or SIGTERM while training; the loop checks it between steps."""

    def __init__(self) -> None:
        self.requested = False


@contextlib.contextmanager
def interruptible(resume_command: str) -> Iterator[StopRequest]:
    """Turn the first Ctrl-C or SIGTERM into a request that the loop honours between steps
    (see :func:`stop_if_requested`), so the checkpoint it saves is a consistent one; a second
    one interrupts at once."""
    stop = StopRequest()
    if threading.current_thread() is not threading.main_thread():  # signals only reach the main thread
        yield stop
        return

    def request(signum: int, frame: Any) -> None:
        if stop.requested:
            raise KeyboardInterrupt
        stop.requested = True
        print(f"\nstopping after this step; then continue with: {resume_command}", file=sys.stderr)

    previous = {s: signal.signal(s, request) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield stop
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)


def stop_if_requested(stop: StopRequest, save: Callable[[], Path], resume_command: str) -> None:
    """If a stop was requested: save a checkpoint and raise KeyboardInterrupt, naming the resume command."""
    if stop.requested:
        path = save()
        print(f"interrupted: checkpoint saved to {path}; continue with: {resume_command}", file=sys.stderr)
        raise KeyboardInterrupt


@dataclass
class Schedule:
    """How a task is optimised: AdamW's peak learning rates (encoder, heads) and decay, and
    the linear schedule's warmup and total steps."""

    lr: float
    head_lr: float
    weight_decay: float
    warmup: int
    total: int


@dataclass
class Progress:
    """Where a run stands; saved in every checkpoint, so a resumed run goes on from here."""

    step: int = 0  # optimizer steps done over the whole run
    epoch: int = 0  # epochs done (pretraining's stream is one long epoch)
    batch: int = 0  # steps done in the current epoch
    running: float = 0.0  # the loss's running mean in this epoch (the bar's, and history's)
    elapsed: float = 0.0  # seconds of training over every invocation of the run
    best_f1: float = -1.0  # the best evaluation so far (dev micro F1), and its epoch (0-based)
    best_epoch: int = -1
    history: list[dict[str, Any]] = field(default_factory=list)  # one record per evaluated epoch
    position: dict[str, Any] = field(default_factory=dict)  # the task's place in a data stream

    def snapshot(self) -> "Progress":
        """A copy that later steps leave as it is."""
        return dataclasses.replace(self, history=list(self.history), position=dict(self.position))


@dataclass
class TrainingUpdate:
    """What :func:`training_steps` yields: after each optimizer step, its ``losses``; after each
    epoch (``losses`` empty), the dev ``scores`` (None if the task does not evaluate) and
    whether they were the best so far."""

    progress: Progress
    losses: dict[str, float]
    scores: dict[str, Any] | None = None
    improved: bool = False


class Task(Protocol):
    """One kind of training the loop runs (see :mod:`sciner.training.ner`, :mod:`sciner.training.soft`
    and :mod:`sciner.pretrain.task`)."""

    cfg: Config
    # The verb that runs it, for the resume hint ("train", "pretrain", ...).
    verb: str
    # Config fields (dotted names or whole sections) a resumed run must keep.
    resume_fixed: Sequence[str]
    # Parts of the loss logged beside the total in loss.tsv (pretraining: mlm, sbo).
    loss_parts: Sequence[str]
    # Epochs of the run, and early stopping: stop after this many epochs without a better
    # evaluation (None: the task does not evaluate).
    epochs: int
    patience: int | None
    # Optional (read with getattr, default False): score and keep the starting model before
    # the first step, as "epoch 0" (a trained model trained on).
    # evaluate_first: bool

    def prepare(self, device: torch.device) -> tuple[torch.nn.Module, Schedule]:
        """Build the model (on ``device``) and data; called once the seeds are set."""

    def steps_per_epoch(self) -> int:
        """Optimizer steps in each epoch."""

    def summary(self, device: torch.device) -> str:
        """What the run is about to do, printed before its first step ("" = nothing)."""

    def batches(self, at: Progress) -> Iterator[tuple[Any, dict[str, Any]]]:
        """The rest of the current epoch from ``at``: ``(batch, position after it)``."""

    def loss(self, batch: Any, step: int) -> dict[str, torch.Tensor]:
        """The losses of a batch at global step ``step``: ``"loss"`` (the one minimised) and the parts."""

    def evaluate(self) -> dict[str, Any] | None:
        """Scores on the dev data after an epoch (``{"micro": {"f1": ...}, ...}``), or None."""

    def save_best(self, output: Path, at: Progress, scores: dict[str, Any]) -> None:
        """Save the model after an epoch that evaluated better than every earlier one."""

    def finish(self, output: Path, at: Progress) -> None:
        """Save what the whole run makes, after its last epoch (pretraining: the encoder)."""


def seed_everything(seed: int) -> None:
    """Seed Python's, NumPy's and torch's generators: the same seed gives the same run."""
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


@dataclass(frozen=True)
class TimeLimit:
    """``train.max_minutes`` of this invocation: the run stops there as if at its last epoch,
    its learning rate decayed by then. ``seconds`` None: no limit."""

    seconds: float | None
    begun: float

    def left(self) -> float:
        """The share of the limit still to run, 1 to 0 (or below); always 1 without a limit."""
        return 1.0 - (time.monotonic() - self.begun) / self.seconds if self.seconds else 1.0

    def reached(self) -> bool:
        return bool(self.seconds and self.left() <= 0)


@dataclass
class TrainingRun:
    """A task set up to train (what PyTorch Lightning's Trainer owns, and spaCy's ``train``
    before its loop): the device, the model with its optimizer and schedule, where the run
    stands (new, or restored from ``output``'s checkpoint) and this invocation's limits.
    :func:`prepare_run` makes one; :func:`run_steps` trains it."""

    task: Task
    output: Path
    device: torch.device
    model: torch.nn.Module
    optimizer: torch.optim.Optimizer
    scheduler: Any
    trainable: list[torch.nn.Parameter]  # what the gradients are clipped over
    at: Progress  # where the run stands; the loop moves it on
    per_epoch: int  # optimizer steps in each epoch
    resumed: bool  # restored from a checkpoint
    command: str  # what continues the run, printed when it is stopped
    limit: TimeLimit
    last: int | None  # the step this invocation stops after (``stop_after``), None: no such stop
    started: float  # when the run began, on this invocation's clock (``at.elapsed`` before it)

    def finished(self) -> bool:
        """All epochs done, or patience run out."""
        return self.at.epoch >= self.task.epochs or _stopped_early(self.at, self.task.patience,
                                                                   self.task.cfg.train.min_epochs)

    def update(self, batch: Any) -> dict[str, float]:
        """One optimizer step on ``batch`` (its losses, the gradients clipped, the schedule
        stepped); the step's losses."""
        with autocast(self.device):
            losses = self.task.loss(batch, self.at.step)
        self.optimizer.zero_grad(set_to_none=True)
        losses["loss"].backward()
        torch.nn.utils.clip_grad_norm_(self.trainable, self.task.cfg.train.max_grad_norm)
        self.optimizer.step()
        self.scheduler.step()
        return {name: value.item() for name, value in losses.items()}

    def checkpoint(self) -> Path:
        """Save the training state (model, optimizer, schedule, progress) to ``output``."""
        self.at.elapsed = time.monotonic() - self.started
        return save_training_state(self.output / CHECKPOINT, self.task.cfg.to_dict(), self.model, self.optimizer,
                                   self.scheduler, **dataclasses.asdict(self.at))


def prepare_run(task: Task, output: str | Path, *, resume: bool = False, show_progress: bool = True,
                resume_command: str | None = None, stop_after: int | None = None) -> TrainingRun:
    """Set ``task`` up to train into ``output``: device, threads and seeds, the task's model and
    data, AdamW with its linear schedule, and with ``resume`` the state of ``output``'s checkpoint
    (refused if the config changed where the task says it must not). Trains nothing and writes
    nothing; with ``show_progress`` it prints the task's summary and where a resumed run stands."""
    output = Path(output)
    tc = task.cfg.train
    checkpoint_path = checkpoint_to_resume(output, resume)
    device = pick_device(tc.device)
    torch.set_num_threads(tc.threads)
    seed_everything(tc.seed)
    model, schedule = task.prepare(device)
    limit = TimeLimit(tc.max_minutes * 60 if tc.max_minutes > 0 else None, time.monotonic())
    optimizer, scheduler = make_optimizer(model, lr=schedule.lr, head_lr=schedule.head_lr,
                                          weight_decay=schedule.weight_decay, warmup=schedule.warmup,
                                          total=schedule.total, time_left=limit.left if limit.seconds else None)
    per_epoch = task.steps_per_epoch()
    at = Progress()
    changes: list[str] = []
    if checkpoint_path is not None:  # restored before the summary: a bad checkpoint is the only line printed
        restored, changes = restore_training_state(checkpoint_path, task.cfg.to_dict(), task.resume_fixed, model,
                                                   optimizer, scheduler)
        at = _progress(restored, per_epoch)
    training = TrainingRun(task, output, device, model, optimizer, scheduler,
                           trainable=[p for p in model.parameters() if p.requires_grad], at=at, per_epoch=per_epoch,
                           resumed=checkpoint_path is not None,
                           command=resume_command or f"sciner {task.verb} --resume -o {output} (same config)",
                           limit=limit, last=at.step + stop_after if stop_after is not None else None,
                           started=time.monotonic() - at.elapsed)
    if show_progress:
        if text := task.summary(device):
            print(text, file=sys.stderr)
        if training.resumed:
            print(f"resuming at {_where(at)}" + (f"; changed since: {', '.join(changes)}" if changes else ""),
                  file=sys.stderr)
            if training.finished():
                print(f"the run is finished ({at.epoch} of {task.epochs} epochs); to go on, raise train.epochs "
                      "(or train.patience)", file=sys.stderr)
    return training


def training_steps(task: Task, output: str | Path, *, resume: bool = False, show_progress: bool = True,
                   resume_command: str | None = None, stop_after: int | None = None) -> Iterator[TrainingUpdate]:
    """Run ``task`` (or resume it from ``output``'s checkpoint): :func:`prepare_run`, then
    :func:`run_steps`, yielding a :class:`TrainingUpdate` after each optimizer step and after each epoch."""
    training = prepare_run(task, output, resume=resume, show_progress=show_progress, resume_command=resume_command,
                           stop_after=stop_after)
    yield from run_steps(training, show_progress=show_progress)


class EpochEnd(enum.Enum):
    """How :func:`_epoch_steps` ended an epoch."""

    DONE = "its batches ran out"
    OUT_OF_TIME = "its batches ran out as the time limit was reached"
    CUT = "the time limit was reached inside it"
    STOPPED = "this invocation's stop_after steps were done inside it"


def run_steps(training: TrainingRun, *, show_progress: bool = True) -> Iterator[TrainingUpdate]:
    """Train a prepared run to its end, in the manner of spaCy's ``train_while_improving``: the
    epochs' steps, an evaluation after each epoch that tracks the best score and patience, and
    a :class:`TrainingUpdate` after each step and each epoch.

    Checkpoints: every ``train.checkpoint_every_steps`` steps, after each epoch, when
    ``stop_after`` steps of this invocation are done, and on the first Ctrl-C/SIGTERM (then the
    resume command is printed and KeyboardInterrupt raised). ``loss.tsv`` gets the mean losses
    of every ``train.log_every`` steps; ``history.json`` the evaluations. A run that ends
    (its epochs, its patience or its time) is finished: the task saves what it makes, and the
    checkpoint goes unless ``train.keep_checkpoint``.
    """
    task, at, tc = training.task, training.at, training.task.cfg.train
    out_of_time = False
    with LossLog(training.output / LOSS_FILE, task.loss_parts, keep_until=at.step) as log:
        if not training.resumed and getattr(task, "evaluate_first", False):
            _evaluate(training, time.monotonic(), show_progress, start=True)
        with interruptible(training.command) as stop:
            while not training.finished():
                epoch_started = time.monotonic()
                end = yield from _epoch_steps(training, log, stop, show_progress)
                if end is EpochEnd.STOPPED:
                    return
                # Evaluated at the epoch's end, or where the time limit cut it.
                scores, improved = _evaluate(training, epoch_started, show_progress)
                if end is not EpochEnd.CUT:
                    at.epoch, at.batch = at.epoch + 1, 0
                training.checkpoint()
                yield TrainingUpdate(at.snapshot(), {}, scores, improved)
                out_of_time = end in (EpochEnd.OUT_OF_TIME, EpochEnd.CUT) or (training.limit.reached()
                                                                             and at.epoch < task.epochs)
                if at.step == training.last or out_of_time:
                    break
    if out_of_time and show_progress:
        print(f"stopped at the time limit (train.max_minutes={tc.max_minutes:g}) at {_where(at)}", file=sys.stderr)
    if out_of_time or training.finished():
        task.finish(training.output, at)
        if not tc.keep_checkpoint:  # the run is done: the model stays, the optimizer's state goes
            (training.output / CHECKPOINT).unlink(missing_ok=True)


def _epoch_steps(training: TrainingRun, log: LossLog, stop: StopRequest,
                 show_progress: bool) -> Generator[TrainingUpdate, None, EpochEnd]:
    """The rest of the current epoch's steps, a :class:`TrainingUpdate` after each; how it ended."""
    from tqdm import tqdm  # lazy: tqdm at start-up costs every verb

    task, at, tc = training.task, training.at, training.task.cfg.train
    out_of_time = False
    training.model.train()
    with tqdm(total=training.per_epoch, initial=at.batch, desc=f"epoch {at.epoch + 1}/{task.epochs}", unit="step",
              disable=not show_progress, dynamic_ncols=True, mininterval=1.0 if sys.stderr.isatty() else 30.0) as bar, \
            contextlib.closing(task.batches(at)) as batches:  # closed (files too) when stopped mid-epoch
        for batch, position in batches:
            stop_if_requested(stop, training.checkpoint, training.command)
            values = training.update(batch)
            at.running = values["loss"] if at.batch == 0 else 0.98 * at.running + 0.02 * values["loss"]
            at.step, at.batch, at.position = at.step + 1, at.batch + 1, position
            epoch_done, stopping = at.batch == training.per_epoch, at.step == training.last
            out_of_time = training.limit.reached()
            log.add(at.step, values, training.scheduler.get_last_lr()[0], time.monotonic() - training.started,
                    flush=at.step % tc.log_every == 0 or epoch_done or stopping or out_of_time)
            # An epoch's last step is followed by the epoch's own checkpoint.
            if not epoch_done and (stopping or _due(at.step, tc.checkpoint_every_steps)):
                training.checkpoint()
            bar.update(1)
            bar.set_postfix(loss=f"{at.running:.4f}", **_best(at), refresh=False)
            yield TrainingUpdate(at.snapshot(), values)
            if stopping and not epoch_done:
                return EpochEnd.STOPPED
            if out_of_time and not epoch_done:
                return EpochEnd.CUT
    return EpochEnd.OUT_OF_TIME if out_of_time else EpochEnd.DONE


def _evaluate(training: TrainingRun, began: float, show_progress: bool, *,
              start: bool = False) -> tuple[dict[str, Any] | None, bool]:
    """The task's dev scores (None if it does not evaluate), recorded; and whether they are the best so far."""
    scores = training.task.evaluate()
    improved = scores is not None and _record(training.task, training.output, training.at, scores,
                                              time.monotonic() - began, show_progress, start=start)
    return scores, improved


def run(task: Task, output: str | Path, **options: Any) -> Progress:
    """Run :func:`training_steps` to its end (or to ``stop_after``) and return where it stands."""
    at = Progress()
    for step in training_steps(task, output, **options):
        at = step.progress
    return at


def _progress(restored: dict[str, Any], per_epoch: int) -> Progress:
    """The :class:`Progress` of a checkpoint, also of an older one that counted only epochs and
    batches (NER) or only steps (pretraining)."""
    known = {f.name for f in dataclasses.fields(Progress)}
    at = Progress(**{k: v for k, v in restored.items() if k in known})
    if "step" not in restored:
        at.step = at.epoch * per_epoch + at.batch
    if "batch" not in restored:
        at.batch = at.step - at.epoch * per_epoch
    return at


def _record(task: Task, output: Path, at: Progress, scores: dict[str, Any], seconds: float,
            show_progress: bool, *, start: bool = False) -> bool:
    """Add an epoch's dev ``scores`` to the history (and history.json); save the model if they
    are the best so far, which is returned. ``start``: the scores of the model a run starts
    from (a trained model trained on), "epoch 0", kept whatever they are: an epoch must beat
    them to replace it, so training on cannot leave a worse model behind."""
    from tqdm import tqdm

    f1 = scores["micro"]["f1"]
    at.history.append({"epoch": 0 if start else at.epoch + 1, "loss": None if start else round(at.running, 5),
                       "dev": scores, "seconds": round(seconds, 1)})
    improved = start or f1 > at.best_f1
    if improved:
        at.best_f1, at.best_epoch = f1, -1 if start else at.epoch
        task.save_best(output, at, scores)
    write_atomic(output / HISTORY_FILE, json.dumps(at.history, indent=2) + "\n")
    if show_progress and start:
        print(f"epoch 0 (the model trained on): dev micro F1 {f1:.4f}  macro F1 {scores['macro']['f1']:.4f}",
              file=sys.stderr)
    elif show_progress:
        tqdm.write(f"epoch {at.epoch + 1}: loss {at.running:.4f}  dev micro F1 {f1:.4f}"
                   f"  macro F1 {scores['macro']['f1']:.4f}{'  (best, saved)' if improved else ''}")
    return improved


def _due(step: int, every: int) -> bool:
    return every > 0 and step % every == 0


def _stopped_early(at: Progress, patience: int | None, min_epochs: int = 0) -> bool:
    """Patience runs out: this many epochs without a better dev score, counted only once the
    score has moved above 0 and ``min_epochs`` are done (a small run's first epochs may learn
    nothing the dev score shows)."""
    return (patience is not None and at.best_f1 > 0 and at.epoch >= min_epochs
            and at.epoch - at.best_epoch > patience)


def _where(at: Progress) -> str:
    best = f" (best dev micro F1 {at.best_f1:.4f} at epoch {at.best_epoch + 1})" if at.history else ""
    return f"epoch {at.epoch + 1}, batch {at.batch} (step {at.step}){best}"


def _best(at: Progress) -> dict[str, str]:
    return {"dev_f1": f"{at.history[-1]['dev']['micro']['f1']:.4f}"} if at.history else {}


class LossLog:
    """``loss.tsv``: ``step, loss, <the task's parts>, lr, elapsed_s``, each row the mean over
    the steps since the last one. Opening it drops rows after ``keep_until`` (steps a resumed
    run does again)."""

    def __init__(self, path: Path, parts: Sequence[str], keep_until: int) -> None:
        self.columns = ["loss", *parts]
        rows: list[str] = []
        if keep_until > 0 and path.exists():
            rows = [line for line in path.read_text(encoding="utf-8").splitlines(keepends=True)[1:]
                    if int(line.split("\t", 1)[0]) <= keep_until]
        path.parent.mkdir(parents=True, exist_ok=True)
        self.handle: IO[str] = open(path, "w", encoding="utf-8")
        self.handle.write("\t".join(["step", *self.columns, "lr", "elapsed_s"]) + "\n")
        self.handle.writelines(rows)
        self.handle.flush()
        self.window: list[list[float]] = []

    def add(self, step: int, losses: dict[str, float], lr: float, elapsed: float, flush: bool) -> None:
        """Count one step's losses; with ``flush``, write the row of the steps counted so far."""
        self.window.append([losses[name] for name in self.columns])
        if flush:
            means = (float(np.mean(column)) for column in zip(*self.window))
            self.handle.write("\t".join([str(step), *(f"{m:.4f}" for m in means), f"{lr:.3e}", f"{elapsed:.1f}"])
                              + "\n")
            self.handle.flush()
            self.window = []

    def __enter__(self) -> "LossLog":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.handle.close()


def read_loss_curve(output: str | Path) -> list[dict[str, float]]:
    """The rows of a run's loss.tsv as dicts (for plots and reports)."""
    lines = (Path(output) / LOSS_FILE).read_text(encoding="utf-8").splitlines()
    header = lines[0].split("\t")
    return [dict(zip(header, map(float, line.split("\t")))) for line in lines[1:] if line]
