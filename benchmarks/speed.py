"""Speed and memory of `sciner predict` (the default and the fast model) beside spaCy's efficiency
CNN NER, each a whole process over the same file, model load included, in the same run.

spaCy's model is the one benchmarks/spacy_peer.py trains (runs/spacy-peer/model-best); if it is
not there, an UNTRAINED pipeline of the same config (`spacy init config --pipeline ner --optimize
efficiency`), said so in the output: the same network, so the same time. The commands alternate
(default, fast, spaCy, default, ...) --repeat times; each figure is a median, and each ratio is
the median of the ratios of the runs taken side by side, so a machine whose load drifts still
compares like with like. CPU seconds (user + system of the child) are printed beside wall
seconds: on a busy machine they are the steadier measure. The CPU, its cores and the load
average before and after are printed; the machine is called quiet when the load before the run
is under half its cores (the load after counts the run's own processes).

    python benchmarks/speed.py [--input ../shared/data/test-inputs/2022-official-test.txt]
        [--threads 1] [--repeat 3] [--models default,fast] [--precision fp32] [--pipeline] [--paragraph-local]

--precision is sciner's --precision (with auto or fp32 the fast model computes in NumPy, fp32):
`--precision fp32` times the default model as `auto` runs it on a CPU without native bf16 (an
AVX2-only one), on a CPU that has it. --threads is sciner's --threads (spaCy runs on one
thread). --pipeline also times transformers' token-classification pipeline on the same encoder
(all-MiniLM-L6-v2); --paragraph-local times the default model with `--paragraph-local` (no
paper-level pass) as well.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_INPUT = ROOT.parent / "shared" / "data" / "test-inputs" / "2022-official-test.txt"
SPACY_MODEL = ROOT / "runs" / "spacy-peer" / "model-best"

PIPELINE_SCRIPT = r"""
import sys, torch
torch.set_num_threads(int(sys.argv[2]))
from transformers import AutoModelForTokenClassification, AutoTokenizer, pipeline
from sciner.model.encoder import encoder_folder
folder = encoder_folder("all-MiniLM-L6-v2")
tok = AutoTokenizer.from_pretrained(folder, local_files_only=True)
model = AutoModelForTokenClassification.from_pretrained(folder, num_labels=15, local_files_only=True)
ner = pipeline("token-classification", model=model, tokenizer=tok, device=-1, stride=64,
               aggregation_strategy="first")
lines = [l.rstrip("\n") for l in open(sys.argv[1], encoding="utf-8") if l.strip()]
n = 0
for line in lines:
    n += len(ner(line))
print(n, file=sys.stderr)
"""


def run(cmd: list[str], env: dict[str, str]) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds (user + system) and peak RSS (MB) of one child process (from wait4)."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    stderr = proc.stderr.read() if proc.stderr else ""
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        sys.exit(f"command failed: {' '.join(cmd)}\n{stderr[-2000:]}")
    return seconds, usage.ru_utime + usage.ru_stime, usage.ru_maxrss // 1024


def cpu_name() -> str:
    """The CPU's model name and family/model numbers, and its flags that matter here."""
    info = Path("/proc/cpuinfo").read_text() if Path("/proc/cpuinfo").exists() else ""
    fields = dict(line.split(":", 1) for line in info.splitlines() if ":" in line)
    fields = {k.strip(): v.strip() for k, v in fields.items()}
    flags = set(fields.get("flags", "").split())
    kind = "AMX" if "amx_bf16" in flags else "AVX512-BF16" if "avx512_bf16" in flags \
        else "AVX2" if "avx2" in flags else "no AVX2"
    from sciner.inference.choose import native_bf16_flags  # what the tagger decides its back ends on

    native = {True: "yes", False: "no", None: "not known"}[native_bf16_flags()]
    return (f"{fields.get('model name', platform.processor() or 'unknown')} (family {fields.get('cpu family', '?')} "
            f"model {fields.get('model', '?')}), {kind}, native bf16: {native}, {os.cpu_count()} cores")


def untrained_spacy(folder: Path) -> Path:
    """An untrained spaCy efficiency NER pipeline with our labels, saved in ``folder``: for timing only."""
    import spacy
    from spacy.util import load_model_from_config

    from sciner.labels import ENTITY_TYPES

    cfg_path = folder / "config.cfg"
    subprocess.run([sys.executable, "-m", "spacy", "init", "config", str(cfg_path), "--lang", "en", "--pipeline",
                    "ner", "--optimize", "efficiency", "--force"], check=True, capture_output=True)
    nlp = load_model_from_config(spacy.util.load_config(cfg_path), auto_fill=True)
    ner = nlp.get_pipe("ner")
    for label in ENTITY_TYPES:
        ner.add_label(label)
    nlp.initialize()
    nlp.to_disk(folder / "model")
    return folder / "model"


