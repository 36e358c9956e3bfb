"""The answers to the questions a corpus index is asked (:mod:`sciner.index.questions` declares
them): one method of :class:`Index` per question, each returning the question's dataclasses.

Names given to a question are matched as ``sciner summarize`` matches them: folded
(:func:`sciner.summary.names.fold`: case, hyphens, spaces, punctuation and a plural ending
dropped), so ``--dataset squad`` finds "SQuAD" and ``--entity bert-base`` finds "BERT base".
:class:`Index` is the Python face: ``sciner.Index("corpus.sqlite").results(dataset="SQuAD")``.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from sciner.errors import InputFormatError
from sciner.index.questions import (DEFAULT_LIMIT, EntityCount, Leaderboard, LeaderboardRow, PaperHit, SearchHit,
                                    SqlResult, StoredParagraph, ValueCount)
from sciner.index.schema import as_error, connect
from sciner.summary.names import fold


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

    def results(self, dataset: str | None = None, metric: str | None = None, task: str | None = None,
                ours: bool = False, model: str | None = None, limit: int = DEFAULT_LIMIT) -> list[LeaderboardRow]:
        """A leaderboard: the results on ``dataset`` in ``metric`` (``task``, ``model``: also
        filter; ``ours``: only the papers' own methods), one row per paper and model (its best
        value), best first; lower-is-better metrics (error, perplexity, WER, ...) ascending.
        Without ``metric``, each metric's rows are ranked on their own, one metric after another."""
        where, params = ["r.number IS NOT NULL"], {"limit": limit}
        for column, given in (("dataset_key", dataset), ("metric_key", metric), ("task_key", task),
                              ("model_key", model)):
            if given:
                where.append(f"r.{column} = :{column}")
                params[column] = fold(given) or given
        if ours:
            where.append("r.ours = 1")
        sql = f"""
        WITH hits AS (
          SELECT r.id, r.paper_id, r.metric_key, r.dataset_key,
                 CASE WHEN r.lower_is_better THEN -r.number ELSE r.number END AS score,
                 ROW_NUMBER() OVER (PARTITION BY r.paper_id, COALESCE(r.model_key, ''), r.metric_key, r.dataset_key
                                    ORDER BY CASE WHEN r.lower_is_better THEN -r.number ELSE r.number END DESC,
                                             r.id) AS k
          FROM results r WHERE {' AND '.join(where)}),
        best AS (SELECT *, RANK() OVER (PARTITION BY metric_key, dataset_key ORDER BY score DESC) AS place
                 FROM hits WHERE k = 1 ORDER BY metric_key, dataset_key, score DESC LIMIT :limit)
        SELECT best.place, r.value, r.number, r.metric, r.dataset, r.task, r.model, r.ours, p.doc, p.title,
               r.paper_id, r.paragraph_id, g.text
        FROM best JOIN results r ON r.id = best.id JOIN papers p ON p.id = r.paper_id
             JOIN paragraphs g ON g.id = r.paragraph_id
        ORDER BY best.metric_key, best.dataset_key, best.score DESC, r.id"""
        return [LeaderboardRow(row[0], row[1], row[2], row[3], row[4], row[5], row[6], bool(row[7]), row[8], row[9],
                               row[10], row[11], row[12]) for row in self._all(sql, params)]

    def papers(self, entity: str, type: str | None = None, limit: int = DEFAULT_LIMIT) -> list[PaperHit]:
        """The papers naming ``entity`` (as any ``type``, or only as ``type``), most mentions first."""
        sql = ("SELECT p.doc, p.title, f.path, e.type, e.name, e.mentions, p.id FROM entities e "
               "JOIN papers p ON p.id = e.paper_id JOIN files f ON f.id = p.file_id WHERE e.key = ? "
               + ("AND e.type = ? " if type else "") + "ORDER BY e.mentions DESC, p.doc LIMIT ?")
        params = (fold(entity) or entity, *((type,) if type else ()), limit)
        return [PaperHit(*row) for row in self._all(sql, params)]

    def entities(self, type: str | None = None, top: int = DEFAULT_LIMIT) -> list[EntityCount]:
        """The names the most papers use (of ``type``, or of every type)."""
        sql = ("SELECT type, name, papers, mentions FROM names " + ("WHERE type = ? " if type else "")
               + "ORDER BY papers DESC, mentions DESC, name LIMIT ?")
        return [EntityCount(*row) for row in self._all(sql, (*((type,) if type else ()), top))]

    def values(self, of: str, type: str | None = None, limit: int = DEFAULT_LIMIT) -> list[ValueCount]:
        """The values the corpus gives to the name ``of`` ("learning rate"), most frequent first:
        the distribution of a hyperparameter (or a metric) across papers."""
        sql = ("SELECT value, MIN(number), COUNT(*) AS n, COUNT(DISTINCT paper_id) FROM value_pairs WHERE key = ? "
               + ("AND type = ? " if type else "") + "GROUP BY COALESCE(number, value) "
               "ORDER BY COUNT(DISTINCT paper_id) DESC, n DESC, MIN(number) LIMIT ?")
        return [ValueCount(*row) for row in self._all(sql, (fold(of) or of, *((type,) if type else ()), limit))]

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
        self.con.row_factory = sqlite3.Row
        try:
            rows = self.con.execute(sql, (text, limit)).fetchall()
        except sqlite3.OperationalError as err:
            if "fts5" not in str(err) and "syntax" not in str(err) and "no such column" not in str(err):
                raise as_error(err, self.path, "search") from None
            words = " ".join('"' + w.replace('"', '""') + '"' for w in text.split())
            rows = self._all(sql, (words, limit))
        return [SearchHit(*row) for row in rows]

    def paragraph(self, paragraph_id: int) -> StoredParagraph | None:
        """One paragraph by id, with its paper (None: no such paragraph)."""
        rows = self._all("SELECT g.id, p.doc, p.title, p.id, g.position, g.page, g.section, g.text FROM paragraphs g "
                         "JOIN papers p ON p.id = g.paper_id WHERE g.id = ?", (paragraph_id,))
        return StoredParagraph(*rows[0]) if rows else None

    def leaderboards(self, min_papers: int = 1, limit: int = DEFAULT_LIMIT) -> list[Leaderboard]:
        """The (task, dataset, metric) triples with results from at least ``min_papers`` papers,
        those of the most papers first, each name spelled as first indexed."""
        sql = ("SELECT MIN(task), MIN(dataset), MIN(metric), COUNT(DISTINCT paper_id) AS n FROM results "
               "WHERE dataset_key IS NOT NULL AND metric_key IS NOT NULL AND number IS NOT NULL "
               "GROUP BY task_key, dataset_key, metric_key HAVING n >= ? ORDER BY n DESC, MIN(dataset) LIMIT ?")
        return [Leaderboard(*row) for row in self._all(sql, (min_papers, limit))]

    def sql(self, query: str, limit: int | None = None) -> SqlResult:
        """Any read-only SQL over the index (the schema: docs/index.md)."""
        self.con.row_factory = None
        try:
            cur = self.con.execute(query)
            rows = cur.fetchmany(limit) if limit else cur.fetchall()
        except (sqlite3.OperationalError, sqlite3.ProgrammingError, sqlite3.Warning) as err:
            raise InputFormatError(f"--sql: {err}") from None
        except sqlite3.DatabaseError as err:
            raise as_error(err, self.path, "read") from None
        return SqlResult([d[0] for d in cur.description or ()], [tuple(r) for r in rows])

    def stats(self) -> dict[str, int]:
        """How many files, papers, paragraphs, entities, values and results the index holds."""
        counts = {}
        for table in ("files", "papers", "paragraphs", "mentions", "entities", "value_pairs", "results"):
            counts[table] = self._all(f"SELECT count(*) FROM {table}")[0][0]
        return counts
