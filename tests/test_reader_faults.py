"""Structurally wrong annotation files are one ``error[E001]`` line naming file, line and field.

Issue 23's fault catalogue found JSON readers that crashed with ``TypeError``,
``OverflowError``, ``ValueError`` or ``KeyError`` on JSON of the wrong shape. The regression
cases below are the catalogue's; the property test mutates a valid record of each JSON
format at every level with values of the wrong kind and reads it through the registry, as
every verb does: it must read, or fail with the project's input error.
"""

from __future__ import annotations

import copy
import json
import math
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sciner.errors import InputFormatError, ScinerError, TokenMismatchError
from sciner.formats.registry import read_file

TOKENS = ["BERT", "is", "good"]
TEXT = " ".join(TOKENS)
# A placeholder json.dumps cannot spell: written as the literal 1e309, which Python's
# parser reads as infinity (json.dumps writes infinity as ``Infinity``).
HUGE = "\x00huge\x00"

# One valid record of each JSON format: the base the mutations start from.
VALID: dict[str, tuple[str, Any]] = {
    "jsonl": ("p.jsonl", {"tokens": TOKENS, "entities": [
        {"type": "MethodName", "start": 0, "end": 1, "score": 0.9, "text": "BERT", "char_start": 0, "char_end": 4}],
        "page": 1, "section": "Intro"}),
    "doccano": ("p.doccano.jsonl", {"text": TEXT, "label": [[0, 4, "MethodName"]], "tokens": TOKENS}),
    "doccano-entities": ("q.doccano.jsonl", {"text": TEXT, "entities": [
        {"start_offset": 0, "end_offset": 4, "label": "MethodName"}]}),
    "labelstudio": ("p.json", [{
        "data": {"text": TEXT, "tokens": TOKENS, "source": "x.txt", "line": 1},
        "annotations": [{"was_cancelled": False, "updated_at": "2024", "result": [
            {"type": "labels", "score": 0.5, "value": {"start": 0, "end": 4, "labels": ["MethodName"]}}]}],
        "predictions": [{"result": [{"type": "labels", "value": {"start": 8, "end": 12, "labels": ["TaskName"]}}]}],
    }]),
}


def _dump(value: Any) -> str:
    return json.dumps(value).replace(json.dumps(HUGE), "1e309")


def _write(tmp_path: Path, name: str, record: Any) -> Path:
    path = tmp_path / name
    # JSONL formats hold one record per line; Label Studio a whole JSON list.
    path.write_text(_dump(record) + "\n", encoding="utf-8")
    return path


def _assert_one_line_input_error(exc: ScinerError, path: Path) -> None:
    message = str(exc)
    assert "\n" not in message
    assert message.startswith(f"error[{exc.code}]: {path}:"), message
    if isinstance(exc, InputFormatError):
        assert exc.code == "E001" and exc.exit_code == 3
        # the line (a number) or the task, then the field
        assert re.match(rf"error\[E001\]: {re.escape(str(path))}:(\d+|task \d+): ", message), message
        assert any(what in message for what in ("field '", "the record must be", "invalid JSON")), message


# ---------------------------------------------------------------- the catalogue's cases

