"""Distillation on CPU with tiny models: a teacher, soft labels on raw text, a student on gold + soft."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import torch

from sciner.config import Config, load_config
from sciner.distill.carry import unpack_encoder
from sciner.model.store import int8_rows
from sciner.distill.label import FileSource, RawSource, label, split_like_training
from sciner.data.soft_labels import (
    SoftParagraph, load_soft_labels, pack_labels, read_manifest, read_shard, shard_path, top_k, unpack_labels,
)
from sciner.distill.teacher import teacher_config
from sciner.inference.tagger import Tagger
from sciner.labels import BIO_TAGS
from sciner.training.train import train

from helpers.training import tiny_config

RAW_LINES = [
    "We fine-tune BERT on SQuAD with a learning rate of 2e-5. It reaches 88.5 F1 on the test set.",
    "ELMo improves named entity recognition on CoNLL-2003. The gains hold for RoBERTa too.",
    "Our translation model is evaluated with BLEU on WMT14. We report 28.4 BLEU.",
    "GLUE results of XLNet are given in Table 2.",
]


@pytest.fixture(scope="module")
def raw_dir(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("raw")
    (folder / "abstracts.txt").write_text("\n".join(RAW_LINES * 3) + "\n", encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def teacher_dir(tmp_path_factory, tiny_encoder_dir, tiny_data) -> Path:
    """A tiny teacher: one epoch of `sciner distill teacher`'s config on the synthetic corpus."""
    cfg = tiny_config(tiny_encoder_dir, tiny_data, "bio", epochs=1, max_batches_per_epoch=6)
    cfg.distill.teacher = ["train.lr=3e-3", "train.seed=5"]
    out = tmp_path_factory.mktemp("teacher")
    train(teacher_config(cfg), out, show_progress=False)
    return out


def test_teacher_config_applies_the_distill_overrides_and_a_seed():
    cfg = Config()
    teacher = teacher_config(cfg, seed=21)
    assert teacher.model.encoder == "all-mpnet-base-v2" and teacher.train.lr <= 5e-5
    assert teacher.train.seed == 21 and cfg.model.encoder == "all-MiniLM-L6-v2"  # the student's is untouched


def test_distill_toml_is_a_valid_config():
    cfg = load_config(Path(__file__).resolve().parents[1] / "configs" / "distill.toml", [])
    assert cfg.distill.top_k == 4 and cfg.distill.paragraphs >= 200_000


def test_raw_paragraphs_are_split_and_packed_like_the_training_data():
    tokens = ("A sentence here . " * 40).split()
    pieces = split_like_training(tokens, 32)
    assert [t for p in pieces for t in p] == tokens and max(len(p) for p in pieces) <= 32


def test_top_k_keeps_the_most_probable_tags_and_reads_back_a_distribution():
    probs = np.random.default_rng(0).dirichlet(np.ones(len(BIO_TAGS)), size=5)
    ids, top = top_k(probs, 3)
    assert (ids[:, 0] == probs.argmax(1)).all() and (top.astype(np.float32).sum(1) <= 1.001).all()
    dense = SoftParagraph(["w"] * 5, ids, top).dense()
    assert np.allclose(dense.sum(1), 1.0, atol=1e-3) and (dense.argmax(1) == probs.argmax(1)).all()


def test_label_writes_shards_with_top_k_probs_and_resumes(tmp_path, teacher_dir, raw_dir):
    source = RawSource(raw_dir, per_shard=4, seed=13, max_tokens=16)
    out = tmp_path / "soft"
    in_first = len(source.shard(0)[0])
    first = label([teacher_dir], source, out, paragraphs=in_first + 1, top_k=3, seed=13, device="cpu")
    assert first.shards_written == 2 and first.paragraphs >= in_first + 1  # the last shard is kept whole
    shard = read_shard(shard_path(out, 0))
    assert [p.tokens for p in shard] == source.shard(0)[0]
    assert all(p.top_ids.shape == (len(p.tokens), 3) for p in shard)
    assert all((p.top_probs.astype(np.float32).sum(1) <= 1.001).all() for p in shard)
    assert max(len(p.tokens) for p in shard) <= 16
    # Asked for more: the two shards written are kept, only the next one is labelled.
    again = label([teacher_dir], source, out, paragraphs=1000, top_k=3, seed=13, device="cpu")
    assert again.shards_skipped == 2 and again.shards_written == 1
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["top_k"] == 3 and manifest["paragraphs"] == len(load_soft_labels(out))
    assert "CPU" in manifest["hardware"]


