"""Pretrain a tiny BERT for a few dozen steps: the loss falls, and --resume continues exactly."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import torch
from transformers import AutoModel, AutoTokenizer

from sciner.config import Config, load_config
from sciner.errors import ConfigError
from sciner.pretrain.task import pretrain
from sciner.training.loop import read_loss_curve

from helpers.training import Payload, pretrain_config, write_raw_corpus


def test_loss_falls_and_the_encoder_is_saved(tmp_path, tiny_pretrain_encoder):
    raw = write_raw_corpus(tmp_path / "raw")
    folder = pretrain(pretrain_config(tiny_pretrain_encoder, raw), tmp_path / "run", progress=False)
    curve = read_loss_curve(tmp_path / "run")
    assert [row["step"] for row in curve] == [5, 10, 15, 20, 25, 30]
    assert curve[-1]["loss"] < curve[0]["loss"] - 2.0, curve
    assert curve[-1]["mlm"] < curve[0]["mlm"] and curve[-1]["sbo"] < curve[0]["sbo"]
    for row in curve:
        assert row["loss"] == pytest.approx(row["mlm"] + row["sbo"], abs=2e-3)
    # The result loads as a plain HF encoder, with its tokenizer and a note of its making.
    encoder = AutoModel.from_pretrained(folder)
    assert encoder.config.hidden_size == 32
    assert AutoTokenizer.from_pretrained(folder).mask_token == "[MASK]"
    assert json.loads((folder / "sciner_pretrain.json").read_text())["steps"] == 30
    before = AutoModel.from_pretrained(tiny_pretrain_encoder).state_dict()
    after = encoder.state_dict()
    for key in ("encoder.layer.0.attention.self.query.weight", "embeddings.word_embeddings.weight"):
        assert not torch.equal(before[key], after[key])


def test_frozen_word_embeddings_stay_exactly_as_they_were(tmp_path, tiny_pretrain_encoder):
    raw = write_raw_corpus(tmp_path / "raw")
    cfg = pretrain_config(tiny_pretrain_encoder, raw, **{"pretrain.steps": 3, "model.freeze_word_embeddings": True})
    before = AutoModel.from_pretrained(tiny_pretrain_encoder).state_dict()
    after = AutoModel.from_pretrained(pretrain(cfg, tmp_path / "run", progress=False)).state_dict()
    key = "embeddings.word_embeddings.weight"
    assert torch.equal(before[key], after[key])
    key = "encoder.layer.1.output.dense.weight"
    assert not torch.equal(before[key], after[key])


def test_resume_continues_exactly_where_it_stopped(tmp_path, tiny_pretrain_encoder):
    raw = write_raw_corpus(tmp_path / "raw")
    straight = pretrain(pretrain_config(tiny_pretrain_encoder, raw), tmp_path / "straight", progress=False)

    cfg, out = pretrain_config(tiny_pretrain_encoder, raw), tmp_path / "interrupted"
    assert pretrain(cfg, out, progress=False, stop_after=20) is None
    assert [row["step"] for row in read_loss_curve(out)] == [5, 10, 15, 20]
    with pytest.raises(ConfigError):
        pretrain(cfg, out, progress=False)  # an existing checkpoint is never overwritten silently
    with pytest.raises(ConfigError, match="changed train.seed"):
        pretrain(pretrain_config(tiny_pretrain_encoder, raw, **{"train.seed": 8}), out, resume=True, progress=False)
    resumed = pretrain(cfg, out, resume=True, progress=False)

    curve_a = read_loss_curve(tmp_path / "straight")
    curve_b = read_loss_curve(tmp_path / "interrupted")
    assert [r["step"] for r in curve_b] == [5, 10, 15, 20, 25, 30]
    assert [r["loss"] for r in curve_b] == pytest.approx([r["loss"] for r in curve_a], abs=1e-3)
    a = AutoModel.from_pretrained(straight).state_dict()
    b = AutoModel.from_pretrained(resumed).state_dict()
    for key in a:
        assert torch.allclose(a[key], b[key], atol=1e-5), key


def test_config_file_and_overrides(tmp_path):
    path = tmp_path / "pretrain.toml"
    path.write_text('[pretrain]\nsteps = 50\nseq_len = 64\n[model]\nencoder = "all-MiniLM-L6-v2"\n', encoding="utf-8")
    cfg = load_config(path, ["pretrain.batch_size=8", "pretrain.lr=5e-5", "model.freeze_word_embeddings=false"])
    assert (cfg.pretrain.steps, cfg.pretrain.seq_len, cfg.pretrain.batch_size, cfg.pretrain.lr,
            cfg.model.freeze_word_embeddings) == (50, 64, 8, 5e-5, False)
    for bad in (["pretrain.nope=1"], ["pretrain.steps=abc"], ["pretrain.steps"], ["pretrain.lr=true"]):
        with pytest.raises(ConfigError):
            load_config(path, bad)
    with pytest.raises(ConfigError):
        load_config(tmp_path / "missing.toml", [])


def test_a_pretrain_toml_of_the_older_flat_shape_still_reads(tmp_path):
    """Before the one config tree, pretraining had its own flat config (top level or [pretrain]),
    with num_threads, checkpoint_every and output_dir: such a file reads as it meant."""
    from sciner.config import old_output_dir

    for text in ('steps = 50\nnum_threads = 1\ncheckpoint_every = 100\nencoder = "x"\noutput_dir = "runs/p"\nseed = 3\n',
                 '[pretrain]\nsteps = 50\nnum_threads = 1\ncheckpoint_every = 100\nencoder = "x"\n'
                 'output_dir = "runs/p"\nseed = 3\n'):
        path = tmp_path / "old.toml"
        path.write_text(text, encoding="utf-8")
        cfg = load_config(path, [])
        assert (cfg.pretrain.steps, cfg.train.threads, cfg.train.checkpoint_every_steps, cfg.model.encoder,
                cfg.train.seed) == (50, 1, 100, "x", 3)
        assert old_output_dir(path) == "runs/p"
    path.write_text("steps = 50\ncolour = 1\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="colour: unknown key"):
        load_config(path, [])


def test_a_set_of_an_older_flat_key_names_where_it_lives_now():
    with pytest.raises(ConfigError, match=r"--set: steps: unknown key .*this one is pretrain.steps"):
        load_config(None, ["steps=10"])
    with pytest.raises(ConfigError, match=r"--set: pretrain.num_threads: unknown key \(this one is train.threads\)"):
        load_config(None, ["pretrain.num_threads=1"])


def test_shipped_example_config_loads():
    example = Path(__file__).resolve().parents[1] / "configs" / "pretrain.toml"
    cfg = load_config(example, [])
    assert cfg.pretrain.mask_ratio == 0.15 and cfg.pretrain.geometric_p == 0.2 and cfg.pretrain.max_span_words == 10


def test_cli_stops_resumes_and_saves(tmp_path, tiny_pretrain_encoder):
    from typer.testing import CliRunner

    from sciner.cli.app import app

    raw = write_raw_corpus(tmp_path / "raw")
    out = tmp_path / "cli-run"
    toml = tmp_path / "p.toml"
    toml.write_text(  # today's shape; test_a_resumed_quiet_run... reads one of the older, flat shape
        f'[model]\nencoder = "{tiny_pretrain_encoder}"\n[pretrain]\nraw_data = "{raw}"\nsteps = 4\nseq_len = 32\n'
        "batch_size = 2\nmin_segment_words = 4\npool_batches = 2\nsbo_position_dim = 8\n",
        encoding="utf-8",
    )
    runner = CliRunner()
    args = ["pretrain", "--config", str(toml), "--set", "train.log_every=1", "-o", str(out), "-q"]
    first = runner.invoke(app, [*args, "--stop-after", "2"])
    assert first.exit_code == 0, first.output
    assert "continue with --resume" in first.output
    second = runner.invoke(app, [*args, "--resume"])
    assert second.exit_code == 0, second.output
    assert f"encoder saved to {out / 'encoder'}" in second.output
    assert [row["step"] for row in read_loss_curve(out)] == [1, 2, 3, 4]
    # Regression (the first GPU call): a run ended by its time limit is finished, its encoder
    # saved, and said so (it printed "stopped with a checkpoint ... --resume").
    timed = runner.invoke(app, ["pretrain", "--config", str(toml), "--set", "train.max_minutes=1e-6",
                                "-o", str(tmp_path / "timed"), "-q"])
    assert timed.exit_code == 0, timed.output
    assert f"encoder saved to {tmp_path / 'timed' / 'encoder'}" in timed.output
    assert [row["step"] for row in read_loss_curve(tmp_path / "timed")] == [1]


def test_cli_reports_a_bad_override_as_one_line():
    import subprocess
    import sys

    result = subprocess.run(
        [sys.executable, "-m", "sciner", "pretrain", "--set", "pretrain.no_such_key=1"], capture_output=True, text=True
    )
    assert result.returncode == ConfigError.exit_code
    assert result.stderr.startswith("error[E005]: --set: pretrain.no_such_key: unknown key")
    assert "Traceback" not in result.stderr


def test_resume_on_a_crafted_or_damaged_checkpoint_is_a_model_error(tmp_path, tiny_pretrain_encoder):
    from sciner.errors import ModelError

    raw = write_raw_corpus(tmp_path / "raw")
    cfg = pretrain_config(tiny_pretrain_encoder, raw)
    (tmp_path / "run").mkdir()
    marker = tmp_path / "pwned"
    torch.save({"config": {}, "model": Payload(marker)}, tmp_path / "run" / "checkpoint.pt")
    with pytest.raises(ModelError, match="not a readable sciner checkpoint"):
        pretrain(cfg, tmp_path / "run", resume=True, progress=False)
    assert not marker.exists()
    (tmp_path / "run" / "checkpoint.pt").write_bytes(b"PK\x03\x04")  # a save cut short
    with pytest.raises(ModelError):
        pretrain(cfg, tmp_path / "run", resume=True, progress=False)


def test_cli_checks_the_device(tmp_path):
    import subprocess
    import sys

    result = subprocess.run([sys.executable, "-m", "sciner", "pretrain", "--device", "tpu"], capture_output=True,
                            text=True, cwd=tmp_path)
    assert result.returncode == ConfigError.exit_code
    assert result.stderr.strip() == "error[E005]: device must be one of auto, cpu, cuda, not 'tpu'"
    assert list(tmp_path.iterdir()) == []  # nothing written


def test_a_resumed_quiet_run_draws_no_bar_and_o_names_the_folder(tmp_path, tiny_pretrain_encoder):
    """Regressions (issue 22/23): pretrain() rebound its `progress` flag to the restored
    checkpoint, so `sciner pretrain --resume -q` drew its bar; and pretrain took its output
    folder only as `--set output_dir=`, where every other verb takes -o."""
    from typer.testing import CliRunner

    from sciner.cli.app import app

    raw = write_raw_corpus(tmp_path / "raw")
    toml = tmp_path / "p.toml"
    toml.write_text(
        f'encoder = "{tiny_pretrain_encoder}"\nraw_data = "{raw}"\noutput_dir = "{tmp_path / "not-here"}"\nsteps = 4\n'
        "seq_len = 32\nbatch_size = 2\nmin_segment_words = 4\npool_batches = 2\nsbo_position_dim = 8\n",
        encoding="utf-8",
    )
    out = tmp_path / "given-with-o"
    runner = CliRunner()
    first = runner.invoke(app, ["pretrain", "-c", str(toml), "-o", str(out), "--stop-after", "2", "-q"])
    assert first.exit_code == 0, first.output
    second = runner.invoke(app, ["pretrain", "-c", str(toml), "-o", str(out), "--resume", "-q"])
    assert second.exit_code == 0, second.output
    assert "it/s" not in second.output and "%|" not in second.output  # no progress bar
    assert (out / "encoder").is_dir() and not (tmp_path / "not-here").exists()