TASK = {"data": {"text": TEXT}}
CASES = {
    "jsonl entities not a list": ("a.jsonl", {"tokens": TOKENS, "entities": {"type": "MethodName"}},
                                  ":1: field 'entities' must be a list, got an object"),
    "jsonl offset 1e309": ("b.jsonl", {"tokens": TOKENS, "entities": [{"type": "MethodName", "start": 0, "end": HUGE}]},
                           ":1: field 'entities[0].end' must be a non-negative integer, got a number (inf)"),
    "jsonl score high": ("c.jsonl", {"tokens": TOKENS, "entities": [
        {"type": "MethodName", "start": 0, "end": 1, "score": "high"}]},
                         ":1: field 'entities[0].score' must be a finite number, got a string ('high')"),
    "labelstudio annotations not a list": ("d.json", [{**TASK, "annotations": {"result": []}}],
                                           ":task 1: field 'annotations' must be a list"),
    "labelstudio labels null": ("e.json", [{**TASK, "annotations": [{"result": [
        {"type": "labels", "value": {"start": 0, "end": 4, "labels": None}}]}]}],
                                ":task 1: field 'annotations[0].result[0].value.labels' must be a list, got null"),
    "labelstudio predictions an object": ("f.json", [{**TASK, "predictions": {"0": {"result": []}}}],
                                          ":task 1: field 'predictions' must be a list, got an object"),
    "doccano offset 1e309": ("g.doccano.jsonl", {"text": TEXT, "label": [[0, HUGE, "MethodName"]]},
                             ":1: field 'label[0][1]' must be a non-negative integer, got a number (inf)"),
    "doccano label not a triple": ("h.doccano.jsonl", {"text": TEXT, "label": [[0, 4]]},
                                   ":1: field 'label[0]' must be a list [start, end, type]"),
    "doccano overlapping labels": ("i.doccano.jsonl", {"text": TEXT, "label": [[0, 7, "MethodName"], [5, 12, "TaskName"]]},
                                   ":1: field 'label[1]': entity TaskName on tokens 1:3 overlaps field 'label[0]'"),
    "jsonl label not a string": ("j.jsonl", {"tokens": TOKENS, "entities": [{"type": ["MethodName"], "start": 0, "end": 1}]},
                                 ":1: field 'entities[0].type' must be an entity type"),
    "jsonl token not a string": ("k.jsonl", {"tokens": ["BERT", 7]}, ":1: field 'tokens[1]' must be a string, got a number"),
    "jsonl line not an object": ("l.jsonl", [TOKENS], ":1: the record must be an object, got a list"),
    # Found by the property test below: an integer too large for a float overflowed.
    "jsonl score 10**400": ("m.jsonl", {"tokens": TOKENS, "entities": [
        {"type": "MethodName", "start": 0, "end": 1, "score": 10**400}]},
                            ":1: field 'entities[0].score' must be a finite number, got a number"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_each_catalogue_case_is_one_line_naming_file_line_and_field(tmp_path: Path, case: str) -> None:
    name, record, expected = CASES[case]
    path = _write(tmp_path, name, record)
    with pytest.raises(InputFormatError) as caught:
        read_file(path)
    _assert_one_line_input_error(caught.value, path)
    assert expected in str(caught.value)


@pytest.mark.parametrize(
    ("content", "why"),
    [('{"tokens": [' + "1" * 5000 + "]}", "Exceeds the limit"), ('{"tokens": ' + "[" * 100_000 + "]" * 100_000 + "}",
                                                                  "nested too deeply")],
    ids=["5000-digit number", "nested 100000 deep"],
)
def test_json_the_parser_refuses_is_one_line(tmp_path: Path, content: str, why: str) -> None:
    """A 5000-digit number is a ValueError and deep nesting a RecursionError in Python's parser;
    the sniffing of a .jsonl file (doccano or sciner JSONL?) must not crash on them either."""
    path = tmp_path / "deep.jsonl"
    path.write_text(content + "\n", encoding="utf-8")
    with pytest.raises(InputFormatError, match=rf"{re.escape(str(path))}:1: invalid JSON \({why}"):
        read_file(path)


def test_valid_records_still_read_the_same(tmp_path: Path) -> None:
    """The base records of the property test read, so its mutations start from valid data."""
    for fmt, (name, record) in VALID.items():
        paragraphs = read_file(_write(tmp_path, name, record))
        assert [p.tokens for p in paragraphs] == [TOKENS], fmt
        assert paragraphs[0].spans and paragraphs[0].spans[0].label == "MethodName", fmt
    (jsonl,) = read_file(tmp_path / "p.jsonl")
    assert jsonl.spans[0].score == 0.9 and jsonl.meta == {"page": 1, "section": "Intro"}


def test_whole_float_offsets_are_read_as_integers(tmp_path: Path) -> None:
    """``3.0`` is the integer 3 (some tools write every number as a float); ``3.5`` is refused."""
    (p,) = read_file(_write(tmp_path, "w.doccano.jsonl", {"text": TEXT, "label": [[0.0, 4.0, "MethodName"]]}))
    assert (p.spans[0].start, p.spans[0].end) == (0, 1)
    with pytest.raises(InputFormatError, match="field 'label\\[0\\]\\[1\\]' must be a non-negative integer"):
        read_file(_write(tmp_path, "x.doccano.jsonl", {"text": TEXT, "label": [[0, 3.5, "MethodName"]]}))


# ---------------------------------------------------------------- the property test

# Values of the wrong kind for any field: what a hand-edited or foreign file can hold.
SCALARS = st.one_of(
    st.none(), st.booleans(), st.just(HUGE), st.just(-1), st.just(10**400), st.just(2.5), st.just(-0.0),
    st.sampled_from([math.nan, math.inf, -math.inf]), st.integers(-5, 50), st.text(max_size=5),
    st.sampled_from(["MethodName", "start", "", "labels", "0"]),
)
GARBAGE = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
    st.sampled_from(["start", "end", "type", "labels", "value", "result", "text", "tokens", "x"]), inner, max_size=3),
    max_leaves=6)


