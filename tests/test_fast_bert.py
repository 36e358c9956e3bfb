"""The lean inference path: FastBert and its tokenizer against transformers, packed windows
against whole-paragraph batches, and a tagger that never imports transformers."""

from __future__ import annotations

import functools
import itertools
import subprocess
import sys

import pytest
import torch

from sciner.labels import BIO_TAGS
from sciner.model.decode import _ALLOWED, _START, viterbi
from sciner.model.encoder import encoder_folder, load_encoder, plain_bert
from sciner.model.fast_bert import FastBert
from sciner.model.wordpiece import WordPieceTokenizer

WORDS = ["BERT", "pre-training", "naïve", "F1", "été", "", "ﬁne-tuning", "GLUE", "123.5%", "☃", "x" * 300, "SQuAD"]


@pytest.fixture(scope="module", params=["tiny", "minilm"])
def encoder_dir(request, tiny_encoder_dir):
    return tiny_encoder_dir if request.param == "tiny" else encoder_folder("all-MiniLM-L6-v2")


def test_fast_bert_equals_transformers(encoder_dir):
    assert plain_bert(encoder_dir)
    reference, _ = load_encoder(str(encoder_dir))
    fast = FastBert.load(encoder_dir)
    g = torch.Generator().manual_seed(0)
    ids = torch.randint(1000, 20000, (3, 40), generator=g)
    mask = torch.ones_like(ids)
    mask[1, 25:] = 0
    mask[2, 4:] = 0
    with torch.inference_mode():
        expected = reference(input_ids=ids, attention_mask=mask).last_hidden_state
        separate = fast(ids, mask).last_hidden_state
        fast.fuse_qkv()
        fused = fast(ids, mask).last_hidden_state
    real = mask.bool()
    assert torch.allclose(separate[real], expected[real], atol=1e-4)
    assert torch.allclose(fused[real], expected[real], atol=1e-4)


def test_word_piece_tokenizer_equals_transformers(encoder_dir):
    _, reference = load_encoder(str(encoder_dir))
    ours = WordPieceTokenizer(encoder_dir)
    assert ours(WORDS)["input_ids"] == reference(WORDS, add_special_tokens=False)["input_ids"]
    for role in ("cls_token_id", "sep_token_id", "pad_token_id", "unk_token_id"):
        assert getattr(ours, role) == getattr(reference, role)


def test_a_paragraph_gets_the_same_spans_alone_or_packed_with_others(tiny_model_for_packing):
    from sciner.inference.batch import predict_spans

    model = tiny_model_for_packing
    g = torch.Generator().manual_seed(1)
    vocab = ["BERT", "on", "SQuAD", "gets", "F1", "of", "93.2", "question", "answering", ".", "we", "use"]
    paragraphs = [[vocab[int(i)] for i in torch.randint(0, len(vocab), (n,), generator=g)]
                  for n in (1, 5, 30, 31, 90, 200, 7, 0, 64)]  # window 32: several paragraphs slide
    packed = predict_spans(model, paragraphs, batch_subwords=128)
    alone = [predict_spans(model, [p], batch_subwords=4096)[0] for p in paragraphs]
    assert [[(s.label, s.start, s.end) for s in p] for p in packed] == \
        [[(s.label, s.start, s.end) for s in p] for p in alone]
    assert any(packed), "the test needs a model that predicts some spans"


@pytest.fixture(scope="module")
def tiny_model_for_packing(tiny_encoder_dir):
    from sciner.config import ModelConfig
    from sciner.model.store import build_model

    cfg = ModelConfig(encoder=str(tiny_encoder_dir), head="bio", shape_dim=4, window=32, window_overlap=8,
                      max_subwords_per_word=16, dropout=0.0, freeze_word_embeddings=True)
    torch.manual_seed(3)
    model = build_model(cfg, inference=True).eval()
    with torch.no_grad():  # make entities likely, so that the comparison is not between empty outputs
        model.head.out.bias[BIO_TAGS.index("O")] -= 2.0
    return model


def test_tagger_loads_and_tags_without_importing_transformers():
    code = ("import sys, sciner; t = sciner.load(); out = t.tag([['BERT', 'gets', '93.2', 'F1', 'on', 'SQuAD', '.']]);"
            "assert len(out[0].tags) == 7; print(sorted(m for m in sys.modules if m.split('.')[0] == 'transformers'))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


@pytest.mark.parametrize("seed", range(6))
def test_viterbi_finds_the_best_allowed_path(seed):
    g = torch.Generator().manual_seed(seed)
    n = 1 + seed % 4
    log_probs = torch.log_softmax(torch.randn(1, n, len(BIO_TAGS), generator=g) * 3, dim=-1)
    best, best_path = -float("inf"), None
    for path in itertools.product(range(len(BIO_TAGS)), repeat=n):
        if not _START[path[0]] or any(not _ALLOWED[a, b] for a, b in zip(path, path[1:])):
            continue
        score = sum(float(log_probs[0, t, k]) for t, k in enumerate(path))
        if score > best:
            best, best_path = score, list(path)
    assert viterbi(log_probs, torch.ones(1, n, dtype=torch.bool))[0] == best_path


# Paragraphs of the official test file whose bf16 tags used to change with the batch size,
# the five longest, and a spread of others.
SENSITIVE = [238, 485, 580, 642, 796, 826]
LONGEST = [451, 832, 598, 483, 308]


@pytest.fixture(scope="module")
def bf16_tagger():
    from sciner.inference.tagger import Tagger

    return Tagger.load(precision="bf16")


def test_bf16_tags_do_not_depend_on_the_rest_of_the_batch(shared_data, bf16_tagger):
    """On one thread. With two, oneDNN's bf16 kernels on an Intel CPU with AMX split a batch's
    rows between the threads by its shape, and 1 of these 35 paragraphs got other tags alone
    than in a batch (measured 2026-11-28): the test passed or failed by the threads an earlier
    test had left to torch."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        _check_bf16_batches(shared_data, bf16_tagger)
    finally:
        torch.set_num_threads(threads)


def _check_bf16_batches(shared_data, bf16_tagger) -> None:
    from sciner.formats.registry import read_file

    paragraphs = read_file(shared_data / "test-inputs" / "2022-official-test.txt", None)
    chosen = [paragraphs[i].tokens for i in sorted(set(SENSITIVE + LONGEST + list(range(0, len(paragraphs), 40))))]
    # Paragraph by paragraph: tagged together, the paragraphs of one call are one paper.
    tag = functools.partial(bf16_tagger.tag, paper_level=False)
    together = [p.tags for p in tag(chosen, batch_subwords=2048)]
    assert [p.tags for p in tag(chosen, batch_subwords=1024)] == together
    assert [p.tags for p in tag(chosen[::-1] + chosen[:3], batch_subwords=4096)][:len(chosen)][::-1] == together
    assert [tag([p])[0].tags for p in chosen] == together


def test_a_window_row_gets_the_same_bf16_states_alone_or_beside_a_longer_row(bf16_tagger):
    from sciner.model.windows import featurize_many

    model = bf16_tagger.network.model
    short = "We fine-tune BERT on SQuAD and report F1 .".split() * 8
    longer = "Results of RoBERTa on GLUE and MNLI with accuracy as the metric .".split() * 12
    feats = featurize_many(model.tokenizer, [short, longer], model.cfg)
    with torch.inference_mode(), bf16_tagger.network.autocast():
        alone = model.encode(feats[:1], 2048).words[0]
        beside = model.encode(feats, 2048).words[0]
    assert torch.equal(alone, beside)
