"""Writing papers into the index: one paper, one transaction.

:func:`paper_rows` is the per-paper step (a tagged paper -> the rows it adds, summarized as
``sciner summarize`` summarizes it); it is plain data, so a worker process can make it and send
it to the one writer. :class:`IndexWriter` is that writer: it knows which files are in and by
which content hash, adds each paper in its own transaction (a run killed at any point leaves
every paper wholly in or wholly out, and the next run goes on where it stopped), replaces a
changed file's papers, and prunes the papers of files that are gone.
"""

from __future__ import annotations

import hashlib
import json
import re
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from sciner.document import Paragraph
from sciner.index.schema import as_error
from sciner.pdf.metadata import PaperMetadata, paper_metadata
from sciner.summary.assemble import summarize_paper
from sciner.summary.canonical import dataset_key, metric_key
from sciner.summary.names import Gazetteer, fold, mention_text
from sciner.summary.render import paper_title
from sciner.summary.tables.cells import cell_numbers, table_rows
from sciner.tokenize import detokenize

# Metrics where a smaller number is better, as folded-name fragments: a leaderboard of one of
# these is sorted ascending. Short ones must be the whole name or its first or last word.
LOWER_IS_BETTER_WORDS = ("error", "perplexity", "loss", "distance", "latency", "runtime")
LOWER_IS_BETTER_NAMES = ("wer", "cer", "per", "ter", "ppl", "mae", "mse", "rmse", "eer", "fid", "der", "ser", "bpc",
                         "bpb", "nll", "far", "frr")
_NUMBER = re.compile(r"[-+−]?(?:\d{1,3}(?:,\d{3})+|\d+)?(?:\.\d+)?(?:[eE][-+−]?\d+)?")


def lower_is_better(metric: str | None) -> bool:
    """True for metrics where smaller is better (error rates, perplexity, WER, losses, ...)."""
    if not metric:
        return False
    key = fold(metric)
    words = [fold(w) for w in re.split(r"[\s\-_/()]+", metric) if fold(w)]
    return (any(w in key for w in LOWER_IS_BETTER_WORDS)
            or key in LOWER_IS_BETTER_NAMES
            or bool(words) and (words[0] in LOWER_IS_BETTER_NAMES or words[-1] in LOWER_IS_BETTER_NAMES))


def first_number(text: str) -> float | None:
    """The first number written in ``text`` ("93.2" -> 93.2, "5e-5" -> 5e-05, "1,024" -> 1024.0,
    "84.6 %" -> 84.6), or None."""
    for found in _NUMBER.finditer(text):
        digits = found.group().replace(",", "").replace("−", "-")
        if any(c.isdigit() for c in digits):
            try:
                return float(digits)
            except ValueError:
                continue
    return None


@dataclass
class PaperRows:
    """The rows one paper adds to the index (token positions are per paragraph)."""

    doc: str
    title: str | None
    model: str
    tokens: int
    paragraphs: list[tuple[str, int | None, str | None, str | None]]  # text, page, section, kind
    entities: list[tuple[str, str, str, int, list[str]]]  # type, name, key, mentions, surface
    # paragraph, entity (index into entities or None), type, start, end, text, score
    mentions: list[tuple[int, int | None, str, int, int, str, float | None]]
    values: list[tuple[int, str, str, float | None, str | None, str | None]]  # paragraph, type, value, number, name, key
    # paragraph, task, dataset, metric, value, number, model, ours, table, caption, header, split, setting, ablation
    results: list[tuple] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # the summary's stderr lines (PaperSummary.notes)
    # paragraph, value, number, reason, table, start, end
    not_results: list[tuple[int, str, float | None, str, str | None, int, int]] = field(default_factory=list)
    proposed: list[str] = field(default_factory=list)  # the names of the method(s) it proposes
    cells: list[tuple[int, str, int, int, int, str, str | None]] = field(default_factory=list)  # see table_cells
    metadata: PaperMetadata = field(default_factory=PaperMetadata)


