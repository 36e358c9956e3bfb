"""A leaderboard drawn as score by year, as Papers with Code drew the state of the art over
time: inline SVG made on the server (no script, no fetch), one point per paper (its best
result on the board), each a link to the paragraph the number was read from with a tooltip
(model, paper, value, year), and a step line of the best so far, in the metric's direction.

The chart stands above the board's table, which still lists every result; papers of no known
year are counted under the chart, not drawn.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from sciner.formats.html import escape
from sciner.index.questions import LeaderboardRow

# The drawing's size and the margins around its plot, in SVG units (the page scales it to fit).
WIDTH, HEIGHT = 720, 260
LEFT, RIGHT, TOP, BOTTOM = 64, 24, 14, 40
# Horizontal spread of points sharing a year, so that none hides another.
SPREAD = 7.0
# The class of a point that set a new best when it came.
RECORD = ' class="record"'
# Roughly how many ticks the score axis carries.
SCORE_TICKS = 5

CHART_CSS = """
.chart svg{width:100%;max-width:720px;height:auto;font:12px sans-serif}
.chart .axis{fill:none;stroke:#999} .chart .grid{stroke:#eee} .chart .best{fill:none;stroke:#1f77b4;stroke-width:2}
.chart circle{fill:#fff;stroke:#1f77b4;stroke-width:1.5} .chart circle.record{fill:#1f77b4}
.chart a:hover circle,.chart a:focus circle{fill:#ff7f0e;stroke:#ff7f0e}
.chart text{fill:#555} .chart p{margin:.1rem 0;color:#777;font-size:.85em}
"""


@dataclass(frozen=True)
class Point:
    """A paper's best result on a board, placed: its year, score and row."""

    year: int
    score: float
    row: LeaderboardRow


def best_per_paper(rows: Sequence[LeaderboardRow]) -> list[LeaderboardRow]:
    """Each paper's best row of a board (``rows``: one board, best first, as
    :meth:`~sciner.index.query.Index.results` ranks it)."""
    seen: set[int] = set()
    return [r for r in rows if not (r.paper_id in seen or seen.add(r.paper_id))]


def is_better(a: float, b: float, lower_is_better: bool) -> bool:
    """True when score ``a`` beats ``b`` in the metric's direction."""
    return a < b if lower_is_better else a > b


def records(points: Sequence[Point], lower_is_better: bool) -> list[Point]:
    """The points that set a new best when they came (by year, then score): the step line's corners."""
    found: list[Point] = []
    for point in sorted(points, key=lambda p: (p.year, -p.score if not lower_is_better else p.score)):
        if not found or is_better(point.score, found[-1].score, lower_is_better):
            found.append(point)
    return found


def nice_ticks(low: float, high: float, count: int = SCORE_TICKS) -> list[float]:
    """Round values from about ``low`` to ``high`` (1, 2 or 5 times a power of ten apart) for an axis."""
    if high <= low:
        low, high = low - 1, high + 1
    raw = (high - low) / count
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    first = math.floor(low / step) * step
    return [round(first + k * step, 10) for k in range(int(math.ceil((high - first) / step - 1e-9)) + 1)]


def _label(value: float) -> str:
    return f"{value:g}"


def score_by_year(rows: Sequence[LeaderboardRow], title: str, chart_id: str) -> str:
    """A board's chart (``rows``: one board's results, best first; ``title``: its name, plain
    text; ``chart_id``: unique on the page): an SVG of each paper's best result by year with the
    best-so-far line, and a line counting the results of no known year. With no year known,
    one line saying so and no chart."""
    best = best_per_paper(rows)
    points = [Point(r.year, r.number, r) for r in best if r.year is not None]
    undated = sum(r.year is None for r in rows)
    if not points:
        return (f'<div class="chart" id="{escape(chart_id)}"><p class="no-chart">No chart: none of these '
                f'{len(rows)} result(s) comes from a paper whose year the index knows.</p></div>')
    lower = rows[0].lower_is_better
    svg = _svg(points, lower, title, chart_id)
    note = (f'<p class="undated">{undated} result{"s have" if undated != 1 else " has"} no year: '
            "not drawn.</p>" if undated else "")
    return f'<div class="chart" id="{escape(chart_id)}">{svg}{note}</div>'


def _svg(points: Sequence[Point], lower: bool, title: str, chart_id: str) -> str:
    """The SVG of :func:`score_by_year`: axes, grid, the best-so-far steps, the linked points."""
    years = [p.year for p in points]
    first, last = min(years), max(years)
    if first == last:
        first, last = first - 1, last + 1
    scores = [p.score for p in points]
    ticks = nice_ticks(min(scores), max(scores))
    low, high = ticks[0], ticks[-1]
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(year: float) -> float:
        return LEFT + 12 + (year - first) / (last - first) * (plot_w - 24)

    def y(score: float) -> float:
        return TOP + plot_h - (score - low) / (high - low or 1) * plot_h

    parts = []
    for tick in ticks:
        parts.append(f'<line class="grid" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(tick):.1f}" y2="{y(tick):.1f}"/>'
                     f'<text x="{LEFT - 6}" y="{y(tick) + 4:.1f}" text-anchor="end">{_label(tick)}</text>')
    step = max(1, math.ceil((last - first + 1) / 12))
    for year in range(first, last + 1, step):
        parts.append(f'<text x="{x(year):.1f}" y="{HEIGHT - BOTTOM + 16}" text-anchor="middle">{year}</text>')
    parts.append(f'<path class="axis" d="M{LEFT},{TOP}V{TOP + plot_h}H{WIDTH - RIGHT}"/>')
    direction = "lower is better" if lower else "higher is better"
    parts.append(f'<text x="{LEFT + plot_w / 2:.0f}" y="{HEIGHT - 6}" text-anchor="middle">year</text>'
                 f'<text transform="translate(14,{TOP + plot_h / 2:.0f}) rotate(-90)" text-anchor="middle">'
                 f"{escape(points[0].row.metric or 'score')} ({direction})</text>")
    corners = records(points, lower)
    path = f"M{x(corners[0].year):.1f},{y(corners[0].score):.1f}"
    for corner in corners[1:]:
        path += f"H{x(corner.year):.1f}V{y(corner.score):.1f}"
    parts.append(f'<path class="best" d="{path}H{x(max(years)) + SPREAD:.1f}"/>')
    on_record = {id(p) for p in corners}
    by_year: dict[int, list[Point]] = {}
    for point in points:
        by_year.setdefault(point.year, []).append(point)
    for year, same in by_year.items():
        for k, point in enumerate(same):
            r = point.row
            tip = " · ".join(part for part in (r.model, r.paper, f"{r.value} ({year})") if part)
            cx = x(year) + (k - (len(same) - 1) / 2) * SPREAD
            parts.append(f'<a href="/corpus/paragraphs/{r.paragraph_id}" class="point">'
                         f'<circle cx="{cx:.1f}" cy="{y(point.score):.1f}" r="4.5"'
                         f'{RECORD if id(point) in on_record else ""}><title>{escape(tip)}</title>'
                         "</circle></a>")
    top = corners[-1].row
    desc = (f"{len(points)} paper(s) from {min(years)} to {max(years)}, {direction}; best so far: {top.value} "
            f"({' · '.join(part for part in (top.model, top.paper) if part)}, {corners[-1].year})")
    return (f'<svg viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-labelledby="{chart_id}-title {chart_id}-desc">'
            f'<title id="{chart_id}-title">{escape(title)}: score by year</title>'
            f'<desc id="{chart_id}-desc">{escape(desc)}</desc>{"".join(parts)}</svg>')
