"""Adapting the shipped model to a new domain (`sciner train PAPERS --init default`), measured as
a new user would meet it: for each of the four dev groups (held out of the shipped model's
training, see `sciner info`), train the shipped model on half of the group's papers (a seeded
split; `sciner train` takes its own dev papers out of that half) and test on the other half,
against the shipped model alone. Both are tagged as `sciner predict` tags (type biases and the
paper-level pass, one document per paper) and compared with a paired bootstrap that resamples
papers.

Decoding parameters held out: the shipped model's type biases and paper-level parameters were fit
on the four dev groups, the tested half included, and an adapted model inherits them. Both models
are therefore decoded with the parameters `sciner calibrate` fits on the *other three* dev groups
(the shipped model's log-probabilities; computed once, kept in OUT/decoding.json), so neither
side is scored with parameters fit on the papers it is tested on. ``--decoding own`` scores
both with their own model.json's instead (the leaky comparison; results kept apart, in
result-own.json).

A paper is a file or a -DOCSTART- document of the group. Where a group has fewer than
``--min-papers`` of them (some groups put several papers in one file), its files are cut into
consecutive pieces of about ``--chunk-tokens`` tokens (fewer where the group would not make 8)
at paragraph boundaries, and those pieces are the units (the table says which).

Each group's run is resumable (the training keeps a checkpoint until it ends; a finished group's
result.json is read back), so the script can be stopped and started again:

    nice -n 5 python benchmarks/adapt.py --out /tmp/adapt [--epochs 4] [--groups parthmehta15 ...] [--set K=V]
    python benchmarks/adapt.py --out /tmp/adapt --measure   # steps/s of one adaptation, then stop
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# Smallest first, so that a run cut short has finished some.
GROUPS = ("prasoonvarshney__scientific-entity-recognition", "MarcoW311__11711-AS2-NLPSys",
          "parthmehta15__Scientific-Entity-Recognition", "momogasuki__scentific-entity-recognition")


def units_of(group_dir: Path, min_papers: int, chunk_tokens: int) -> tuple[str, list[tuple[str, list]]]:
    """The group's papers (files, or -DOCSTART- documents), or pieces of its files when too few."""
    from sciner.formats.conll import read_conll

    papers: dict[str, list] = {}
    for path in sorted(group_dir.glob("*.conll")):
        for p in read_conll(path):
            papers.setdefault(f"{path.stem}#{p.meta.get('doc', '')}", []).append(p)
    if len(papers) >= min_papers:
        return "paper", list(papers.items())
    total = sum(len(p.tokens) for paragraphs in papers.values() for p in paragraphs)
    chunk_tokens = min(chunk_tokens, total // 8)  # at least 8 pieces: 4 to adapt on (2 of them dev), 4 to test
    pieces: list[tuple[str, list]] = []
    for name, paragraphs in papers.items():
        current: list = []
        for p in paragraphs:
            current.append(p)
            if sum(len(q.tokens) for q in current) >= chunk_tokens:
                pieces.append((f"{name}@{len(pieces)}", current))
                current = []
        if current:
            pieces.append((f"{name}@{len(pieces)}", current))
    return f"piece of ~{chunk_tokens} tokens", pieces


def heldout_decoding(args: argparse.Namespace) -> dict[str, dict]:
    """Per dev group: the type biases and paper-level parameters fit on the other three dev groups
    with the shipped model (as benchmarks/accuracy.py cross-fits them)."""
    cache = args.out / "decoding.json"
    if cache.exists():
        return json.loads(cache.read_text())
    from sciner.config import load_config
    from sciner.data.assemble import assemble
    from sciner.inference.calibrate import DEFAULT, cross_fitted_paper_tags, cross_fitted_tags
    from sciner.inference.tagger import Tagger

    cfg = load_config(ROOT / "configs" / "default.toml", [])
    cfg.data.data_dir = str(args.data)
    corpus = assemble(cfg.data, seed=cfg.train.seed)
    tokens = [list(p.tokens) for p in corpus.dev]
    gold = [p.tags or [] for p in corpus.dev]
    print(f"fitting decoding parameters without each dev group ({len(tokens)} dev paragraphs)", file=sys.stderr)
    log_probs = Tagger.load(None, precision="fp32").log_probs(tokens)
    _, biases = cross_fitted_tags(log_probs, gold, corpus.dev_group_of, DEFAULT)
    _, papers = cross_fitted_paper_tags(tokens, log_probs, gold, corpus.dev_group_of,
                                        [p.source for p in corpus.dev], biases)
    out = {g: {"type_bias": biases[g], "paper_level": papers[g].to_meta()} for g in biases}
    args.out.mkdir(parents=True, exist_ok=True)
    cache.write_text(json.dumps(out, indent=2))
    return out


def decoded(model_dir: Path | None, paragraphs: list, documents: list[str], decoding: dict) -> list[list[str]]:
    """Tags of ``paragraphs`` by the model at ``model_dir`` (None: the shipped one), paper by
    paper, with ``decoding``'s type biases and paper-level parameters instead of its own."""
    from sciner.inference.tagger import Tagger
    from sciner.model.paper_decoding import PaperLevel, decode_documents, documents_of

    tokens = [list(p.tokens) for p in paragraphs]
    log_probs = Tagger.load(model_dir, precision="fp32").log_probs(tokens)
    return decode_documents(tokens, log_probs, documents_of(documents), decoding["type_bias"],
                            PaperLevel.from_meta(decoding["paper_level"]))


def adapt_group(group: str, args: argparse.Namespace, decoding: dict) -> dict:
    from sciner.evaluate.bootstrap import paired_bootstrap
    from sciner.evaluate.metrics import classification_report
    from sciner.formats.conll import write_conll
    from sciner.training.train import run_config, train

    work = args.out / group
    result_file = work / ("result.json" if args.decoding == "heldout" else "result-own.json")
    if result_file.exists() and not args.measure:
        return json.loads(result_file.read_text())
    unit, units = units_of(args.data / "annotated" / group, args.min_papers, args.chunk_tokens)
    order = list(range(len(units)))
    random.Random(args.seed).shuffle(order)
    half = (len(units) + 1) // 2  # the larger half to adapt on: `sciner train` takes 2+ dev papers from it
    train_units = [units[i] for i in sorted(order[:half])]
    test_units = [units[i] for i in sorted(order[half:])]
    folder = work / "train"
    folder.mkdir(parents=True, exist_ok=True)
    for k, (name, paragraphs) in enumerate(train_units):
        target = folder / f"unit{k:02d}.conll"
        if not target.exists():
            write_conll(paragraphs, target)
    overrides = [f"train.epochs={args.epochs}", f"train.threads={args.threads}", *args.set]
    if args.measure:
        overrides += ["train.epochs=1", "train.max_batches_per_epoch=4"]
    cfg = run_config(None, overrides, files=[folder], init="default")
    cfg.data.data_dir = str(args.data)
    model_dir = work / ("measure" if args.measure else "model")
    started = time.monotonic()
    if not (model_dir / "model.json").exists() or (model_dir / "checkpoint.pt").exists():
        train(cfg, model_dir, resume=(model_dir / "checkpoint.pt").exists(), show_progress=True)
    history = json.loads((model_dir / "history.json").read_text())
    if args.measure:
        curve = (model_dir / "loss.tsv").read_text().splitlines()
        last = curve[-1].split("\t")
        print(f"{group}: {last[0]} steps in {float(last[-1]):.0f} s of training "
              f"({int(last[0]) / float(last[-1]):.3f} steps/s); epoch 0 scoring {history[0]['seconds']} s")
        return {}

    gold_paras = [p for _, paragraphs in test_units for p in paragraphs]
    documents = [name for name, paragraphs in test_units for _ in paragraphs]
    gold = [p.tags or [] for p in gold_paras]
    if args.decoding == "heldout":
        pred_s = decoded(None, gold_paras, documents, decoding)
        pred_a = decoded(model_dir, gold_paras, documents, decoding)
    else:
        from sciner.inference.tagger import Tagger

        pred_s = [p.tags or [] for p in Tagger.load(None, precision="fp32").tag(gold_paras, documents=documents)]
        pred_a = [p.tags or [] for p in Tagger.load(model_dir, precision="fp32").tag(gold_paras, documents=documents)]
    boot = paired_bootstrap(gold, pred_a, pred_s, samples=1000, seed=0, units=documents)
    result = {
        "group": group, "unit": unit, "train_units": len(train_units), "test_units": len(test_units),
        "train_tokens": sum(len(p.tokens) for _, ps in train_units for p in ps),
        "test_tokens": sum(len(p.tokens) for p in gold_paras),
        "epochs_run": len(history) - 1, "best_epoch": json.loads((model_dir / "model.json").read_text())["epoch"],
        "train_seconds": round(sum(h["seconds"] for h in history) + 0.0, 1),
        "wall_seconds_this_call": round(time.monotonic() - started, 1),
        "shipped": classification_report(gold, pred_s).to_dict(),
        "adapted": classification_report(gold, pred_a).to_dict(),
        "bootstrap": boot.to_dict(),
        "decoding": decoding if args.decoding == "heldout" else "each model's own model.json",
    }
    result_file.write_text(json.dumps(result, indent=2))
    return result


def table(results: list[dict]) -> str:
    lines = []
    for r in results:
        b = r["bootstrap"]
        unit = "papers" if r["unit"] == "paper" else f"pieces ({r['unit'][len('piece of '):]} each)"
        lines.append(f"\n{r['group']}: adapted on {r['train_units']} {unit} ({r['train_tokens']} tokens; "
                     f"{r['epochs_run']} epochs run, best epoch {r['best_epoch']}, {r['train_seconds']:.0f} s), "
                     f"tested on {r['test_units']} ({r['test_tokens']} tokens); bootstrap resampled these "
                     f"{b['units']} {'papers' if r['unit'] == 'paper' else 'pieces'}")
        lines.append(f"  {'type':<20}{'shipped':>9}{'adapted':>9}{'delta':>9}  {'95% interval':^19}{'p':>7}")
        for t, d in b["per_type"].items():
            lines.append(f"  {t:<20}{d['f1_b']:>9.3f}{d['f1_a']:>9.3f}{d['delta']:>+9.3f}  "
                         f"[{d['ci95'][0]:+.3f}, {d['ci95'][1]:+.3f}]{d['p_value']:>7.3f}")
        lines.append(f"  {'micro':<20}{r['shipped']['micro']['f1']:>9.3f}{r['adapted']['micro']['f1']:>9.3f}"
                     f"{b['delta']:>+9.3f}  [{b['ci95'][0]:+.3f}, {b['ci95'][1]:+.3f}]{b['p_value']:>7.3f}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, required=True, help="Work folder (resumable).")
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--groups", nargs="*", default=None, help="Group names or prefixes (default: the four).")
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--min-papers", type=int, default=6)
    parser.add_argument("--chunk-tokens", type=int, default=3000)
    parser.add_argument("--set", action="append", default=[], metavar="SECTION.KEY=VALUE",
                        help="A config override for every adaptation (after the init schedule), e.g. "
                             "train.max_batches_per_epoch=10 to fit a CPU budget.")
    parser.add_argument("--decoding", choices=("heldout", "own"), default="heldout",
                        help="heldout (default): both models decoded with the type biases and paper-level "
                             "parameters fit on the other three dev groups; own: each model's model.json.")
    parser.add_argument("--measure", action="store_true", help="Time 4 steps of each group's adaptation and stop.")
    args = parser.parse_args()
    groups = [g for g in GROUPS if not args.groups or any(g.startswith(x) for x in args.groups)]
    decoding = {} if args.measure or args.decoding == "own" else heldout_decoding(args)
    results = []
    for group in groups:
        print(f"== {group}", file=sys.stderr, flush=True)
        result = adapt_group(group, args, decoding.get(group, {}))
        if result:
            results.append(result)
            print(table([result]), flush=True)
    if results and len(results) > 1:
        wins = sum(r["bootstrap"]["delta"] > 0 for r in results)
        print(f"\nadapted better than shipped (micro F1) in {wins} of {len(results)} groups; "
              f"significant (p < 0.05) in {sum(r['bootstrap']['p_value'] < 0.05 for r in results)}")
        (args.out / ("results.json" if args.decoding == "heldout" else "results-own.json")).write_text(
            json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
