"""The questions a corpus index answers, each declared once: its parameters (type, default,
help, how the command line and a URL spell it) and the dataclass its answer's rows are.

:data:`QUESTIONS` is the one table: ``sciner query``'s subcommands (:mod:`sciner.cli.query_cmd`)
and the JSON routes of ``sciner serve --index`` (:mod:`sciner.serve.corpus`) are generated from
it, and :class:`~sciner.index.query.Index` answers each question with its method of the same
name (``Index.results`` answers ``results``). Raw SQL (``sql``) is asked on the command line and
in Python only, never over HTTP: read-only is not harmless on a network, since one query (a
recursive CTE, a cross join of the mentions) can keep a server's thread busy for as long as
it likes, and the routes answer the questions whose cost the index bounds.

This module holds only declarations and dataclasses: the command line reads it at start-up,
without SQLite, the summary code or FastAPI.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

from sciner.errors import InputFormatError

# Rows a question answers unless told otherwise.
DEFAULT_LIMIT = 20


@dataclass
class LeaderboardRow:
    """One paper's (and model's) best value of a metric on a dataset, with where it was read."""

    rank: int
    value: str
    number: float
    metric: str | None
    dataset: str | None
    task: str | None
    model: str | None
    ours: bool | None  # the paper's own (True), another's (False), not said (None)
    paper: str
    title: str | None
    paper_id: int
    paragraph_id: int
    paragraph: str
    split: str | None = None  # "test", "dev", "validation"; None: the paper does not say
    setting: str | None = None  # "5-shot", a settings column's value
    ablation: bool = False  # a row varying the paper's own method
    table: str | None = None  # the table it was read off, None for a sentence
    caption: str | None = None
    header: str | None = None  # the heads over its column
    dataset_key: str | None = None  # the canonical keys its board is ranked under
    metric_key: str | None = None
    lower_is_better: bool = False  # the metric's direction: its board ranks the smallest first
    year: int | None = None  # the paper's year (papers.year), None: unknown or an index without years


@dataclass
class Leaderboard:
    """A (task, dataset, metric) board with results, and how many papers report one: the
    dataset and metric by their canonical keys (:mod:`sciner.summary.canonical`), spelled as
    most papers spell them, with every spelling of the dataset the papers use and the
    settings its results were measured in (more than one: the board mixes them)."""

    task: str | None
    dataset: str
    metric: str
    papers: int
    spellings: str = ""  # the papers' spellings of the dataset, " | " between
    settings: str = ""  # the settings of its results (" | " between; "-" for results that name none)
    dataset_key: str = ""
    metric_key: str = ""


@dataclass
class PaperHit:
    """A paper naming an entity, and how often."""

    paper: str
    title: str | None
    path: str
    type: str
    name: str
    mentions: int
    paper_id: int


@dataclass
class EntityCount:
    """A name across the corpus: the papers naming it and its mentions in all of them."""

    type: str
    name: str
    papers: int
    mentions: int


@dataclass
class ValueCount:
    """One value given to a name, how often and in how many papers."""

    value: str
    number: float | None
    count: int
    papers: int


@dataclass
class SearchHit:
    """A paragraph matching a full-text search, with its paper and the matching words marked."""

    paper: str
    title: str | None
    paper_id: int
    paragraph_id: int
    page: int | None
    section: str | None
    snippet: str


@dataclass
class StoredParagraph:
    """One paragraph as the index stores it, with its paper (a leaderboard's or a search's
    link target)."""

    paragraph_id: int
    paper: str
    title: str | None
    paper_id: int
    position: int
    page: int | None
    section: str | None
    text: str


@dataclass
class SqlResult:
    """The columns and rows of a read-only SQL query."""

    columns: list[str]
    rows: list[tuple[Any, ...]]


def as_rows(items: Any) -> tuple[list[str], list[tuple[Any, ...]]]:
    """An answer (a list of dataclasses, or a :class:`SqlResult`) as (columns, rows), for
    tables, CSV and HTML."""
    if isinstance(items, SqlResult):
        return items.columns, items.rows
    if not items:
        return [], []
    columns = [f.name for f in fields(items[0])]
    return columns, [tuple(getattr(item, c) for c in columns) for item in items]


def as_json(items: Any) -> Any:
    """What a question answered, as JSON-ready lists and dicts."""
    if isinstance(items, SqlResult):
        return [dict(zip(items.columns, row)) for row in items.rows]
    return [asdict(item) for item in items]


class NotFound(InputFormatError):
    """A question about one row (a paragraph by id) whose row does not exist (HTTP: 404)."""


# A parameter without a default: the question cannot be asked without it.
REQUIRED: Any = ...


@dataclass(frozen=True)
class Param:
    """One parameter of a question: the keyword of its :class:`Index` method, its type
    (``str``, ``int`` or ``bool``), its default (:data:`REQUIRED`: none) and help, and how it
    is spelled on the command line (``flags``; a positional argument with ``argument``) and in
    a URL (``url``: the query parameter, or the path's ``{name}``)."""

    name: str
    type: type
    default: Any
    help: str
    flags: tuple[str, ...] = ()
    argument: bool = False
    url: str = ""
    # A count of rows: at least 1, and at most the routes' ceiling over HTTP.
    rows: bool = False
    # The least value an ``int`` may take (None: any).
    minimum: int | None = None

    @property
    def required(self) -> bool:
        return self.default is REQUIRED

    @property
    def cli_flags(self) -> tuple[str, ...]:
        return self.flags or ("--" + self.name.replace("_", "-"),)

    @property
    def url_name(self) -> str:
        return self.url or self.name


@dataclass(frozen=True)
class Question:
    """One question to the index: its name (the subcommand, the route's last part and the
    :class:`Index` method), its help (the subcommand's, ending with an example), its
    parameters, the dataclass of its answer's rows, the columns the terminal table shows
    (None: all), whether it is asked over HTTP (and at which route, when not
    ``/v1/corpus/{name}``) and whether it answers one row (or raises :class:`NotFound`)
    rather than a list."""

    name: str
    help: str
    params: tuple[Param, ...]
    answer: type
    columns: tuple[str, ...] | None = None
    http: bool = True
    route: str = ""
    one: bool = False
    # The :class:`Index` method that, asked with the same values, says what the answer matched or
    # left out in lines (the command line prints them under the answer); "" for none.
    notes: str = ""

    @property
    def path(self) -> str | None:
        """The route's path, or None for a question not asked over HTTP."""
        return (self.route or f"/v1/corpus/{self.name}") if self.http else None

    def param(self, name: str) -> Param:
        """The parameter called ``name``."""
        return next(p for p in self.params if p.name == name)

    def ask(self, index: Any, values: dict[str, Any]) -> Any:
        """The answer of ``index`` (an open :class:`~sciner.index.query.Index`) to this question,
        asked with ``values`` (one per parameter); a one-row question's answer is that row."""
        found = getattr(index, self.name)(**values)
        if self.one and found is None:
            raise NotFound(f"no {self.name} {' '.join(str(v) for v in values.values())}")
        return found


LIMIT = Param("limit", int, DEFAULT_LIMIT, "Most rows to answer.", ("--limit", "-n"), rows=True)
ALL = Param("all_results", bool, False, "Also dev and validation results, ablation rows and human or oracle "
                                       "performance (by default a board holds test results, or results of no "
                                       "named split, of full systems).",
            ("--all",), url="all")
TYPE = Param("type", str, None, "Only this entity type (MethodName, DatasetName, TaskName, MetricName, "
                                "HyperparameterName).")

QUESTIONS: dict[str, Question] = {q.name: q for q in (
    Question(
        "results",
        "A leaderboard: results on a dataset in a metric, best first (lower-is-better metrics such as error rate, "
        "perplexity and WER ascending), one row per paper and model, each with the paragraph it was read from. "
        "Dataset and metric match every spelling of theirs (ROUGE-1, R1; SQuAD v1.1, SQuAD1.1; CoNLL finds "
        "CoNLL-2003): a board per canonical dataset and metric, the spellings matched said under it. Test "
        "results of full systems only, unless --all.\n\n"
        "Example: sciner query corpus.sqlite results --dataset SQuAD --metric F1",
        (Param("dataset", str, None, "Results on this dataset."),
         Param("metric", str, None, "Results in this metric."),
         Param("task", str, None, "Results for this task."),
         Param("model", str, None, "Results of this method."),
         Param("ours", bool, False, "Only results of the papers' own methods."),
         ALL,
         LIMIT),
        LeaderboardRow, ("rank", "value", "metric", "dataset", "model", "ours", "split", "setting", "paper",
                         "paragraph"), notes="results_notes"),
    Question(
        "leaderboards",
        "The (task, dataset, metric) triples with results from the most papers: the leaderboards the corpus "
        "holds, to ask results about.\n\n"
        "Example: sciner query corpus.sqlite leaderboards --min-papers 2",
        (Param("min_papers", int, 1, "Only triples with results from at least this many papers.", minimum=1),
         ALL,
         LIMIT),
        Leaderboard, ("task", "dataset", "metric", "papers", "spellings", "settings")),
    Question(
        "papers",
        "The papers naming an entity, most mentions first.\n\n"
        "Example: sciner query corpus.sqlite papers --entity BERT --type MethodName",
        (Param("entity", str, REQUIRED, "The name to look for.", ("--entity", "-e")), TYPE, LIMIT),
        PaperHit, ("paper", "title", "type", "name", "mentions")),
    Question(
        "entities",
        "The names the most papers use, with their papers and mentions.\n\n"
        "Example: sciner query corpus.sqlite entities --type DatasetName --top 20",
        (TYPE, Param("top", int, DEFAULT_LIMIT, "How many names.", ("--top",), url="limit", rows=True)),
        EntityCount),
    Question(
        "values",
        "The values papers give to a name, most frequent first: e.g. the learning rates used.\n\n"
        'Example: sciner query corpus.sqlite values --of "learning rate"',
        (Param("of", str, REQUIRED, "The name whose values to count (a hyperparameter or metric)."), LIMIT),
        ValueCount),
    Question(
        "search",
        "Full-text search over the paragraphs, best match first, the matching words in [brackets].\n\n"
        'Example: sciner query corpus.sqlite search "span masking"',
        (Param("text", str, REQUIRED, 'Words to find (SQLite FTS5: all words; "a phrase" in quotes; OR; prefix*).',
               argument=True, url="q"),
         LIMIT),
        SearchHit, ("paper", "paragraph_id", "page", "section", "snippet")),
    Question(
        "paragraph",
        "One paragraph by its id (a result's or a search hit's paragraph_id), with its paper.\n\n"
        "Example: sciner query corpus.sqlite paragraph 14",
        (Param("paragraph_id", int, REQUIRED, "The paragraph's id.", argument=True),),
        StoredParagraph, route="/v1/corpus/paragraphs/{paragraph_id}", one=True),
    Question(
        "sql",
        "Any read-only SQL over the index (its tables: docs/index.md); also spelled sciner query INDEX --sql "
        "QUERY. Not served over HTTP.\n\n"
        'Example: sciner query corpus.sqlite sql "SELECT doc, title FROM papers LIMIT 5"',
        (Param("query", str, REQUIRED, "The SQL to run (read-only).", argument=True),
         Param("limit", int, None, "Most rows to answer (default: all).", ("--limit", "-n"), minimum=1)),
        SqlResult, http=False),
)}
