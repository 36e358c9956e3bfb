"""The answers to the questions a corpus index is asked (:mod:`sciner.index.questions` declares
them): one method of :class:`Index` per question, each returning the question's dataclasses.

Names given to a question are matched as ``sciner summarize`` matches them: folded
(:func:`sciner.summary.names.fold`: case, hyphens, spaces, punctuation and a plural ending
dropped), so ``--dataset squad`` finds "SQuAD" and ``--entity bert-base`` finds "BERT base".
:class:`Index` is the Python face: ``sciner.Index("corpus.sqlite").results(dataset="SQuAD")``.
"""

from __future__ import annotations

import sqlite3
from itertools import islice
from pathlib import Path
from typing import Any

from sciner.errors import InputFormatError, QueryError, ReadOnlyQueryError
from sciner.index.questions import (DEFAULT_LIMIT, EntityCount, Leaderboard, LeaderboardRow, PaperHit, SearchHit,
                                    SqlResult, StoredParagraph, ValueCount)
from sciner.index.schema import as_error, connect
from sciner.summary.canonical import dataset_key, metric_key
from sciner.summary.names import fold

# The largest integer SQLite holds: a larger row count asks for every row, a larger id finds none.
MAX_INT = 2**63 - 1

# What the authorizer lets a query do: read, call functions, recurse, begin and end a (read) transaction.
_READING = frozenset({sqlite3.SQLITE_SELECT, sqlite3.SQLITE_READ, sqlite3.SQLITE_FUNCTION, sqlite3.SQLITE_RECURSIVE,
                      sqlite3.SQLITE_TRANSACTION})
# PRAGMAs that read although given an argument (PRAGMA table_info(papers)); any other one given a value sets.
_READING_PRAGMAS = frozenset({"table_info", "table_xinfo", "index_info", "index_xinfo", "index_list",
                              "foreign_key_list", "foreign_key_check", "integrity_check", "quick_check", "table_list"})
# The tables SQLite's own PRAGMA functions report updating while they read the schema.
_SCHEMA_TABLES = frozenset({"sqlite_master", "sqlite_schema", "sqlite_temp_master"})
# Words of an SQLite error that say the file (not the query) is in trouble.
_FILE_TROUBLE = ("locked", "busy", "full", "malformed", "not a database", "disk I/O")


def _what(action: int, arg1: str | None, arg2: str | None) -> str:
    """What a refused statement would have done, in words."""
    if action == sqlite3.SQLITE_ATTACH:
        return f"open another database file ({arg1!r}: ATTACH or VACUUM INTO)" if arg1 else "rewrite the index (VACUUM)"
    if action == sqlite3.SQLITE_PRAGMA:
        return f"set PRAGMA {arg1} = {arg2}"
    if action == sqlite3.SQLITE_DETACH:
        return f"detach {arg1!r}"
    return f"write ({arg1 or 'a statement that changes the database'})"


def rows_wanted(limit: int, name: str = "limit") -> int:
    """``limit`` as a row count SQLite takes: at least 1 (else :class:`QueryError`), at most :data:`MAX_INT`."""
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise QueryError(f"{name} must be a whole number of at least 1, not {limit!r}")
    return min(limit, MAX_INT)


# The results a leaderboard ranks unless asked for all: test results (or of no named split) of
# full systems, not ablation rows nor a human's or an oracle's performance (a paper's reference point).
_FULL_SYSTEM_TEST = ("(r.split IS NULL OR r.split = 'test') AND r.ablation = 0 AND "
                     "COALESCE(r.model_key, '') NOT LIKE 'human%' AND COALESCE(r.model_key, '') NOT LIKE 'oracle%'")

