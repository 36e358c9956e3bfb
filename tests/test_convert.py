"""Round trips between CoNLL, JSONL, Label Studio, doccano and spaCy DocBin, and Label Studio exports."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sciner.document import Paragraph, Span
from sciner.errors import InputFormatError, UnwritableTokenError
from sciner.formats.conll import read_conll, write_conll
from sciner.formats.convert import convert
from sciner.formats.registry import FORMATS, output_format, read_file, suffix_format, write_file
from sciner.formats.labelstudio import label_config, read_labelstudio
from sciner.document import bio_to_spans
from sciner.formats.spans import repair_bio
from sciner.labels import BIO_TAGS

EXTENSIONS = {"conll": ".conll", "jsonl": ".jsonl", "labelstudio": ".json", "doccano": ".doccano.jsonl", "spacy": ".spacy"}

# Tokens as real papers have them: unicode, punctuation, symbols; never whitespace, never a
# character that splits lines (CoNLL is line-based), never the CoNLL document marker.
token = st.text(
    alphabet=st.characters(blacklist_categories=("Cs", "Cc", "Zs", "Zl", "Zp"), blacklist_characters="\ufeff"),
    min_size=1,
    max_size=8,
).filter(lambda t: not any(ch.isspace() for ch in t) and t != "-DOCSTART-")


@st.composite
def tagged_paragraph(draw) -> Paragraph:
    tokens = draw(st.lists(token, min_size=1, max_size=25))
    tags = draw(st.lists(st.sampled_from(BIO_TAGS), min_size=len(tokens), max_size=len(tokens)))
    return Paragraph(tokens=tokens, tags=repair_bio(tags).tags)


paragraph_lists = st.lists(tagged_paragraph(), min_size=1, max_size=5)

HANDMADE = [
    Paragraph(
        ["We", "fine-tune", "BERT-base", "(", "Devlin", "et", "al.", ",", "2019", ")", "on", "SQuAD", "v1.1", "."],
        ["O", "O", "B-MethodName", "O", "O", "O", "O", "O", "O", "O", "O", "B-DatasetName", "I-DatasetName", "O"],
    ),
    Paragraph(
        ["F1-score", "≥", "91.3", "%", "on", "CoNLL’03", "NER", ";", "lr", "=", "3e-5", "—", "Straße", "😀", "\"quoted\""],
        ["B-MetricName", "O", "B-MetricValue", "I-MetricValue", "O", "B-DatasetName", "B-TaskName", "O",
         "B-HyperparameterName", "O", "B-HyperparameterValue", "O", "O", "O", "O"],
    ),
    Paragraph(["<script>", "&amp;", "[", "]", "{", "}", "|", "\\", "“", "”"], ["B-MethodName", "I-MethodName"] + ["O"] * 8),
]


def _round_trip(paragraphs: list[Paragraph], chain: list[str], folder: Path) -> list[Paragraph]:
    """Write CoNLL, convert through each format of ``chain`` in turn, and read the last file back."""
    src = folder / "start.conll"
    write_conll(paragraphs, src)
    for i, fmt in enumerate(chain):
        dst = folder / f"step{i}{EXTENSIONS[fmt]}"
        convert(src, dst)
        src = dst
    return read_file(src)


def _assert_same(before: list[Paragraph], after: list[Paragraph]) -> None:
    assert [p.tokens for p in after] == [p.tokens for p in before]
    assert [p.tags for p in after] == [p.tags for p in before]


@pytest.mark.parametrize("fmt", ["jsonl", "labelstudio", "doccano", "spacy"])
def test_handmade_paragraphs_survive_each_format(fmt: str, tmp_path: Path) -> None:
    _assert_same(HANDMADE, _round_trip(HANDMADE, [fmt, "conll"], tmp_path))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(paragraphs=paragraph_lists, fmt=st.sampled_from(["jsonl", "labelstudio", "doccano", "spacy"]))
def test_generated_paragraphs_survive_each_format(paragraphs: list[Paragraph], fmt: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        _assert_same(paragraphs, _round_trip(paragraphs, [fmt, "conll"], Path(folder)))


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(paragraphs=paragraph_lists)
def test_generated_paragraphs_survive_the_whole_chain(paragraphs: list[Paragraph]) -> None:
    chain = ["jsonl", "labelstudio", "doccano", "spacy", "labelstudio", "jsonl", "conll"]
    with tempfile.TemporaryDirectory() as folder:
        _assert_same(paragraphs, _round_trip(paragraphs, chain, Path(folder)))


def test_real_annotated_file_survives_every_format(shared_data: Path, tmp_path: Path) -> None:
    src = shared_data / "annotated" / "BalasubramanyamEvani__Scientific-Named-Entity-Recognition" / "data__conll__BERT.conll"
    original = read_conll(src)
    chain = ["jsonl", "labelstudio", "doccano", "spacy", "conll"]
    _assert_same(original, _round_trip(original, chain, tmp_path))
    assert sum(len(bio_to_spans(p.tags)) for p in original) > 100


def test_scores_travel_through_labelstudio_predictions(tmp_path: Path) -> None:
    p = Paragraph(["We", "use", "BERT", "."], spans=[Span("MethodName", 2, 3, 0.875)])
    write_file([p], tmp_path / "tasks.json")
    task = json.loads((tmp_path / "tasks.json").read_text())[0]
    result = task["predictions"][0]["result"][0]
    assert result["from_name"] == "label" and result["to_name"] == "text" and result["type"] == "labels"
    assert result["value"] == {"start": 7, "end": 11, "text": "BERT", "labels": ["MethodName"]}
    assert result["score"] == 0.875
    assert task["data"]["tokens"] == ["We", "use", "BERT", "."]
    assert read_file(tmp_path / "tasks.json")[0].spans[0].score == 0.875


def test_untagged_paragraphs_become_tasks_without_predictions(tmp_path: Path) -> None:
    write_file([Paragraph(["Plain", "text", "."])], tmp_path / "tasks.json")
    assert "predictions" not in json.loads((tmp_path / "tasks.json").read_text())[0]


def _labelstudio_export() -> list[dict]:
    """What Label Studio exports after a person corrected sciner's pre-annotation (JSON format)."""
    tokens = ["We", "fine-tune", "BERT-base", "on", "SQuAD", "v1.1", "(", "F1", "≥", "90", ")", "."]
    text = " ".join(tokens)

    def region(start: int, end: int, label: str, rid: str) -> dict:
        return {"id": rid, "from_name": "label", "to_name": "text", "type": "labels", "origin": "manual",
                "value": {"start": start, "end": end, "text": text[start:end], "labels": [label]}}

    return [
        {
            "id": 1,
            "data": {"text": text, "tokens": tokens},
            "annotations": [
                {"id": 10, "was_cancelled": True, "updated_at": "2024-05-03T10:00:00Z", "result": []},
                {"id": 11, "was_cancelled": False, "updated_at": "2024-05-01T10:00:00Z",
                 "result": [region(13, 22, "MethodName", "a")]},
                {"id": 12, "was_cancelled": False, "updated_at": "2024-05-02T10:00:00Z",
                 "result": [
                     region(13, 17, "MethodName", "b"),  # "BERT" inside the token "BERT-base": the whole token is kept
                     region(26, 36, "DatasetName", "c"),  # "SQuAD v1.1"
                     region(39, 41, "MetricName", "d"),
                     {"id": "r", "type": "relation", "from_id": "c", "to_id": "d", "direction": "right"},
                 ]},
            ],
            "predictions": [{"model_version": "sciner", "result": [region(3, 12, "TaskName", "p")]}],
        },
        {"id": 2, "data": {"text": "Nothing to see here ."}, "annotations": [],
         "predictions": [{"result": [region(0, 7, "MethodName", "q")]}]},
    ]


