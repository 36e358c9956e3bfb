"""How good a summary is against a hand-checked gold: precision and recall of entity names
and of value -> name pairs (tests/fixtures/summarize/*.gold.json, benchmarks/summarize.py).

A gold paper lists its entities (``type``, ``name``, ``aliases``: the spellings one entity
goes by) and its pairs (``type``, ``value``, ``of``). A summary's entity is right when its
``name`` folds to the name or an alias of a gold entity of its type not matched yet, so an
entity split in two counts one miss-merge as a false positive. A pair is right when its
value and name fold to a gold pair's (each gold pair matched once).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from sciner.evaluate.metrics import Counts
from sciner.summary.assemble import PaperSummary
from sciner.summary.names import fold

# The types the name gold covers (hyperparameter names are scored through the pairs).
SCORED_TYPES: tuple[str, ...] = ("MethodName", "DatasetName", "TaskName", "MetricName")


def counts(tp: int, predicted: int, gold: int) -> Counts:
    """The evaluation's counts of ``tp`` right out of ``predicted``, against ``gold`` items."""
    return Counts(tp=tp, fp=predicted - tp, fn=gold - tp)


def line(c: Counts) -> str:
    """Precision and recall with what they count: ``P 0.583 (7/12)  R 0.938 (7/8)``."""
    return f"P {c.precision:.3f} ({c.tp}/{c.predicted})  R {c.recall:.3f} ({c.tp}/{c.support})"


def _value_key(text: str) -> str:
    return "".join(str(text).split())


def score_names(summary: PaperSummary, gold: Mapping[str, Any]) -> Counts:
    """Entity names of ``summary`` (the scored types) against ``gold["entities"]``."""
    entities = [e for e in gold["entities"] if e["type"] in SCORED_TYPES]
    keys = [(e["type"], {fold(n) for n in [e["name"], *e.get("aliases", [])]}) for e in entities]
    matched: set[int] = set()
    predicted = [e for e in summary.entities if e.type in SCORED_TYPES]
    for e in predicted:
        hit = next((i for i, (label, names) in enumerate(keys) if i not in matched and label == e.type
                    and fold(e.name) in names), None)
        if hit is not None:
            matched.add(hit)
    return counts(len(matched), len(predicted), len(entities))


def score_pairs(summary: PaperSummary, gold: Mapping[str, Any]) -> Counts:
    """The value -> name pairs of ``summary`` (values with an ``of``) against ``gold["pairs"]``."""
    wanted = Counter((p["type"], _value_key(p["value"]), fold(p["of"])) for p in gold["pairs"])
    found = [(v.type, _value_key(v.value), fold(v.of)) for v in summary.values if v.of is not None]
    tp = sum((Counter(found) & wanted).values())
    return counts(tp, len(found), sum(wanted.values()))


def score_all(summaries: Sequence[PaperSummary], golds: Iterable[Mapping[str, Any]]) -> dict[str, Counts]:
    """Names and pairs summed over the gold papers (each matched to its summary by ``doc``)."""
    by_doc = {s.doc: s for s in summaries}
    names, pairs = Counts(), Counts()
    for gold in golds:
        summary = by_doc[gold["doc"]]
        names, pairs = names + score_names(summary, gold), pairs + score_pairs(summary, gold)
    return {"names": names, "pairs": pairs}
