"""A summary as JSON, CSV (one row per record: each paper, entity, value and result) or one
self-contained HTML page.

The page has sortable tables (a few lines of inline JavaScript, no CDN): the papers with their
titles, the corpus table, every result as model x dataset x metric, then for each paper its
entities, values and results, each with the page (and table) it was read from. Every entry
links to its mentions in the paper's tagged text, shown below as ``sciner show`` renders it,
with an anchor on each paragraph (``d2-p14``) and each mention (``d2-p14-t3``).
"""

from __future__ import annotations

import csv
import io
import json
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from sciner.document import Paragraph, Place
from sciner.formats.html import escape, page, render_tokens
from sciner.summary.assemble import CORPUS_TYPES, PaperSummary
from sciner.summary.names import Entity
from sciner.summary.values import Result
from sciner.tokenize import detokenize

# One row per record; ``record`` says which: "paper" (``name``: its title), "entity", "proposed"
# (``name``: a method the paper proposes), "value", "result" (``ours``: 1 for the paper's own, 0 for
# another's, empty where the paper does not say) or "not_result" (a number that is no result,
# ``reason``: why); a column a record has nothing for is empty. ``paragraph`` counts from 0, as in
# the JSON.
CSV_COLUMNS = ("record", "doc", "type", "name", "mentions", "surface", "value", "of", "task", "dataset", "metric",
               "model", "ours", "reason", "page", "table", "paragraph", "caption", "header", "split", "setting",
               "ablation", "citation")


def summary_json(papers: Sequence[PaperSummary], corpus: dict[str, Any]) -> dict[str, Any]:
    """The summary as one JSON object: ``papers`` and ``corpus``."""
    return {"papers": [p.to_json() for p in papers], "corpus": corpus}


def render_json(papers: Sequence[PaperSummary], corpus: dict[str, Any]) -> str:
    """The summary as indented JSON (:func:`summary_json`)."""
    return json.dumps(summary_json(papers, corpus), ensure_ascii=False, indent=1) + "\n"


# A title is among a paper's first paragraphs: a "Title" section further on is something else.
TITLE_WITHIN = 5


def paper_title(paragraphs: Sequence[Paragraph]) -> str | None:
    """The paper's title as its PDF gave it, as readable text (not its tokens: "BERT: Pre-training"):
    the first of its first :data:`TITLE_WITHIN` paragraphs whose kind or section is "title"; None
    when there is none."""
    return next((detokenize(p.tokens) for p in paragraphs[:TITLE_WITHIN]
                 if p.meta.get("kind") == "title" or str(p.meta.get("section", "")).lower() == "title"), None)


def source_of(paper: PaperSummary, place: Place) -> dict[str, Any]:
    """The page and table (for a table row) the paragraph at ``place`` was read from; {} when unknown."""
    if place[0] >= len(paper.paragraphs):
        return {}
    meta = paper.paragraphs[place[0]].meta
    return {key: meta[key] for key in ("page", "table") if meta.get(key) not in (None, "")}