def test_labelstudio_export_reads_back_to_conll_without_losing_tokens(tmp_path: Path) -> None:
    export = tmp_path / "project-1-at-2024.json"
    export.write_text(json.dumps(_labelstudio_export(), ensure_ascii=False), encoding="utf-8")
    out = tmp_path / "corrected.conll"
    done = convert(export, out)
    assert (done.source_format, done.target_format, done.paragraphs) == ("labelstudio", "conll", 2)
    first, second = read_conll(out)
    assert first.tokens == ["We", "fine-tune", "BERT-base", "on", "SQuAD", "v1.1", "(", "F1", "≥", "90", ")", "."]
    # The latest non-cancelled annotation wins over older ones and over the prediction.
    assert first.tags == ["O", "O", "B-MethodName", "O", "B-DatasetName", "I-DatasetName", "O", "B-MetricName",
                          "O", "O", "O", "O"]
    # No data.tokens: the text is split on spaces; no annotation: the prediction is used.
    assert second.tokens == ["Nothing", "to", "see", "here", "."]
    assert second.tags == ["B-MethodName", "O", "O", "O", "O"]
    assert read_labelstudio(export, use_predictions=False)[1].tags == ["O"] * 5


def test_labelstudio_errors_name_the_task(tmp_path: Path) -> None:
    bad = _labelstudio_export()
    bad[0]["annotations"][2]["result"][0]["value"]["labels"] = ["PERSON"]
    (tmp_path / "bad.json").write_text(json.dumps(bad))
    with pytest.raises(InputFormatError, match="task 1.*unknown entity type 'PERSON'"):
        read_labelstudio(tmp_path / "bad.json")
    overlapping = _labelstudio_export()
    overlapping[0]["annotations"][2]["result"][1]["value"]["start"] = 13
    (tmp_path / "overlap.json").write_text(json.dumps(overlapping))
    with pytest.raises(InputFormatError, match="overlap"):
        read_labelstudio(tmp_path / "overlap.json")


