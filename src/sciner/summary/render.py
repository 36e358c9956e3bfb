"""A summary as JSON, CSV (one row per paper x entity) or one self-contained HTML page.

The page has sortable tables (a few lines of inline JavaScript, no CDN): the corpus table,
then for each paper its entities, values and results. Every entry links to its mentions in
the paper's tagged text, shown below as ``sciner show`` renders it, with an anchor on each
paragraph (``d2-p14``) and each mention (``d2-p14-t3``).
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Sequence
from typing import Any

from sciner.formats.html import escape, page, render_tokens
from sciner.summary.assemble import CORPUS_TYPES, Entity, PaperSummary, Place

RENDER_FORMATS: tuple[str, ...] = ("json", "csv", "html")
SUFFIXES: dict[str, str] = {".json": "json", ".csv": "csv", ".html": "html", ".htm": "html"}
CSV_COLUMNS = ("doc", "type", "name", "mentions", "surface")


def summary_json(papers: Sequence[PaperSummary], corpus: dict[str, Any]) -> dict[str, Any]:
    """The summary as one JSON object: ``papers`` and ``corpus``."""
    return {"papers": [p.to_json() for p in papers], "corpus": corpus}


def render_json(papers: Sequence[PaperSummary], corpus: dict[str, Any]) -> str:
    return json.dumps(summary_json(papers, corpus), ensure_ascii=False, indent=1) + "\n"


def render_csv(papers: Sequence[PaperSummary], corpus: dict[str, Any]) -> str:
    """One row per paper x entity; the spellings seen joined by `` | ``."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for paper in papers:
        for e in paper.entities:
            writer.writerow((paper.doc, e.type, e.name, len(e.places), " | ".join(e.surface)))
    return out.getvalue()


SORT_JS = """
document.querySelectorAll('table.sortable th').forEach(function (th) {
  th.addEventListener('click', function () {
    var table = th.closest('table'), body = table.tBodies[0], col = th.cellIndex;
    var up = th.dataset.order !== 'asc';
    table.querySelectorAll('th').forEach(function (h) { delete h.dataset.order; });
    th.dataset.order = up ? 'asc' : 'desc';
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = a.cells[col].dataset.sort || a.cells[col].textContent;
      var y = b.cells[col].dataset.sort || b.cells[col].textContent;
      var nx = parseFloat(x), ny = parseFloat(y);
      var c = (!isNaN(nx) && !isNaN(ny)) ? nx - ny : x.localeCompare(y);
      return up ? c : -c;
    });
    rows.forEach(function (r) { body.appendChild(r); });
  });
});
"""
EXTRA_CSS = """
table.sortable th { cursor: pointer; user-select: none; }
table.sortable th[data-order=asc]::after { content: " \\25B2"; }
table.sortable th[data-order=desc]::after { content: " \\25BC"; }
td { text-align: left; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.links a { margin-right: 0.4em; font-size: 0.85em; }
:target { outline: 2px solid #e33; }
section.paper { margin-top: 2.5em; }
"""


def paragraph_id(doc_index: int, place: Place) -> str:
    return f"d{doc_index}-p{place[0]}"


def mention_id(doc_index: int, place: Place) -> str:
    return f"d{doc_index}-p{place[0]}-t{place[1]}"


def _links(doc_index: int, places: Sequence[Place], limit: int = 12) -> str:
    """Links to the first ``limit`` mentions, then how many more there are."""
    links = [f'<a href="#{mention_id(doc_index, p)}">¶{p[0] + 1}</a>' for p in places[:limit]]
    more = f" +{len(places) - limit}" if len(places) > limit else ""
    return f'<span class="links">{"".join(links)}{more}</span>'


