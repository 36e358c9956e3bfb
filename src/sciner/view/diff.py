"""An HTML diff of predicted entities against gold ones: correct, missed and spurious.

An entity is *correct* when gold and prediction agree on its type and both boundaries
(the exact-match rule of ``sciner evaluate``), *missed* when only gold has it and
*spurious* when only the prediction has it. Where a missed and a spurious entity overlap
(wrong boundary or wrong type) the text is shown twice, gold above prediction, so both
can be read whole.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from sciner.document import Paragraph, Span
from sciner.evaluate.align import check_same_tokens
from sciner.evaluate.metrics import span_key
from sciner.formats.html import (
    all_labels,
    escape,
    mark,
    page,
    paragraph_head,
    render_tokens,
    type_class,
)

CORRECT, MISSED, SPURIOUS = "correct", "missed", "spurious"

DIFF_CSS = """
mark.diff-correct { outline: 2px solid #2e7d32; }
mark.diff-missed { outline: 2px dashed #c62828; opacity: 0.85;
  background-image: repeating-linear-gradient(135deg, transparent 0 6px, rgba(255,255,255,0.55) 6px 10px); }
mark.diff-spurious { outline: 2px dotted #ef6c00; }
.diff-mark { display: inline-block; padding: 0.1em 0.5em; border-radius: 0.3em; background: #f3f3f3; }
.diff-mark.correct { outline: 2px solid #2e7d32; }
.diff-mark.missed { outline: 2px dashed #c62828; }
.diff-mark.spurious { outline: 2px dotted #ef6c00; }
.diff-pair { display: inline-flex; flex-direction: column; vertical-align: middle; line-height: 2.3;
  border-left: 3px solid #bbb; padding: 0 0.3em; margin: 0.2em 0.2em; background: #fcfcfc; }
.diff-side { font-size: 0.65em; color: #888; text-transform: uppercase; margin-right: 0.4em; }
.summary { font-size: 1.05em; }
"""


@dataclass
class DiffCounts:
    """How many entities of each type were correct, missed and spurious."""

    by_type: dict[str, Counter[str]] = field(default_factory=dict)

    def add(self, label: str, outcome: str) -> None:
        self.by_type.setdefault(label, Counter())[outcome] += 1

    def total(self, outcome: str) -> int:
        return sum(c[outcome] for c in self.by_type.values())


def overlap_groups(gold: Sequence[Span], pred: Sequence[Span]) -> list[tuple[list[Span], list[Span]]]:
    """Gold and predicted spans grouped into runs of overlapping spans, left to right."""
    tagged = sorted([(s, True) for s in gold] + [(s, False) for s in pred], key=lambda x: (x[0].start, x[0].end))
    groups: list[tuple[list[Span], list[Span]]] = []
    end = -1
    for span, is_gold in tagged:
        if span.start >= end:
            groups.append(([], []))
        groups[-1][0 if is_gold else 1].append(span)
        end = max(end, span.end) if span.start < end else span.end
    return groups


Key = tuple[str, int, int]


def _single_mark(tokens: Sequence[str], gold: list[Span], pred: list[Span]) -> str:
    """A group that is one entity: correct (in both), missed (gold only) or spurious (prediction only)."""
    span = (pred or gold)[0]  # the prediction's, for its score
    outcome = CORRECT if gold and pred else MISSED if gold else SPURIOUS
    note = "✓" if outcome == CORRECT else outcome
    text = " ".join(tokens[span.start : span.end])
    return mark(text, span.label, extra_class=f"diff-{outcome}", note=note, score=span.score)


def _row(window: Sequence[str], start: int, spans: list[Span], other_keys: set[Key], miss: str) -> str:
    """One side of a group, its spans shifted to the window starting at token ``start``."""

    def classify(s: Span) -> tuple[str, str]:
        hit = (s.label, s.start + start, s.end + start) in other_keys
        return (f"diff-{CORRECT}", "✓") if hit else (f"diff-{miss}", miss)

    shifted = [Span(s.label, s.start - start, s.end - start, s.score) for s in spans]
    return render_tokens(window, shifted, classify=classify)


def _group_html(tokens: Sequence[str], gold: list[Span], pred: list[Span], gold_keys: set[Key], pred_keys: set[Key]) -> str:
    """One group of overlapping spans: a single mark when it is one entity, else gold over prediction."""
    if len(gold) + len(pred) == 1 or (len(gold) == len(pred) == 1 and span_key(gold[0]) == span_key(pred[0])):
        return _single_mark(tokens, gold, pred)
    start = min(s.start for s in gold + pred)
    window = list(tokens[start : max(s.end for s in gold + pred)])
    gold_row = _row(window, start, gold, pred_keys, MISSED)
    pred_row = _row(window, start, pred, gold_keys, SPURIOUS)
    return (
        '<span class="diff-pair">'
        f'<span class="diff-row diff-gold"><span class="diff-side">gold</span>{gold_row}</span>'
        f'<span class="diff-row diff-pred"><span class="diff-side">pred</span>{pred_row}</span></span>'
    )


def diff_paragraph_html(tokens: Sequence[str], gold: Sequence[Span], pred: Sequence[Span]) -> str:
    """The tokens of one paragraph with gold and predicted entities marked by outcome."""
    gold_keys = {span_key(s) for s in gold}
    pred_keys = {span_key(s) for s in pred}
    parts: list[str] = []
    pos = 0
    for g, p in overlap_groups(gold, pred):
        start = min(s.start for s in g + p)
        if start > pos:
            parts.append(escape(" ".join(tokens[pos:start])))
        parts.append(_group_html(tokens, g, p, gold_keys, pred_keys))
        pos = max(s.end for s in g + p)
    if pos < len(tokens):
        parts.append(escape(" ".join(tokens[pos:])))
    return " ".join(parts)


def count_outcomes(gold: Sequence[Span], pred: Sequence[Span], counts: DiffCounts) -> None:
    """Add one paragraph's correct, missed and spurious entities to ``counts``."""
    gold_keys = {span_key(s) for s in gold}
    pred_keys = {span_key(s) for s in pred}
    for label, *_ in gold_keys & pred_keys:
        counts.add(label, CORRECT)
    for label, *_ in gold_keys - pred_keys:
        counts.add(label, MISSED)
    for label, *_ in pred_keys - gold_keys:
        counts.add(label, SPURIOUS)


def _prf(correct: int, missed: int, spurious: int) -> tuple[float, float, float]:
    p = correct / (correct + spurious) if correct + spurious else 0.0
    r = correct / (correct + missed) if correct + missed else 0.0
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def _summary_html(counts: DiffCounts, labels: list[str]) -> str:
    c, m, s = counts.total(CORRECT), counts.total(MISSED), counts.total(SPURIOUS)
    p, r, f = _prf(c, m, s)
    keys = (
        f'<span class="legend-item"><span class="diff-mark correct">correct ✓</span> <span class="count">{c}</span></span>'
        f'<span class="legend-item"><span class="diff-mark missed">missed</span> <span class="count">{m}</span></span>'
        f'<span class="legend-item"><span class="diff-mark spurious">spurious</span> <span class="count">{s}</span></span>'
        f'<span class="legend-item summary">precision {p:.3f} · recall {r:.3f} · F1 {f:.3f}</span>'
    )
    rows = []
    for t in labels:
        tc = counts.by_type.get(t, Counter())
        pt, rt, ft = _prf(tc[CORRECT], tc[MISSED], tc[SPURIOUS])
        rows.append(
            f'<tr data-type="{escape(t)}"><td><span class="swatch {type_class(t)}"></span> {escape(t)}</td>'
            f"<td>{tc[CORRECT]}</td><td>{tc[MISSED]}</td><td>{tc[SPURIOUS]}</td><td>{ft:.3f}</td></tr>"
        )
    table = (
        '<table class="diff-table"><tr><th>type</th><th>correct</th><th>missed</th><th>spurious</th><th>F1</th></tr>'
        + "".join(rows)
        + "</table>"
    )
    return f'<div class="legend">{keys}</div>{table}'


def render_diff(
    gold: Sequence[Paragraph],
    pred: Sequence[Paragraph],
    title: str = "sciner diff",
    *,
    gold_name: str = "gold",
    pred_name: str = "prediction",
) -> str:
    """A page comparing predicted paragraphs with gold ones entity by entity.

    Entities come from each paragraph's spans, else its tags. Both sides must have the same
    paragraphs with the same tokens (else
    :class:`~sciner.errors.TokenMismatchError`, naming ``gold_name`` and ``pred_name``). The
    legend counts correct, missed and spurious entities overall and per type, with the
    exact-match precision, recall and F1 they give.
    """
    check_same_tokens(gold, pred, gold_name, pred_name)
    gold_spans = [p.spans or [] for p in gold]
    pred_spans = [p.spans or [] for p in pred]
    labels = all_labels(*gold_spans, *pred_spans)
    counts = DiffCounts()
    paras = []
    for i, (g, gs, ps) in enumerate(zip(gold, gold_spans, pred_spans)):
        count_outcomes(gs, ps, counts)
        paras.append(f'<div class="paragraph">{paragraph_head(g, i)}{diff_paragraph_html(g.tokens, gs, ps)}</div>')
    body = (
        f'<p class="subtitle">{len(gold)} paragraphs · {sum(map(len, gold_spans))} gold entities · '
        f"{sum(map(len, pred_spans))} predicted</p>" + _summary_html(counts, labels) + "\n".join(paras)
    )
    return page(title, body, labels=labels, extra_css=DIFF_CSS)
