"""How small the compact soft labels are (issue 20 item 4): raw/ paragraphs labelled by a
teacher, then packed (`sciner distill compact`: the top-k tags, their probabilities to 1/255),
against the shard folder.

The teacher here is any model folder (default: the shipped model, on this CPU); on a GPU
machine it is the mpnet teacher, whose labels are carried home in this form. Prints the
tokens, both sizes, the bytes a token and what all of raw/ (its tokens counted by
whitespace splitting of raw/*.txt) would take, with the tokens' text and in labels alone (the
tokens can be made again from raw/ on the CPU machine: the split is seeded).

    python benchmarks/compact_labels.py [--teacher src/sciner/models/default] [--paragraphs 20000]
"""

from __future__ import annotations

import argparse
import lzma
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--teacher", default=str(ROOT / "src" / "sciner" / "models" / "default"))
    parser.add_argument("--paragraphs", type=int, default=20000)
    parser.add_argument("--data", type=Path, default=None, help="shared data folder (default: ../shared/data)")
    args = parser.parse_args(argv)

    from sciner.config import data_root
    from sciner.data.soft_labels import load_soft_labels, write_compact

    data = data_root(args.data)
    cpu = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
    name = next((line.split(":", 1)[1].strip() for line in cpu.splitlines() if line.startswith("Model name")), "?")
    with tempfile.TemporaryDirectory() as folder:
        soft, packed = Path(folder) / "soft", Path(folder) / "raw.labels.xz"
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "sciner", "distill", "label", "--config", str(ROOT / "configs" / "distill.toml"),
                        "--raw", str(data / "raw"), "--teacher", args.teacher, "--paragraphs", str(args.paragraphs),
                        "--device", "cpu", "-o", str(soft), "-q"], check=True)
        labelled = time.perf_counter() - start
        write_compact(soft, packed)
        folder_mb = sum(p.stat().st_size for p in soft.iterdir()) / 1e6
        compact_mb = packed.stat().st_size / 1e6
        full, back = load_soft_labels(soft), load_soft_labels(packed)
    tokens = sum(len(p.tokens) for p in full)
    from sciner.data.soft_labels import quantize_probs

    labels_only = len(lzma.compress(np.concatenate([p.top_ids for p in full]).tobytes()
                                    + np.concatenate([quantize_probs(p.top_probs) for p in full]).tobytes(),
                                    preset=9)) / 1e6
    same = all((a.top_ids == b.top_ids).all() for a, b in zip(full, back))
    error = np.concatenate([np.abs(a.dense() - b.dense()).ravel() for a, b in zip(full, back)])
    raw_tokens = sum(len(line.split()) for path in sorted((data / "raw").glob("*.txt"))
                     for line in path.open(encoding="utf-8", errors="replace"))
    per_token = compact_mb * 1e6 / tokens
    print(f"CPU: {name}; teacher {args.teacher}; labelled in {labelled:.0f} s")
    print(f"{len(full)} paragraphs, {tokens} tokens")
    print(f"shard folder (top-4 ids + fp16 probs, npz): {folder_mb:.2f} MB = {folder_mb * 1e6 / tokens:.2f} bytes/token")
    print(f"compact (top-k tags + 8-bit probabilities, xz): {compact_mb:.2f} MB = {per_token:.2f} bytes/token "
          "(the tokens' text included)")
    print(f"of which the labels alone (xz): {labels_only:.2f} MB = {labels_only * 1e6 / tokens:.3f} bytes/token")
    print(f"every kept tag the same: {same}; probability error mean {error.mean():.5f}, max {error.max():.4f}")
    print(f"all of raw/ ({raw_tokens / 1e6:.1f}M whitespace tokens) at these rates: {raw_tokens * per_token / 1e6:.0f} MB "
          f"with the tokens, {raw_tokens * labels_only / tokens:.1f} MB of labels")
    return 0


if __name__ == "__main__":
    sys.exit(main())