def test_label_config_names_every_type_and_matches_the_results() -> None:
    config = label_config()
    assert '<Labels name="label" toName="text">' in config and '<Text name="text" value="$text"/>' in config
    assert config.count("<Label value=") == 7


def test_doccano_file_made_by_doccano_is_split_on_spaces(tmp_path: Path) -> None:
    lines = [
        {"id": 7, "text": "We use BERT on SQuAD .", "label": [[7, 11, "MethodName"], [15, 20, "DatasetName"]]},
        {"id": 8, "text": "Accuracy is 92.1 %", "entities": [{"id": 1, "label": "MetricName", "start_offset": 0, "end_offset": 8}]},
    ]
    path = tmp_path / "admin.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    a, b = read_file(path)  # a plain .jsonl recognised as doccano by its content
    assert a.tokens == ["We", "use", "BERT", "on", "SQuAD", "."]
    assert a.tags == ["O", "O", "B-MethodName", "O", "B-DatasetName", "O"]
    assert b.tags == ["B-MetricName", "O", "O", "O"]


def test_doccano_and_labelstudio_keep_line_breaking_characters_inside_tokens(tmp_path: Path) -> None:
    p = Paragraph(["a\u2028b", "x\x0cy", "BERT"], ["O", "O", "B-MethodName"])
    for name in ("t.doccano.jsonl", "t.json"):
        write_file([p], tmp_path / name)
        back = read_file(tmp_path / name)
        assert back[0].tokens == p.tokens and back[0].tags == p.tags


def test_docbin_is_a_real_spacy_corpus(tmp_path: Path) -> None:
    from spacy.tokens import DocBin
    from spacy.vocab import Vocab

    write_file(HANDMADE, tmp_path / "train.spacy")
    docs = list(DocBin().from_disk(tmp_path / "train.spacy").get_docs(Vocab()))
    assert [t.text for t in docs[0]] == HANDMADE[0].tokens
    assert docs[0].text == " ".join(HANDMADE[0].tokens)
    assert [(e.text, e.label_) for e in docs[0].ents] == [("BERT-base", "MethodName"), ("SQuAD v1.1", "DatasetName")]


