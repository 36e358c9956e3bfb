"""A question's answer as a terminal table, JSON, CSV or an HTML page (the answer formats are
rows of :data:`sciner.formats.registry.RENDERERS`; each renderer takes ``(answer, title)``)."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from typing import Any

from sciner.formats.html import escape, page
from sciner.index.questions import as_json, as_rows

# The widest a cell of the terminal table gets, but in its last column (cut, with an ellipsis):
# the last one (a leaderboard's paragraph, a search's snippet) is whole, nothing to its right.
CELL_WIDTH = 60


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else ""
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def table(answer: Any, columns: Sequence[str] | None = None) -> str:
    """A plain-text table of ``answer`` (its ``columns``, else all), long cells cut but in the last column."""
    names, rows = as_rows(answer)
    keep = [i for i, c in enumerate(names) if columns is None or c in columns]
    names = [names[i] for i in keep]
    cells = [[_cut(_text(row[i]), i == keep[-1]) for i in keep] for row in rows]
    if not names:
        return "(nothing found)\n"
    widths = [max([len(n)] + [len(r[k]) for r in cells]) for k, n in enumerate(names)]
    lines = ["  ".join(n.ljust(w) for n, w in zip(names, widths)).rstrip(),
             "  ".join("-" * w for w in widths)]
    lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in cells]
    return "\n".join(lines) + "\n"


def _cut(text: str, whole: bool = False) -> str:
    text = " ".join(text.split())
    return text if whole or len(text) <= CELL_WIDTH else text[: CELL_WIDTH - 1] + "…"


def render_json(answer: Any, title: str = "") -> str:
    """The answer as a JSON list of objects (``title`` is only the HTML page's)."""
    return json.dumps(as_json(answer), ensure_ascii=False, indent=1) + "\n"


def render_csv(answer: Any, title: str = "") -> str:
    """The answer as CSV with a header row (``title`` is only the HTML page's)."""
    names, rows = as_rows(answer)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(names)
    writer.writerows([["" if v is None else int(v) if isinstance(v, bool) else v for v in row] for row in rows])
    return out.getvalue()


def render_html(answer: Any, title: str = "sciner query") -> str:
    """The answer as a page holding one table."""
    names, rows = as_rows(answer)
    head = "".join(f"<th>{escape(n)}</th>" for n in names)
    body = "".join("<tr>" + "".join(f"<td>{escape(_text(v))}</td>" for v in row) + "</tr>\n" for row in rows)
    return page(title, f"<table class=\"answer\"><thead><tr>{head}</tr></thead><tbody>\n{body}</tbody></table>")
