"""How good ``sciner summarize`` is, two ways.

1. Names and pairs against the hand-checked gold of three shared papers
   (``tests/fixtures/summarize``: their tagged body text and a JSON per paper of the entity
   names and value -> name pairs read off it): precision and recall, per paper and summed.
2. Leaderboard results: of the tuples ``gazetteers/leaderboards_results_tdms.tsv`` lists for
   the shared PDFs (rows whose ``paper_url`` is ``https://arxiv.org/abs/<id>`` of a shared
   arXiv PDF: 39 rows for six papers), how many the papers' ``results`` hold, a tuple matching
   when dataset, metric and value agree after normalisation (names folded, one containing the
   other when the shorter has two characters or more, so "CoNLL 2003 (English)" meets
   "CoNLL-2003", "Avg F1" meets "F1" and "Average F 1", but "F" does not meet "F1"; values equal
   as numbers, a value's leading number counting: "92.22 ± 0.10" is 92.22). Also how many of
   the values are among the paper's MetricValues at all. Most leaderboard numbers sit in
   results tables, which the PDFs are read with by default here (``--include tables,captions``,
   as ``sciner summarize --include`` reads them); ``--include ""`` reads the body alone.

    python benchmarks/summarize.py [--data ../shared/data] [--include tables,captions] [--tagged DIR]

3. Results read off tables: precision on samples of them checked by hand
   (``tests/fixtures/summarize/table_results.judged.json``: 40 drawn at random from the results
   the 25 shared PDFs give with ``--include tables,captions`` while the reader was improved,
   and 40 drawn after, held out): of those still read with the same metric and dataset, how
   many have the right metric, and the right dataset where one is given.

``--tagged DIR`` reads ``DIR/<pdf stem>.jsonl`` (``sciner predict PDFS -o DIR/ --to jsonl
--include tables,captions``) instead of tagging the six PDFs with the shipped model.
"""

from __future__ import annotations

import argparse
import csv
import gzip
import json
import re
import sys
import tempfile
import time
from pathlib import Path

import sciner
from sciner.config import data_root
from sciner.summary.names import fold
from sciner.summary.score import line, score_names, score_pairs

FIXTURES = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "summarize"


def gold_scores(data: Path) -> None:
    with tempfile.TemporaryDirectory() as folder:
        for gz in sorted(FIXTURES.glob("*.jsonl.gz")):
            (Path(folder) / gz.name.removesuffix(".gz")).write_bytes(gzip.decompress(gz.read_bytes()))
        done = sciner.summarize(sorted(Path(folder).glob("*.jsonl")), Path(folder) / "s.json", data=data,
                                show_progress=False)
    by_doc = {p.doc: p for p in done.papers}
    total_names = total_pairs = None
    print("== names and value pairs against the hand-checked gold (tests/fixtures/summarize)")
    for gold_file in sorted(FIXTURES.glob("*.gold.json")):
        gold = json.loads(gold_file.read_text(encoding="utf-8"))
        names, pairs = score_names(by_doc[gold["doc"]], gold), score_pairs(by_doc[gold["doc"]], gold)
        print(f"{gold['doc']}\n  names {line(names)}\n  pairs {line(pairs)}")
        total_names = names if total_names is None else total_names + names
        total_pairs = pairs if total_pairs is None else total_pairs + pairs
    print(f"all three\n  names {line(total_names)}\n  pairs {line(total_pairs)}")


def _number(text: str) -> float | None:
    """A value as a number: its leading number ("92.22 ± 0.10" and "80.6/80.1", as tables
    print them, are 92.22 and 80.6), or None."""
    match = re.match(r"[-+]?\d+(\.\d+)?", re.sub(r"[%+,\s]", "", str(text)))
    return float(match.group(0)) if match else None


def _same_name(a: str | None, b: str | None) -> bool:
    # "Average F 1" is "Avg F1"
    fa, fb = (fold(re.sub(r"\baverage\b", "avg", x or "", flags=re.I)).removesuffix("score") for x in (a, b))
    shorter = min(fa, fb, key=len)
    return bool(fa and fb) and (fa == fb or (len(shorter) >= 2 and (fa in fb or fb in fa)))


def _same_value(a: str, b: str) -> bool:
    x, y = _number(a), _number(b)
    return x is not None and y is not None and abs(x - y) < 1e-6


def leaderboard_rows(data: Path) -> tuple[list[dict[str, str]], dict[str, Path]]:
    """The leaderboard rows of the shared arXiv PDFs, and each arXiv id's PDF."""
    pdfs = {m.group(1): p for p in sorted((data / "pdfs").glob("arxiv_*.pdf"))
            if (m := re.match(r"arxiv_(\d{4}\.\d{5})", p.name))}
    with open(data / "gazetteers" / "leaderboards_results_tdms.tsv", encoding="utf-8", newline="") as handle:
        rows = [r for r in csv.DictReader(handle, delimiter="\t")
                if (m := re.fullmatch(r"https://arxiv\.org/abs/(\d{4}\.\d{5})", r["paper_url"])) and m.group(1) in pdfs]
    for r in rows:
        r["arxiv"] = re.search(r"(\d{4}\.\d{5})", r["paper_url"]).group(1)  # type: ignore[union-attr]
    return rows, pdfs


