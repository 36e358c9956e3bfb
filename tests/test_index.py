"""sciner index and sciner query: a tiny tagged corpus (JSONL written here, no model) indexed
into SQLite, each question asked, incremental runs, a killed run, and the one-line errors."""

from __future__ import annotations

import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

import sciner
from sciner.document import Paragraph
from sciner.errors import FileSystemError, InputFormatError, ReadOnlyQueryError
from sciner.formats.jsonl import write_jsonl
from sciner.index import schema
from sciner.index.write import IndexWriter, first_number, lower_is_better

from helpers.papers import PAPERS, bracketed, write_corpus


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    folder = write_corpus(tmp_path / "papers")
    db = tmp_path / "corpus.sqlite"
    done = sciner.index_files([folder], db, show_progress=False, gazetteers=False)
    assert (done.added, done.failed) == (3, [])
    return db


def test_a_leaderboard_is_best_first_one_row_per_paper_and_model_with_its_paragraph(corpus: Path) -> None:
    with sciner.Index(corpus) as ix:
        board = ix.results(dataset="squad", metric="f1")
        # alpha's BERT-base (or "BERT base") reports 88.5 and 90.9: its best only.
        assert [(r.rank, r.number, r.paper) for r in board] == [(1, 92.1, "beta"), (2, 90.9, "alpha"), (3, 85.0, "gamma")]
        assert board[1].paragraph.startswith("Tuned, BERT base reaches")
        assert ix.paragraph(board[1].paragraph_id).text == board[1].paragraph
        # perplexity: lower is better, so ascending
        assert [r.number for r in ix.results(dataset="PTB", metric="Perplexity")] == [29.4, 35.1]
        assert ix.results(dataset="SQuAD", metric="F1", limit=1)[0].paper == "beta"
        assert [(r.paper, r.model, r.ours) for r in ix.results(dataset="SQuAD", ours=True)] == [("beta", "XLNet", True)]
        assert ix.results(dataset="nowhere") == []


def test_papers_entities_values_and_search(corpus: Path) -> None:
    with sciner.Index(corpus) as ix:
        assert [(h.paper, h.type) for h in ix.papers("bert base", type="MethodName")] == [("alpha", "MethodName"),
                                                                                         ("gamma", "MethodName")]
        assert [h.paper for h in ix.papers("LSTMs")] == ["alpha", "beta"]  # a plural folds to its singular
        top = ix.entities("MethodName", top=2)
        assert (top[0].name, top[0].papers) == ("LSTM", 2) or (top[0].papers, top[1].papers) == (2, 2)
        assert {e.type for e in ix.entities(top=50)} >= {"MethodName", "DatasetName", "MetricName"}
        lr = ix.values("Learning-Rate")
        assert [(v.value, v.papers) for v in lr] == [("5e-5", 2), ("3e-5", 1)]
        hits = ix.search("span masking")
        assert [h.paper for h in hits] == ["alpha"] and "[Span] [masking]" in hits[0].snippet
        # "BERT-base" is no FTS5 query ("-" is its NOT): searched as the phrase of its words
        assert sorted(h.paper for h in ix.search("BERT-base")) == ["alpha", "alpha", "gamma"]
        assert ix.search('"masking helps"')[0].paper == "alpha"
        assert ix.sql("SELECT count(*) AS n FROM papers").rows == [(3,)]
        with pytest.raises(ReadOnlyQueryError, match=r"refused: it would write \(papers\)"):
            ix.sql("DELETE FROM papers")
    assert first_number("84.6 %") == 84.6 and first_number("1,024") == 1024.0 and first_number("n/a") is None
    assert lower_is_better("WER") and lower_is_better("word error rate") and lower_is_better("test PPL")
    assert not lower_is_better("F1") and not lower_is_better("Accuracy") and not lower_is_better("Perceptual")


def counts(db: Path) -> dict[str, int]:
    with sciner.Index(db) as ix:
        return ix.stats()


