"""The report's figures as PNG bytes, drawn with matplotlib's Agg canvas (no display, no pyplot state)."""

from __future__ import annotations

import functools
import io
from collections.abc import Callable, Sequence
from typing import ParamSpec

P = ParamSpec("P")

# matplotlib's tab10: distinct, colour-blind-friendlier than defaults of older versions.
SYSTEM_COLOURS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f")


def _png(fig) -> bytes:
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    FigureCanvasAgg(fig)
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=100, bbox_inches="tight")
    return buffer.getvalue()


def _plain_text(draw: Callable[P, bytes]) -> Callable[P, bytes]:
    """Draw with every text as plain text: system names, titles and type names are the user's
    text, not TeX. matplotlib otherwise reads ``$...$`` as mathtext, so a system named ``$x^2$``
    would be typeset and one named ``a$^$b`` would crash the report. Text objects take the
    setting when they are made and tick labels when the figure is drawn, so it covers both."""

    @functools.wraps(draw)
    def plain(*args: P.args, **kwargs: P.kwargs) -> bytes:
        from matplotlib import rc_context

        with rc_context({"text.parse_math": False, "text.usetex": False}):
            return draw(*args, **kwargs)

    return plain


@_plain_text
def grouped_bars(
    categories: Sequence[str],
    series: dict[str, Sequence[float]],
    *,
    title: str,
    ylabel: str = "F1",
    ymax: float = 1.0,
) -> bytes:
    """A bar chart with one group per category and one bar per series (system), values on top."""
    from matplotlib.figure import Figure

    n = max(len(series), 1)
    width = 0.8 / n
    fig = Figure(figsize=(max(5.0, 1.0 * len(categories) + 1.5), 3.2))
    ax = fig.add_subplot()
    for i, (name, values) in enumerate(series.items()):
        xs = [c + (i - (n - 1) / 2) * width for c in range(len(categories))]
        bars = ax.bar(xs, values, width=width * 0.95, label=name, color=SYSTEM_COLOURS[i % len(SYSTEM_COLOURS)])
        ax.bar_label(bars, labels=[f"{v:.2f}" for v in values], fontsize=7, padding=1)
    crowded = len(categories) > 5  # long type names overlap unless tilted
    ax.set_xticks(range(len(categories)), labels=list(categories), rotation=20 if crowded else 0, ha="right" if crowded else "center")
    ax.set_ylim(0, ymax * 1.1)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.spines[["top", "right"]].set_visible(False)
    ax.legend(fontsize=8, frameon=False, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    return _png(fig)


@_plain_text
def heatmap(matrix: Sequence[Sequence[int]], rows: Sequence[str], columns: Sequence[str], *, title: str) -> bytes:
    """A count matrix as a heatmap with the counts written in the cells."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(0.75 * len(columns) + 2.0, 0.42 * len(rows) + 1.6))
    ax = fig.add_subplot()
    peak = max((v for row in matrix for v in row), default=0) or 1
    ax.imshow(matrix, cmap="Blues", vmin=0, vmax=peak, aspect="auto")
    for r, row in enumerate(matrix):
        for c, value in enumerate(row):
            if value:
                ax.text(c, r, str(value), ha="center", va="center", fontsize=9, color="white" if value > peak * 0.6 else "black")
    ax.set_xticks(range(len(columns)), labels=list(columns), rotation=35, ha="right", fontsize=8)
    ax.set_yticks(range(len(rows)), labels=list(rows), fontsize=8)
    ax.set_xlabel("predicted")
    ax.set_ylabel("gold")
    ax.set_title(title)
    return _png(fig)


def report_figures(report) -> list[tuple[str, str, bytes]]:
    """The figures of an :class:`~sciner.view.report.ExperimentReport` as (slug, caption, PNG).

    Per-type F1, F1 by entity length, F1 by casing, and one confusion heatmap per system.
    """
    from sciner.evaluate.analysis import CASING_BUCKETS, LENGTH_BUCKETS
    from sciner.view.report_tables import bucket_f1, per_type_f1, report_types

    figures = [
        ("per-type-f1", "F1 per entity type", grouped_bars(report_types(report), per_type_f1(report), title="F1 per entity type")),
        (
            "f1-by-length",
            "F1 by entity length (tokens)",
            grouped_bars(LENGTH_BUCKETS, bucket_f1(report, "by_length"), title="F1 by entity length (tokens)"),
        ),
        (
            "f1-by-casing",
            "F1 by casing of the entity",
            grouped_bars([b.replace("_", " ") for b in CASING_BUCKETS], bucket_f1(report, "by_casing"), title="F1 by casing"),
        ),
    ]
    for i, s in enumerate(report.systems):
        conf = s.confusion
        png = heatmap(conf.matrix(), conf.rows(), conf.columns(), title=f"Type confusion: {s.name}")
        figures.append((f"confusion-{i + 1}", f"Type confusion of {s.name}", png))
    return figures
