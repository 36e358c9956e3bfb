"""Dev accuracy of a model (default: the shipped one) on the leave-groups-out dev split.

The dev split is the one in configs/default.toml: four whole groups held out of training
(see `sciner data stats`). Prints micro/macro and per-type precision, recall and F1.

A model calibrated by `sciner calibrate` carries per-type decision biases fit on these same
dev groups, so its scores "as shipped" are in-sample. The headline is then the cross-fitted
score: each dev group decoded with biases fit on the other dev groups only (refit here, about
two minutes), next to the scores without any bias.

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
                        help="Inference precision (see sciner.inference.tagger.Tagger.load).")
    parser.add_argument("--save-pred", type=Path, default=None, help="Write dev predictions (CoNLL) here.")
    parser.add_argument("--save-gold", type=Path, default=None, help="Write dev gold (CoNLL) here.")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    from sciner.config import load_config
    from sciner.data.assemble import assemble
    from sciner.evaluate.metrics import classification_report
    from sciner.formats.conll import write_conll
    from sciner.inference.tagger import Tagger

    cfg = load_config(args.config, [])
    cfg.data.data_dir = str(args.data)
    corpus = assemble(cfg.data, seed=cfg.train.seed)
    tagger = Tagger.load(args.model, precision=args.precision)
    start = time.perf_counter()
    tagged = tagger.tag(corpus.dev)
    seconds = time.perf_counter() - start
    gold = [p.tags or [] for p in corpus.dev]
    reports = {"as shipped": classification_report(gold, [p.tags or [] for p in tagged]).to_dict()}
    if tagger.meta.get("type_bias"):
        from sciner.inference.calibrate import DEFAULT, cross_fitted_tags, decode_with_bias
    
        log_probs = tagger.log_probs([p.tokens for p in corpus.dev])
        cross, _ = cross_fitted_tags(log_probs, gold, corpus.dev_group_of, DEFAULT)
        reports["cross-fitted"] = classification_report(gold, cross).to_dict()
        reports["no bias"] = classification_report(gold, decode_with_bias(log_probs, {}, DEFAULT.batch)).to_dict()
    headline = "cross-fitted" if "cross-fitted" in reports else "as shipped"
    if args.save_pred:
        write_conll(tagged, args.save_pred)
    if args.save_gold:
        write_conll(corpus.dev, args.save_gold)
    if args.json:
        json.dump(reports, sys.stdout, indent=2)
        print()
        return
    n_tokens = sum(len(p.tokens) for p in corpus.dev)
    print(f"model: {tagger.path}  (precision: {tagger.precision})")
    print(f"dev split: leave-groups-out, groups {', '.join(corpus.dev_groups)}")
    print(f"           {len(corpus.dev)} paragraphs, {n_tokens} tokens, tagged in {seconds:.1f} s")
    print(f"scores: {headline}")
    print(f"{'type':<22}{'precision':>10}{'recall':>10}{'f1':>10}{'support':>10}")
    report = reports[headline]
    for t, s in report["per_type"].items():
        print(f"{t:<22}{s['precision']:>10.4f}{s['recall']:>10.4f}{s['f1']:>10.4f}{s['support']:>10}")
    for avg in ("micro", "macro"):
        s = report[avg]
        print(f"{avg + ' avg':<22}{s['precision']:>10.4f}{s['recall']:>10.4f}{s['f1']:>10.4f}")
    if len(reports) > 1:
        names = [headline] + [n for n in reports if n != headline]
        print("\nF1 by decoding (as shipped = biases fit on these dev groups: in-sample, optimistic)")
        print(f"{'type':<22}" + "".join(f"{n:>14}" for n in names))
        for t in report["per_type"]:
            print(f"{t:<22}" + "".join(f"{reports[n]['per_type'][t]['f1']:>14.4f}" for n in names))
        for avg in ("micro", "macro"):
            print(f"{avg:<22}" + "".join(f"{reports[n][avg]['f1']:>14.4f}" for n in names))

if __name__ == "__main__":
    main()
