"""How fast `sciner index` is, how big the file grows, and how fast `sciner query` answers.

Steps (each prints its numbers; run them in order, or `all`):

    python benchmarks/index.py pdfs    # the 25 PDFs: predict + summarize vs index, both tagging with the model
    python benchmarks/index.py raw     # >= 2,000 full-text papers of raw/: tokenized, tagged, indexed
    python benchmarks/index.py queries --db WORK/raw.sqlite           # p50/p95 of each question
    python benchmarks/index.py scale   # the raw index copied to 100,000 papers, then the same questions

Papers of raw/: `sota_clef2024_arxiv_nlp_fulltext_from_latex.txt` is the full text of 2,128 arXiv
papers, one paragraph a line, a blank line between papers (data/SOURCES: "blank line between
papers"); each block is one paper here, named by its position (the file has no titles).
Tagging its ~9.7M tokens with the model would take the 2 shared cores most of an hour, so
`raw` tags every paper with a cheap dictionary tagger (the leaderboard gazetteers' names, a
number after a metric or hyperparameter name as its value; *not* the model's tags: the
densities differ) and times the model on a sample of `--model-sample` papers to give the
model's papers per minute on the same text. The index's own cost (summary + SQLite) is timed
on all of them.

`scale` copies every row of the raw index (papers, paragraphs, mentions, entities, values,
results; the full-text index rebuilt) until it holds `--papers` papers, each copy a new paper
under a new name, so the questions see 47x the rows with the same spread of names.

Everything is written under --work (default /tmp/sciner-index-bench). Run it with nice.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import sqlite3
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(os.environ.get("SCINER_DATA", ROOT.parent / "shared" / "data"))
RAW = DATA / "raw" / "sota_clef2024_arxiv_nlp_fulltext_from_latex.txt"
# raw/ is not tokenized; spaCy would take the shared cores ~10 minutes on it, so words and
# punctuation are split by this regex instead (close to spaCy's tokens on plain prose).
WORDS = re.compile(r"\w+(?:[.\-]\w+)*|[^\w\s]")


def cpu_name() -> str:
    try:
        text = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
    except OSError:
        return "unknown CPU"
    fields = dict(line.split(":", 1) for line in text.splitlines() if ":" in line)
    name = fields.get("Model name", "unknown").strip()
    return f"{name}, {os.cpu_count()} cores (load average {os.getloadavg()[0]:.1f} at start: shared)"


def sciner(*args: str) -> float:
    """Run `python -m sciner ARGS` and return its wall-clock seconds."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "sciner", *args], check=True, env=env)
    return time.perf_counter() - start


# --- the 25 PDFs -----------------------------------------------------------------------------

def bench_pdfs(work: Path, first: int | None = None) -> None:
    """The PDFs (the ``first`` N by name, else all 25): predict + summarize vs index."""
    chosen = sorted((DATA / "pdfs").glob("*.pdf"))[:first]  # the folder also holds reference_grobid_text/
    if first:
        folder = work / "pdfs_chosen"
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir()
        for pdf in chosen:
            shutil.copyfile(pdf, folder / pdf.name)
        pdfs = str(folder / "*.pdf")
    else:
        pdfs = str(DATA / "pdfs" / "*.pdf")
    n = len(chosen)
    tagged = work / "pdfs_tagged"
    for old in (tagged, work / "pdfs.sqlite", work / "pdfs_tagged.sqlite"):
        shutil.rmtree(old, ignore_errors=True) if old.is_dir() else old.unlink(missing_ok=True)
    predict = sciner("predict", pdfs, "-o", f"{tagged}/", "--to", "jsonl", "-q")
    summarize = sciner("summarize", str(tagged), "-o", str(work / "pdfs_summary.json"), "-q")
    index = sciner("index", pdfs, "-o", str(work / "pdfs.sqlite"), "-q")
    from_tagged = sciner("index", str(tagged), "-o", str(work / "pdfs_tagged.sqlite"), "-q")
    again = sciner("index", pdfs, "-o", str(work / "pdfs.sqlite"), "-q")
    print(f"CPU: {cpu_name()}")
    print(f"{n} PDFs, wall-clock seconds of whole processes (model load included):")
    print(f"  sciner predict (to JSONL)          {predict:7.1f}")
    print(f"  sciner summarize (tagged JSONL)    {summarize:7.1f}")
    print(f"  predict + summarize                {predict + summarize:7.1f}   {n / (predict + summarize) * 60:6.1f} papers/min")
    print(f"  sciner index (PDFs, tags itself)   {index:7.1f}   {n / index * 60:6.1f} papers/min   "
          f"{(index / (predict + summarize) - 1) * 100:+.1f}% vs predict + summarize")
    print(f"  sciner index (the tagged JSONL)    {from_tagged:7.1f}   {n / from_tagged * 60:6.1f} papers/min")
    print(f"  sciner index again (all unchanged) {again:7.1f}")
    print(f"  index size: {(work / 'pdfs.sqlite').stat().st_size / 1e6:.1f} MB for {n} papers")


