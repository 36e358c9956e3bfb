"""Tagging a corpus: the shared PDFs with 1 worker, with N worker processes, and through a local
Ray with N actors, as whole ``sciner predict PDFS -o DIR --workers ...`` processes (model
loading, process and Ray start-up included); seconds, speed-up over 1 worker, and whether every
output equals the plain run's (``sciner predict PDFS -o DIR``, inputs batched a chunk of
whole papers at a time), byte for byte.

    python benchmarks/corpus.py [--workers 2] [--threads 2] [--precision auto] [--no-ray]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from sciner.config import data_root
from sciner.files.run import MANIFEST


def run(args: list[str], threads: int) -> float:
    """Wall seconds of one ``sciner`` process with ``threads`` torch threads in all."""
    env = {**os.environ, "OMP_NUM_THREADS": str(threads)}  # torch's default thread count follows it
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "sciner", *args, "-q"], env=env, stderr=subprocess.PIPE, text=True)
    seconds = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"sciner {' '.join(args)} failed:\n{proc.stderr[-2000:]}")
    return seconds


def outputs(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and p.name != MANIFEST}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pdfs", type=Path, default=None, help="default: the shared data's pdfs/")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=2, help="torch threads in all, shared by the workers")
    parser.add_argument("--precision", default="auto")
    parser.add_argument("--no-ray", action="store_true")
    args = parser.parse_args()

    pdfs = sorted((args.pdfs or data_root(None) / "pdfs").glob("*.pdf"))
    common = ["--precision", args.precision]
    runs = [("plain (chunks)", []), ("1 worker", ["--workers", "1"]),
            (f"{args.workers} workers", ["--workers", str(args.workers)])]
    if not args.no_ray:
        runs.append((f"Ray, {args.workers} actors", ["--workers", str(args.workers), "--ray"]))
    with tempfile.TemporaryDirectory() as tmp:
        results = []
        for k, (name, extra) in enumerate(runs):
            out = Path(tmp) / str(k)
            seconds = run(["predict", *map(str, pdfs), "-o", f"{out}/", *common, *extra], args.threads)
            results.append((name, seconds, outputs(out)))
    reference, one_worker = results[0][2], results[1][1]
    print(f"{len(pdfs)} PDFs, {args.threads} threads in all, precision {args.precision}")
    print(f"{'run':<22} {'seconds':>8} {'speed-up':>9}  outputs")
    for name, seconds, files in results:
        same = "identical to plain" if files == reference else "DIFFERENT from plain"
        print(f"{name:<22} {seconds:>8.1f} {one_worker / seconds:>8.2f}x  {len(files)} files, {same}")


if __name__ == "__main__":
    main()
