"""Schema 3 of the corpus index (issue 48): what summarize reads beside results (numbers that are
no result, the proposed methods, table cells), paper metadata, readable text, declared foreign
keys, names spelled as most papers spell them, and the upgrade of a version-2 file."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

import sciner
from helpers.index_versions import as_schema_2, as_schema_3
from helpers.papers import bracketed, caption, row, tagged, write_corpus
from sciner.errors import InputFormatError
from sciner.formats.jsonl import write_jsonl
from sciner.index import schema


def table_paper(folder: Path) -> Path:
    """One tagged paper with a sentence, a table's caption, two header rows and two data rows."""
    folder.mkdir(parents=True, exist_ok=True)
    paragraphs = [
        tagged("We propose XLNet , a new model ( see [ 7 , 22 ] ) .", ("MethodName", 2, 3)),
        tagged("It gains 2.1 points over BERT .", ("MetricValue", 2, 3), ("MethodName", 5, 6)),
        caption("Table 2 : SQuAD 1.1 results .", ("DatasetName", 3, 5)),
        row([("System", 0), ("Dev", 1), ("Test", 3)]),
        row([("EM", 1), ("F1", 2), ("EM", 3), ("F1", 4)]),
        row([("BiDAF", 0), ("-", 1), ("85.6", 2), ("-", 3), ("85.8", 4)], ("MethodName", 0, 1)),
        row([("XLNet", 0), ("84.1", 1), ("90.9", 2), ("85.0", 3), ("91.8", 4)], ("MethodName", 0, 1)),
    ]
    paragraphs[0].meta["section"] = "Abstract"
    paragraphs[0].meta["front"] = "Zhilin Yang, Zihang Dai\nCarnegie Mellon University\narXiv:1906.08237v2 [cs.CL] 2 Jan 2020"
    write_jsonl(paragraphs, folder / "xlnet.jsonl")
    return folder


@pytest.fixture
def indexed(tmp_path: Path) -> Path:
    db = tmp_path / "corpus.sqlite"
    done = sciner.index_files([table_paper(tmp_path / "papers")], db, show_progress=False, gazetteers=False)
    assert (done.added, done.failed) == (1, [])
    return db


def test_not_results_proposed_methods_and_table_cells_are_stored_and_queryable(indexed: Path, cli) -> None:
    """Regression: the index kept only results, so the numbers summarize read as no result (and
    why), the paper's proposed methods and the table's cells were in its summary JSON only."""
    with sciner.Index(indexed) as ix:
        assert ix.sql("SELECT name, key FROM proposed").rows == [("XLNet", "xlnet")]
        others = ix.sql("SELECT n.value, n.reason, g.text FROM not_results n "
                        "JOIN paragraphs g ON g.id = n.paragraph_id ORDER BY n.id").rows
        assert ("2.1", "difference", "It gains 2.1 points over BERT.") in others
        cells = ix.sql("SELECT c.text, c.header, c.first_column, c.last_column FROM table_cells c "
                       "JOIN paragraphs g ON g.id = c.paragraph_id WHERE g.position = 6 ORDER BY c.position").rows
        assert cells == [("XLNet", "System", 0, 0), ("84.1", "Dev > EM", 1, 1), ("90.9", "F1", 2, 2),
                         ("85.0", "Test > EM", 3, 3), ("91.8", "F1", 4, 4)]
        assert ix.sql("SELECT count(*) FROM table_cells WHERE header IS NOT NULL AND paragraph_id IN "
                      "(SELECT id FROM paragraphs WHERE position IN (3, 4))").rows == [(0,)]  # heads have none
        assert {"not_results", "proposed", "table_cells"} <= set(ix.stats())
    run = cli("query", indexed, "--sql", "SELECT reason, count(*) FROM not_results GROUP BY reason", "--json")
    assert run.returncode == 0 and '"reason": "difference"' in run.stdout