# --- raw/ full texts ------------------------------------------------------------------------

def raw_papers(limit: int | None = None) -> list[list[str]]:
    """The papers of the SOTA full-text file: blocks of lines between blank lines."""
    papers, current = [], []
    with open(RAW, encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                current.append(line.strip())
            elif current:
                papers.append(current)
                current = []
                if limit and len(papers) >= limit:
                    return papers
    if current:
        papers.append(current)
    return papers


class DictionaryTagger:
    """Longest match of the leaderboard gazetteers' names (2-6 tokens, or one token of at least
    3 characters with a capital), and a number right after a metric or hyperparameter name as
    its value. A cheap stand-in for the model, for the index's cost only."""

    FILES = {"MethodName": "leaderboards_models.tsv", "DatasetName": "leaderboards_datasets.tsv",
             "TaskName": "leaderboards_tasks.tsv", "MetricName": "leaderboards_metrics.tsv"}
    HYPERPARAMETERS = ("learning rate", "batch size", "dropout", "epochs", "warmup steps", "weight decay",
                       "hidden size", "beam size", "max length", "dropout rate", "label smoothing")
    NUMBER = re.compile(r"^[-+]?\d+(\.\d+)?([eE][-+]?\d+)?%?$")

    def __init__(self) -> None:
        self.names: dict[tuple[str, ...], str] = {}
        for label, name in self.FILES.items():
            for line in open(DATA / "gazetteers" / name, encoding="utf-8").read().splitlines()[1:]:
                words = tuple(t.lower() for t in WORDS.findall(line.split("\t")[0]))
                if 1 <= len(words) <= 6 and (len(words) > 1 or (len(words[0]) >= 3 and any(c.isalpha() for c in words[0]))):
                    self.names.setdefault(words, label)
        for name in self.HYPERPARAMETERS:
            self.names[tuple(name.split())] = "HyperparameterName"
        for common in ("the", "model", "models", "data", "task", "method", "score", "results", "time", "all", "one"):
            self.names.pop((common,), None)

    def tag(self, tokens: list[str]) -> list[str]:
        lower = [t.lower() for t in tokens]
        tags = ["O"] * len(tokens)
        i = 0
        while i < len(tokens):
            for n in range(6, 0, -1):
                label = self.names.get(tuple(lower[i:i + n]))
                if label and i + n <= len(tokens):
                    tags[i:i + n] = [f"B-{label}"] + [f"I-{label}"] * (n - 1)
                    value = {"MetricName": "MetricValue", "HyperparameterName": "HyperparameterValue"}.get(label)
                    for j in range(i + n, min(i + n + 4, len(tokens))):
                        if value and self.NUMBER.match(tokens[j]) and tags[j] == "O":
                            tags[j] = f"B-{value}"
                            break
                    # a number just before a metric ("93.2 F1") is its value too
                    if label == "MetricName" and i > 0 and self.NUMBER.match(tokens[i - 1]) and tags[i - 1] == "O":
                        tags[i - 1] = "B-MetricValue"
                    i += n
                    break
            else:
                i += 1
        return tags


def bench_raw(work: Path, papers_wanted: int, model_sample: int) -> None:
    from sciner.document import Paragraph
    from sciner.formats.jsonl import write_jsonl

    folder = work / "raw_tagged"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    (work / "raw.sqlite").unlink(missing_ok=True)
    papers = raw_papers(papers_wanted)
    start = time.perf_counter()
    tokenized = [[WORDS.findall(line) for line in lines] for lines in papers]
    tokenize_s = time.perf_counter() - start
    tokens = sum(len(t) for paper in tokenized for t in paper)
    start = time.perf_counter()
    tagger = DictionaryTagger()
    for k, paper in enumerate(tokenized):
        write_jsonl([Paragraph(t, tagger.tag(t)) for t in paper if t], folder / f"sota_{k:05d}.jsonl")
    dictionary_s = time.perf_counter() - start
    # The model on a sample of the same papers: tokens/s and papers/min of tagging proper.
    sample = work / "raw_sample"
    shutil.rmtree(sample, ignore_errors=True)
    sample.mkdir()
    sample_tokens = 0
    for k, paper in enumerate(tokenized):
        if sample_tokens >= model_sample:
            break
        (sample / f"sota_{k:05d}.txt").write_text("\n".join(" ".join(t) for t in paper if t) + "\n", encoding="utf-8")
        sample_tokens += sum(len(t) for t in paper)
    sampled = k
    model_s = sciner("predict", str(sample), "-o", f"{work / 'raw_sample_tagged'}/", "--to", "jsonl", "-q")
    index_s = sciner("index", str(folder), "-o", str(work / "raw.sqlite"), "-q", "--no-gazetteers")
    size = (work / "raw.sqlite").stat().st_size
    n = len(papers)
    print(f"CPU: {cpu_name()}")
    print(f"raw/: {n} papers ({RAW.name}, one paper per blank-line block), {tokens:,} tokens")
    print(f"  tokenization (regex \\w+|[^\\w\\s]) {tokenize_s:7.1f} s")
    print(f"  dictionary tags (stand-in)         {dictionary_s:7.1f} s")
    print(f"  the model (sciner predict) on the first {sampled} papers ({sample_tokens:,} tokens): {model_s:.1f} s, "
          f"{sample_tokens / model_s:,.0f} tokens/s, {sampled / model_s * 60:.1f} papers/min "
          f"(-> {tokens / (sample_tokens / model_s) / 60:.0f} min for all {n})")
    print(f"  sciner index (tagged JSONL)        {index_s:7.1f} s   {n / index_s * 60:,.0f} papers/min "
          f"(summary + SQLite only)")
    print(f"  index size: {size / 1e6:.1f} MB, {size / n * 1000 / 1e6:.1f} MB per 1,000 papers")
    print(f"  rows: {json.dumps(counts(work / 'raw.sqlite'))}")


def counts(db: Path) -> dict[str, int]:
    con = sqlite3.connect(db)
    out = {t: con.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
           for t in ("papers", "paragraphs", "mentions", "entities", "value_pairs", "results")}
    con.close()
    return out


# --- queries ------------------------------------------------------------------------------------

def questions(db: Path, per_kind: int = 10) -> dict[str, list[tuple[str, dict]]]:
    """The questions to time, drawn from the index itself: its most reported leaderboards, most
    used names, most valued hyperparameters, and search words."""
    import sciner

    with sciner.Index(db) as ix:
        boards = ix.leaderboards(limit=per_kind)
        methods = ix.entities("MethodName", top=per_kind)
        hyper = ix.sql("SELECT name FROM value_pairs WHERE type = 'HyperparameterValue' AND key IS NOT NULL "
                       f"GROUP BY key ORDER BY count(*) DESC LIMIT {per_kind}").rows
    searches = ["span masking", "question answering", "BERT fine-tuning", '"machine translation"', "attention heads",
                "low-resource languages", "named entity recognition", "contrastive loss", "beam search", "data augmentation"]
    return {
        "results": [("results", {"dataset": b.dataset, "metric": b.metric, "task": b.task}) for b in boards],
        "papers": [("papers", {"entity": e.name, "type": "MethodName"}) for e in methods],
        "entities": [("entities", {"type": t, "top": 20}) for t in
                     ("MethodName", "DatasetName", "TaskName", "MetricName", "HyperparameterName", None)],
        "values": [("values", {"of": name}) for (name,) in hyper],
        "search": [("search", {"text": s}) for s in searches[:per_kind]],
        "page": [("page", {})],  # sciner serve --index's /corpus page: facets + 8 leaderboards
    }


def time_queries(db: Path, repeat: int) -> dict[str, tuple[float, float, int]]:
    """(p50 ms, p95 ms, runs) per question kind, through sciner.Index (one open index)."""
    import sciner

    asked = questions(db)
    out = {}
    with sciner.Index(db) as ix:
        for kind, items in asked.items():
            times = []
            for _ in range(repeat):
                for method, params in items:
                    start = time.perf_counter()
                    if method == "page":
                        from sciner.serve.corpus import render_page

                        render_page(ix, None, None, None)
                    else:
                        getattr(ix, method)(**params)
                    times.append((time.perf_counter() - start) * 1000)
            times.sort()
            out[kind] = (statistics.median(times), times[max(0, int(len(times) * 0.95) - 1)], len(times))
    return out


def print_latency(db: Path, repeat: int) -> None:
    import sciner

    with sciner.Index(db) as ix:
        papers = ix.stats()["papers"]
    print(f"query latency on {db.name} ({papers:,} papers, {db.stat().st_size / 1e9:.2f} GB), in-process "
          f"sciner.Index, {repeat} rounds of each kind's questions:")
    for kind, (p50, p95, n) in time_queries(db, repeat).items():
        print(f"  {kind:9s} p50 {p50:8.1f} ms   p95 {p95:8.1f} ms   ({n} runs)")
    start = time.perf_counter()
    sciner_cli = sciner_query_cli(db)
    print(f"  one whole `sciner query INDEX entities --top 5` process (Python start-up included): {sciner_cli:.2f} s"
          f" ({time.perf_counter() - start:.2f} s)")


def sciner_query_cli(db: Path) -> float:
    return sciner("query", str(db), "entities", "--top", "5")


# --- 100,000 papers by copying rows -------------------------------------------------------------

COPY = {  # table -> columns (their id and paper_id/paragraph_id/entity_id are offset)
    "paragraphs": "paper_id, position, text, page, section, kind",
    "entities": "paper_id, type, name, key, mentions, surface",
    "mentions": 'paper_id, paragraph_id, entity_id, type, start, "end", text, score',
    "value_pairs": "paper_id, paragraph_id, type, value, number, name, key",
    "results": "paper_id, paragraph_id, task, task_key, dataset, dataset_key, metric, metric_key, value, number, "
               "model, model_key, ours, lower_is_better",
}


def scale(source: Path, target: Path, papers: int) -> None:
    """``target``: ``source``'s rows copied until it holds ``papers`` papers (see the module)."""
    target.unlink(missing_ok=True)
    for suffix in ("-wal", "-shm"):
        Path(str(target) + suffix).unlink(missing_ok=True)
    src = sqlite3.connect(source)
    src.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    src.close()
    shutil.copyfile(source, target)
    con = sqlite3.connect(target, isolation_level=None)
    con.execute("PRAGMA journal_mode = OFF")
    con.execute("PRAGMA synchronous = OFF")
    con.execute("PRAGMA cache_size = -400000")
    # Bulk path: no per-row triggers; names counted and the full-text index built once at the end.
    triggers = con.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'").fetchall()
    for name, _ in triggers:
        con.execute(f"DROP TRIGGER {name}")
    base = {t: con.execute(f"SELECT max(id) FROM {t}").fetchone()[0] for t in ("papers", "paragraphs", "entities",
                                                                                 "mentions", "value_pairs", "results")}
    have = con.execute("SELECT count(*) FROM papers").fetchone()[0]
    copies = 1
    start = time.perf_counter()
    while have * copies < papers:
        k = copies
        con.execute("BEGIN")
        take = min(have, papers - have * copies)
        con.execute(f"INSERT INTO papers (id, file_id, doc, title, sha256, sciner_version, model, paragraphs, tokens, "
                    f"indexed_at) SELECT id + {k * base['papers']}, file_id, doc || '#copy{k}', title, sha256, "
                    f"sciner_version, model, paragraphs, tokens, indexed_at FROM papers WHERE id <= {base['papers']} "
                    f"ORDER BY id LIMIT {take}")
        last = k * base["papers"] + con.execute(f"SELECT max(id) FROM (SELECT id FROM papers WHERE id <= "
                                                 f"{base['papers']} ORDER BY id LIMIT {take})").fetchone()[0]
        for table, columns in COPY.items():
            shifted = columns.replace("paper_id", f"paper_id + {k * base['papers']}")
            shifted = shifted.replace("paragraph_id", f"paragraph_id + {k * base['paragraphs']}")
            shifted = shifted.replace("entity_id", f"entity_id + {k * base['entities']}")
            con.execute(f"INSERT INTO {table} (id, {columns}) SELECT id + {k * base[table]}, {shifted} FROM {table} "
                        f"WHERE id <= {base[table]} AND paper_id + {k * base['papers']} <= {last}")
        con.execute("COMMIT")
        copies += 1
    copy_s = time.perf_counter() - start
    start = time.perf_counter()
    con.execute("DELETE FROM names")
    con.execute("INSERT INTO names (type, key, name, papers, mentions) SELECT type, key, MIN(name), count(*), "
                "sum(mentions) FROM entities GROUP BY type, key")
    con.execute("INSERT INTO paragraphs_fts (paragraphs_fts) VALUES ('rebuild')")
    for _, sql in triggers:
        con.execute(sql)
    con.execute("ANALYZE")
    rebuild_s = time.perf_counter() - start
    con.close()
    print(f"scaled to {counts(target)}: rows copied in {copy_s:.0f} s, names + full-text index + ANALYZE "
          f"in {rebuild_s:.0f} s; {target.stat().st_size / 1e9:.2f} GB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("step", choices=("pdfs", "raw", "queries", "scale", "all"))
    parser.add_argument("--work", type=Path, default=Path("/tmp/sciner-index-bench"))
    parser.add_argument("--db", type=Path, help="queries: the index to ask (default: WORK/raw.sqlite)")
    parser.add_argument("--papers", type=int, default=100_000, help="scale: papers in the copied index")
    parser.add_argument("--pdfs", type=int, default=None, help="pdfs: only the first N PDFs by name (default all 25)")
    parser.add_argument("--raw-papers", type=int, default=None, help="raw: at most this many papers (default all)")
    parser.add_argument("--model-sample", type=int, default=30_000,
                        help="raw: tokens (whole papers) tagged with the model for its speed")
    parser.add_argument("--repeat", type=int, default=5, help="queries: rounds of each question")
    args = parser.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    sys.path.insert(0, str(ROOT / "src"))
    if args.step in ("pdfs", "all"):
        bench_pdfs(args.work, args.pdfs)
    if args.step in ("raw", "all"):
        bench_raw(args.work, args.raw_papers, args.model_sample)
    if args.step in ("queries", "all"):
        for db in ([args.db] if args.db else [args.work / "pdfs.sqlite", args.work / "raw.sqlite"]):
            if db.exists():
                print_latency(db, args.repeat)
    if args.step in ("scale", "all"):
        big = args.work / "scaled.sqlite"
        scale(args.work / "raw.sqlite", big, args.papers)
        print_latency(big, args.repeat)


if __name__ == "__main__":
    main()
