"""Issue 34: the fast model's CNN head, the models' names, and loading weights without a copy."""

from __future__ import annotations

import random

import pytest
import torch

from sciner.labels import BIO_TAGS
from sciner.model.fast_bert import FastBert, uninitialised
from sciner.model.windows import plan_windows, window_rows


@pytest.fixture(scope="module")
def tiny_cnn_model(tiny_encoder_dir):
    from sciner.config import ModelConfig
    from sciner.config import CNNSettings
    from sciner.model.store import build_model

    cfg = ModelConfig(encoder=str(tiny_encoder_dir), head="cnn", shape_dim=4, window=32, window_overlap=8,
                      dropout=0.0, num_layers=-1)
    cfg.heads["cnn"] = CNNSettings(hash_rows=64, hash_dim=8, width=16, depth=2, kernel=3)
    torch.manual_seed(5)
    model = build_model(cfg, inference=True).eval()
    with torch.no_grad():  # make entities likely, so that the comparison is not between empty outputs
        model.head.out.bias[BIO_TAGS.index("O")] -= 2.0
    return model


def test_the_cnn_model_keeps_no_transformer_layer_and_trains(tiny_cnn_model, tiny_encoder_dir):
    from sciner.model.windows import featurize_many
    from sciner.model.store import build_model

    assert len(tiny_cnn_model.encoder.encoder.layer) == 0  # num_layers = -1: the embeddings only
    model = build_model(tiny_cnn_model.cfg)  # training's encoder (transformers), cut the same way
    assert len(model.encoder.encoder.layer) == 0
    feats = featurize_many(model.tokenizer, [["BERT", "on", "SQuAD", "."]], model.cfg, [["B-MethodName", "O",
                                                                                        "B-DatasetName", "O"]])
    model.train()
    loss = model.loss(feats, 512)
    loss.backward()
    assert model.head.hashes.weight.grad is not None and loss.item() > 0


def test_a_paragraph_gets_the_same_cnn_tags_alone_or_padded_beside_longer_ones(tiny_cnn_model):
    from sciner.inference.batch import predict_spans

    rng = random.Random(2)
    vocab = ["BERT", "on", "SQuAD", "gets", "F1", "of", "93.2", "question", "answering", ".", "we", "use"]
    paragraphs = [[rng.choice(vocab) for _ in range(n)] for n in (1, 5, 30, 90, 7, 0, 64)]
    packed = predict_spans(tiny_cnn_model, paragraphs, batch_subwords=4096)
    alone = [predict_spans(tiny_cnn_model, [p], batch_subwords=4096)[0] for p in paragraphs]
    assert [[(s.label, s.start, s.end) for s in p] for p in packed] == \
        [[(s.label, s.start, s.end) for s in p] for p in alone]
    assert any(packed), "the test needs a model that predicts some spans"


def test_model_names_resolve_in_one_place(tmp_path):
    from sciner.model.store import DEFAULT_MODEL, SHIPPED, model_directory

    assert model_directory(None) == DEFAULT_MODEL == model_directory("default")
    assert model_directory("fast") == SHIPPED["fast"] != DEFAULT_MODEL
    assert model_directory(tmp_path) == tmp_path


def test_a_one_window_paragraph_is_laid_out_as_the_window_planner_would():
    rng = random.Random(0)
    pieces = [[[rng.randrange(5, 99) for _ in range(rng.randint(1, 4))] for _ in range(n)] for n in (0, 1, 7, 12, 40)]
    rows, owners = window_rows(pieces, 1, 2, 32, 8)
    # The general layout, word by word, from the planned windows.
    expected_rows, expected_owners = [], []
    for b, para in enumerate(pieces):
        for w in plan_windows([len(p) for p in para], 30, 8):
            ids = [1]
            for j in range(w.start, w.end):
                if w.own_start <= j < w.own_end:
                    expected_owners.append((b, j, len(expected_rows), len(ids)))
                ids.extend(para[j])
            expected_rows.append(ids + [2])
    assert (rows, owners) == (expected_rows, expected_owners)


