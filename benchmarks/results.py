"""How right ``sciner summarize --include tables,captions`` is about a paper's results.

The hand-made development set ``benchmarks/results_dev/``:

* ``papers.tsv``: its papers: the 25 shared PDFs (../shared/data/pdfs), 93 more (set ``fetched``)
  and three later sets, ``fetched2``, ``fetched3`` and ``fetched4``, annotated by people who saw neither the
  reader's code nor its output, from public GitHub repositories that carry NLP papers (the repository, commit, path
  and SHA-256 of each, so they can be fetched again: ``python benchmarks/results_dev/fetch_pdfs.py
  DIR``), each with its split, title, venue and year, and the names of the method it proposes
  (``ours``). No EMNLP 2022 or NAACL 2022 paper is in it.
* ``headlines.tsv``: each paper's headline numbers (its own method's, in its main results
  tables), written by hand from the PDFs' text before the summarizer's output on them was
  looked at.
* The split is by paper: the first 25 papers 12 tune / 13 report (``random.Random(31)``), the
  93 more 46 tune / 47 report (``random.Random(47)`` over their sorted stems), ``fetched2`` by the
  parity of crc32 of the stem (even: tune), ``fetched3`` and ``fetched4`` by the place of the stem's
  SHA-256 among theirs, sorted (even: tune), each drawn before any output was seen. Only tune
  papers are looked at while changing the reader; report papers are measured, never tuned on.

Measures, per split:

1. **Headline recall**: of the headline numbers, how many a result of the paper holds with the
   value equal as a number (a cell's leading number: "88.7 ± 0.17" is 88.7; "84.6/83.4" is
   84.6 or, split, 83.4), the metric right and the dataset right (one name containing the
   other once folded, the shorter two characters or more, against any of the alternatives the
   file lists "|"-separated). Also: the value alone, value and metric, and how many of the
   matched results say ``ours``. The tune numbers missed are counted by kind (value not read,
   no or wrong metric, no or wrong dataset) and by where the value was; ``--misses`` lists each.
2. **No silent drop**: each headline number is a result or a ``not_result`` of its paper (the
   value seen among either); and each number of a table body (a cell that prints numbers only)
   is covered by a result, a value or a ``not_result``: the cells in neither are counted and
   the first ones shown. Papers with a table whose reading gave no result are named.
3. **Ours**: papers whose ``proposed`` names one of the names ``papers.tsv`` lists for them.
4. **Precision** on samples drawn at random from the results (seeded by the sample's name, so
   each draw after a change of the reader is fresh) and judged by hand:
   ``--draw NAME`` writes ``results_dev/sample_NAME.tsv`` (each result with its row or
   sentence, its caption and its table's head rows, to judge from) with an empty
   ``judgement`` column, to be filled in with ``ok`` or ``wrong`` and a reason; every judged
   sample there is scored on each run. A result is ``ok`` when the number is a score the paper
   reports, its metric is right, and its dataset and model are right where given.

    python benchmarks/results.py [--tagged DIR] [--pdfs DIR] [--misses] [--draw NAME] [--split report|tune|all] [-n 40]
              [--only tune|report] [--set shared|fetched|fetched2|fetched3|fetched4]

``--tagged DIR`` reads ``DIR/<paper>.jsonl`` where it exists (tag once: ``sciner predict PDFS
-o DIR/ --to jsonl --include tables,captions``); the other papers are tagged here with the
shipped model, the shared ones from ../shared/data/pdfs and the fetched ones from ``--pdfs
DIR`` (default ``$SCINER_DEV_PDFS``). Papers found nowhere are left out, and said so.
"""

from __future__ import annotations

import argparse
import csv
import os
import random
import re
import sys
import tempfile
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import sciner
from sciner.config import data_root
from sciner.summary.names import fold
from sciner.summary.tables.cells import is_language

DEV = Path(__file__).resolve().parent / "results_dev"
SAMPLE_FIELDS = ("doc", "paragraph", "start", "source", "value", "metric", "dataset", "task", "model", "ours",
                 "judgement", "reason", "context")


def read_tsv(path: Path) -> list[dict[str, str]]:
    with open(path, encoding="utf-8", newline="") as handle:
        return list(csv.DictReader((line for line in handle if not line.startswith("#")), delimiter="\t"))


