"""Formats round-trip any tokens unchanged; BIO <-> spans, repair and validation behave as documented."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sciner.document import Paragraph, Span
from sciner.errors import InputFormatError, InputNotFoundError, InvalidBIOError
from sciner.formats.conll import format_conll, read_conll, write_conll
from sciner.formats.jsonl import read_jsonl, write_jsonl
from sciner.formats.paragraphs import read_paragraphs
from sciner.formats.registry import write_file
from sciner.document import bio_to_spans, spans_to_bio
from sciner.formats.spans import find_stray_tags, repair_bio, validate_bio
from sciner.labels import BIO_TAGS, ENTITY_TYPES

# A token is any non-empty string without whitespace (str.isspace covers every character
# that splitlines() or split() breaks on). Surrogates cannot be written as UTF-8, and a
# leading U+FEFF would be read as the file's byte-order mark, so both are left out.
token_chars = st.characters(blacklist_categories=("Cs",), blacklist_characters="\ufeff")
tokens_st = st.text(token_chars, min_size=1, max_size=8).filter(
    lambda t: not any(c.isspace() for c in t) and t != "-DOCSTART-"
)
paragraph_tokens_st = st.lists(tokens_st, min_size=1, max_size=12)
tags_st = st.sampled_from(BIO_TAGS)


@st.composite
def tagged_paragraph_st(draw: st.DrawFn) -> tuple[list[str], list[str]]:
    """Tokens with valid BIO tags (a paragraph's entities are spans: a stray I-X reads back as B-X)."""
    tokens = draw(paragraph_tokens_st)
    tags = draw(st.lists(tags_st, min_size=len(tokens), max_size=len(tokens)))
    return tokens, repair_bio(tags).tags


@st.composite
def valid_tags_st(draw: st.DrawFn, max_size: int = 15) -> list[str]:
    """Any valid BIO sequence: random tags with their stray I- repaired."""
    return repair_bio(draw(st.lists(tags_st, max_size=max_size))).tags


fs_settings = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


# -- round trips through files -------------------------------------------------------------


@fs_settings
@given(paragraphs=st.lists(paragraph_tokens_st, min_size=1, max_size=5))
def test_paragraph_text_round_trips_tokens(tmp_path, paragraphs):
    path = tmp_path / "in.txt"
    write_file([Paragraph(tokens=t) for t in paragraphs], path)
    assert [p.tokens for p in read_paragraphs(path)] == paragraphs


@fs_settings
@given(paragraphs=st.lists(tagged_paragraph_st(), min_size=1, max_size=5))
def test_conll_tab_round_trips_tokens_and_tags(tmp_path, paragraphs):
    path = tmp_path / "out.conll"
    write_conll([Paragraph(tokens=t, tags=g) for t, g in paragraphs], path)
    back = read_conll(path)
    assert [(p.tokens, p.tags) for p in back] == paragraphs


@fs_settings
@given(paragraphs=st.lists(tagged_paragraph_st(), min_size=1, max_size=5), sep=st.sampled_from([" ", "   "]))
def test_conll_space_separated_round_trips_tokens_and_tags(tmp_path, paragraphs, sep):
    text = "".join("".join(f"{tok}{sep}{tag}\n" for tok, tag in zip(t, g)) + "\n" for t, g in paragraphs)
    path = tmp_path / "spaces.conll"
    path.write_text(text, encoding="utf-8")
    assert [(p.tokens, p.tags) for p in read_conll(path)] == paragraphs


@fs_settings
@given(paragraphs=st.lists(st.tuples(paragraph_tokens_st, st.data()), min_size=1, max_size=4))
def test_jsonl_round_trips_tokens_and_valid_tags(tmp_path, paragraphs):
    expected = []
    for tokens, data in paragraphs:
        raw = data.draw(st.lists(tags_st, min_size=len(tokens), max_size=len(tokens)))
        expected.append((tokens, repair_bio(raw).tags))
    path = tmp_path / "out.jsonl"
    write_jsonl([Paragraph(tokens=t, tags=g) for t, g in expected], path)
    back = read_jsonl(path)
    assert [(p.tokens, p.tags) for p in back] == expected
    # Character offsets point at the entity text in the space-joined paragraph.
    for line in path.read_text(encoding="utf-8").splitlines():
        obj = json.loads(line)
        for e in obj["entities"]:
            assert obj["text"][e["char_start"] : e["char_end"]] == e["text"]


def test_jsonl_keeps_scores(tmp_path):
    p = Paragraph(tokens=["BERT", "on", "SQuAD"], spans=[Span("MethodName", 0, 1, 0.91234), Span("DatasetName", 2, 3)])
    path = tmp_path / "s.jsonl"
    write_jsonl([p], path)
    entities = json.loads(path.read_text(encoding="utf-8"))["entities"]
    assert entities[0] == {"type": "MethodName", "start": 0, "end": 1, "text": "BERT", "char_start": 0, "char_end": 4, "score": 0.9123}
    assert "score" not in entities[1]
    assert read_jsonl(path)[0].spans[0].score == pytest.approx(0.9123)


def test_docstart_lines_start_documents_and_blank_lines_are_ignored(tmp_path):
    path = tmp_path / "doc.conll"
    path.write_text("-DOCSTART- -X- O O\n\nWe O\nuse O\nBERT B-MethodName\n\n\n-DOCSTART-\tO\nGLUE\tB-DatasetName\n", encoding="utf-8")
    paragraphs = read_conll(path)
    assert [p.tokens for p in paragraphs] == [["We", "use", "BERT"], ["GLUE"]]
    assert paragraphs[1].tags == ["B-DatasetName"]
    assert paragraphs[0].line == 3
    assert [p.meta["doc"] for p in paragraphs] == ["doc", "doc#2"]  # the papers of the paper-level pass
    # Written back, each document starts with its -DOCSTART- line again (issue 21: documents survive).
    out = tmp_path / "out.conll"
    write_conll(paragraphs, out)
    assert out.read_text(encoding="utf-8").count("-DOCSTART-") == 2
    assert [p.meta["doc"] for p in read_conll(out)] == ["out", "out#2"]
    plain = tmp_path / "plain.conll"
    plain.write_text("We O\n\nGLUE O\n", encoding="utf-8")
    assert [p.meta for p in read_conll(plain)] == [{}, {}]  # no marker: the file is one document


# -- BIO <-> spans -------------------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(tags=valid_tags_st())
def test_valid_bio_round_trips_through_spans(tags):
    validate_bio(tags)
    assert spans_to_bio(bio_to_spans(tags), len(tags)) == tags


@st.composite
def spans_st(draw: st.DrawFn) -> tuple[list[Span], int]:
    length = draw(st.integers(0, 20))
    cuts = sorted(draw(st.sets(st.integers(0, length), max_size=10)))
    spans = []
    for start, end in zip(cuts[::2], cuts[1::2]):
        if draw(st.booleans()):
            spans.append(Span(draw(st.sampled_from(ENTITY_TYPES)), start, end))
    return spans, length


@settings(max_examples=200, deadline=None)
@given(case=spans_st())
def test_spans_round_trip_through_bio(case):
    spans, length = case
    assert bio_to_spans(spans_to_bio(spans, length)) == spans


@settings(max_examples=200, deadline=None)
@given(tags=st.lists(tags_st, max_size=15))
def test_reading_spans_equals_reading_the_repaired_tags(tags):
    # A stray I-X starts an entity: exactly what repair's B-X would give.
    assert bio_to_spans(tags) == bio_to_spans(repair_bio(tags).tags)
    assert spans_to_bio(bio_to_spans(tags), len(tags)) == repair_bio(tags).tags


@settings(max_examples=200, deadline=None)
@given(tags=st.lists(tags_st, max_size=15))
def test_repair_counts_the_tags_it_changes(tags):
    result = repair_bio(tags)
    changed = [i for i, (a, b) in enumerate(zip(tags, result.tags)) if a != b]
    assert result.repaired == len(changed) == len(find_stray_tags(tags))
    assert all(tags[i].startswith("I-") and result.tags[i] == "B-" + tags[i][2:] for i in changed)
    validate_bio(result.tags)
    assert repair_bio(result.tags).repaired == 0


def test_repair_examples():
    tags = ["I-TaskName", "O", "I-MethodName", "I-MethodName", "B-DatasetName", "I-MetricName"]
    result = repair_bio(tags)
    assert result.tags == ["B-TaskName", "O", "B-MethodName", "I-MethodName", "B-DatasetName", "B-MetricName"]
    assert result.repaired == 3


def test_stray_i_starts_an_entity():
    assert bio_to_spans(["O", "I-MethodName", "I-MethodName", "I-TaskName"]) == [
        Span("MethodName", 1, 3),
        Span("TaskName", 3, 4),
    ]


@pytest.mark.parametrize(
    ("tags", "message"),
    [
        (["I-MethodName"], "token 0: I-MethodName after start of paragraph"),
        (["O", "I-TaskName"], "token 1: I-TaskName after O"),
        (["B-TaskName", "I-MethodName"], "token 1: I-MethodName after B-TaskName"),
        (["O", "B-Method"], "token 1: unknown tag 'B-Method'"),
    ],
)
def test_validate_bio_names_the_first_error(tags, message):
    with pytest.raises(InvalidBIOError) as exc:
        validate_bio(tags, where="f.conll:3")
    assert str(exc.value).startswith("error[E003]: f.conll:3: ")
    assert message in str(exc.value)


def test_spans_to_bio_refuses_overlap_and_out_of_range():
    with pytest.raises(ValueError, match="overlaps"):
        spans_to_bio([Span("TaskName", 0, 2), Span("MethodName", 1, 3)], 4)
    with pytest.raises(ValueError, match="outside"):
        spans_to_bio([Span("TaskName", 2, 5)], 4)


# -- bad input names the file and line ------------------------------------------------------


def test_conll_wrong_column_count(tmp_path):
    path = tmp_path / "bad.conll"
    path.write_text("We\tO\nuse\tO\textra\n", encoding="utf-8")
    with pytest.raises(InputFormatError, match=r"bad\.conll:2: found 3 columns"):
        read_conll(path)


def test_conll_unknown_tag(tmp_path):
    path = tmp_path / "bad.conll"
    path.write_text("We\tO\n\nBERT\tB-Model\n", encoding="utf-8")
    with pytest.raises(InputFormatError, match=r"bad\.conll:3: unknown tag 'B-Model'"):
        read_conll(path)


@pytest.mark.parametrize("reader", [read_conll, read_paragraphs, read_jsonl])
def test_invalid_utf8_is_refused(tmp_path, reader):
    path = tmp_path / "latin1.txt"
    path.write_bytes("ok\tO\n".encode() + "caf\u00e9\tO\n".encode("latin-1"))
    with pytest.raises(InputFormatError, match=r"latin1\.txt:2: invalid UTF-8 \(byte 0xe9\)"):
        reader(path)


def test_missing_file(tmp_path):
    with pytest.raises(InputNotFoundError, match="no such file"):
        read_conll(tmp_path / "nope.conll")


def test_format_conll_is_tab_separated():
    assert format_conll([Paragraph(tokens=["a", "b"], tags=["O", "B-TaskName"])]) == "a\tO\nb\tB-TaskName\n\n"
