"""How right ``sciner summarize --include tables,captions`` is about a paper's results.

Two measures, on the 25 shared PDFs, each per split of the hand-made development set
``benchmarks/results_dev/headlines.tsv`` (the proposed method's headline numbers, written from
the PDFs before the reader was changed; 12 papers ``tune``, 13 ``report``: tune on the first,
report the second):

1. **Headline recall**: of the headline numbers, how many a result of the paper holds with the
   value equal as a number (a cell's leading number: "88.7 ± 0.17" is 88.7; "84.6/83.4" is
   84.6 or, split, 83.4), the metric right and the dataset right (one name containing the
   other once folded, the shorter two characters or more, against any of the alternatives the
   file lists "|"-separated). Also: the value alone, value and metric, and how many of the
   matched results say ``ours``.
2. **Precision** on samples drawn at random from the results (seeded by the sample's name, so
   each draw after a change of the reader is fresh) and judged by hand:
   ``--draw NAME`` writes ``results_dev/sample_NAME.tsv`` (each result with its row or
   sentence, its caption and its table's head rows, to judge from) with an empty
   ``judgement`` column, to be filled in with ``ok`` or ``wrong`` and a reason; every judged
   sample there is scored on each run. A result is ``ok`` when the number is a score the paper
   reports, its metric is right, and its dataset and model are right where given.

    python benchmarks/results.py --tagged DIR [--draw NAME] [--split report|tune|all] [-n 40]

``--tagged DIR`` reads ``DIR/<pdf stem>.jsonl`` (tag once: ``sciner predict PDFS -o DIR/ --to
jsonl --include tables,captions``); without it the PDFs are tagged here with the shipped model.
"""

from __future__ import annotations

import argparse
import csv
import random
import re
import sys
import tempfile
import zlib
from pathlib import Path
from typing import Any

import sciner
from sciner.config import data_root
from sciner.summary.names import fold

DEV = Path(__file__).resolve().parent / "results_dev"
SAMPLE_FIELDS = ("doc", "paragraph", "start", "source", "value", "metric", "dataset", "task", "model", "ours",
                 "judgement", "reason", "context")


def read_tsv(path: Path) -> list[dict[str, str]]:
    with open(path, encoding="utf-8", newline="") as handle:
        return list(csv.DictReader((line for line in handle if not line.startswith("#")), delimiter="\t"))


def numbers(text: str) -> list[float]:
    """The numbers a value stands for: its leading number, and each side of an "x / y" cell."""
    found = []
    for part in re.split(r"\s*/\s*", str(text)):
        match = re.match(r"[-+]?\d+(\.\d+)?", re.sub(r"[%,\s]", "", part))
        if match:
            found.append(float(match.group(0)))
    return found[:1] if len(found) > 2 else found


def same_name(gold: str, read: str | None) -> bool:
    """``read`` matches one of ``gold``'s "|"-separated alternatives (folded, one containing the
    other, the shorter two characters or more)."""
    fr = fold(read or "")
    for alternative in gold.split("|"):
        fa = fold(alternative)
        shorter = min(fa, fr, key=len)
        if fa and fr and (fa == fr or (len(shorter) >= 2 and (fa in fr or fr in fa))):
            return True
    return False


def summarize(data: Path, tagged: Path | None, docs: list[str]) -> dict[str, Any]:
    pdfs = {p.stem: p for p in sorted((data / "pdfs").glob("*.pdf"))}
    inputs = [tagged / f"{d}.jsonl" for d in docs] if tagged else [pdfs[d] for d in docs]
    with tempfile.TemporaryDirectory() as folder:
        done = sciner.summarize(inputs, Path(folder) / "s.json", data=data,
                                reading=sciner.Reading.of(include=("tables", "captions")), show_progress=False)
    return {p.doc: p for p in done.papers}


def recall(headlines: list[dict[str, str]], papers: dict[str, Any]) -> None:
    print("== headline recall (value as a number; metric and dataset right)")
    for split in ("tune", "report"):
        rows = [h for h in headlines if h["split"] == split]
        counts = {"value": 0, "value+metric": 0, "value+metric+dataset": 0, "ours": 0}
        for h in rows:
            results = papers[h["paper"]].results
            gold = float(h["value"])
            with_value = [r for r in results if any(abs(x - gold) < 1e-6 for x in numbers(r.value))]
            with_metric = [r for r in with_value if same_name(h["metric"], r.metric)]
            both = [r for r in with_metric if same_name(h["dataset"], r.dataset)]
            counts["value"] += bool(with_value)
            counts["value+metric"] += bool(with_metric)
            counts["value+metric+dataset"] += bool(both)
            counts["ours"] += any(getattr(r, "ours", False) for r in both)
        papers_n = len({h["paper"] for h in rows})
        print(f"{split}: {len(rows)} headline numbers in {papers_n} papers")
        for key, n in counts.items():
            label = "of those, marked ours" if key == "ours" else key
            print(f"  {label:<22} {n:>3}/{len(rows)} = {n / max(len(rows), 1):.3f}")
        per_paper = {}
        for h in rows:
            per_paper.setdefault(h["paper"], [0, 0])[1] += 1
        for h in rows:
            results = papers[h["paper"]].results
            hit = any(any(abs(x - float(h["value"])) < 1e-6 for x in numbers(r.value)) and same_name(h["metric"], r.metric)
                      and same_name(h["dataset"], r.dataset) for r in results)
            per_paper[h["paper"]][0] += hit
        print("  per paper: " + ", ".join(f"{p.removeprefix('arxiv_').removeprefix('acl_')[:18]} {a}/{b}"
                                          for p, (a, b) in per_paper.items()))


