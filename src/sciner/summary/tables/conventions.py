"""The metric a standard benchmark's task is scored with by convention, for a table column
headed by the task's name alone ("CoLA SST-2 MRPC ..." over GLUE scores) where nothing in the
heads, row, caption or the paper's sentences names the metric.

Only official conventions: each entry is the metric the benchmark's own paper and leaderboard
report for the task, in the order they report them ("F1 / accuracy" for MRPC: GLUE's "F1/Acc").
A cell holding one number takes the first; an "x / y" cell's two numbers take the two in order.
One exception, from the papers' usage rather than the leaderboard: a lone MRPC or QQP number on
the dev set is an accuracy (:data:`DEV_METRICS`).
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from sciner.summary.names import fold

# The task's name, folded (see :func:`sciner.summary.names.fold`) -> its metric(s), "/"-separated.
BENCHMARK_METRICS: dict[str, str] = {
    # GLUE (Wang et al., 2018; gluebenchmark.com leaderboard columns)
    "cola": "Matthews correlation",
    "sst": "accuracy",
    "mrpc": "F1 / accuracy",
    "stsb": "Pearson correlation / Spearman correlation",
    "qqp": "F1 / accuracy",
    "mnli": "accuracy",
    "multinli": "accuracy",
    "qnli": "accuracy",
    "rte": "accuracy",
    "wnli": "accuracy",
    # The suites' own column: the GLUE / SuperGLUE score, the average over their tasks (the
    # leaderboards' "Score")
    "glue": "score",
    "superglue": "score",
    # SuperGLUE (Wang et al., 2019; super.gluebenchmark.com leaderboard columns)
    "boolq": "accuracy",
    "cb": "F1 / accuracy",
    "copa": "accuracy",
    "multirc": "F1a / EM",
    "record": "F1 / EM",
    "wic": "accuracy",
    "wsc": "accuracy",
    # SQuAD 1.1 and 2.0 (Rajpurkar et al., 2016, 2018; its leaderboard reports "EM F1")
    "squad": "EM / F1",
    # SNLI (Bowman et al., 2015), RACE (Lai et al., 2017), SWAG (Zellers et al., 2018),
    # IMDB (Maas et al., 2011): accuracy, their papers' one metric
    "snli": "accuracy",
    "race": "accuracy",
    "swag": "accuracy",
    "imdb": "accuracy",
    # The CoNLL shared tasks on chunking (2000), named entities (2002, 2003) and semantic roles
    # (2005): F1 of whole phrases, their evaluation script's (conlleval) one score
    "conll2000": "F1",
    "conll2002": "F1",
    "conll2003": "F1",
    "conll2005": "F1",
    # VQA (Antol et al., 2015), VCR (Zellers et al., 2019), NLVR2 (Suhr et al., 2019), WikiHop
    # (Welbl et al., 2018): accuracy, their leaderboards' score
    "vqa": "accuracy",
    "vcr": "accuracy",
    "nlvr": "accuracy",
    "wikihop": "accuracy",
    # enwik8 (the Hutter Prize's data): bits per character
    "enwik": "bits per character",
}
# SentEval's transfer tasks (Conneau and Kiela, 2018), accuracy in its tables (STS Benchmark:
# Pearson); their short names say little alone ("MR", "CR", "AX"), so they take their convention
# only in a head row naming two benchmark tasks or more ("MR CR SUBJ MPQA TREC SST", "CoLA ... AX").
SUITE_METRICS: dict[str, str] = {"mr": "accuracy", "cr": "accuracy", "subj": "accuracy", "mpqa": "accuracy",
                                 "trec": "accuracy", "sicke": "accuracy", "sickr": "Pearson correlation",
                                 "stsbench": "Pearson correlation / Spearman correlation",
                                 # GLUE's diagnostic set, "AX" on its leaderboard: Matthews correlation
                                 "ax": "Matthews correlation"}
# The suite each benchmark task belongs to (folded task -> suite): the data an "Average" column
# beside its tasks averages over ("GLUE Average" right of "MNLI-m MRPC CoLA").
SUITES: dict[str, str] = {
    **{task: "GLUE" for task in ("cola", "sst", "mrpc", "stsb", "qqp", "mnli", "multinli", "qnli", "rte", "wnli")},
    **{task: "SuperGLUE" for task in ("boolq", "cb", "copa", "multirc", "record", "wic", "wsc")},
    **{task: "SentEval" for task in ("mr", "cr", "subj", "mpqa", "trec", "sicke", "sickr", "stsbench")},
}
# Benchmarks whose "x / y" cells' two metrics are told apart by size, in whatever order a table
# prints them: the larger one (F1 is never under exact match; MRPC's F1 is over its accuracy and
# QQP's under it, their classes unbalanced one way and the other).
LARGER: dict[str, str] = {"squad": "F1", "record": "F1", "multirc": "F1a", "mrpc": "F1", "qqp": "accuracy"}
# Benchmarks whose one number a cell prints on the dev set is, by the papers' usage, another
# metric than the leaderboard's first: GLUE's MRPC and QQP dev scores are accuracies (RoBERTa,
# ALBERT, ELECTRA, XLNet), their F1 the test server's.
DEV_METRICS: dict[str, str] = {"mrpc": "accuracy", "qqp": "accuracy"}
# What may follow a task's name in a head: a version ("SST-2", "SQuAD v2.0"), MNLI's matched and
# mismatched parts ("MNLI-m", "MNLI-(m/mm)"), a language and a task (CoNLL's "CoNLL 2003 English
# NER"), a split.
_SUFFIX = re.compile(r"(?:v?\d+)*(?:m|mm|mmm|matched|mismatched)?(?:en|english|de|german|es|spanish|nl|dutch)?"
                     r"(?:ner|chunking)?(?:dev|test)?")
# What marks a result's header when its metric is the benchmark's convention.
ASSUMED = "(metric: benchmark convention)"
# The one metric a dataset's leaderboards report nearly always, folded name -> metric
# (``folded<TAB>metric`` rows, made by scripts/build_usual_metrics.py from Papers with Code's
# leaderboards: "weibo" -> F1, "sst5" -> accuracy), and what marks a result that took it.
SHIPPED_USUAL_METRICS = Path(__file__).resolve().parents[2] / "resources" / "usual_metrics.tsv"
USUAL = "(metric: usual on leaderboards)"
# Numbers no such metric can take: a rate of errors over 50 ("97.0" under "TREC" is an
# accuracy), bits per character over 10, a perplexity or a bit count written as a share
# ("0.66 %": an overlap).
_BOUNDS = ((re.compile(r"error", re.I), 50.0), (re.compile(r"bits per", re.I), 10.0))
_NO_SHARE = re.compile(r"perplexity|bits per", re.I)


def _convention(key: str, table: dict[str, str]) -> str | None:
    """The metric(s) ``table`` gives the task whose folded name is ``key`` (a version or split
    after the name allowed), None for no task of it."""
    return next((m for task, m in table.items() if key.startswith(task) and _SUFFIX.fullmatch(key[len(task):])), None)


def benchmark_metric(name: str | None, part: tuple[int, int] | None = None, beside: tuple[str, ...] = ()) -> str | None:
    """The metric a result on the benchmark task ``name`` takes by convention, None for a name
    that is no such task; ``part``: which of its cell's numbers (of how many) the result is;
    ``beside``: the other heads of its row, where a suite's task needs two of its suite."""
    key = fold(name or "")
    metrics = _convention(key, BENCHMARK_METRICS)
    if metrics is None and sum(_convention(fold(head), SUITE_METRICS) is not None
                               or _convention(fold(head), BENCHMARK_METRICS) is not None
                               for head in {*beside, name or ""}) >= 2:
        metrics = _convention(key, SUITE_METRICS)
    if metrics is None:
        return None
    pieces = [m.strip() for m in metrics.split("/")]
    if part is not None and part[1] == len(pieces):
        return pieces[part[0]]
    return pieces[0]


