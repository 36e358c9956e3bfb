"""The format registry: how a file's format is decided, and every written format is read back by
every reading path (convert's, predict's and evaluate's) with the same tokens and entities."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sciner.document import Paragraph, Span
from sciner.evaluate import evaluate_files
from sciner.evaluate.align import read_tagged
from sciner.formats.convert import convert
from sciner.formats.registry import FORMATS, input_format, read_annotated, read_file, sniff, write_file

# Writable formats that carry entities and can be read back (html is write-only).
ROUND_TRIP_FORMATS = [n for n, f in FORMATS.items() if f.carries_entities and f.read and f.render]
SCORED_FORMATS = {"jsonl", "labelstudio"}  # the others store no entity scores

CORPUS = [
    Paragraph(["We", "fine-tune", "BERT-base", "on", "SQuAD", "v1.1", "."],
              spans=[Span("MethodName", 2, 3, 0.9312), Span("DatasetName", 4, 6, 0.5)]),
    Paragraph(["No", "entity", "here", "."], spans=[]),
    Paragraph(["F1", "≥", "91.3", "%", "(", "lr", "=", "3e-5", ")"],
              spans=[Span("MetricName", 0, 1, 0.77), Span("MetricValue", 2, 4, 0.6),
                     Span("HyperparameterName", 5, 6, 0.88), Span("HyperparameterValue", 7, 8, 0.99)]),
]


def _spans(paragraphs: list[Paragraph]) -> list[list[tuple[str, int, int]]]:
    return [[(s.label, s.start, s.end) for s in p.spans or []] for p in paragraphs]


# -- every written format is read back by every reading path --------------------------------


def test_round_trip_formats_are_the_entity_carrying_readable_writable_ones() -> None:
    assert ROUND_TRIP_FORMATS == ["conll", "jsonl", "doccano", "labelstudio", "spacy"]


@pytest.mark.parametrize("fmt", ROUND_TRIP_FORMATS)
def test_every_written_format_reads_back_through_every_reader(fmt: str, tmp_path: Path) -> None:
    path = tmp_path / "corpus.data"  # no suffix to go by: the format comes from --to, then sniffing
    write_file(CORPUS, path, fmt)
    for reader in (lambda p: read_file(p, fmt), read_file, read_annotated, read_tagged):
        back = reader(path)
        assert [p.tokens for p in back] == [p.tokens for p in CORPUS]
        assert _spans(back) == _spans(CORPUS)
    if fmt in SCORED_FORMATS:
        assert [s.score for p in read_tagged(path) for s in p.spans] == [s.score for p in CORPUS for s in p.spans]


@pytest.mark.parametrize("suffix", [".doccano.jsonl", ".json", ".jsonl", ".spacy", ".bio"])
def test_converted_gold_evaluates_against_itself_with_f1_one(suffix: str, tmp_path: Path) -> None:
    # Regression: `sciner convert g.conll g.doccano.jsonl; sciner evaluate g.conll g.doccano.jsonl`
    # printed F1 0.0000.
    gold = tmp_path / "g.conll"
    write_file(CORPUS, gold)
    convert(gold, tmp_path / f"g{suffix}")
    result = evaluate_files(gold, tmp_path / f"g{suffix}")
    assert result.report.micro.f1 == 1.0
    assert result.report.micro.support == 6


def test_doccano_written_to_a_plain_jsonl_is_read_as_doccano(tmp_path: Path) -> None:
    # Regression: `convert g.conll out.jsonl --to doccano` keeps `tokens`, and was read back as
    # sciner JSONL without entities.
    write_file(CORPUS, tmp_path / "out.jsonl", "doccano")
    assert input_format(tmp_path / "out.jsonl").name == "doccano"
    assert evaluate_files(_conll(tmp_path), tmp_path / "out.jsonl").report.micro.f1 == 1.0


def _conll(folder: Path) -> Path:
    write_file(CORPUS, folder / "gold.conll")
    return folder / "gold.conll"


def test_sciner_jsonl_is_never_read_as_doccano(tmp_path: Path) -> None:
    # Even when its text and tokens mention doccano's keys.
    p = Paragraph(["label", "text", "{", "}"], spans=[Span("TaskName", 0, 2)])
    write_file([p], tmp_path / "x.jsonl")
    assert input_format(tmp_path / "x.jsonl").name == "jsonl"
    assert sniff(tmp_path / "x.jsonl").name == "jsonl"
    (back,) = read_file(tmp_path / "x.jsonl")
    assert back.tokens == p.tokens and _spans([back]) == _spans([p])
    # An untagged sciner JSONL (tokens only) is not doccano either.
    (tmp_path / "plain.jsonl").write_text(json.dumps({"tokens": ["a", "b"], "text": "a b"}) + "\n")
    assert input_format(tmp_path / "plain.jsonl").name == "jsonl"


# -- a .txt is always paragraph text ---------------------------------------------------------


def test_txt_starting_with_a_brace_is_paragraph_text(tmp_path: Path) -> None:
    # Regression: read as JSONL (error[E001] invalid JSON).
    path = tmp_path / "notes.txt"
    path.write_text('{"tokens": ["a"]}\n{ set notation } is used .\n', encoding="utf-8")
    assert input_format(path).name == "text"
    assert [p.tokens for p in read_file(path)] == [['{"tokens":', '["a"]}'], ["{", "set", "notation", "}", "is", "used", "."]]


def test_txt_of_short_heading_lines_is_one_paragraph_per_line(tmp_path: Path) -> None:
    # Regression: read as CoNLL ("unknown tag 'Work'"), or one-word lines merged into one paragraph.
    path = tmp_path / "headings.txt"
    path.write_text("Related Work\nExperimental Setup\nResults\nAbstract\nMethods\n", encoding="utf-8")
    assert [p.tokens for p in read_file(path)] == [["Related", "Work"], ["Experimental", "Setup"], ["Results"],
                                                   ["Abstract"], ["Methods"]]
    tabbed = tmp_path / "tabbed.txt"
    tabbed.write_text("We\tO\nBERT\tB-MethodName\n", encoding="utf-8")
    assert input_format(tabbed).name == "text"
    assert [p.tokens for p in read_file(tabbed)] == [["We\tO"], ["BERT\tB-MethodName"]]


def test_json_is_label_studio_for_reading_and_writing(tmp_path: Path) -> None:
    write_file(CORPUS, tmp_path / "tasks.json")
    assert isinstance(json.loads((tmp_path / "tasks.json").read_text()), list)
    assert input_format(tmp_path / "tasks.json").name == "labelstudio"
    assert _spans(read_tagged(tmp_path / "tasks.json")) == _spans(CORPUS)


# -- content is sniffed only for suffixes no format claims -----------------------------------


@pytest.mark.parametrize("fmt", ["conll", "jsonl", "doccano", "labelstudio", "spacy"])
def test_unknown_suffix_is_sniffed_for_each_format(fmt: str, tmp_path: Path) -> None:
    path = tmp_path / "x.data"
    write_file(CORPUS, path, fmt)
    assert sniff(path).name == fmt
    assert input_format(path).name == fmt


def test_unknown_suffix_sniffs_text_and_pdf(tmp_path: Path) -> None:
    text = tmp_path / "x.data"
    text.write_text("Related Work\nResults\n", encoding="utf-8")
    assert sniff(text).name == "text"
    assert [p.tokens for p in read_file(text)] == [["Related", "Work"], ["Results"]]
    pdf = tmp_path / "paper.data"
    pdf.write_bytes(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n")
    assert sniff(pdf).name == "pdf"
    latin1 = tmp_path / "latin1.data"
    latin1.write_bytes("caf\u00e9 au lait\n".encode("latin-1"))
    assert sniff(latin1).name == "text"  # the text reader then names the bad byte


def test_a_known_suffix_decides_alone(tmp_path: Path) -> None:
    conll_looking = tmp_path / "x.txt"
    conll_looking.write_text("BERT\tB-MethodName\n", encoding="utf-8")
    assert input_format(conll_looking).name == "text"
    assert input_format(conll_looking, "conll").name == "conll"


# --- the one renderer registry: paragraphs, summaries and query answers ---


def test_summaries_and_answers_are_written_in_the_formats_of_one_registry_with_one_suffix_map() -> None:
    from sciner.formats.registry import OUTPUT_SUFFIXES, RENDERERS, SUMMARY_FORMATS, renderer_for

    assert set(RENDERERS) == {"paragraphs", "summary", "answer"}
    assert tuple(RENDERERS["summary"]) == SUMMARY_FORMATS == tuple(RENDERERS["answer"]) == tuple(OUTPUT_SUFFIXES)
    for kind in ("summary", "answer"):
        assert {name: row.suffixes for name, row in RENDERERS[kind].items()} == OUTPUT_SUFFIXES
        assert renderer_for(kind, "out/x.HTM").name == "html"
        assert renderer_for(kind, "x.csv", given="JSON").name == "json"
        assert renderer_for(kind, None).name == "json"  # standard output
    # The paragraphs' rows are the writable formats, with their own suffixes.
    assert RENDERERS["paragraphs"]["doccano"].suffixes == (".doccano.jsonl",) and "pdf" not in RENDERERS["paragraphs"]


def test_an_answer_renders_through_its_registry_row() -> None:
    from sciner.formats.registry import renderer_for
    from sciner.index.questions import EntityCount

    answer = [EntityCount("DatasetName", "SQuAD", 3, 7)]
    assert renderer_for("answer", "top.csv").render(answer, "t") == "type,name,papers,mentions\nDatasetName,SQuAD,3,7\n"
    assert '"name": "SQuAD"' in renderer_for("answer", "top.json").render(answer, "t")
    assert "<title>t</title>" in renderer_for("answer", "top.html").render(answer, "t")


@pytest.mark.parametrize("kind", ["summary", "answer"])
def test_an_unknown_output_suffix_or_name_is_a_one_line_error_naming_the_choices(kind: str) -> None:
    from sciner.errors import InputFormatError
    from sciner.formats.registry import renderer_for

    expected = r"expected \.csv, \.htm, \.html, \.json, or name it with --to \(json, csv, html\)$"
    with pytest.raises(InputFormatError, match=rf"x\.txt: cannot tell the {kind} format from the extension; {expected}"):
        renderer_for(kind, "x.txt")
    with pytest.raises(InputFormatError, match=rf"unknown {kind} format 'xml'; expected one of json, csv, html"):
        renderer_for(kind, "x.json", given="xml")