def test_again_adds_only_what_changed_and_prune_removes_what_is_gone(corpus: Path, tmp_path: Path) -> None:
    before = counts(corpus)
    again = sciner.index_files([tmp_path / "papers"], corpus, show_progress=False, gazetteers=False)
    assert (again.added, again.unchanged) == (0, 3) and counts(corpus) == before
    write_corpus(tmp_path / "papers", {"gamma": ["[RoBERTa|MethodName] gets [86.0|MetricValue] [F1|MetricName] on "
                                                 "[SQuAD|DatasetName] ."]})
    changed = sciner.index_files([tmp_path / "papers"], corpus, show_progress=False, gazetteers=False)
    assert (changed.added, changed.unchanged) == (1, 2)
    with sciner.Index(corpus) as ix:
        assert ix.papers("Bert Base", type="MethodName")[0].paper == "alpha"
        assert [h.paper for h in ix.papers("Bert Base")] == ["alpha"]  # gamma's old entities are gone ...
        assert [v.value for v in ix.values("learning rate")] == ["5e-5"]  # ... and its values
        assert ix.entities("MethodName", top=50)[-1].papers >= 1  # no name is left counting no paper
    (tmp_path / "papers" / "beta.jsonl").unlink()
    pruned = sciner.index_files([tmp_path / "papers"], corpus, prune=True, show_progress=False, gazetteers=False)
    assert len(pruned.pruned) == 1 and pruned.pruned[0].endswith("beta.jsonl")
    with sciner.Index(corpus) as ix:
        assert {p for (p,) in ix.sql("SELECT doc FROM papers").rows} == {"alpha", "gamma"}
        assert ix.sql("SELECT count(*) FROM paragraphs_fts WHERE paragraphs_fts MATCH 'XLNet'").rows == [(0,)]
        assert ix.sql("SELECT count(*) FROM names WHERE name = 'XLNet'").rows == [(0,)]


def whole(db: Path) -> None:
    """Every paper in ``db`` is whole: its paragraphs and mentions all there."""
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    for paper, n in con.execute("SELECT id, paragraphs FROM papers"):
        assert con.execute("SELECT count(*) FROM paragraphs WHERE paper_id = ?", (paper,)).fetchone()[0] == n
    con.close()


def test_a_run_stopped_between_papers_keeps_each_paper_whole_and_the_next_run_goes_on(tmp_path, monkeypatch) -> None:
    many = {f"p{i:02d}": PAPERS["alpha"] for i in range(6)}
    (tmp_path / "one.jsonl").write_text("", encoding="utf-8")
    paragraphs = []
    for name, lines in many.items():  # one file holding six papers (a JSONL 'doc' each)
        for line in lines:
            p = bracketed(line)
            p.meta["doc"] = name
            paragraphs.append(p)
    write_jsonl(paragraphs, tmp_path / "one.jsonl")
    add = IndexWriter.add_paper
    calls = []

    def add_then_stop(self, file, rows):
        if len(calls) == 3:
            raise KeyboardInterrupt
        calls.append(rows.doc)
        return add(self, file, rows)

    monkeypatch.setattr(IndexWriter, "add_paper", add_then_stop)
    db = tmp_path / "c.sqlite"
    with pytest.raises(KeyboardInterrupt):
        sciner.index_files([tmp_path / "one.jsonl"], db, show_progress=False, gazetteers=False)
    whole(db)
    assert counts(db)["papers"] == 3
    monkeypatch.setattr(IndexWriter, "add_paper", add)
    done = sciner.index_files([tmp_path / "one.jsonl"], db, show_progress=False, gazetteers=False)
    assert done.added == 3
    whole(db)
    with sciner.Index(db) as ix:
        assert sorted(d for (d,) in ix.sql("SELECT doc FROM papers").rows) == sorted(many)


@pytest.mark.slow
def test_a_killed_index_process_loses_nothing_and_resumes(tmp_path: Path) -> None:
    # Each paper its own words: a file with the same bytes as one indexed is skipped, not a second paper.
    folder = write_corpus(tmp_path / "papers", {f"p{i:03d}": [*PAPERS["alpha"] * 2, f"Paper number {i} ."]
                                                 for i in range(60)})
    db = tmp_path / "c.sqlite"
    env = {**os.environ, "PYTHONPATH": str(Path(sciner.__file__).parents[1])}
    process = subprocess.Popen([sys.executable, "-m", "sciner", "index", str(folder), "-o", str(db), "-q",
                                "--no-gazetteers"], env=env, stderr=subprocess.PIPE)
    n = 0
    for _ in range(3000):
        time.sleep(0.01)
        try:
            n = sqlite3.connect(db).execute("SELECT count(*) FROM papers").fetchone()[0] if db.exists() else 0
        except sqlite3.OperationalError:
            continue
        if n >= 3 or process.poll() is not None:
            break
    process.send_signal(signal.SIGKILL)
    process.wait()
    whole(db)
    left = counts(db)["papers"]
    assert 3 <= left < 60, "the run was not killed midway"
    done = sciner.index_files([folder], db, show_progress=False, gazetteers=False)
    assert done.added == 60 - left
    whole(db)
    assert counts(db)["papers"] == 60


