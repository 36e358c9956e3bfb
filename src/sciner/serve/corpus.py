"""The corpus view of ``sciner serve --index corpus.sqlite``: read-only JSON routes and a page.

- ``GET /corpus``: the page: a search box, entity facets (the most used names of each type, each
  a link to the papers naming it; tags that name nothing left out: :func:`is_generic`), a form
  asking for the leaderboard of a dataset or a metric (``?dataset=&metric=``), and the
  leaderboard of each (task, dataset, metric) the most papers report (then the most results),
  every number linked to the paragraph it was read from, each board over a chart of its scores
  by the papers' years (:mod:`sciner.serve.chart`; ``papers.year``, where the index has it);
- ``GET /corpus/paragraphs/{id}``: that paragraph as a page, with a link to its paper's file; a
  table's row under its table's caption and header rows;
- ``GET /corpus/papers/{id}/file``: the file the paper was read from (only files the index names);
- ``GET /v1/corpus/results|leaderboards|papers|entities|values|search`` and
  ``/v1/corpus/paragraphs/{id}``: the questions of ``sciner query`` as JSON, one route per
  question of :data:`sciner.index.questions.QUESTIONS` (all but raw SQL, which stays off the
  network: see there), made from its declaration, its parameters as query parameters.
  ``limit`` is 1 to :data:`MAX_LIMIT`; a text longer than :data:`MAX_TEXT` characters, a
  missing required parameter, a value of the wrong type (a number SQLite cannot hold, a text
  with a NUL character, an entity type that is none of the seven) is refused (422), as is an
  unknown paragraph (404); what the index refuses is its error's status (:data:`INDEX_ERRORS`);
  every error is JSON ``{"error": {"code", "message"}}``, and the page shows a refused search
  as a message.

Each request opens the file read-only for itself: the index may be written (``sciner index``)
while it is served, and the page shows what is committed.
"""

# No ``from __future__ import annotations`` here: FastAPI reads the routes' annotations
# (``request: Request``, imported inside corpus_router) as objects.
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Optional
from urllib.parse import quote

from sciner.errors import FileSystemError, ScinerError
from sciner.formats.html import escape, page
from sciner.formats.kinds import Kind
from sciner.index.query import Index
from sciner.index.questions import (DEFAULT_LIMIT, QUESTIONS, REQUIRED, TYPE, EntityCount, LeaderboardRow, NotFound,
                                    Param, Question, StoredParagraph, as_json)
from sciner.labels import ENTITY_TYPES
from sciner.pdf.tables import is_number
from sciner.serve.chart import CHART_CSS, score_by_year
from sciner.serve.errors import RequestError, error_response
from sciner.summary.names import is_listed

