"""Pipes and raw text: ``-`` is standard input and output for predict, extract and convert;
``predict --tokenize`` and ``Tagger.tag_text`` take untokenized text; extract takes many papers.

Most runs are in-process through the ``cli`` fixture, with ``sys.stdin`` replaced; one real
subprocess pipes into ``/dev/stdin``.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

TEXT = "We use BERT on SQuAD .\n"
RAW = "We fine-tune BERT on SQuAD v1.1, and report F1."
# What spaCy's English tokenizer (the task's) makes of RAW.
RAW_TOKENS = ["We", "fine", "-", "tune", "BERT", "on", "SQuAD", "v1.1", ",", "and", "report", "F1", "."]
GOLD = "We\tO\nuse\tO\nBERT\tB-MethodName\non\tO\nSQuAD\tB-DatasetName\n.\tO\n\n"


@pytest.fixture
def stdin(monkeypatch: pytest.MonkeyPatch):
    """``stdin(data)`` makes ``data`` (text or bytes) the process's standard input."""

    def feed(data: str | bytes) -> None:
        raw = data.encode("utf-8") if isinstance(data, str) else data
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8"))

    return feed


def one_line_error(stderr: str, code: str) -> str:
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error[{code}]"), stderr
    return lines[0]


def conll_tokens(text: str) -> list[str]:
    return [line.split("\t")[0] for line in text.splitlines() if line and not line.startswith("-DOCSTART-")]


# --- predict ----------------------------------------------------------------------------------


def test_predict_dash_reads_paragraph_text_from_stdin_and_writes_stdout(loaded_once, cli, stdin, tmp_path: Path) -> None:
    stdin(TEXT)
    piped = cli("predict", "-", "-o", "-", "-q", "--precision", "fp32")
    named = tmp_path / "paper.txt"
    named.write_text(TEXT, encoding="utf-8")
    from_file = cli("predict", named, "-q", "--precision", "fp32")
    assert piped.returncode == 0 and piped.stderr == ""
    assert piped.stdout == from_file.stdout
    assert conll_tokens(piped.stdout) == TEXT.split()


def test_predict_reads_stdin_in_the_format_its_content_shows_or_from(loaded_once, cli, stdin) -> None:
    stdin(GOLD)
    sniffed = cli("predict", "-", "-q", "--precision", "fp32", "--json")
    stdin(GOLD)
    named = cli("predict", "-", "--from", "conll", "-q", "--precision", "fp32", "--json")
    assert sniffed.returncode == named.returncode == 0
    assert json.loads(sniffed.stdout)["tokens"] == json.loads(named.stdout)["tokens"] == TEXT.split()


def test_a_named_pipe_is_read_once_not_sniffed_empty(loaded_once, cli, tmp_path: Path) -> None:
    # Regression: /dev/stdin (a stream) was read twice, by the format sniffer then the reader,
    # which got nothing: 0 tokens, exit 0. A FIFO is the same kind of file, in-process.
    fifo = tmp_path / "stream"
    os.mkfifo(fifo)
    writer = threading.Thread(target=lambda: fifo.write_text(TEXT, encoding="utf-8"))
    writer.start()
    result = cli("predict", fifo, "-q", "--precision", "fp32")
    writer.join(timeout=10)
    assert result.returncode == 0, result.stderr
    assert conll_tokens(result.stdout) == TEXT.split()


