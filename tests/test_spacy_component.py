"""The spaCy component: ``nlp.add_pipe("sciner")`` on ``spacy.blank("en")`` sets ``doc.ents``
with a score per entity, the same entities ``Tagger.tag`` finds on the doc's tokens."""

from __future__ import annotations

import tomllib
from importlib import import_module
from pathlib import Path

import pytest
import spacy
from spacy.tokens import Doc

from sciner.errors import ModelError
from sciner.labels import ENTITY_TYPES
from sciner.model.store import DEFAULT_MODEL
from sciner.spacy_component import SCORE, make_sciner  # registers the factory, as the entry point does

from helpers.shipped import serve_shipped
from helpers.training import tiny_config

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def nlp(shipped_tagger):
    """A blank English pipeline with the component, its model the session's shipped one."""
    with pytest.MonkeyPatch.context() as patch:
        serve_shipped(patch, shipped_tagger)
        nlp = spacy.blank("en")
        nlp.add_pipe("sciner", config={"precision": "fp32"})
    return nlp


def ents(doc: Doc) -> list[tuple[str, str]]:
    return [(e.text, e.label_) for e in doc.ents]


def tagger_ents(nlp, words: list[str]) -> list[tuple[str, str]]:
    paragraph = nlp.get_pipe("sciner").tagger.tag([words])[0]
    return [(" ".join(words[s.start:s.end]), s.label) for s in paragraph.spans]


def test_text_gets_typed_scored_entities(nlp):
    doc = nlp("We fine-tune BERT on SQuAD and report F1 .")
    assert ("BERT", "MethodName") in ents(doc) and ("SQuAD", "DatasetName") in ents(doc)
    assert ents(doc) == tagger_ents(nlp, [t.text for t in doc])
    assert all(e.label_ in ENTITY_TYPES and 0 < e._.get(SCORE) <= 1 for e in doc.ents)
    assert nlp.get_pipe("sciner").labels == ENTITY_TYPES


def test_a_pretokenized_doc_keeps_its_words(nlp):
    words = ["We", "use", "RoBERTa-large", "on", "CoNLL-2003", "."]
    doc = nlp(Doc(nlp.vocab, words=words))
    assert [t.text for t in doc] == words
    assert ents(doc) == tagger_ents(nlp, words) and doc.ents


def test_whitespace_tokens_are_skipped_and_entities_land_on_the_right_tokens(nlp):
    doc = nlp("We use  BERT\n\non SQuAD .")
    assert any(t.is_space for t in doc)
    assert ents(doc) == tagger_ents(nlp, [t.text for t in doc if not t.is_space])
    assert nlp("").ents == () and nlp("  ").ents == ()


TEXTS = ["We use BERT .", "GLUE is a benchmark .", "Adam with a learning rate of 0.001 .", "BLEU of 30.1 .",
         "We train ELMo ."]


def count_tag_calls(component, monkeypatch) -> list[int]:
    """The number of docs of each ``Tagger.tag`` call the component makes from now on."""
    calls: list[int] = []
    real_tag = component.tagger.tag
    # In the instance's __dict__, removed again after the test: monkeypatch.setattr on an instance
    # would leave the original bound method there, shadowing later patches of Tagger.tag (the
    # session's shipped tagger is shared; test_paper_level_tagging's spy then saw no call).
    monkeypatch.setitem(vars(component.tagger), "tag",
                        lambda paragraphs, **kw: calls.append(len(paragraphs)) or real_tag(paragraphs, **kw))
    return calls


def test_pipe_tags_a_batch_of_docs_per_call(nlp, monkeypatch):
    one_by_one = [ents(nlp(t)) for t in TEXTS]
    calls = count_tag_calls(nlp.get_pipe("sciner"), monkeypatch)
    assert [ents(d) for d in nlp.pipe(TEXTS, batch_size=2)] == one_by_one
    assert calls == [2, 2, 1]
    calls.clear()
    list(nlp.pipe(TEXTS))
    assert calls == [5]


def test_model_path_and_batch_size_are_component_config(loaded_once, monkeypatch):
    nlp = spacy.blank("en")
    nlp.add_pipe("sciner", config={"model": str(DEFAULT_MODEL), "precision": "fp32", "batch_size": 2})
    component = nlp.get_pipe("sciner")
    assert component.tagger.path == DEFAULT_MODEL
    calls = count_tag_calls(component, monkeypatch)
    list(nlp.pipe(TEXTS))  # spaCy hands over 1000 docs at a time; the component tags 2 per call
    assert calls == [2, 2, 1]
    wrong = spacy.blank("en")
    wrong.add_pipe("sciner", config={"model": "/no/such/model"})  # read on first use (see spacy.load below)
    with pytest.raises(ModelError, match="not a model directory"):
        wrong("We use BERT .")
    with pytest.raises(ModelError, match="precision must be one of"):
        spacy.blank("en").add_pipe("sciner", config={"precision": "fp8"})