MAX_LIMIT = 200
MAX_TEXT = 500
# The whole numbers SQLite holds (a signed 64-bit integer): a larger one is no id or count.
SQLITE_INT = (-(2**63), 2**63 - 1)
# What the index refuses, as (status, code), the most specific class first: a locked, full or
# unreadable index is the server's fault (for now); any other refusal (a search of no words, a
# question SQLite cannot run) is the question's.
INDEX_ERRORS: tuple[tuple[type[ScinerError], int, str], ...] = (
    (NotFound, 404, "not_found"),
    (FileSystemError, 503, "index_unavailable"),
    (ScinerError, 422, "bad_question"),
)
# The id in a paper's file route, checked as a paragraph's id is.
PAPER_ID = Param("paper_id", int, REQUIRED, "The paper's id.")
FACET_TYPES = ("MethodName", "DatasetName", "TaskName", "MetricName")
# Names per facet, and the most used names of a type read to find them among (the rest are no names).
FACET_NAMES = 10
FACET_CANDIDATES = 40
# A name written as a plain word ("Human", "fine-tuning", "Mean") is a generic word the model tagged
# here and there when under this share of the paragraphs writing it tag it: "BERT", "Accuracy" or
# "Summarization" are tagged nearly wherever they are written, "Full" in one paragraph of ten.
GENERIC_TAG_SHARE = 0.4
# Words the task's guidelines name no entity, whatever the tags say: statistics, parts of a text, people.
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
#table caption{text-align:left;padding:.2rem 0} #board input{font:inherit;padding:.2rem .4rem}
"""


_TRUE, _FALSE = ("true", "1", "yes", "on"), ("false", "0", "no", "off")


def url_value(param: Param, raw: str | None) -> Any:
    """The value of ``param`` in a URL (``raw``: as given, None when absent), checked:
    :class:`RequestError` 422 for a missing required value (``missing``), a text over
    :data:`MAX_TEXT` characters (``too_long``), a row count outside 1 to :data:`MAX_LIMIT`
    (``bad_limit``), or a value that is not of the parameter's type (``bad_value``)."""
    name = param.url_name
    if raw is None or not raw.strip():
        if param.required:
            raise RequestError(422, "missing", f"{name} is required: {param.help}")
        return param.default
    if param.type is str:
        if len(raw) > MAX_TEXT:
            raise RequestError(422, "too_long", f"{name}: at most {MAX_TEXT} characters")
        if "\x00" in raw:
            raise RequestError(422, "bad_value", f"{name} must not hold a NUL character")
        if param is TYPE:
            return entity_type(raw)
        return raw
    if param.type is bool:
        if raw.lower() not in _TRUE + _FALSE:
            raise RequestError(422, "bad_value", f"{name} must be true or false, not {raw!r}")
        return raw.lower() in _TRUE
    try:
        number = int(raw)
    except ValueError:
        raise RequestError(422, "bad_value", f"{name} must be a whole number, not {raw[:40]!r}") from None
    if not SQLITE_INT[0] <= number <= SQLITE_INT[1]:
        raise RequestError(422, "bad_value", f"{name} must be a whole number of at most 19 digits")
    if param.rows and not 1 <= number <= MAX_LIMIT:
        raise RequestError(422, "bad_limit", f"{name} must be 1 to {MAX_LIMIT}")
    if param.minimum is not None and number < param.minimum:
        raise RequestError(422, "bad_value", f"{name} must be at least {param.minimum}")
    return number


def entity_type(raw: str) -> str:
    """The entity type spelled ``raw`` (any case), or :class:`RequestError` 422 naming the seven."""
    found = next((t for t in ENTITY_TYPES if t.lower() == raw.strip().lower()), None)
    if found is None:
        raise RequestError(422, "bad_value", f"type must be one of {', '.join(ENTITY_TYPES)}, not {raw[:40]!r}")
    return found


def index_error(err: ScinerError) -> RequestError:
    """What the index refused (``err``), as the request's error: its status and code by
    :data:`INDEX_ERRORS`, its one line as the message."""
    status, code = next((s, c) for kind, s, c in INDEX_ERRORS if isinstance(err, kind))
    return RequestError(status, code, err.message)


def _open(path: Path, ask: Callable[[Index], Any]) -> Any:
    """``ask`` of the index at ``path``, opened read-only for this request; a refused question
    (or an index that cannot be read now) as a JSON error."""
    try:
        with Index(path) as corpus:
            return ask(corpus)
    except RequestError as err:
        return error_response(err.status, err.code, err.message)
    except ScinerError as err:
        found = index_error(err)
        return error_response(found.status, found.code, found.message)


