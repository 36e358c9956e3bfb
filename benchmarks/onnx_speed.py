"""The exported ONNX tagger against the torch path: the same tags, and how fast.

Exports the shipped model (`sciner export`), then runs `sciner predict` as whole processes
over the same file with the same threads, alternating: torch at the default precision
("auto": bf16 where the CPU computes bf16 natively, else fp32), torch fp32, and the ONNX
graph (onnxruntime, fp32). Prints the CPU (from lscpu), medians over --repeat runs, peak RSS,
and the share of tags the ONNX run shares with each torch run.

    python benchmarks/onnx_speed.py [--input ../shared/data/test-inputs/2022-official-test.txt] [--threads 2] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from speed import DEFAULT_INPUT, run  # noqa: E402  (one way of timing a process, shared)


def cpu_name() -> str:
    """The CPU's model name and whether it has native bf16 (avx512_bf16 or amx_bf16), from lscpu."""
    out = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
    fields = dict(line.split(":", 1) for line in out.splitlines() if ":" in line)
    flags = fields.get("Flags", "").split()
    bf16 = [f for f in ("avx512_bf16", "amx_bf16") if f in flags]
    return f"{fields.get('Model name', '?').strip()}, {os.cpu_count()} cores, native bf16: {', '.join(bf16) or 'no'}"


def tags(path: Path) -> list[str]:
    return [line.split("\t")[1] for line in path.read_text(encoding="utf-8").splitlines() if "\t" in line]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--input", type=Path, default=DEFAULT_INPUT)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    env = {**os.environ, "OMP_NUM_THREADS": str(args.threads)}
    sciner = [sys.executable, "-m", "sciner"]
    with tempfile.TemporaryDirectory() as tmp:
        graph = Path(tmp) / "model.onnx"
        subprocess.run([*sciner, "export", "-o", str(graph), "-q"], check=True)
        runs = {
            "torch, precision auto": ["--precision", "auto"],
            "torch, fp32": ["--precision", "fp32"],
            "onnxruntime, fp32": ["-m", str(graph)],
        }
        seconds: dict[str, list[float]] = {name: [] for name in runs}
        memory: dict[str, int] = {}
        for _ in range(args.repeat):
            for name, options in runs.items():
                out = Path(tmp) / (name.replace(", ", "-").replace(" ", "") + ".conll")
                took, rss = run([*sciner, "predict", str(args.input), "-o", str(out), "-q", *options], env)
                seconds[name].append(took)
                memory[name] = max(memory.get(name, 0), rss)
        outputs = {name: tags(Path(tmp) / (name.replace(", ", "-").replace(" ", "") + ".conll")) for name in runs}
    n = len(outputs["onnxruntime, fp32"])
    print(f"{args.input.name}: {n} tokens; {cpu_name()}; torch threads {args.threads}; "
          f"whole processes, model loading included, medians of {args.repeat}")
    for name in runs:
        print(f"{name:<24}{statistics.median(seconds[name]):7.1f} s  {n / statistics.median(seconds[name]):7.0f} tokens/s"
              f"  peak RSS {memory[name]:5d} MB   runs: {' '.join(f'{s:.1f}' for s in seconds[name])}")
    for name in ("torch, fp32", "torch, precision auto"):
        same = sum(a == b for a, b in zip(outputs["onnxruntime, fp32"], outputs[name]))
        print(f"onnx tags equal to {name}: {same} of {n} ({same / n:.4%})")


if __name__ == "__main__":
    main()