def test_every_paragraph_id_is_a_declared_foreign_key_with_an_index(indexed: Path) -> None:
    """Regression: results.paragraph_id and value_pairs.paragraph_id were plain integers, so
    Datasette (and SQLite's own checks) did not link a result to its paragraph."""
    con = sqlite3.connect(indexed)
    for table in ("mentions", "value_pairs", "results", "not_results", "table_cells"):
        keys = {(row[2], row[3]) for row in con.execute(f"PRAGMA foreign_key_list({table})")}
        assert ("paragraphs", "paragraph_id") in keys and ("papers", "paper_id") in keys, table
        indexed_columns = {con.execute(f"PRAGMA index_info({name})").fetchone()[2]
                           for (_, name, *_) in con.execute(f"PRAGMA index_list({table})")}
        assert "paragraph_id" in indexed_columns, table
    assert ("papers", "paper_id") in {(r[2], r[3]) for r in con.execute("PRAGMA foreign_key_list(proposed)")}
    assert con.execute("PRAGMA foreign_key_check").fetchall() == []


def test_titles_and_paragraphs_are_stored_as_readable_text_and_still_found_word_by_word(tmp_path: Path) -> None:
    """Regression: text was stored as tokens joined by spaces ("Co - guiding Net : ...")."""
    folder = tmp_path / "papers"
    folder.mkdir()
    title = bracketed("Co - guiding Net : Achieving Mutual Reinforcements ( for [SLU|TaskName] )")
    title.meta.update(kind="title", section="Title")
    write_jsonl([title, bracketed("It reaches 84.6 % on [ATIS|DatasetName] , state - of - the - art .")],
                folder / "co.jsonl")
    db = tmp_path / "c.sqlite"
    sciner.index_files([folder], db, show_progress=False, gazetteers=False)
    with sciner.Index(db) as ix:
        assert ix.sql("SELECT title FROM papers").rows == [("Co-guiding Net: Achieving Mutual Reinforcements (for SLU)",)]
        assert ix.sql("SELECT text FROM paragraphs WHERE position = 1").rows == \
            [("It reaches 84.6% on ATIS, state-of-the-art.",)]
        assert [h.paragraph_id for h in ix.search("state of the art")] and ix.search("guiding")
        # mentions keep token positions: the tokens, not the text, are what they count
        assert ix.sql("SELECT start, \"end\", text FROM mentions WHERE type = 'DatasetName'").rows == [(5, 6, "ATIS")]


def test_papers_carry_the_metadata_their_first_page_gives(indexed: Path) -> None:
    """Regression: papers had no authors, year, venue, arXiv id or DOI (a chart of scores by year
    had nothing to read)."""
    with sciner.Index(indexed) as ix:
        assert ix.sql("SELECT authors, year, venue, arxiv_id, doi FROM papers").rows == \
            [("Zhilin Yang; Zihang Dai", 2020, None, "1906.08237v2", None)]


def test_a_name_is_spelled_as_most_papers_spell_it_whatever_paper_came_first(tmp_path: Path) -> None:
    """Regression: names.name was the spelling of the first paper indexed with it, so the same
    papers indexed in another order named the corpus's entities otherwise."""
    papers = {"a": ["We use [Bert Base|MethodName] ."], "b": ["We use [BERT base|MethodName] ."],
              "c": ["We use [BERT base|MethodName] and [BERT base|MethodName] ."]}
    spelled = []
    for order in (["a", "b", "c"], ["c", "b", "a"]):
        db = tmp_path / f"{''.join(order)}.sqlite"
        for name in order:
            sciner.index_files([write_corpus(tmp_path / name, {name: papers[name]}) / f"{name}.jsonl"], db,
                               show_progress=False, gazetteers=False)
        with sciner.Index(db) as ix:
            spelled.append([(e.name, e.papers) for e in ix.entities("MethodName")])
    assert spelled == [[("BERT base", 3)]] * 2
    with sciner.Index(db) as ix:  # a name's rows go when its last paper goes; ties: most mentions, then code points
        assert ix.sql("SELECT name FROM entities ORDER BY name").rows == [("BERT base",), ("BERT base",), ("Bert Base",)]