def test_the_entry_point_names_the_factory():
    # Installed (pip install -e .), spaCy finds the factory through this table with no import.
    table = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["entry-points"]["spacy_factories"]
    module, _, name = table["sciner"].partition(":")
    assert getattr(import_module(module), name) is make_sciner
    assert spacy.blank("en").has_factory("sciner")


def test_spans_key_writes_a_scored_span_group_and_leaves_ents_alone(nlp):
    pipeline = spacy.blank("en")
    pipeline.add_pipe("sciner", config={"precision": "fp32", "spans_key": "sc"})
    pipeline.get_pipe("sciner")._tagger = nlp.get_pipe("sciner").tagger  # the same model, loaded once
    doc = pipeline.make_doc("We fine-tune BERT on SQuAD and report F1 .")
    doc.ents = [doc.char_span(0, 2, label="OTHER")]  # another NER pipe's entity
    doc = pipeline.get_pipe("sciner")(doc)
    group = doc.spans["sc"]
    assert [(s.text, s.label_) for s in group] == tagger_ents(nlp, [t.text for t in doc])
    assert group.attrs["scores"] == [s._.get(SCORE) for s in group] and all(0 < x <= 1 for x in group.attrs["scores"])
    assert [(e.text, e.label_) for e in doc.ents] == [("We", "OTHER")]


@pytest.fixture(scope="module")
def tiny_trained_model(tmp_path_factory, tiny_encoder_dir, tiny_data) -> Path:
    from sciner.training.train import train

    out = tmp_path_factory.mktemp("spacy-model")
    train(tiny_config(tiny_encoder_dir, tiny_data, "bio", epochs=1, max_batches_per_epoch=3), out,
          show_progress=False)
    return out


def test_to_disk_then_spacy_load_tags_in_a_fresh_process_without_the_shipped_model(tmp_path, tiny_trained_model,
                                                                                     tiny_encoder_dir):
    """A saved pipeline carries its model, and its encoder when no package carries it: the
    encoder it was trained on and the model folder are gone when the fresh process loads it."""
    import json
    import shutil
    import subprocess
    import sys

    from sciner.inference.tagger import Tagger

    model, encoder = tmp_path / "model", tmp_path / "encoder-used-in-training"
    shutil.copytree(tiny_trained_model, model)
    shutil.copytree(tiny_encoder_dir, encoder)
    meta = json.loads((model / "model.json").read_text())
    meta["config"]["model"]["encoder"] = str(encoder)
    (model / "model.json").write_text(json.dumps(meta))
    words = ["We", "fine-tune", "BERT", "on", "SQuAD", "and", "report", "F1", "."]
    expected = [(" ".join(words[s.start:s.end]), s.label) for s in Tagger.load(model, precision="fp32").tag([words])[0].spans]

    pipeline = spacy.blank("en")
    pipeline.add_pipe("sciner", config={"model": str(model), "precision": "fp32"})
    pipeline.to_disk(tmp_path / "pipeline")
    shutil.rmtree(model), shutil.rmtree(encoder)
    assert not (tmp_path / "pipeline" / "sciner" / "checkpoint.pt").exists()

    script = (
        "import json, sys, spacy\n"
        "from pathlib import Path\n"
        "from spacy.tokens import Doc\n"
        "import sciner.model.store as store\n"
        "store.DEFAULT_MODEL = Path('/nonexistent/shipped')  # loading the shipped model would fail\n"
        f"nlp = spacy.load({str(tmp_path / 'pipeline')!r})\n"
        f"doc = nlp(Doc(nlp.vocab, words={words!r}))\n"
        "print(json.dumps([[e.text, e.label_] for e in doc.ents]))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert [tuple(e) for e in json.loads(done.stdout)] == expected


def test_paper_level_is_on_by_default_and_one_config_switch_turns_it_off(nlp, shipped_tagger):
    """Each doc is one document to the paper-level pass, as one file is to predict;
    ``paper_level: false`` tags as ``predict --paragraph-local`` does."""
    words = "Our model outperforms OpenAI GPT on GLUE and BERT on SQuAD .".split()
    with pytest.MonkeyPatch.context() as patch:
        serve_shipped(patch, shipped_tagger)
        local = spacy.blank("en")
        local.add_pipe("sciner", config={"precision": "fp32", "paper_level": False})
        off = ents(local(Doc(local.vocab, words=words)))
    on = ents(nlp(Doc(nlp.vocab, words=words)))
    assert on == tagger_ents(nlp, words) and ("OpenAI GPT", "MethodName") in on
    alone = shipped_tagger.tag([words], paper_level=False)[0]
    assert off == [(" ".join(words[s.start:s.end]), s.label) for s in alone.spans] and off != on