def paper_rows(doc: str, paragraphs: Sequence[Paragraph], gazetteer: Gazetteer | None, model: str) -> PaperRows:
    """The rows of one tagged paper: its paragraphs, every mention, and what ``summarize``
    reads from it (entities under one name, values with their names, results)."""
    summary = summarize_paper(doc, paragraphs, gazetteer)
    entities: list[tuple[str, str, str, int, list[str]]] = []
    slot: dict[tuple[str, str], int] = {}
    at: dict[tuple[int, int, int], int] = {}
    for e in summary.entities:  # two groups whose names fold alike are one entity here
        key = (e.type, fold(e.name) or e.name)
        if key not in slot:
            slot[key] = len(entities)
            entities.append((e.type, e.name, key[1], 0, []))
        k = slot[key]
        kind, name, folded, count, surface = entities[k]
        entities[k] = (kind, name, folded, count + len(e.places), surface + [s for s in e.surface if s not in surface])
        for place in e.places:
            at[place] = k
    mentions = [(i, at.get((i, s.start, s.end)), s.label, s.start, s.end, mention_text(p, s) or p.tokens[s.start],
                 s.score) for i, p in enumerate(paragraphs) for s in p.spans or []]
    values = [(v.place[0], v.type, v.value, first_number(v.value), v.of, fold(v.of) if v.of else None)
              for v in summary.values]
    results = [(r.place[0], r.task, r.dataset, r.metric, r.value, first_number(r.value), r.model, r.ours, r.table,
                r.caption, r.header, r.split, r.setting, r.ablation) for r in (r.readable() for r in summary.results)]
    not_results = [(n.place[0], n.value, first_number(n.value), n.reason, n.table, n.place[1], n.place[2])
                   for n in summary.not_results]
    title = paper_title(paragraphs)
    return PaperRows(doc=doc, title=title, model=model,
                     tokens=sum(len(p.tokens) for p in paragraphs),
                     paragraphs=[(detokenize(p.tokens), p.meta.get("page"), p.meta.get("section"), p.meta.get("kind"))
                                 for p in paragraphs],
                     entities=entities, mentions=mentions, values=values, results=results, notes=summary.notes(),
                     not_results=not_results, proposed=list(summary.proposed), cells=table_cells(paragraphs),
                     metadata=paper_metadata(paragraphs))


def table_cells(paragraphs: Sequence[Paragraph]) -> list[tuple[int, str, int, int, int, str, str | None]]:
    """Each cell of each table row (paragraph, table, position in its row, first and last column,
    text, header): the header of a cell is the text of the cells over its columns in the rows
    above the table's first row holding a number, top to bottom, " > " between two (None: none)."""
    found = []
    for (_, label), rows in table_rows(paragraphs).items():
        first_data = next((k for k, row in enumerate(rows) if any(cell_numbers(c.text) for c in row)), len(rows))
        heads = [c for row in rows[:first_data] for c in row]
        for k, row in enumerate(rows):
            for position, cell in enumerate(row):
                over = [detokenize(h.text.split(" ")) for h in heads if h.first <= cell.first and cell.last <= h.last]
                found.append((cell.paragraph, label, position, cell.first, cell.last, detokenize(cell.text.split(" ")),
                              " > ".join(over) if over and k >= first_data else None))
    return sorted(found, key=lambda c: (c[0], c[2]))


