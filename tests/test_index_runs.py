"""What `sciner index` says when a run changes what the index already held (issue 48)."""

from __future__ import annotations

from pathlib import Path

import sciner
from helpers.papers import bracketed, write_corpus
from sciner.formats.jsonl import write_jsonl


def test_a_run_that_replaces_papers_says_how_many_and_what_became_of_their_results(tmp_path: Path) -> None:
    """Regression: re-running `index` on changed files, or with other reading options (no
    `--include tables,captions` after a run with it), replaced the papers' results (172 -> 0)
    and said only "indexed 2 paper(s)"; the run now says how many papers it replaced and how
    many results they had before and have now (other reading options replace with --replace only)."""
    folder = write_corpus(tmp_path / "papers")
    db = tmp_path / "corpus.sqlite"
    sciner.index_files([folder], db, show_progress=False, gazetteers=False)
    other = sciner.index_files([folder], db, reading=sciner.Reading.of("jsonl"), reread=True, show_progress=False,
                               gazetteers=False)
    assert (other.replaced, other.replaced_files, other.results_before, other.results_after) == (3, 3, 6, 6)
    assert "replaced 3 paper(s) of 3 file(s) that changed or were read with other options: " \
           "as many results as before" in other.describe()
    write_jsonl([bracketed("We study parsing .")], folder / "alpha.jsonl")
    fewer = sciner.index_files([folder], db, reading=sciner.Reading.of("jsonl"), show_progress=False,
                               gazetteers=False)
    assert (fewer.added, fewer.unchanged, fewer.replaced) == (1, 2, 1)
    assert "; replaced 1 paper(s) of 1 file(s) that changed or were read with other options: 3 result(s) fewer " \
           "(3 -> 0);" in fewer.describe()
    unchanged = sciner.index_files([folder], db, reading=sciner.Reading.of("jsonl"), show_progress=False,
                                   gazetteers=False)
    assert unchanged.replaced == 0 and "replaced" not in unchanged.describe()


def test_the_same_file_in_two_folders_is_one_paper_and_prune_keeps_it_once_the_first_is_gone(tmp_path: Path) -> None:
    """Regression: the same PDF in two folders was tagged and indexed twice (`query papers
    --entity X` listed it twice); a file whose bytes and reading options equal an indexed one's
    is skipped with a note naming it, and once that one is gone `--prune` leaves the copy in."""
    first = write_corpus(tmp_path / "a", {"alpha": ["We propose [BERT|MethodName] for [NER|TaskName] ."]})
    second = write_corpus(tmp_path / "b", {"alpha": ["We propose [BERT|MethodName] for [NER|TaskName] ."]})
    db = tmp_path / "corpus.sqlite"
    done = sciner.index_files([first, second], db, show_progress=False, gazetteers=False)
    assert (done.added, done.same) == (1, [(str(second / "alpha.jsonl"), str(first / "alpha.jsonl"))])
    assert f"skipped 1 file(s) the same as one indexed: {second / 'alpha.jsonl'} (same as {first / 'alpha.jsonl'})" \
           in done.describe()
    again = sciner.index_files([first, second], db, show_progress=False, gazetteers=False)
    assert (again.added, again.unchanged, len(again.same)) == (0, 1, 1)
    with sciner.Index(db) as ix:
        assert ix.sql("SELECT count(*) FROM papers").rows == [(1,)]
    (first / "alpha.jsonl").unlink()
    pruned = sciner.index_files([second], db, prune=True, show_progress=False, gazetteers=False)
    assert (pruned.added, pruned.same, pruned.pruned) == (1, [], [str((first / "alpha.jsonl").resolve())])
    with sciner.Index(db) as ix:
        assert ix.sql("SELECT f.path FROM papers p JOIN files f ON f.id = p.file_id").rows == \
            [(str((second / "alpha.jsonl").resolve()),)]


def test_a_run_names_the_papers_that_yielded_no_result(tmp_path: Path) -> None:
    """Regression: a paper that yielded no result at all was indexed in silence; the run's
    last line now counts and names such papers, so a silent miss is seen."""
    folder = write_corpus(tmp_path / "papers")
    write_jsonl([bracketed("We study [parsing|TaskName] .")], folder / "empty.jsonl")
    done = sciner.index_files([folder], tmp_path / "corpus.sqlite", show_progress=False, gazetteers=False)
    assert done.added == 4 and done.no_results == ["empty"]
    assert done.describe().endswith("; 1 paper(s) yielded no result: empty")
