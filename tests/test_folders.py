"""Folders are walked into (issue 23): every readable file below, the tree mirrored under
`-o DIR/`, one line saying what was skipped, and the corpus paths writing the same bytes."""

from __future__ import annotations

from pathlib import Path

import pytest

from sciner.files.inputs import expand_inputs

TEXT = "We fine - tune BERT on SQuAD .\n"


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    corpus = tmp_path / "corpus"
    for name in ("a.txt", "2022/b.txt", "2022/deep/c.txt"):
        (corpus / name).parent.mkdir(parents=True, exist_ok=True)
        (corpus / name).write_text(TEXT)
    (corpus / "notes.docx").write_text("x")
    (corpus / "PDF_LIST.tsv").write_text("x\ty\n")
    (corpus / ".cache").mkdir()
    (corpus / ".cache" / "old.txt").write_text(TEXT)
    return corpus


def test_a_folder_gives_the_files_of_its_whole_tree_and_says_what_it_skipped(tree: Path) -> None:
    notes: list[str] = []
    found = expand_inputs([str(tree)], notes=notes.append)
    assert [p.relative_to(tree).as_posix() for p in found] == ["2022/b.txt", "2022/deep/c.txt", "a.txt"]
    assert notes == [f"{tree}: 3 file(s) to read; skipped 3 (1 .docx, 1 hidden, 1 .tsv: read as CoNLL only when named)"]


def test_predict_mirrors_the_tree_and_the_corpus_paths_write_the_same_bytes(cli, tree: Path, tmp_path: Path,
                                                                              loaded_once) -> None:
    def outputs(folder: Path) -> dict[str, bytes]:
        return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*.conll"))}

    plain = cli("predict", str(tree), "-o", str(tmp_path / "plain") + "/")
    assert plain.returncode == 0, plain.stderr
    assert "skipped 3" in plain.stderr
    assert sorted(outputs(tmp_path / "plain")) == ["2022/b.conll", "2022/deep/c.conll", "a.conll"]
    assert "skipped" not in cli("predict", str(tree), "-o", str(tmp_path / "quiet") + "/", "-q").stderr
    worker = cli("predict", str(tree), "-o", str(tmp_path / "worker") + "/", "--workers", "1", "-q")
    assert worker.returncode == 0, worker.stderr
    assert outputs(tmp_path / "worker") == outputs(tmp_path / "plain")
    resumed = cli("predict", str(tree), "-o", str(tmp_path / "worker") + "/", "--workers", "1", "--resume", "-q")
    assert resumed.returncode == 0 and outputs(tmp_path / "worker") == outputs(tmp_path / "plain")