def test_label_refuses_to_mix_two_labellings(tmp_path, teacher_dir, raw_dir, cli):
    source = RawSource(raw_dir, per_shard=4, seed=13, max_tokens=16)
    label([teacher_dir], source, tmp_path / "soft", paragraphs=1, top_k=3, seed=13, device="cpu")
    result = cli("distill", "label", "--teacher", teacher_dir, "--raw", raw_dir, "--paragraphs", "1",
                 "--set", "distill.top_k=4", "--device", "cpu", "-o", tmp_path / "soft")
    assert result.returncode == 6 and result.stderr.startswith("error[E005]") and "top_k" in result.stderr


def test_two_teachers_average_and_a_pretokenized_file_labels_the_same_paragraphs(tmp_path, teacher_dir, raw_dir, cli):
    made = cli("distill", "paragraphs", "--raw", raw_dir, "--paragraphs", "3", "--set", "distill.shard_paragraphs=4",
               "--set", "data.max_block_tokens=16", "-o", tmp_path / "raw.jsonl")
    assert made.returncode == 0, made.stderr
    direct = RawSource(raw_dir, per_shard=4, seed=13, max_tokens=16).shard(0)[0]
    from_file = FileSource(tmp_path / "raw.jsonl", per_shard=100)
    assert from_file.paragraphs == direct
    done = cli("distill", "label", "--teacher", teacher_dir, "--teacher", teacher_dir, "--input", tmp_path / "raw.jsonl",
               "--device", "cpu", "-q", "-o", tmp_path / "soft")
    assert done.returncode == 0, done.stderr
    one = label([teacher_dir], from_file, tmp_path / "soft1", paragraphs=100, top_k=4, seed=13, device="cpu")
    assert one.paragraphs == len(direct)
    a, b = load_soft_labels(tmp_path / "soft"), load_soft_labels(tmp_path / "soft1")
    assert [p.tokens for p in a] == direct
    assert all(np.allclose(x.dense(), y.dense(), atol=2e-3) for x, y in zip(a, b))  # a teacher averaged with itself


@pytest.fixture(scope="module")
def soft_dir(tmp_path_factory, teacher_dir, raw_dir) -> Path:
    out = tmp_path_factory.mktemp("soft") / "soft"
    label([teacher_dir], RawSource(raw_dir, per_shard=12, seed=13, max_tokens=16), out, paragraphs=100,
          top_k=4, seed=13, device="cpu")
    return out


def test_student_trains_on_gold_and_soft_labels_and_loads_like_any_model(tmp_path, tiny_encoder_dir, tiny_data, soft_dir, cli):
    cfg = tiny_config(tiny_encoder_dir, tiny_data, "bio", epochs=3, max_batches_per_epoch=4, patience=5)
    cfg.distill.soft_labels, cfg.distill.soft_ratio, cfg.distill.temperature = str(soft_dir), 1.0, 2.0
    result = train(cfg, tmp_path / "student", show_progress=False)
    losses = [h["loss"] for h in result.history]
    assert losses[-1] < losses[0]
    meta = json.loads((tmp_path / "student" / "model.json").read_text())
    assert meta["distilled_from"]["teachers"] and meta["config"]["distill"]["temperature"] == 2.0
    import sciner

    tagged = sciner.load(tmp_path / "student", precision="fp32").tag([["We", "use", "BERT", "on", "SQuAD", "."]])
    assert len(tagged[0].tags) == 6


