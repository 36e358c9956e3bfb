"""``sciner summarize`` on the batch layer (issue 30 item 1): inputs read by :mod:`sciner.files`,
tagged by predict's ``Tagging`` step only where they carry no tags (the model loaded only
then), and the ``--include`` checks run by the layer's plan for the library as for the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sciner.errors import InputFormatError
from sciner.files.inputs import Reading
from sciner.inference.predict import TagOptions, tag_files
from sciner.summary.files import summarize

# Quuxformer tagged as a dataset, which no model would: so found in a summary, it came from the file's tags.
TAGGED = {"tokens": ["We", "train", "Quuxformer", "on", "SQuAD", "."],
          "entities": [{"start": 2, "end": 3, "type": "DatasetName"}, {"start": 4, "end": 5, "type": "DatasetName"}]}
FILE_S = {("DatasetName", "Quuxformer"), ("DatasetName", "SQuAD")}


@pytest.fixture
def tagged(tmp_path: Path) -> Path:
    path = tmp_path / "tagged.jsonl"
    path.write_text(json.dumps(TAGGED) + "\n", encoding="utf-8")
    return path


def names(paper: dict) -> set[tuple[str, str]]:
    return {(e["type"], e["name"]) for e in paper["entities"]}


def test_tagged_inputs_are_used_as_they_are_and_load_no_model(tagged, tmp_path):
    done = summarize([tagged], tmp_path / "s.json", tagging=TagOptions(model=tmp_path / "no-such-model"),
                     gazetteers=False, show_progress=False)
    [paper] = done.to_json()["papers"]
    assert paper["doc"] == "tagged" and names(paper) == FILE_S and not done.failed


def test_untagged_inputs_are_tagged_beside_tagged_ones_with_one_model(tagged, tmp_path, loaded_once, monkeypatch):
    from sciner.inference.tagger import Tagger

    text = tmp_path / "plain.txt"
    text.write_text("We fine - tune BERT on SQuAD and report F1 .\n", encoding="utf-8")
    loads: list[object] = []
    real = Tagger.load.__func__  # type: ignore[attr-defined]
    monkeypatch.setattr(Tagger, "load", classmethod(lambda cls, *a, **k: loads.append(a) or real(cls, *a, **k)))
    done = summarize([tagged, text], tmp_path / "s.json", gazetteers=False, show_progress=False)
    kept, plain = done.to_json()["papers"]
    assert (kept["doc"], plain["doc"]) == ("tagged", "plain") and len(loads) == 1
    assert names(kept) == FILE_S  # the file's own tags, not the model's
    assert ("MethodName", "BERT") in names(plain)  # tagged by the model
    retagged = summarize([tagged], tmp_path / "r.json", retag=True, gazetteers=False, show_progress=False)
    assert ("DatasetName", "Quuxformer") not in names(retagged.to_json()["papers"][0])


def test_the_library_verbs_check_include_before_reading(tagged, tmp_path):
    """Regression: the --include checks ran in the CLI only, so the library wrote tables where
    their cells are lost, and read --include off inputs that are no PDFs, without a word."""
    pdf = tmp_path / "paper.pdf"
    pdf.write_bytes(b"%PDF-1.4 never read: the check comes first")
    with pytest.raises(InputFormatError, match="keeps no table cells"):
        tag_files([pdf], tmp_path / "tags.conll", reading=Reading.of(include=("tables",)), show_progress=False)
    with pytest.raises(InputFormatError, match="no input is a PDF"):
        tag_files([tagged], tmp_path / "tags.jsonl", reading=Reading.of(include=("tables",)), show_progress=False)
    with pytest.raises(InputFormatError, match="no input is a PDF"):
        summarize([tagged], tmp_path / "s.json", reading=Reading.of(include=("tables",)), show_progress=False)
    assert not (tmp_path / "tags.conll").exists() and not (tmp_path / "s.json").exists()


def test_a_summary_whose_folder_cannot_be_made_is_refused_before_any_input_is_read(tagged, tmp_path, monkeypatch):
    """Regression: summarize checked only that its target was no input, so a target under a file
    (``notes.txt/s.json``) failed at the write, after every input was read and tagged."""
    from sciner.errors import OutputError
    from sciner.files import inputs

    read: list[Path] = []
    real = inputs.read_input
    monkeypatch.setattr(inputs, "read_input", lambda path, *a, **k: read.append(path) or real(path, *a, **k))
    (tmp_path / "notes.txt").write_text("a file where a folder would go\n", encoding="utf-8")
    with pytest.raises(OutputError, match="cannot create folder"):
        summarize([tagged], tmp_path / "notes.txt" / "s.json", gazetteers=False, show_progress=False)
    assert read == []