def corpus_router(path: str | Path) -> Any:
    """A FastAPI ``APIRouter`` serving the index at ``path`` (checked now: a bad file is refused
    before the server starts): a GET route per question of :data:`QUESTIONS` that has one, and
    the pages."""
    # FastAPI is imported only when a server is made: it is an extra (pip install 'sciner[serve]').
    from fastapi import APIRouter, Request
    from fastapi.responses import FileResponse, HTMLResponse

    path = Path(path)
    Index(path).close()
    router = APIRouter()

    def route(question: Question) -> Callable[[Request], Any]:
        def answer(request: Request) -> Any:
            def ask(corpus: Index) -> Any:
                given = {**request.query_params, **request.path_params}
                found = question.ask(corpus, {p.name: url_value(p, given.get(p.url_name)) for p in question.params})
                return as_json([found])[0] if question.one else as_json(found)
            return _open(path, ask)
        return answer

    for question in QUESTIONS.values():
        if question.path is not None:
            router.add_api_route(question.path, route(question), methods=["GET"], name=question.name)

    def html(ask: Callable[[Index], str]) -> Any:
        found = _open(path, ask)
        return HTMLResponse(found) if isinstance(found, str) else found

    @router.get("/corpus", response_class=HTMLResponse)
    def corpus_page(q: Optional[str] = None, entity: Optional[str] = None, type: Optional[str] = None,
                    dataset: Optional[str] = None, metric: Optional[str] = None) -> Any:
        return html(lambda c: render_page(c, q, entity, type, dataset, metric))

    @router.get("/corpus/paragraphs/{paragraph_id}", response_class=HTMLResponse)
    def paragraph_page(paragraph_id: str) -> Any:  # checked as the JSON route checks it
        question = QUESTIONS["paragraph"]

        def ask(corpus: Index) -> str:
            found = question.ask(corpus, {"paragraph_id": url_value(question.param("paragraph_id"), paragraph_id)})
            return render_paragraph(found, corpus.page_of(found.paragraph_id))
        return html(ask)

    @router.get("/corpus/papers/{paper_id}/file")
    def paper_file(paper_id: str) -> Any:
        """The file a paper was read from (a PDF opens at the page a paragraph page links to)."""
        def ask(corpus: Index) -> Any:
            found = corpus.paper_file(url_value(PAPER_ID, paper_id))
            if found is None or not found.is_file():
                raise RequestError(404, "not_found", f"paper {paper_id}: no such paper, or its file is gone")
            return FileResponse(found)
        return _open(path, ask)

    return router


def render_paragraph(found: StoredParagraph, on_page: Sequence[tuple[int, str, Optional[str]]] = ()) -> str:
    """The page of one paragraph, with a link to its paper's file (at the paragraph's page) and
    where in it the paragraph is; a table's row (``on_page``: the paragraphs of its page, as
    :meth:`Index.page_of` gives them) under its table's caption and header rows."""
    where = ", ".join(x for x in (f"page {found.page}" if found.page else "", found.section or "") if x)
    file = f"/corpus/papers/{found.paper_id}/file" + (f"#page={found.page}" if found.page else "")
    caption, header = table_context(found.paragraph_id, on_page)
    if header or caption:
        rows = "".join(f"<tr><th>{escape(text)}</th></tr>" for text in header)
        text = (f'<table id="table">{f"<caption>{escape(caption)}</caption>" if caption else ""}{rows}'
                f'<tr id="paragraph"><td>{escape(found.text)}</td></tr></table>')
    else:
        text = f'<blockquote id="paragraph">{escape(found.text)}</blockquote>'
    return page(found.title or found.paper, (
        f'<p><a href="/corpus">corpus</a> · paper {_link(file, found.paper, "paper")} · paragraph {found.position}'
        f'{" · " + escape(where) if where else ""}</p>{text}'), extra_css=CSS)


def table_context(paragraph_id: int, on_page: Sequence[tuple[int, str, Optional[str]]]) -> tuple[str, list[str]]:
    """The caption and header rows of the table whose row is ``paragraph_id`` ("" and [] for a
    paragraph that is no table row). The index keeps a table as its rows, one paragraph each, in
    order after its caption: the table is the run of rows around this one, its header the rows
    that open the run holding fewer numbers than this row ("Model F 1" over "CRF 90.10"), its
    caption the caption just before the run."""
    kinds = [kind for _, _, kind in on_page]
    at = next((i for i, (pid, _, _) in enumerate(on_page) if pid == paragraph_id), None)
    if at is None or kinds[at] != Kind.TABLE:
        return "", []
    start = at
    while start > 0 and kinds[start - 1] == Kind.TABLE:
        start -= 1
    numbers = [sum(map(is_number, text.split())) for _, text, _ in on_page[start:at + 1]]
    header = []
    for (_, text, _), count in zip(on_page[start:at], numbers):
        if count >= numbers[-1]:
            break
        header.append(text)
    before = on_page[start - 1] if start > 0 else None
    return (before[1] if before and before[2] == Kind.CAPTION else ""), header


def _link(href: str, text: str, cls: str = "") -> str:
    return f'<a href="{escape(href)}"{f" class={cls!r}" if cls else ""}>{escape(text)}</a>'


