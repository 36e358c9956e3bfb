"""Provenance: several inputs in one output keep their boundaries (CoNLL ``-DOCSTART-``, JSONL
``doc``), a PDF's paragraphs keep their ``page`` and ``section`` in JSONL, and reading JSONL
back keeps all three; the other formats leave them out."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sciner.document import Paragraph, Span
from sciner.errors import InputFormatError
from sciner.formats.registry import read_file, render
from sciner.pdf import ExtractedParagraph

A = "We use BERT on SQuAD .\nELMo is evaluated on GLUE .\n"
B = "We report F1 on CoNLL-2003 .\n"


@pytest.fixture
def inputs(tmp_path: Path, loaded_once) -> tuple[Path, Path]:
    """Two paragraph-text inputs, and predict's model loaded once per session."""
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text(A, encoding="utf-8")
    b.write_text(B, encoding="utf-8")
    return a, b


def test_merged_conll_starts_each_document_with_docstart(cli, inputs: tuple[Path, Path], tmp_path: Path) -> None:
    a, b = inputs
    merged = tmp_path / "both.conll"
    assert cli("predict", a, b, "-o", merged, "-q").returncode == 0
    text = merged.read_text(encoding="utf-8")
    assert text.startswith("-DOCSTART-\n\nWe\t") and text.count("-DOCSTART-\n\n") == 2
    assert "\n\n-DOCSTART-\n\nWe\tO\nreport\t" in text
    assert "-DOCSTART-" not in cli("predict", a, "-q").stdout  # one input: one document, no marker


def test_evaluate_pairs_the_paragraphs_of_a_merged_prediction(cli, inputs: tuple[Path, Path], tmp_path: Path) -> None:
    a, b = inputs
    one_by_one = [cli("predict", path, "-q").stdout for path in (a, b)]
    gold = tmp_path / "gold.conll"  # the same tags, without document markers
    gold.write_text("".join(one_by_one), encoding="utf-8")
    merged = tmp_path / "pred.conll"
    cli("predict", a, b, "-o", merged, "-q")
    assert len(read_file(merged)) == len(read_file(gold)) == 3
    result = cli("evaluate", gold, merged, "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["micro"]["f1"] == 1.0


def test_merged_jsonl_names_each_paragraphs_input_and_reads_it_back(cli, inputs: tuple[Path, Path], tmp_path: Path) -> None:
    a, b = inputs
    merged = tmp_path / "both.jsonl"
    cli("predict", a, b, "-o", merged, "-q")
    rows = [json.loads(line) for line in merged.read_text(encoding="utf-8").splitlines()]
    assert [r["doc"] for r in rows] == [str(a), str(a), str(b)]
    assert [p.meta for p in read_file(merged)] == [{"doc": str(a)}, {"doc": str(a)}, {"doc": str(b)}]
    alone = json.loads(cli("predict", a, "--json", "-q").stdout.splitlines()[0])
    assert "doc" not in alone


def test_predicting_a_pdf_keeps_page_and_section_in_jsonl(cli, inputs, monkeypatch, tmp_path: Path) -> None:
    # The extractor itself is tested in test_pdf_extract.py; here only what predict keeps of it.
    found = [ExtractedParagraph(["BERT", "Results"], "BERT Results", "Title", 1, "title"),
             ExtractedParagraph(["We", "use", "SQuAD", "."], "We use SQuAD.", "4 Experiments", 3, "body")]
    monkeypatch.setattr("sciner.pdf.extract_pdf", lambda path, include=(): found)
    paper = tmp_path / "paper.pdf"
    paper.write_bytes(b"%PDF-1.4 stand-in")
    result = cli("predict", paper, "--json", "-q")
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert result.returncode == 0, result.stderr
    assert [(r["page"], r["section"]) for r in rows] == [(1, "Title"), (3, "4 Experiments")]
    assert "page" not in cli("predict", paper, "--to", "doccano", "-q").stdout  # other formats leave it out


def test_provenance_round_trips_through_jsonl_and_other_formats_ignore_it(tmp_path: Path) -> None:
    meta = {"doc": "papers/bert.pdf", "page": 4, "section": "4.1 Setup"}
    p = Paragraph(["We", "use", "BERT", "."], spans=[Span("MethodName", 2, 3)], meta=meta)
    saved = tmp_path / "p.jsonl"
    saved.write_text(render([p], "jsonl"), encoding="utf-8")  # type: ignore[arg-type]
    (back,) = read_file(saved)
    assert back.meta == meta and back.spans == p.spans
    bare = Paragraph(p.tokens, spans=p.spans)
    assert render([bare], "text") == render([p], "text")
    assert render([Paragraph(p.tokens, spans=p.spans, meta={"page": 4})], "conll") == render([bare], "conll")
    assert Paragraph(["x"]).meta == {}  # the constructor without it, as before


def test_tagging_keeps_provenance(shipped_tagger) -> None:
    (tagged,) = shipped_tagger.tag([Paragraph(["We", "use", "BERT", "."], meta={"page": 2})])
    assert tagged.meta == {"page": 2} and tagged.spans is not None


@pytest.mark.parametrize("row,key", [({"page": "four"}, "page"), ({"section": 3}, "section"), ({"doc": ["a"]}, "doc")])
def test_jsonl_refuses_provenance_of_the_wrong_type(tmp_path: Path, row: dict, key: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps({"tokens": ["x"], **row}) + "\n", encoding="utf-8")
    with pytest.raises(InputFormatError, match=f"bad.jsonl:1: field '{key}' must be"):
        read_file(path)