def test_a_byte_a_token_keeps_the_top_tag_and_its_probability_to_a_sixteenth():
    """Issue 20 item 4: the compact form packs each token's top tag and confidence in one byte."""
    probs = np.random.default_rng(1).dirichlet(np.full(len(BIO_TAGS), 0.3), size=200)
    ids, top = top_k(probs, 1)
    packed = pack_labels(ids, top)
    assert packed.dtype == np.uint8 and packed.shape == (200,)
    back_ids, back_probs = unpack_labels(packed)
    assert (back_ids[:, 0] == probs.argmax(1)).all()
    step = (1 - 1 / len(BIO_TAGS)) / 15
    assert np.abs(back_probs[:, 0].astype(np.float32) - probs.max(1)).max() <= step / 2 + 1e-3
    dense = SoftParagraph(["w"] * 200, back_ids, back_probs).dense()
    assert np.allclose(dense.sum(1), 1.0, atol=1e-2) and (dense.argmax(1) == probs.argmax(1)).all()


def test_compact_file_carries_a_soft_label_folder_and_trains_a_student(tmp_path, tiny_encoder_dir, tiny_data,
                                                                        soft_dir, cli):
    folder = load_soft_labels(soft_dir)
    packed = tmp_path / "raw.labels.xz"
    result = cli("distill", "compact", soft_dir, "-o", packed)
    assert result.returncode == 0, result.stderr
    assert f"{len(folder)} paragraphs written" in result.stdout
    back = load_soft_labels(packed)
    assert [p.tokens for p in back] == [p.tokens for p in folder]
    # Every kept tag, each probability to 1/510: what the student learns is the folder's, not its top tag alone.
    assert all(b.top_ids.shape == f.top_ids.shape == (len(f.tokens), 4) for b, f in zip(back, folder))
    assert all((b.top_ids == f.top_ids).all() for b, f in zip(back, folder))
    assert max(np.abs(b.dense() - f.dense()).max() for b, f in zip(back, folder)) <= 1 / 510 + 1e-3
    assert packed.stat().st_size < (soft_dir / "shard-00000.npz").stat().st_size
    assert read_manifest(packed)["teachers"] == read_manifest(soft_dir)["teachers"]
    top1 = tmp_path / "top1.labels.xz"  # made from the compact file: a smaller one to carry, without the folder
    assert cli("distill", "compact", packed, "-o", top1, "--top-k", "1").returncode == 0
    assert {p.top_ids.shape[1] for p in load_soft_labels(top1)} == {1} and read_manifest(top1)["top_k"] == 1
    assert top1.stat().st_size < packed.stat().st_size
    cfg = tiny_config(tiny_encoder_dir, tiny_data, "bio", epochs=1, max_batches_per_epoch=3, patience=5)
    cfg.distill.soft_labels, cfg.distill.soft_ratio = str(packed), 1.0
    assert train(cfg, tmp_path / "student", show_progress=False).history
    wrong = cli("distill", "compact", soft_dir, "-o", tmp_path / "raw.npz")
    assert wrong.returncode != 0 and ".labels.xz" in wrong.stderr
    (tmp_path / "bad.labels.xz").write_bytes(b"not xz")
    refused = cli("distill", "student", "--soft", tmp_path / "bad.labels.xz", "-o", tmp_path / "s2")
    assert refused.returncode != 0 and "not a compact soft-label file" in refused.stderr


def test_a_format_1_compact_file_still_reads_as_top_1_labels(tmp_path, soft_dir):
    """Regression: the labels brought home from the GPU on 2026-11-26 are format 1 (a byte a
    token); format 2 must not make them unreadable."""
    import io
    import lzma

    folder = load_soft_labels(soft_dir)
    manifest = {**read_manifest(soft_dir), "format": "sciner-compact-labels/1", "tags": list(BIO_TAGS)}
    text = "\n".join(t for p in folder for t in p.tokens).encode("utf-8")
    buffer = io.BytesIO()
    np.savez(buffer, tokens=np.frombuffer(text, dtype=np.uint8),
             labels=np.concatenate([pack_labels(p.top_ids, p.top_probs) for p in folder]),
             lengths=np.array([len(p.tokens) for p in folder], dtype=np.int32))
    old = tmp_path / "old.labels.xz"
    old.write_bytes(json.dumps(manifest).encode("utf-8") + b"\n" + lzma.compress(buffer.getvalue()))
    back = load_soft_labels(old)
    assert [p.tokens for p in back] == [p.tokens for p in folder]
    assert all(b.top_ids.shape[1] == 1 and (b.top_ids[:, 0] == f.top_ids[:, 0]).all() for b, f in zip(back, folder))


