"""Issue 20 item 1: the GPU call rehearsed on CPU with a tiny encoder and tiny data, the same
script (benchmarks/distill_gpu.py --rehearse) on a bare folder that holds nothing but what the
call carries, then unpacked here into a model that tags."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

import distill_gpu  # noqa: E402

TINY_TRAIN = """
[data]
dev_groups = ["group_b", "group_c"]  # two: calibrate cross-fits over two or more groups
[model]
window = 32
window_overlap = 8
[train]
batch_subwords = 512
lr = 2e-3
"""


@pytest.fixture
def raw_text(tmp_path: Path) -> Path:
    folder = tmp_path / "raw"
    folder.mkdir()
    lines = [f"We fine-tune BERT on SQuAD with a learning rate of {k}e-5 and report F1 on the test set." for k in range(40)]
    (folder / "abstracts.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder


def test_the_device_call_runs_from_its_carry_alone_and_brings_back_a_model(tmp_path, tiny_encoder_dir, tiny_data,
                                                                           raw_text):
    here, bare = tmp_path / "here", tmp_path / "device"
    train_config = tmp_path / "train.toml"
    train_config.write_text(TINY_TRAIN, encoding="utf-8")
    common = ["--rehearse", "--encoder", str(tiny_encoder_dir)]
    distill_gpu.main(["prepare", *common, "--root", str(here), "--data", str(tiny_data), "--raw", str(raw_text),
                      "--train-config", str(train_config)])
    carry = here / "runs" / "carry" / "gpu-call"
    plan = json.loads((carry / "plan.json").read_text())
    assert plan["raw_parts"] >= 1 and plan["carry_bytes"] < distill_gpu.CARRY_LIMIT
    # A bare machine: the checkout's own files (here, none are needed) and the carried folder.
    shutil.copytree(carry, bare / "runs" / "carry" / "gpu-call")
    distill_gpu.main(["call", *common, "--root", str(bare), "--out", str(bare / "OUT")])
    out = bare / "OUT"
    summary = json.loads((out / "summary.json").read_text())
    assert {name: s["status"] for name, s in summary["steps"].items()} == {
        "unpack": 0, "pretrain": 0, "pack-encoder": 0, "train": 0, "calibrate": 0}, (out / "log.txt").read_text()[-3000:]
    assert summary["encoder"] == "pretrained" and (out / "pretrain-loss.tsv").is_file()
    files = sorted(p.name for p in out.iterdir())
    assert len(files) <= 8 and all(p.stat().st_size <= 16 * 2**20 for p in out.iterdir())
    distill_gpu.main(["unpack", str(out), "--root", str(here)])
    model = here / "runs" / "distill" / "gpu-model"
    meta = json.loads((model / "model.json").read_text())
    assert meta["encoder"] == str(tiny_encoder_dir)  # the carried encoder's own name, not the work folder

    # The pretrained encoder comes back as well, an HF folder again, for students trained on the CPU.
    from transformers import AutoModel

    encoder = AutoModel.from_pretrained(here / "runs" / "distill" / "gpu-encoder-fp32", local_files_only=True)
    assert encoder.config.hidden_size == 32

    import sciner

    tagged = sciner.load(model, precision="fp32", device="cpu").tag([["We", "use", "BERT", "on", "SQuAD", "."]])
    assert len(tagged[0].tags) == 6


def test_a_call_cut_short_still_says_what_happened(tmp_path, tiny_encoder_dir, tiny_data, raw_text, monkeypatch):
    """Pretraining that does not finish: the call goes on with the carried encoder and says so."""
    here = tmp_path / "here"
    train_config = tmp_path / "train.toml"
    train_config.write_text(TINY_TRAIN, encoding="utf-8")
    distill_gpu.main(["prepare", "--rehearse", "--encoder", str(tiny_encoder_dir), "--root", str(here),
                      "--data", str(tiny_data), "--raw", str(raw_text), "--train-config", str(train_config)])
    broken = {**distill_gpu.REHEARSE, "pretrain": [*distill_gpu.REHEARSE["pretrain"], "pretrain.no_such_key=1"]}
    monkeypatch.setattr(distill_gpu, "REHEARSE", broken)
    # Regression (the first GPU call): the shipped name of the encoder is a PyPI package the device
    # lacks, and calibrating after the model was renamed to it failed there.
    plan = here / "runs" / "carry" / "gpu-call" / "plan.json"
    plan.write_text(json.dumps({**json.loads(plan.read_text()), "encoder": "an-encoder-not-installed-here"}))
    distill_gpu.main(["call", "--rehearse", "--root", str(here), "--out", str(here / "OUT")])
    summary = json.loads((here / "OUT" / "summary.json").read_text())
    assert summary["steps"]["pretrain"]["status"] != 0 and summary["encoder"].startswith("as carried")
    assert summary["steps"]["train"]["status"] == 0 and "no_such_key" in (here / "OUT" / "log.txt").read_text()
    assert summary["steps"]["calibrate"]["status"] == 0, (here / "OUT" / "log.txt").read_text()[-2000:]
    distill_gpu.main(["unpack", str(here / "OUT"), "--root", str(here)])
    meta = json.loads((here / "runs" / "distill" / "gpu-model" / "model.json").read_text())
    assert meta["encoder"] == "an-encoder-not-installed-here" and "type_bias" in meta


def test_every_override_of_the_device_call_names_a_key_of_the_config():
    """The call runs on a machine lent for minutes: a key renamed in the config tree must fail here."""
    from sciner.config import load_config

    for settings in (distill_gpu.GPU, distill_gpu.REHEARSE):
        cfg = load_config(None, [*settings["pretrain"], *settings["train"]])
        assert cfg.pretrain.steps in (4000, 4)


def test_a_first_cache_part_too_big_for_the_carry_is_cut_to_its_first_paragraphs_that_fit():
    """Regression: with the fast model in the checkout, no whole raw-cache part fitted the carry and
    the call carried no raw text at all; now the first part's first paragraphs go, as many as fit."""
    import io
    import lzma

    import numpy as np

    rng = np.random.default_rng(0)
    lengths = rng.integers(5, 60, size=3000)
    offsets = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
    ids = rng.integers(0, 30000, size=int(offsets[-1])).astype(np.uint16)
    starts = rng.random(int(offsets[-1])) < 0.7
    buffer = io.BytesIO()
    np.savez(buffer, ids=ids, starts=np.packbits(starts), offsets=offsets)
    whole = buffer.getvalue()
    size = len(lzma.compress(whole, preset=9))
    cut, paragraphs, subwords = distill_gpu.first_paragraphs(whole, size // 3, size)
    assert len(lzma.compress(cut, preset=9)) <= size // 3
    assert 0 < paragraphs < 3000 and subwords == offsets[paragraphs]
    with np.load(io.BytesIO(cut)) as data:  # what the cache reader reads
        assert list(data["offsets"]) == list(offsets[: paragraphs + 1])
        assert list(data["ids"]) == list(ids[:subwords])
        assert list(np.unpackbits(data["starts"], count=subwords).astype(bool)) == list(starts[:subwords])
    assert distill_gpu.first_paragraphs(whole, size // 50, size) is None  # not even a tenth fits


def teacher_pieces(tmp_path: Path, here: Path, encoder: Path, data: Path, raw: Path) -> tuple[Path, list[Path]]:
    """`prepare-teacher --rehearse` in ``here`` (a tiny teacher in pieces of 400,000 bytes): the
    distillation config it carries and the teacher-k folders."""
    config = tmp_path / "distill.toml"
    config.write_text(TINY_TRAIN + '[distill]\nteacher = ["model.encoder=all-mpnet-base-v2", "train.lr=2e-3"]\n'
                      "shard_paragraphs = 10\n", encoding="utf-8")
    distill_gpu.main(["prepare-teacher", "--rehearse", "--root", str(here), "--data", str(data), "--raw", str(raw),
                      "--teacher-encoder", str(encoder), "--distill-config", str(config), "--room", str(400_000)])
    return config, sorted((here / "runs" / "carry").glob("teacher-*"))


def test_the_teacher_travels_in_pieces_over_calls_on_a_warm_machine_and_the_student_follows(
        tmp_path, tiny_encoder_dir, tiny_data, raw_text):
    """Issue 29 items 2 and 3 rehearsed: the teacher in byte pieces, one folder a call; pieces wait
    in a store between calls (the warm machine's /dev/shm); the call that completes the set trains
    the teacher, labels the paragraphs and leaves compact labels that a student reads.
    Regression (2026-11-26 on an H200): the warm device keeps each call's carried
    folder in its checkout, so call 2 found teacher-1 and teacher-2 and refused to run ("carry
    exactly one"). Every folder present is stored now; a piece damaged on its way is refused by
    hash until it is carried again; then the student's call follows, as item 3 on the device."""
    from sciner.data.soft_labels import load_soft_labels

    here, store, device = tmp_path / "here", tmp_path / "shm", tmp_path / "device"
    config, folders = teacher_pieces(tmp_path, here, tiny_encoder_dir, tiny_data, raw_text)
    assert len(folders) >= 3 and all(sum(p.stat().st_size for p in f.iterdir()) <= 400_000 + 4096 for f in folders)
    def call(k: int) -> dict:
        distill_gpu.main(["teacher-call", "--root", str(device), "--out", str(device / f"OUT-{k}"),
                          "--store", str(store)])
        return json.loads((device / f"OUT-{k}" / "summary.json").read_text())

    kept = device / "runs" / "carry"
    for k, folder in enumerate(folders, 1):  # one checkout for every call, as on the warm machine
        shutil.copytree(folder, kept / folder.name)
        if k == len(folders):  # a piece damaged on its way is refused by hash ...
            (kept / folders[0].name / "piece-01").write_bytes(b"damaged on the way")
        summary = call(k)
        assert summary["carried"] == [f.name for f in folders[:k]]
        assert summary["missing"] == (["piece-01"] if k == len(folders) else summary["missing"]) and summary["missing"]
    shutil.rmtree(kept / folders[0].name)  # ... and carried again, the set completes
    shutil.copytree(folders[0], kept / folders[0].name)
    assert call(len(folders) + 1)["missing"] == []
    last = device / f"OUT-{len(folders) + 1}"
    assert (last / "raw.labels.xz").is_file(), (last / "log.txt").read_text()[-3000:]

    # Item 3 from there: the labels home (as a student reads them), the student's carry made, its
    # call, its model home.
    distill_gpu.main(["unpack-teacher", str(last), "--root", str(here)])
    labels = load_soft_labels(here / "runs" / "distill" / "teacher.labels.xz")
    assert len(labels) >= 30 and all(len(p.tokens) == len(p.top_ids) for p in labels)
    distill_gpu.main(["prepare-student", "--rehearse", "--root", str(here), "--data", str(tiny_data),
                      "--student-encoder", str(tiny_encoder_dir), "--distill-config", str(config)])
    student = tmp_path / "device-student"
    shutil.copytree(here / "runs" / "carry" / "gpu-student", student / "runs" / "carry" / "gpu-student")
    distill_gpu.main(["student-call", "--rehearse", "--root", str(student), "--out", str(student / "OUT")])
    summary = json.loads((student / "OUT" / "summary.json").read_text())
    assert {s: v["status"] for s, v in summary["steps"].items()} == {"unpack": 0, "student": 0}, (
        student / "OUT" / "log.txt").read_text()[-3000:]
    distill_gpu.main(["unpack", str(student / "OUT"), "--root", str(here)])
    meta = json.loads((here / "runs" / "distill" / "gpu-model" / "model.json").read_text())
    assert meta["encoder"] == "all-MiniLM-L6-v2" and meta["config"]["distill"]["soft_labels"]


def test_labels_too_big_for_out_are_compacted_again_with_fewer_tags(tmp_path):
    """$OUT leaves files over 16 MiB behind: the teacher chain's labels come back with fewer
    tags a token rather than not at all."""
    sizes = {"0": 900, "2": 500, "1": 200}  # the file each --top-k would write, in bytes
    calls: list[str] = []

    def step(name: str, *command: str, limit: float | None = None) -> bool:
        top = command[command.index("--top-k") + 1]
        calls.append(name)
        Path(command[command.index("-o") + 1]).write_bytes(b"x" * sizes[top])
        return True

    labels = tmp_path / "raw.labels.xz"
    distill_gpu.compact_to_fit(step, tmp_path / "soft", labels, limit=1000)
    assert calls == ["compact"] and labels.stat().st_size == 900
    calls.clear()
    distill_gpu.compact_to_fit(step, tmp_path / "soft", labels, limit=600)
    assert calls == ["compact", "compact-top2"] and labels.stat().st_size == 500
    calls.clear()
    distill_gpu.compact_to_fit(step, tmp_path / "soft", labels, limit=300)
    assert calls == ["compact", "compact-top2", "compact-top1"] and labels.stat().st_size == 200
