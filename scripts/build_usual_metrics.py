"""Build src/sciner/resources/usual_metrics.tsv, the one metric each dataset's leaderboards
report nearly always, from the shared data's Papers with Code triples
(``gazetteers/sota_clef2024_task_dataset_metric_triples.tsv``: task, dataset, metric and the
number of leaderboard results; sources and licence in resources/gazetteer.NOTICE.md). Not
imported at run time; run again when the triples or :func:`sciner.summary.names.fold` change:

    python scripts/build_usual_metrics.py [../shared/data/gazetteers]

A dataset is kept where one metric holds at least ``SHARE`` of its scored results (counts of
model sizes, speed, memory and the like left out) and at least ``LEAST`` of them. Its keys are
its folded name and that name less a trailing task word ("Weibo NER" -> "weibo",
"SST-5 Fine-grained classification" -> "sst5"); a key two datasets give different metrics is
dropped. NLP-TDMS's per-paper annotations are not used: some of the dev papers are among them.
Written sorted, so the same triples give the same bytes.
"""

from __future__ import annotations

import csv
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from sciner.summary.names import fold  # noqa: E402
from sciner.summary.tables.conventions import SHIPPED_USUAL_METRICS  # noqa: E402

SHARE, LEAST = 0.8, 3
# Leaderboard columns that are no score of a system's output.
NOT_SCORES = re.compile(r"param|flop|time|speed|latency|memory|size|second|hour|gpu|hardware|throughput|"
                        r"number of|#|cost|energy|epoch|train|dev\b|validation|runtime|fps|mac|^score$|win rate", re.I)
# Spellings of one metric, folded -> the spelling written.
SAME_METRIC = {"accuracy": "accuracy", "acc": "accuracy", "accuracy%": "accuracy", "f1": "F1", "f1score": "F1",
               "f1%": "F1", "exactmatch": "EM", "em": "EM", "bitpercharacterbpc": "bits per character",
               "bpc": "bits per character", "error": "error rate", "errorrate": "error rate",
               "percentageerror": "error rate"}
# Words after a dataset's name that say its task, not the data ("Weibo NER", "SST-5 Fine-grained
# classification", "TREC-6 dataset").
TASK_TAIL = re.compile(r"\s+(?:ner|pos|qa|dataset|corpus|benchmark|test|test set|"
                       r"(?:fine-grained|binary) classification|\(.*\))$", re.I)


def metric_name(text: str) -> str:
    """One spelling per metric: "Accuracy (%)", "% Test Accuracy" and "Acc" -> "accuracy"."""
    text = re.sub(r"^%?\s*(?:test\s+)?|\s*\(%\)\s*$", "", text.strip(), flags=re.I)
    return SAME_METRIC.get(fold(text), text)


def main() -> None:
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT.parent / "shared" / "data" / "gazetteers"
    source = folder / "sota_clef2024_task_dataset_metric_triples.tsv"
    if not source.is_file():
        raise SystemExit(f"{source}: not there")
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    with source.open(encoding="utf-8", newline="") as handle:
        for row in csv.DictReader(handle, delimiter="\t"):
            if NOT_SCORES.search(row["metric"]) or not row["n"].isdigit():
                continue
            counts[row["dataset"].strip()][metric_name(row["metric"])] += int(row["n"])
    by_key: dict[str, set[str]] = defaultdict(set)
    for dataset, metrics in counts.items():
        (metric, n), total = metrics.most_common(1)[0], sum(metrics.values())
        if total < LEAST:
            continue  # too few results to say
        usual = metric if n >= SHARE * total else ""  # a dataset with no usual metric spoils its keys
        for key in {fold(dataset), fold(TASK_TAIL.sub("", dataset))}:
            if key:
                by_key[key].add(usual)
    rows = sorted(f"{key}\t{metrics.pop()}\n" for key, metrics in by_key.items() if len(metrics) == 1 and "" not in metrics)
    SHIPPED_USUAL_METRICS.write_text("".join(rows), encoding="utf-8")
    print(f"wrote {SHIPPED_USUAL_METRICS}: {len(rows)} datasets' usual metrics")


if __name__ == "__main__":
    main()
