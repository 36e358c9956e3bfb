"""Tag the official test inputs end to end with `sciner predict` and check the output's shape.

For each file in <data>/test-inputs: run the CLI as a user would, time it, and check that
every token of every line came back, in order, with exactly one valid tag, paragraphs
separated by a blank line. Outputs go to a temporary folder (or --out) and are not committed.

    python benchmarks/tag_test_inputs.py [--data ../shared/data] [--out DIR] [--model PATH]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def check(src: Path, out: Path) -> tuple[int, int, int]:
    """Paragraphs, tokens and entities of ``out``; exits if it does not match ``src``."""
    from sciner.formats.conll import read_conll
    from sciner.formats.paragraphs import read_paragraphs
    from sciner.formats.spans import find_stray_tags

    inputs = read_paragraphs(src)
    tagged = read_conll(out)
    if len(inputs) != len(tagged):
        sys.exit(f"{out}: {len(tagged)} paragraphs for {len(inputs)} input lines")
    entities = 0
    for i, (a, b) in enumerate(zip(inputs, tagged)):
        if a.tokens != b.tokens:
            sys.exit(f"{out}: paragraph {i + 1} tokens differ from the input")
        if find_stray_tags(b.tags or []):
            sys.exit(f"{out}: paragraph {i + 1} has invalid BIO")
        entities += sum(t.startswith("B-") for t in b.tags or [])
    return len(inputs), sum(len(p.tokens) for p in inputs), entities


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--model", type=Path, default=None)
    args = parser.parse_args()
    files = sorted((args.data / "test-inputs").glob("*.txt"))
    if not files:
        sys.exit(f"no test inputs in {args.data / 'test-inputs'}")
    with tempfile.TemporaryDirectory() as tmp:
        out_dir = args.out or Path(tmp)
        out_dir.mkdir(parents=True, exist_ok=True)
        for src in files:
            out = out_dir / (src.stem + ".conll")
            cmd = [sys.executable, "-m", "sciner", "predict", str(src), "-o", str(out), "-q"]
            if args.model:
                cmd += ["--model", str(args.model)]
            start = time.perf_counter()
            subprocess.run(cmd, check=True)
            seconds = time.perf_counter() - start
            paras, tokens, entities = check(src, out)
            print(f"{src.name:<28} {paras:>5} paragraphs {tokens:>7} tokens {entities:>6} entities "
                  f"{seconds:6.1f} s  {tokens / seconds:7.0f} tokens/s  (all tokens tagged once, valid BIO)")


if __name__ == "__main__":
    main()
