"""Tag the official test inputs end to end with `sciner predict` and check the output's shape.

For each file in <data>/test-inputs: run the CLI as a user would, time it, and check that
every token of every line came back, in order, with exactly one valid tag, paragraphs
separated by a blank line. Also the share of predicted spans that touch a span of their own
type (names split in two), which the test inputs, unlike the dev files, hold no tables to
excuse. Outputs go to a temporary folder (or --out) and are not committed.
``--paragraph-local`` tags each file a second time without the paper-level pass, and counts
the tags that differ.

    python benchmarks/tag_test_inputs.py [--data ../shared/data] [--out DIR] [--model PATH] [--paragraph-local]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def check(src: Path, out: Path) -> tuple[int, int, int, list[list[str]]]:
    """Paragraphs, tokens, entities and tags of ``out``; exits if it does not match ``src``."""
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
    return len(inputs), sum(len(p.tokens) for p in inputs), entities, [p.tags or [] for p in tagged]


def tag(src: Path, out: Path, model: Path | None, *extra: str) -> float:
    """Seconds ``sciner predict src -o out`` takes, run as a user would."""
    cmd = [sys.executable, "-m", "sciner", "predict", str(src), "-o", str(out), "-q", *extra]
    if model:
        cmd += ["--model", str(model)]
    start = time.perf_counter()
    subprocess.run(cmd, check=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--model", type=Path, default=None)
    parser.add_argument("--paragraph-local", action="store_true",
                        help="Also tag without the paper-level pass and compare.")
    args = parser.parse_args()
    from sciner.evaluate.metrics import touching_share

    files = sorted((args.data / "test-inputs").glob("*.txt"))
    if not files:
        sys.exit(f"no test inputs in {args.data / 'test-inputs'}")
    with tempfile.TemporaryDirectory() as tmp:
        out_dir = args.out or Path(tmp)
        out_dir.mkdir(parents=True, exist_ok=True)
        for src in files:
            out = out_dir / (src.stem + ".conll")
            seconds = tag(src, out, args.model)
            paras, tokens, entities, tags = check(src, out)
            print(f"{src.name:<28} {paras:>5} paragraphs {tokens:>7} tokens {entities:>6} entities "
                  f"{seconds:6.1f} s  {tokens / seconds:7.0f} tokens/s  (all tokens tagged once, valid BIO)")
            print(f"{'':<28} touching spans {touching_share(tags)[0]:.2%}")
            if args.paragraph_local:
                local = out_dir / (src.stem + ".local.conll")
                seconds = tag(src, local, args.model, "--paragraph-local")
                *_, local_tags = check(src, local)
                changed = sum(a != b for x, y in zip(tags, local_tags) for a, b in zip(x, y))
                print(f"{'':<28} --paragraph-local: {seconds:.1f} s, touching spans "
                      f"{touching_share(local_tags)[0]:.2%}; the paper-level pass changes {changed} of {tokens} tags")


if __name__ == "__main__":
    main()
