"""Models in NumPy (sciner.inference.numpy_network): the torch path's numbers and tags, with no
torch imported; the default's small calls only; torch kept where a precision, a device or a
large call of a deep model asks for it."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from helpers.pdf_pages import text_pdf

from sciner.inference import choose
from sciner.inference.choose import Networks
from sciner.inference.numpy_network import NumpyNetwork, _gelu
from sciner.inference.tagger import Tagger

TEXT = """We fine-tune BERT-base on SQuAD v1.1 with a learning rate of 3e-5 and a batch size of 32 .
Our model reaches 84.6 % accuracy on MNLI and an F1 of 91.2 on the test set .
Table 2 : BLEU scores of the Transformer ( big ) on WMT 2014 English - German translation .
We use Adam with β1 = 0.9 , dropout 0.1 and train for 3 epochs .
The results show that RoBERTa outperforms XLNet on named entity recognition ( CoNLL-2003 ) .
Word embeddings are initialised with GloVe ; the LSTM has 512 hidden units .
Following Devlin et al. ( 2019 ) , we report exact match ( EM ) and macro - F1 .
ROUGE-L of 41.3 on CNN / DailyMail summarization , against 40.1 for BART ."""

# How far NumPy's log-probabilities may be from torch's: NumPy's GELU is a fit within 1.2e-5 of the
# exact one that torch computes (docs/fast.md, "GELU, attention and the CNN's convolutions"); the
# tags are held equal.
LOG_PROBS_APART = 5e-4


def torch_tagger() -> Tagger:
    """The fast model on the torch path, fp32, as Tagger.load built it before the NumPy one."""
    from sciner.inference.torch_network import TorchNetwork
    from sciner.model.store import load_model

    model, meta, directory = load_model("fast")
    return Tagger(Networks(TorchNetwork(model.eval())), meta, directory)


@pytest.fixture(scope="module")
def paragraphs() -> list[list[str]]:
    paras = [line.split() for line in TEXT.splitlines()]
    long = [t for p in paras for t in p] * 4  # several windows of 256 subwords: the window plan and its owners
    return [*paras, long, [], ["x"], ["Ünïcödé", "-", "ÅBC", "0.5%"]]


def test_log_probs_are_the_torch_paths(paragraphs):
    fast = Tagger.load("fast")
    assert isinstance(fast.network, NumpyNetwork)
    ours, theirs = fast.log_probs(paragraphs), torch_tagger().log_probs(paragraphs)
    assert [a.shape for a in ours] == [b.shape for b in theirs]
    assert max(float(np.abs(a - b).max()) for a, b in zip(ours, theirs) if len(a)) < LOG_PROBS_APART


def test_gelu_is_torchs_exact_gelu_in_float32():
    """The float32 fit stays within its bound (1.5e-5) of torch's exact GELU, tails included."""
    import torch

    x = np.concatenate([np.linspace(-12, 12, 100001), [-80.0, -30.0, 30.0, 80.0, 0.0]]).astype(np.float32)
    got = _gelu(x.copy())
    want = torch.nn.functional.gelu(torch.from_numpy(x)).numpy()
    assert got.dtype == np.float32 and np.isfinite(got).all()
    assert np.abs(got - want).max() < 1.5e-5