def test_what_is_not_an_index_an_index_too_new_and_an_old_one(tmp_path: Path, monkeypatch) -> None:
    text = tmp_path / "notes.sqlite"
    text.write_text("not a database at all, but long enough to be read as one " * 20)
    with pytest.raises(InputFormatError, match="not a sciner index"):
        sciner.Index(text)
    other = tmp_path / "other.sqlite"
    sqlite3.connect(other).execute("CREATE TABLE t (x)")
    for open_it in (lambda: sciner.Index(other), lambda: sciner.index_files([], other, show_progress=False)):
        with pytest.raises(InputFormatError, match="another program"):
            open_it()
    assert sqlite3.connect(other).execute("SELECT name FROM sqlite_master").fetchall() == [("t",)]  # untouched
    db = tmp_path / "c.sqlite"
    schema.connect(db, create=True).close()
    con = sqlite3.connect(db)
    con.execute(f"PRAGMA user_version = {schema.SCHEMA_VERSION + 1}")
    con.close()
    with pytest.raises(InputFormatError, match="newer than this sciner"):
        sciner.Index(db)
    # An older file is upgraded by the steps of UPGRADES, in one go, by the writer.
    con = sqlite3.connect(db)
    con.execute(f"PRAGMA user_version = {schema.SCHEMA_VERSION}")
    con.close()
    monkeypatch.setattr(schema, "SCHEMA_VERSION", schema.SCHEMA_VERSION + 1)
    with pytest.raises(InputFormatError, match="cannot be upgraded"):
        schema.connect(db)
    monkeypatch.setitem(schema.UPGRADES, schema.SCHEMA_VERSION - 1,
                        lambda c: c.execute("ALTER TABLE papers ADD COLUMN pages INTEGER"))
    with pytest.raises(InputFormatError, match="run.*sciner index"):
        sciner.Index(db)  # a reader does not write
    schema.connect(db).close()
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA user_version").fetchone()[0] == schema.SCHEMA_VERSION
    assert "pages" in {row[1] for row in con.execute("PRAGMA table_info(papers)")}


