"""Issue 33 item 2: what `--include tables` reads is never lost without a word. A table row's cells
travel only in JSONL: tags with tables written in another format, and `--include` on inputs that
are no PDFs, are refused in one line (before any model loads) naming what works."""

from __future__ import annotations

import json

import pytest

from sciner.errors import InputFormatError
from sciner.formats.include import check_include_has_pdfs, check_tables_kept


@pytest.fixture
def pdf(tmp_path):
    path = tmp_path / "paper.pdf"
    path.write_bytes(b"%PDF-1.4 never read: the check comes first")
    return path


@pytest.mark.parametrize("where", [["-o", "tags.conll"], [], ["--to", "conll"], ["-o", "out/"], ["-o", "tags.html"]])
def test_predict_refuses_tables_to_a_format_that_drops_cells(cli, pdf, tmp_path, monkeypatch, where):
    monkeypatch.chdir(tmp_path)
    result = cli("predict", pdf, "--include", "tables,captions", *where)
    assert result.returncode == InputFormatError.exit_code, result.stderr
    assert result.stderr.count("\n") == 1 and "keeps no table cells" in result.stderr and "JSONL" in result.stderr
    assert not (tmp_path / "tags.conll").exists() and not (tmp_path / "out").exists()


def test_tables_to_jsonl_and_other_kinds_anywhere_pass_the_check(tmp_path):
    check_tables_kept(["tables"], tmp_path / "tags.jsonl")
    check_tables_kept(["tables"], "-", "jsonl")
    check_tables_kept(["tables"], tmp_path, "jsonl")  # one JSONL per input in a folder
    check_tables_kept(["captions", "footnotes"], tmp_path / "tags.conll")
    check_tables_kept([], None)
    with pytest.raises(InputFormatError, match="spacy keeps no table cells"):
        check_tables_kept(["tables"], tmp_path / "tags.spacy")


def test_include_on_inputs_that_are_no_pdfs_is_refused(cli, tmp_path):
    tagged = tmp_path / "tagged.jsonl"
    tagged.write_text(json.dumps({"tokens": ["We", "use", "BERT", "."], "entities": []}) + "\n", encoding="utf-8")
    for verb in (["summarize", tagged], ["predict", tagged, "-o", tmp_path / "out.jsonl"]):
        result = cli(*verb, "--include", "tables")
        assert result.returncode == InputFormatError.exit_code, result.stderr
        assert "no input is a PDF" in result.stderr and result.stderr.count("\n") == 1
    # A folder, a glob, standard input or a suffix no format claims may hold PDFs: let through.
    (tmp_path / "paper").write_bytes(b"%PDF-1.4")
    for inputs in ([tmp_path], ["-"], [str(tmp_path / "*.pdf")], [tmp_path / "paper"], [tagged, tmp_path / "x.pdf"]):
        check_include_has_pdfs(["tables"], inputs)
    check_include_has_pdfs([], [tagged])
    # A JSONL that predict --include wrote holds its table rows: --include on it is what was asked.
    with_tables = tmp_path / "with-tables.jsonl"
    with_tables.write_text(json.dumps({"tokens": ["BERT", "92.8"], "entities": [], "kind": "table", "page": 6,
                                       "table": "table 7", "cells": [[0, 1, 0, 0], [1, 2, 1, 1]]}) + "\n",
                           encoding="utf-8")
    check_include_has_pdfs(["tables", "captions"], [with_tables])
    check_include_has_pdfs(["tables"], [tagged, with_tables])


def test_the_model_tags_every_kind_but_a_float_s_text_and_its_answers_go_back_in_order():
    from sciner.document import Paragraph, Span
    from sciner.formats.kinds import text_of, with_tagged

    read = [Paragraph(["We", "use", "BERT"], meta={"kind": "body"}),
            Paragraph(["BERT", "88.5"], meta={"kind": "figure"}), Paragraph(["Table", "2"], meta={"kind": "caption"})]
    assert [p.tokens for p in text_of(read)] == [["We", "use", "BERT"], ["Table", "2"]]
    answers = [Paragraph(p.tokens, spans=[Span("MethodName", 2, 3)] if "BERT" in p.tokens else [], meta=p.meta)
               for p in text_of(read)]
    tagged = with_tagged(read, answers)
    assert [(p.tokens, p.spans, p.meta["kind"]) for p in tagged] == [
        (["We", "use", "BERT"], [Span("MethodName", 2, 3)], "body"), (["BERT", "88.5"], [], "figure"),
        (["Table", "2"], [], "caption")]
