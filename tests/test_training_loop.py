"""The one training loop, run by NER training, distillation and pretraining: a toy task
through the generator itself (steps, loss curve, checkpoints, stop and resume, early
stopping), parameter groups, schedule, devices, checkpoints that load without running code,
resume rules, interrupts."""

from __future__ import annotations

import os
import pickle
import random
import signal
import sys
from pathlib import Path

import numpy as np
import pytest
import torch
from torch import nn

from sciner.config import Config
from sciner.errors import ConfigError, ModelError
from sciner.model.device import pick_device
from sciner.training.checkpoints import (
    CHECKPOINT, check_resume, load_checkpoint, rng_state, save_checkpoint, set_rng_state,
)
from sciner.training.loop import Progress, Schedule, linear_schedule, parameter_groups, read_loss_curve, training_steps

from helpers.training import Payload, tiny_config


class Toy(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(4, 4), nn.LayerNorm(4))
        self.head = nn.Linear(4, 2)
        self.frozen = nn.Linear(2, 2)
        self.frozen.weight.requires_grad_(False)


def test_weight_decay_on_matrices_only_and_head_learning_rate():
    model = Toy()
    groups = parameter_groups(model, weight_decay=0.01, lr=1e-4, head_lr=1e-3)
    by_param = {id(p): g for g in groups for p in g["params"]}
    assert (by_param[id(model.encoder[0].weight)]["lr"], by_param[id(model.encoder[0].weight)]["weight_decay"]) == (1e-4, 0.01)
    assert by_param[id(model.encoder[1].weight)]["weight_decay"] == 0.0  # LayerNorm
    assert by_param[id(model.encoder[0].bias)]["weight_decay"] == 0.0
    assert (by_param[id(model.head.weight)]["lr"], by_param[id(model.head.weight)]["weight_decay"]) == (1e-3, 0.01)
    assert id(model.frozen.weight) not in by_param
    assert sum(len(g["params"]) for g in groups) == len([p for p in model.parameters() if p.requires_grad])


def test_linear_warmup_then_decay_to_zero():
    factor = linear_schedule(warmup=4, total=12)
    assert [factor(s) for s in range(4)] == [0.25, 0.5, 0.75, 1.0]
    assert factor(8) == pytest.approx(0.5) and factor(12) == 0.0 and factor(20) == 0.0


def test_devices():
    assert pick_device("cpu") == torch.device("cpu")
    assert pick_device("auto").type == ("cuda" if torch.cuda.is_available() else "cpu")
    with pytest.raises(ConfigError, match="device must be one of auto, cpu, cuda"):
        pick_device("gpu")
    if not torch.cuda.is_available():
        with pytest.raises(ConfigError, match="no CUDA device"):
            pick_device("cuda")


def test_rng_states_survive_a_weights_only_checkpoint(tmp_path):
    random.seed(1), np.random.seed(2), torch.manual_seed(3)
    save_checkpoint(tmp_path / CHECKPOINT, {"config": {}, "rng": rng_state()})
    expected = (random.random(), np.random.rand(), torch.rand(1).item())
    random.seed(9), np.random.seed(9), torch.manual_seed(9)
    set_rng_state(load_checkpoint(tmp_path / CHECKPOINT)["rng"])
    assert (random.random(), np.random.rand(), torch.rand(1).item()) == expected


def test_a_crafted_checkpoint_runs_no_code(tmp_path):
    marker = tmp_path / "pwned"
    torch.save({"config": {}, "model": Payload(marker)}, tmp_path / CHECKPOINT)
    with pytest.raises(ModelError, match="not a readable sciner checkpoint"):
        load_checkpoint(tmp_path / CHECKPOINT)
    assert not marker.exists()
    # Loaded as the old code did, the same file runs the payload: the test's payload is real.
    torch.load(tmp_path / CHECKPOINT, weights_only=False)
    assert marker.exists()


@pytest.mark.parametrize("content", [b"", b"PK\x03\x04 truncated", pickle.dumps([1, 2, 3], protocol=2)],
                         ids=["empty", "truncated", "not-a-checkpoint"])