def leaderboard_recall(data: Path, tagged: Path | None, include: tuple[str, ...]) -> None:
    rows, pdfs = leaderboard_rows(data)
    ids = sorted({r["arxiv"] for r in rows})
    inputs = [tagged / f"{pdfs[i].stem}.jsonl" for i in ids] if tagged else [pdfs[i] for i in ids]
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        done = sciner.summarize(inputs, Path(folder) / "s.json", data=data, reading=sciner.Reading.of(include=include),
                                show_progress=False)
    seconds = time.perf_counter() - start
    by_id = {i: next(p for p in done.papers if p.doc == pdfs[i].stem) for i in ids}
    read = "tagged JSONL" if tagged else f"PDFs with --include {','.join(include) or '(body only)'} tagged with the shipped model"
    print(f"\n== leaderboard tuples of the shared PDFs ({len(rows)} rows, {len(ids)} papers; {read}, {seconds:.1f} s)")
    matched = value_seen = 0
    for r in rows:
        paper = by_id[r["arxiv"]]
        hit = next((x for x in paper.results if _same_value(x.value, r["value"]) and _same_name(x.dataset, r["dataset"])
                    and _same_name(x.metric, r["metric"])), None)
        seen = any(_same_value(v.value, r["value"]) for v in paper.values if v.type == "MetricValue")
        matched += hit is not None
        value_seen += seen
        mark = "MATCH" if hit else "value in text" if seen else "-"
        print(f"  {r['arxiv']}  {r['dataset'][:24]:<24} {r['metric'][:14]:<14} {r['value']:<8} {mark}"
              + (f"  <- {hit.dataset} / {hit.metric} / {hit.value} / {hit.model}" if hit else ""))
    per_paper = ", ".join(f"{i}: {sum(r['arxiv'] == i for r in rows)}" for i in ids)
    print(f"rows per paper: {per_paper}")
    print(f"tuple recall (dataset, metric, value): {matched}/{len(rows)} = {matched / len(rows):.3f}")
    print(f"value recall (the value among the paper's MetricValues): {value_seen}/{len(rows)} = "
          f"{value_seen / len(rows):.3f}")
    from_tables = sum(bool(p.paragraphs[r.place[0]].meta.get("cells")) for p in done.papers for r in p.results)
    total = sum(len(p.results) for p in done.papers)
    print(f"results in these papers: {total} ({total - from_tables} read off sentences, {from_tables} off tables)")


def table_precision(data: Path) -> None:
    samples = json.loads((FIXTURES / "table_results.judged.json").read_text(encoding="utf-8"))["samples"]
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        done = sciner.summarize(sorted((data / "pdfs").glob("*.pdf")), Path(folder) / "s.json", data=data,
                                reading=sciner.Reading.of(include=("tables", "captions")), show_progress=False)
    seconds = time.perf_counter() - start
    read = {(p.doc, " ".join(p.paragraphs[r.place[0]].tokens), r.place[1]): r
            for p in done.papers for r in p.results if p.paragraphs[r.place[0]].meta.get("cells")}
    print(f"\n== results read off tables, against samples checked by hand "
          f"({len(read)} read off the tables of {len(done.papers)} PDFs, {seconds:.0f} s)")
    for name, judged in samples.items():
        same = [j for j in judged if (r := read.get((j["doc"], j["row"], j["start"]))) is not None
                and (r.metric, r.dataset) == (j["metric"], j["dataset"])]
        metric_ok = sum(j["metric_ok"] for j in same)
        with_dataset = [j for j in same if j["dataset_ok"] is not None]
        dataset_ok = sum(j["dataset_ok"] for j in with_dataset)
        both = sum(j["metric_ok"] and j["dataset_ok"] is not False for j in same)
        print(f"{name}: still read as judged {len(same)}/{len(judged)} (the others changed since: not scored)\n"
              f"  metric right {metric_ok}/{len(same)} = {metric_ok / max(len(same), 1):.3f}   "
              f"dataset right where given {dataset_ok}/{len(with_dataset)} = {dataset_ok / max(len(with_dataset), 1):.3f}   "
              f"both (none given counts as right) {both}/{len(same)} = {both / max(len(same), 1):.3f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=None, help="shared data folder (default: $SCINER_DATA, ../shared/data)")
    parser.add_argument("--tagged", type=Path, default=None, help="folder of the PDFs' tagged JSONL (skips tagging)")
    parser.add_argument("--include", default="tables,captions", help="what the PDFs are read with besides the body")
    args = parser.parse_args(argv)
    data = data_root(args.data)
    gold_scores(data)
    if not (data / "gazetteers" / "leaderboards_results_tdms.tsv").is_file():
        print(f"\n{data}: no gazetteers/leaderboards_results_tdms.tsv; leaderboard recall skipped", file=sys.stderr)
        return 0
    leaderboard_recall(data, args.tagged, tuple(k for k in args.include.split(",") if k))
    if (data / "pdfs").is_dir() and args.tagged is None:
        table_precision(data)
    return 0


if __name__ == "__main__":
    sys.exit(main())