def padding_share(path: Path) -> str:
    """How much of the default model's encoder input on ``path`` is padding: windows are batched
    with windows of the same bucketed length (sciner.model.network.gather_rows), so a row pads
    only up to its bucket (sciner.model.windows.bucket_length)."""
    from sciner.formats.registry import read_file
    from sciner.model.batching import BATCH_SUBWORDS, length_batches
    from sciner.model.wordpiece import WordPieceTokenizer
    from sciner.model.encoder import encoder_folder
    from sciner.model.windows import featurize_many
    from sciner.model.store import load_model_meta
    from sciner.model.windows import bucket_length, window_rows

    cfg = load_model_meta(None)[0].model
    tok = WordPieceTokenizer(encoder_folder(cfg.encoder))
    feats = featurize_many(tok, [p.tokens for p in read_file(path, None) if p.tokens], cfg)
    rows, _ = window_rows([f.pieces for f in feats], tok.cls_token_id, tok.sep_token_id, cfg.window,
                          cfg.window_overlap)
    padded = [bucket_length(len(r), cfg.window) for r in rows]
    real = sum(len(r) for r in rows)
    cells = sum(len(b) * padded[b[0]] for b in length_batches(padded, BATCH_SUBWORDS, same_length=True))
    whole = sum(len(b) * max(len(rows[i]) for i in b) for b in length_batches([len(r) for r in rows], BATCH_SUBWORDS))
    return (f"{len(rows)} windows, {real} subwords; padding: {1 - real / cells:.1%} of the encoder's input "
            f"(rows padded to {cells // max(len(rows), 1)} subwords on average, a multiple of 16; {1 - real / whole:.1%} if batched by exact length)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--input", type=Path, default=DEFAULT_INPUT)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="Alternate the commands this many times.")
    parser.add_argument("--models", default="default,fast", help="sciner models to time (comma-separated).")
    parser.add_argument("--precision", default="auto", choices=["auto", "fp32", "bf16", "int8"],
                        help="sciner's --precision (auto: bf16 where the CPU has it natively, else fp32).")
    parser.add_argument("--spacy-model", type=Path, default=SPACY_MODEL)
    parser.add_argument("--pipeline", action="store_true", help="Also time transformers' pipeline.")
    parser.add_argument("--paragraph-local", action="store_true",
                        help="Also time the default model with --paragraph-local (no paper-level pass).")
    parser.add_argument("--padding", action="store_true", help="Only print the share of padding in the "
                        "default model's encoder batches on --input, and exit.")
    args = parser.parse_args()
    if not args.input.exists():
        sys.exit(f"{args.input}: not found (pass --input)")
    if args.padding:
        print(padding_share(args.input))
        return
    n_tokens = sum(len(l.split()) for l in args.input.read_text(encoding="utf-8").splitlines())
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false"}
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out.conll"
        spacy_model, spacy_label = args.spacy_model, f"spaCy CNN (trained: {args.spacy_model})"
        if not spacy_model.exists():
            spacy_model = untrained_spacy(Path(tmp))
            spacy_label = "spaCy CNN (UNTRAINED efficiency pipeline: timing only)"
        def predict(model: str) -> list[str]:
            return [sys.executable, "-m", "sciner", "predict", str(args.input), "-o", str(out), "-q", "--model", model,
                    "--threads", str(args.threads), "--precision", args.precision]

        commands: dict[str, list[str]] = {f"sciner --model {m}": predict(m) for m in args.models.split(",") if m}
        if args.paragraph_local:
            commands["sciner --paragraph-local"] = [*predict("default"), "--paragraph-local"]
        commands["spaCy CNN"] = [sys.executable, str(ROOT / "benchmarks" / "spacy_peer.py"), "tag", str(spacy_model),
                                 str(args.input), str(out)]
        if args.pipeline:
            commands["transformers pipeline"] = [sys.executable, "-c", PIPELINE_SCRIPT, str(args.input),
                                                 str(args.threads)]
        runs: dict[str, list[tuple[float, float, int]]] = {name: [] for name in commands}
        for _ in range(args.repeat):
            for name, cmd in commands.items():
                runs[name].append(run(cmd, env))
    load_after = os.getloadavg()
    print(f"input: {args.input} ({n_tokens} tokens); sciner --threads {args.threads} --precision {args.precision}, "
          "spaCy 1 thread; "
          f"runs: {args.repeat} each, alternating (medians)")
    print(f"CPU: {cpu_name()}; load average {load_before[0]:.1f} before, {load_after[0]:.1f} after "
          f"({'BUSY' if load_before[0] > (os.cpu_count() or 1) * 0.5 else 'quiet'} before the run)")
    print(f"spaCy: {spacy_label}")
    for model in (m for m in args.models.split(",") if m):
        print(f"sciner --model {model} runs on: {back_ends(model, args.precision, env)}")
    base = runs["spaCy CNN"]
    print(f"{'command':<28}{'wall s':>9}{'cpu s':>9}{'tokens/s':>10}{'peak MB':>9}{'wall/spaCy':>12}{'cpu/spaCy':>11}")
    for name, results in runs.items():
        wall = statistics.median(r[0] for r in results)
        cpu = statistics.median(r[1] for r in results)
        wall_ratio = statistics.median(r[0] / b[0] for r, b in zip(results, base))
        cpu_ratio = statistics.median(r[1] / b[1] for r, b in zip(results, base))
        print(f"{name:<28}{wall:>9.1f}{cpu:>9.1f}{n_tokens / wall:>10.0f}{max(r[2] for r in results):>9}"
              f"{wall_ratio:>12.2f}{cpu_ratio:>11.2f}")


def back_ends(model: str, precision: str, env: dict[str, str]) -> str:
    """What `sciner predict --model MODEL --precision P` runs on, asked in a child with the runs' environment."""
    script = ("import sys; from sciner.inference.choose import back_ends; "
              "print(back_ends(sys.argv[1], sys.argv[2], 'cpu'))")
    done = subprocess.run([sys.executable, "-c", script, model, precision], env=env, capture_output=True, text=True)
    return done.stdout.strip() or f"unknown ({done.stderr.strip().splitlines()[-1:]})"


if __name__ == "__main__":
    main()
