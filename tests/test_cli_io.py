"""The CLI's files in and out: --from/--to from the format registry, outputs planned before any
work, written atomically and never over an input, unreadable inputs reported in one line.

Most runs call ``sciner.cli.main()`` in-process (it is what turns a ScinerError into one line
and an exit code); two real subprocesses check the console behaviour end to end.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from sciner.document import Paragraph, Span
from sciner.errors import InputNotFoundError
from sciner.formats.registry import READ_FORMATS, write_file
from sciner.files.inputs import read_input
from sciner.inference.predict import PREDICT_FORMATS

GOLD = "We\tO\nuse\tO\nBERT\tB-MethodName\non\tO\nSQuAD\tB-DatasetName\n.\tO\n"
BAD_UTF8 = b"We use \xff BERT .\n"


def one_line_error(stderr: str, code: str) -> str:
    """The single line of a user error (no traceback)."""
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error[{code}]"), stderr
    return lines[0]


@pytest.fixture
def run(cli):
    """``run(*args)`` -> (exit code, stdout, stderr) of ``sciner ARGS`` in-process."""
    return cli


@pytest.fixture
def gold(tmp_path: Path) -> Path:
    path = tmp_path / "gold.conll"
    path.write_text(GOLD, encoding="utf-8")
    return path


# --- --from / --to -----------------------------------------------------------------------------


@pytest.mark.parametrize("verb", ["predict", "evaluate", "compare", "show", "report", "convert"])
def test_every_verb_on_tagged_files_lists_the_registry_formats(run, verb: str) -> None:
    code, out, _ = run(verb, "--help")
    assert code == 0
    flat = " ".join(out.split())
    assert "--from" in flat
    assert ", ".join(READ_FORMATS) in flat


def test_predict_offers_the_formats_that_hold_entities(run) -> None:
    flat = " ".join(run("predict", "--help")[1].split())
    assert f"--to <str> Format of the output: {', '.join(PREDICT_FORMATS)}." in flat
    assert PREDICT_FORMATS == ("conll", "jsonl", "doccano", "labelstudio", "spacy", "html")
    assert "--format" not in flat  # the old name still works, unlisted


@pytest.mark.parametrize("args", [
    ("predict", "{gold}", "--from", "tsv-ish"),
    ("predict", "{gold}", "--to", "tsv-ish"),
    ("evaluate", "{gold}", "{gold}", "--from", "tsv-ish"),
    ("show", "{gold}", "-o", "{tmp}/page.html", "--from", "tsv-ish"),
    ("convert", "{gold}", "{tmp}/out.conll", "--to", "tsv-ish"),
])
def test_an_unknown_format_name_is_one_line_listing_the_choices(run, gold: Path, args: tuple[str, ...]) -> None:
    code, _, err = run(*(a.format(gold=gold, tmp=gold.parent) for a in args))
    line = one_line_error(err, "E001")
    assert code == 3 and "'tsv-ish'" in line and "conll, jsonl" in line


def test_from_reads_files_whose_suffix_says_otherwise(run, tmp_path: Path) -> None:
    gold = tmp_path / "gold.txt"  # CoNLL content under a paragraph-text suffix
    gold.write_text(GOLD, encoding="utf-8")
    code, _, err = run("evaluate", gold, gold)
    assert code == 3 and "a text file has no tags" in one_line_error(err, "E001")
    code, out, _ = run("evaluate", gold, gold, "--from", "conll", "--json")
    assert code == 0 and json.loads(out)["micro"]["f1"] == 1.0
    code, out, _ = run("compare", gold, gold, gold, "--from", "conll", "--samples", "5", "--json")
    assert code == 0 and json.loads(out)["p_value"] == 1.0


def test_a_converted_file_evaluates_like_its_source(run, gold: Path) -> None:
    """Regression: conll -> doccano, then evaluate gold against it printed F1 0 with exit 0."""
    converted = gold.parent / "g.doccano.jsonl"
    assert run("convert", gold, converted)[0] == 0
    code, out, _ = run("evaluate", gold, converted, "--json")
    assert code == 0 and json.loads(out)["micro"]["f1"] == 1.0


# --- predict: outputs checked before any work ------------------------------------------------


def test_predict_never_writes_over_its_input(run, tmp_path: Path) -> None:
    me = tmp_path / "self.txt"
    me.write_text("We use BERT .\n", encoding="utf-8")
    code, _, err = run("predict", me, "-o", me)
    assert code == 10 and "is also an input" in one_line_error(err, "E008")
    assert me.read_text(encoding="utf-8") == "We use BERT .\n"
    bad = tmp_path / "b.txt"  # a failing input is still an input
    bad.write_bytes(BAD_UTF8)
    code, _, err = run("predict", me, bad, "-o", bad)
    assert code == 10 and f"{bad}: is also an input" in one_line_error(err, "E008")
    assert bad.read_bytes() == BAD_UTF8


def test_predict_into_the_folder_of_its_inputs_refuses_to_rewrite_them(run, gold: Path) -> None:
    code, _, err = run("predict", gold.parent, "-o", gold.parent)
    assert code == 10 and f"{gold}: is also an input" in one_line_error(err, "E008")
    assert gold.read_text(encoding="utf-8") == GOLD


def test_predict_refuses_what_it_cannot_write_before_tagging(run, tmp_path: Path, gold: Path) -> None:
    code, _, err = run("predict", gold, "-o", tmp_path / "tags.txt")
    assert code == 10 and "text files cannot hold" in one_line_error(err, "E008")
    code, _, err = run("predict", gold, "--to", "spacy")
    assert code == 10 and "binary format" in one_line_error(err, "E008")
    (tmp_path / "afile").write_text("")
    code, _, err = run("predict", gold, "-o", tmp_path / "afile" / "sub" / "out.conll")
    assert code == 10 and "cannot create folder" in one_line_error(err, "E008")


def test_predict_with_every_input_failing_writes_nothing(run, tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_bytes(BAD_UTF8)
    existing = tmp_path / "out.conll"
    existing.write_text("keep me\n", encoding="utf-8")
    code, _, err = run("predict", bad, "-o", existing, "-q")
    assert code == 3 and "bad.txt:1: invalid UTF-8" in err and "Traceback" not in err
    assert existing.read_text(encoding="utf-8") == "keep me\n"
    code, _, _ = run("predict", bad, "-o", f"{tmp_path}/new/", "-q")
    assert code == 3 and not (tmp_path / "new").exists()


def test_an_unreadable_input_is_one_line_naming_it(run, tmp_path: Path, monkeypatch) -> None:
    import sciner.formats.paragraphs as paragraphs

    def denied(path):
        raise PermissionError(13, "Permission denied", str(path))

    locked = tmp_path / "locked.txt"
    locked.write_text("We use BERT .\n", encoding="utf-8")
    monkeypatch.setattr(paragraphs, "read_paragraphs", denied)  # root may read anything: fake the refusal
    with pytest.raises(InputNotFoundError, match=r"locked.txt: cannot be read \(Permission denied\)"):
        read_input(locked)
    code, _, err = run("predict", locked, tmp_path / "missing.txt", "-q")
    assert code == 8 and "Traceback" not in err
    assert f"error[E007]: {locked}: cannot be read (Permission denied)" in err.splitlines()
    assert "2 input(s) failed:" in err


# --- predict: real runs with the shipped model (the session's, conftest's loaded_once) ----------


def test_predict_reads_every_format_and_writes_one_file_per_input(run, loaded_once, tmp_path: Path) -> None:
    inputs = tmp_path / "in"
    (inputs / "sub").mkdir(parents=True)
    (inputs / "x.txt").write_text("We use BERT .\n", encoding="utf-8")
    (inputs / "sub" / "x.txt").write_text("Related Work\n", encoding="utf-8")
    tagged = [Paragraph(["SQuAD", "is", "small"], spans=[Span("DatasetName", 0, 1)])]
    write_file(tagged, inputs / "p.spacy")
    write_file(tagged, inputs / "t.json")  # Label Studio
    (inputs / "bad.txt").write_bytes(BAD_UTF8)
    out = tmp_path / "out"
    code, _, err = run("predict", inputs / "x.txt", inputs / "sub" / "x.txt", inputs / "p.spacy", inputs / "t.json",
                       inputs / "bad.txt", "-o", f"{out}/", "--precision", "fp32")
    assert code == 9, err
    written = sorted(p.relative_to(out).as_posix() for p in out.rglob("*"))
    assert written == ["p.conll", "sub", "sub/x.conll", "t.conll", "x.conll"]
    assert [row.split("\t")[0] for row in (out / "sub" / "x.conll").read_text().split()[::2]] == ["Related", "Work"]
    assert (out / "p.conll").read_text().split()[::2] == ["SQuAD", "is", "small"]
    assert "from 4 input file(s)" in err and "wrote 4 files" in err
    assert "1 input(s) failed:" in err and "bad.txt:1: invalid UTF-8" in err


def test_predict_to_one_file_keeps_the_good_inputs_and_the_old_format_option(run, loaded_once, tmp_path: Path) -> None:
    good = tmp_path / "good.txt"
    good.write_text("We use BERT .\n", encoding="utf-8")
    bad = tmp_path / "bad.txt"
    bad.write_bytes(BAD_UTF8)
    target = tmp_path / "missing" / "parent" / "tags"  # no suffix: -f decides
    code, _, err = run("predict", good, bad, "-o", target, "-f", "jsonl", "--precision", "fp32")
    assert code == 9, err
    rows = [json.loads(line) for line in target.read_text(encoding="utf-8").splitlines()]
    assert [r["tokens"] for r in rows] == [["We", "use", "BERT", "."]]
    assert f"wrote {target}" in err
    assert [p.name for p in target.parent.iterdir()] == ["tags"]  # no temporary file left


def test_predict_without_output_writes_text_formats_to_stdout(run, loaded_once, tmp_path: Path) -> None:
    good = tmp_path / "good.txt"
    good.write_text("We use BERT .\n", encoding="utf-8")
    code, out, err = run("predict", good, "--to", "doccano", "--precision", "fp32", "-q")
    assert code == 0 and err == ""
    assert json.loads(out)["text"] == "We use BERT ."


# --- the other verbs ----------------------------------------------------------------------------


# extract is not one of them: -o DIR writes one output per paper (tests/test_pipes.py).
@pytest.mark.parametrize("verb", ["show", "report", "convert"])
def test_a_folder_as_the_output_of_a_one_file_verb_is_one_line(run, tmp_path: Path, gold: Path, verb: str) -> None:
    first = {"show": [gold], "report": [gold, gold], "convert": [gold]}[verb]
    for folder in (tmp_path, f"{tmp_path}/newdir/"):
        args = [*first, folder] if verb == "convert" else [*first, "-o", folder]
        code, _, err = run(verb, *args)
        assert code == 10 and "-o needs a file name" in one_line_error(err, "E008"), verb
    assert not (tmp_path / "newdir").exists()


def test_show_writes_into_new_folders_but_never_over_an_input(run, tmp_path: Path, gold: Path) -> None:
    code, _, err = run("show", gold, "-o", gold)
    assert code == 10 and "is also an input" in one_line_error(err, "E008")
    assert gold.read_text(encoding="utf-8") == GOLD
    page = tmp_path / "a" / "b" / "page.html"
    code, out, _ = run("show", gold, "--gold", gold, "-o", page)
    assert code == 0 and out.strip() == f"wrote {page}"
    assert "SQuAD" in page.read_text(encoding="utf-8")


def test_convert_and_its_label_config_go_into_new_folders(run, tmp_path: Path, gold: Path) -> None:
    tasks = tmp_path / "ls" / "tasks.json"
    config = tmp_path / "ls" / "xml" / "config.xml"
    code, _, err = run("convert", gold, tasks, "--label-config", config)
    assert code == 0, err
    assert config.read_text(encoding="utf-8").lstrip().startswith("<View")
    code, _, err = run("convert", gold, tasks, "--label-config", gold)
    assert code == 10 and "is also an input" in one_line_error(err, "E008")


def test_a_markdown_report_and_its_plots_go_into_a_new_folder(run, tmp_path: Path, gold: Path) -> None:
    target = tmp_path / "reports" / "r.md"
    code, out, err = run("report", gold, gold, "-o", target, "--samples", "5")
    assert code == 0, err
    names = sorted(p.name for p in target.parent.iterdir())
    assert names == ["r-confusion-1.png", "r-f1-by-casing.png", "r-f1-by-length.png", "r-per-type-f1.png", "r.md"]
    assert out.count("wrote ") == 5
    code, _, err = run("report", gold, gold, "-o", gold)
    assert code == 10 and "is also an input" in one_line_error(err, "E008")


def test_extract_never_writes_over_the_paper(run, tmp_path: Path) -> None:
    paper = tmp_path / "paper.pdf"
    paper.write_bytes(b"%PDF-1.4 broken")
    code, _, err = run("extract", paper, "-o", paper)
    assert code == 10 and "is also an input" in one_line_error(err, "E008")
    assert paper.read_bytes() == b"%PDF-1.4 broken"


# --- the console, for real --------------------------------------------------------------------


def console(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "sciner", *map(str, args)], capture_output=True, text=True, timeout=120)


def test_console_show_into_a_folder_is_one_line(gold: Path, tmp_path: Path) -> None:
    proc = console("show", gold, "-o", tmp_path)
    assert proc.returncode == 10
    assert proc.stderr == f"error[E008]: {tmp_path}: is a directory; -o needs a file name\n"


def test_console_predict_over_its_input_loads_no_model(tmp_path: Path) -> None:
    me = tmp_path / "self.txt"
    me.write_text("We use BERT .\n", encoding="utf-8")
    proc = console("predict", me, "-o", me, "--model", tmp_path / "no-such-model")
    # The output is refused before the (missing) model is looked at.
    assert proc.returncode == 10 and "is also an input" in one_line_error(proc.stderr, "E008")
    assert me.read_text(encoding="utf-8") == "We use BERT .\n"


def test_predict_leaves_a_figure_s_text_untagged_and_the_text_as_it_would_be(run, loaded_once, tmp_path: Path) -> None:
    """A JSONL paper whose PDF reading kept a plot's labels (kind "figure"): predict writes that
    paragraph with no entity, and tags the text as it does without it (no paper-level pass over
    the plot's words)."""
    text = {"tokens": ["We", "train", "BERT", "on", "SQuAD", "and", "report", "F1", "."], "kind": "body"}
    plot = {"tokens": ["BERT", "88.5", "F1", "SQuAD", "0.5", "1.0"], "kind": "figure"}
    for name, rows in (("with.jsonl", [text, plot]), ("without.jsonl", [text])):
        (tmp_path / name).write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
        code, _, err = run("predict", tmp_path / name, "-o", tmp_path / f"out-{name}", "--precision", "fp32", "-q")
        assert code == 0, err
    with_plot = [json.loads(line) for line in (tmp_path / "out-with.jsonl").read_text(encoding="utf-8").splitlines()]
    without = [json.loads(line) for line in (tmp_path / "out-without.jsonl").read_text(encoding="utf-8").splitlines()]
    assert with_plot[1]["kind"] == "figure" and with_plot[1]["entities"] == []
    assert with_plot[0]["entities"] == without[0]["entities"] != []