def numbers(text: str) -> list[float]:
    """The numbers a value stands for: its leading number (".62" is 0.62), and each side of an
    "x / y" cell."""
    found = []
    for part in re.split(r"\s*/\s*", str(text)):
        match = re.match(r"[-+]?(?:\d+(?:\.\d+)?|\.\d+)", re.sub(r"[%,\s]", "", part))  # ".62" too
        if match:
            found.append(float(match.group(0)))
    return found[:1] if len(found) > 2 else found


def same_name(gold: str, read: str | None) -> bool:
    """``read`` matches one of ``gold``'s "|"-separated alternatives (folded, one containing the
    other, the shorter two characters or more; or a one-letter name the last word of the other:
    "Relation P" is a "P")."""
    fr = fold(read or "")
    if read and is_language(read):  # "Chinese" is no "Chinese MSRA": a language meets only itself
        return any(fold(a) == fr for a in gold.split("|"))
    last = fold((read or "").split()[-1]) if (read or "").split() else ""
    for alternative in gold.split("|"):
        fa = fold(alternative)
        shorter = min(fa, fr, key=len)
        if fa and fr and (fa == fr or (len(shorter) >= 2 and (fa in fr or fr in fa))
                          or (len(fa) == 1 and fa == last)):
            return True
    return False


def inputs_of(data: Path, tagged: Path | None, pdfs: Path | None, docs: list[str]) -> tuple[list[Path], list[str]]:
    """Each paper's input (its tagged JSONL, else its PDF), and the papers found nowhere."""
    found, missing = [], []
    for doc in docs:
        places = ([tagged / f"{doc}.jsonl"] if tagged else []) + [data / "pdfs" / f"{doc}.pdf"] \
            + ([pdfs / f"{doc}.pdf"] if pdfs else [])
        path = next((p for p in places if p.is_file()), None)
        (found.append(path) if path else missing.append(doc))
    return found, missing


def summarize(inputs: list[Path], data: Path) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        done = sciner.summarize(inputs, Path(folder) / "s.json", data=data,
                                reading=sciner.Reading.of(include=("tables", "captions")), show_progress=False)
    return {p.doc: p for p in done.papers}


def same_value(gold: str, value: str) -> bool:
    return any(abs(x - float(gold)) < 1e-6 for x in numbers(value))


def hit(h: dict[str, str], result: Any) -> bool:
    return same_value(h["value"], result.value) and same_name(h["metric"], result.metric) \
        and same_name(h["dataset"], result.dataset)


def recall(headlines: list[dict[str, str]], papers: dict[str, Any]) -> None:
    print("== headline recall (value as a number; metric and dataset right)")
    for split in ("tune", "report"):
        rows = [h for h in headlines if h["split"] == split and h["paper"] in papers and h["value"]]
        if not rows:
            continue
        counts = {"value": 0, "value+metric": 0, "value+metric+dataset": 0, "ours": 0}
        for h in rows:
            results = papers[h["paper"]].results
            with_value = [r for r in results if same_value(h["value"], r.value)]
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
        per_paper: dict[str, list[int]] = {}
        for h in rows:
            tally = per_paper.setdefault(h["paper"], [0, 0])
            tally[0] += any(hit(h, r) for r in papers[h["paper"]].results)
            tally[1] += 1
        macro = sum(a / b for a, b in per_paper.values()) / max(len(per_paper), 1)
        print(f"  per paper (macro), value+metric+dataset: {macro:.3f}")
        print("  " + ours_agreement(rows, papers))
        if split == "report":
            continue  # report papers: counts only
        print("  per paper: " + ", ".join(f"{p.removeprefix('arxiv_').removeprefix('acl_')[:24]} {a}/{b}"
                                          for p, (a, b) in per_paper.items()))


# The kinds of miss, in the order a headline number is checked: its value read at all, then
# its metric, then its dataset.
MISS_KINDS = ("value not read", "value, no metric", "wrong metric", "no dataset", "wrong dataset")