def render_csv(papers: Sequence[PaperSummary], corpus: dict[str, Any]) -> str:
    """One row per paper, entity, value and result (see :data:`CSV_COLUMNS`); spellings joined by `` | ``."""
    out = io.StringIO()
    writer = csv.DictWriter(out, CSV_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for paper in papers:
        writer.writerow({"record": "paper", "doc": paper.doc, "name": paper_title(paper.paragraphs) or ""})
        for e in paper.entities:
            writer.writerow({"record": "entity", "doc": paper.doc, "type": e.type, "name": e.name,
                             "mentions": len(e.places), "surface": " | ".join(e.surface)})
        for name in paper.proposed:
            writer.writerow({"record": "proposed", "doc": paper.doc, "type": "MethodName", "name": name})
        for v in paper.values:
            writer.writerow({"record": "value", "doc": paper.doc, "type": v.type, "value": v.value, "of": v.of or "",
                             **source_of(paper, v.place), "paragraph": v.place[0]})
        for r in (r.readable() for r in paper.results):
            writer.writerow({"record": "result", "doc": paper.doc, "value": r.value, "task": r.task or "",
                             "dataset": r.dataset or "", "metric": r.metric or "", "model": r.model or "",
                             "ours": "" if r.ours is None else int(r.ours), **source_of(paper, r.place),
                             "paragraph": r.place[0], "caption": r.caption or "", "header": r.header or "",
                             "split": r.split or "", "setting": r.setting or "", "ablation": int(r.ablation),
                             "citation": r.citation or ""})
        for n in paper.not_results:
            writer.writerow({"record": "not_result", "doc": paper.doc, "value": n.value, "reason": n.reason,
                             **source_of(paper, n.place), **({"table": n.table} if n.table else {}),
                             "paragraph": n.place[0]})
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
.where { color: #666; font-size: 0.85em; white-space: nowrap; }
.doc { color: #666; font-size: 0.8em; font-weight: normal; display: block; }
table.grid td { text-align: right; }
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
    papers_rows = [[f'<a href="#d{i}">{escape(p.doc)}</a>', escape(paper_title(p.paragraphs) or ""),
                    str(len(p.entities)), str(len(p.values)), str(len(p.results))] for i, p in enumerate(papers)]
    parts = [f"<h2>Corpus: {corpus['papers']} paper(s)</h2>",
             _table(["paper", "title", "entities", "values", "results"], papers_rows, numeric=(2, 3, 4)),
             _results_grid(papers)]
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


def _where(paper: PaperSummary, place: Place) -> str:
    """Where a value or result was read: its page and table, e.g. ``p. 6, table 7``."""
    source = source_of(paper, place)
    parts = ([f"p. {source['page']}"] if "page" in source else []) + ([str(source["table"])] if "table" in source else [])
    return f'<span class="where">{escape(", ".join(parts))}</span>' if parts else ""


# The results grid: at most this many dataset x metric columns (the most reported first); NONE
# stands for a model or dataset the result does not name.
GRID_COLUMNS = 12
NONE = "-"


def _results_grid(papers: Sequence[PaperSummary]) -> str:
    """Every result that names its metric, as a grid: a row per model, a column per dataset x
    metric ("-" where the paper names none), each value linked to where it was read (several: all)."""
    cells: dict[tuple[str, tuple[str, str]], list[str]] = {}
    columns: Counter[tuple[str, str]] = Counter()
    for i, paper in enumerate(papers):
        for r in (r.readable() for r in paper.results):
            if not r.metric:
                continue
            column = (r.dataset or NONE, r.metric)
            columns[column] += 1
            cells.setdefault((r.model or NONE, column), []).append(_value_link(i, paper, r))
    if not cells:
        return ""
    shown = [c for c, _ in columns.most_common(GRID_COLUMNS)]
    models = sorted({model for model, column in cells if column in shown}, key=str.lower)
    rows = [[escape(m)] + [" ".join(cells.get((m, c), [])) for c in shown] for m in models]
    more = len(columns) - len(shown)
    note = f"<p>{more} more dataset x metric column(s) in the papers' result tables below.</p>" if more > 0 else ""
    heads = ["model", *(f"{d} · {m}" for d, m in shown)]
    grid = _table(heads, rows).replace('class="sortable"', 'class="sortable grid"', 1)
    return f"<h3>Results: model x dataset x metric</h3>{grid}{note}"


def _value_link(i: int, paper: PaperSummary, r: Result) -> str:
    source = source_of(paper, r.place)
    title = escape(paper.doc + (f", p. {source['page']}" if "page" in source else ""))
    return f'<a href="#{mention_id(i, r.place)}" title="{title}">{escape(r.value)}</a>'


def _entity_rows(i: int, entities: Sequence[Entity]) -> list[list[str]]:
    return [[escape(e.type), escape(e.name), str(len(e.places)), escape(" | ".join(e.surface)), _links(i, e.places)]
            for e in entities]


def _paper_section(i: int, paper: PaperSummary) -> str:
    values = [[escape(v.type), escape(v.value), escape(v.of or ""), _links(i, [v.place]) + _where(paper, v.place)]
              for v in paper.values]
    results = [[escape(r.task or ""), escape(r.dataset or ""), escape(r.metric or ""), escape(r.value),
                escape(r.model or ""), "ours" if r.ours else "", _links(i, [r.place]) + _where(paper, r.place)]
               for r in (r.readable() for r in paper.results)]
    not_results = [[escape(n.value), escape(n.reason), _links(i, [n.place]) + _where(paper, n.place)]
                   for n in paper.not_results]
    proposed = (f"<p>Proposes: {escape(', '.join(paper.proposed))}</p>" if paper.proposed
                else "<p>Proposes: no method found</p>")
    title = paper_title(paper.paragraphs)
    heading = (f'{escape(title)}<span class="doc">{escape(paper.doc)}</span>' if title else escape(paper.doc))
    text = []
    for j, p in enumerate(paper.paragraphs):
        marks = render_tokens(p.tokens, p.spans or [], anchor=lambda s, j=j: mention_id(i, (j, s.start, s.end)))
        text.append(f'<div class="paragraph" id="{paragraph_id(i, (j, 0, 0))}"><div class="para-head">¶ {j + 1}</div>'
                    f"{marks}</div>")
    return (
        f'<section class="paper" id="d{i}"><h2>{heading}</h2>'
        f"{proposed}<h3>Entities</h3>{_table(['type', 'name', 'mentions', 'surface', 'where'], _entity_rows(i, paper.entities), (2,))}"
        f"<h3>Values</h3>{_table(['type', 'value', 'of', 'where'], values)}"
        f"<h3>Results</h3>{_table(['task', 'dataset', 'metric', 'value', 'model', 'ours', 'where'], results)}"
        f"<details class=\"not-results\"><summary>Not results ({len(not_results)} numbers, with why)</summary>"
        f"{_table(['value', 'reason', 'where'], not_results)}</details>"
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