def test_a_damaged_checkpoint_is_a_one_line_model_error(tmp_path, content):
    (tmp_path / CHECKPOINT).write_bytes(content)
    with pytest.raises(ModelError) as err:
        load_checkpoint(tmp_path / CHECKPOINT)
    assert "\n" not in str(err.value) and "delete it to start again" in str(err.value)


def test_a_truncated_real_checkpoint_is_refused(tmp_path):
    save_checkpoint(tmp_path / CHECKPOINT, {"config": {"seed": 1}, "w": torch.randn(1000)})
    data = (tmp_path / CHECKPOINT).read_bytes()
    (tmp_path / CHECKPOINT).write_bytes(data[: len(data) // 2])
    with pytest.raises(ModelError):
        load_checkpoint(tmp_path / CHECKPOINT)


def test_resume_rules_name_what_changed():
    saved = {"model": {"head": "bio", "window": 256}, "train": {"seed": 13, "threads": 2}}
    check_resume(saved, {"model": {"head": "bio", "window": 256}, "train": {"seed": 13, "threads": 1}},
                 fixed=("model", "train.seed"))
    with pytest.raises(ConfigError, match=r"changed model.window, train.seed since the checkpoint"):
        check_resume(saved, {"model": {"head": "bio", "window": 128}, "train": {"seed": 1, "threads": 2}},
                     fixed=("model", "train.seed"))


# --- the loop itself, on a task of a few lines ---


class Regression:
    """A task for the loop: fit a linear map on fixed random batches, 8 steps an epoch; its
    "dev scores" are given in advance, to drive early stopping."""

    verb = "toy"
    resume_fixed = ("train.seed",)
    loss_parts = ("half",)

    def __init__(self, cfg: Config, scores: list[float] | None = None, epochs: int = 3, patience: int | None = None):
        self.cfg, self.scores, self.epochs, self.patience = cfg, scores, epochs, patience
        self.saved: list[int] = []
        self.finished = 0

    def prepare(self, device):
        self.model = Toy().to(device)
        return self.model, Schedule(lr=1e-2, head_lr=1e-2, weight_decay=0.0, warmup=2, total=8 * self.epochs)

    def steps_per_epoch(self) -> int:
        return 8

    def summary(self, device) -> str:
        return ""

    def batches(self, at: Progress):
        for i in range(at.batch, 8):
            g = torch.Generator().manual_seed(1000 * at.epoch + i)
            yield torch.randn(16, 4, generator=g), {"seen": at.step + 1}

    def loss(self, batch, step):
        target = batch[:, :2] * 3 - 1
        loss = ((self.model.head(self.model.encoder(batch)) - target) ** 2).mean()
        return {"loss": loss, "half": loss / 2}

    def evaluate(self):
        if self.scores is None:
            return None
        f1 = self.scores.pop(0)
        return {"micro": {"f1": f1}, "macro": {"f1": f1}}

    def save_best(self, output, at, scores):
        self.saved.append(at.best_epoch + 1)

    def finish(self, output, at):
        self.finished += 1


def _toy_config(**train) -> Config:
    cfg = Config()
    cfg.train.threads, cfg.train.device, cfg.train.log_every, cfg.train.checkpoint_every_steps = 1, "cpu", 3, 5
    for key, value in train.items():
        setattr(cfg.train, key, value)
    return cfg


def test_the_loop_yields_every_step_and_epoch_and_logs_the_loss_parts(tmp_path):
    task = Regression(_toy_config(keep_checkpoint=True))
    steps = list(training_steps(task, tmp_path, show_progress=False))
    assert [s.progress.step for s in steps if s.losses] == list(range(1, 25))
    assert sum(1 for s in steps if not s.losses) == 3  # one per epoch, without scores: the task does not evaluate
    curve = read_loss_curve(tmp_path)
    # Every log_every (3) steps and at each epoch's end (8, 16, 24).
    assert [row["step"] for row in curve] == [3, 6, 8, 9, 12, 15, 16, 18, 21, 24]
    assert all(row["half"] == pytest.approx(row["loss"] / 2, abs=1e-4) for row in curve)
    assert curve[-1]["loss"] < curve[0]["loss"]
    assert task.finished == 1 and load_checkpoint(tmp_path / CHECKPOINT)["progress"]["position"] == {"seen": 24}


def test_the_loop_checkpoints_every_n_steps_and_after_each_epoch(tmp_path, monkeypatch):
    import sciner.training.loop as loop

    saved, real_save = [], loop.save_training_state

    def recording(path, config, model, optimizer, scheduler, **progress):
        saved.append(progress["step"])
        return real_save(path, config, model, optimizer, scheduler, **progress)

    monkeypatch.setattr(loop, "save_training_state", recording)
    loop.run(Regression(_toy_config(), epochs=2), tmp_path, show_progress=False)
    assert saved == [5, 8, 10, 15, 16]  # every 5 steps, but an epoch's end (8, 16) is its own checkpoint


def test_stopped_after_n_steps_and_resumed_the_loop_ends_like_a_straight_run(tmp_path):
    from sciner.training.loop import run

    straight = Regression(_toy_config())
    run(straight, tmp_path / "straight", show_progress=False)
    stopped = Regression(_toy_config())
    at = run(stopped, tmp_path / "run", show_progress=False, stop_after=12)  # mid-epoch, on a loss row
    assert (at.step, at.epoch, at.batch, stopped.finished) == (12, 1, 4, 0)
    with pytest.raises(ConfigError, match="changed train.seed"):
        run(Regression(_toy_config(seed=14)), tmp_path / "run", resume=True, show_progress=False)
    resumed = Regression(_toy_config())
    at = run(resumed, tmp_path / "run", resume=True, show_progress=False)
    assert (at.step, resumed.finished) == (24, 1)
    assert read_loss_curve(tmp_path / "run") == [
        {**row, "elapsed_s": pytest.approx(row["elapsed_s"], abs=60)} for row in read_loss_curve(tmp_path / "straight")]
    for a, b in zip(straight.model.state_dict().values(), resumed.model.state_dict().values()):
        assert torch.allclose(a, b, atol=1e-6)


def test_setting_up_a_resumed_run_restores_where_it_stood_and_writes_nothing(tmp_path):
    from sciner.training.loop import prepare_run, run

    run(Regression(_toy_config()), tmp_path, show_progress=False, stop_after=12)
    before = {path.name: path.read_bytes() for path in tmp_path.iterdir()}
    training = prepare_run(Regression(_toy_config()), tmp_path, resume=True, show_progress=False, stop_after=3)
    assert training.resumed and (training.at.step, training.at.epoch, training.at.batch) == (12, 1, 4)
    assert training.last == 15 and training.per_epoch == 8 and training.scheduler.last_epoch == 12
    assert {int(s["step"]) for s in training.optimizer.state_dict()["state"].values()} == {12}  # AdamW's moments
    assert {path.name: path.read_bytes() for path in tmp_path.iterdir()} == before
    fresh = prepare_run(Regression(_toy_config()), tmp_path / "new", show_progress=False)
    assert not fresh.resumed and fresh.at == Progress() and fresh.last is None and not (tmp_path / "new").exists()
    assert fresh.optimizer.state_dict()["state"] == {} and fresh.scheduler.last_epoch == 0


def test_the_loop_stops_after_patience_epochs_without_a_better_score(tmp_path):
    task = Regression(_toy_config(), scores=[0.1, 0.3, 0.2, 0.25, 0.9], epochs=5, patience=1)
    at = training_steps(task, tmp_path, show_progress=False)
    evaluated = [s for s in at if s.scores is not None]
    assert [(s.scores["micro"]["f1"], s.improved) for s in evaluated] == [(0.1, True), (0.3, True), (0.2, False)]
    assert task.saved == [1, 2] and task.finished == 1
    assert [h["epoch"] for h in evaluated[-1].progress.history] == [1, 2, 3]


def test_a_time_limit_ends_the_run_mid_epoch_evaluated_finished_and_its_lr_decayed(tmp_path, monkeypatch):
    """train.max_minutes, for a machine lent for minutes: each step takes 10 s of a fake clock, so a
    one-minute limit ends the 3-epoch run in its first epoch, with an evaluation there, the run
    finished (a pretraining encoder saved) and the learning rate decayed by the time it ran out."""
    import sciner.training.loop as loop

    class Clock:
        now = 0.0

        def monotonic(self) -> float:
            return self.now

    clock = Clock()
    monkeypatch.setattr(loop, "time", clock)
    task = Regression(_toy_config(max_minutes=1.0), scores=[0.4, 0.5, 0.6])
    real_loss = task.loss

    def slow_loss(batch, step):
        clock.now += 10.0
        return real_loss(batch, step)

    task.loss = slow_loss
    steps = list(training_steps(task, tmp_path, show_progress=False))
    trained = [s for s in steps if s.losses]
    assert trained[-1].progress.step == 6 and trained[-1].progress.epoch == 0  # 60 s: six steps, mid-epoch
    assert [s.scores["micro"]["f1"] for s in steps if s.scores is not None] == [0.4]
    assert task.finished == 1 and task.saved == [1]
    lr = [row["lr"] for row in read_loss_curve(tmp_path)]
    assert lr[-1] < 0.2 * 1e-2  # the step schedule alone (24 steps) would still be near its peak
    # Time running out on an epoch's last step: that epoch counts as done (8 steps of 10 s, 80 s).
    clock.now = 0.0
    at_end = Regression(_toy_config(max_minutes=80 / 60), scores=[0.4, 0.5, 0.6])
    at_end.loss = lambda batch, step: (setattr(clock, "now", clock.now + 10.0), Regression.loss(at_end, batch, step))[1]
    ended = list(training_steps(at_end, tmp_path / "at-end", show_progress=False))
    assert (ended[-1].progress.step, ended[-1].progress.epoch, ended[-1].progress.batch) == (8, 1, 0)
    assert at_end.finished == 1
    no_limit = Regression(_toy_config(), scores=[0.4, 0.5, 0.6])
    assert sum(1 for s in training_steps(no_limit, tmp_path / "free", show_progress=False) if s.losses) == 24


def test_a_checkpoint_of_an_older_loop_resumes_where_it_stood():
    """NER checkpoints counted epochs and batches, pretraining ones steps: both read as a Progress."""
    from sciner.training.loop import _progress

    ner = _progress({"epoch": 1, "batch": 2, "running": 0.5, "best_f1": 0.4, "best_epoch": 0, "history": []}, 8)
    assert (ner.step, ner.epoch, ner.batch, ner.best_f1) == (10, 1, 2, 0.4)
    pretraining = _progress({"step": 5, "position": {"epoch": 0, "offset": 3}, "elapsed": 2.0}, 30)
    assert (pretraining.step, pretraining.epoch, pretraining.batch, pretraining.position["offset"]) == (5, 0, 5, 3)
    old_flat = {"encoder": "x", "seed": 7, "num_threads": 1, "steps": 30, "output_dir": "runs/p"}
    check_resume(old_flat, {"model": {"encoder": "x"}, "train": {"seed": 7}}, ("model.encoder", "train.seed"))
    with pytest.raises(ConfigError, match="changed train.seed"):
        check_resume(old_flat, {"model": {"encoder": "x"}, "train": {"seed": 8}}, ("model.encoder", "train.seed"))


# --- NER training: interrupts, resume and crafted checkpoints through the real loop ---


def _tiny(tiny_encoder_dir, tiny_data, **changes):
    return tiny_config(tiny_encoder_dir, tiny_data, "bio", **{"epochs": 2, "max_batches_per_epoch": 4, "patience": 5,
                                                             **changes})


def test_sigint_mid_epoch_saves_a_checkpoint_and_resume_ends_like_a_straight_run(
        tmp_path, tiny_encoder_dir, tiny_data, monkeypatch, capsys):
    from sciner.model.network import NERModel
    from sciner.training.train import train

    cfg = _tiny(tiny_encoder_dir, tiny_data)
    straight = train(cfg, tmp_path / "straight", show_progress=False)

    real_loss, calls = NERModel.loss, {"n": 0}

    def loss_then_ctrl_c(self, *args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 6:  # the second batch of epoch 2
            os.kill(os.getpid(), signal.SIGINT)
        return real_loss(self, *args, **kwargs)

    monkeypatch.setattr(NERModel, "loss", loss_then_ctrl_c)
    with pytest.raises(KeyboardInterrupt):
        train(cfg, tmp_path / "run", show_progress=False)
    assert "continue with: sciner train --resume" in capsys.readouterr().err
    monkeypatch.setattr(NERModel, "loss", real_loss)
    with pytest.raises(ConfigError, match="already holds a checkpoint.pt"):
        train(cfg, tmp_path / "run", show_progress=False)  # never over a checkpoint without --resume
    resumed = train(cfg, tmp_path / "run", resume=True, show_progress=False)
    assert [h["epoch"] for h in resumed.history] == [1, 2]
    assert resumed.history[-1]["loss"] == pytest.approx(straight.history[-1]["loss"], rel=1e-5)
    assert resumed.history[-1]["dev"] == straight.history[-1]["dev"]


def test_resume_refuses_a_changed_model(tmp_path, tiny_encoder_dir, tiny_data):
    from sciner.training.train import train

    train(_tiny(tiny_encoder_dir, tiny_data, epochs=1, keep_checkpoint=True), tmp_path, show_progress=False)
    changed = _tiny(tiny_encoder_dir, tiny_data, epochs=1)
    changed.model.window = 64
    with pytest.raises(ConfigError, match="changed model.window"):
        train(changed, tmp_path, resume=True, show_progress=False)


def test_resume_on_a_crafted_checkpoint_fails_in_one_line_without_running_it(cli, tmp_path, tiny_encoder_dir,
                                                                              tiny_data):
    out = tmp_path / "run"
    out.mkdir()
    marker = tmp_path / "pwned"
    torch.save({"config": {}, "model": Payload(marker)}, out / CHECKPOINT)
    proc = cli("train", "--resume", "-o", out, "--data", tiny_data, "--set", f"model.encoder={tiny_encoder_dir}",
               "--set", 'data.dev_groups=["group_c"]', "--set", "train.threads=1", "--device", "cpu")
    assert proc.returncode == ModelError.exit_code, proc.stderr
    assert proc.stderr.startswith("error[E004]: ") and proc.stderr.count("\n") == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    assert not marker.exists()


def test_device_option_is_checked(cli, tmp_path, tiny_data):
    proc = cli("train", "-o", tmp_path / "m", "--data", tiny_data, "--device", "tpu")
    assert proc.returncode == ConfigError.exit_code
    assert proc.stderr.strip() == "error[E005]: device must be one of auto, cpu, cuda, not 'tpu'"


# --- step checkpoints, the summary, and the exact resume command of the CLI ---


def test_a_checkpoint_every_n_steps_as_well_as_every_epoch(tmp_path, tiny_encoder_dir, tiny_data, monkeypatch):
    import sciner.training.loop as loop
    import sciner.training.train as ner

    saved, real_save = [], loop.save_training_state

    def recording_save(path, config, model, optimizer, scheduler, **progress):
        saved.append((progress["epoch"], progress["batch"]))
        return real_save(path, config, model, optimizer, scheduler, **progress)

    monkeypatch.setattr(loop, "save_training_state", recording_save)
    ner.train(_tiny(tiny_encoder_dir, tiny_data, checkpoint_every_steps=3), tmp_path, show_progress=False)
    # 4 batches an epoch: steps 3 and 6 (epoch 2, batch 2), and the end of each epoch.
    assert saved == [(0, 3), (1, 0), (1, 2), (2, 0)]


def test_a_run_killed_after_a_step_checkpoint_resumes_from_it(tmp_path, tiny_encoder_dir, tiny_data, monkeypatch):
    from sciner.model.network import NERModel
    from sciner.training.train import train

    cfg = _tiny(tiny_encoder_dir, tiny_data, checkpoint_every_steps=3)
    straight = train(cfg, tmp_path / "straight", show_progress=False)
    real_loss, calls = NERModel.loss, {"n": 0}

    def loss_then_crash(self, *args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 8:  # after the step-6 checkpoint: a kill -9 would lose batches 7 and 8 only
            raise RuntimeError("killed")
        return real_loss(self, *args, **kwargs)

    monkeypatch.setattr(NERModel, "loss", loss_then_crash)
    with pytest.raises(RuntimeError):
        train(cfg, tmp_path / "run", show_progress=False)
    monkeypatch.setattr(NERModel, "loss", real_loss)
    resumed = train(cfg, tmp_path / "run", resume=True, show_progress=False)
    assert resumed.history[-1]["loss"] == pytest.approx(straight.history[-1]["loss"], rel=1e-5)
    assert resumed.history[-1]["dev"] == straight.history[-1]["dev"]


def _config_file(cfg, path: Path) -> Path:
    """``cfg`` written as a TOML config file."""
    path.write_text("".join(f"[{section}]\n" + "".join(f"{k} = {_toml(v)}\n" for k, v in values.items())
                            for section, values in cfg.to_dict().items()), encoding="utf-8")
    return path


def _toml(value) -> str:
    """``value`` in TOML: JSON's spelling for scalars and lists, an inline table for a table (model.heads)."""
    import json

    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {_toml(v)}" for k, v in value.items()) + "}"
    return json.dumps(value)


def test_ctrl_c_in_sciner_train_prints_the_exact_command_that_resumes_it(
        cli, tmp_path, tiny_encoder_dir, tiny_data, monkeypatch):
    from sciner.model.network import NERModel

    config = _config_file(_tiny(tiny_encoder_dir, tiny_data), tmp_path / "tiny.toml")
    out = tmp_path / "my run"
    args = ["train", "--config", str(config), "-o", str(out), "--threads", "1"]
    real_loss, calls = NERModel.loss, {"n": 0}

    def loss_then_ctrl_c(self, *a, **kw):
        calls["n"] += 1
        if calls["n"] == 2:
            os.kill(os.getpid(), signal.SIGINT)
        return real_loss(self, *a, **kw)

    monkeypatch.setattr(NERModel, "loss", loss_then_ctrl_c)
    stopped = cli(*args)
    assert stopped.returncode == 130
    # Before the first step: what the run is about to do.
    assert "train 119 paragraphs" in stopped.stderr and "compute  cpu, 1 threads" in stopped.stderr
    command = f"sciner train --config {config} -o '{out}' --threads 1 --resume"
    assert f"checkpoint saved to {out / CHECKPOINT}; continue with: {command}" in stopped.stderr
    monkeypatch.setattr(NERModel, "loss", real_loss)
    resumed = cli(*args, "--resume", "-q")
    assert resumed.returncode == 0, resumed.stderr
    assert resumed.stdout.startswith("best dev micro F1") and resumed.stderr == ""


def test_resume_without_a_checkpoint_is_one_line(cli, tmp_path, tiny_data):
    result = cli("train", "-o", tmp_path, "--resume", "--data", tiny_data)
    assert result.returncode == ConfigError.exit_code
    assert result.stderr == f"error[E005]: --resume: no {CHECKPOINT} in {tmp_path}\n"


def test_resume_on_a_legacy_pickle_checkpoint_is_one_line_without_torchs_warning(cli, tmp_path, tiny_data):
    """Regression (issue 33.10): torch's two-line warning, with its site-packages path, came
    before the one-line error."""
    out = tmp_path / "run"
    out.mkdir()
    torch.save({"config": {}, "rng": np.zeros(2)}, out / CHECKPOINT, _use_new_zipfile_serialization=False)
    proc = cli("train", "--resume", "-o", out, "--data", tiny_data, "--set", 'data.dev_groups=["group_c"]')
    assert proc.returncode == ModelError.exit_code
    assert proc.stderr.count("\n") == 1 and proc.stderr.startswith("error[E004]: "), proc.stderr
    assert "older sciner's" in proc.stderr and "site-packages" not in proc.stderr and "\x1b" not in proc.stderr


def test_read_ahead_keeps_the_order_raises_the_makers_error_and_stops_when_closed():
    from sciner.training.loop import read_ahead

    assert list(read_ahead(iter(range(50)), depth=3)) == list(range(50))

    def failing():
        yield 1
        raise ValueError("bad batch")

    got = read_ahead(failing())
    assert next(got) == 1
    with pytest.raises(ValueError, match="bad batch"):
        next(got)
    closed = []

    def endless():
        try:
            k = 0
            while True:
                yield k
                k += 1
        finally:
            closed.append(True)

    ahead = read_ahead(endless(), depth=2)
    assert [next(ahead) for _ in range(5)] == [0, 1, 2, 3, 4]
    ahead.close()
    assert closed == [True]