def test_console_pipe_into_dev_stdin(tmp_path: Path) -> None:
    # Regression: `cat x.txt | sciner predict /dev/stdin` tagged 0 tokens and exited 0.
    proc = subprocess.run([sys.executable, "-m", "sciner", "predict", "/dev/stdin", "-q", "--precision", "fp32"],
                          input=TEXT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert conll_tokens(proc.stdout) == TEXT.split()


def test_predict_tokenize_reads_raw_text_as_the_task_tokenizes_it(loaded_once, cli, stdin) -> None:
    import spacy

    assert [t.text for t in spacy.blank("en")(RAW)] == RAW_TOKENS
    stdin(RAW + "\n\n" + RAW + "\n")
    result = cli("predict", "-", "--tokenize", "--json", "-q", "--precision", "fp32")
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert result.returncode == 0 and [r["tokens"] for r in rows] == [RAW_TOKENS, RAW_TOKENS]
    assert {e["text"] for e in rows[0]["entities"]} >= {"BERT", "F1"}


def test_without_tokenize_a_text_line_is_split_on_spaces(loaded_once, cli, stdin) -> None:
    stdin(RAW + "\n")
    result = cli("predict", "-", "--json", "-q", "--precision", "fp32")
    assert "v1.1," in json.loads(result.stdout)["tokens"]


def test_tokenize_refuses_a_file_that_carries_its_tokens(cli, tmp_path: Path) -> None:
    gold = tmp_path / "gold.conll"
    gold.write_text(GOLD, encoding="utf-8")
    result = cli("predict", gold, "--tokenize", "-q")
    assert result.returncode == 3
    assert "--tokenize reads untokenized text" in result.stderr and f"{gold}:" in result.stderr


def test_tag_text_tokenizes_and_tag_refuses_text(shipped_tagger) -> None:
    tagger = shipped_tagger
    (tagged,) = tagger.tag_text(RAW)
    assert tagged.tokens == RAW_TOKENS and tagged.tags is not None and len(tagged.tags) == len(RAW_TOKENS)
    assert [p.tokens for p in tagger.tag_text([RAW, "BERT ."])] == [RAW_TOKENS, ["BERT", "."]]
    assert tagger.tag_text([RAW])[0].spans == tagger.tag([RAW_TOKENS])[0].spans
    for text in (["We fine-tune BERT ."], "We fine-tune BERT ."):
        with pytest.raises(TypeError, match="tag_text"):
            tagger.tag(text)


def test_binary_formats_are_refused_on_stdout_in_one_line(cli, stdin, tmp_path: Path) -> None:
    gold = tmp_path / "gold.conll"
    gold.write_text(GOLD, encoding="utf-8")
    result = cli("predict", gold, "-o", "-", "--to", "spacy", "-q")
    assert result.returncode == 10 and "binary format" in one_line_error(result.stderr, "E008")
    result = cli("convert", gold, "-", "--to", "spacy")
    assert result.returncode == 10 and "binary format" in one_line_error(result.stderr, "E008")


def test_json_is_to_jsonl_on_predict_and_convert(loaded_once, cli, tmp_path: Path) -> None:
    gold = tmp_path / "gold.conll"
    gold.write_text(GOLD, encoding="utf-8")
    assert cli("predict", gold, "--json", "-q").stdout == cli("predict", gold, "--to", "jsonl", "-q").stdout
    assert cli("convert", gold, "-", "--json").stdout == cli("convert", gold, "-", "--to", "jsonl").stdout
    result = cli("predict", gold, "--json", "--to", "conll", "-q")
    assert result.returncode == 3 and "--json means --to jsonl" in one_line_error(result.stderr, "E001")


def test_predict_threads_sets_torch_threads(loaded_once, cli, tmp_path: Path) -> None:
    import torch

    text = tmp_path / "a.txt"
    text.write_text(TEXT, encoding="utf-8")
    before = torch.get_num_threads()
    try:
        assert cli("predict", text, "--threads", "1", "-q").returncode == 0
        assert torch.get_num_threads() == 1
    finally:
        torch.set_num_threads(before)


def test_a_folder_gives_predict_only_its_formats_never_a_tsv_table(loaded_once, cli, tmp_path: Path) -> None:
    # Regression: pdfs/PDF_LIST.tsv was swept in as CoNLL and failed the batch.
    folder = tmp_path / "papers"
    folder.mkdir()
    (folder / "a.txt").write_text(TEXT, encoding="utf-8")
    (folder / "PDF_LIST.tsv").write_text("file\ttitle\tyear\nx.pdf\tA paper\t2020\n", encoding="utf-8")
    (folder / "notes.md").write_text("# not an input\n", encoding="utf-8")
    result = cli("predict", folder, "-q")
    assert result.returncode == 0, result.stderr
    assert conll_tokens(result.stdout) == TEXT.split()
    named = tmp_path / "named.tsv"  # a .tsv named on the command line is CoNLL
    named.write_text(GOLD, encoding="utf-8")
    assert conll_tokens(cli("predict", named, "-q").stdout) == TEXT.split()


def test_the_shared_pdf_folder_expands_to_its_pdfs_only(shared_data: Path) -> None:
    from sciner.files.inputs import expand_inputs

    pdfs = expand_inputs([str(shared_data / "pdfs")], formats=("pdf",))  # what extract reads
    assert pdfs and all(p.suffix == ".pdf" and p.parent == shared_data / "pdfs" for p in pdfs)
    everything = expand_inputs([str(shared_data / "pdfs")])  # predict: the tree, GROBID's texts included
    assert set(pdfs) < set(everything) and "PDF_LIST.tsv" not in {p.name for p in everything}


# --- convert ----------------------------------------------------------------------------------


def test_convert_reads_stdin_and_writes_stdout(cli, stdin, tmp_path: Path) -> None:
    stdin(GOLD)
    target = tmp_path / "out.jsonl"
    result = cli("convert", "-", target, "--from", "conll")
    assert result.returncode == 0 and "from <stdin> (conll)" in result.stdout
    back = cli("convert", target, "-", "--to", "conll")
    assert back.returncode == 0 and back.stdout == GOLD
    assert "to <stdout>" in back.stderr  # the summary stays off the data


def test_convert_stdin_to_stdout_with_a_label_config(cli, stdin, tmp_path: Path) -> None:
    """Regression: with --label-config, OUT "-" was checked against input "-" and refused."""
    stdin(GOLD)
    config = tmp_path / "config.xml"
    result = cli("convert", "-", "-", "--from", "conll", "--to", "labelstudio", "--label-config", config)
    assert result.returncode == 0, result.stderr
    assert '"SQuAD"' in result.stdout and config.read_text(encoding="utf-8").lstrip().startswith("<View")


def test_convert_errors_from_stdin_name_it(cli, stdin) -> None:
    stdin("x\tB-Foo\n")
    result = cli("convert", "-", "-", "--from", "conll")
    assert result.returncode == 3 and "<stdin>:1: unknown tag" in one_line_error(result.stderr, "E001")


# --- extract ----------------------------------------------------------------------------------


def test_extract_many_papers_and_folders_into_one_output_each(cli, fake_pdfs: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = cli("extract", fake_pdfs, fake_pdfs / "sub" / "b.pdf", "-o", f"{out}/", "-q")
    assert result.returncode == 0 and result.stderr == "", result.stderr
    assert sorted(str(p.relative_to(out)) for p in out.rglob("*") if p.is_file()) == ["a.txt", "sub/b.txt"]
    assert (out / "a.txt").read_text(encoding="utf-8") == "We use BERT .\nOn SQuAD .\n"


def test_extract_with_workers_writes_what_a_plain_run_writes_and_a_manifest(cli, fake_pdfs: Path, tmp_path: Path) -> None:
    plain, jobs = tmp_path / "plain", tmp_path / "jobs"
    assert cli("extract", fake_pdfs, "-o", f"{plain}/", "--json", "-q").returncode == 0
    result = cli("extract", fake_pdfs, "-o", f"{jobs}/", "--json", "--workers", "1", "-q")
    assert result.returncode == 0, result.stderr
    for name in ("a.jsonl", "sub/b.jsonl"):
        assert (jobs / name).read_bytes() == (plain / name).read_bytes()
    records = [json.loads(line) for line in (jobs / "manifest.jsonl").read_text(encoding="utf-8").splitlines()]
    assert sorted((r["input"], r["status"]) for r in records) == [
        (str(fake_pdfs / "a.pdf"), "ok"), (str(fake_pdfs / "sub" / "b.pdf"), "ok")]
    refused = cli("extract", fake_pdfs, "-o", tmp_path / "all.txt", "--workers", "2")
    assert refused.returncode != 0 and "directory" in refused.stderr and not (tmp_path / "all.txt").exists()


def test_extract_several_papers_to_stdout_as_json_lines_naming_each(cli, fake_pdfs: Path) -> None:
    result = cli("extract", fake_pdfs / "a.pdf", fake_pdfs / "sub" / "b.pdf", "--json", "-q")
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert result.returncode == 0
    assert [(r["doc"], r["page"], r["section"], r["kind"]) for r in rows] == [
        (str(fake_pdfs / "a.pdf"), 1, "Introduction", "body"),
        (str(fake_pdfs / "a.pdf"), 2, "Introduction", "body"),
        (str(fake_pdfs / "sub" / "b.pdf"), 1, "Introduction", "body"),
    ]
    assert cli("extract", fake_pdfs / "a.pdf", "--to", "jsonl", "-o", "-", "-q").stdout == "".join(
        line + "\n" for line in result.stdout.splitlines()[:2]).replace(f', "doc": "{fake_pdfs / "a.pdf"}"', "")


def test_extract_goes_on_past_a_bad_paper(cli, fake_pdfs: Path, tmp_path: Path) -> None:
    target = tmp_path / "all.txt"
    result = cli("extract", fake_pdfs / "notes.txt", fake_pdfs / "missing.pdf", fake_pdfs / "a.pdf", "-o", target)
    assert result.returncode == 9
    assert "2 input(s) failed" in result.stderr and "notes.txt: not a PDF" in result.stderr
    assert target.read_text(encoding="utf-8") == "We use BERT .\nOn SQuAD .\n"


def test_extract_refuses_an_unknown_format_in_one_line(cli, fake_pdfs: Path) -> None:
    result = cli("extract", fake_pdfs / "a.pdf", "--to", "conll")
    assert result.returncode == 3 and "expected one of text, jsonl" in one_line_error(result.stderr, "E001")


@pytest.mark.slow
def test_extract_a_real_paper_from_stdin_with_the_page_and_section_predict_keeps(cli, stdin, shared_data: Path) -> None:
    from sciner.pdf import read_pdf_paragraphs

    paper = min((shared_data / "pdfs").glob("*.pdf"), key=lambda p: p.stat().st_size)
    stdin(paper.read_bytes())
    result = cli("extract", "-", "--json", "-q")
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert result.returncode == 0 and rows[0]["kind"] == "title" and rows[0]["page"] == 1
    kept = [p.meta for p in read_pdf_paragraphs(paper)]
    # one extraction, both ways (the first paragraph with page 1's front matter, for the paper's metadata)
    assert kept == [{"page": r["page"], "section": r["section"], **({"front": r["front"]} if "front" in r else {})}
                    for r in rows]
    assert "front" in rows[0]
