"""Which type a system gives where gold has an entity: a confusion table over overlapping spans.

Rows are gold types, columns predicted types. A gold entity is paired with the predicted
entity that shares most tokens with it (the first such on a tie), so each gold entity is
counted once: on the diagonal when the types agree (whatever the boundaries), off it when
they differ, and in the ``missed`` column when no prediction touches it. A predicted
entity that touches no gold entity is counted in the ``spurious`` row.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from sciner.document import Span
from sciner.evaluate.align import AlignedParagraph
from sciner.evaluate.metrics import order_types
from sciner.document import bio_to_spans

MISSED = "missed"
SPURIOUS = "spurious"


def _overlap(a: Span, b: Span) -> int:
    return max(0, min(a.end, b.end) - max(a.start, b.start))


@dataclass(frozen=True)
class Confusion:
    """Counts of (gold type or ``spurious``, predicted type or ``missed``)."""

    counts: Counter[tuple[str, str]]

    @property
    def types(self) -> list[str]:
        """Every entity type seen on either side, in the task's order."""
        labels = {g for g, _ in self.counts} | {p for _, p in self.counts}
        return order_types(labels - {MISSED, SPURIOUS})

    def rows(self) -> list[str]:
        """Row labels: gold types, then ``spurious``."""
        return [*self.types, SPURIOUS]

    def columns(self) -> list[str]:
        """Column labels: predicted types, then ``missed``."""
        return [*self.types, MISSED]

    def matrix(self) -> list[list[int]]:
        """The counts as a list of rows, in :meth:`rows` x :meth:`columns` order."""
        return [[self.counts.get((r, c), 0) for c in self.columns()] for r in self.rows()]


def paragraph_confusion(gold: Sequence[Span], pred: Sequence[Span]) -> Counter[tuple[str, str]]:
    """The confusion counts of one paragraph's gold and predicted spans."""
    counts: Counter[tuple[str, str]] = Counter()
    for g in gold:
        best = max(pred, key=lambda p: _overlap(g, p), default=None)
        if best is None or _overlap(g, best) == 0:
            counts[(g.label, MISSED)] += 1
        else:
            counts[(g.label, best.label)] += 1
    for p in pred:
        if not any(_overlap(g, p) for g in gold):
            counts[(SPURIOUS, p.label)] += 1
    return counts


def confusion(pairs: Iterable[AlignedParagraph]) -> Confusion:
    """The confusion table of aligned gold/predicted paragraphs."""
    total: Counter[tuple[str, str]] = Counter()
    for pair in pairs:
        total.update(paragraph_confusion(bio_to_spans(pair.gold), bio_to_spans(pair.pred)))
    return Confusion(total)