def context(paper: Any, place: tuple[int, int, int]) -> tuple[str, str]:
    """Where a result was read: ("table N" or "sentence", the row / sentence and, for a table,
    its caption's start and head rows)."""
    paragraphs = paper.paragraphs
    p = paragraphs[place[0]]
    table = p.meta.get("table")
    if p.meta.get("cells") and isinstance(table, str):
        rows = [q for q in paragraphs if q.meta.get("table") == table and q.meta.get("page") == p.meta.get("page")]
        heads = []
        for q in rows:
            if q is p or any(re.fullmatch(r"[-+]?\d+(\.\d+)?%?", t) for t in q.tokens):
                break
            heads.append(" ".join(q.tokens))
        caption = next((" ".join(q.tokens[:30]) for q in paragraphs if q.meta.get("kind") == "caption"
                        and " ".join(q.tokens[:4]).replace(" ", "").lower().startswith(table.replace(" ", "").lower())),
                       "")
        return table, f"ROW: {' '.join(p.tokens)} || HEADS: {' // '.join(heads)[:300]} || CAPTION: {caption}"
    start = max(0, place[1] - 30)
    return "sentence", " ".join(p.tokens[start:place[2] + 20])


def draw(name: str, papers: dict[str, Any], docs: list[str], n: int) -> Path:
    pool = [(doc, r) for doc in docs for r in papers[doc].results]
    rng = random.Random(zlib.crc32(name.encode()))
    chosen = sorted(rng.sample(pool, min(n, len(pool))), key=lambda x: (x[0], x[1].place))
    out = DEV / f"sample_{name}.tsv"
    with open(out, "w", encoding="utf-8", newline="") as handle:
        handle.write(f"# {len(chosen)} results drawn at random (seed: crc32 of {name!r}) from the {len(pool)} results of "
                     f"the {len(docs)} papers judged; judgement ok/wrong + reason, filled in by hand\n")
        writer = csv.DictWriter(handle, SAMPLE_FIELDS, delimiter="\t", lineterminator="\n")
        writer.writeheader()
        for doc, r in chosen:
            source, text = context(papers[doc], r.place)
            writer.writerow({"doc": doc, "paragraph": r.place[0], "start": r.place[1], "source": source,
                             "value": r.value, "metric": r.metric or "", "dataset": r.dataset or "",
                             "task": r.task or "", "model": r.model or "", "ours": getattr(r, "ours", ""),
                             "judgement": "", "reason": "", "context": text.replace("\t", " ").replace("\n", " ")})
    return out


def precision() -> None:
    print("\n== precision on the samples judged by hand (benchmarks/results_dev/sample_*.tsv)")
    for path in sorted(DEV.glob("sample_*.tsv")):
        rows = [r for r in read_tsv(path) if r["judgement"] in ("ok", "wrong")]
        if not rows:
            print(f"{path.name}: not judged yet")
            continue
        ok = sum(r["judgement"] == "ok" for r in rows)
        tables = [r for r in rows if r["source"] != "sentence"]
        print(f"{path.name}: {ok}/{len(rows)} = {ok / len(rows):.3f}   (tables {sum(r['judgement'] == 'ok' for r in tables)}"
              f"/{len(tables)}, sentences {sum(r['judgement'] == 'ok' for r in rows if r['source'] == 'sentence')}"
              f"/{len(rows) - len(tables)}; dataset empty in {sum(not r['dataset'] for r in rows)})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=None)
    parser.add_argument("--tagged", type=Path, default=None, help="folder of <pdf stem>.jsonl tagged with tables, captions")
    parser.add_argument("--draw", default=None, help="draw a fresh sample to judge, named NAME")
    parser.add_argument("--split", default="report", choices=("tune", "report", "all"),
                        help="the papers the sample is drawn from")
    parser.add_argument("-n", type=int, default=40)
    args = parser.parse_args(argv)
    data = args.data or data_root()
    headlines = read_tsv(DEV / "headlines.tsv")
    docs = sorted({h["paper"] for h in headlines})
    papers = summarize(data, args.tagged, docs)
    total = sum(len(p.results) for p in papers.values())
    report = {h["paper"] for h in headlines if h["split"] == "report"}
    others = sum(len(p.not_results) for p in papers.values())
    print(f"{total} results in {len(papers)} papers ({sum(len(papers[d].results) for d in report)} in report papers); "
          f"{others} numbers classed as no result")
    recall(headlines, papers)
    if args.draw:
        split_docs = sorted({h["paper"] for h in headlines if args.split in (h["split"], "all")})
        print(f"\ndrew {draw(args.draw, papers, split_docs, args.n)}")
    precision()
    return 0


if __name__ == "__main__":
    sys.exit(main())
