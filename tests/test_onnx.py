"""``sciner export`` and tagging with the exported graph: the same tags as the torch path."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

pytest.importorskip("onnxruntime")
pytest.importorskip("onnx")

from sciner.errors import ModelError  # noqa: E402
from sciner.inference.tagger import Tagger  # noqa: E402


@pytest.fixture(scope="module")
def small_model(tmp_path_factory, tiny_encoder_dir) -> Path:
    """An untrained BIO model on the tiny encoder, with small windows so that paragraphs slide,
    and type biases, so that decoding after the graph is exercised too."""
    import torch

    from sciner.config import Config
    from sciner.labels import BIO_TAGS
    from sciner.model.store import build_model, save_model

    torch.manual_seed(1)
    cfg = Config()
    cfg.model.encoder = str(tiny_encoder_dir)
    cfg.model.window, cfg.model.window_overlap = 24, 6
    cfg.model.freeze_word_embeddings = False
    folder = tmp_path_factory.mktemp("onnx-model")
    model = build_model(cfg.model)
    with torch.no_grad():  # an untrained head scores every tag alike; spread them so entities appear
        model.head.out.weight.normal_(0, 2.0)
    save_model(model, folder, {"labels": list(BIO_TAGS), "config": cfg.to_dict(),
                               "type_bias": {"MethodName": 0.5, "TaskName": -0.25}})
    return folder


def paragraphs(n: int = 40) -> list[list[str]]:
    rng = random.Random(0)
    words = "We fine-tune BERT on SQuAD v1.1 with lr 3e-5 and report F1 of 93.2 , beating XLNet-large ( 2019 ) .".split()
    return [[rng.choice(words) for _ in range(rng.randint(1, 60))] for _ in range(n)]


def test_the_exported_graph_tags_as_the_torch_path(cli, small_model, tmp_path):
    result = cli("export", str(small_model), "-o", str(tmp_path / "model.onnx"))
    assert result.returncode == 0, result.stderr
    assert result.stderr.startswith("wrote ") and result.stdout == ""
    meta = json.loads((small_model / "model.json").read_text())
    onnx = Tagger.load(tmp_path / "model.onnx")
    assert onnx.meta == meta and onnx.precision == "fp32"
    texts = paragraphs()
    expected = Tagger.load(small_model, precision="fp32").tag(texts)
    got = onnx.tag(texts)
    assert [p.tags for p in got] == [p.tags for p in expected]
    assert sum(len(p.spans) for p in got) > 10
    scores = [(a.score, b.score) for p, q in zip(got, expected) for a, b in zip(p.spans, q.spans)]
    assert max(abs(a - b) for a, b in scores) < 1e-3  # fp32 sums in another order


def test_predict_takes_an_onnx_model(cli, small_model, tmp_path):
    cli("export", str(small_model), "-o", str(tmp_path / "model.onnx"), "-q")
    (tmp_path / "in.txt").write_text("\n".join(" ".join(p) for p in paragraphs(5)) + "\n")
    by_onnx = cli("predict", str(tmp_path / "in.txt"), "-m", str(tmp_path / "model.onnx"), "-q")
    by_torch = cli("predict", str(tmp_path / "in.txt"), "-m", str(small_model), "--precision", "fp32", "-q")
    assert by_onnx.returncode == 0, by_onnx.stderr
    assert by_onnx.stdout == by_torch.stdout
    # `sciner info` reads the model.json the graph carries: the facts of the folder it came from.
    info = cli("info", str(tmp_path / "model.onnx"), "--json")
    assert info.returncode == 0, info.stderr
    facts, folder = json.loads(info.stdout), json.loads(cli("info", str(small_model), "--json").stdout)
    assert facts["files"] == {"model.onnx": (tmp_path / "model.onnx").stat().st_size}
    assert {k: v for k, v in facts.items() if k not in ("model", "files")} == \
        {k: v for k, v in folder.items() if k not in ("model", "files")}
    assert "files         model.onnx " in cli("info", str(tmp_path / "model.onnx")).stdout


def test_onnx_faults_are_one_line(cli, small_model, tmp_path):
    (tmp_path / "junk.onnx").write_bytes(b"not a graph")
    junk = cli("info", str(tmp_path / "junk.onnx"))
    assert junk.returncode == ModelError.exit_code and "not a tagger written by `sciner export`" in junk.stderr
    (tmp_path / "in.txt").write_text("We use BERT .\n")
    result = cli("predict", str(tmp_path / "in.txt"), "-m", str(tmp_path / "junk.onnx"))
    assert result.returncode == ModelError.exit_code and "not a tagger written by `sciner export`" in result.stderr
    assert result.stderr.count("\n") == 1
    assert "ends in .onnx" in cli("export", str(small_model), "-o", str(tmp_path / "model.bin")).stderr
    cli("export", str(small_model), "-o", str(tmp_path / "model.onnx"), "-q")
    with pytest.raises(ModelError, match="fp32 on the CPU"):
        Tagger.load(tmp_path / "model.onnx", precision="bf16")


def test_threads_reach_the_onnx_session(cli, small_model, tmp_path):
    """`sciner predict --threads N` with an exported tagger: onnxruntime's threads are bounded too,
    not only torch's (its session took torch's count once, at load)."""
    import torch

    cli("export", str(small_model), "-o", str(tmp_path / "model.onnx"), "-q")
    before = torch.get_num_threads()
    try:
        onnx = Tagger.load(tmp_path / "model.onnx")
        texts = paragraphs(8)
        expected = [p.tags for p in onnx.tag(texts)]
        wanted = before + 1
        onnx.limit_threads(wanted)
        assert onnx.network.session.get_session_options().intra_op_num_threads == wanted
        assert [p.tags for p in onnx.tag(texts)] == expected
    finally:
        torch.set_num_threads(before)
