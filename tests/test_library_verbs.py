"""Every verb is a thin shell over one library function with the same defaults:
``sciner.extract``, ``sciner.tag_files``, ``sciner.convert`` called from Python write what the
verbs write; ``device`` defaults to ``auto`` in the CLI, the Python API and the spaCy
component; extract writes every registered format that can hold a paper's paragraphs.
(``sciner.calibrate`` is tested in test_calibrate.py, beside its tiny model.)"""

from __future__ import annotations

import inspect
import json
from dataclasses import replace
from pathlib import Path

import pytest

import sciner
from sciner.document import Paragraph, Span
from sciner.errors import InputNotFoundError, PDFError


def test_extract_from_python_writes_what_the_verb_writes(cli, fake_pdfs: Path, tmp_path: Path) -> None:
    papers = [fake_pdfs / "a.pdf", fake_pdfs / "sub" / "b.pdf"]
    done = sciner.extract(papers, tmp_path / "py.jsonl", show_progress=False)
    assert (done.papers, done.paragraphs, done.written, done.failed) == (2, 3, [tmp_path / "py.jsonl"], [])
    assert cli("extract", *papers, "-o", tmp_path / "cli.jsonl", "-q").returncode == 0
    assert (tmp_path / "py.jsonl").read_bytes() == (tmp_path / "cli.jsonl").read_bytes()
    rows = [json.loads(line) for line in (tmp_path / "py.jsonl").read_text(encoding="utf-8").splitlines()]
    assert list(rows[0]) == ["tokens", "text", "section", "page", "kind", "doc"]


def test_extract_from_python_goes_on_past_a_bad_paper(fake_pdfs: Path, tmp_path: Path) -> None:
    seen = []
    done = sciner.extract([fake_pdfs / "notes.txt", tmp_path / "missing.pdf", fake_pdfs / "a.pdf"], f"{tmp_path}/out/",
                          show_progress=False, on_error=seen.append)
    assert done.papers == 1 and done.written == [tmp_path / "out" / "a.txt"]
    assert [type(e) for e in done.failed] == [InputNotFoundError, PDFError] and seen == done.failed


def test_render_extracted_is_the_library_s(fake_pdfs: Path) -> None:
    paragraphs = sciner.pdf.extract_pdf(fake_pdfs / "a.pdf")
    assert sciner.render_extracted(paragraphs) == "We use BERT .\nOn SQuAD .\n"
    row = json.loads(sciner.render_extracted(paragraphs, "jsonl", doc="a.pdf").splitlines()[0])
    assert row == {"tokens": ["We", "use", "BERT", "."], "text": "We use BERT .", "section": "Introduction",
                   "page": 1, "kind": "body", "doc": "a.pdf"}