def test_soft_loss_is_zero_gradient_at_the_teacher_and_scaled_by_t_squared():
    from sciner.model.heads.bio import BIOHead

    head = BIOHead(4, 0.0)
    words, mask = torch.randn(1, 3, 4), torch.ones(1, 3, dtype=torch.bool)
    probs = torch.softmax(head(words), -1).detach()
    loss = head.soft_loss(words, mask, probs, temperature=1.0)
    entropy = -(probs * probs.log()).sum(-1).mean()
    assert torch.isclose(loss, entropy, atol=1e-5)  # CE to itself = the entropy: the minimum


def test_student_cli_refuses_a_folder_without_soft_labels(tmp_path, cli):
    result = cli("distill", "student", "--soft", tmp_path, "-o", tmp_path / "s", "--device", "cpu")
    assert result.returncode == 8 and "sciner distill label" in result.stderr


def test_a_one_layer_student_keeps_the_first_layer_of_its_encoder(tmp_path, tiny_encoder_dir, tiny_data):
    from sciner.model.store import build_model

    cfg = tiny_config(tiny_encoder_dir, tiny_data, "bio")
    full = build_model(cfg.model)
    cfg.model.num_layers = 1
    small = build_model(cfg.model)
    assert len(small.encoder.encoder.layer) == 1 and small.encoder.config.num_hidden_layers == 1
    a, b = full.encoder.encoder.layer[0].state_dict(), small.encoder.encoder.layer[0].state_dict()
    assert all(torch.equal(a[k], b[k]) for k in a)
    cfg.train.epochs, cfg.train.max_batches_per_epoch = 1, 2
    train(cfg, tmp_path / "small", show_progress=False)
    from sciner.model.store import load_model

    assert len(load_model(tmp_path / "small")[0].encoder.encoder.layer) == 1  # the lean inference encoder: cut the same way
    tagger = Tagger.load(tmp_path / "small", precision="fp32")  # one layer: computed in NumPy, the same layer
    assert len(tagger.network.layers) == 1
    assert len(tagger.tag([["BERT", "on", "SQuAD"]])[0].tags) == 3


def test_tagger_device_cpu_and_cuda_when_missing():
    tagger = Tagger.load(None, precision="fp32", device="cpu")
    assert tagger.device == "cpu"
    if not torch.cuda.is_available():
        from sciner.errors import ConfigError

        with pytest.raises(ConfigError, match="cuda"):
            Tagger.load(None, device="cuda")


def test_int8_packed_encoder_unpacks_to_nearly_the_same_weights(tmp_path, tiny_encoder_dir, cli):
    from safetensors.torch import load_file

    result = cli("distill", "pack-encoder", tiny_encoder_dir, "--parts", "2", "-o", tmp_path / "packed")
    assert result.returncode == 0, result.stderr
    parts = sorted((tmp_path / "packed").glob("part-*"))
    assert len(parts) == 2 and (parts[0] / "config.json").exists()
    unpack_encoder(parts, tmp_path / "enc")
    before, after = load_file(str(tiny_encoder_dir / "model.safetensors")), load_file(str(tmp_path / "enc" / "model.safetensors"))
    assert set(before) == set(after)
    for name, w in before.items():
        if w.is_floating_point():
            assert (w - after[name]).abs().max() <= w.abs().max() / 127 + 1e-3, name
    from sciner.model.encoder import load_encoder

    load_encoder(str(tmp_path / "enc"))  # loads as any HF folder