def dev_metric(name: str | None) -> str | None:
    """The metric a lone dev-set number of the benchmark ``name`` takes (see :data:`DEV_METRICS`),
    None where the convention's first holds."""
    return _convention(fold(name or ""), DEV_METRICS)


def larger_metric(name: str | None) -> str | None:
    """The larger of the two metrics of an "x / y" cell of the benchmark ``name`` (see
    :data:`LARGER`), None for a benchmark whose two are not told apart by size."""
    return _convention(fold(name or ""), LARGER)


@lru_cache(maxsize=256)
def suite_of(heads: tuple[str, ...]) -> str | None:
    """The one suite two or more of ``heads`` are tasks of, none of another's nor a benchmark of
    none ("MNLI-m MRPC CoLA" -> "GLUE"; "SST-2 IMDB QNLI QQP": none), else None. (Asked for
    every number of an "Average" column: kept.)"""
    keys = [fold(h) for h in heads]
    known = [suite for key in keys if (suite := _convention(key, SUITES))]
    suites = {fold(suite) for suite in SUITES.values()}
    alone = any(_convention(key, BENCHMARK_METRICS) and not _convention(key, SUITES) and key not in suites
                for key in keys)
    return known[0] if len(known) >= 2 and len(set(known)) == 1 and not alone else None


@lru_cache(maxsize=1)
def _usual_metrics() -> dict[str, str]:
    lines = SHIPPED_USUAL_METRICS.read_text(encoding="utf-8").splitlines() if SHIPPED_USUAL_METRICS.is_file() else []
    return dict(line.split("\t", 1) for line in lines if "\t" in line)


def usual_metric(name: str | None, value: float | None, share: bool = False) -> str | None:
    """The metric the data ``name`` is nearly always scored with on leaderboards, where a
    column names the data alone and nothing else names a metric ("Weibo" -> F1), None for data
    with no such metric or a number it cannot be: ``value`` (an error rate of 97.0), ``share``
    (the number written with "%": no perplexity). A name of two letters says too little alone
    ("MR": movie reviews or machine reading)."""
    key = fold(name or "")
    metric = _usual_metrics().get(key) if len(key) > 2 else None
    if metric is None or (share and _NO_SHARE.search(metric)) or cannot_be(metric, value):
        return None
    return metric


def cannot_be(metric: str, value: float | None) -> bool:
    """Whether ``value`` is a number ``metric`` cannot take: an error rate over 50 (a "92.81"
    said to be an error rate is an accuracy), bits per character over 10."""
    return value is not None and any(kind.search(metric) and value > bound for kind, bound in _BOUNDS)
