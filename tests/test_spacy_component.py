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

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def nlp(shipped_tagger):
    """A blank English pipeline with the component, its model the session's shipped one."""
    from conftest import serve_shipped

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
    monkeypatch.setattr(component.tagger, "tag", lambda paragraphs: calls.append(len(paragraphs)) or real_tag(paragraphs))
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
    with pytest.raises(ModelError, match="not a model directory"):
        spacy.blank("en").add_pipe("sciner", config={"model": "/no/such/model"})


def test_the_entry_point_names_the_factory():
    # Installed (pip install -e .), spaCy finds the factory through this table with no import.
    table = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["entry-points"]["spacy_factories"]
    module, _, name = table["sciner"].partition(":")
    assert getattr(import_module(module), name) is make_sciner
    assert spacy.blank("en").has_factory("sciner")
