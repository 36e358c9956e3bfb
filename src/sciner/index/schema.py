"""The corpus index's SQLite schema, its version, and opening a file as an index.

A sciner index is one SQLite file marked as ours (``PRAGMA application_id``) with the schema
version in ``PRAGMA user_version``. Opening it checks both: another SQLite file, or a file that
is no database, is refused in one line; an older schema is upgraded step by step
(:data:`UPGRADES`) inside one transaction, a newer one refused. docs/index.md writes the
schema down for readers in other languages (pandas, DuckDB, Datasette).
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from pathlib import Path

from sciner.errors import FileSystemError, InputFormatError

# "SCNR": tells a sciner index from any other SQLite file.
APPLICATION_ID = 0x53434E52
SCHEMA_VERSION = 4
# Seconds a writer or reader waits for another process's lock before the one-line error.
BUSY_TIMEOUT_S = 5.0

# The columns version 2 added to results (also made by the upgrade from version 1).
_RESULT_COLUMNS = (
    "table_label TEXT",                  # the table it was read off ("table 2"), NULL for a sentence
    "caption TEXT",                      # that table's caption, cut short
    "header TEXT",                       # the heads over its column, top to bottom ("WMT14 En-De > BLEU")
    "split TEXT",                        # 'test', 'dev' or 'validation' where the paper says; NULL: not said
    "setting TEXT",                      # '5-shot', a settings column's value, where the paper says
    "ablation INTEGER NOT NULL DEFAULT 0",  # 1: a row varying the paper's own method ("w/o X")
    "dataset_canon TEXT",                # the dataset's canonical key (sciner.summary.canonical.dataset_key)
    "metric_canon TEXT",                 # the metric's canonical key (metric_key)
)

# The columns version 3 added to files and papers (also made by the upgrade from version 2).
_FILE_COLUMNS = (
    "options TEXT NOT NULL DEFAULT ''",  # the reading options it was indexed with (write.reading_options; '': none)
)
_PAPER_COLUMNS = (
    "authors TEXT",                      # as the first page lists them, "; " between two; NULL: not found
    "year INTEGER",                      # the year of the version read (its arXiv id, venue or copyright line)
    "venue TEXT",                        # "ICLR 2020", "Proceedings of ACL 2019", ...
    "arxiv_id TEXT",                     # "1810.04805v2"
    "doi TEXT",                          # "10.18653/v1/N19-1423"
)

_SPELLING = ("SELECT e.name FROM entities e WHERE e.type = names.type AND e.key = names.key "
             "GROUP BY e.name ORDER BY count(*) DESC, sum(e.mentions) DESC, e.name LIMIT 1")
# names keeps, for each (type, key), how many papers and mentions use it and the spelling the
# most papers use (ties: the most mentions, then the smallest in code-point order), whichever
# paper came first.
_NAME_TRIGGERS = """CREATE TRIGGER entities_ai AFTER INSERT ON entities BEGIN
  INSERT INTO names (type, key, name, papers, mentions) VALUES (new.type, new.key, new.name, 1, new.mentions)
  ON CONFLICT (type, key) DO UPDATE SET papers = papers + 1, mentions = mentions + excluded.mentions;
  UPDATE names SET name = (SPELLING) WHERE type = new.type AND key = new.key;
END;
CREATE TRIGGER entities_ad AFTER DELETE ON entities BEGIN
  UPDATE names SET papers = papers - 1, mentions = mentions - old.mentions WHERE type = old.type AND key = old.key;
  DELETE FROM names WHERE type = old.type AND key = old.key AND papers <= 0;
  UPDATE names SET name = (SPELLING) WHERE type = old.type AND key = old.key;