class Index:
    """A sciner index opened read-only, with the questions of ``sciner query`` as methods.

    Example::

        import sciner
        corpus = sciner.Index("corpus.sqlite")
        for row in corpus.results(dataset="SQuAD", metric="F1"):
            print(row.rank, row.value, row.model, row.paper)
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.con = connect(self.path, readonly=True)
        self.con.execute("PRAGMA query_only = ON")
        # Nothing written anywhere: no other file opened (ATTACH, VACUUM INTO), no write, no PRAGMA set
        # (query_only stays on); :meth:`_authorize` says no, and :meth:`sql` says what was refused.
        self.con.setlimit(sqlite3.SQLITE_LIMIT_ATTACHED, 0)
        self._refused: str | None = None
        self.con.set_authorizer(self._authorize)

    def _authorize(self, action: int, arg1: str | None, arg2: str | None, db: str | None, trigger: str | None) -> int:
        if action in _READING or (action == sqlite3.SQLITE_UPDATE and arg1 in _SCHEMA_TABLES):
            return sqlite3.SQLITE_OK
        if action == sqlite3.SQLITE_PRAGMA and (arg2 is None or (arg1 or "").lower() in _READING_PRAGMAS):
            return sqlite3.SQLITE_OK
        self._refused = self._refused or _what(action, arg1, arg2)
        return sqlite3.SQLITE_DENY

    def close(self) -> None:
        self.con.close()

    def __enter__(self) -> "Index":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _all(self, sql: str, params: dict[str, Any] | tuple = ()) -> list[sqlite3.Row]:
        self.con.row_factory = sqlite3.Row
        try:
            return self.con.execute(sql, params).fetchall()
        except sqlite3.OperationalError as err:
            raise as_error(err, self.path, "read") from None

    def _result_filter(self, dataset: str | None, metric: str | None, task: str | None, model: str | None,
                       ours: bool, all_results: bool) -> tuple[list[str], dict[str, Any]]:
        """The WHERE terms (over ``results r``) and parameters of a question about results: the
        dataset by its canonical key or family ("CoNLL": "CoNLL-2003" too), the metric by its
        canonical key, task and model folded; test results (or of no named split) of full
        systems (no ablation, human or oracle rows) unless ``all_results``."""
        where, params = ["r.number IS NOT NULL"], {}
        if dataset:
            family = dataset_key(dataset) or dataset
            where.append("(r.dataset_canon = :dataset OR r.dataset_canon LIKE :family ESCAPE '\\')")
            params["dataset"] = family
            params["family"] = family.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + " %"
        if metric:
            where.append("r.metric_canon = :metric")
            params["metric"] = metric_key(metric) or metric
        for column, given in (("task_key", task), ("model_key", model)):
            if given:
                where.append(f"r.{column} = :{column}")
                params[column] = fold(given) or given
        if ours:
            where.append("r.ours = 1")
        if not all_results:
            where.append(_FULL_SYSTEM_TEST)
        return where, params

    def results(self, dataset: str | None = None, metric: str | None = None, task: str | None = None,
                ours: bool = False, model: str | None = None, all_results: bool = False,
                limit: int = DEFAULT_LIMIT) -> list[LeaderboardRow]:
        """A leaderboard: the results on ``dataset`` in ``metric`` (``task``, ``model``: also
        filter; ``ours``: only the papers' own methods), one row per paper and model (its best
        value), best first; lower-is-better metrics (error, perplexity, WER, ...) ascending.
        Dataset and metric match every spelling of theirs (:mod:`sciner.summary.canonical`; a
        dataset its family's members too), each canonical (dataset, metric) ranked on its own,
        one after another. Test results (or of no named split) of full systems only, unless
        ``all_results`` (dev, validation and ablation rows too)."""
        where, params = self._result_filter(dataset, metric, task, model, ours, all_results)
        params["limit"] = rows_wanted(limit)
        sql = f"""
        WITH hits AS (
          SELECT r.id, r.paper_id, r.metric_canon, r.dataset_canon,
                 CASE WHEN r.lower_is_better THEN -r.number ELSE r.number END AS score,
                 ROW_NUMBER() OVER (PARTITION BY r.paper_id, COALESCE(r.model_key, ''), r.metric_canon, r.dataset_canon
                                    ORDER BY CASE WHEN r.lower_is_better THEN -r.number ELSE r.number END DESC,
                                             r.id) AS k
          FROM results r WHERE {' AND '.join(where)}),
        best AS (SELECT *, RANK() OVER (PARTITION BY metric_canon, dataset_canon ORDER BY score DESC) AS place
                 FROM hits WHERE k = 1 ORDER BY metric_canon, dataset_canon, score DESC LIMIT :limit)
        SELECT best.place, r.value, r.number, r.metric, r.dataset, r.task, r.model, r.ours, p.doc, p.title,
               r.paper_id, r.paragraph_id, g.text, r.split, r.setting, r.ablation, r.table_label, r.caption,
               r.header, r.dataset_canon, r.metric_canon, r.lower_is_better, p.year
        FROM best JOIN results r ON r.id = best.id JOIN papers p ON p.id = r.paper_id
             JOIN paragraphs g ON g.id = r.paragraph_id
        ORDER BY best.metric_canon, best.dataset_canon, best.score DESC, r.id"""
        return [LeaderboardRow(row[0], row[1], row[2], row[3], row[4], row[5], row[6],
                               None if row[7] is None else bool(row[7]), row[8], row[9], row[10], row[11], row[12],
                               row[13], row[14], bool(row[15]), row[16], row[17], row[18], row[19], row[20],
                               bool(row[21]), row[22]) for row in self._all(sql, params)]

    def results_notes(self, dataset: str | None = None, metric: str | None = None, task: str | None = None,
                      ours: bool = False, model: str | None = None, all_results: bool = False,
                      limit: int = DEFAULT_LIMIT) -> list[str]:
        """What :meth:`results` asked with the same values matched and left out, in lines: the
        spellings of the dataset and metric it matched, the boards that mix settings, how many
        dev, validation, ablation or human-performance results it left out."""
        where, params = self._result_filter(dataset, metric, task, model, ours, all_results)
        notes = []
        for given, column in ((dataset, "dataset"), (metric, "metric")):
            if given:
                found = self._all(f"SELECT r.{column}, COUNT(DISTINCT r.paper_id) FROM results r "
                                  f"WHERE {' AND '.join(where)} GROUP BY r.{column} ORDER BY 2 DESC, 1", params)
                if found:
                    notes.append(f"{column} {given!r} matched: " + ", ".join(
                        f"{name} ({n} paper{'s' if n != 1 else ''})" for name, n in found))
        mixed = self._all(f"SELECT r.dataset_canon, r.metric_canon, MIN(r.dataset), MIN(r.metric), GROUP_CONCAT(DISTINCT COALESCE(r.setting, '-')) "
                          f"FROM results r WHERE {' AND '.join(where)} GROUP BY r.dataset_canon, r.metric_canon "
                          "HAVING COUNT(DISTINCT COALESCE(r.setting, '-')) > 1 AND COUNT(r.setting) > 0", params)
        spelled = {column: self._spellings(column, where, params) for column in ("dataset", "metric")} if mixed else {}
        for data_key, measure_key, data, measure, settings in mixed:
            notes.append(f"board {spelled['dataset'].get(data_key, data)} · {spelled['metric'].get(measure_key, measure)} "
                         f"mixes settings: {', '.join(sorted(settings.split(',')))} (- : the paper names none)")
        if not all_results:
            wider, wider_params = self._result_filter(dataset, metric, task, model, ours, True)
            left = self._all(f"SELECT COUNT(*) FROM results r WHERE {' AND '.join(wider)} AND NOT "
                             f"({_FULL_SYSTEM_TEST})", wider_params)[0][0]
            if left:
                notes.append(f"{left} dev, validation, ablation or human-performance result(s) left out: "
                             "--all shows them")
        return notes

    def papers(self, entity: str, type: str | None = None, limit: int = DEFAULT_LIMIT) -> list[PaperHit]:
        """The papers naming ``entity`` (as any ``type``, or only as ``type``), most mentions first."""
        sql = ("SELECT p.doc, p.title, f.path, e.type, e.name, e.mentions, p.id FROM entities e "
               "JOIN papers p ON p.id = e.paper_id JOIN files f ON f.id = p.file_id WHERE e.key = ? "
               + ("AND e.type = ? " if type else "") + "ORDER BY e.mentions DESC, p.doc LIMIT ?")
        params = (fold(entity) or entity, *((type,) if type else ()), rows_wanted(limit))
        return [PaperHit(*row) for row in self._all(sql, params)]

    def entities(self, type: str | None = None, top: int = DEFAULT_LIMIT) -> list[EntityCount]:
        """The names the most papers use (of ``type``, or of every type)."""
        sql = ("SELECT type, name, papers, mentions FROM names " + ("WHERE type = ? " if type else "")
               + "ORDER BY papers DESC, mentions DESC, name LIMIT ?")
        return [EntityCount(*row) for row in self._all(sql, (*((type,) if type else ()), rows_wanted(top, "top")))]

    def values(self, of: str, type: str | None = None, limit: int = DEFAULT_LIMIT) -> list[ValueCount]:
        """The values the corpus gives to the name ``of`` ("learning rate"), most frequent first:
        the distribution of a hyperparameter (or a metric) across papers."""
        sql = ("SELECT value, MIN(number), COUNT(*) AS n, COUNT(DISTINCT paper_id) FROM value_pairs WHERE key = ? "
               + ("AND type = ? " if type else "") + "GROUP BY COALESCE(number, value) "
               "ORDER BY COUNT(DISTINCT paper_id) DESC, n DESC, MIN(number) LIMIT ?")
        params = (fold(of) or of, *((type,) if type else ()), rows_wanted(limit))
        return [ValueCount(*row) for row in self._all(sql, params)]

    def search(self, text: str, limit: int = DEFAULT_LIMIT) -> list[SearchHit]:
        """Paragraphs matching ``text`` (FTS5: every word, ``"a phrase"`` in double quotes,
        ``OR``, ``NEAR``, ``prefix*``), best match first. Text that is no valid FTS5 query
        ("BERT-base", "F1:") is searched as its words, each quoted."""
        if not text.strip():
            raise InputFormatError("search: give some words to search for")
        sql = ("SELECT p.doc, p.title, p.id, g.id, g.page, g.section, "
               "snippet(paragraphs_fts, 0, '[', ']', ' … ', 24) FROM paragraphs_fts "
               "JOIN paragraphs g ON g.id = paragraphs_fts.rowid JOIN papers p ON p.id = g.paper_id "
               "WHERE paragraphs_fts MATCH ? ORDER BY rank LIMIT ?")
        limit = rows_wanted(limit)
        self.con.row_factory = sqlite3.Row
        try:
            rows = self.con.execute(sql, (text, limit)).fetchall()
        except sqlite3.OperationalError as err:
            if any(word in str(err) for word in _FILE_TROUBLE):
                raise as_error(err, self.path, "search") from None
            # Not an FTS5 query ("*", an unbalanced quote, "F1:"): each word quoted is one.
            words = " ".join('"' + w.replace('"', '""') + '"' for w in text.split())
            rows = self._all(sql, (words, limit))
        return [SearchHit(*row) for row in rows]

    def paragraph(self, paragraph_id: int) -> StoredParagraph | None:
        """One paragraph by id, with its paper (None: no such paragraph)."""
        if not -MAX_INT <= paragraph_id <= MAX_INT:
            return None
        rows = self._all("SELECT g.id, p.doc, p.title, p.id, g.position, g.page, g.section, g.text FROM paragraphs g "
                         "JOIN papers p ON p.id = g.paper_id WHERE g.id = ?", (paragraph_id,))
        return StoredParagraph(*rows[0]) if rows else None

    def page_of(self, paragraph_id: int) -> list[tuple[int, str, str | None]]:
        """The paragraphs of ``paragraph_id``'s paper on its page, in reading order, as (id, text,
        kind): the rows and caption of a table around one of its rows."""
        return [tuple(row) for row in self._all(
            "SELECT g.id, g.text, g.kind FROM paragraphs h JOIN paragraphs g ON g.paper_id = h.paper_id "
            "AND g.page IS h.page WHERE h.id = ? ORDER BY g.position", (paragraph_id,))]

    def paper_file(self, paper_id: int) -> Path | None:
        """The file the paper was read from (None: no such paper)."""
        rows = self._all("SELECT f.path FROM papers p JOIN files f ON f.id = p.file_id WHERE p.id = ?", (paper_id,))
        return Path(rows[0][0]) if rows else None

    def paragraphs_holding(self, text: str) -> int:
        """How many paragraphs hold ``text`` as a phrase (full text): set against a name's
        mentions, how often the papers write it where it is not tagged."""
        phrase = '"' + text.replace('"', '""') + '"'
        return self._all("SELECT count(*) FROM paragraphs_fts WHERE paragraphs_fts MATCH ?", (phrase,))[0][0]

    def leaderboards(self, min_papers: int = 1, all_results: bool = False,
                     limit: int = DEFAULT_LIMIT) -> list[Leaderboard]:
        """The (task, dataset, metric) boards with results from at least ``min_papers`` papers,
        dataset and metric by their canonical keys, those of the most papers first, then of the most results (where no dataset
        is shared, boards of one number each are not listed alphabetically first), dataset and
        metric spelled as most papers spell them, the task as first indexed, with the dataset's spellings and the results' settings (test
        results of full systems unless ``all_results``, as :meth:`results` ranks them)."""
        where, _ = self._result_filter(None, None, None, None, False, all_results)
        sql = ("SELECT MIN(r.task), MIN(r.dataset), MIN(r.metric), COUNT(DISTINCT r.paper_id) AS n, "
               "GROUP_CONCAT(DISTINCT r.dataset), GROUP_CONCAT(DISTINCT COALESCE(r.setting, '-')), "
               "r.dataset_canon, r.metric_canon FROM results r "
               f"WHERE r.dataset_canon IS NOT NULL AND r.metric_canon IS NOT NULL AND {' AND '.join(where)} "
               "GROUP BY r.task_key, r.dataset_canon, r.metric_canon HAVING n >= ? ORDER BY n DESC, COUNT(*) DESC, MIN(r.dataset) "
               "LIMIT ?")
        spelled = {column: self._spellings(column, where, {}) for column in ("dataset", "metric")}
        boards = []
        for task, data, measure, papers, spellings, settings, data_key, measure_key in self._all(
                sql, (rows_wanted(min_papers, "min_papers"), rows_wanted(limit))):
            settings = sorted(settings.split(",")) if settings else []
            boards.append(Leaderboard(task, spelled["dataset"].get(data_key, data),
                                      spelled["metric"].get(measure_key, measure), papers,
                                      " | ".join((spellings or "").split(",")),
                                      " | ".join(settings) if settings != ["-"] else "", data_key, measure_key))
        return boards

    def _spellings(self, column: str, where: list[str], params: dict[str, Any]) -> dict[str, str]:
        """Each canonical key of ``column`` (dataset or metric) among the results ``where``
        selects, spelled as the most papers spell it (ties: the most results, then the fewest
        spaces, since a PDF's text splits names such as "F 1", then code-point order)."""
        rows = self._all(f"SELECT r.{column}_canon, r.{column}, COUNT(DISTINCT r.paper_id), COUNT(*) FROM results r "
                         f"WHERE r.{column}_canon IS NOT NULL AND {' AND '.join(where)} "
                         f"GROUP BY r.{column}_canon, r.{column}", params)
        best: dict[str, tuple[int, int, int, str]] = {}
        for key, name, papers, count in rows:
            rank = (-papers, -count, name.count(" "), name)
            if key not in best or rank < best[key]:
                best[key] = rank
        return {key: rank[3] for key, rank in best.items()}

    def sql(self, query: str, limit: int | None = None) -> SqlResult:
        """Any read-only SQL over the index (the schema: docs/index.md): a query that would write,
        to the index or anywhere else, is :class:`ReadOnlyQueryError`; SQL SQLite cannot run,
        :class:`QueryError`."""
        wanted = None if limit is None else rows_wanted(limit)
        self.con.row_factory = None
        self._refused = None
        try:
            cur = self.con.execute(query)
            rows = list(islice(cur, wanted)) if wanted else cur.fetchall()
        except (sqlite3.Error, sqlite3.Warning, OverflowError) as err:
            if self._refused or "readonly" in str(err) or "query_only" in str(err):
                raise ReadOnlyQueryError(f"--sql: refused: it would {self._refused or 'write'}; a query reads the "
                                         "index and writes nothing anywhere") from None
            if isinstance(err, sqlite3.DatabaseError) and any(word in str(err) for word in _FILE_TROUBLE):
                raise as_error(err, self.path, "read") from None
            raise QueryError(f"--sql: {err}") from None
        return SqlResult([d[0] for d in cur.description or ()], [tuple(r) for r in rows])

    def stats(self) -> dict[str, int]:
        """How many rows each table of the index holds (files, papers, paragraphs, ..., results)."""
        counts = {}
        for table in ("files", "papers", "paragraphs", "mentions", "entities", "value_pairs", "results",
                      "not_results", "proposed", "table_cells"):
            counts[table] = self._all(f"SELECT count(*) FROM {table}")[0][0]
        return counts
