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
    many results they had before and have now."""
    folder = write_corpus(tmp_path / "papers")
    db = tmp_path / "corpus.sqlite"
    sciner.index_files([folder], db, show_progress=False, gazetteers=False)
    other = sciner.index_files([folder], db, reading=sciner.Reading.of("jsonl"), show_progress=False,
                               gazetteers=False)
    assert (other.replaced, other.replaced_files, other.results_before, other.results_after) == (3, 3, 6, 6)
    assert "replaced 3 paper(s) of 3 file(s) that changed or were read with other options: " \
           "as many results as before" in other.describe()
    write_jsonl([bracketed("We study parsing .")], folder / "alpha.jsonl")
    fewer = sciner.index_files([folder], db, reading=sciner.Reading.of("jsonl"), show_progress=False,
                               gazetteers=False)
    assert (fewer.added, fewer.unchanged, fewer.replaced) == (1, 2, 1)
    assert fewer.describe().endswith("replaced 1 paper(s) of 1 file(s) that changed or were read with other "
                                     "options: 3 result(s) fewer (3 -> 0)")
    unchanged = sciner.index_files([folder], db, reading=sciner.Reading.of("jsonl"), show_progress=False,
                                   gazetteers=False)
    assert unchanged.replaced == 0 and "replaced" not in unchanged.describe()
