"""Text read as tokenized that is not (issue 23): one warning naming the share and --tokenize."""

from __future__ import annotations

import pytest

import sciner.files.inputs as files
from sciner.tokenize import GLUED_WARNING_SHARE, glued_share

RAW = "We fine-tune BERT (Devlin et al., 2019) on SQuAD, and report F1.\nIt works well, as expected.\n"
TOKENIZED = "We fine - tune BERT ( Devlin et al . , 2019 ) on SQuAD , and report F1 .\n"


def test_glued_share_counts_what_the_task_tokenizer_would_cut():
    share, examples = glued_share([RAW.split()])
    assert share > GLUED_WARNING_SHARE and len(examples) == 3 and all(t in RAW.split() for t in examples)
    assert glued_share([TOKENIZED.split()]) == (0.0, [])
    assert glued_share([]) == (0.0, [])


@pytest.fixture
def fresh_warning(monkeypatch):
    monkeypatch.setattr(files, "_warned_untokenized", False)


def test_predict_warns_once_on_untokenized_text_and_not_with_tokenize(cli, tmp_path, fresh_warning, loaded_once):
    for name in ("a.txt", "b.txt"):
        (tmp_path / name).write_text(RAW)
    result = cli("predict", str(tmp_path / "a.txt"), str(tmp_path / "b.txt"), "-q")
    assert result.returncode == 0
    warnings = [line for line in result.stderr.splitlines() if line.startswith("warning:")]
    assert len(warnings) == 1 and "pass --tokenize" in warnings[0] and "% of the tokens" in warnings[0]
    files._warned_untokenized = False
    assert "warning" not in cli("predict", str(tmp_path / "a.txt"), "--tokenize", "-q").stderr
    (tmp_path / "tok.txt").write_text(TOKENIZED)
    assert "warning" not in cli("predict", str(tmp_path / "tok.txt"), "-q").stderr


@pytest.mark.parametrize("verb", ["predict", "summarize"])
def test_a_warning_on_standard_input_names_the_stream_not_its_copy(verb, cli, fresh_warning, loaded_once, monkeypatch):
    """Regression (issue 33 item 12): the warning named the stream's temporary copy (/tmp/sciner-stream-.../stdin)."""
    import io
    import sys

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(RAW.encode("utf-8"))))
    result = cli(verb, "-", "-q")
    assert result.returncode == 0, result.stderr
    warnings = [line for line in result.stderr.splitlines() if line.startswith("warning:")]
    assert len(warnings) == 1 and warnings[0].startswith("warning: <stdin>: "), result.stderr
    assert "sciner-stream" not in result.stderr
