"""Dev accuracy of a model (default: the shipped one) on the leave-groups-out dev split.

The dev split is the one in configs/default.toml: four whole groups held out of training
(see `sciner data stats`). Prints micro/macro and per-type precision, recall and F1.

A model calibrated by `sciner calibrate` carries per-type decision biases fit on these same
dev groups, so its scores "as shipped" are in-sample. The headline is then the cross-fitted
score: each dev group decoded with biases fit on the other dev groups only (refit here, about
two minutes), next to the scores without any bias. "As shipped" tags the dev files as
`sciner predict` would, one document per file, so it includes the model's paper-level pass
(fit on these groups too); the cross-fitted and no-bias columns decode paragraph by paragraph.

    python benchmarks/accuracy.py [--model PATH] [--data ../shared/data] [--json]

``--steps`` measures paper-level decoding (:mod:`sciner.model.paper_decoding`) step by step, each
cross-fitted the same way (each dev group decoded with biases and paper-level parameters fit
on the other dev groups only): today (paragraph by paragraph), + consistency (a paper's tags
vote at its names' other occurrences), whole names alone (a penalty on touching same-type
names), and both. Per step: micro and per-type F1, a paired bootstrap against today, and the
share of predicted spans that touch a span of the same type (either side). A dev paragraph's
document is the file it came from (``--documents file``); some files hold several papers with
no boundary, so ``--documents window:N`` (N consecutive paragraphs of a file) and
``paragraph`` measure how much that matters. ``--context N`` adds a step with neighbouring
context (N words of the previous and next paragraph encoded around each one, untagged) at
tagging time only, with the shipped model, which was trained without it. About eight minutes
on 2 cores (twelve with --context).

    python benchmarks/accuracy.py --steps [--documents file|paragraph|window:N] [--context N]
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
    parser.add_argument("--steps", action="store_true", help="Measure paper-level decoding step by step.")
    parser.add_argument("--context", type=int, default=0, metavar="N",
                        help="With --steps, also measure neighbouring context at tagging time only: each "
                             "paragraph encoded with up to N words of the paragraphs before and after it.")
    parser.add_argument("--documents", default="file", help="What a dev document is, for --steps: file, "
                        "paragraph, or window:N (N consecutive paragraphs of a file).")
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
    if args.steps:
        steps(tagger, corpus, args.documents, args.json, args.context)
        return
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


def document_ids(corpus, how: str) -> list:
    """Each dev paragraph's document: its file, itself, or its window of N paragraphs of its file."""
    if how == "file":
        return [p.source for p in corpus.dev]
    if how == "paragraph":
        return list(range(len(corpus.dev)))
    if how.startswith("window:"):
        n = int(how.split(":", 1)[1])
        first: dict[str, int] = {}
        return [(p.source, (i - first.setdefault(p.source, i)) // n) for i, p in enumerate(corpus.dev)]
    raise SystemExit(f"--documents must be file, paragraph or window:N, not {how!r}")


def with_context_words(tokens: list[list[str]], docs: list, n: int) -> tuple[list[list[str]], list[int]]:
    """Each paragraph with up to ``n`` words of its document's previous and next paragraph
    around it, and where its own words start."""
    extended, offsets = [], []
    for i, words in enumerate(tokens):
        before = tokens[i - 1][-n:] if i > 0 and docs[i - 1] == docs[i] else []
        after = tokens[i + 1][:n] if i + 1 < len(tokens) and docs[i + 1] == docs[i] else []
        extended.append([*before, *words, *after])
        offsets.append(len(before))
    return extended, offsets


def with_context(tagger, tokens: list[list[str]], docs: list, n: int) -> tuple[list, float]:
    """Each paragraph's log-probs with up to ``n`` words of its document's previous and next
    paragraph encoded around it (context only, not tagged; FLERT-style), and the words
    encoded per word tagged."""
    extended, offsets = with_context_words(tokens, docs, n)
    log_probs = tagger.log_probs(extended)
    cost = sum(map(len, extended)) / max(sum(map(len, tokens)), 1)
    return [lp[o : o + len(w)] for lp, o, w in zip(log_probs, offsets, tokens)], cost


def steps(tagger, corpus, how: str, as_json: bool, context: int = 0) -> None:
    """Cross-fitted dev scores of paragraph-local decoding (today) and the paper-level steps;
    with ``context``, also both steps on log-probs computed with neighbouring context."""
    from sciner.evaluate.bootstrap import paired_bootstrap
    from sciner.evaluate.metrics import classification_report, touching_share
    from sciner.inference.calibrate import DEFAULT, cross_fitted_paper_tags, cross_fitted_tags

    tokens = [p.tokens for p in corpus.dev]
    gold = [p.tags or [] for p in corpus.dev]
    groups, docs = corpus.dev_group_of, document_ids(corpus, how)
    log_probs = tagger.log_probs(tokens)
    today, biases = cross_fitted_tags(log_probs, gold, groups, DEFAULT)
    tags = {"today": today}
    params = {}
    for name, consistency, whole_names in (("+ consistency", True, False), ("whole names", False, True),
                                           ("+ both", True, True)):
        tags[name], params[name] = cross_fitted_paper_tags(tokens, log_probs, gold, groups, docs, biases,
                                                           consistency=consistency, whole_names=whole_names)
    if context:
        context_probs, cost = with_context(tagger, tokens, docs, context)
        _, context_biases = cross_fitted_tags(context_probs, gold, groups, DEFAULT)
        name = f"+ context {context}"
        tags[name], params[name] = cross_fitted_paper_tags(tokens, context_probs, gold, groups, docs, context_biases)
    results = {}
    for name, pred in tags.items():
        report = classification_report(gold, pred)
        boot = paired_bootstrap(gold, pred, today)
        share, by_type = touching_share(pred)
        results[name] = {"report": report.to_dict(), "bootstrap": boot.to_dict(), "touching": share,
                         "touching_by_type": by_type,
                         "params": {g: p.to_meta() for g, p in params.get(name, {}).items()}}
    gold_touching = touching_share(gold)
    if as_json:
        json.dump({"documents": how, "steps": results, "gold_touching": gold_touching[0]}, sys.stdout, indent=2)
        print()
        return
    n_docs = len(set(docs))
    print(f"model: {tagger.path}  (precision: {tagger.precision})")
    print(f"dev: groups {', '.join(corpus.dev_groups)}; {len(corpus.dev)} paragraphs in {n_docs} documents "
          f"(--documents {how})")
    print("cross-fitted F1 (each dev group: biases and paper-level parameters fit on the other groups)")
    names = list(results)
    print(f"{'':<22}" + "".join(f"{n:>15}" for n in names))
    types = list(results["today"]["report"]["per_type"])
    for t in types:
        print(f"{t:<22}" + "".join(f"{results[n]['report']['per_type'][t]['f1']:>15.4f}" for n in names))
    for avg in ("micro", "macro"):
        print(f"{avg:<22}" + "".join(f"{results[n]['report'][avg]['f1']:>15.4f}" for n in names))
    for key in ("precision", "recall"):
        print(f"{'micro ' + key:<22}" + "".join(f"{results[n]['report']['micro'][key]:>15.4f}" for n in names))
    print(f"{'delta vs today':<22}" + "".join(f"{results[n]['bootstrap']['delta']:>+15.4f}" for n in names))
    print(f"{'bootstrap p':<22}" + "".join(f"{results[n]['bootstrap']['p_value']:>15.3f}" for n in names))
    print(f"{'touching spans':<22}" + "".join(f"{results[n]['touching']:>15.4f}" for n in names)
          + f"   (gold: {gold_touching[0]:.4f})")
    for t in types:
        print(f"{'  ' + t:<22}" + "".join(f"{results[n]['touching_by_type'].get(t, 0.0):>15.4f}" for n in names)
              + f"   (gold: {gold_touching[1].get(t, 0.0):.4f})")
    if context:
        print(f"+ context {context}: inference only, {cost:.2f} words encoded per word tagged "
              f"(paragraph-local: 1.00); both paper-level steps on top")
    print("parameters per held-out group (fit on the other three):")
    for name in names[1:]:
        for group, p in results[name]["params"].items():
            print(f"  {name:<14} {group:<48} {p}")


if __name__ == "__main__":
    main()