def test_a_locked_index_and_a_full_disk_are_one_line_and_lose_nothing(corpus: Path, tmp_path: Path,
                                                                      monkeypatch) -> None:
    monkeypatch.setattr(schema, "BUSY_TIMEOUT_S", 0.1)
    write_corpus(tmp_path / "more", {"delta": PAPERS["beta"]})
    holder = sqlite3.connect(corpus, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    with pytest.raises(FileSystemError, match="locked by another process"):
        sciner.index_files([tmp_path / "more"], corpus, show_progress=False, gazetteers=False)
    holder.execute("ROLLBACK")
    holder.close()
    before = counts(corpus)
    # A disk that fills: SQLite's page limit answers as a full disk does (SQLITE_FULL).
    opened = schema.connect

    def small(path, **kwargs):
        con = opened(path, **kwargs)
        pages = con.execute("PRAGMA page_count").fetchone()[0]
        con.execute(f"PRAGMA max_page_count = {pages}")
        return con

    monkeypatch.setattr("sciner.index.run.connect", small)
    big = {"epsilon": ["[BERT|MethodName] " + " ".join(f"word{i}" for i in range(k, k + 300))
                       for k in range(0, 30000, 300)]}
    write_corpus(tmp_path / "big", big)
    with pytest.raises(FileSystemError, match="disk full"):
        sciner.index_files([tmp_path / "big"], corpus, show_progress=False, gazetteers=False)
    assert counts(corpus)["papers"] == before["papers"] and counts(corpus)["paragraphs"] == before["paragraphs"]
    whole(corpus)


def test_index_and_query_from_the_command_line(cli, tmp_path: Path) -> None:
    folder = write_corpus(tmp_path / "papers")
    db = tmp_path / "corpus.sqlite"
    run = cli("index", folder, "-o", db, "--no-gazetteers")
    assert run.returncode == 0 and "indexed 3 paper(s)" in run.stderr
    board = cli("query", db, "results", "--dataset", "SQuAD", "--metric", "F1")
    assert board.returncode == 0
    lines = board.stdout.splitlines()
    assert lines[0].split()[:3] == ["rank", "value", "metric"] and lines[2].split()[:2] == ["1", "92.1"]
    import json

    as_json = json.loads(cli("query", db, "papers", "--entity", "XLNet", "--json").stdout)
    assert [(p["paper"], p["type"]) for p in as_json] == [("beta", "MethodName")]
    out = tmp_path / "lr.csv"
    assert cli("query", db, "values", "--of", "learning rate", "-o", out).returncode == 0
    assert out.read_text().splitlines()[:2] == ["value,number,count,papers", "5e-5,5e-05,2,2"]
    page = tmp_path / "top.html"
    assert cli("query", db, "entities", "--type", "DatasetName", "-o", page).returncode == 0
    assert "<td>SQuAD</td>" in page.read_text()
    assert "alpha" in cli("query", db, "search", "span masking").stdout
    assert cli("query", db, "--sql", "SELECT doc FROM papers ORDER BY doc", "--json").stdout.count('"doc"') == 3
    wrong = cli("query", db, "--sql", "DROP TABLE papers")
    assert wrong.returncode == 15 and wrong.stderr.count("\n") == 1 and wrong.stderr.startswith("error[E013]: ")
    bad = cli("query", tmp_path / "papers" / "alpha.jsonl", "entities")
    assert bad.returncode != 0 and bad.stderr.strip() == \
        f"error[E001]: {tmp_path / 'papers' / 'alpha.jsonl'}: not a sciner index (not an SQLite database)"
    over = cli("index", folder, "-o", folder / "alpha.jsonl")
    assert over.returncode != 0 and "is also an input" in over.stderr


def test_untagged_inputs_are_tagged_by_the_model_in_process_and_with_workers(loaded_once, tmp_path: Path) -> None:
    """A text file is tagged (the model loaded once), a tagged one read as it is; with
    --workers the layer's workers tag into OUTPUT.tagged/, which is gone once all is in."""
    from sciner.inference.predict import tag_read

    text = tmp_path / "plain.txt"
    text.write_text("We fine-tune BERT on SQuAD and reach 93.2 F1 .\n", encoding="utf-8")
    write_corpus(tmp_path, {"beta": PAPERS["beta"]})
    expected = tag_read(loaded_once, [(text, [Paragraph(text.read_text().split())])], batch_subwords=4096,
                        show_progress=False)[0][1]
    for workers in (None, 1):
        db = tmp_path / f"c{workers}.sqlite"
        done = sciner.index_files([text, tmp_path / "beta.jsonl"], db, engine=sciner.Engine(workers=workers), show_progress=False,
                                  gazetteers=False)
        assert (done.added, done.failed) == (2, [])
        assert not Path(f"{db}.tagged").exists()
        with sciner.Index(db) as ix:
            assert dict(ix.sql("SELECT doc, model FROM papers").rows) == {"plain": "shipped", "beta": "input"}
            stored = ix.sql("SELECT type, start, \"end\" FROM mentions m JOIN papers p ON p.id = m.paper_id "
                            "WHERE p.doc = 'plain' ORDER BY start").rows
        assert stored == [(s.label, s.start, s.end) for s in expected[0].spans]


def test_the_same_files_read_with_other_options_are_kept_unless_replace(corpus: Path, tmp_path: Path) -> None:
    """Regression: `sciner index` run again with other reading options (no `--include
    tables,captions` after a run with it) silently replaced each paper's results (172 -> 0) and
    said only "indexed 2 paper(s)"; the papers are now kept as indexed, the run names them and
    says that `--replace` re-reads them; with it, they are read again (and the same options
    again: unchanged)."""
    other = sciner.index_files([tmp_path / "papers"], corpus, reading=sciner.Reading.of("jsonl"), show_progress=False,
                               gazetteers=False)
    assert (other.added, other.unchanged, other.replaced) == (0, 3, 0)
    assert "; kept 3 paper(s) of 3 file(s) as indexed with other reading options, none (this run: from=jsonl): " \
           "alpha, beta, gamma; --replace re-reads them with this run's" in other.describe()
    with sciner.Index(corpus) as ix:
        assert ix.sql("SELECT DISTINCT options FROM files").rows == [("",)]
    replaced = sciner.index_files([tmp_path / "papers"], corpus, reading=sciner.Reading.of("jsonl"), reread=True,
                                  show_progress=False, gazetteers=False)
    assert (replaced.added, replaced.replaced, replaced.kept) == (3, 3, [])
    again = sciner.index_files([tmp_path / "papers"], corpus, reading=sciner.Reading.of("jsonl"), show_progress=False,
                               gazetteers=False)
    assert (again.added, again.unchanged, again.kept) == (0, 3, [])
    with sciner.Index(corpus) as ix:
        assert ix.sql("SELECT count(*) FROM papers").rows == [(3,)]  # replaced, not added beside
        assert ix.sql("SELECT DISTINCT options FROM files").rows == [("from=jsonl",)]


def test_without_data_no_folder_named_none_in_the_current_one_is_read_as_gazetteers(tmp_path: Path,
                                                                                      monkeypatch) -> None:
    """Regression: with neither --data nor $SCINER_DATA the index step was given the folder
    str(None), so ./None/ of whatever folder the command ran in renamed the papers' entities."""
    from sciner.config import DATA_ENV

    folder = write_corpus(tmp_path / "papers")
    stray = tmp_path / "cwd" / "None"
    stray.mkdir(parents=True)
    (stray / "leaderboards_models.tsv").write_text("model_name\tcount\nXlNeT\t999\n", encoding="utf-8")
    monkeypatch.delenv(DATA_ENV, raising=False)
    monkeypatch.chdir(stray.parent)
    db = tmp_path / "corpus.sqlite"
    sciner.index_files([folder], db, show_progress=False)
    with sciner.Index(db) as ix:
        names = {e.name for e in ix.entities("MethodName", top=50)}
    assert "XLNet" in names and "XlNeT" not in names


def test_an_input_that_fails_in_a_worker_is_said_once_and_not_read_again_here(tmp_path: Path) -> None:
    """Regression: with --workers, a PDF a worker could not read was read a second time by the
    writing process, its error said and counted twice."""
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.4 this is no PDF")
    write_corpus(tmp_path, {"beta": PAPERS["beta"]})
    done = sciner.index_files([broken, tmp_path / "beta.jsonl"], tmp_path / "c.sqlite", engine=sciner.Engine(workers=1),
                              show_progress=False, gazetteers=False, on_error=lambda err: None)
    assert done.added == 1 and [str(broken) in err.message for err in done.failed] == [True]


# --- one question table: the command line is made from it ---


def test_every_question_is_a_subcommand_with_its_parameters_and_o_to_json_q() -> None:
    from typer.testing import CliRunner

    from sciner.cli import app
    from sciner.index.questions import QUESTIONS

    for question in QUESTIONS.values():
        shown = " ".join(CliRunner().invoke(app, ["query", question.name, "-h"]).stdout.split())
        for param in question.params:
            spelled = param.name.upper() if param.argument else ", ".join(sorted(param.cli_flags, key=len))
            assert spelled in shown, question.name
        for flag in ("-o, --output", "--to [json|csv|html]", "--json", "-q, --quiet"):
            assert flag in shown, question.name


@pytest.mark.parametrize("where", ["after INDEX", "before INDEX", "after the question"])
def test_query_takes_quiet_wherever_the_other_verbs_would(cli, corpus: Path, tmp_path: Path, where: str) -> None:
    """Regression: ``sciner query INDEX -q leaderboards`` was "No such command '-q'" (click reads a
    group's options only before its arguments)."""
    out = tmp_path / "boards.csv"
    argv = {"after INDEX": [corpus, "-q", "-o", out, "leaderboards"],
            "before INDEX": ["-q", "-o", out, corpus, "leaderboards"],
            "after the question": [corpus, "leaderboards", "-q", "-o", out]}[where]
    run = cli("query", *argv)
    assert (run.returncode, run.stdout, run.stderr) == (0, "", "")
    assert out.read_text().splitlines()[1].startswith(",SQuAD,F1,3,")
    sql = cli("query", corpus, "-q", "--sql", "SELECT count(*) AS n FROM papers", "--json")
    assert (sql.returncode, json.loads(sql.stdout)) == (0, [{"n": 3}])


def test_every_question_answers_rows_of_its_dataclass(corpus: Path) -> None:
    from sciner.index.questions import QUESTIONS, REQUIRED

    asked = {"entity": "BERT", "of": "learning rate", "text": "SQuAD", "paragraph_id": 1, "query": "SELECT 1"}
    with sciner.Index(corpus) as ix:
        for question in QUESTIONS.values():
            values = {p.name: asked[p.name] if p.default is REQUIRED else p.default for p in question.params}
            answer = question.ask(ix, values)
            rows = [answer] if question.one or question.name == "sql" else answer
            assert rows and all(isinstance(row, question.answer) for row in rows), question.name


def test_leaderboards_and_a_paragraph_are_asked_from_the_command_line(cli, corpus: Path, tmp_path: Path) -> None:
    """They were answered over HTTP only, and leaderboards as bare tuples; -q was missing from every question."""
    import json

    boards = json.loads(cli("query", corpus, "leaderboards", "--json").stdout)
    assert boards[0] == {"task": None, "dataset": "SQuAD", "metric": "F1", "papers": 3, "spellings": "SQuAD",
                         "settings": "", "dataset_key": "squad", "metric_key": "f1"}
    assert json.loads(cli("query", corpus, "leaderboards", "--min-papers", "3", "--json").stdout) == boards[:1]
    hit = json.loads(cli("query", corpus, "search", "span masking", "--json").stdout)[0]
    paragraph = json.loads(cli("query", corpus, "paragraph", str(hit["paragraph_id"]), "--json").stdout)
    assert paragraph[0]["text"].startswith("Span masking") and paragraph[0]["paper"] == "alpha"
    missing = cli("query", corpus, "paragraph", "999999")
    assert missing.returncode != 0 and missing.stderr.strip() == "error[E001]: no paragraph 999999"
    loud = cli("query", corpus, "leaderboards", "-o", tmp_path / "boards.csv")
    quiet = cli("query", corpus, "leaderboards", "-o", tmp_path / "quiet.csv", "-q")
    assert loud.stderr.startswith("wrote ") and quiet.stderr == ""
    assert (tmp_path / "quiet.csv").read_text().splitlines()[:2] == [
        "task,dataset,metric,papers,spellings,settings,dataset_key,metric_key", ",SQuAD,F1,3,SQuAD,,squad,f1"]
    # --to names the format: printed, or written whatever -o's extension.
    assert cli("query", corpus, "leaderboards", "--to", "csv").stdout == (tmp_path / "quiet.csv").read_text()
    assert cli("query", corpus, "leaderboards", "-o", tmp_path / "boards.txt", "--to", "csv", "-q").returncode == 0
    assert (tmp_path / "boards.txt").read_text() == (tmp_path / "quiet.csv").read_text()
    unknown = cli("query", corpus, "leaderboards", "-o", tmp_path / "boards.txt")
    assert unknown.returncode != 0 and "name it with --to (json, csv, html)" in unknown.stderr
    sql = cli("query", corpus, "sql", "SELECT doc FROM papers ORDER BY doc", "--json")
    assert sql.stdout == cli("query", corpus, "--sql", "SELECT doc FROM papers ORDER BY doc", "--json").stdout


def test_index_and_summarize_name_a_file_s_paper_by_the_same_rule(tmp_path: Path) -> None:
    """Regression: index named ``x.pdf.jsonl``'s paper ``x`` (the file's stem, then a suffix off
    again) where summarize named it ``x.pdf``; both now name it by ``paper_name``."""
    write_jsonl([bracketed(line) for line in PAPERS["beta"]], tmp_path / "x.pdf.jsonl")
    db = tmp_path / "c.sqlite"
    sciner.index_files([tmp_path / "x.pdf.jsonl"], db, show_progress=False, gazetteers=False)
    summary = sciner.summarize([tmp_path / "x.pdf.jsonl"], tmp_path / "s.json", gazetteers=False, show_progress=False)
    with sciner.Index(db) as ix:
        assert [d for (d,) in ix.sql("SELECT doc FROM papers").rows] == [summary.papers[0].doc] == ["x.pdf"]


def test_a_changed_file_that_cannot_be_read_counts_no_paper_added(corpus: Path, tmp_path: Path) -> None:
    """Regression: the papers a changed file would replace were counted as added before it was
    read, so a changed file that failed to read said "indexed 1 paper(s)"."""
    (tmp_path / "papers" / "beta.jsonl").write_text("{not json\n", encoding="utf-8")
    done = sciner.index_files([tmp_path / "papers"], corpus, show_progress=False, gazetteers=False)
    assert (done.added, done.unchanged, len(done.failed)) == (0, 2, 1)
    assert counts(corpus)["papers"] == 3  # beta's papers stay until its new content is read