def miss_of(h: dict[str, str], paper: Any) -> tuple[str, str, Any] | None:
    """Why a headline number is missed (one of :data:`MISS_KINDS`), where its value was (the
    table, sentence or not result a result with it came from; for a value read nowhere, where
    the paper prints it: "not result (reason)", "table cell", "sentence", else "nowhere
    (figure?)"), and the nearest miss (a result with the value, of the headline's own table
    first, or None); None when it is hit."""
    with_value = sorted((r for r in paper.results if same_value(h["value"], r.value)),
                        key=lambda r: r.table != f"table {h['table']}")  # its own table's first
    with_metric = [r for r in with_value if same_name(h["metric"], r.metric)]
    if any(same_name(h["dataset"], r.dataset) for r in with_metric):
        return None
    if not with_value:
        reason = next((n.reason for n in paper.not_results if same_value(h["value"], n.value)), None)
        return "value not read", (f"not result ({reason})" if reason else printed_where(h["value"], paper)), None
    if with_metric:
        nearest = next((r for r in with_metric if r.dataset), with_metric[0])
        kind = "wrong dataset" if nearest.dataset else "no dataset"
    else:
        nearest = next((r for r in with_value if r.metric), with_value[0])
        kind = "wrong metric" if nearest.metric else "value, no metric"
    return kind, "table" if nearest.table else "sentence", nearest


def printed_where(value: str, paper: Any) -> str:
    """Where the paper prints a number no result or not result holds: "table cell", "caption",
    "sentence", or "nowhere (figure?)" (a plot's, or text the PDF reader lost)."""
    for kind, test in (("table cell", lambda p: p.meta.get("cells")),
                       ("caption", lambda p: p.meta.get("kind") == "caption"), ("sentence", lambda p: True)):
        if any(test(p) and any(same_value(value, t) for t in p.tokens if re.match(r"[-+]?\.?\d", t))
               for p in paper.paragraphs):
            return kind
    return "nowhere (figure?)"


def misses(headlines: list[dict[str, str]], papers: dict[str, Any], listed: bool, split: str = "tune") -> None:
    """The split's headline numbers missed, counted by kind and by where their value was; with
    ``listed`` (tune only: report papers are counted, never listed), each one with the nearest
    result read (its metric, dataset and source)."""
    rows = [h for h in headlines if h["split"] == split and h["paper"] in papers and h["value"]]
    found = [(h, miss) for h in rows if (miss := miss_of(h, papers[h["paper"]])) is not None]
    listed = listed and split == "tune"
    print(f"\n== {split} headline numbers missed, by kind and where the value was: {len(found)}/{len(rows)}")
    for kind in MISS_KINDS:
        these = [(h, m) for h, m in found if m[0] == kind]
        if not these:
            continue
        where: dict[str, int] = {}
        for h, m in these:
            key = m[1] + (" (gold: text)" if h["table"] == "text" else "")
            where[key] = where.get(key, 0) + 1
        print(f"  {kind:<17} {len(these):>3}: " + ", ".join(f"{k} {n}" for k, n in sorted(where.items(),
                                                                                           key=lambda x: -x[1])))
        for h, (_, place, r) in these if listed else []:
            read = f"read {r.metric!r} / {r.dataset!r} ({r.table or 'sentence'})" if r else place
            print(f"    {h['paper'][:30]} table {h['table']}: {h['value']} {h['metric']} / {h['dataset']}: {read}")


# A headline's method that says it is the paper's own whatever its name: "Our System", "Ours w/
# transfer", "our model + TF-IDF", "This work".
_SAYS_OWN = re.compile(r"\b(?:our|ours|this work|proposed)\b", re.I)


def ours_agreement(rows: list[dict[str, str]], papers: dict[str, Any]) -> str:
    """Whether the headline numbers found say rightly whose they are: of those whose method is
    the paper's own (papers.tsv's ``ours`` names it, or the headline says "our", "ours", "this
    work", "proposed"), how many a matching result marks ours, and how many are said to be
    another's (``ours`` False, a wrong claim; None says nothing); of the others (baselines,
    prior work), how many none marks ours, and how many are said to be another's."""
    own_of = {m["paper"]: m["ours"] for m in read_tsv(DEV / "papers.tsv")}
    own = [0, 0, 0]  # marked ours, said another's, all
    theirs = [0, 0, 0]  # not marked ours, said another's, all
    for h in rows:
        both = [r for r in papers[h["paper"]].results if hit(h, r)]
        gold = own_of.get(h["paper"], "").strip()
        if not both or not gold or not h["method"].strip():
            continue
        marked = any(getattr(r, "ours", False) for r in both)
        said_not = not marked and any(getattr(r, "ours", None) is False for r in both)
        if any(same_name(gold, part) or _SAYS_OWN.search(part) for part in re.split(r"\s*\|\s*", h["method"])):
            own = [own[0] + marked, own[1] + said_not, own[2] + 1]
        else:
            theirs = [theirs[0] + (not marked), theirs[1] + said_not, theirs[2] + 1]
    return (f"ours on the headlines found: the paper's own marked {own[0]}/{own[2]} (said another's: {own[1]}), "
            f"others left unmarked {theirs[0]}/{theirs[2]} (said another's: {theirs[1]})")


