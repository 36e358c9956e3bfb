"""sciner query and sciner.Index as a newcomer tries them (issue 48): no query writes anything
anywhere, an index answers from a folder it cannot write, and every wrong question is one line
with its own code."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import sqlite3
import threading
import time
from pathlib import Path

import pytest

import sciner
from sciner.errors import QueryError, ReadOnlyQueryError

from helpers.papers import write_corpus

HUGE = 10**23


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    db = tmp_path / "index" / "corpus.sqlite"
    done = sciner.index_files([write_corpus(tmp_path / "papers")], db, show_progress=False, gazetteers=False)
    assert (done.added, done.failed) == (3, [])
    return db


@pytest.mark.parametrize("sql", ["ATTACH DATABASE '{out}' AS a", "VACUUM INTO '{out}'", "VACUUM",
                                 "ATTACH 'file:{out}?mode=rwc' AS w", "PRAGMA query_only = 0",
                                 "PRAGMA journal_mode = DELETE", "CREATE TEMP TABLE t (x)", "DELETE FROM papers"])
def test_no_query_writes_anything_anywhere_and_a_refusal_is_one_line_e013(cli, corpus: Path, tmp_path: Path,
                                                                         sql: str) -> None:
    out = tmp_path / "elsewhere.sqlite"
    before = sorted(p.name for p in corpus.parent.iterdir())
    run = cli("query", corpus, "--sql", sql.format(out=out))
    assert (run.returncode, run.stderr.count("\n")) == (15, 1) and run.stderr.startswith("error[E013]: --sql: refused")
    assert not out.exists()
    assert sorted(p.name for p in corpus.parent.iterdir()) == before
    with sciner.Index(corpus) as ix:
        assert ix.stats()["papers"] == 3


def test_python_cannot_turn_query_only_off_and_write_another_file(corpus: Path, tmp_path: Path) -> None:
    out = tmp_path / "w.sqlite"
    with sciner.Index(corpus) as ix:
        with pytest.raises(ReadOnlyQueryError, match="query_only"):
            ix.sql("PRAGMA query_only = 0")
        with pytest.raises(ReadOnlyQueryError, match="another database file"):
            ix.sql(f"ATTACH 'file:{out}?mode=rwc' AS w")
        with pytest.raises(QueryError, match="unknown database w"):
            ix.sql("CREATE TABLE w.t (x)")
        # reading the schema stays allowed, pragmas and their table functions alike
        assert ix.sql("PRAGMA table_info(papers)").rows[0][1] == "id"
        assert ix.sql("SELECT name FROM pragma_table_info('papers') LIMIT 1").rows == [("id",)]
        assert ix.sql("PRAGMA query_only").rows == [(1,)]
    assert not out.exists()


def test_sql_that_sqlite_cannot_run_is_e012_not_e001(cli, corpus: Path) -> None:
    run = cli("query", corpus, "--sql", "SELEC doc FROM papers")
    assert (run.returncode, run.stderr) == (14, 'error[E012]: --sql: near "SELEC": syntax error\n')
    with sciner.Index(corpus) as ix, pytest.raises(QueryError, match="no such table: nowhere"):
        ix.sql("SELECT * FROM nowhere")


def test_an_index_at_rest_is_one_file_in_rollback_mode_and_a_query_leaves_nothing_beside_it(corpus: Path) -> None:
    # WAL while a run writes (readers go on); the rollback journal once it is done: a reader
    # needs no -shm, so a folder or mount it cannot write reads too
    assert sorted(p.name for p in corpus.parent.iterdir()) == ["corpus.sqlite"]
    with sqlite3.connect(corpus) as con:
        assert con.execute("PRAGMA journal_mode").fetchone() == ("delete",)
    with sciner.Index(corpus) as ix:
        assert ix.stats()["papers"] == 3
    assert sorted(p.name for p in corpus.parent.iterdir()) == ["corpus.sqlite"]


def test_an_index_left_in_wal_mode_answers_where_its_wal_and_shm_cannot_be_made(cli, corpus: Path) -> None:
    # root writes any folder, so a folder SQLite cannot write its -wal and -shm into is made
    # another way: directories of their names stand where the files would be created
    with sqlite3.connect(corpus) as con:
        con.execute("PRAGMA journal_mode = WAL")
    con.close()
    for tail in ("-wal", "-shm"):
        (corpus.parent / (corpus.name + tail)).mkdir()
    run = cli("query", corpus, "entities", "--top", "2")
    assert (run.returncode, run.stderr) == (0, "") and run.stdout.splitlines()[3].startswith("DatasetName  SQuAD")
    with sciner.Index(corpus) as ix:
        assert ix.stats()["papers"] == 3


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes a folder whatever its mode")
def test_an_index_answers_from_a_folder_the_user_cannot_write(cli, corpus: Path) -> None:
    corpus.parent.chmod(0o555)
    try:
        run = cli("query", corpus, "entities", "--top", "2")
    finally:
        corpus.parent.chmod(0o755)
    assert (run.returncode, run.stderr) == (0, "")


@pytest.mark.parametrize("args", [("results", "--limit", str(HUGE)), ("entities", "--top", str(HUGE)),
                                  ("papers", "--entity", "BERT", "-n", str(HUGE)),
                                  ("--sql", "SELECT 1", "-n", "9999999999"),
                                  ("values", "--of", "learning rate", "-n", str(HUGE)),
                                  ("leaderboards", "--min-papers", str(HUGE))])
def test_a_huge_row_count_answers_every_row_instead_of_a_traceback(cli, corpus: Path, args: tuple[str, ...]) -> None:
    run = cli("query", corpus, *args)
    assert (run.returncode, run.stderr) == (0, "")


def test_a_huge_paragraph_id_is_not_found_and_a_row_count_below_one_is_refused(cli, corpus: Path) -> None:
    with sciner.Index(corpus) as ix:
        assert ix.paragraph(HUGE) is None and ix.paragraph(-HUGE) is None
        assert len(ix.results(limit=HUGE)) == len(ix.results(limit=1000))
        for ask in (lambda: ix.results(limit=-5), lambda: ix.entities(top=0), lambda: ix.sql("SELECT 1", limit=-1),
                    lambda: ix.search("BERT", limit=0)):
            with pytest.raises(QueryError, match="at least 1"):
                ask()
    run = cli("query", corpus, "paragraph", str(HUGE))
    assert run.returncode != 0 and run.stderr.count("\n") == 1 and "Traceback" not in run.stderr


@pytest.mark.parametrize(("text", "papers"), [("*", []), ('"', []), ('"unbalanced', []),
                                              ("* BERT", ["alpha", "alpha", "alpha", "gamma"]),
                                              ("F1:", ["alpha", "alpha", "beta", "gamma"])])
def test_search_text_that_is_no_fts5_query_is_searched_as_its_words(cli, corpus: Path, text: str,
                                                                    papers: list[str]) -> None:
    with sciner.Index(corpus) as ix:
        assert sorted(h.paper for h in ix.search(text)) == papers
    run = cli("query", corpus, "search", text)
    assert (run.returncode, run.stderr) == (0, "")


def test_a_second_index_run_on_a_file_another_run_writes_is_told_so_in_one_line(cli, corpus: Path,
                                                                                tmp_path: Path) -> None:
    import fcntl

    before = corpus.read_bytes()
    other = os.open(corpus, os.O_RDONLY)  # the lock a running `sciner index` holds on its index
    fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)
    try:
        run = cli("index", tmp_path / "papers", "-o", corpus, "--no-gazetteers", "-q")
    finally:
        os.close(other)
    assert (run.returncode, run.stderr) == (
        12, f"error[E010]: {corpus}: another sciner index run is writing this index; run again when it is done\n")
    assert corpus.read_bytes() == before
    assert cli("index", tmp_path / "papers", "-o", corpus, "--no-gazetteers", "-q").returncode == 0


def test_a_run_that_finds_the_index_made_by_another_meanwhile_opens_it_instead_of_making_it_again(
        tmp_path: Path) -> None:
    from sciner.index import schema

    template = schema.connect(tmp_path / "template.sqlite", create=True)
    made = [sql for (sql,) in template.execute("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL "
                                               "AND name NOT LIKE 'paragraphs_fts_%' ORDER BY rowid")]
    template.close()
    db = tmp_path / "new.sqlite"
    other = sqlite3.connect(db, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # the other run is making the schema
    opened: list[object] = []
    thread = threading.Thread(target=lambda: opened.append(_connect_or_error(db)))
    thread.start()
    time.sleep(0.5)  # this run has seen an empty file and waits to make it an index
    for statement in (*made, f"PRAGMA application_id = {schema.APPLICATION_ID}",
                      f"PRAGMA user_version = {schema.SCHEMA_VERSION}"):
        other.execute(statement)
    other.execute("INSERT INTO meta VALUES ('created_by', 'the other run')")
    other.execute("COMMIT")
    other.close()
    thread.join()
    assert opened == [[("the other run",)]]


def _connect_or_error(db: Path) -> object:
    """The meta rows of the index ``db`` opened (made if empty), or the error opening it."""
    from sciner.index import schema

    try:
        con = schema.connect(db, create=True)
    except Exception as err:  # the test shows what it was
        return err
    try:
        return con.execute("SELECT value FROM meta").fetchall()
    finally:
        con.close()


def test_an_empty_sqlite_file_with_a_user_version_is_not_made_an_index(cli, tmp_path: Path) -> None:
    db = tmp_path / "theirs.sqlite"
    with sqlite3.connect(db) as con:
        con.execute("PRAGMA user_version = 7")
    con.close()
    before = db.read_bytes()
    run = cli("index", write_corpus(tmp_path / "papers"), "-o", db, "--no-gazetteers", "-q")
    assert (run.returncode, run.stderr) == (
        3, f"error[E001]: {db}: not a sciner index (an SQLite database of another program, user_version 7)\n")
    assert db.read_bytes() == before


def test_a_table_keeps_its_last_column_whole_so_a_snippet_s_match_is_never_cut(cli, corpus: Path) -> None:
    with sciner.Index(corpus) as ix:
        long = max((h.snippet for h in ix.search("rate")), key=len)
    assert long.index("[rate]") + len("[rate]") > 59  # past where a cut at 60 characters fell
    run = cli("query", corpus, "search", "rate")
    assert run.returncode == 0 and long in run.stdout


def test_a_table_cut_at_its_row_count_says_how_many_rows_more_there_are(cli, corpus: Path) -> None:
    with sciner.Index(corpus) as ix:
        names = len(ix.entities(top=1000))
    run = cli("query", corpus, "entities", "--top", "2")
    assert run.stdout.splitlines()[-1] == f"… {names - 2} more row(s): --top {names} shows them"
    assert "more row(s)" not in cli("query", corpus, "entities", "--top", str(names)).stdout
    assert "more row(s)" not in cli("query", corpus, "entities", "--top", "2", "--json").stdout


def _duckdb_recipe() -> str:
    """docs/index.md's DuckDB recipe (the Python block that starts with ``# DuckDB``)."""
    text = (Path(__file__).resolve().parents[1] / "docs" / "index.md").read_text(encoding="utf-8")
    return next(block for block in re.findall(r"```python\n(.*?)```", text, re.S) if block.startswith("# DuckDB"))


def test_the_duckdb_recipe_downloads_nothing() -> None:
    """Regression: the recipe ran ``INSTALL sqlite``, which fetches the extension from DuckDB's server."""
    recipe = _duckdb_recipe()
    assert "INSTALL" not in recipe and '"autoinstall_known_extensions": False' in recipe


def test_the_duckdb_recipe_reads_the_index_with_the_extension_from_pypi(corpus: Path) -> None:
    pytest.importorskip("duckdb")
    pytest.importorskip("duckdb_extension_sqlite_scanner")
    done = subprocess.run([sys.executable, "-c", _duckdb_recipe()], cwd=corpus.parent, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    rows = [line.split("│")[1:3] for line in done.stdout.splitlines() if line.count("│") == 3]
    assert [[cell.strip() for cell in row] for row in rows][-2:] == [["SQuAD", "3"], ["PTB", "2"]]