def _asked(ask: Callable[[], list[Any]], nothing: str) -> tuple[list[Any], str]:
    """A question the page asks: its rows and what to say without any (``nothing``, or why the
    question was refused: said on the page, which goes on)."""
    try:
        return ask(), nothing
    except (RequestError, ScinerError) as err:
        return [], err.message


def render_page(corpus: Index, q: Optional[str], entity: Optional[str], type: Optional[str],
                dataset: Optional[str] = None, metric: Optional[str] = None) -> str:
    """The corpus page: search box, then the search hits, the papers naming ``entity`` or the
    leaderboard asked for (``dataset``, ``metric``), then the facets and the leaderboards of
    the most papers, with a form asking for one."""
    stats = corpus.stats()
    parts = [f'<p>{stats["papers"]} papers, {stats["paragraphs"]} paragraphs, {stats["results"]} results.</p>',
             '<form action="/corpus" method="get"><input type="search" name="q" placeholder="search the paragraphs, '
             f'e.g. span masking" value="{escape(q or "")}"> <button>Search</button></form>']
    if q:
        hits, refused = _asked(lambda: corpus.search(url_value(QUESTIONS["search"].param("text"), q),
                                                     limit=DEFAULT_LIMIT), "nothing found")
        rows = "".join(f'<tr><td>{escape(h.paper)}</td><td class="snippet">'
                       f'{_link(f"/corpus/paragraphs/{h.paragraph_id}", h.snippet)}</td></tr>' for h in hits)
        parts.append(f'<h2>Search: {escape(q)}</h2><table id="hits"><tr><th>paper</th><th>paragraph</th></tr>'
                     f'{rows}</table>' if hits else f'<h2>Search: {escape(q)}</h2><p id="hits">{escape(refused)}</p>')
    if entity:
        papers, refused = _asked(lambda: corpus.papers(url_value(QUESTIONS["papers"].param("entity"), entity),
                                                       type=url_value(TYPE, type), limit=DEFAULT_LIMIT),
                                 "no paper names it")
        rows = "".join(f"<tr><td>{escape(h.paper)}</td><td>{escape(h.title or '')}</td><td>{escape(h.name)}</td>"
                       f"<td>{h.mentions}</td></tr>" for h in papers)
        parts.append(f'<h2>Papers naming {escape(entity)}</h2><table id="papers"><tr><th>paper</th><th>title</th>'
                     f"<th>as</th><th>mentions</th></tr>{rows}</table>" if papers else
                     f'<h2>Papers naming {escape(entity)}</h2><p id="papers">{escape(refused)}</p>')
    if dataset or metric:
        parts.append(_asked_board(corpus, dataset, metric))
    facets = []
    for kind in FACET_TYPES:
        items = "".join(f'<li>{_link(f"/corpus?entity={quote(e.name)}&type={kind}", e.name)} '
                        f'<span class="count">{e.papers}</span></li>' for e in facet_names(corpus, kind))
        facets.append(f'<div class="facet" data-type="{kind}"><h3>{kind}</h3><ul>{items}</ul></div>')
    parts.append(f'<h2>Entities</h2><div class="facets">{"".join(facets)}</div>')
    parts.append('<h2>Leaderboards</h2><form id="board" action="/corpus" method="get">'
                 f'<input name="dataset" placeholder="dataset, e.g. SQuAD" value="{escape(dataset or "")}"> '
                 f'<input name="metric" placeholder="metric, e.g. F1" value="{escape(metric or "")}"> '
                 "<button>Leaderboard</button></form>")
    for number, board in enumerate(corpus.leaderboards(limit=PAGE_BOARDS)):
        task, dataset, metric = board.task, board.dataset, board.metric
        rows = [r for r in corpus.results(dataset=dataset, metric=metric, task=task, limit=MAX_LIMIT)
                if (r.dataset_key, r.metric_key) == (board.dataset_key, board.metric_key)]
        name = " · ".join(x for x in (task, dataset, metric) if x)
        title = escape(name)
        if " | " in board.spellings:
            title += f' <span class="count">as {escape(board.spellings)}</span>'
        if " | " in board.settings:
            title += f' <span class="count">mixes settings: {escape(board.settings)}</span>'
        parts.append(f"<h3>{title}</h3>{score_by_year(rows, name, f'chart-{number}')}{_board(rows[:BOARD_ROWS], metric)}")
    return page("sciner corpus", "\n".join(parts), extra_css=CSS + CHART_CSS)


