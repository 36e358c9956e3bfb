"""Speed and memory of `sciner predict` against transformers' token-classification pipeline.

Both run as whole processes over the same file, on the same encoder (all-MiniLM-L6-v2) and
the same number of threads; tokens/s counts the file's tokens over wall-clock time,
including model loading. Peak memory is the child process's maximum resident set size.
With --repeat N the two alternate N times and the medians are printed (runs on a shared
machine vary by about 10%).

    python benchmarks/speed.py [--input ../shared/data/test-inputs/2022-official-test.txt] [--threads 2] [--repeat 3]

--paragraph-local times `sciner predict --paragraph-local` (no paper-level pass) as well,
alternating with the default, to show what the paper-level pass costs (the input file is
one document to it).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_INPUT = ROOT.parent / "shared" / "data" / "test-inputs" / "2022-official-test.txt"

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


def run(cmd: list[str], env: dict[str, str]) -> tuple[float, int]:
    """Wall seconds and peak RSS (MB) of one child process (its own, from wait4)."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    stderr = proc.stderr.read() if proc.stderr else ""
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        sys.exit(f"command failed: {' '.join(cmd)}\n{stderr[-2000:]}")
    return seconds, usage.ru_maxrss // 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--input", type=Path, default=DEFAULT_INPUT)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--skip-pipeline", action="store_true", help="Only time sciner.")
    parser.add_argument("--repeat", type=int, default=1, help="Alternate the two this many times; print medians.")
    parser.add_argument("--paragraph-local", action="store_true",
                        help="Also time sciner predict --paragraph-local (no paper-level pass).")
    args = parser.parse_args()
    if not args.input.exists():
        sys.exit(f"{args.input}: not found (pass --input)")
    n_tokens = sum(len(l.split()) for l in args.input.read_text(encoding="utf-8").splitlines())
    env = {**os.environ, "OMP_NUM_THREADS": str(args.threads), "MKL_NUM_THREADS": str(args.threads),
           "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false"}
    s_secs, p_secs, s_peaks, p_peaks, l_secs, l_peaks = [], [], [], [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out.conll"
        predict = [sys.executable, "-m", "sciner", "predict", str(args.input), "-o", str(out), "-q"]
        for _ in range(args.repeat):
            s_sec, s_peak = run(predict, env)
            s_secs.append(s_sec)
            s_peaks.append(s_peak)
            if args.paragraph_local:
                l_sec, l_peak = run(predict + ["--paragraph-local"], env)
                l_secs.append(l_sec)
                l_peaks.append(l_peak)
            if not args.skip_pipeline:
                p_sec, p_peak = run([sys.executable, "-c", PIPELINE_SCRIPT, str(args.input), str(args.threads)], env)
                p_secs.append(p_sec)
                p_peaks.append(p_peak)
    s_sec, s_peak = statistics.median(s_secs), max(s_peaks)
    print(f"input: {args.input} ({n_tokens} tokens), threads: {args.threads}, runs: {args.repeat}"
          + (" (medians)" if args.repeat > 1 else ""))
    print(f"sciner predict:         {s_sec:7.1f} s  {n_tokens / s_sec:8.0f} tokens/s  peak RSS {s_peak} MB"
          + (f"   runs: {' '.join(f'{x:.1f}' for x in s_secs)}" if args.repeat > 1 else ""))
    if args.paragraph_local:
        l_sec = statistics.median(l_secs)
        print(f"  --paragraph-local:    {l_sec:7.1f} s  {n_tokens / l_sec:8.0f} tokens/s  peak RSS {max(l_peaks)} MB"
              + (f"   runs: {' '.join(f'{x:.1f}' for x in l_secs)}" if args.repeat > 1 else ""))
        print(f"paper-level pass: {100 * (s_sec / l_sec - 1):+.1f}% time")
    if not args.skip_pipeline:
        p_sec, p_peak = statistics.median(p_secs), max(p_peaks)
        print(f"transformers pipeline:  {p_sec:7.1f} s  {n_tokens / p_sec:8.0f} tokens/s  peak RSS {p_peak} MB"
              + (f"   runs: {' '.join(f'{x:.1f}' for x in p_secs)}" if args.repeat > 1 else ""))
        print(f"speed-up: {p_sec / s_sec:.2f}x")

if __name__ == "__main__":
    main()