def test_dilated_convolutions_are_the_torch_paths(paragraphs):
    """`[model.heads.cnn] dilation`: layer k's words 2**k apart, the paragraphs still kept apart."""
    fast, slow = Tagger.load("fast"), torch_tagger()
    fast.network.dilation = 2
    for k, conv in enumerate(slow.network.model.head.convs):
        conv.dilation, conv.padding = (2**k,), (conv.kernel_size[0] // 2 * 2**k,)
    ours, theirs = fast.log_probs(paragraphs), slow.log_probs(paragraphs)
    undilated = Tagger.load("fast").log_probs(paragraphs)
    assert max(float(np.abs(a - b).max()) for a, b in zip(ours, theirs) if len(a)) < LOG_PROBS_APART
    assert max(float(np.abs(a - b).max()) for a, b in zip(ours, undilated) if len(a)) > 1e-2


@pytest.mark.parametrize("dilation, reach", [(1, 3), (2, 7)])
def test_a_dilated_cnn_sees_as_far_as_its_dilations_reach(dilation, reach):
    """3 convolutions of kernel 3: a word sees 3 words either side, or 1 + 2 + 4 = 7 with dilation 2."""
    import torch

    from sciner.model.heads.cnn import CNNHead

    torch.manual_seed(0)
    head = CNNHead(8, 0.0, hash_rows=16, hash_dim=4, width=8, depth=3, kernel=3, dilation=dilation).eval()
    inputs = torch.randn(1, 20, 8 + 4 * 4)
    inputs = torch.cat([inputs, torch.ones(1, 20, 1)], dim=-1)  # the mask channel: every word real
    moved = inputs.clone()
    moved[0, 10, :-1] += 1.0
    with torch.no_grad():
        changed = (head(inputs) - head(moved)).abs().amax(dim=-1)[0] > 1e-6
    assert changed.nonzero().flatten().tolist() == list(range(10 - reach, 10 + reach + 1))


def test_tags_are_the_torch_paths_with_and_without_the_paper_level_pass(paragraphs):
    fast, slow = Tagger.load("fast"), torch_tagger()
    for paper_level in (True, False):
        ours = fast.tag(paragraphs, paper_level=paper_level)
        theirs = slow.tag(paragraphs, paper_level=paper_level)
        assert [p.tags for p in ours] == [p.tags for p in theirs]
        assert [[(s.start, s.end, s.label) for s in p.spans] for p in ours] == [
            [(s.start, s.end, s.label) for s in p.spans] for p in theirs]


@pytest.mark.parametrize("model", ["fast", "default"])
def test_a_line_tagged_with_either_shipped_model_imports_no_torch(tmp_path, model):
    line = tmp_path / "line.txt"
    line.write_text("We fine - tune BERT on SQuAD with a learning rate of 3e-5 and report F1 .\n", encoding="utf-8")
    code = ("import sys; from sciner.cli import main; sys.argv = ['sciner', 'predict', sys.argv[1], '-o', sys.argv[2], "
            f"'--model', '{model}', '-q']\ntry:\n    main()\nexcept SystemExit as e:\n    assert not e.code, e.code\n"
            "assert 'torch' not in sys.modules, 'torch was imported'")
    done = subprocess.run([sys.executable, "-c", code, str(line), str(tmp_path / "out.conll")], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "B-MethodName" in (tmp_path / "out.conll").read_text(encoding="utf-8")


def test_a_small_pdf_tagged_imports_no_torch(tmp_path):
    """Regression: the tokenizer's spaCy imported thinc, and thinc torch (3 s for `sciner predict x.pdf`)."""
    paper = tmp_path / "paper.pdf"
    paper.write_bytes(text_pdf(["We fine-tune BERT on SQuAD and report an F1 score of 93.2 on the test set."]))
    code = ("import sys; from sciner.cli import main; sys.argv = ['sciner', 'predict', sys.argv[1], '-o', sys.argv[2], "
            "'-q']\ntry:\n    main()\nexcept SystemExit as e:\n    assert not e.code, e.code\n"
            "assert 'spacy' in sys.modules and 'torch' not in sys.modules, 'torch was imported'")
    done = subprocess.run([sys.executable, "-c", code, str(paper), str(tmp_path / "out.conll")], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "BERT\tB-MethodName" in (tmp_path / "out.conll").read_text(encoding="utf-8")


# A fresh interpreter whose tokenizer hides torch from thinc as the sciner command's does.
_AS_THE_COMMAND = "import sys, threading; from sciner import tokenize as t; t.HIDE_TORCH_FROM_THINC = True\n"
_TOKENIZE = "from sciner.tokenize import tokenize\nassert tokenize('BERT-base.') == ['BERT', '-', 'base', '.']\n"


def _printed(code: str) -> str:
    """What ``code`` prints, run in a fresh interpreter (which must succeed)."""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_a_thread_that_tokenizes_hides_nothing_from_another_importing_torch():
    """A server's request thread may import torch while another tokenizes: torch stays importable."""
    assert _printed(_AS_THE_COMMAND + "from sciner.tokenize import tokenize\n"
                    "t = threading.Thread(target=tokenize, args=('BERT-base.',)); t.start(); t.join()\n"
                    "print('torch' in sys.modules)") == "True"


def test_torch_imports_after_the_tokenizer_hid_it_from_thinc():
    assert _printed(_AS_THE_COMMAND + _TOKENIZE + "assert 'torch' not in sys.modules; import torch\n"
                    "print(torch.ones(2).sum().item())") == "2.0"


def test_the_library_hides_nothing_from_thinc():
    """Only the sciner command hides torch from thinc: a library user's spaCy keeps its torch shims."""
    assert _printed(_TOKENIZE + "import thinc.compat; print(thinc.compat.has_torch)") == "True"


@pytest.mark.parametrize("options", [{"precision": "bf16"}, {"precision": "int8"}])
def test_a_precision_that_needs_torch_still_gets_it(options):
    tagger = Tagger.load("fast", **options)
    assert not isinstance(tagger.network, NumpyNetwork) and tagger.precision == options["precision"]


def test_the_default_model_runs_small_calls_in_numpy_and_large_ones_in_torch(paragraphs, monkeypatch):
    """All six layers in NumPy for a call of at most SMALL_CALL_WORDS words (a line: no torch to
    import), the torch network, loaded at the first larger call, for the rest; fp32 both."""
    from sciner.inference.torch_network import TorchNetwork
    from sciner.model.batching import BATCH_SUBWORDS

    monkeypatch.setattr(choose, "native_bf16_flags", lambda: True)  # a CPU where torch runs bf16 natively
    tagger = Tagger.load("default", precision="fp32")
    assert isinstance(tagger.network, NumpyNetwork) and "w" not in vars(tagger.network)  # headers read, no array
    small = tagger.tag(paragraphs[:2])
    assert len(tagger.network.layers) == 6
    assert tagger.networks.large is None
    monkeypatch.setattr(choose, "SMALL_CALL_WORDS", 10)
    large = tagger.tag(paragraphs[:2])
    assert isinstance(tagger.networks.large, TorchNetwork)
    assert tagger.precision_for(11) == "fp32" and tagger.precision_for(10) == "fp32"
    assert [p.tags for p in small] == [p.tags for p in large]
    mine = tagger.log_probs(paragraphs[:1])
    torchs = tagger.networks.large.log_probs(paragraphs[:1], batch_subwords=BATCH_SUBWORDS)
    monkeypatch.setattr(choose, "SMALL_CALL_WORDS", 10**6)
    np.testing.assert_allclose(tagger.log_probs(paragraphs[:1])[0], mine[0], atol=LOG_PROBS_APART)
    np.testing.assert_allclose(mine[0], torchs[0], atol=0)  # the large call was the torch network's


@pytest.mark.parametrize(("flags", "device", "numpy_only"), [
    (False, "auto", True), (False, "cpu", True), (True, "auto", False), (None, "auto", False)])
def test_without_native_bf16_the_default_model_runs_every_call_in_numpy(monkeypatch, flags, device, numpy_only):
    """On a CPU without native bfloat16 (AVX2 only) torch would run fp32 too, slower than NumPy on
    the 2022 file (0.82x its time, same tags) and after its import: NumPy takes every call; where
    torch runs bf16 natively, or the flags cannot be read, large calls still load torch. A
    machine with an NVIDIA driver keeps torch for large calls under device auto (CUDA)."""
    monkeypatch.setattr(choose, "native_bf16_flags", lambda: flags)
    monkeypatch.setattr(choose.shutil, "which", lambda name: None)
    tagger = Tagger.load("default", device=device)
    assert (tagger.networks.load_large is None) is numpy_only
    assert (choose.back_ends(None, device=device) == "NumPy fp32") is numpy_only
    if numpy_only:
        monkeypatch.setattr(choose, "SMALL_CALL_WORDS", 0)
        tagger.tag([["We", "use", "BERT", "."]])
        assert tagger.networks.large is None and isinstance(tagger.networks.for_call(10**6), NumpyNetwork)
    monkeypatch.setattr(choose.shutil, "which", lambda name: "/usr/bin/nvidia-smi")
    assert choose.fp32_cpu_only("auto") is False and choose.fp32_cpu_only("cpu") is (flags is False)


def test_a_weight_missing_is_one_line_at_the_first_call(tmp_path, layered_model):
    """The headers checked at load show shapes, not what the network needs: a weight left out is
    found by the first call's word through the network, as a ModelError naming it."""
    import shutil

    from safetensors.numpy import load_file, save_file

    from sciner.errors import ModelError

    broken = tmp_path / "broken"
    shutil.copytree(layered_model, broken)
    state = load_file(str(broken / "weights.safetensors"))
    del state["head.out.bias"]
    save_file(state, str(broken / "weights.safetensors"))
    tagger = Tagger.load(broken)
    with pytest.raises(ModelError, match="missing 'head.out.bias'"):
        tagger.tag([["We", "use", "BERT", "."]])


def test_only_a_plain_bert_encoder_in_safetensors_runs_in_numpy(tmp_path, tiny_encoder_dir):
    """MPNet's attention is not the BERT layer NumPy computes, and NumPy reads no pickled weights:
    a model on such an encoder never takes that path."""
    import json
    import shutil

    from sciner.inference.numpy_network import bert_layers

    encoder = tmp_path / "encoder"
    shutil.copytree(tiny_encoder_dir, encoder)
    assert bert_layers(str(encoder))
    config = json.loads((encoder / "config.json").read_text(encoding="utf-8"))
    (encoder / "config.json").write_text(json.dumps({**config, "model_type": "mpnet"}), encoding="utf-8")
    assert not bert_layers(str(encoder))
    (encoder / "config.json").write_text(json.dumps(config), encoding="utf-8")
    (encoder / "model.safetensors").rename(encoder / "pytorch_model.bin")
    assert not bert_layers(str(encoder))


def test_threads_bound_the_numpy_models_blas_threads():
    """`sciner predict --threads N` with the fast model: torch's threads do not reach NumPy's."""
    from threadpoolctl import threadpool_info, threadpool_limits

    from sciner.inference.predict import TagOptions, Tagging

    before = {p["prefix"]: p["num_threads"] for p in threadpool_info()}
    try:
        tagger = Tagging(TagOptions(model="fast", threads=1)).tagger()
        assert isinstance(tagger.network, NumpyNetwork) and {p["num_threads"] for p in threadpool_info()} == {1}
    finally:
        threadpool_limits(before)


def test_batches_shared_between_threads_give_the_same_log_probs(paragraphs):
    """With threads, the encoder's batches go to a pool (one BLAS thread each): the same numbers
    in the same order as one thread's (to BLAS's rounding: the head's products run on two BLAS
    threads), and BLAS's threads as they were after."""
    from threadpoolctl import threadpool_info, threadpool_limits

    before = {p["prefix"]: p["num_threads"] for p in threadpool_info()}
    many = [p for p in paragraphs * 40 if p]  # more than one batch
    try:
        network = Tagger.load("fast").network
        network.limit_threads(1)
        alone = network.log_probs(many, batch_subwords=256)
        network.limit_threads(2)
        shared = network.log_probs(many, batch_subwords=256)
        assert network.threads == 2 and {p["num_threads"] for p in threadpool_info()} == {2}
    finally:
        threadpool_limits(before)
    for a, b in zip(alone, shared):
        np.testing.assert_allclose(a, b, atol=1e-5)


def test_threads_reach_the_torch_network_a_large_call_loads(monkeypatch):
    import torch

    from sciner.inference.predict import TagOptions, Tagging
    from threadpoolctl import threadpool_info, threadpool_limits

    monkeypatch.setattr(choose, "native_bf16_flags", lambda: True)  # a CPU where torch runs bf16 natively
    before, torch_before = {p["prefix"]: p["num_threads"] for p in threadpool_info()}, torch.get_num_threads()
    try:
        tagger = Tagging(TagOptions(model="default", threads=1, precision="fp32")).tagger()
        torch.set_num_threads(2)  # (threadpoolctl's limit on BLAS may reach torch's OpenMP pool: undo it)
        assert tagger.networks.large is None
        monkeypatch.setattr(choose, "SMALL_CALL_WORDS", 0)
        tagger.tag([["We", "use", "BERT", "."]])
        assert tagger.networks.large is not None and torch.get_num_threads() == 1
    finally:
        threadpool_limits(before)
        torch.set_num_threads(torch_before)


@pytest.fixture(scope="module", params=[("bio", 1), ("bio", 2), ("cnn", 1)], ids=lambda p: f"{p[0]}-{p[1]}-layers")
def layered_model(request, tmp_path_factory, tiny_encoder_dir):
    """A model keeping transformer layers of the tiny encoder, in windows of 24 subwords (a
    long paragraph takes several), with each head that has a NumPy network."""
    import torch

    from sciner.config import Config
    from sciner.labels import BIO_TAGS
    from sciner.model.store import build_model, save_model

    head, layers = request.param
    torch.manual_seed(3)
    cfg = Config()
    cfg.model.encoder, cfg.model.head, cfg.model.num_layers = str(tiny_encoder_dir), head, layers
    cfg.model.window, cfg.model.window_overlap = 24, 6
    model = build_model(cfg.model)
    with torch.no_grad():  # an untrained head scores every tag alike; spread them so tags differ
        model.head.out.weight.normal_(0, 2.0)
    folder = tmp_path_factory.mktemp(f"{head}-{layers}")
    save_model(model, folder, {"labels": list(BIO_TAGS), "config": cfg.to_dict()})
    return folder


def test_transformer_layers_in_numpy_are_the_torch_paths(layered_model, paragraphs, monkeypatch):
    from sciner.inference.torch_network import TorchNetwork
    from sciner.model.heads import head_spec
    from sciner.model.store import load_model, load_model_meta

    monkeypatch.setattr(choose, "native_bf16_flags", lambda: True)  # a CPU where torch runs bf16 natively
    cfg, meta, directory = load_model_meta(layered_model)
    ours = Tagger(Networks(head_spec(cfg.model.head).numpy_class()(cfg, directory)), meta, directory)
    assert len(ours.network.layers) == cfg.model.num_layers
    loaded = Tagger.load(layered_model)  # NumPy for every call, or (deeper) for small ones only
    assert isinstance(loaded.network, NumpyNetwork)
    assert (loaded.networks.load_large is None) == choose.runs_in_numpy(cfg.model.num_layers)
    said = choose.back_ends(layered_model)  # what speed.py prints: the back end load_networks picks
    assert said == "NumPy fp32" if loaded.networks.load_large is None else said.startswith("NumPy fp32 up to ")
    assert choose.back_ends(layered_model, "int8") == "torch int8"
    model, meta, directory = load_model(layered_model)
    theirs = Tagger(Networks(TorchNetwork(model.eval())), meta, directory)
    mine, torchs = ours.log_probs(paragraphs), theirs.log_probs(paragraphs)
    assert [a.shape for a in mine] == [b.shape for b in torchs]
    for a, b in zip(mine, torchs):  # the spread head makes log-probabilities of -50 (and the GELU fit's
        np.testing.assert_allclose(a, b, rtol=2e-3, atol=LOG_PROBS_APART)  # error with them): relative
    assert [p.tags for p in ours.tag(paragraphs)] == [p.tags for p in theirs.tag(paragraphs)]


def test_only_models_of_few_layers_run_in_numpy():
    from sciner.inference.choose import MAX_LAYERS, runs_in_numpy

    assert runs_in_numpy(-1) and runs_in_numpy(1) and runs_in_numpy(MAX_LAYERS)
    assert not runs_in_numpy(0) and not runs_in_numpy(MAX_LAYERS + 1)  # 0: every layer of the encoder
