"""Index files as older sciner versions wrote them, made from a current one, for the upgrade tests."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from sciner.tokenize import tokenize


def as_schema_3(path: Path) -> None:
    """Make the index ``path`` what schema 3 wrote: ``results.ours`` NOT NULL, 0 for every result
    not marked the paper's own, user_version 3."""
    con = sqlite3.connect(path, isolation_level=None)
    con.execute("UPDATE results SET ours = 0 WHERE ours IS NULL")
    con.execute("PRAGMA writable_schema = ON")
    con.execute("UPDATE sqlite_master SET sql = replace(sql, ' ours INTEGER,', ' ours INTEGER NOT NULL DEFAULT 0,') "
                "WHERE name = 'results'")
    con.execute("PRAGMA writable_schema = OFF")
    con.execute("PRAGMA user_version = 3")
    con.close()


def as_schema_2(path: Path) -> None:
    """Make the index ``path`` what schema 2 wrote: no table, column, foreign key or index that
    version 3 added, text as tokens joined by spaces, user_version 2."""
    as_schema_3(path)
    con = sqlite3.connect(path, isolation_level=None)
    for table in ("not_results", "proposed", "table_cells"):
        con.execute(f"DROP TABLE {table}")
    for name in ("mentions_paragraph", "value_pairs_paragraph", "results_paragraph"):
        con.execute(f"DROP INDEX {name}")
    for column in ("authors", "year", "venue", "arxiv_id", "doi"):
        con.execute(f"ALTER TABLE papers DROP COLUMN {column}")
    con.execute("ALTER TABLE files DROP COLUMN options")
    rows = con.execute("SELECT id, text FROM paragraphs").fetchall()
    con.execute("DROP TRIGGER paragraphs_ad")
    con.executemany("UPDATE paragraphs SET text = ? WHERE id = ?", [(" ".join(tokenize(t)), i) for i, t in rows])
    con.execute("UPDATE papers SET title = 'Co - guiding Net : a title'")
    con.execute("INSERT INTO paragraphs_fts (paragraphs_fts) VALUES ('rebuild')")
    con.execute("PRAGMA writable_schema = ON")
    con.execute("UPDATE sqlite_master SET sql = replace(replace(sql, ' REFERENCES paragraphs(id) ON DELETE CASCADE', ''), "
                "' REFERENCES entities(id) ON DELETE CASCADE', '') WHERE name IN ('mentions', 'value_pairs', 'results')")
    con.execute("PRAGMA writable_schema = OFF")
    con.execute("PRAGMA user_version = 2")
    con.close()
    con = sqlite3.connect(path, isolation_level=None)
    con.execute("CREATE TRIGGER paragraphs_ad AFTER DELETE ON paragraphs BEGIN "
                "INSERT INTO paragraphs_fts (paragraphs_fts, rowid, text) VALUES ('delete', old.id, old.text); END")
    assert con.execute("PRAGMA foreign_key_list(results)").fetchall()[0][2] == "papers"
    con.close()
