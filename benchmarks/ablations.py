"""Ablations of the seed methods on the leave-groups-out dev split, written to docs/results.md.

Every variant trains with the same data budget, epochs and seeds from configs/default.toml,
changing only what its row names; dev predictions are compared with the base by paired
bootstrap (`sciner compare`'s code). Finished runs are reused, so an interrupted run resumes.

    python benchmarks/ablations.py --pretrained runs/pretrain-minilm/encoder \
        [--budget-paragraphs 6000] [--epochs 1] [--seeds 13] [--data ../shared/data]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# name -> (description, overrides of configs/default.toml); "{pretrained}" is filled from --pretrained.
VARIANTS: dict[str, tuple[str, list[str]]] = {
    "base": ("base tagger (BIO head, constrained Viterbi)", ["model.head=bio"]),
    "cnn": ("+ CNN without segmentation (every word a segment)",
            ["model.head=span_finetune", "model.heads.span_finetune.segmentation=none"]),
    "random": ("+ CNN over random segments", ["model.head=span_finetune", "model.heads.span_finetune.segmentation=random"]),
    "dictionary": ("+ span fine-tuning (n-gram dictionary segments)",
                   ["model.head=span_finetune", "model.heads.span_finetune.segmentation=dictionary"]),
    "pretrain": ("+ span-masking pretraining (SpanBERT: MLM + SBO)", ["model.head=bio", "model.encoder={pretrained}"]),
    "both": ("+ both", ["model.head=span_finetune", "model.heads.span_finetune.segmentation=dictionary", "model.encoder={pretrained}"]),
    "span": ("span head instead of BIO (textbook span NER)", ["model.head=span"]),
    "noshape": ("base without word-shape features (casing)", ["model.head=bio", "model.shape_dim=0"]),
    "no_whitespace_groups": ("base without the 3 whitespace-tokenized groups",
                             ["model.head=bio", 'data.exclude_groups=["BalasubramanyamEvani__Scientific-Named-Entity-Recognition", '
                              '"haotianteng__11711Assignment2", "lwaekfjlk__NER4NLPPaper"]']),
    "no_lowercased_group": ("base without the lower-cased group", ["model.head=bio", 'data.exclude_groups=["Jadenyifanhe__ANLP_HW2"]']),
    "mpnet": ("base with all-mpnet-base-v2 (110M) instead of MiniLM (22M)", ["model.head=bio", "model.encoder=all-mpnet-base-v2"]),
}


def run_variant(name: str, seed: int, args: argparse.Namespace, corpus) -> Path:  # type: ignore[no-untyped-def]
    from sciner.config import load_config
    from sciner.training.checkpoints import CHECKPOINT
    from sciner.training.train import train

    out = args.runs / f"{name}-s{seed}"
    if (out / "dev.pred.conll").exists():
        return out
    overrides = [o.replace("{pretrained}", str(args.pretrained)) for o in VARIANTS[name][1]]
    overrides += [f"train.seed={seed}", f"train.epochs={args.epochs}", f"train.max_train_paragraphs={args.budget_paragraphs}",
                  f"train.patience={args.epochs}", f"train.threads={args.threads}",
                  f"train.batch_subwords={args.batch_subwords}"]
    cfg = load_config(args.config, overrides)
    cfg.data.data_dir = str(args.data)
    started = time.time()
    # Data variants assemble their own training set; the dev split is the same for all.
    own = None if any(o.startswith("data.") for o in overrides) else corpus
    train(cfg, out, resume=(out / CHECKPOINT).exists(), corpus=own, show_progress=not args.quiet)
    write_dev_predictions(out, corpus)
    (out / "seconds.txt").write_text(f"{time.time() - started:.0f}\n")
    return out


def write_dev_predictions(model_dir: Path, corpus) -> None:  # type: ignore[no-untyped-def]
    from sciner.formats.conll import write_conll
    from sciner.inference.tagger import Tagger

    import torch

    tagger = Tagger.load(model_dir, precision="fp32")
    torch.set_num_threads(int(json.loads((model_dir / "model.json").read_text())["config"]["train"]["threads"]))
    write_conll(tagger.tag(corpus.dev), model_dir / "dev.pred.conll")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--config", type=Path, default=ROOT / "configs" / "default.toml")
    parser.add_argument("--pretrained", type=Path, default=ROOT / "runs" / "pretrain-minilm" / "encoder")
    parser.add_argument("--runs", type=Path, default=ROOT / "runs" / "ablations")
    parser.add_argument("--budget-paragraphs", type=int, default=4000)
    parser.add_argument("--epochs", type=int, default=1)
    parser.add_argument("--seeds", type=int, nargs="+", default=[13])
    parser.add_argument("--variants", nargs="+", default=list(VARIANTS))
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "results.md")
    parser.add_argument("--threads", type=int, default=2, help="CPU threads per training run.")
    parser.add_argument("--batch-subwords", type=int, default=1024,
                        help="Smaller batches than the full run, so a small budget still makes enough updates.")
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args()

    from sciner.config import load_config
    from sciner.data.assemble import assemble
    from sciner.config import BOOTSTRAP_SAMPLES
    from sciner.evaluate.bootstrap import paired_bootstrap
    from sciner.evaluate.metrics import classification_report
    from sciner.formats.conll import read_conll
    from sciner.labels import ENTITY_TYPES

    cfg = load_config(args.config, [])
    cfg.data.data_dir = str(args.data)
    corpus = assemble(cfg.data, seed=cfg.train.seed)
    gold = [p.tags or [] for p in corpus.dev]
    needs_pretrained = {"pretrain", "both"}
    variants = [v for v in args.variants if v not in needs_pretrained or (args.pretrained / "config.json").exists()]
    skipped = [v for v in args.variants if v not in variants]

    preds: dict[tuple[str, int], list[list[str]]] = {}
    for seed in args.seeds:
        for name in variants:
            out = run_variant(name, seed, args, corpus)
            preds[(name, seed)] = [p.tags or [] for p in read_conll(out / "dev.pred.conll")]

    lines = [
        "# Ablations of the seed methods",
        "",
        "Generated by `python benchmarks/ablations.py "
        + f"--budget-paragraphs {args.budget_paragraphs} --epochs {args.epochs} --seeds {' '.join(map(str, args.seeds))}`"
        + " — do not edit by hand.",
        "",
        f"Dev split: leave-groups-out, {len(corpus.dev_groups)} held-out groups ({', '.join(corpus.dev_groups)}), "
        f"{len(corpus.dev)} paragraphs, {sum(len(p.tokens) for p in corpus.dev)} tokens. "
        f"Training budget per run: {args.budget_paragraphs} training paragraphs sampled with the run's seed, "
        f"{args.epochs} epoch(s), batches of {args.batch_subwords} subwords, encoder all-MiniLM-L6-v2, everything else as in configs/default.toml. "
        f"F1 is exact span+type; numbers are the mean over seeds {args.seeds}; p is the paired-bootstrap p-value "
        f"({BOOTSTRAP_SAMPLES} samples over paragraphs, first seed) that the variant is not better than the base.",
        "",
        "| variant | micro F1 | macro F1 | " + " | ".join(ENTITY_TYPES) + " | Δ vs base | 95% CI | p |",
        "|---|---|---|" + "---|" * len(ENTITY_TYPES) + "---|---|---|",
    ]
    for name in variants:
        reports = [classification_report(gold, preds[(name, s)]).to_dict() for s in args.seeds]
        micro = statistics.mean(r["micro"]["f1"] for r in reports)
        macro = statistics.mean(r["macro"]["f1"] for r in reports)
        per_type = [statistics.mean(r["per_type"].get(t, {"f1": 0.0})["f1"] for r in reports) for t in ENTITY_TYPES]
        if name == "base":
            delta = ci = p = "—"
        else:
            res = paired_bootstrap(gold, preds[(name, args.seeds[0])], preds[("base", args.seeds[0])])
            delta = f"{res.micro.delta:+.4f}"
            ci = f"[{res.micro.ci95[0]:+.4f}, {res.micro.ci95[1]:+.4f}]"
            p = f"{res.micro.p_value:.3f}"
        lines.append(f"| {VARIANTS[name][0]} | {micro:.4f} | {macro:.4f} | "
                     + " | ".join(f"{x:.3f}" for x in per_type) + f" | {delta} | {ci} | {p} |")
    if skipped:
        lines += ["", f"Not run: {', '.join(skipped)} (no pretrained encoder at {args.pretrained})."]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))
    json.dump({f"{k[0]}-s{k[1]}": len(v) for k, v in preds.items()}, sys.stderr)


if __name__ == "__main__":
    main()
