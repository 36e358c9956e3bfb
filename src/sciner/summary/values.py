"""Values linked to what they measure, and results read off sentences.

Within one sentence, a HyperparameterValue belongs to a HyperparameterName and a MetricValue
to a MetricName: the nearest one before it, else the nearest one after it ("learning rate
... 5e-5 , 3e-5 , 2e-5" gives three pairs; "93.2 F1" one). A result is a MetricValue with
its metric and the dataset, task and method named nearest to it in the same sentence, each
``None`` where the sentence names none. A table's rows are no sentences: they are read by
:mod:`sciner.summary.tables`, into the same :class:`Value` and :class:`Result`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sciner.data.sentences import sentence_ranges
from sciner.document import Paragraph, Span

# Where a mention is: (paragraph index in its paper, start token, end token).
Place = tuple[int, int, int]

# Each value type and the name type it belongs to.
VALUE_OF: dict[str, str] = {"HyperparameterValue": "HyperparameterName", "MetricValue": "MetricName"}
# The fields of a result and the entity type each is read from.
RESULT_FIELDS: dict[str, str] = {"task": "TaskName", "dataset": "DatasetName", "model": "MethodName"}


@dataclass
class Value:
    """A HyperparameterValue or MetricValue and the name it belongs to (None: none found)."""

    type: str
    value: str
    of: str | None
    place: Place

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "value": self.value, "of": self.of, "paragraph": self.place[0]}


@dataclass
class Result:
    """A reported result: a metric's value and what its sentence, or its table's header, row
    and caption, say it was measured on."""

    task: str | None
    dataset: str | None
    metric: str | None
    value: str
    model: str | None
    place: Place
    ours: bool = False  # the paper's own method (see :func:`sciner.summary.ours.mark_ours`)
    table: str | None = None  # the table it was read off ("table 2"), None for a sentence

    def to_json(self) -> dict[str, Any]:
        return {"task": self.task, "dataset": self.dataset, "metric": self.metric, "value": self.value,
                "model": self.model, "ours": self.ours, "table": self.table, "paragraph": self.place[0]}


@dataclass
class NotResult:
    """A number of a table's body (or a MetricValue of a sentence) that is no result, and why:
    "difference" (a gain, a Δ column), "deviation" (the ± part), "count", "p-value", "size",
    "time", "setting" (a hyperparameter's value, a row label such as a threshold), "statistic"
    (a column of a table of data statistics), "bound" ("chance level < 0.0001"), "no metric"
    (nothing says what it measures); in a table also "parenthesized", "amount" and "unread" (a
    cell the reader could not read, its text as the value: see :mod:`sciner.summary.tables`)."""

    value: str
    reason: str
    place: Place
    table: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"value": self.value, "reason": self.reason, "table": self.table, "paragraph": self.place[0]}


@dataclass(frozen=True)
class Pair:
    """A value span and the name span it belongs to (None where the sentence has none)."""

    value: Span
    name: Span | None


def pair_values(spans: Sequence[Span], tokens: Sequence[str] = ()) -> list[Pair]:
    """Each value among ``spans`` (one sentence's) with its name: the nearest preceding span of
    the name type, else the nearest following one; but in a sentence listing as many names as
    values "respectively" (``tokens``: the paragraph's), the names and values in order
    ("Rouge-1 , Rouge-2 and BERT-Scores were 45.6 , 30.0 and 38.0 , respectively")."""
    pairs = []
    in_order: dict[Span, Span] = {}
    reach = tokens[min((s.start for s in spans), default=0):max((s.end for s in spans), default=0) + 12]
    if any(t.lower() == "respectively" for t in reach):
        for value_label, name_label in VALUE_OF.items():
            values = [s for s in spans if s.label == value_label]
            names = [s for s in spans if s.label == name_label and values and s.end <= values[0].start]
            if len(values) >= 2 and len(names) == len(values):
                in_order.update(zip(values, names))
    for value in spans:
        wanted = VALUE_OF.get(value.label)
        if wanted is None:
            continue
        names = [s for s in spans if s.label == wanted]
        before = [s for s in names if s.end <= value.start]
        after = [s for s in names if s.start >= value.end]
        # A name right after the value, only "vs" and values between, is its: "0.71 vs 0.64 Fleiss
        # κ", "87.5 vs. 85.7 average LAS", "achieves 73.0 F1", not the one before.
        close = after[0] if after and tokens and after[0].start - value.end <= 4 and all(
            re.fullmatch(r"vs\.?|versus|[-–]|%|[-+]?\d[\d.,]*%?|average|avg\.?|mean", t.lower())
            for t in tokens[value.end:after[0].start]) else None
        name = in_order.get(value) or close or (before[-1] if before else after[0] if after else None)
        pairs.append(Pair(value, name))
    return pairs


def nearest(spans: Sequence[Span], label: str, to: Span) -> Span | None:
    """The ``label`` span nearest to ``to`` (a tie goes to the earlier one), or None."""
    candidates = [s for s in spans if s.label == label]
    if not candidates:
        return None
    return min(candidates, key=lambda s: (max(to.start - s.end, s.start - to.end, 0), s.start))


def sentences(p: Paragraph) -> list[list[Span]]:
    """The spans of each sentence of a tagged paragraph."""
    spans = p.spans or []
    return [[s for s in spans if start <= s.start < end] for start, end in sentence_ranges(p.tokens, p.tags or [])]


# Words right after a value that make it a change, not a score ("by 4.7 points", "+3.2 absolute").
_GAIN_AFTER = frozenset({"improvement", "improvements", "gain", "gains", "points", "point", "absolute", "relative",
                         "higher", "lower", "better", "worse", "increase", "decrease", "reduction", "drop", "boost",
                         "error", "over", "more", "less", "fewer"})
# Verbs that report a change: a value after "by" in their sentence is its size.
_CHANGE = ("improv", "outperform", "increas", "decreas", "reduc", "boost", "gain", "surpass", "exceed", "beat", "drop",
           "lower", "rais")
# Words after an integer that make it a count ("620 ANs", "5 runs").
_COUNTED = frozenset({"examples", "sentences", "documents", "papers", "words", "tokens", "pairs", "annotators", "samples",
                      "runs", "epochs", "layers", "parameters", "instances", "queries", "questions", "articles",
                      "summaries", "languages", "tasks", "datasets", "models", "systems", "times", "seeds", "classes",
                      "relations", "entities", "k", "m", "million", "billion", "thousand"})


def not_a_score(tokens: Sequence[str], value: Span, spans: Sequence[Span]) -> str | None:
    """Why a MetricValue of a sentence is no reported score, or None: a "difference" ("+2.94",
    "outperforms X by 19.3 %", "4.7 points higher"), a "setting" ("λ = 0.05") or a "count"."""
    text = "".join(tokens[value.start:value.end])
    before = [t.lower() for t in tokens[max(0, value.start - 2):value.start]]
    after = [t.lower() for t in tokens[value.end:value.end + 2]]
    sentence = "".join(tokens).lower()  # "out - performs" as "outperforms"
    changed = any(verb in sentence for verb in _CHANGE)
    if changed and (after[:1] == ["from"] or after == ["%", "from"]):
        return "difference"  # "increased development accuracy 0.6 % from 88.9 % to 89.5 %"
    metric = next((s for s in spans if s.label == "MetricName" and s.start >= value.end), None)
    if metric is not None and metric.start - value.end <= 2 and tokens[metric.end - 1].lower() in ("points", "point"):
        return "difference"  # "by 1.5 - 2 F1 points"
    if metric is not None and metric.start == value.end and \
            [t.lower() for t in tokens[metric.end:metric.end + 1]] in (["absolute"], ["higher"], ["lower"], ["better"],
                                                                        ["points"], ["improvement"], ["gain"]):
        return "difference"  # "2.5 F1 absolute higher than", "2.0 F1 higher on Brown"
    if text.startswith(("+", "−")) or (after and after[0] in _GAIN_AFTER) or (len(after) > 1 and after[0] == "%"
                                                                              and after[1] in _GAIN_AFTER):
        return "difference"
    back = [t.lower() for t in tokens[max(0, value.start - 12):value.start]]
    listed = next((k for k in range(len(back) - 1, -1, -1)
                   if not re.fullmatch(r"[\d.,%]+|and|,|more|than|over|about|almost|nearly|up|to|roughly", back[k])), None)
    if listed is not None and back[listed] == "by" and changed:
        return "difference"  # "reduce the error by 4.8 % , 18.2 % , 2.0 %"
    if any(w in ("improvement", "improvements", "gain", "gains", "increase", "decrease", "reduction", "drop", "margin")
           for w in [t.lower() for t in tokens[max(0, value.start - 4):value.start]]):
        return "difference"  # "an improvement of almost 0.5 F1"
    if before and before[-1] == "+":
        return "difference"  # "∆= + 2.3"
    if (before and before[-1] in ("above", "over", "below", "under", "beyond")) or before in (
            ["more", "than"], ["less", "than"], ["at", "least"], ["at", "most"], ["up", "to"], ["fewer", "than"]):
        return "bound"  # "above 97 F1", "a recall of over 60 %", "less than 0.3"
    ahead = [t.lower() for t in tokens[value.end:value.end + 4]]
    if "confidence" in ahead[:3]:
        return "setting"  # "95 % bootstrap confidence interval"
    run = next((k for k, w in enumerate(ahead) if not re.fullmatch(r"[-–]|%|[-+]?\d[\d.,]*%?", w)), len(ahead))
    if run < len(ahead) and ahead[run] in ("increase", "decrease", "reduction", "improvement"):
        return "difference"  # "a 30 - 40 % increase", not "to 87.4 % , 1.0 % increase"
    if any(w.startswith(("std", "deviation", "stdev")) for w in back[-6:]):
        return "deviation"  # "std - dev 18.5 to 6.8"
    if before and before[-1] in ("<", ">", "≤", "≥", "<=", ">="):
        return "p-value" if len(before) > 1 and before[-2].lower() == "p" else "bound"  # "chance level < 0.0001"
    if before and before[-1] in ("=", ":") and len(before) > 1 and not any(
            s.label == "MetricName" and s.end == value.start - 1 for s in spans):
        return "setting"
    if text.isdigit() and after and after[0] in _COUNTED:
        return "count"
    return None


def _owner(spans: Sequence[Span], tokens: Sequence[str], value: Span, label: str) -> Span | None:
    """The ``label`` span a value in parentheses right after it belongs to ("A ( 68.2 ) and B
    ( 66.2 )": 68.2 is A's, 66.2 B's), else None."""
    if value.start >= 1 and tokens[value.start - 1] == "(":
        return next((s for s in spans if s.label == label and s.end == value.start - 1), None)
    return None


def read_sentences(paragraphs: Sequence[Paragraph], name: Callable[[Paragraph, Span], str | None],
                   ) -> tuple[list[Value], list[Result], list[NotResult]]:
    """Every value of the paper's sentences with the name it belongs to; every MetricValue that
    reports a score (a metric named in its sentence, no gain, setting or count: see
    :func:`not_a_score`) as a result, the others as not results. Table rows are skipped."""
    values, results, others = [], [], []
    for i, p in enumerate(paragraphs):
        if p.meta.get("cells"):
            continue
        for spans in sentences(p):
            for pair in pair_values(spans, p.tokens):
                of = name(p, pair.name) if pair.name is not None else None
                place = (i, pair.value.start, pair.value.end)
                text = " ".join(p.tokens[pair.value.start:pair.value.end])
                values.append(Value(pair.value.label, text, of, place))
                if pair.value.label != "MetricValue":
                    continue
                # a metric of one letter in lower case ("f = 0.5") is some fraction, no metric
                reason = not_a_score(p.tokens, pair.value, spans) or (
                    None if of is not None and not re.fullmatch(r"[a-z]", of) else "no metric")
                if reason is not None:
                    others.append(NotResult(text, reason, place))
                    continue
                found = {f: _owner(spans, p.tokens, pair.value, label) or nearest(spans, label, pair.value)
                         for f, label in RESULT_FIELDS.items()}
                named = {f: name(p, s) if s is not None else None for f, s in found.items()}
                results.append(Result(named["task"], named["dataset"], of, text, named["model"], place))
    return values, results, others
