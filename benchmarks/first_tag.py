"""Where NumPy and torch meet for a deep model: whole ``sciner predict`` processes on inputs of
growing size (``sciner.inference.choose.SMALL_CALL_WORDS``).

    python benchmarks/first_tag.py --words 13,500,1000,2000,4000,8000,16000 --repeat 3 --threads 2
    OPENBLAS_CORETYPE=Haswell NPY_DISABLE_CPU_FEATURES="X86_V4 AVX512_ICL AVX512_SPR" ATEN_CPU_CAPABILITY=avx2 \
        ONEDNN_MAX_CPU_ISA=AVX2 python benchmarks/first_tag.py --precision fp32     # an AVX2-only CPU's stand-in

Each input is the first paragraphs of the 2022 test file up to about that many words (13: its
first line). Each size is tagged by three whole processes, in turn, --repeat times:

- ``numpy``: every call in NumPy, fp32 (``SMALL_CALL_WORDS`` set above every input);
- ``torch``: the torch network only, as before NumPy ran deep models (``--precision`` auto: bf16
  where the CPU has it natively);
- ``shipped``: what ``sciner predict`` does now (NumPy up to ``SMALL_CALL_WORDS`` words, torch
  above, with the NumPy network loaded first; on a CPU without native bf16, NumPy at every size).

Prints the CPU, the load average, each median wall second and whether the outputs of the three
are byte-identical (fp32 NumPy against bf16 torch may differ in a few tags).
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
sys.path.insert(0, str(ROOT / "benchmarks"))

RUN = """import contextlib
import sys
from unittest import mock
from sciner.inference import choose
from sciner.cli import main
mode = sys.argv.pop(1)
if mode == "numpy":
    choose.SMALL_CALL_WORDS = 10 ** 12
patch = mock.patch.object(choose, "bert_layers", return_value=False) if mode == "torch" else contextlib.nullcontext()
with patch:
    try:
        main()
    except SystemExit as e:
        assert not e.code, e.code
"""
MODES = ("numpy", "torch", "shipped")


def inputs(source: Path, sizes: list[int], folder: Path) -> list[tuple[int, Path]]:
    """Files of the first paragraphs of ``source`` with about each of ``sizes`` words (at least one paragraph)."""
    lines = source.read_text(encoding="utf-8").splitlines()
    out = []
    for size in sizes:
        taken, words = [], 0
        for line in lines:
            if taken and words + len(line.split()) > size:
                break
            taken.append(line)
            words += len(line.split())
        path = folder / f"in-{size}.txt"
        path.write_text("\n".join(taken) + "\n", encoding="utf-8")
        out.append((words, path))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--input", type=Path,
                        default=ROOT.parent / "shared" / "data" / "test-inputs" / "2022-official-test.txt")
    parser.add_argument("--words", default="13,500,1000,2000,4000,8000,16000", help="input sizes, comma-separated")
    parser.add_argument("--model", default="default")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--precision", default="auto", help="auto, or fp32 (what auto runs without native bf16)")
    args = parser.parse_args()
    from speed import cpu_name

    from sciner.inference.choose import SMALL_CALL_WORDS

    print(f"CPU: {cpu_name()}; load average {os.getloadavg()[0]:.1f}; --threads {args.threads}; "
          f"--precision {args.precision}; model {args.model}; SMALL_CALL_WORDS {SMALL_CALL_WORDS}")
    print(f"{'words':>7} {'numpy s':>8} {'torch s':>8} {'shipped s':>10}  numpy/torch  same tags")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for words, path in inputs(args.input, [int(w) for w in args.words.split(",")], folder):
            seconds: dict[str, list[float]] = {m: [] for m in MODES}
            for _ in range(args.repeat):
                for mode in MODES:
                    out = folder / f"out-{mode}.conll"
                    start = time.perf_counter()
                    subprocess.run([sys.executable, "-c", RUN, mode, "predict", str(path), "-o", str(out), "-q",
                                    "--model", args.model, "--threads", str(args.threads),
                                    "--precision", args.precision], check=True)
                    seconds[mode].append(time.perf_counter() - start)
            med = {m: statistics.median(s) for m, s in seconds.items()}
            texts = {m: (folder / f"out-{m}.conll").read_bytes() for m in MODES}
            same = "all" if len(set(texts.values())) == 1 else ", ".join(
                f"{a}={b}" for a, b in (("numpy", "torch"), ("shipped", "numpy"), ("shipped", "torch"))
                if texts[a] == texts[b]) or "none"
            print(f"{words:>7} {med['numpy']:>8.2f} {med['torch']:>8.2f} {med['shipped']:>10.2f}  "
                  f"{med['numpy'] / med['torch']:>11.2f}  {same}", flush=True)


if __name__ == "__main__":
    main()