def content_hash(path: str | Path) -> str:
    """The SHA-256 of a file's bytes."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def reading_options(from_format: str | None, tokenize: bool, include: Sequence[str]) -> str:
    """The reading options that change what is indexed of a file (``--from``, ``--tokenize``,
    ``--include``) in one canonical spelling, stored with it ("" when none is given)."""
    parts = ([f"from={from_format}"] if from_format else []) + (["tokenize"] if tokenize else []) \
        + ([f"include={','.join(sorted(include))}"] if include else [])
    return ";".join(parts)


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _key(name: str | None) -> str | None:
    return (fold(name) or name) if name else None


@dataclass(frozen=True)
class IndexedFile:
    """A file as the index holds it: its bytes' hash, its reading options, whether all its
    papers are in, and their names."""

    sha256: str
    options: str
    complete: bool
    docs: list[str]


@dataclass
class FileState:
    """A file as the index holds it: its row, and the papers of it already in."""

    id: int
    papers: set[str]
    replaced: int = 0  # papers of the file held under another content hash, removed to be read again
    old_results: int = 0  # the results those papers had


class IndexWriter:
    """The one writer of an index (see the module). Every method is one transaction."""

    def __init__(self, con: sqlite3.Connection, path: str | Path) -> None:
        self.con = con
        self.path = Path(path)

    def indexed(self, path: Path) -> IndexedFile | None:
        """How ``path`` is in the index (None: it is not)."""
        row = self.con.execute("SELECT sha256, options, complete FROM files WHERE path = ?", (str(path),)).fetchone()
        if row is None:
            return None
        docs = [d for (d,) in self.con.execute("SELECT p.doc FROM papers p JOIN files f ON f.id = p.file_id "
                                               "WHERE f.path = ? ORDER BY p.id", (str(path),))]
        return IndexedFile(row[0], row[1], bool(row[2]), docs)

    def same_content(self, path: Path, sha256: str, options: str) -> str | None:
        """Another indexed file, still there, wholly in with these bytes and reading options
        (``path`` is a copy of it: not to be indexed a second time), or None."""
        for (other,) in self.con.execute("SELECT path FROM files WHERE sha256 = ? AND options = ? AND path != ? "
                                         "AND complete = 1 ORDER BY id", (sha256, options, str(path))):
            if Path(other).exists():
                return str(other)
        return None

    def open_file(self, path: Path, sha256: str, options: str, size: int) -> FileState:
        """Start (or go on with) ``path``: a file indexed with other bytes or reading options
        loses its old papers first; one indexed in part keeps the papers already in."""
        with self._transaction():
            row = self.con.execute("SELECT id, sha256, options FROM files WHERE path = ?", (str(path),)).fetchone()
            replaced = old_results = 0
            if row is not None and (row[1], row[2]) != (sha256, options):
                replaced = self.con.execute("SELECT count(*) FROM papers WHERE file_id = ?", (row[0],)).fetchone()[0]
                old_results = self.results_of(int(row[0]))
                self.con.execute("DELETE FROM files WHERE id = ?", (row[0],))
                row = None
            if row is None:
                cur = self.con.execute("INSERT INTO files (path, sha256, options, bytes, complete, indexed_at) "
                                       "VALUES (?, ?, ?, ?, 0, ?)", (str(path), sha256, options, size, _now()))
                return FileState(int(cur.lastrowid), set(), replaced, old_results)  # type: ignore[arg-type]
            docs = {d for (d,) in self.con.execute("SELECT doc FROM papers WHERE file_id = ?", (row[0],))}
            return FileState(int(row[0]), docs)

    def results_of(self, file_id: int) -> int:
        """How many results the papers of the file ``file_id`` hold."""
        return self.con.execute("SELECT count(*) FROM results r JOIN papers p ON p.id = r.paper_id "
                                "WHERE p.file_id = ?", (file_id,)).fetchone()[0]

    def add_paper(self, file: FileState, rows: PaperRows) -> int:
        """Add one paper in one transaction; returns its id."""
        from sciner.version import __version__

        with self._transaction():
            cur = self.con.execute(
                "INSERT INTO papers (file_id, doc, title, sha256, sciner_version, model, paragraphs, tokens, indexed_at, "
                "authors, year, venue, arxiv_id, doi) SELECT ?, ?, ?, sha256, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? FROM files "
                "WHERE id = ?",
                (file.id, rows.doc, rows.title, __version__, rows.model, len(rows.paragraphs), rows.tokens, _now(),
                 *rows.metadata.columns(), file.id))
            paper = int(cur.lastrowid)  # type: ignore[arg-type]
            para_ids = self._insert_ids(
                "INSERT INTO paragraphs (paper_id, position, text, page, section, kind) VALUES (?, ?, ?, ?, ?, ?)",
                [(paper, i, *p) for i, p in enumerate(rows.paragraphs)])
            entity_ids = self._insert_ids(
                "INSERT INTO entities (paper_id, type, name, key, mentions, surface) VALUES (?, ?, ?, ?, ?, ?)",
                [(paper, t, n, k, m, json.dumps(s, ensure_ascii=False)) for t, n, k, m, s in rows.entities])
            self.con.executemany(
                'INSERT INTO mentions (paper_id, paragraph_id, entity_id, type, start, "end", text, score) '
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [(paper, para_ids[i], entity_ids[e] if e is not None else None, t, s, end, text, score)
                 for i, e, t, s, end, text, score in rows.mentions])
            self.con.executemany(
                "INSERT INTO value_pairs (paper_id, paragraph_id, type, value, number, name, key) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)", [(paper, para_ids[i], *rest) for i, *rest in rows.values])
            self.con.executemany(
                "INSERT INTO results (paper_id, paragraph_id, task, task_key, dataset, dataset_key, metric, metric_key, "
                "value, number, model, model_key, ours, lower_is_better, table_label, caption, header, split, setting, "
                "ablation, dataset_canon, metric_canon) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(paper, para_ids[i], task, _key(task), dataset, _key(dataset), metric, _key(metric), value, number,
                  model, _key(model), None if ours is None else int(ours), int(lower_is_better(metric)), table,
                  caption, header, split, setting, int(ablation), dataset_key(dataset), metric_key(metric))
                 for i, task, dataset, metric, value, number, model, ours, table, caption, header, split, setting,
                 ablation in rows.results])
            self.con.executemany(
                'INSERT INTO not_results (paper_id, paragraph_id, value, number, reason, table_label, start, "end") '
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)", [(paper, para_ids[i], *rest) for i, *rest in rows.not_results])
            self.con.executemany("INSERT INTO proposed (paper_id, name, key) VALUES (?, ?, ?)",
                                 [(paper, name, _key(name)) for name in rows.proposed])
            self.con.executemany(
                "INSERT INTO table_cells (paper_id, paragraph_id, table_label, position, first_column, last_column, "
                "text, header) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", [(paper, para_ids[i], *rest) for i, *rest in rows.cells])
        file.papers.add(rows.doc)
        return paper

    def _insert_ids(self, sql: str, rows: list[tuple]) -> list[int]:
        """Insert ``rows`` one by one; their new ids in order (executemany gives only the last)."""
        ids = []
        for row in rows:
            ids.append(int(self.con.execute(sql, row).lastrowid))  # type: ignore[arg-type]
        return ids

    def close_file(self, file: FileState) -> None:
        """Mark a file wholly in."""
        with self._transaction():
            self.con.execute("UPDATE files SET complete = 1, indexed_at = ? WHERE id = ?", (_now(), file.id))

    def prune(self, keep: set[Path] | None = None) -> list[str]:
        """Remove the papers of files that no longer exist (and are not in ``keep``); their paths."""
        gone = [(i, p) for i, p in self.con.execute("SELECT id, path FROM files")
                if not Path(p).exists() and (keep is None or Path(p) not in keep)]
        for file_id, _ in gone:
            with self._transaction():
                self.con.execute("DELETE FROM files WHERE id = ?", (file_id,))
        return [p for _, p in gone]

    def _transaction(self) -> "_Transaction":
        return _Transaction(self.con, self.path)


class _Transaction:
    """BEGIN IMMEDIATE ... COMMIT, rolled back on any error; SQLite's errors as one-line ones."""

    def __init__(self, con: sqlite3.Connection, path: Path) -> None:
        self.con, self.path = con, path

    def __enter__(self) -> None:
        try:
            self.con.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as err:
            raise as_error(err, self.path, "write") from None

    def __exit__(self, kind: object, err: BaseException | None, tb: object) -> None:
        if err is None:
            try:
                self.con.execute("COMMIT")
                return
            except sqlite3.Error as failed:
                err = failed
        if self.con.in_transaction:
            self.con.execute("ROLLBACK")
        if isinstance(err, sqlite3.Error):
            raise as_error(err, self.path, "write") from None
