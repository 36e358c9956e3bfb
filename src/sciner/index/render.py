"""A question's answer as a terminal table, JSON, CSV or an HTML page."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sciner.errors import InputFormatError
from sciner.index.query import as_json, as_rows

ANSWER_FORMATS: dict[str, str] = {".json": "json", ".csv": "csv", ".html": "html", ".htm": "html"}
# The widest a cell of the terminal table gets (a paragraph or a snippet is cut, with an ellipsis).
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
    """A plain-text table of ``answer`` (its ``columns``, else all), long cells cut."""
    names, rows = as_rows(answer)
    keep = [i for i, c in enumerate(names) if columns is None or c in columns]
    names = [names[i] for i in keep]
    cells = [[_cut(_text(row[i])) for i in keep] for row in rows]
    if not names:
        return "(nothing found)\n"
    widths = [max([len(n)] + [len(r[k]) for r in cells]) for k, n in enumerate(names)]
    lines = ["  ".join(n.ljust(w) for n, w in zip(names, widths)).rstrip(),
             "  ".join("-" * w for w in widths)]
    lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in cells]
    return "\n".join(lines) + "\n"


def _cut(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= CELL_WIDTH else text[: CELL_WIDTH - 1] + "…"


def render_json(answer: Any) -> str:
    return json.dumps(as_json(answer), ensure_ascii=False, indent=1) + "\n"


def render_csv(answer: Any) -> str:
    names, rows = as_rows(answer)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(names)
    writer.writerows([["" if v is None else int(v) if isinstance(v, bool) else v for v in row] for row in rows])
    return out.getvalue()


def render_html(answer: Any, title: str) -> str:
    from sciner.formats.html import escape, page

    names, rows = as_rows(answer)
    head = "".join(f"<th>{escape(n)}</th>" for n in names)
    body = "".join("<tr>" + "".join(f"<td>{escape(_text(v))}</td>" for v in row) + "</tr>\n" for row in rows)
    return page(title, f"<table class=\"answer\"><thead><tr>{head}</tr></thead><tbody>\n{body}</tbody></table>")


def answer_format(output: str | Path) -> str:
    """The format of ``-o``'s file, from its extension."""
    suffix = Path(output).suffix.lower()
    if suffix not in ANSWER_FORMATS:
        raise InputFormatError(f"{output}: write answers to a .csv, .html or .json file")
    return ANSWER_FORMATS[suffix]


def render(answer: Any, fmt: str, title: str = "sciner query") -> str:
    """``answer`` as ``fmt`` (json, csv or html)."""
    if fmt == "json":
        return render_json(answer)
    if fmt == "csv":
        return render_csv(answer)
    return render_html(answer, title)
