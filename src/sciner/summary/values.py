"""Values linked to what they measure, and results read off sentences.

Within one sentence, a HyperparameterValue belongs to a HyperparameterName and a MetricValue
to a MetricName: the nearest one before it, else the nearest one after it ("learning rate
... 5e-5 , 3e-5 , 2e-5" gives three pairs; "93.2 F1" one). A result is a MetricValue with
its metric and the dataset, task and method named nearest to it in the same sentence, each
``None`` where the sentence names none. A table's rows are no sentences: they are read by
:mod:`sciner.summary.tables`, into the same :class:`Value` and :class:`Result`.
"""

from __future__ import annotations

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

    def to_json(self) -> dict[str, Any]:
        return {"task": self.task, "dataset": self.dataset, "metric": self.metric, "value": self.value,
                "model": self.model, "paragraph": self.place[0]}


@dataclass(frozen=True)
class Pair:
    """A value span and the name span it belongs to (None where the sentence has none)."""

    value: Span
    name: Span | None


def pair_values(spans: Sequence[Span]) -> list[Pair]:
    """Each value among ``spans`` (one sentence's) with its name: the nearest preceding span of
    the name type, else the nearest following one."""
    pairs = []
    for value in spans:
        wanted = VALUE_OF.get(value.label)
        if wanted is None:
            continue
        names = [s for s in spans if s.label == wanted]
        before = [s for s in names if s.end <= value.start]
        after = [s for s in names if s.start >= value.end]
        name = before[-1] if before else after[0] if after else None
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


def read_sentences(paragraphs: Sequence[Paragraph], name: Callable[[Paragraph, Span], str | None],
                   ) -> tuple[list[Value], list[Result]]:
    """Every value of the paper's sentences with the name it belongs to, and every MetricValue
    as a result; ``name`` gives a name span's entity name. Table rows are skipped."""
    values, results = [], []
    for i, p in enumerate(paragraphs):
        if p.meta.get("cells"):
            continue
        for spans in sentences(p):
            for pair in pair_values(spans):
                of = name(p, pair.name) if pair.name is not None else None
                place = (i, pair.value.start, pair.value.end)
                text = " ".join(p.tokens[pair.value.start:pair.value.end])
                values.append(Value(pair.value.label, text, of, place))
                if pair.value.label == "MetricValue":
                    found = {f: nearest(spans, label, pair.value) for f, label in RESULT_FIELDS.items()}
                    named = {f: name(p, s) if s is not None else None for f, s in found.items()}
                    results.append(Result(named["task"], named["dataset"], of, text, named["model"], place))
    return values, results
