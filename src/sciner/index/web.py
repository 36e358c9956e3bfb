"""The corpus view of ``sciner serve --index corpus.sqlite``: read-only JSON routes and a page.

- ``GET /corpus``: the page: a search box, entity facets (the most used names of each type, each
  a link to the papers naming it), and the leaderboard of each (task, dataset, metric) the most
  papers report, every number linked to the paragraph it was read from;
- ``GET /corpus/paragraphs/{id}``: that paragraph, with its paper, as a page;
- ``GET /v1/corpus/results|papers|entities|values|search|leaderboards`` and
  ``/v1/corpus/paragraphs/{id}``: the questions of ``sciner query`` as JSON, with their
  parameters as query parameters. ``limit`` is at most :data:`MAX_LIMIT`; a longer search text
  than :data:`MAX_TEXT` characters is refused (422), as is an unknown paragraph (404).

Each request opens the file read-only for itself: the index may be written (``sciner index``)
while it is served, and the page shows what is committed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import is_dataclass
from pathlib import Path
from typing import Any, Optional
from urllib.parse import quote

from sciner.formats.html import escape, page
from sciner.index.query import DEFAULT_LIMIT, Index, as_json

MAX_LIMIT = 200
MAX_TEXT = 500
FACET_TYPES = ("MethodName", "DatasetName", "TaskName", "MetricName")
# Leaderboards on the page, and rows in each.
PAGE_BOARDS = 8
BOARD_ROWS = 10

CSS = """
body{max-width:72rem} form input[type=search]{width:28rem;font:inherit;padding:.2rem .4rem}
.facets{display:grid;grid-template-columns:repeat(4,1fr);gap:1rem}
.facets ul{list-style:none;padding:0;margin:0} .facets li{margin:.1rem 0}
.count{color:#777;font-size:.85em} table{border-collapse:collapse;margin:.3rem 0 1.2rem}
td,th{padding:.15rem .6rem;text-align:left;border-bottom:1px solid #eee;vertical-align:top}
.snippet{color:#333} .ours{font-weight:bold} h3{margin-bottom:.2rem}
"""


class CorpusError(Exception):
    """A request the corpus routes refuse: HTTP status, code and message."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


def _limit(limit: int) -> int:
    if limit < 1 or limit > MAX_LIMIT:
        raise CorpusError(422, "bad_limit", f"limit must be 1 to {MAX_LIMIT}")
    return limit


def _text(text: Optional[str], what: str) -> str:
    if not text or not text.strip():
        raise CorpusError(422, "missing", f"give {what}")
    if len(text) > MAX_TEXT:
        raise CorpusError(422, "too_long", f"{what}: at most {MAX_TEXT} characters")
    return text


def corpus_router(path: str | Path) -> Any:
    """A FastAPI ``APIRouter`` serving the index at ``path`` (checked now: a bad file is refused
    before the server starts)."""
    from fastapi import APIRouter
    from fastapi.responses import HTMLResponse, JSONResponse

    path = Path(path)
    Index(path).close()
    router = APIRouter()

    def answer(ask: Callable[[Index], Any]) -> Any:
        try:
            with Index(path) as corpus:
                return ask(corpus)
        except CorpusError as err:
            return JSONResponse({"error": {"code": err.code, "message": err.message}}, status_code=err.status)

    def json_answer(ask: Callable[[Index], Any]) -> Any:
        found = answer(ask)
        return as_json(found) if isinstance(found, list) and found and is_dataclass(found[0]) else found

    @router.get("/v1/corpus/results")
    def results(dataset: Optional[str] = None, metric: Optional[str] = None, task: Optional[str] = None,
                model: Optional[str] = None, ours: bool = False, limit: int = DEFAULT_LIMIT) -> Any:
        return json_answer(lambda c: c.results(dataset=dataset, metric=metric, task=task, model=model, ours=ours,
                                               limit=_limit(limit)))

    @router.get("/v1/corpus/papers")
    def papers(entity: Optional[str] = None, type: Optional[str] = None, limit: int = DEFAULT_LIMIT) -> Any:
        return json_answer(lambda c: c.papers(_text(entity, "an entity"), type=type, limit=_limit(limit)))

    @router.get("/v1/corpus/entities")
    def entities(type: Optional[str] = None, limit: int = DEFAULT_LIMIT) -> Any:
        return json_answer(lambda c: c.entities(type, top=_limit(limit)))

    @router.get("/v1/corpus/values")
    def values(of: Optional[str] = None, limit: int = DEFAULT_LIMIT) -> Any:
        return json_answer(lambda c: c.values(_text(of, "a name (of=)"), limit=_limit(limit)))

    @router.get("/v1/corpus/search")
    def search(q: Optional[str] = None, limit: int = DEFAULT_LIMIT) -> Any:
        return json_answer(lambda c: c.search(_text(q, "words to search for (q=)"), limit=_limit(limit)))

    @router.get("/v1/corpus/leaderboards")
    def leaderboards(limit: int = DEFAULT_LIMIT) -> Any:
        return json_answer(lambda c: [dict(zip(("task", "dataset", "metric", "papers"), board))
                                      for board in c.leaderboards(limit=_limit(limit))])

    @router.get("/v1/corpus/paragraphs/{paragraph_id}")
    def paragraph(paragraph_id: int) -> Any:
        def ask(c: Index) -> Any:
            found = c.paragraph(paragraph_id)
            if found is None:
                raise CorpusError(404, "not_found", f"no paragraph {paragraph_id}")
            return as_json([found])[0]
        return json_answer(ask)

    @router.get("/corpus", response_class=HTMLResponse)
    def corpus_page(q: Optional[str] = None, entity: Optional[str] = None, type: Optional[str] = None) -> Any:
        found = answer(lambda c: render_page(c, q, entity, type))
        return found if isinstance(found, JSONResponse) else HTMLResponse(found)

    @router.get("/corpus/paragraphs/{paragraph_id}", response_class=HTMLResponse)
    def paragraph_page(paragraph_id: int) -> Any:
        def ask(c: Index) -> str:
            found = c.paragraph(paragraph_id)
            if found is None:
                raise CorpusError(404, "not_found", f"no paragraph {paragraph_id}")
            where = ", ".join(x for x in (f"page {found.page}" if found.page else "", found.section or "") if x)
            return page(found.title or found.paper, (
                f'<p><a href="/corpus">corpus</a> · paper <b>{escape(found.paper)}</b> · paragraph {found.position}'
                f'{" · " + escape(where) if where else ""}</p><blockquote id="paragraph">{escape(found.text)}'
                "</blockquote>"), extra_css=CSS)
        found = answer(ask)
        return found if isinstance(found, JSONResponse) else HTMLResponse(found)

    return router


def _link(href: str, text: str, cls: str = "") -> str:
    return f'<a href="{escape(href)}"{f" class={cls!r}" if cls else ""}>{escape(text)}</a>'


def render_page(corpus: Index, q: Optional[str], entity: Optional[str], type: Optional[str]) -> str:
    """The corpus page: search box, facets, then the search hits or the papers naming
    ``entity``, then the leaderboards."""
    stats = corpus.stats()
    parts = [f'<p>{stats["papers"]} papers, {stats["paragraphs"]} paragraphs, {stats["results"]} results.</p>',
             '<form action="/corpus" method="get"><input type="search" name="q" placeholder="search the paragraphs, '
             f'e.g. span masking" value="{escape(q or "")}"> <button>Search</button></form>']
    if q:
        hits = corpus.search(_text(q, "words to search for"), limit=DEFAULT_LIMIT)
        rows = "".join(f'<tr><td>{escape(h.paper)}</td><td class="snippet">'
                       f'{_link(f"/corpus/paragraphs/{h.paragraph_id}", h.snippet)}</td></tr>' for h in hits)
        parts.append(f'<h2>Search: {escape(q)}</h2><table id="hits"><tr><th>paper</th><th>paragraph</th></tr>'
                     f'{rows}</table>' if hits else f'<h2>Search: {escape(q)}</h2><p id="hits">nothing found</p>')
    if entity:
        hits = corpus.papers(_text(entity, "an entity"), type=type, limit=DEFAULT_LIMIT)
        rows = "".join(f"<tr><td>{escape(h.paper)}</td><td>{escape(h.title or '')}</td><td>{escape(h.name)}</td>"
                       f"<td>{h.mentions}</td></tr>" for h in hits)
        parts.append(f'<h2>Papers naming {escape(entity)}</h2><table id="papers"><tr><th>paper</th><th>title</th>'
                     f"<th>as</th><th>mentions</th></tr>{rows}</table>")
    facets = []
    for kind in FACET_TYPES:
        items = "".join(f'<li>{_link(f"/corpus?entity={quote(e.name)}&type={kind}", e.name)} '
                        f'<span class="count">{e.papers}</span></li>' for e in corpus.entities(kind, top=10))
        facets.append(f'<div class="facet" data-type="{kind}"><h3>{kind}</h3><ul>{items}</ul></div>')
    parts.append(f'<h2>Entities</h2><div class="facets">{"".join(facets)}</div>')
    parts.append("<h2>Leaderboards</h2>")
    for task, dataset, metric, _ in corpus.leaderboards(limit=PAGE_BOARDS):
        rows = corpus.results(dataset=dataset, metric=metric, task=task, limit=BOARD_ROWS)
        body = "".join(
            f'<tr{" class=ours" if r.ours else ""}><td>{r.rank}</td>'
            f'<td>{_link(f"/corpus/paragraphs/{r.paragraph_id}", r.value, "value")}</td>'
            f"<td>{escape(r.model or '')}</td><td>{escape(r.paper)}</td></tr>" for r in rows)
        title = " · ".join(escape(x) for x in (task, dataset, metric) if x)
        parts.append(f'<h3>{title}</h3><table class="leaderboard"><tr><th>#</th><th>{escape(metric)}</th>'
                     f"<th>model</th><th>paper</th></tr>{body}</table>")
    return page("sciner corpus", "\n".join(parts), extra_css=CSS)
