"""Text renderings of evaluation results: an aligned table, conlleval.pl's layout, and a comparison."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from sciner.evaluate.align import AlignedParagraph
from sciner.evaluate.bootstrap import BootstrapResult, Difference
from sciner.evaluate.metrics import Scores
from sciner.document import bio_to_spans

if TYPE_CHECKING:  # pragma: no cover
    from sciner.evaluate import Evaluation

_BUCKET_TITLES = {
    "by_length": "by entity length (tokens)",
    "by_casing": "by casing",
    "by_training": "by presence in the training file",
}


def _score_table(title: str, rows: Sequence[tuple[str, Scores]], totals: Sequence[tuple[str, Scores]] = ()) -> list[str]:
    width = max([len(title)] + [len(name) for name, _ in (*rows, *totals)])
    header = f"{title:<{width}}  {'precision':>9}  {'recall':>7}  {'f1':>7}  {'support':>7}"
    lines = [header, "-" * len(header)]

    def line(name: str, s: Scores) -> str:
        return f"{name:<{width}}  {s.precision:>9.4f}  {s.recall:>7.4f}  {s.f1:>7.4f}  {s.support:>7d}"

    lines.extend(line(name, s) for name, s in rows)
    if totals:
        lines.append("-" * len(header))
        lines.extend(line(name, s) for name, s in totals)
    return lines


def _bucket_rows(buckets: dict[str, dict[str, Any]]) -> list[tuple[str, Scores]]:
    return [(name.replace("_", " "), Scores(**values)) for name, values in buckets.items()]


def format_table(evaluation: Evaluation, gold_name: str, pred_name: str) -> str:
    """Per-type scores then micro and macro, followed by the analysis tables."""
    report = evaluation.report
    tokens = sum(len(p.tokens) for p in evaluation.pairs)
    lines = [f"gold: {gold_name}", f"pred: {pred_name}", f"{len(evaluation.pairs)} paragraphs, {tokens} tokens", ""]
    lines += _score_table(
        "entity type",
        list(report.per_type.items()),
        [("micro avg", report.micro), ("macro avg", report.macro)],
    )
    for key, buckets in evaluation.analysis.items():
        lines += ["", *_score_table(_BUCKET_TITLES.get(key, key), _bucket_rows(buckets))]
    return "\n".join(lines) + "\n"


def format_conlleval(pairs: Sequence[AlignedParagraph]) -> str:
    """The summary layout of conlleval.pl: totals with token accuracy, then one line per type.

    The number at the end of a type's line is, as in conlleval.pl, how many entities of that
    type were predicted.
    """
    tokens = correct_tags = 0
    gold_n = pred_n = correct_n = 0
    per_type: dict[str, list[int]] = {}  # type -> [gold, predicted, correct]
    for p in pairs:
        tokens += len(p.tokens)
        correct_tags += sum(g == q for g, q in zip(p.gold, p.pred))
        gold = {(s.label, s.start, s.end) for s in bio_to_spans(p.gold)}
        pred = {(s.label, s.start, s.end) for s in bio_to_spans(p.pred)}
        for key in gold:
            per_type.setdefault(key[0], [0, 0, 0])[0] += 1
        for key in pred:
            per_type.setdefault(key[0], [0, 0, 0])[1] += 1
        for key in gold & pred:
            per_type[key[0]][2] += 1
        gold_n, pred_n, correct_n = gold_n + len(gold), pred_n + len(pred), correct_n + len(gold & pred)

    def prf(g: int, q: int, c: int) -> tuple[float, float, float]:
        precision = 100.0 * c / q if q else 0.0
        recall = 100.0 * c / g if g else 0.0
        f = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        return precision, recall, f

    p, r, f = prf(gold_n, pred_n, correct_n)
    accuracy = 100.0 * correct_tags / tokens if tokens else 0.0
    lines = [
        f"processed {tokens} tokens with {gold_n} phrases; found: {pred_n} phrases; correct: {correct_n}.",
        f"accuracy: {accuracy:6.2f}%; precision: {p:6.2f}%; recall: {r:6.2f}%; FB1: {f:6.2f}",
    ]
    for label in sorted(per_type):
        g, q, c = per_type[label]
        p, r, f = prf(g, q, c)
        lines.append(f"{label:>17}: precision: {p:6.2f}%; recall: {r:6.2f}%; FB1: {f:6.2f}  {q}")
    return "\n".join(lines) + "\n"


def _diff_row(name: str, d: Difference, width: int) -> str:
    lo, hi = d.ci95
    return (
        f"{name:<{width}}  {d.f1_a:>7.4f}  {d.f1_b:>7.4f}  {d.delta:>+8.4f}  "
        f"[{lo:>+8.4f}, {hi:>+8.4f}]  {d.p_value:>7.4f}"
    )


def format_comparison(result: BootstrapResult, gold_name: str, a_name: str, b_name: str) -> str:
    """Micro and per-type F1 of A and B, delta, 95% interval and one-sided p."""
    names = ["micro", *result.per_type]
    width = max(len(n) for n in [*names, "entity type"])
    header = f"{'entity type':<{width}}  {'F1(A)':>7}  {'F1(B)':>7}  {'delta':>8}  {'95% interval':^20}  {'p':>7}"
    lines = [
        f"gold: {gold_name}",
        f"A:    {a_name}",
        f"B:    {b_name}",
        f"paired bootstrap: {result.samples} samples, seed {result.seed}, resampling "
        + (f"{result.units} papers ({result.paragraphs} paragraphs)" if result.unit == "paper"
           else f"{result.paragraphs} paragraphs (no papers known: paragraphs of one paper are not "
                "independent, so the interval may be too narrow)"),
        "delta = F1(A) - F1(B); p = share of samples in which A is not better than B",
        "",
        header,
        "-" * len(header),
        *(_diff_row(t, d, width) for t, d in result.per_type.items()),
        "-" * len(header),
        _diff_row("micro", result.micro, width),
    ]
    return "\n".join(lines) + "\n"