def test_an_index_of_schema_2_is_upgraded_by_the_writer_and_answers_as_before(indexed: Path) -> None:
    """An index made before schema 3 opens after one `sciner index` run: its rows kept, the
    foreign keys declared, the text made readable, the new tables empty until its papers are
    indexed again; a reader refuses it until then, in one line."""
    as_schema_2(indexed)
    with pytest.raises(InputFormatError, match="run.*sciner index"):
        sciner.Index(indexed)
    sciner.index_files([], indexed, show_progress=False)
    with sciner.Index(indexed) as ix:
        assert ix.sql("PRAGMA user_version").rows == [(schema.SCHEMA_VERSION,)]
        assert [r.value for r in ix.results(dataset="SQuAD 1.1", metric="F1")] == ["91.8", "85.8"]
        assert ix.sql("SELECT title, year, options FROM papers JOIN files ON files.id = papers.file_id").rows == \
            [("Co-guiding Net: a title", None, "")]
        assert ix.sql("SELECT text FROM paragraphs WHERE position = 0").rows == \
            [("We propose XLNet, a new model (see [7, 22]).",)]
        assert ix.search("propose") and ix.sql("SELECT count(*) FROM table_cells").rows == [(0,)]
        assert ("paragraphs", "paragraph_id") in {(r[2], r[3]) for r in ix.sql("PRAGMA foreign_key_list(results)").rows}
        assert ix.sql("PRAGMA foreign_key_check").rows == []
    again = sciner.index_files([indexed.parent / "papers"], indexed, show_progress=False, gazetteers=False)
    assert again.unchanged == 1  # indexed without reading options: the stored hash is the plain one


def test_an_index_of_schema_3_is_upgraded_so_that_ours_says_three_things(indexed: Path) -> None:
    """Schema 4: ``results.ours`` is 1 (the paper's own), 0 (another's, the paper cites it) or
    NULL (not said). A version-3 file, whose 0 said only "not marked", opens after one `sciner
    index` run with those 0s NULL and the column nullable; its papers indexed again say 0 where
    the paper cites."""
    with sciner.Index(indexed) as ix:
        assert ix.sql("SELECT model, ours FROM results WHERE value = '85.8'").rows == [("BiDAF", None)]
    as_schema_3(indexed)
    with sqlite3.connect(indexed) as con:
        assert con.execute("SELECT DISTINCT ours FROM results ORDER BY ours").fetchall() == [(0,), (1,)]
    with pytest.raises(InputFormatError, match="run.*sciner index"):
        sciner.Index(indexed)
    sciner.index_files([], indexed, show_progress=False)
    with sciner.Index(indexed) as ix:
        assert ix.sql("PRAGMA user_version").rows == [(schema.SCHEMA_VERSION,)]
        assert ix.sql("SELECT DISTINCT ours FROM results ORDER BY ours").rows == [(None,), (1,)]
        assert next(r for r in ix.sql("PRAGMA table_info(results)").rows if r[1] == "ours")[3] == 0  # nullable
        assert ix.sql("PRAGMA foreign_key_check").rows == []


def test_docs_list_every_table_and_column_of_the_schema() -> None:
    """docs/index.md's schema table names each table of SCHEMA with each of its columns."""
    docs = (Path(__file__).resolve().parents[1] / "docs" / "index.md").read_text(encoding="utf-8")
    con = sqlite3.connect(":memory:")
    for statement in schema.statements(schema.SCHEMA):
        con.execute(statement)
    assert f"## The schema (version {schema.SCHEMA_VERSION})" in docs
    rows = {line.split("|")[1].strip(" `"): line for line in docs.splitlines() if line.startswith("| `")}
    for (table,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'paragraphs_fts_%'"):
        assert table in rows, table
        if table != "paragraphs_fts":
            for column in (row[1] for row in con.execute(f"PRAGMA table_info({table})")):
                assert f"`{column}`" in rows[table], (table, column)
