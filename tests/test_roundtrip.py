"""Every token once: through each format's real writer and reader, a token comes back exactly as
it was, or writing it is refused with a one-line error and nothing is written."""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sciner.document import Paragraph, Span
from sciner.errors import InputFormatError, UnwritableTokenError
from sciner.formats.registry import FORMATS, read_file, write_file
from sciner.formats.spans import repair_bio
from sciner.labels import BIO_TAGS

READABLE_WRITABLE = [n for n, f in FORMATS.items() if f.read and f.render]  # text + the entity formats
SUFFIX = {name: FORMATS[name].suffixes[0] for name in READABLE_WRITABLE}

# The awkward tokens: whitespace of every kind, inside or alone, line breaks, the CoNLL
# document marker, a leading byte-order mark, the empty token, a lone surrogate.
AWKWARD = ["-DOCSTART-", "\u3000", "\t", " ", "a b", "x\ty", "x\ny", "x\ry", "\n", "\ufeffBOM", "\u2028",
           "\x85", "\x0c", "\x00", "", "\ud800", "{", '"', "\\", "O", "B-TaskName"]
token_st = st.one_of(
    st.text(st.characters(blacklist_categories=("Cs", "Cc", "Zs", "Zl", "Zp")), min_size=1, max_size=6),
    st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=6),
    st.text(st.characters(whitelist_categories=("Zs", "Cc", "Po", "Ps", "Pe")), min_size=1, max_size=3),
    st.sampled_from(AWKWARD),
)


@st.composite
def paragraph_st(draw: st.DrawFn) -> Paragraph:
    tokens = draw(st.lists(token_st, min_size=1, max_size=6))
    tags = draw(st.lists(st.sampled_from(BIO_TAGS), min_size=len(tokens), max_size=len(tokens)))
    return Paragraph(tokens, repair_bio(tags).tags)


def _spans(paragraphs: list[Paragraph]) -> list[list[tuple[str, int, int]]]:
    return [[(s.label, s.start, s.end) for s in p.spans or []] for p in paragraphs]


def _write_and_read(paragraphs: list[Paragraph], fmt: str, folder: Path) -> list[Paragraph] | None:
    """What the file reads back as, or None when writing was refused (and then nothing was written)."""
    target = folder / f"out{SUFFIX[fmt]}"
    try:
        write_file(paragraphs, target)
    except UnwritableTokenError as err:
        assert "\n" not in str(err) and str(err).startswith("error[E009]: ")
        assert not target.exists()
        return None
    return read_file(target)