END;""".replace("SPELLING", _SPELLING)

# The tables version 3 added (also made by the upgrade from version 2).
_NEW_TABLES = """CREATE TABLE not_results (            -- per paper: numbers read as no result, and why
  id INTEGER PRIMARY KEY,
  paper_id INTEGER NOT NULL REFERENCES papers(id) ON DELETE CASCADE,
  paragraph_id INTEGER NOT NULL REFERENCES paragraphs(id) ON DELETE CASCADE,
  value TEXT NOT NULL, number REAL,
  reason TEXT NOT NULL,                -- 'difference', 'deviation', 'count', 'setting', 'no metric', ... (values.NotResult)
  table_label TEXT,                    -- the table it is in, NULL for a sentence
  start INTEGER NOT NULL, "end" INTEGER NOT NULL  -- token range in the paragraph, end exclusive
);
CREATE INDEX not_results_paper ON not_results (paper_id);
CREATE INDEX not_results_paragraph ON not_results (paragraph_id);
CREATE TABLE proposed (               -- per paper: the names of the method(s) it proposes
  id INTEGER PRIMARY KEY,
  paper_id INTEGER NOT NULL REFERENCES papers(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  key TEXT NOT NULL                    -- the name folded
);
CREATE INDEX proposed_paper ON proposed (paper_id);
CREATE INDEX proposed_key ON proposed (key);
CREATE TABLE table_cells (            -- per table row (a paragraph of kind 'table'): its cells
  id INTEGER PRIMARY KEY,
  paper_id INTEGER NOT NULL REFERENCES papers(id) ON DELETE CASCADE,
  paragraph_id INTEGER NOT NULL REFERENCES paragraphs(id) ON DELETE CASCADE,
  table_label TEXT NOT NULL,           -- 'table 2'
  position INTEGER NOT NULL,           -- 0, 1, ... left to right in its row
  first_column INTEGER NOT NULL, last_column INTEGER NOT NULL,
  text TEXT NOT NULL,
  header TEXT                          -- the heads over its column, top to bottom ("WMT14 En-De > BLEU"); NULL: none
);
CREATE INDEX table_cells_paper ON table_cells (paper_id);
CREATE INDEX table_cells_paragraph ON table_cells (paragraph_id, position);
"""


def _columns(columns: tuple[str, ...]) -> str:
    return ",\n".join(f"  {c}" for c in columns)


SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE files (
  id INTEGER PRIMARY KEY,
  path TEXT NOT NULL UNIQUE,           -- absolute path of the input file
  sha256 TEXT NOT NULL,                -- the SHA-256 of its bytes when indexed
  bytes INTEGER NOT NULL,
  complete INTEGER NOT NULL DEFAULT 0, -- 1 once every paper of the file is in
  indexed_at TEXT NOT NULL,
FILE_COLUMNS
);
CREATE TABLE papers (
  id INTEGER PRIMARY KEY,
  file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
  doc TEXT NOT NULL,                   -- the paper's name, as summarize names it
  title TEXT,
  sha256 TEXT NOT NULL,                -- the file's content hash
  sciner_version TEXT NOT NULL,
  model TEXT NOT NULL,                 -- the model that tagged it, or 'input' (tags read from the file)
  paragraphs INTEGER NOT NULL,
  tokens INTEGER NOT NULL,
  indexed_at TEXT NOT NULL,
PAPER_COLUMNS,
  UNIQUE (file_id, doc)
);
CREATE TABLE paragraphs (
  id INTEGER PRIMARY KEY,
  paper_id INTEGER NOT NULL REFERENCES papers(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,           -- 0, 1, ... in reading order
  text TEXT NOT NULL,                  -- readable text (tokens joined as written: sciner.tokenize.detokenize)
  page INTEGER, section TEXT, kind TEXT
);
CREATE INDEX paragraphs_paper ON paragraphs (paper_id, position);
CREATE VIRTUAL TABLE paragraphs_fts USING fts5 (text, content='paragraphs', content_rowid='id');
CREATE TRIGGER paragraphs_ai AFTER INSERT ON paragraphs BEGIN
  INSERT INTO paragraphs_fts (rowid, text) VALUES (new.id, new.text);
END;
CREATE TRIGGER paragraphs_ad AFTER DELETE ON paragraphs BEGIN
  INSERT INTO paragraphs_fts (paragraphs_fts, rowid, text) VALUES ('delete', old.id, old.text);
END;
CREATE TABLE entities (               -- per paper: one row per (paper, type, folded name)
  id INTEGER PRIMARY KEY,
  paper_id INTEGER NOT NULL REFERENCES papers(id) ON DELETE CASCADE,
  type TEXT NOT NULL,
  name TEXT NOT NULL,                  -- summarize's one name for it in this paper
  key TEXT NOT NULL,                   -- the name folded (sciner.summary.names.fold)
  mentions INTEGER NOT NULL,
  surface TEXT NOT NULL                -- JSON list of the spellings the paper uses
);
CREATE INDEX entities_key ON entities (key, type, mentions);
CREATE INDEX entities_paper ON entities (paper_id);
CREATE TABLE names (                   -- corpus-wide: one row per (type, folded name)
  id INTEGER PRIMARY KEY,
  type TEXT NOT NULL,
  key TEXT NOT NULL,
  name TEXT NOT NULL,                  -- the spelling most papers use (ties: most mentions, then smallest)
  papers INTEGER NOT NULL,
  mentions INTEGER NOT NULL,
  UNIQUE (type, key)
);
CREATE INDEX names_rank ON names (type, papers DESC, mentions DESC);
NAME_TRIGGERS
CREATE TABLE mentions (
  id INTEGER PRIMARY KEY,
  paper_id INTEGER NOT NULL REFERENCES papers(id) ON DELETE CASCADE,
  paragraph_id INTEGER NOT NULL REFERENCES paragraphs(id) ON DELETE CASCADE,
  entity_id INTEGER REFERENCES entities(id) ON DELETE CASCADE,  -- the entity it names (NULL for values and non-names)
  type TEXT NOT NULL,
  start INTEGER NOT NULL, "end" INTEGER NOT NULL,  -- token range in the paragraph, end exclusive
  text TEXT NOT NULL,
  score REAL
);
CREATE INDEX mentions_paper ON mentions (paper_id);
CREATE INDEX mentions_entity ON mentions (entity_id);
CREATE INDEX mentions_paragraph ON mentions (paragraph_id);
CREATE TABLE value_pairs (
  id INTEGER PRIMARY KEY,
  paper_id INTEGER NOT NULL REFERENCES papers(id) ON DELETE CASCADE,
  paragraph_id INTEGER NOT NULL REFERENCES paragraphs(id) ON DELETE CASCADE,
  type TEXT NOT NULL,                  -- HyperparameterValue or MetricValue
  value TEXT NOT NULL,
  number REAL,                         -- the value's first number, NULL when it has none
  name TEXT,                           -- the name it belongs to, NULL when none was found
  key TEXT                             -- that name folded
);
CREATE INDEX value_pairs_key ON value_pairs (key, type);
CREATE INDEX value_pairs_paper ON value_pairs (paper_id);
CREATE INDEX value_pairs_paragraph ON value_pairs (paragraph_id);
CREATE TABLE results (
  id INTEGER PRIMARY KEY,
  paper_id INTEGER NOT NULL REFERENCES papers(id) ON DELETE CASCADE,
  paragraph_id INTEGER NOT NULL REFERENCES paragraphs(id) ON DELETE CASCADE,
  task TEXT, task_key TEXT,
  dataset TEXT, dataset_key TEXT,
  metric TEXT, metric_key TEXT,
  value TEXT NOT NULL, number REAL,
  model TEXT, model_key TEXT,
  ours INTEGER,                        -- 1: the paper's own method, 0: another's (the paper cites it), NULL: not said
  lower_is_better INTEGER NOT NULL DEFAULT 0,
RESULT_COLUMNS
);
CREATE INDEX results_dataset ON results (dataset_key, metric_key);
CREATE INDEX results_canonical ON results (dataset_canon, metric_canon);
CREATE INDEX results_metric ON results (metric_key);
CREATE INDEX results_task ON results (task_key);
CREATE INDEX results_paper ON results (paper_id);
CREATE INDEX results_paragraph ON results (paragraph_id);
NEW_TABLES""".replace("RESULT_COLUMNS", _columns(_RESULT_COLUMNS)).replace("FILE_COLUMNS", _columns(_FILE_COLUMNS)) \
    .replace("PAPER_COLUMNS", _columns(_PAPER_COLUMNS)).replace("NAME_TRIGGERS", _NAME_TRIGGERS) \
    .replace("NEW_TABLES", _NEW_TABLES)



def _add_provenance(con: sqlite3.Connection) -> None:
    """Version 1 -> 2: results gain where they came from (their table, caption, column header,
    split, setting, whether an ablation: NULL and 0 in rows indexed before, until their papers
    are indexed again) and the canonical dataset and metric keys, computed from the stored names."""
    from sciner.summary.canonical import dataset_key, metric_key

    for column in _RESULT_COLUMNS:
        con.execute(f"ALTER TABLE results ADD COLUMN {column}")
    con.create_function("sciner_dataset_key", 1, dataset_key, deterministic=True)
    con.create_function("sciner_metric_key", 1, metric_key, deterministic=True)
    con.execute("UPDATE results SET dataset_canon = sciner_dataset_key(dataset), metric_canon = sciner_metric_key(metric)")
    con.execute("CREATE INDEX results_canonical ON results (dataset_canon, metric_canon)")


def _add_paper_records(con: sqlite3.Connection) -> None:
    """Version 2 -> 3: files gain their reading options ('': a version-2 hash mixed any options
    given into the file's, so a file read with some no longer matches and is read again), papers their
    metadata (NULL until indexed again); the tables not_results, proposed and table_cells (empty
    until then); mentions, value_pairs and results declare their paragraph a foreign key (the
    tables remade, rows kept); names spell each name as most papers do; paragraphs and titles
    are made readable (:func:`sciner.tokenize.detokenize` of their tokens), the full text
    rebuilt."""
    from sciner.tokenize import detokenize

    for table, columns in (("files", _FILE_COLUMNS), ("papers", _PAPER_COLUMNS)):
        for column in columns:
            con.execute(f"ALTER TABLE {table} ADD COLUMN {column}")
    for table in ("mentions", "value_pairs", "results"):
        _remake(con, table)
    for statement in statements(_NEW_TABLES):
        con.execute(statement)
    con.execute("DROP TRIGGER entities_ai")
    con.execute("DROP TRIGGER entities_ad")
    for statement in statements(_NAME_TRIGGERS):
        con.execute(statement)
    con.execute(f"UPDATE names SET name = ({_SPELLING})")
    con.create_function("sciner_detokenize", 1, lambda text: detokenize(text.split(" ")), deterministic=True)
    con.execute("UPDATE papers SET title = sciner_detokenize(title) WHERE title IS NOT NULL")
    con.execute("DROP TRIGGER paragraphs_ad")  # the full text is rebuilt below, from the new text
    con.execute("UPDATE paragraphs SET text = sciner_detokenize(text)")
    con.execute("INSERT INTO paragraphs_fts (paragraphs_fts) VALUES ('rebuild')")
    con.execute(next(s for s in statements(SCHEMA) if s.startswith("CREATE TRIGGER paragraphs_ad")))


def _remake(con: sqlite3.Connection, table: str) -> None:
    """Remake ``table`` as :data:`SCHEMA` declares it now (SQLite adds no constraint to a
    table in place), its rows and ids kept, its indexes made again."""
    ours = [s for s in statements(SCHEMA) if s.startswith((f"CREATE TABLE {table} (", f"CREATE INDEX {table}_"))]
    columns = ", ".join(f'"{row[1]}"' for row in con.execute(f"PRAGMA table_info({table})"))
    con.execute(ours[0].replace(f"CREATE TABLE {table} (", f"CREATE TABLE {table}_new (", 1))
    con.execute(f"INSERT INTO {table}_new ({columns}) SELECT {columns} FROM {table}")
    con.execute(f"DROP TABLE {table}")
    con.execute(f"ALTER TABLE {table}_new RENAME TO {table}")
    for statement in ours[1:]:
        con.execute(statement)


def _ours_three_ways(con: sqlite3.Connection) -> None:
    """Version 3 -> 4: a result's ``ours`` says another's (0) only where the paper cites it, and
    NULL where the paper does not say (the column made nullable, the table remade, rows kept):
    a version-3 0 said only "not marked the paper's own", so it becomes NULL until its paper is
    indexed again."""
    _remake(con, "results")
    con.execute("UPDATE results SET ours = NULL WHERE ours = 0")


# schema version n -> the function that upgrades a version-n file to n + 1. A file older than
# the oldest step is refused: index its papers again.
UPGRADES: dict[int, Callable[[sqlite3.Connection], None]] = {1: _add_provenance, 2: _add_paper_records,
                                                             3: _ours_three_ways}


def connect(path: str | Path, *, create: bool = False, readonly: bool = False) -> sqlite3.Connection:
    """An open sciner index at ``path``: created when ``create`` and it is missing or empty,
    upgraded when older, else :class:`InputFormatError` (not an index, too new) or
    :class:`FileSystemError` (cannot open, locked)."""
    path = Path(path)
    if not path.exists() and not create:
        from sciner.errors import InputNotFoundError

        raise InputNotFoundError(f"{path}: no such index (make one with: sciner index PAPERS... -o {path})")
    if path.is_dir():
        raise InputFormatError(f"{path}: is a directory, not a sciner index")
    try:
        if readonly:
            con = _open_readonly(path)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            con = sqlite3.connect(path, timeout=BUSY_TIMEOUT_S, isolation_level=None)
    except sqlite3.Error as err:
        raise FileSystemError(f"{path}: cannot open ({err})") from None
    try:
        _check(con, path, create=create and not readonly, writable=not readonly)
    except BaseException:
        con.close()
        raise
    return con


def _open_readonly(path: Path) -> sqlite3.Connection:
    """``path`` opened read-only. An index at rest is in rollback-journal mode (:func:`settle`) and
    reads from anywhere; one left in WAL mode needs its ``-shm`` and ``-wal`` beside it, which a
    folder the reader cannot write does not let SQLite make: then, when the ``-wal`` holds
    nothing (no writer is at work and no write is missing from the file), the file is read as
    immutable, without them."""
    uri = path.resolve().as_uri()
    con = sqlite3.connect(f"{uri}?mode=ro", uri=True, timeout=BUSY_TIMEOUT_S, check_same_thread=False)
    try:
        con.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return con
    except sqlite3.DatabaseError as err:
        if getattr(err, "sqlite_errorname", "") not in ("SQLITE_CANTOPEN", "SQLITE_READONLY"):
            return con  # no database, or locked: _check says which in one line
        con.close()
        wal = path.with_name(path.name + "-wal")
        if wal.is_file() and wal.stat().st_size:
            raise FileSystemError(f"{path}: cannot be read here: its folder is read-only and its last writes are "
                                  f"still in {wal.name}; run sciner index on it once where it is writable") from None
    return sqlite3.connect(f"{uri}?mode=ro&immutable=1", uri=True, check_same_thread=False)


def settle(con: sqlite3.Connection) -> None:
    """Leave the index in rollback-journal mode at the end of a run: its writes moved from the
    ``-wal`` into the file, no ``-wal`` or ``-shm`` left, so that a reader needs nothing beside
    it (a read-only folder or mount, a copy of the one file). Where a reader holds the file at
    that moment, it stays in WAL mode, as readable, and the next run tries again."""
    try:
        con.execute("PRAGMA busy_timeout = 0")
        con.execute("PRAGMA journal_mode = DELETE")
    except sqlite3.OperationalError:
        pass


def _check(con: sqlite3.Connection, path: Path, *, create: bool, writable: bool) -> None:
    try:
        app_id = con.execute("PRAGMA application_id").fetchone()[0]
        version = con.execute("PRAGMA user_version").fetchone()[0]
        tables = con.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
    except sqlite3.DatabaseError as err:
        raise as_error(err, path, "read") from None
    if app_id != APPLICATION_ID:
        if tables == 0 and app_id == 0 and version == 0 and create:
            if _create(con, path):
                return
            _check(con, path, create=False, writable=writable)  # another run made it meanwhile
            return
        what = "an SQLite database of another program" if tables or version else "an empty SQLite database"
        mark = f", user_version {version}" if version else ""
        raise InputFormatError(f"{path}: not a sciner index ({what}{mark})")
    if version > SCHEMA_VERSION:
        raise InputFormatError(f"{path}: index schema {version} is newer than this sciner's ({SCHEMA_VERSION}); "
                               "upgrade sciner to read it")
    if version < SCHEMA_VERSION:
        _upgrade(con, path, version, writable)
    con.execute("PRAGMA foreign_keys = ON")


def _create(con: sqlite3.Connection, path: Path) -> bool:
    """Make the empty database ``path`` an index, in one transaction that first looks again
    (another run may have made it meanwhile: then False, nothing done); no reader sees it half made."""
    from sciner.version import __version__

    try:
        con.execute("BEGIN IMMEDIATE")
        if con.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] or \
                con.execute("PRAGMA application_id").fetchone()[0]:
            con.execute("ROLLBACK")
            return False
        for statement in statements(f"{SCHEMA}\nPRAGMA application_id = {APPLICATION_ID};\n"
                                    f"PRAGMA user_version = {SCHEMA_VERSION};"):
            con.execute(statement)  # one by one: executescript would commit the transaction first
        con.execute("INSERT INTO meta VALUES ('created_by', ?)", (f"sciner {__version__}",))
        con.execute("COMMIT")
    except sqlite3.Error as err:
        if con.in_transaction:
            con.execute("ROLLBACK")
        raise as_error(err, path, "create") from None
    con.execute("PRAGMA foreign_keys = ON")
    return True