def test_docbin_made_by_spacy_keeps_whitespace_tokens_and_conll_refuses_them(tmp_path: Path) -> None:
    import spacy
    from spacy.tokens import DocBin

    nlp = spacy.blank("en")
    doc = nlp("We use  BERT\non SQuAD.")
    doc.ents = [doc.char_span(8, 12, label="MethodName"), doc.char_span(16, 21, label="DatasetName")]
    DocBin(docs=[doc]).to_disk(tmp_path / "made_by_spacy.spacy")
    (p,) = read_file(tmp_path / "made_by_spacy.spacy")
    # Every token spaCy made, whitespace ones too, so its entity indices stay right.
    assert p.tokens == ["We", "use", " ", "BERT", "\n", "on", "SQuAD", "."]
    assert p.tags == ["O", "O", "O", "B-MethodName", "O", "O", "B-DatasetName", "O"]
    with pytest.raises(UnwritableTokenError, match=r"paragraph 1, token 2 ' ' is only whitespace.*--to jsonl"):
        convert(tmp_path / "made_by_spacy.spacy", tmp_path / "out.conll")
    assert not (tmp_path / "out.conll").exists()
    convert(tmp_path / "made_by_spacy.spacy", tmp_path / "out.jsonl")
    assert read_file(tmp_path / "out.jsonl")[0].tokens == p.tokens


def test_an_ideographic_space_token_survives_convert_to_spacy_and_back(tmp_path: Path) -> None:
    # Regression: the U+3000 token vanished on the way back from .spacy, with exit 0.
    p = Paragraph(["数据", "\u3000", "BERT"], ["O", "B-MethodName", "I-MethodName"])
    write_file([p], tmp_path / "in.jsonl")
    convert(tmp_path / "in.jsonl", tmp_path / "mid.spacy")
    convert(tmp_path / "mid.spacy", tmp_path / "back.jsonl")
    (back,) = read_file(tmp_path / "back.jsonl")
    assert back.tokens == p.tokens and back.tags == p.tags


def test_format_comes_from_the_extension_or_is_refused() -> None:
    assert [suffix_format(f"x{e}").name for e in EXTENSIONS.values()] == list(EXTENSIONS)
    assert suffix_format("paras.txt").name == "text"
    assert set(EXTENSIONS) <= set(FORMATS)
    with pytest.raises(InputFormatError, match="--to"):
        output_format("x.xml")


def test_convert_cli_writes_doccano_with_to_and_reports_errors(tmp_path: Path) -> None:
    write_conll(HANDMADE, tmp_path / "in.conll")
    run = subprocess.run(
        [sys.executable, "-m", "sciner", "convert", str(tmp_path / "in.conll"), str(tmp_path / "out.jsonl"), "--to", "doccano"],
        capture_output=True, text=True, check=False,
    )
    assert run.returncode == 0, run.stderr
    assert "3 paragraphs (9 entities)" in run.stdout
    first = json.loads((tmp_path / "out.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert first["label"][0] == [13, 22, "MethodName"]
    bad = subprocess.run(
        [sys.executable, "-m", "sciner", "convert", str(tmp_path / "in.conll"), str(tmp_path / "out.xml")],
        capture_output=True, text=True, check=False,
    )
    assert bad.returncode == 3 and bad.stderr.startswith("error[E001]") and "Traceback" not in bad.stderr


# -- --retokenize: gold cut again by the task's tokenizer, labels moved by character offsets (issue 35.8) --

WHITESPACE_TOKENIZED = ("We\tO\nreport\tO\nperformance,\tB-MetricName\n(BERT-based\tB-MethodName\nmodels)\tI-MethodName\n"
                        "84.6%\tB-MetricValue\n\n")


def test_retokenize_cuts_glued_tokens_and_moves_each_label_onto_them(cli, tmp_path: Path) -> None:
    src, dst = tmp_path / "ws.conll", tmp_path / "spacy.conll"
    src.write_text(WHITESPACE_TOKENIZED * 2, encoding="utf-8")
    evaluated = cli("evaluate", src, src)
    assert "sciner convert" in evaluated.stderr and "--retokenize" in evaluated.stderr  # said on gold too
    result = cli("convert", src, dst, "--retokenize")
    assert result.returncode == 0, result.stderr
    assert "re-tokenized: 12 tokens became 24" in result.stdout
    p = read_conll(dst)[0]
    assert p.tokens == ["We", "report", "performance", ",", "(", "BERT", "-", "based", "models", ")", "84.6", "%"]
    entities = {(s.label, " ".join(p.tokens[s.start:s.end])) for s in p.spans}
    assert entities == {("MetricName", "performance"), ("MethodName", "BERT - based models"),
                        ("MetricValue", "84.6 %")}