def test_extract_writes_any_registered_format_that_holds_a_papers_paragraphs(
        cli, fake_pdfs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from sciner.formats.registry import FORMATS

    def shout(paragraphs, title):
        return "".join(" ".join(p.tokens).upper() + "\n" for p in paragraphs)

    monkeypatch.setitem(FORMATS, "shout", replace(FORMATS["text"], name="shout", suffixes=(".shout",),
                                                  render_extracted=shout))
    assert cli("extract", fake_pdfs / "a.pdf", "-o", tmp_path / "a.shout", "-q").returncode == 0
    assert (tmp_path / "a.shout").read_text(encoding="utf-8") == "WE USE BERT .\nON SQUAD .\n"
    result = cli("extract", fake_pdfs / "a.pdf", "--to", "conll")
    assert result.returncode == 3 and "expected one of text, jsonl, shout" in result.stderr


class _StubTagger:
    """Tags ``BERT`` as a method, nothing else: tag_files's work without a model to load."""

    def limit_threads(self, threads):  # as the NumPy fast model: nothing to bound, no torch to import
        pass

    def tag(self, paragraphs, *, batch_subwords=None, progress=None, paper_level=True, documents=None):
        out = []
        for p in paragraphs:
            spans = [Span("MethodName", i, i + 1) for i, t in enumerate(p.tokens) if t == "BERT"]
            out.append(Paragraph(p.tokens, spans=spans, source=p.source, line=p.line, meta=p.meta))
        return out


@pytest.fixture
def stub_tagger(monkeypatch: pytest.MonkeyPatch) -> list[dict]:
    """Tagger.load answered by :class:`_StubTagger`; returns the keyword arguments of each load."""
    from sciner.inference.tagger import Tagger

    loads: list[dict] = []

    def load(path=None, **options):
        loads.append({"path": path, **options})
        return _StubTagger()

    monkeypatch.setattr(Tagger, "load", load)
    return loads


def test_tag_files_from_python_writes_what_predict_writes(cli, stub_tagger, tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("We use BERT .\n", encoding="utf-8")
    (tmp_path / "b.txt").write_text("On SQuAD .\n", encoding="utf-8")
    inputs = [tmp_path / "a.txt", tmp_path / "b.txt"]
    done = sciner.tag_files(inputs, tmp_path / "py.conll", show_progress=False)
    assert done.written == [tmp_path / "py.conll"] and done.failed == [] and len(done.done) == 2
    assert cli("predict", *inputs, "-o", tmp_path / "cli.conll", "-q").returncode == 0
    assert (tmp_path / "py.conll").read_bytes() == (tmp_path / "cli.conll").read_bytes()
    assert "BERT\tB-MethodName" in (tmp_path / "py.conll").read_text(encoding="utf-8")
    assert stub_tagger[0] == stub_tagger[1] == {"path": None, "precision": "auto", "device": "auto"}


def test_tag_files_keeps_the_inputs_that_failed_and_tags_the_others(stub_tagger, tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("We use BERT .\n", encoding="utf-8")
    done = sciner.tag_files([tmp_path / "missing.txt", tmp_path / "a.txt"], f"{tmp_path}/out/", to_format="jsonl",
                            show_progress=False)
    assert [type(e) for e in done.failed] == [InputNotFoundError]
    assert done.written == [tmp_path / "out" / "a.jsonl"]


def test_a_corpus_run_from_python_writes_what_predict_workers_writes(cli, stub_tagger, tmp_path: Path) -> None:
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a.txt").write_text("We use BERT .\n", encoding="utf-8")
    run = sciner.tag_files([tmp_path / "in"], f"{tmp_path}/py/", engine=sciner.Engine(workers=1), show_progress=False)
    assert [r["status"] for r in run.records] == ["ok"] and run.failed == []
    assert cli("predict", tmp_path / "in", "-o", f"{tmp_path}/cli/", "--workers", "1", "-q").returncode == 0
    assert (tmp_path / "py" / "a.conll").read_bytes() == (tmp_path / "cli" / "a.conll").read_bytes()


def test_convert_from_python_checks_every_output_once(tmp_path: Path) -> None:
    from sciner.errors import OutputError

    src = tmp_path / "a.conll"
    src.write_text("We\tO\nuse\tO\nBERT\tB-MethodName\n\n", encoding="utf-8")
    done = sciner.convert(src, tmp_path / "a.json", label_config=tmp_path / "config.xml")
    assert (done.target_format, done.entities, done.label_config) == ("labelstudio", 1, tmp_path / "config.xml")
    assert (tmp_path / "config.xml").read_text(encoding="utf-8").startswith("<View>")
    with pytest.raises(OutputError, match="is also an input"):
        sciner.convert(src, tmp_path / "b.json", label_config=src)
    with pytest.raises(OutputError, match="name the same file"):
        sciner.convert(src, tmp_path / "b.json", label_config=tmp_path / "b.json")
    assert not (tmp_path / "b.json").exists()


def _default(function, name: str) -> object:
    return inspect.signature(function).parameters[name].default


def test_the_device_defaults_to_auto_in_the_cli_the_python_api_and_the_spacy_component() -> None:
    from sciner.cli.calibrate_cmd import calibrate as calibrate_verb
    from sciner.cli.predict_cmd import predict as predict_verb
    from sciner.inference.predict import TagOptions
    from sciner.inference.tagger import Tagger
    from sciner.spacy_component import make_sciner  # noqa: F401  (registers the factory)

    import spacy

    defaults = {
        "sciner predict": _default(predict_verb, "device"),
        "sciner calibrate": _default(calibrate_verb, "device"),
        "sciner.load": _default(sciner.load, "device"),
        "Tagger.load": _default(Tagger.load, "device"),
        "sciner.TagOptions": _default(TagOptions, "device"),
        "sciner.calibrate": _default(sciner.calibrate, "device"),
        "spaCy component": spacy.Language.get_factory_meta("sciner").default_config["device"],
    }
    assert set(defaults.values()) == {"auto"}, defaults


def test_the_verbs_and_their_functions_share_their_defaults() -> None:
    from sciner.cli.index_cmd import index as index_verb
    from sciner.cli.predict_cmd import predict as predict_verb
    from sciner.cli.summarize_cmd import summarize as summarize_verb
    from sciner.inference.predict import TagOptions

    for name in ("precision", "threads", "device"):
        for verb in (predict_verb, summarize_verb, index_verb):
            assert _default(verb, name) == _default(TagOptions, name), (verb.__name__, name)


def test_show_and_report_from_python_write_what_the_verbs_write(cli, tmp_path: Path) -> None:
    gold, pred = tmp_path / "gold.conll", tmp_path / "pred.conll"
    gold.write_text("We\tO\nuse\tO\nBERT\tB-MethodName\n\n", encoding="utf-8")
    pred.write_text("We\tO\nuse\tO\nBERT\tB-DatasetName\n\n", encoding="utf-8")
    assert sciner.show(pred, tmp_path / "py.html", gold=gold) == tmp_path / "py.html"
    assert cli("show", pred, "--gold", gold, "-o", tmp_path / "cli.html", "-q").returncode == 0
    assert (tmp_path / "py.html").read_bytes() == (tmp_path / "cli.html").read_bytes()
    assert sciner.report(gold, [pred], tmp_path / "py.html", samples=10) == [tmp_path / "py.html"]
    assert cli("report", gold, pred, "-o", tmp_path / "cli2.html", "--samples", "10", "-q").returncode == 0
    assert (tmp_path / "py.html").read_bytes() == (tmp_path / "cli2.html").read_bytes()


def test_build_dictionary_from_python_writes_what_the_verb_writes(cli, tmp_path: Path) -> None:
    raw = tmp_path / "raw.txt"
    raw.write_text("We use machine translation here .\n" * 4, encoding="utf-8")
    done = sciner.build_dictionary(tmp_path / "py.txt.gz", data=raw, min_count=2, stats_on=raw, thresholds=[3])
    assert "machine translation" in done.dictionary.counts and done.sentences == 4
    assert [row.min_count for row in done.stats] == [3]
    assert cli("ngrams", "--data", raw, "--min-count", "2", "-o", tmp_path / "cli.txt.gz", "-q").returncode == 0
    assert (tmp_path / "py.txt.gz").read_bytes() == (tmp_path / "cli.txt.gz").read_bytes()
