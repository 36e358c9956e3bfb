"""Shared fixtures: a tiny BERT encoder built inside the tests, and a tiny annotated corpus."""

from __future__ import annotations

import os
import random
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import NamedTuple

import pytest

from sciner.errors import PDFError
from sciner.pdf import ExtractedParagraph

from helpers.shipped import serve_shipped
from helpers.training import make_sentence

REPO = Path(__file__).resolve().parents[1]
# The one place the tests learn where the shared folder is: $SCINER_DATA, else ../shared/data.
DATA = Path(os.environ.get("SCINER_DATA") or REPO.parent / "shared" / "data")
REFERENCE = DATA.parent / "reference"


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """The shared data folder (annotated/, raw/, pdfs/, test-inputs/); tests skip without it."""
    if not (DATA / "annotated").is_dir():
        pytest.skip(f"shared data not found at {DATA}")
    return DATA


@pytest.fixture(scope="session")
def shared_reference() -> Path:
    """The shared reference folder (annotated BERT example, example input/output)."""
    if not REFERENCE.is_dir():
        pytest.skip(f"shared reference not found at {REFERENCE}")
    return REFERENCE


class CliResult(NamedTuple):
    returncode: int
    stdout: str
    stderr: str


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., CliResult]]:
    """Run ``sciner ARGS`` in-process through the console script's ``main()`` (which turns a user
    error into one line and its exit code): ``cli("evaluate", gold, pred)``. A subprocess proves
    nothing more for most tests and costs seconds of start-up each (torch alone is one). The
    torch threads a run sets (``--threads``) are set back after the test, not to slow the next."""
    from sciner.cli import main

    torch = sys.modules.get("torch")
    threads = torch.get_num_threads() if torch is not None else None

    def run(*args: str | Path) -> CliResult:
        monkeypatch.setattr(sys, "argv", ["sciner", *map(str, args)])
        try:
            main()
            code = 0
        except SystemExit as stop:
            code = stop.code if isinstance(stop.code, int) else 0 if stop.code is None else 1
        captured = capsys.readouterr()
        return CliResult(code, captured.out, captured.err)

    yield run
    if threads is not None:
        torch.set_num_threads(threads)


@pytest.fixture(scope="session")
def shipped_tagger():
    """The model shipped with sciner, in fp32 on the CPU, loaded once for the whole session
    (2 s a load). Tests that check a precision, a device or loading itself load their own."""
    from sciner.inference.tagger import Tagger

    return Tagger.load(precision="fp32", device="cpu").preload()  # its torch network of large calls too


@pytest.fixture
def shipped_reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every read of the shipped model's weights file during the test, by any code path: the
    real loader's count, below every entry point a test could patch."""
    import safetensors.torch

    from sciner.model.store import DEFAULT_MODEL, WEIGHTS

    weights = (DEFAULT_MODEL / WEIGHTS).resolve()
    real = safetensors.torch.load_file
    reads: list[str] = []

    def load_file(filename, *args, **kwargs):
        if Path(filename).resolve() == weights:
            reads.append(str(filename))
        return real(filename, *args, **kwargs)

    monkeypatch.setattr(safetensors.torch, "load_file", load_file)
    return reads


@pytest.fixture
def loaded_once(monkeypatch: pytest.MonkeyPatch, shipped_tagger, shipped_reads: list[str]):
    """The test's loads of the shipped model answered by the session's :func:`shipped_tagger`;
    the test fails if it reads the shipped weights anyway (a path that bypasses ``Tagger.load``
    would cost the suite 2 s a run, unnoticed)."""
    serve_shipped(monkeypatch, shipped_tagger)
    yield shipped_tagger
    assert not shipped_reads, f"the shipped model was loaded again, bypassing Tagger.load: {shipped_reads}"


def save_tiny_bert(folder: Path, max_positions: int) -> Path:
    """A 2-layer, 32-wide BERT with the MiniLM tokenizer, saved in ``folder`` like a HF folder."""
    import torch  # lazy, as in every fixture here: a test module that needs no model loads no torch
    from transformers import AutoTokenizer, BertConfig, BertModel

    from sciner.model.encoder import encoder_folder

    torch.manual_seed(0)
    tokenizer = AutoTokenizer.from_pretrained(encoder_folder("all-MiniLM-L6-v2"), local_files_only=True)
    config = BertConfig(vocab_size=tokenizer.vocab_size, hidden_size=32, num_hidden_layers=2,
                        num_attention_heads=2, intermediate_size=64, max_position_embeddings=max_positions)
    BertModel(config).save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder


@pytest.fixture(scope="session")
def tiny_encoder_dir(tmp_path_factory) -> Path:
    """The tiny BERT the NER training tests fine-tune (512 positions)."""
    return save_tiny_bert(tmp_path_factory.mktemp("tiny-bert"), max_positions=512)


@pytest.fixture(scope="session")
def tiny_pretrain_encoder(tmp_path_factory) -> Path:
    """The tiny BERT the pretraining tests pretrain (64 positions: their sequences are 32 long)."""
    return save_tiny_bert(tmp_path_factory.mktemp("tiny-encoder"), max_positions=64)


@pytest.fixture(scope="session")
def tiny_data(tmp_path_factory) -> Path:
    """``annotated/`` with three groups of synthetic sentences (group_c is the dev group), each
    group two papers (files), as a dev split needs."""
    root = tmp_path_factory.mktemp("data")
    rng = random.Random(0)
    for group, n in (("group_a", 60), ("group_b", 60), ("group_c", 20)):
        folder = root / "annotated" / group
        folder.mkdir(parents=True)
        papers: list[list[str]] = [[], []]
        for i in range(n):
            tokens, tags = make_sentence(rng)
            papers[i >= n // 2].extend([*(f"{t}\t{g}" for t, g in zip(tokens, tags)), ""])
        for name, lines in zip(("data.conll", "data2.conll"), papers):
            (folder / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return root


@pytest.fixture(scope="session")
def pdfs(shared_data: Path) -> Path:
    """The shared papers' folder."""
    if not (shared_data / "pdfs" / "PDF_LIST.tsv").is_file():
        pytest.skip(f"PDFs not found at {shared_data / 'pdfs'}")
    return shared_data / "pdfs"


@pytest.fixture
def fake_pdfs(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """A folder of stand-in papers (the extractor reads their lines), a table, and a nested paper;
    a real PDF costs seconds, and extraction itself is tested in test_pdf_extract.py."""

    def extract(path: str | Path, progress=None, include=()) -> list[ExtractedParagraph]:
        text = Path(path).read_text(encoding="utf-8")
        if not text.startswith("%PDF-"):
            raise PDFError(f"{path}: not a PDF (no %PDF header)")
        return [ExtractedParagraph(line.split(), line, "Introduction", page, "body")
                for page, line in enumerate(text.splitlines()[1:], start=1)]

    monkeypatch.setattr("sciner.pdf.extract_pdf", extract)
    folder = tmp_path / "papers"
    (folder / "sub").mkdir(parents=True)
    (folder / "a.pdf").write_text("%PDF-\nWe use BERT .\nOn SQuAD .\n", encoding="utf-8")
    (folder / "sub" / "b.pdf").write_text("%PDF-\nELMo too .\n", encoding="utf-8")
    (folder / "PDF_LIST.tsv").write_text("file\ttitle\n", encoding="utf-8")
    (folder / "notes.txt").write_text("not a paper\n", encoding="utf-8")
    return folder
