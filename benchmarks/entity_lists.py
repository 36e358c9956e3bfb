"""Per-paper entity lists (type + name) of `sciner summarize` against the annotators' own lists.

Papers: the files of the four dev groups of configs/default.toml (a file is a paper; none of
them has -DOCSTART- lines). Predictions are cross-fitted as benchmarks/accuracy.py's are: the
shipped model tags the dev paragraphs, and each dev group is decoded with type biases and
paper-level parameters fit on the other three groups only (the shipped model's own biases
and paper-level parameters were fit on all four). Span scores are the model's, as `predict`
writes them.

The gold list of a paper: its gold spans of the scored types, spellings that fold alike
(:func:`sciner.summary.names.fold`: case, spaces, hyphens and punctuation dropped) as one
entity, and a short form defined in the text ("Speech translation ( ST )") one entity with its
long form when both are tagged with one type. The predicted list: the entities of
:func:`sciner.summary.assemble.summarize_paper` on the predicted spans. A predicted entity is
right when its name folds to a spelling of a gold entity of its type not matched yet
(:func:`sciner.summary.score.score_names`). F1 per type and micro, summed over papers.

The papers are split before measuring, by paper: sorted by path, even places tune, odd places
report. Rules are tuned on the tune half only; both halves are printed.

    python benchmarks/entity_lists.py [--model DIR] [--data ../shared/data] [--cache FILE]
                                       [--show tune|report] [--rules a,b|none] [--steps]

``--rules`` picks the cleaning rules (default: the summary's, sciner.summary.names.CLEAN_RULES;
``none``: the lists as tagged); ``--steps`` adds them one at a time. The predictions are
cached (``--cache``, default /tmp/sciner-entity-lists.json; the model's log-probabilities
too, in /tmp): 20 minutes the first time on 2 cores busy with other jobs
(the cross-fitted paper-level fit is most of it), seconds after.
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))


def predictions(model: Path | None, data: Path, config: Path) -> dict[str, Any]:
    """Dev paragraphs with gold tags, cross-fitted predicted tags and span scores."""
    from sciner.config import load_config
    from sciner.data.assemble import assemble
    from sciner.inference.calibrate import DEFAULT, cross_fitted_paper_tags, cross_fitted_tags
    from sciner.inference.tagger import Tagger
    from sciner.model.paper_decoding import scored_spans

    cfg = load_config(config, [])
    cfg.data.data_dir = str(data)
    corpus = assemble(cfg.data, seed=cfg.train.seed)
    tagger = Tagger.load(model)
    tokens = [p.tokens for p in corpus.dev]
    gold = [p.tags or [] for p in corpus.dev]
    start = time.perf_counter()
    saved = Path(f"/tmp/sciner-entity-lists-logprobs-{len(tokens)}.pkl")  # the slow part, kept across failures
    if saved.is_file():
        log_probs = pickle.loads(saved.read_bytes())
    else:
        log_probs = tagger.log_probs(tokens)
        saved.write_bytes(pickle.dumps(log_probs))
    groups, docs = corpus.dev_group_of, [p.source for p in corpus.dev]
    biased, biases = cross_fitted_tags(log_probs, gold, groups, DEFAULT)
    params = tagger.paper_level
    if params is not None:
        pred, _ = cross_fitted_paper_tags(tokens, log_probs, gold, groups, docs, biases,
                                          consistency=params.consistency, whole_names=bool(params.touch_penalty))
    else:
        pred = biased
    spans = [[[s.label, s.start, s.end, s.score] for s in scored_spans(t, lp)] for t, lp in zip(pred, log_probs)]
    return {"model": str(tagger.path), "seconds": time.perf_counter() - start,
            "paragraphs": [{"source": p.source, "group": g, "tokens": p.tokens, "gold": t, "pred": s}
                           for p, g, t, s in zip(corpus.dev, groups, gold, spans)]}


def papers(cached: dict[str, Any]) -> dict[str, dict[str, list]]:
    """Paper (file) -> its gold and predicted paragraphs, in reading order."""
    from sciner.document import Paragraph, Span

    out: dict[str, dict[str, list]] = defaultdict(lambda: {"gold": [], "pred": []})
    for row in cached["paragraphs"]:
        paper = out[row["source"]]
        paper["gold"].append(Paragraph(row["tokens"], source=row["source"], tags=row["gold"]))
        paper["pred"].append(Paragraph(row["tokens"], source=row["source"],
                                       spans=[Span(label, a, b, score) for label, a, b, score in row["pred"]]))
    return dict(out)


def gold_entities(paragraphs: list) -> list[dict[str, Any]]:
    """A paper's gold list: fold-alike spellings one entity, defined short forms joined to
    their long forms (each entity's ``name`` and ``aliases``)."""
    from sciner.summary.names import find_abbreviations, fold, trim
    from sciner.summary.score import SCORED_TYPES

    parent: dict[tuple[str, str], tuple[str, str]] = {}

    def find(key: tuple[str, str]) -> tuple[str, str]:
        parent.setdefault(key, key)
        while parent[key] != key:
            key = parent[key]
        return key

    spellings: dict[tuple[str, str], set[str]] = defaultdict(set)
    for p in paragraphs:
        for s in p.spans or []:
            if s.label in SCORED_TYPES:
                first, last = trim(p.tokens[s.start:s.end])  # "on NYT": the annotator took in the "on"
                text = " ".join(p.tokens[s.start + first:s.start + last])
                if fold(text):
                    find((s.label, fold(text)))
                    spellings[(s.label, fold(text))].add(text)
        for a in find_abbreviations(p.tokens):
            for s in p.spans or []:
                if (s.label in SCORED_TYPES and (s.start, s.end) == a.short_range
                        and any(t.label == s.label and (t.start, t.end) == a.long_range for t in p.spans or [])):
                    short, long = find((s.label, fold(a.short))), find((s.label, fold(a.long)))
                    if short != long:
                        parent[long] = short
    groups: dict[tuple[str, str], set[str]] = defaultdict(set)
    for key, texts in spellings.items():
        groups[find(key)] |= texts
    return [{"type": label, "name": sorted(texts)[0], "aliases": sorted(texts)} for (label, _), texts in groups.items()]


def score(cached: dict[str, Any], names: list[str], rules: tuple[str, ...]) -> dict[str, Any]:
    """Per-type and micro counts of the papers ``names``."""
    from sciner.evaluate.metrics import Counts
    from sciner.summary.assemble import PaperSummary, summarize_paper
    from sciner.summary.names import Gazetteer
    from sciner.summary.score import SCORED_TYPES, score_names

    by_paper = papers(cached)
    per_type = {t: Counts() for t in SCORED_TYPES}
    lists = {}
    gazetteer = Gazetteer()
    for name in names:
        paper = by_paper[name]
        summary = summarize_paper(name, paper["pred"], gazetteer, clean=rules)
        gold = gold_entities(paper["gold"])
        for t in SCORED_TYPES:
            only = PaperSummary(name, [e for e in summary.entities if e.type == t], [], [])
            per_type[t] = per_type[t] + score_names(only, {"entities": [e for e in gold if e["type"] == t]})
        lists[name] = {"pred": [(e.type, e.name, len(e.places)) for e in summary.entities if e.type in SCORED_TYPES],
                       "gold": [(e["type"], e["name"]) for e in gold]}
    micro = Counts()
    for c in per_type.values():
        micro = micro + c
    return {"per_type": per_type, "micro": micro, "lists": lists}


DANGLING_WORDS = {"-", "and", "or", "(", "[", "{"}


def dangling(words: list[str]) -> bool:
    """Ends on a dangling hyphen, "and", "or" or open bracket, or holds an unmatched bracket."""
    from sciner.summary.names import cut_brackets

    text = " ".join(words)
    return bool(words) and (words[-1].lower() in DANGLING_WORDS or words[-1][-1:] in "-([{"
                            or cut_brackets(text) != text)


def dangling_share(cached: dict[str, Any], rules: tuple[str, ...]) -> tuple[str, str]:
    """Of the tagged name spans, and of the names in the summaries' lists, the share that dangle."""
    from sciner.labels import NAME_TYPES
    from sciner.summary.assemble import summarize_paper

    spans = [row["tokens"][a:b] for row in cached["paragraphs"] for label, a, b, _ in row["pred"] if label in NAME_TYPES]
    names = [e.name.split() for name, paper in papers(cached).items()
             for e in summarize_paper(name, paper["pred"], None, clean=rules).entities]
    return (f"{sum(map(dangling, spans))}/{len(spans)} = {sum(map(dangling, spans)) / len(spans):.3f}",
            f"{sum(map(dangling, names))}/{len(names)} = {sum(map(dangling, names)) / max(len(names), 1):.3f}")


def split(names: list[str]) -> dict[str, list[str]]:
    """Tune and report halves, by paper: sorted by path, even places tune, odd report."""
    ordered = sorted(names)
    return {"tune": ordered[0::2], "report": ordered[1::2]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", type=Path, default=None, help="Model directory (default: shipped model).")
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--config", type=Path, default=ROOT / "configs" / "default.toml")
    parser.add_argument("--cache", type=Path, default=Path("/tmp/sciner-entity-lists.json"))
    parser.add_argument("--rules", default=None, help="Comma-separated cleaning rules to apply (default: the "
                        "summary's, sciner.summary.names.CLEAN_RULES; 'none': the lists as tagged).")
    parser.add_argument("--steps", action="store_true", help="Micro F1 as each rule of CLEAN_RULES is added in turn.")
    parser.add_argument("--show", choices=["tune", "report"], help="Print each paper's lists of that half.")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    if args.cache.is_file():
        cached = json.loads(args.cache.read_text())
    else:
        cached = predictions(args.model, args.data, args.config)
        args.cache.write_text(json.dumps(cached))
    from sciner.summary.names import CLEAN_RULES

    halves = split(sorted({row["source"] for row in cached["paragraphs"]}))
    if args.steps:
        print(f"{'rules':<34}" + "".join(f"{h + ' F1':>10}{'P':>7}{'R':>7}" for h in halves))
        for n in range(len(CLEAN_RULES) + 1):
            rules = CLEAN_RULES[:n]
            row = [score(cached, names, rules)["micro"] for names in halves.values()]
            label = "none (as tagged)" if not n else "+ " + rules[-1]
            print(f"{label:<34}" + "".join(f"{c.f1:>10.3f}{c.precision:>7.3f}{c.recall:>7.3f}" for c in row))
        for extra in ("one type",):
            row = [score(cached, names, CLEAN_RULES + (extra,))["micro"] for names in halves.values()]
            print(f"{'(+ ' + extra + ': not applied)':<34}"
                  + "".join(f"{c.f1:>10.3f}{c.precision:>7.3f}{c.recall:>7.3f}" for c in row))
        return
    rules = CLEAN_RULES if args.rules is None else tuple(r for r in args.rules.split(",") if r not in ("", "none"))
    results = {half: score(cached, names, rules) for half, names in halves.items()}
    if args.json:
        json.dump({half: {"micro": r["micro"].f1, **{t: c.f1 for t, c in r["per_type"].items()}}
                   for half, r in results.items()}, sys.stdout, indent=2)
        print()
        return
    print(f"model: {cached['model']}; dev papers (files) of the four dev groups, cross-fitted predictions")
    for half, names in halves.items():
        print(f"{half}: {', '.join(Path(n).parent.name.split('__')[0] + '/' + Path(n).stem for n in names)}")
    print(f"cleaning rules: {', '.join(rules) or 'none'}")
    print(f"{'type':<14}" + "".join(f"{h + ' P':>10}{h + ' R':>10}{h + ' F1':>10}" for h in results))
    for t in [*results["tune"]["per_type"], "micro"]:
        row = [r["micro"] if t == "micro" else r["per_type"][t] for r in results.values()]
        print(f"{t:<14}" + "".join(f"{c.precision:>10.3f}{c.recall:>10.3f}{c.f1:>10.3f}" for c in row))
    spans, listed = dangling_share(cached, rules)
    print(f"tagged name spans that dangle (end on '-', 'and', 'or', an open bracket, or hold an unmatched one): "
          f"{spans}; names in the lists that do: {listed}")
    print("counts (tp/predicted/gold): " + "; ".join(
        f"{h} {r['micro'].tp}/{r['micro'].predicted}/{r['micro'].support}" for h, r in results.items()))
    if args.show:
        for name, lists in results[args.show]["lists"].items():
            print(f"\n== {name}")
            gold = {(t, n) for t, n in lists["gold"]}
            print("pred:", "; ".join(f"{t[:4]}:{n}({m})" for t, n, m in lists["pred"]))
            print("gold:", "; ".join(f"{t[:4]}:{n}" for t, n in sorted(gold)))


if __name__ == "__main__":
    main()