def _paths(value: Any, prefix: tuple = ()) -> list[tuple]:
    """Every position in a JSON value (the value itself included)."""
    found = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            found += _paths(item, (*prefix, i))
    return found


def _replace(value: Any, path: tuple, new: Any) -> Any:
    if not path:
        return new
    value = copy.deepcopy(value)
    holder = value
    for step in path[:-1]:
        holder = holder[step]
    holder[path[-1]] = new
    return value


@st.composite
def broken_records(draw: st.DrawFn) -> tuple[str, Any]:
    """A valid record of some JSON format with one position replaced by garbage, or with a
    field removed, or with a new field of garbage."""
    name, record = VALID[draw(st.sampled_from(sorted(VALID)))]
    paths = _paths(record)
    path = draw(st.sampled_from(paths))
    action = draw(st.sampled_from(["replace", "replace", "delete", "add"]))
    if action == "delete" and path:
        record = copy.deepcopy(record)
        holder = record
        for step in path[:-1]:
            holder = holder[step]
        del holder[path[-1]]
        return name, record
    if action == "add":
        dicts = [p for p in paths if isinstance(_get(record, p), dict)]
        target = draw(st.sampled_from(dicts))
        key = draw(st.sampled_from(["annotations", "predictions", "entities", "label", "labels", "score", "tokens",
                                    "start", "end", "result", "value", "type", "data", "page", "doc"]))
        return name, _replace(record, (*target, key), draw(GARBAGE))
    return name, _replace(record, path, draw(GARBAGE))


def _get(value: Any, path: tuple) -> Any:
    for step in path:
        value = value[step]
    return value


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(broken=broken_records())
def test_structurally_wrong_json_reads_or_is_one_input_error(tmp_path: Path, broken: tuple[str, Any]) -> None:
    name, record = broken
    path = _write(tmp_path, name, record)
    try:
        paragraphs = read_file(path)
    except (InputFormatError, TokenMismatchError) as exc:
        # TokenMismatchError: data.text and data.tokens disagree, which its own code says.
        _assert_one_line_input_error(exc, path)
        return
    for p in paragraphs:  # what was read is well-formed: the writers and the tagger rely on it
        assert all(isinstance(t, str) and t for t in p.tokens)
        for s in p.spans or []:
            assert isinstance(s.start, int) and isinstance(s.end, int) and 0 <= s.start < s.end <= len(p.tokens)
            assert s.score is None or (isinstance(s.score, float) and math.isfinite(s.score))


# ---------------------------------------------------------------- through the command line


def test_convert_and_evaluate_print_one_line_with_the_input_error_code(cli, tmp_path: Path) -> None:
    name, record, expected = CASES["labelstudio predictions an object"]
    bad = _write(tmp_path, name, record)
    result = cli("convert", bad, tmp_path / "out.conll")
    assert result.returncode == 3 and result.stdout == ""
    assert result.stderr.startswith(f"error[E001]: {bad}{expected}") and result.stderr.count("\n") == 1
    assert not (tmp_path / "out.conll").exists()
    gold = _write(tmp_path, *VALID["jsonl"])
    name, record, expected = CASES["jsonl score high"]
    pred = _write(tmp_path, name, record)
    result = cli("evaluate", gold, pred)
    assert result.returncode == 3 and result.stderr.startswith(f"error[E001]: {pred}{expected}")
    assert result.stderr.count("\n") == 1