def _table(headers: Sequence[str], rows: Sequence[Sequence[str]], numeric: Sequence[int] = ()) -> str:
    """A sortable table of already-escaped cells."""
    head = "".join(f"<th>{escape(h)}</th>" for h in headers)
    body = "".join(
        "<tr>" + "".join(f'<td class="num">{c}</td>' if i in numeric else f"<td>{c}</td>" for i, c in enumerate(row))
        + "</tr>" for row in rows
    )
    return f'<table class="sortable"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def _corpus_section(papers: Sequence[PaperSummary], corpus: dict[str, Any]) -> str:
    index = {p.doc: i for i, p in enumerate(papers)}
    first_place: Callable[[str, str, str], Place | None] = lambda doc, label, name: next(
        (e.places[0] for e in papers[index[doc]].entities if e.type == label and e.name == name and e.places), None)
    parts = [f"<h2>Corpus: {corpus['papers']} paper(s)</h2>"]
    for column, label in CORPUS_TYPES.items():
        rows = []
        for row in corpus[column]:
            where = []
            for doc, n in row["in"].items():
                place = first_place(doc, label, row["name"])
                target = f"#{mention_id(index[doc], place)}" if place else f"#d{index[doc]}"
                where.append(f'<a href="{target}">{escape(doc)}</a> ({n})')
            rows.append([escape(row["name"]), str(row["papers"]), str(row["mentions"]), ", ".join(where)])
        parts.append(f"<h3>{escape(column)}</h3>" + _table(["name", "papers", "mentions", "in"], rows, numeric=(1, 2)))
    return "\n".join(parts)


def _entity_rows(i: int, entities: Sequence[Entity]) -> list[list[str]]:
    return [[escape(e.type), escape(e.name), str(len(e.places)), escape(" | ".join(e.surface)), _links(i, e.places)]
            for e in entities]


def _paper_section(i: int, paper: PaperSummary) -> str:
    values = [[escape(v.type), escape(v.value), escape(v.of or ""), _links(i, [v.place])] for v in paper.values]
    results = [[escape(r.task or ""), escape(r.dataset or ""), escape(r.metric or ""), escape(r.value),
                escape(r.model or ""), _links(i, [r.place])] for r in paper.results]
    text = []
    for j, p in enumerate(paper.paragraphs):
        marks = render_tokens(p.tokens, p.spans or [], anchor=lambda s, j=j: mention_id(i, (j, s.start, s.end)))
        text.append(f'<div class="paragraph" id="{paragraph_id(i, (j, 0, 0))}"><div class="para-head">¶ {j + 1}</div>'
                    f"{marks}</div>")
    return (
        f'<section class="paper" id="d{i}"><h2>{escape(paper.doc)}</h2>'
        f"<h3>Entities</h3>{_table(['type', 'name', 'mentions', 'surface', 'where'], _entity_rows(i, paper.entities), (2,))}"
        f"<h3>Values</h3>{_table(['type', 'value', 'of', 'where'], values)}"
        f"<h3>Results</h3>{_table(['task', 'dataset', 'metric', 'value', 'model', 'where'], results)}"
        f"<details><summary>Tagged text ({len(paper.paragraphs)} paragraphs)</summary>{''.join(text)}</details>"
        "</section>"
    )


# Opening a link into the folded tagged text unfolds it first.
OPEN_JS = """
function sciner_open() {
  var t = document.getElementById(location.hash.slice(1));
  var d = t && t.closest('details'); if (d) { d.open = true; t.scrollIntoView(); }
}
window.addEventListener('hashchange', sciner_open); sciner_open();
"""


def render_html(papers: Sequence[PaperSummary], corpus: dict[str, Any], title: str = "sciner summary") -> str:
    """One page: the corpus table, each paper's tables, and each paper's tagged text."""
    body = [_corpus_section(papers, corpus), *(_paper_section(i, p) for i, p in enumerate(papers)),
            f"<script>{SORT_JS}{OPEN_JS}</script>"]
    return page(title, "\n".join(body), extra_css=EXTRA_CSS)


RENDERERS: dict[str, Callable[[Sequence[PaperSummary], dict[str, Any]], str]] = {
    "json": render_json, "csv": render_csv, "html": render_html,
}