def test_a_part_packed_by_an_older_sciner_is_refused_not_unpacked_into_broken_weights(tmp_path):
    """Regression: packs once named an int8 matrix KEY.int8 (scales KEY.scale); read with today's
    layout those keys passed through into model.safetensors as if they were weights."""
    from safetensors.torch import save_file

    from sciner.errors import InputFormatError

    part = tmp_path / "part-1"
    part.mkdir()
    save_file({"encoder.layer.0.weight.int8": torch.zeros(4, 4, dtype=torch.int8),
               "encoder.layer.0.weight.scale": torch.ones(4)}, str(part / "weights.safetensors"))
    with pytest.raises(InputFormatError, match="packed by an older sciner"):
        unpack_encoder([part], tmp_path / "enc")
    assert not (tmp_path / "enc" / "model.safetensors").exists()


def test_quantize_rows():
    w = torch.tensor([[1.0, -0.5, 0.25], [0.0, 0.0, 0.0]])
    q, scale = int8_rows(w)
    assert q.dtype == torch.int8 and torch.allclose(q.float() * scale[:, None], w, atol=1 / 127)


def test_results_table_is_regenerated_from_run_folders(tmp_path):
    """Fake run folders with cached cross-fitted dev tags: the script writes only its section."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    import distill_results
    from sciner.document import Paragraph
    from sciner.formats.registry import write_file

    gold = [Paragraph(["BERT", "on", "SQuAD"], ["B-MethodName", "O", "B-DatasetName"])] * 6
    write_file(gold, tmp_path / "gold.conll")
    for name, tags in (("base", ["O", "O", "B-DatasetName"]), ("student", ["B-MethodName", "O", "B-DatasetName"])):
        run = tmp_path / name
        run.mkdir()
        (run / "model.json").write_text(json.dumps({"history": [{"seconds": 60}, {"seconds": 120}], "hardware": "H200"}))
        write_file([Paragraph(p.tokens, tags) for p in gold], run / distill_results.CACHE)
    soft = tmp_path / "soft"
    soft.mkdir()
    (soft / "manifest.json").write_text(json.dumps({"seconds_last_run": 90, "hardware": "cuda"}))
    out = tmp_path / "results.md"
    out.write_text("# Ablations\n\nkept as it is\n")
    args = ["--run", f"base={tmp_path / 'base'}", "--run", f"+distillation={tmp_path / 'student'}",
            "--step", f"label={soft}", "--gold", str(tmp_path / "gold.conll"), "--out", str(out)]
    assert distill_results.main(args) == 0
    text = out.read_text()
    assert text.startswith("# Ablations\n\nkept as it is") and "| +distillation | 1.0000 |" in text
    assert "| base | 0.6667 |" in text and "3.0 min | H200" in text and "| label | 1.5 min | cuda |" in text
    distill_results.main(args)  # regenerated in place, not appended twice
    assert out.read_text().count("## Distillation") == 1


def test_teacher_and_student_commands(tmp_path, tiny_encoder_dir, tiny_data, soft_dir, cli):
    config = tmp_path / "tiny.toml"
    config.write_text(f'''
[data]
data_dir = "{tiny_data}"
dev_groups = ["group_c"]
[model]
encoder = "{tiny_encoder_dir}"
window = 32
window_overlap = 8
freeze_word_embeddings = false
[train]
epochs = 1
batch_subwords = 512
lr = 2e-3
threads = 1
max_batches_per_epoch = 2
[distill]
teacher = ["train.seed=5", "train.lr=3e-3"]
''')
    made = cli("distill", "teacher", "--config", config, "--device", "cpu", "-o", tmp_path / "t")
    assert made.returncode == 0, made.stderr
    assert json.loads((tmp_path / "t" / "model.json").read_text())["seed"] == 5 and "teacher:" in made.stdout
    student = cli("distill", "student", "--config", config, "--soft", soft_dir, "--set", "distill.soft_weight=0.8",
                  "-o", tmp_path / "s")
    assert student.returncode == 0, student.stderr
    meta = json.loads((tmp_path / "s" / "model.json").read_text())
    assert meta["config"]["distill"]["soft_labels"] == str(soft_dir) and meta["hardware"]
    again = cli("distill", "student", "--config", config, "--soft", soft_dir, "-o", tmp_path / "s")
    # A finished run is not written over; its checkpoint is gone (a run keeps the model), so the
    # way on is training it further with --init, which the message names.
    assert again.returncode == 6 and "already holds a trained model" in again.stderr and "--init" in again.stderr
