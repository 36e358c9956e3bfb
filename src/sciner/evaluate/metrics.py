"""Exact-span precision, recall and F1 per entity type, micro and macro, with support.

A predicted entity counts only when its type, first and last token all equal a gold
entity's. Tags are read with :func:`sciner.document.bio_to_spans`, so a stray ``I-X``
starts a new entity; on valid BIO the numbers equal seqeval's strict IOB2 mode.

The API follows seqeval/scikit-learn: lists of tag sequences in, numbers out::

    >>> f1_score([["B-TaskName", "I-TaskName", "O"]], [["B-TaskName", "I-TaskName", "O"]])
    1.0
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from sciner.document import Span
from sciner.document import bio_to_spans
from sciner.labels import ENTITY_TYPES


@dataclass
class Counts:
    """True positives, false positives and false negatives of one entity type (or bucket)."""

    tp: int = 0
    fp: int = 0
    fn: int = 0

    def __add__(self, other: Counts) -> Counts:
        return Counts(self.tp + other.tp, self.fp + other.fp, self.fn + other.fn)

    @property
    def support(self) -> int:
        """Number of gold entities."""
        return self.tp + self.fn

    @property
    def predicted(self) -> int:
        """Number of predicted entities."""
        return self.tp + self.fp

    @property
    def precision(self) -> float:
        # 0 when nothing was predicted, as seqeval's default zero_division does.
        return self.tp / self.predicted if self.predicted else 0.0

    @property
    def recall(self) -> float:
        return self.tp / self.support if self.support else 0.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0


@dataclass(frozen=True)
class Scores:
    """Precision, recall, F1 and the number of gold entities behind them."""

    precision: float
    recall: float
    f1: float
    support: int

    @classmethod
    def from_counts(cls, counts: Counts) -> Scores:
        return cls(counts.precision, counts.recall, counts.f1, counts.support)

    def to_dict(self, *, support: bool = True) -> dict[str, Any]:
        out: dict[str, Any] = {"precision": self.precision, "recall": self.recall, "f1": self.f1}
        if support:
            out["support"] = self.support
        return out


def order_types(types: Iterable[str]) -> list[str]:
    """The task's seven types in their usual order, then any other label alphabetically."""
    present = set(types)
    known = [t for t in ENTITY_TYPES if t in present]
    return known + sorted(present - set(ENTITY_TYPES))


@dataclass(frozen=True)
class Report:
    """Scores per type (types seen in gold or prediction), micro and macro averages."""

    counts: dict[str, Counts]
    per_type: dict[str, Scores]
    micro: Scores
    macro: Scores

    @classmethod
    def from_counts(cls, counts: dict[str, Counts]) -> Report:
        types = order_types(counts)
        per_type = {t: Scores.from_counts(counts[t]) for t in types}
        total = sum((counts[t] for t in types), Counts())
        micro = Scores.from_counts(total)
        n = len(types)
        # seqeval's macro: the unweighted mean of the per-type numbers (F1 too, not the F1 of the means).
        macro = Scores(
            precision=sum(s.precision for s in per_type.values()) / n if n else 0.0,
            recall=sum(s.recall for s in per_type.values()) / n if n else 0.0,
            f1=sum(s.f1 for s in per_type.values()) / n if n else 0.0,
            support=total.support,
        )
        return cls(counts={t: counts[t] for t in types}, per_type=per_type, micro=micro, macro=macro)

    def to_dict(self) -> dict[str, Any]:
        """The ``sciner evaluate --json`` shape (without its ``analysis`` part)."""
        return {
            "micro": self.micro.to_dict(support=False),
            "macro": self.macro.to_dict(support=False),
            "per_type": {t: s.to_dict() for t, s in self.per_type.items()},
        }


def span_key(span: Span) -> tuple[str, int, int]:
    """What makes two spans the same entity: type and token boundaries (a score does not)."""
    return (span.label, span.start, span.end)


def match_spans(gold: Iterable[Span], pred: Iterable[Span]) -> dict[str, Counts]:
    """Count exact matches of one paragraph's gold and predicted spans, per type."""
    gold_keys = {span_key(s) for s in gold}
    pred_keys = {span_key(s) for s in pred}
    counts: dict[str, Counts] = {}
    for label, *_ in gold_keys | pred_keys:
        counts.setdefault(label, Counts())
    for key in gold_keys & pred_keys:
        counts[key[0]].tp += 1
    for key in pred_keys - gold_keys:
        counts[key[0]].fp += 1
    for key in gold_keys - pred_keys:
        counts[key[0]].fn += 1
    return counts


def count_entities(y_true: Sequence[Sequence[str]], y_pred: Sequence[Sequence[str]]) -> dict[str, Counts]:
    """Sum :func:`match_spans` over paragraphs given as BIO tag sequences."""
    if len(y_true) != len(y_pred):
        raise ValueError(f"{len(y_true)} gold sequences but {len(y_pred)} predicted")
    total: dict[str, Counts] = {}
    for i, (gold_tags, pred_tags) in enumerate(zip(y_true, y_pred)):
        if len(gold_tags) != len(pred_tags):
            raise ValueError(f"sequence {i}: {len(gold_tags)} gold tags but {len(pred_tags)} predicted")
        for label, c in match_spans(bio_to_spans(gold_tags), bio_to_spans(pred_tags)).items():
            total[label] = total.get(label, Counts()) + c
    return total


def classification_report(y_true: Sequence[Sequence[str]], y_pred: Sequence[Sequence[str]]) -> Report:
    """Per-type, micro and macro scores of predicted BIO sequences against gold ones."""
    return Report.from_counts(count_entities(y_true, y_pred))


def _average(report: Report, average: str) -> Scores:
    if average == "micro":
        return report.micro
    if average == "macro":
        return report.macro
    raise ValueError(f"average must be 'micro' or 'macro', not {average!r}")


def precision_score(y_true: Sequence[Sequence[str]], y_pred: Sequence[Sequence[str]], average: str = "micro") -> float:
    """Exact-span precision, micro- or macro-averaged over types."""
    return _average(classification_report(y_true, y_pred), average).precision


def recall_score(y_true: Sequence[Sequence[str]], y_pred: Sequence[Sequence[str]], average: str = "micro") -> float:
    """Exact-span recall, micro- or macro-averaged over types."""
    return _average(classification_report(y_true, y_pred), average).recall


def f1_score(y_true: Sequence[Sequence[str]], y_pred: Sequence[Sequence[str]], average: str = "micro") -> float:
    """Exact-span F1, micro- or macro-averaged over types."""
    return _average(classification_report(y_true, y_pred), average).f1


def touching_share(tags: Sequence[Sequence[str]]) -> tuple[float, dict[str, float]]:
    """Share of the spans of ``tags`` (BIO, one list per paragraph) that touch a span of the
    same type on either side (a name split in two, or a run of values): all, and per type."""
    spans: Counter[str] = Counter()
    touch: Counter[str] = Counter()
    for para in tags:
        found = bio_to_spans(para)
        ends = {(s.end, s.label) for s in found}
        starts = {(s.start, s.label) for s in found}
        for s in found:
            spans[s.label] += 1
            touch[s.label] += (s.start, s.label) in ends or (s.end, s.label) in starts
    return sum(touch.values()) / max(sum(spans.values()), 1), {t: touch[t] / spans[t] for t in spans}