def test_fast_bert_loads_only_the_layers_it_keeps_and_builds_without_initialising(tiny_encoder_dir):
    full = FastBert.load(tiny_encoder_dir)
    none = FastBert.load(tiny_encoder_dir, -1)
    one = FastBert.load(tiny_encoder_dir, 1)
    assert (len(full.encoder.layer), len(one.encoder.layer), len(none.encoder.layer)) == (2, 1, 0)
    assert torch.equal(one.encoder.layer[0].output.dense.weight, full.encoder.layer[0].output.dense.weight)
    ids = torch.tensor([[101, 2000, 3000, 102]])
    with torch.inference_mode():
        states = none(ids, torch.ones_like(ids)).last_hidden_state
    assert torch.equal(states, full.embeddings(ids))
    reset = torch.nn.Linear.reset_parameters
    with uninitialised():
        torch.nn.Linear(4, 4)
    assert torch.nn.Linear.reset_parameters is reset


def test_a_bf16_encoder_with_an_fp32_word_table_computes_the_same_states(tiny_encoder_dir):
    cast = FastBert.load(tiny_encoder_dir).to(torch.bfloat16)
    kept = FastBert.load(tiny_encoder_dir).to_bf16()
    assert kept.embeddings.word_embeddings.weight.dtype == torch.float32
    assert kept.embeddings.position_embeddings.weight.dtype == torch.bfloat16
    ids = torch.randint(1000, 20000, (2, 12), generator=torch.Generator().manual_seed(0))
    with torch.inference_mode():
        assert torch.equal(kept(ids, torch.ones_like(ids)).last_hidden_state,
                           cast(ids, torch.ones_like(ids)).last_hidden_state)


def test_predict_model_fast_tags_a_text_file_importing_no_pdf_summary_or_training_code(tmp_path):
    """`sciner predict --model fast` finds the shipped fast model by name; a text input's run
    imports none of the code that only PDFs, summaries, training or serving need."""
    import subprocess
    import sys

    text = tmp_path / "in.txt"
    text.write_text("We train BERT on SQuAD and report an F1 score of 93.2 .\n", encoding="utf-8")
    out = tmp_path / "out.conll"
    code = ("import sys, runpy; sys.argv = ['sciner', 'predict', sys.argv[1], '--model', 'fast', '-q', '-o', sys.argv[2]]\n"
            "try:\n    runpy.run_module('sciner', run_name='__main__')\nexcept SystemExit as stop:\n"
            "    assert not stop.code, stop.code\n"
            "heavy = ('sciner.pdf.extract', 'sciner.pdf.pipeline', 'sciner.summary', 'sciner.training', 'sciner.serve',"
            " 'ray', 'fastapi', 'matplotlib', 'transformers', 'spacy')\n"
            "print(sorted(m for m in sys.modules if m.startswith(heavy)))")
    result = subprocess.run([sys.executable, "-c", code, str(text), str(out)], capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"
    rows = [line.split("\t") for line in out.read_text(encoding="utf-8").splitlines() if line]
    assert [r[0] for r in rows] == "We train BERT on SQuAD and report an F1 score of 93.2 .".split()
    assert all(r[1] == "O" or r[1][:2] in ("B-", "I-") for r in rows)


def test_the_cnn_hash_table_is_saved_as_int8_rows_and_loads_back_as_numbers(tiny_cnn_model, tmp_path):
    """The hashed feature tables are most of the fast model's bytes: saved as int8 rows with a
    scale each (a quarter of fp32), read back as fp32 within one step of their row's scale."""
    from safetensors import safe_open

    from sciner.model.store import SCALE, WEIGHTS, build_model, load_weights, save_model

    save_model(tiny_cnn_model, tmp_path, {"config": {}})
    with safe_open(str(tmp_path / WEIGHTS), framework="pt") as f:
        assert f.get_tensor("head.hashes.weight").dtype == torch.int8
        scale = f.get_tensor("head.hashes.weight" + SCALE)
        assert f.get_tensor("head.project.weight").dtype == torch.float16
    loaded = build_model(tiny_cnn_model.cfg, inference=True).eval()
    load_weights(loaded, tmp_path)
    table, original = loaded.head.hashes.weight.detach(), tiny_cnn_model.head.hashes.weight.detach()
    assert table.dtype == torch.float32
    assert torch.all((table - original).abs() <= scale[:, None] / 2 + 1e-6)
    assert not torch.equal(table, original)  # it was rounded: the check above is not vacuous
