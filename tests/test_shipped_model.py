"""The model shipped inside the package: loads offline, tags a paper, and is accurate on dev."""

from __future__ import annotations

import json

import pytest

import sciner
from sciner.model.store import DEFAULT_MODEL


def test_shipped_model_is_small_and_self_describing():
    meta = json.loads((DEFAULT_MODEL / "model.json").read_text())
    size = sum(f.stat().st_size for f in DEFAULT_MODEL.iterdir())
    assert size < 60 * 1024 * 1024
    assert meta["encoder"] == "all-MiniLM-L6-v2"
    assert set(meta["dev_scores"]) >= {"micro", "macro", "per_type"}
    assert meta["dev_groups"] and meta["git_commit"]


def test_tags_the_classic_example(shipped_tagger):
    tagger = shipped_tagger
    tokens = "Our proposed model BERT outperforms ELMo on the SQuAD dataset , improving F1 to 93.2 .".split()
    (para,) = tagger.tag([tokens])
    found = {(s.label, " ".join(tokens[s.start : s.end])) for s in para.spans}
    assert ("MethodName", "BERT") in found
    assert ("DatasetName", "SQuAD") in found
    assert any(label == "MetricName" for label, _ in found)


@pytest.mark.parametrize("precision", ["fp32", "bf16", "int8"])
def test_every_precision_finds_the_classic_entities(precision, shipped_tagger):
    tokens = "Our proposed model BERT outperforms ELMo on the SQuAD dataset , improving F1 to 93.2 .".split()
    tagger = shipped_tagger if precision == "fp32" else sciner.load(precision=precision)
    (para,) = tagger.tag([tokens])
    found = {(s.label, " ".join(tokens[s.start : s.end])) for s in para.spans}
    assert {("MethodName", "BERT"), ("DatasetName", "SQuAD")} <= found


@pytest.mark.slow
def test_accuracy_on_part_of_dev(shared_data):
    """At the default precision, as users get it (bf16 where the CPU has it natively: there, three
    times as fast as the session's fp32 model)."""
    from sciner.config import DataConfig
    from sciner.data.assemble import assemble
    from sciner.evaluate.metrics import classification_report

    dev = assemble(DataConfig(data_dir=str(shared_data)), seed=13).dev[:300]
    tagged = sciner.load().tag(dev)
    report = classification_report([p.tags for p in dev], [p.tags for p in tagged])
    assert report.micro.f1 > 0.45


def test_predict_cli_on_the_reference_example(cli, loaded_once, tmp_path, shared_reference):
    """In-process: the console's own run of predict on the shipped model is tests/test_pipes.py's."""
    src = shared_reference / "example-input.txt"
    out = tmp_path / "out.conll"
    proc = cli("predict", src, "-o", out)
    assert proc.returncode == 0, proc.stderr
    lines = [l for l in src.read_text(encoding="utf-8").splitlines() if l.strip()]
    blocks = out.read_text(encoding="utf-8").strip("\n").split("\n\n")
    assert len(blocks) == len(lines)
    for line, block in zip(lines, blocks):
        assert [row.split("\t")[0] for row in block.splitlines()] == line.split()
    assert "MethodName" in proc.stderr  # the per-type summary


@pytest.mark.parametrize("precision", ["fp32", "int8"])  # NumPy, torch
def test_document_ids_that_do_not_fit_the_paragraphs_are_refused_with_or_without_the_paper_pass(precision):
    from sciner.inference.tagger import Tagger

    tagger = Tagger.load("fast", precision=precision)
    for paper_level in (True, False):
        with pytest.raises(ValueError, match="2 paragraphs but 1 document ids"):
            tagger.tag([["We", "use", "BERT"], ["on", "SQuAD"]], documents=["a"], paper_level=paper_level)


@pytest.mark.parametrize("native", [True, False])
def test_forcing_bf16_without_native_bf16_warns(monkeypatch, capsys, native):
    """Issue 23: bf16 is the default only where the CPU has it; forcing it elsewhere says so."""
    from sciner.inference import torch_network
    from sciner.inference.tagger import Tagger

    monkeypatch.setattr(torch_network, "native_bf16", lambda: native)
    monkeypatch.setattr(torch_network, "load_model", lambda path, **options: (_Stub(), {}, path))
    Tagger.load(None, precision="bf16", device="cpu")
    warned = "warning: --precision bf16 on a CPU without native bfloat16" in capsys.readouterr().err
    assert warned is not native


class _Stub:
    """Stands in for the network: Tagger.load only moves it and casts its encoder."""

    class encoder:  # noqa: N801
        @staticmethod
        def to(*args):
            return None

    def to(self, where):
        return self


def test_the_shipped_model_is_loaded_once_per_session(loaded_once, shipped_tagger, shipped_reads, cli, tmp_path):
    """Regression: the tests' stand-in for loading patched ``sciner.load`` while predict calls
    ``Tagger.load``, so a dozen tests loaded the shipped model again (2 s each). Within
    ``loaded_once`` every entry point answers with the session's model and reads no weights."""
    from safetensors.torch import load_file

    from sciner.inference.tagger import Tagger

    load_file(str(DEFAULT_MODEL / "weights.safetensors"))
    assert len(shipped_reads) == 1, "the count sees a read of the shipped weights"
    shipped_reads.clear()

    text = tmp_path / "p.txt"
    text.write_text("We use BERT on SQuAD .\n", encoding="utf-8")
    for options in ([], ["--precision", "fp32", "--device", "cpu"]):
        result = cli("predict", text, "-q", *options)
        assert result.returncode == 0 and "B-MethodName" in result.stdout, result.stderr
    assert shipped_reads == [], "predict read the shipped weights again"
    assert sciner.load() is Tagger.load(DEFAULT_MODEL) is loaded_once is shipped_tagger
    assert shipped_reads == []