def _board(rows: list[LeaderboardRow], metric: Optional[str]) -> str:
    """A leaderboard's table: rank, value (a link to its paragraph), model, paper; ``metric``: the
    board's, of one dataset (None: each row's metric and dataset are shown)."""
    named = metric is None
    head = "<th>metric</th><th>dataset</th><th>value</th>" if named else f"<th>{escape(metric or '')}</th>"
    body = "".join(
        f'<tr{" class=ours" if r.ours else ""}><td>{r.rank}</td>'
        + (f"<td>{escape(r.metric or '')}</td><td>{escape(r.dataset or '')}</td>" if named else "")
        + f'<td>{_link(f"/corpus/paragraphs/{r.paragraph_id}", r.value, "value")}</td>'
        f"<td>{escape(r.model or '')}</td><td>{escape(r.paper)}</td></tr>" for r in rows)
    return f'<table class="leaderboard"><tr><th>#</th>{head}<th>model</th><th>paper</th></tr>{body}</table>'


def _asked_board(corpus: Index, dataset: Optional[str], metric: Optional[str]) -> str:
    """The leaderboard the form asks for: results on ``dataset``, in ``metric``, or both; its
    charts drawn from up to :data:`MAX_LIMIT` results, its table the first :data:`DEFAULT_LIMIT`."""
    question = QUESTIONS["results"]
    title = " · ".join(escape(x) for x in (dataset, metric) if x)
    rows, refused = _asked(lambda: corpus.results(dataset=url_value(question.param("dataset"), dataset),
                                                  metric=url_value(question.param("metric"), metric),
                                                  limit=MAX_LIMIT), "no result")
    board = _board(rows[:DEFAULT_LIMIT], metric if dataset else None) if rows else f"<p>{escape(refused)}</p>"
    return f'<h2>Leaderboard: {title}</h2>{_board_charts(rows)}<div id="asked">{board}</div>'


def _board_charts(rows: list[LeaderboardRow]) -> str:
    """A chart (:func:`score_by_year`) of each board among ``rows`` (results of several canonical
    datasets or metrics, as a form's question may match: each under its name), at most :data:`PAGE_BOARDS`."""
    boards: dict[tuple[Optional[str], Optional[str]], list[LeaderboardRow]] = {}
    for r in rows:
        boards.setdefault((r.dataset_key, r.metric_key), []).append(r)
    shown = list(boards.values())[:PAGE_BOARDS]
    names = [" · ".join(x for x in (board[0].dataset, board[0].metric) if x) for board in shown]
    return "".join((f"<h3>{escape(name)}</h3>" if len(shown) > 1 else "") + score_by_year(board, name, f"asked-chart-{k}")
                   for k, (name, board) in enumerate(zip(names, shown)))


def facet_names(corpus: Index, kind: str) -> list[EntityCount]:
    """The names of ``kind`` the facet shows: the most used, less those that are no names (see
    :func:`is_generic`)."""
    return [e for e in corpus.entities(kind, top=FACET_CANDIDATES) if not is_generic(corpus, e)][:FACET_NAMES]


def is_generic(corpus: Index, entity: EntityCount) -> bool:
    """True for a tag that names nothing: a name found once in one paper; one a reader would not
    list (:func:`sciner.summary.names.is_listed`: generic words such as "Sentence", "fine-tuning",
    "Mean", layout debris, one character); or a plain word (letters and hyphens, no capital inside:
    "Human", not "GloVe" or "BERT") that the papers write far more often than it is tagged
    (:data:`GENERIC_TAG_SHARE`)."""
    name = entity.name.strip()
    if (entity.papers, entity.mentions) == (1, 1) or len(name) < 2 or not is_listed(entity.type, name, entity.mentions):
        return True
    plain = bool(re.fullmatch(r"[A-Za-z][a-z]+(-[a-z]+)*", name))
    return plain and entity.mentions < GENERIC_TAG_SHARE * corpus.paragraphs_holding(name)
