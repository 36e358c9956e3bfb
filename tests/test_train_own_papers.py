"""Training on your own annotated papers (issue 35): `sciner train FILES -o RUN`, the dev split by
paper, `--init` (training a trained model on), refusals that say the fix, a run folder without the
optimizer's checkpoint, and `--resume` extending a run kept with `--keep-checkpoint`."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from sciner.errors import ConfigError

from helpers.training import make_sentence, tiny_config


def _paper(path: Path, n: int, seed: int) -> Path:
    rng = random.Random(seed)
    lines = []
    for _ in range(n):
        tokens, tags = make_sentence(rng)
        lines.extend([*(f"{t}\t{g}" for t, g in zip(tokens, tags)), ""])
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def papers(tmp_path_factory) -> Path:
    """Five papers of synthetic sentences, one a file, one of them JSONL (any tagged format reads)."""
    folder = tmp_path_factory.mktemp("papers")
    for i in range(5):
        _paper(folder / f"paper{i}.conll", 12, i)
    from sciner.formats.convert import convert

    convert(folder / "paper4.conll", folder / "paper4.jsonl")
    (folder / "paper4.conll").unlink()
    return folder


def _args(tiny_encoder_dir) -> list[str]:
    return ["--set", f"model.encoder={tiny_encoder_dir}", "--set", "model.window=32", "--set", "model.window_overlap=8",
            "--set", "train.batch_subwords=512", "--set", "train.lr=2e-3", "--set", "train.head_lr=5e-3",
            "--set", "train.threads=1", "--device", "cpu"]


def test_train_on_a_folder_of_papers_splits_dev_by_paper_and_keeps_no_checkpoint(cli, tmp_path, papers,
                                                                                  tiny_encoder_dir):
    run = tmp_path / "run"
    proc = cli("train", papers, "-o", run, "--set", "train.epochs=2", *_args(tiny_encoder_dir))
    assert proc.returncode == 0, proc.stderr
    dev_line = next(line for line in proc.stderr.splitlines() if line.startswith("data"))
    assert "your papers" in dev_line and "of 3 papers" in dev_line and "of 2 papers (" in dev_line
    meta = json.loads((run / "model.json").read_text())
    assert len(meta["dev_groups"]) == 2 and all(str(papers) in p for p in meta["dev_groups"])
    assert meta["config"]["data"]["files"] == [str(papers.resolve())]
    # Issue 35.9: the run holds the model, not the optimizer's state.
    assert not (run / "checkpoint.pt").exists() and (run / "weights.safetensors").exists()
    # ...and a finished run is not trained over by a fresh one, nor resumed without its checkpoint.
    again = cli("train", papers, "-o", run, *_args(tiny_encoder_dir))
    assert again.returncode == ConfigError.exit_code and "already holds a trained model" in again.stderr
    resumed = cli("train", papers, "-o", run, "--resume", *_args(tiny_encoder_dir))
    assert resumed.returncode == ConfigError.exit_code and "--keep-checkpoint" in resumed.stderr
    assert f"--init {run}" in resumed.stderr

    # --init: the trained model is scored first ("epoch 0") and kept unless an epoch beats it.
    adapted = tmp_path / "adapted"
    proc = cli("train", papers, "--init", run, "-o", adapted, "--set", "train.epochs=1", "--set", "train.min_epochs=0",
               "--set", "train.threads=1", "--set", "train.batch_subwords=512", "--device", "cpu")
    assert proc.returncode == 0, proc.stderr
    assert "epoch 0 (the model trained on): dev micro F1" in proc.stderr
    history = json.loads((adapted / "history.json").read_text())
    assert [h["epoch"] for h in history] == [0, 1]
    assert history[0]["dev"]["micro"]["f1"] == pytest.approx(meta["dev_scores"]["micro"]["f1"], abs=1e-9)
    adapted_meta = json.loads((adapted / "model.json").read_text())
    assert adapted_meta["init"]["model"] == str(run.resolve())
    assert adapted_meta["config"]["train"]["lr"] == 3e-5  # the small-data schedule, under --set


def test_too_few_papers_or_an_empty_dev_split_is_refused_with_the_fix(cli, tmp_path, papers, tiny_encoder_dir,
                                                                      tiny_data):
    two = tmp_path / "two"
    two.mkdir()
    for name in ("paper0.conll", "paper1.conll"):
        (two / name).write_bytes((papers / name).read_bytes())
    proc = cli("train", two, "-o", tmp_path / "r", *_args(tiny_encoder_dir))
    assert proc.returncode == ConfigError.exit_code and proc.stderr.count("\n") == 1
    assert "2 paper(s) given" in proc.stderr and "--dev FILES" in proc.stderr
    proc = cli("train", two, "--dev", two / "paper0.conll", "-o", tmp_path / "r", *_args(tiny_encoder_dir))
    assert proc.returncode == ConfigError.exit_code and "--dev names 1 paper" in proc.stderr
    # Regression (issue 35.3): an empty dev split trained on, printing "dev F1 0.0000 (best, saved)".
    proc = cli("train", "-o", tmp_path / "r", "--data", tiny_data, "--set", "data.dev_groups=[]",
               *_args(tiny_encoder_dir))
    assert proc.returncode == ConfigError.exit_code and "data.dev_groups is empty" in proc.stderr
    assert "sciner train FILES_OR_FOLDERS -o RUN" in proc.stderr


def test_patience_waits_for_the_dev_score_to_move_and_for_min_epochs():
    """Regression (issue 35.3): with F1 0 at epoch 1, patience 1 stopped a small run at epoch 2."""
    from sciner.training.loop import Progress, _stopped_early

    nothing_yet = Progress(epoch=2, best_f1=0.0, best_epoch=0)
    assert not _stopped_early(nothing_yet, patience=1)
    moved = Progress(epoch=3, best_f1=0.2, best_epoch=0)
    assert _stopped_early(moved, patience=1) and not _stopped_early(moved, patience=1, min_epochs=4)


def test_resume_extends_a_run_kept_with_its_checkpoint(tmp_path, tiny_encoder_dir, tiny_data, capsys):
    """Issue 35.5: --resume with more epochs goes on where the finished run stopped, and says so."""
    from sciner.training.train import train

    cfg = tiny_config(tiny_encoder_dir, tiny_data, "bio", epochs=1, max_batches_per_epoch=3, keep_checkpoint=True)
    train(cfg, tmp_path, show_progress=False)
    assert (tmp_path / "checkpoint.pt").exists()
    cfg.train.epochs = 2
    result = train(cfg, tmp_path, resume=True)
    assert [h["epoch"] for h in result.history] == [1, 2]
    assert "changed since: train.epochs 1 -> 2" in capsys.readouterr().err


def test_calibrate_by_paper_counts_the_documents_of_a_file_as_the_papers_they_are(cli, tmp_path, papers,
                                                                                   tiny_encoder_dir):
    """Regression: dev papers that are two -DOCSTART- documents of one file trained as 2 papers,
    but `calibrate --by paper` counted files and refused one."""
    dev = tmp_path / "dev.conll"
    docs = [_paper(tmp_path / f"d{i}.conll", 8, 10 + i).read_text(encoding="utf-8") for i in range(2)]
    dev.write_text("".join(f"-DOCSTART-\tO\n\n{text}" for text in docs), encoding="utf-8")
    run = tmp_path / "run"
    proc = cli("train", papers, "--dev", dev, "-o", run, "--set", "train.epochs=1", *_args(tiny_encoder_dir))
    assert proc.returncode == 0, proc.stderr
    done = cli("calibrate", run, "--by", "paper", "-o", tmp_path / "cal", "--threads", "1")
    assert done.returncode == 0, done.stderr
    assert "of 2 papers" in done.stderr
