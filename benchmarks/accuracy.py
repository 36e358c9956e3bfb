"""Dev accuracy of a model (default: the shipped one) on the leave-groups-out dev split.

The dev split is the one in configs/default.toml: four whole groups held out of training
(see `sciner data stats`). Prints micro/macro and per-type precision, recall and F1.

    python benchmarks/accuracy.py [--model PATH] [--data ../shared/data] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", type=Path, default=None, help="Model directory (default: shipped model).")
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--config", type=Path, default=ROOT / "configs" / "default.toml")
    parser.add_argument("--precision", default="auto", choices=["auto", "fp32", "bf16", "int8"],
                        help="Inference precision (see sciner.tagger.Tagger.load).")
    parser.add_argument("--save-pred", type=Path, default=None, help="Write dev predictions (CoNLL) here.")
    parser.add_argument("--save-gold", type=Path, default=None, help="Write dev gold (CoNLL) here.")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    from sciner.config import load_config
    from sciner.data.assemble import assemble
    from sciner.evaluate.metrics import classification_report
    from sciner.formats.conll import write_conll
    from sciner.tagger import Tagger

    cfg = load_config(args.config, [])
    cfg.data.data_dir = str(args.data)
    corpus = assemble(cfg.data, seed=cfg.train.seed)
    tagger = Tagger.load(args.model, precision=args.precision)
    start = time.perf_counter()
    tagged = tagger.tag(corpus.dev)
    seconds = time.perf_counter() - start
    report = classification_report([p.tags or [] for p in corpus.dev], [p.tags or [] for p in tagged]).to_dict()
    if args.save_pred:
        write_conll(tagged, args.save_pred)
    if args.save_gold:
        write_conll(corpus.dev, args.save_gold)
    if args.json:
        json.dump(report, sys.stdout, indent=2)
        print()
        return
    n_tokens = sum(len(p.tokens) for p in corpus.dev)
    print(f"model: {tagger.path}  (precision: {tagger.precision})")
    print(f"dev split: leave-groups-out, groups {', '.join(corpus.dev_groups)}")
    print(f"           {len(corpus.dev)} paragraphs, {n_tokens} tokens, tagged in {seconds:.1f} s")
    print(f"{'type':<22}{'precision':>10}{'recall':>10}{'f1':>10}{'support':>10}")
    for t, s in report["per_type"].items():
        print(f"{t:<22}{s['precision']:>10.4f}{s['recall']:>10.4f}{s['f1']:>10.4f}{s['support']:>10}")
    for avg in ("micro", "macro"):
        s = report[avg]
        print(f"{avg + ' avg':<22}{s['precision']:>10.4f}{s['recall']:>10.4f}{s['f1']:>10.4f}")


if __name__ == "__main__":
    main()
