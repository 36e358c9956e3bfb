"""The report's tables as plain rows of strings, shared by the HTML and Markdown renderings."""

from __future__ import annotations

import re
from dataclasses import dataclass

from sciner.evaluate.analysis import CASING_BUCKETS, LENGTH_BUCKETS
from sciner.evaluate.metrics import order_types
from sciner.view.report import ExperimentReport, SystemResult


_NUMERIC = re.compile(r"[-+]?[\d.]+|[-·]?|\[[-+\d., ]+\]")


@dataclass(frozen=True)
class ReportTable:
    """A header row and body rows of already formatted cells."""

    header: list[str]
    rows: list[list[str]]

    def numeric_columns(self) -> list[bool]:
        """Which columns hold only numbers (to be right-aligned)."""
        return [bool(self.rows) and all(_NUMERIC.fullmatch(row[i]) for row in self.rows) for i in range(len(self.header))]


def _f(x: float) -> str:
    return f"{x:.3f}"


def overall_table(report: ExperimentReport) -> ReportTable:
    """Micro and macro precision, recall and F1 of each system."""
    rows = []
    for s in report.systems:
        r = s.evaluation.report
        predicted = sum(c.predicted for c in r.counts.values())
        rows.append(
            [s.name, *(_f(x) for x in (r.micro.precision, r.micro.recall, r.micro.f1)),
             *(_f(x) for x in (r.macro.precision, r.macro.recall, r.macro.f1)), str(predicted)]
        )
    header = ["system", "micro P", "micro R", "micro F1", "macro P", "macro R", "macro F1", "predicted"]
    return ReportTable(header, rows)


def report_types(report: ExperimentReport) -> list[str]:
    """Every entity type in gold or any system, in the task's order."""
    return order_types({t for s in report.systems for t in s.evaluation.report.per_type})


def per_type_table(report: ExperimentReport) -> ReportTable:
    """Per type and system: precision, recall, F1, and the type's gold support (one row per pair, stays narrow)."""
    rows = []
    for t in report_types(report):
        support = next((s.evaluation.report.per_type[t].support for s in report.systems if t in s.evaluation.report.per_type), 0)
        for s in report.systems:
            sc = s.evaluation.report.per_type.get(t)
            scores = [_f(sc.precision), _f(sc.recall), _f(sc.f1)] if sc else ["-", "-", "-"]
            # The type and its support only on its first row, so the table reads in blocks.
            first = s is report.systems[0]
            rows.append([t if first else "", str(support) if first else "", s.name, *scores])
    return ReportTable(["type", "support", "system", "precision", "recall", "F1"], rows)


def per_type_f1(report: ExperimentReport) -> dict[str, list[float]]:
    """For plotting: each system's F1 per type, in :func:`report_types` order."""
    types = report_types(report)
    out = {}
    for s in report.systems:
        per = s.evaluation.report.per_type
        out[s.name] = [per[t].f1 if t in per else 0.0 for t in types]
    return out


BUCKETS = {"by_length": LENGTH_BUCKETS, "by_casing": CASING_BUCKETS}


def bucket_f1(report: ExperimentReport, key: str) -> dict[str, list[float]]:
    """For plotting: each system's F1 per bucket of analysis ``key`` (``by_length``/``by_casing``)."""
    return {s.name: [s.evaluation.analysis[key][b]["f1"] for b in BUCKETS[key]] for s in report.systems}


def bucket_table(report: ExperimentReport, key: str) -> ReportTable:
    """Per bucket of ``key``: gold support, then F1 of each system."""
    first = report.systems[0].evaluation.analysis[key]
    header = ["bucket", "support", *(f"{s.name} F1" for s in report.systems)]
    rows = [
        [b.replace("_", " "), str(first[b]["support"]), *(_f(s.evaluation.analysis[key][b]["f1"]) for s in report.systems)]
        for b in BUCKETS[key]
    ]
    return ReportTable(header, rows)


def significance_table(report: ExperimentReport) -> ReportTable:
    """Each pair of systems: micro F1 of both, the difference, its 95% interval and one-sided p."""
    header = ["A", "B", "F1(A)", "F1(B)", "delta", "95% interval", "p", "p < 0.05"]
    rows = []
    for c in report.comparisons:
        d = c.result.micro
        lo, hi = d.ci95
        interval = f"[{lo:+.3f}, {hi:+.3f}]"
        significant = "yes" if d.p_value < 0.05 else "no"
        rows.append([c.a, c.b, _f(d.f1_a), _f(d.f1_b), f"{d.delta:+.3f}", interval, f"{d.p_value:.3f}", significant])
    return ReportTable(header, rows)


def per_type_significance_table(report: ExperimentReport) -> ReportTable:
    """Per type, for each pair of systems: the F1 difference A - B and its one-sided p."""
    header = ["type", *(f"{c.a} - {c.b}" for c in report.comparisons)]
    rows = []
    for t in report_types(report):
        cells = []
        for c in report.comparisons:
            d = c.result.per_type.get(t)
            cells.append(f"{d.delta:+.3f} (p {d.p_value:.3f})" if d else "-")
        rows.append([t, *cells])
    return ReportTable(header, rows)


def confusion_table(system: SystemResult) -> ReportTable:
    """Gold type (rows, then ``spurious``) against predicted type (columns, then ``missed``)."""
    conf = system.confusion
    rows = [[r, *(str(v) if v else "·" for v in values)] for r, values in zip(conf.rows(), conf.matrix())]
    return ReportTable(["gold \\ predicted", *conf.columns()], rows)


@dataclass(frozen=True)
class Section:
    """One part of the report's outline, for either rendering: a heading, an explanation
    (plain text; ``*word*`` is emphasised), a table and the plot drawn beside it."""

    title: str
    level: int  # 2: a section; 3: a subsection
    note: str
    table: ReportTable | None
    css_class: str  # the table's class in HTML
    figure: str  # slug of the plot in sciner.view.plots.report_figures; "" = none


EXAMPLES_TITLE = "Examples where the systems differ"


def report_sections(report: ExperimentReport) -> list[Section]:
    """The report's outline up to the examples, in order: what both renderings show."""
    sections = [
        Section("Scores", 2, "Exact match: an entity counts when its type and both boundaries equal a gold "
                "entity's. Macro averages the per-type scores.", overall_table(report), "overall", ""),
        Section("Per entity type", 2, "", per_type_table(report), "per-type", "per-type-f1"),
    ]
    if report.comparisons:
        sections += [
            Section("Significance (paired bootstrap)", 2,
                    f"{report.samples} resamples of the paragraphs (seed {report.seed}). In each pair A is the "
                    "system with the higher micro F1; p is the share of resamples in which A is not better than B "
                    "(one-sided), so p < 0.05 can hold while the two-sided 95% interval still includes 0.",
                    significance_table(report), "significance", ""),
            Section("Per type", 3, "", per_type_significance_table(report), "significance-per-type", ""),
        ]
    sections += [
        Section("F1 by entity length", 2, "", bucket_table(report, "by_length"), "by-length", "f1-by-length"),
        Section("F1 by casing", 2, "", bucket_table(report, "by_casing"), "by-casing", "f1-by-casing"),
        Section("Type confusion", 2,
                "Each gold entity is paired with the predicted entity overlapping it most: same type on the "
                "diagonal (boundaries may differ), another type off it, *missed* when nothing overlaps. "
                "*spurious* counts predicted entities that overlap no gold entity.", None, "", ""),
    ]
    sections += [Section(s.name, 3, "", confusion_table(s), "confusion", f"confusion-{i + 1}")
                 for i, s in enumerate(report.systems)]
    return sections