def statements(script: str) -> list[str]:
    """The SQL statements of ``script``, one per item (a trigger's body stays in its statement)."""
    found, pending = [], ""
    for line in script.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            found.append(pending.strip())
            pending = ""
    return found + ([pending.strip()] if pending.strip() else [])


def hold(con: sqlite3.Connection, path: Path) -> int:
    """Make ``con`` the one writing run of the index ``path``: a descriptor holding the run's
    lock (released when closed, or when the process ends, even by ``kill -9``), the file in WAL
    mode so that readers go on while it writes; or :class:`FileSystemError` when another
    ``sciner index`` run holds it, the file left as it was."""
    fd = os.open(path, os.O_RDONLY)
    try:
        import fcntl

        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except ImportError:  # pragma: no cover (Windows: SQLite's own locks only)
        pass
    except OSError:
        os.close(fd)
        raise FileSystemError(f"{path}: another sciner index run is writing this index; "
                              "run again when it is done") from None
    try:
        con.execute("PRAGMA journal_mode = WAL")
    except sqlite3.Error as err:
        os.close(fd)
        raise as_error(err, path, "open") from None
    return fd


def _upgrade(con: sqlite3.Connection, path: Path, version: int, writable: bool) -> None:
    """Upgrade a version-``version`` index to :data:`SCHEMA_VERSION` in one transaction, or refuse."""
    if any(v not in UPGRADES for v in range(version, SCHEMA_VERSION)):
        raise InputFormatError(f"{path}: index schema {version} is too old for this sciner ({SCHEMA_VERSION}) "
                               "and cannot be upgraded; index the papers again into a new file")
    if not writable:
        raise InputFormatError(f"{path}: index schema {version} is older than this sciner's ({SCHEMA_VERSION}); "
                               f"upgrade it by running sciner index on it once")
    try:
        con.execute("BEGIN IMMEDIATE")
        for v in range(version, SCHEMA_VERSION):
            UPGRADES[v](con)
        con.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        con.execute("COMMIT")
    except sqlite3.Error as err:
        con.execute("ROLLBACK")
        raise as_error(err, path, "upgrade") from None


def as_error(err: sqlite3.Error, path: str | Path, doing: str) -> InputFormatError | FileSystemError:
    """The one-line error of an SQLite failure on the index ``path``."""
    text = str(err)
    if "file is not a database" in text or "malformed" in text:
        return InputFormatError(f"{path}: not a sciner index (not an SQLite database)")
    if "locked" in text or "busy" in text:
        return FileSystemError(f"{path}: the index is locked by another process (waited {BUSY_TIMEOUT_S:g} s); "
                               "try again when it is done")
    if "full" in text:
        return FileSystemError(f"{path}: disk full while writing the index; nothing of the paper being written "
                               "was kept; free space and run again")
    if "readonly" in text:
        return FileSystemError(f"{path}: the index is read-only here ({text})")
    return FileSystemError(f"{path}: cannot {doing} the index ({text})")