_NUMERIC_CELL = re.compile(r"[-+−±]?\s?\.?\d[\d\s.,%±()+/\-−–*†‡§¶♣♦♠♥\[\]×]*")
_YEAR_CELL = re.compile(r"(?:19|20)\d\d")


def numeric_cells(paper: Any) -> list[tuple[int, int, int, str]]:
    """The cells of the paper's table bodies that print numbers only (paragraph, start, end,
    text), as the PDF reader cut them: what no reading may leave unaccounted for. A row whose
    numbers are all years is a head row. Written apart from the reader's own sweep
    (``tables.reader.body_cells``), on purpose: a check that used the reader's definition could
    not fail."""
    found = []
    for i, p in enumerate(paper.paragraphs):
        cells = p.meta.get("cells")
        if not cells or not isinstance(p.meta.get("table"), str):
            continue
        row = [(i, start, end, " ".join(p.tokens[start:end])) for start, end, _first, _last in cells]
        numeric = [c for c in row if _NUMERIC_CELL.fullmatch(c[3].strip())]
        if numeric and not all(_YEAR_CELL.fullmatch(c[3].strip()) for c in numeric):
            found.extend(numeric)
    return found


def text_layer(pdf: Path | None) -> str | None:
    """The text of a PDF's text layer, all pages (pypdfium2), or None where there is no PDF."""
    if pdf is None or not pdf.is_file():
        return None
    import pypdfium2

    document = pypdfium2.PdfDocument(str(pdf))
    try:
        return "\n".join(document[i].get_textpage().get_text_range() for i in range(len(document)))
    finally:
        document.close()


def in_text_layer(value: str, text: str) -> bool:
    """Whether a number the paper reports is printed anywhere in its text layer."""
    return any(same_value(value, t) for t in re.findall(r"\d*\.?\d+", text))


def accounting(headlines: list[dict[str, str]], papers: dict[str, Any], split_of: dict[str, str],
               pdf_of: Callable[[str], Path | None] = lambda doc: None) -> None:
    """No silent drop: headline numbers in neither list (and of those, how many the PDF's text
    layer does not print at all: a figure's, out of a text reader's reach); table-body cells no
    reading covers; papers with tables and no result."""
    print("\n== no silent drop")
    for split in ("tune", "report"):
        rows = [h for h in headlines if h["split"] == split and h["paper"] in papers and h["value"]]
        silent = [h for h in rows if not any(same_value(h["value"], r.value) for r in papers[h["paper"]].results)
                  and not any(same_value(h["value"], n.value) for n in papers[h["paper"]].not_results)]
        docs = sorted(d for d in papers if split_of.get(d) == split)
        cells = uncovered = 0
        shown: list[str] = []
        empty = []
        for doc in docs:
            paper = papers[doc]
            places = [r.place for r in paper.results] + [n.place for n in paper.not_results] \
                + [v.place for v in paper.values]
            numeric = numeric_cells(paper)
            cells += len(numeric)
            for i, start, end, text in numeric:
                if not any(q[0] == i and q[1] < end and q[2] > start for q in places):
                    uncovered += 1
                    if len(shown) < 12 and split == "tune":
                        shown.append(f"{doc[:28]}: {text!r}")
            if numeric and not any(paper.paragraphs[r.place[0]].meta.get("cells") for r in paper.results):
                empty.append(doc)
        print(f"{split}: headline numbers in neither results nor not_results: {len(silent)}/{len(rows)}")
        texts = {doc: text_layer(pdf_of(doc)) for doc in {h["paper"] for h in silent}}
        unprinted = [h for h in silent
                     if texts[h["paper"]] is not None and not in_text_layer(h["value"], texts[h["paper"]])]
        unknown = sum(texts[h["paper"]] is None for h in silent)
        if silent:
            said_lost = [h for h in silent if h["table"].strip() not in ("", "text") and re.search(
                rf"\btable {re.escape(h['table'].strip())}\b", " ".join(papers[h["paper"]].warnings))]
            print(f"  of those, printed nowhere in the PDF's text layer (a figure's): {len(unprinted)}"
                  + (f"; PDF not found for {unknown}" if unknown else "")
                  + f"; in a table the reader says the PDF lost, or that the text cites and no table read is: "
                    f"{len(said_lost)}")
        for h in silent[:8] if split == "tune" else []:  # report papers: counts only
            print(f"    {h['paper'][:32]} table {h['table']}: {h['value']} ({h['dataset']} / {h['metric']})")
        print(f"  table-body number cells covered by no result, value or not_result: {uncovered}/{cells}")
        for line in shown:
            print(f"    {line}")
        print(f"  papers with a table body and no result read off a table: {len(empty)}/{len(docs)}"
              + (f": {', '.join(d[:28] for d in empty)}" if empty and split == "tune" else ""))