@pytest.mark.parametrize("fmt", READABLE_WRITABLE)
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(paragraphs=st.lists(paragraph_st(), min_size=1, max_size=3))
def test_every_token_comes_back_once_or_writing_is_refused(fmt: str, paragraphs: list[Paragraph]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        back = _write_and_read(paragraphs, fmt, Path(folder))
    if back is None:
        return
    assert [p.tokens for p in back] == [p.tokens for p in paragraphs]
    if FORMATS[fmt].carries_entities:
        assert _spans(back) == _spans(paragraphs)


# -- what each format refuses (writing) and carries ------------------------------------------

CARRIED_ONLY_BY_TOKEN_FORMATS = ["\u3000", "\t", " ", "a b", "x\ty", "x\ny", "\r", "-DOCSTART-"]


@pytest.mark.parametrize("fmt", ["jsonl", "doccano", "labelstudio", "spacy"])
def test_formats_that_keep_tokens_carry_any_token_with_its_entity(fmt: str, tmp_path: Path) -> None:
    tokens = ["We", *CARRIED_ONLY_BY_TOKEN_FORMATS, "\ufeffBOM", "."]
    spans = [Span("MethodName", i, i + 1) for i in range(1, len(tokens) - 1, 2)]
    p = Paragraph(tokens, spans=spans)
    back = _write_and_read([p], fmt, tmp_path)
    assert back is not None and back[0].tokens == tokens and _spans(back) == _spans([p])


@pytest.mark.parametrize(
    "fmt, token, reason",
    [
        ("conll", "x\ty", "contains a tab"),
        ("conll", "x\ny", "contains a line break"),
        ("conll", "x\ry", "contains a carriage return"),
        ("conll", "\u3000", "is only whitespace"),
        ("conll", " ", "is only whitespace"),
        ("conll", "-DOCSTART-", "is the CoNLL document marker"),
        ("text", "a b", "contains a space"),
        ("text", "x\ny", "contains a line break"),
        ("text", "x\ry", "contains a carriage return"),
    ],
)
def test_line_formats_refuse_tokens_they_cannot_carry(fmt: str, token: str, reason: str, tmp_path: Path) -> None:
    paragraphs = [Paragraph(["fine"], source="in.jsonl", line=1),
                  Paragraph(["We", "use", token], ["O", "O", "B-MethodName"], source="in.jsonl", line=2)]
    target = tmp_path / f"out{SUFFIX[fmt]}"
    with pytest.raises(UnwritableTokenError) as err:
        write_file(paragraphs, target)
    assert err.value.message == (f"in.jsonl:2: paragraph 2, token 2 {token!r} {reason}: a {fmt} file cannot "
                                 "carry it; use --to jsonl, which carries any token")
    assert not target.exists()


def test_line_formats_carry_what_the_other_one_refuses(tmp_path: Path) -> None:
    # A space inside a token is fine in CoNLL (tab-separated); a tab or -DOCSTART- is fine in text.
    assert _write_and_read([Paragraph(["a b", "c"], ["B-TaskName", "O"])], "conll", tmp_path)[0].tokens == ["a b", "c"]
    tokens = ["x\ty", "-DOCSTART-", "\u3000", "\t"]
    assert _write_and_read([Paragraph(tokens)], "text", tmp_path)[0].tokens == tokens


@pytest.mark.parametrize("fmt", READABLE_WRITABLE)
def test_no_format_carries_an_empty_token_or_a_lone_surrogate(fmt: str, tmp_path: Path) -> None:
    for token, reason in (("", "is empty"), ("\ud800", "is not valid Unicode")):
        with pytest.raises(UnwritableTokenError, match=f"paragraph 1, token 1 .* {reason}.*no format can carry it"):
            write_file([Paragraph(["a", token])], tmp_path / f"out{SUFFIX[fmt]}")
    assert not (tmp_path / f"out{SUFFIX[fmt]}").exists()


@pytest.mark.parametrize("fmt", ["conll", "text"])
def test_line_formats_refuse_an_empty_paragraph(fmt: str, tmp_path: Path) -> None:
    with pytest.raises(UnwritableTokenError, match="paragraph 2 has no tokens"):
        write_file([Paragraph(["a"], spans=[]), Paragraph([], spans=[])], tmp_path / f"out{SUFFIX[fmt]}")


@pytest.mark.parametrize("fmt", ["jsonl", "doccano", "labelstudio", "spacy"])
def test_other_formats_keep_an_empty_paragraph(fmt: str, tmp_path: Path) -> None:
    back = _write_and_read([Paragraph(["a"], ["O"]), Paragraph([], []), Paragraph(["b"], ["O"])], fmt, tmp_path)
    assert [p.tokens for p in back] == [["a"], [], ["b"]]


def test_a_leading_byte_order_mark_token_survives_the_line_formats(tmp_path: Path) -> None:
    # Readers drop one leading byte-order mark; the writers add one so the token keeps its own.
    for fmt in ("conll", "text"):
        back = _write_and_read([Paragraph(["\ufeffx", "y"], ["O", "O"])], fmt, tmp_path)
        assert back[0].tokens == ["\ufeffx", "y"]


# -- reading: what a format cannot carry is not made up either -------------------------------


def test_json_readers_refuse_empty_and_surrogate_tokens(tmp_path: Path) -> None:
    for name, content in (
        ("e.jsonl", '{"tokens": ["a", ""], "entities": []}\n'),
        ("s.jsonl", '{"tokens": ["a", "\\ud800"], "entities": []}\n'),
        ("e.doccano.jsonl", '{"text": "a ", "tokens": ["a", ""], "label": []}\n'),
        ("s.json", '[{"data": {"text": "a \\ud800", "tokens": ["a", "\\ud800"]}}]'),
    ):
        (tmp_path / name).write_text(content, encoding="utf-8")
        with pytest.raises(InputFormatError, match=r":(1|task 1): token 1 .* (is empty|is not valid Unicode)"):
            read_file(tmp_path / name)


def test_conll_reader_skips_docstart_and_refuses_a_tab_inside_a_token(tmp_path: Path) -> None:
    path = tmp_path / "in.conll"
    path.write_text("-DOCSTART-\tO\n\nx\ty\tO\n", encoding="utf-8")
    with pytest.raises(InputFormatError, match=r"in\.conll:3: found 3 columns"):
        read_file(path)
    path.write_text("-DOCSTART-\tO\n\na b\tB-TaskName\n", encoding="utf-8")
    assert [(p.tokens, p.tags) for p in read_file(path)] == [(["a b"], ["B-TaskName"])]


def test_convert_cli_refuses_a_tab_token_in_one_line_and_writes_nothing(tmp_path: Path) -> None:
    write_file([Paragraph(["We", "x\ty"], ["O", "B-MethodName"])], tmp_path / "in.jsonl")
    run = subprocess.run(
        [sys.executable, "-m", "sciner", "convert", str(tmp_path / "in.jsonl"), str(tmp_path / "out.conll")],
        capture_output=True, text=True, check=False,
    )
    assert run.returncode == 11
    assert run.stderr == (f"error[E009]: {tmp_path / 'in.jsonl'}:1: paragraph 1, token 1 'x\\ty' contains a tab: "
                          "a conll file cannot carry it; use --to jsonl, which carries any token\n")
    assert not (tmp_path / "out.conll").exists()