def ours_recall(manifest: list[dict[str, str]], papers: dict[str, Any]) -> None:
    """Papers whose ``proposed`` names the method the set says they propose."""
    print("\n== ours: the paper's own method named (papers.tsv's ours against the summary's proposed)")
    for split in ("tune", "report"):
        rows = [m for m in manifest if m["split"] == split and m["paper"] in papers and m["ours"].strip()]
        named = [m for m in rows if any(same_name(m["ours"], name) for name in papers[m["paper"]].proposed)]
        with_ours = [m for m in rows if any(r.ours for r in papers[m["paper"]].results)]
        print(f"{split}: proposed names it {len(named)}/{len(rows)}; a result marked ours {len(with_ours)}/{len(rows)}")


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
    parser.add_argument("--tagged", type=Path, default=None, help="folder of <paper>.jsonl tagged with tables, captions")
    parser.add_argument("--pdfs", type=Path, default=Path(os.environ["SCINER_DEV_PDFS"])
                        if os.environ.get("SCINER_DEV_PDFS") else None,
                        help="folder of the fetched papers' PDFs (results_dev/fetch_pdfs.py; default $SCINER_DEV_PDFS)")
    parser.add_argument("--draw", default=None, help="draw a fresh sample to judge, named NAME")
    parser.add_argument("--split", default="report", choices=("tune", "report", "all"),
                        help="the papers the sample is drawn from")
    parser.add_argument("-n", type=int, default=40)
    parser.add_argument("--misses", action="store_true", help="list each tune headline number missed")
    parser.add_argument("--only", default="all", choices=("tune", "report", "all"),
                        help="read and score only this split's papers (tune while changing the reader)")
    parser.add_argument("--set", default="all", choices=("shared", "fetched", "fetched2", "fetched3", "fetched4", "all"),
                        help="read and score only the papers of this set (papers.tsv's set column)")
    args = parser.parse_args(argv)
    data = args.data or data_root()
    headlines = read_tsv(DEV / "headlines.tsv")
    manifest = [m for m in read_tsv(DEV / "papers.tsv")
                if args.only in (m["split"], "all") and args.set in (m["set"], "all")]
    split_of = {m["paper"]: m["split"] for m in manifest}
    inputs, missing = inputs_of(data, args.tagged, args.pdfs, [m["paper"] for m in manifest])
    if missing:
        print(f"{len(missing)} of {len(manifest)} papers found nowhere, left out (give --pdfs or --tagged): "
              f"{', '.join(missing[:5])}{' ...' if len(missing) > 5 else ''}")
    papers = summarize(inputs, data)
    total = sum(len(p.results) for p in papers.values())
    report = [d for d in papers if split_of.get(d) == "report"]
    others = sum(len(p.not_results) for p in papers.values())
    print(f"{total} results in {len(papers)} papers ({sum(len(papers[d].results) for d in report)} in the "
          f"{len(report)} report papers); {others} numbers classed as no result")
    recall(headlines, papers)
    misses(headlines, papers, args.misses)
    misses(headlines, papers, False, "report")
    def pdf_of(doc: str) -> Path | None:
        places = [data / "pdfs" / f"{doc}.pdf"] + ([args.pdfs / f"{doc}.pdf"] if args.pdfs else [])
        return next((p for p in places if p.is_file()), None)

    accounting(headlines, papers, split_of, pdf_of)
    ours_recall(manifest, papers)
    if args.draw:
        split_docs = sorted(d for d in papers if args.split in (split_of.get(d), "all"))
        print(f"\ndrew {draw(args.draw, papers, split_docs, args.n)}")
    precision()
    return 0


if __name__ == "__main__":
    sys.exit(main())
