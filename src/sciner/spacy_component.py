"""sciner as a spaCy pipeline component: ``nlp.add_pipe("sciner")`` sets ``doc.ents``.

::

    import spacy
    nlp = spacy.blank("en")
    nlp.add_pipe("sciner")                  # config: model, batch_size, precision, device
    doc = nlp("We fine-tune BERT on SQuAD .")
    [(e.text, e.label_, e._.sciner_score) for e in doc.ents]

The factory is registered under spaCy's ``spacy_factories`` entry point (see pyproject.toml),
so an installed sciner needs no import; importing this module registers it too. The doc's
tokens are what the model tags: the nlp's tokenizer for text, the given words for a
pre-tokenized ``Doc(nlp.vocab, words=...)``. Whitespace tokens are skipped. The component
replaces ``doc.ents``; each entity's ``._.sciner_score`` is the model's score for it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from spacy.language import Language
from spacy.tokens import Doc, Span
from spacy.util import minibatch

from sciner.document import Paragraph
from sciner.labels import ENTITY_TYPES

#: The ``Span`` extension holding an entity's score.
SCORE = "sciner_score"

if not Span.has_extension(SCORE):
    Span.set_extension(SCORE, default=None)


class SciNER:
    """Tags a Doc's tokens with a sciner model and sets them as ``doc.ents``."""

    def __init__(self, nlp: Language, name: str, tagger: Any, batch_size: int) -> None:
        self.name = name
        self.tagger = tagger
        self.batch_size = batch_size

    @property
    def labels(self) -> tuple[str, ...]:
        return ENTITY_TYPES

    def __call__(self, doc: Doc) -> Doc:
        return self.set_entities([doc])[0]

    def pipe(self, stream: Iterable[Doc], *, batch_size: int | None = None) -> Iterator[Doc]:
        """Tag ``batch_size`` docs (``nlp.pipe``'s) per :meth:`Tagger.tag` call, at most the
        component's own ``batch_size``: spaCy always passes its own (1000 by default), and
        the component's bounds the memory one call takes."""
        for docs in minibatch(stream, size=min(batch_size or self.batch_size, self.batch_size)):
            yield from self.set_entities(list(docs))

    def set_entities(self, docs: list[Doc]) -> list[Doc]:
        """Tag the docs' non-space tokens in one call and set each doc's entities."""
        kept = [[t.i for t in doc if not t.is_space] for doc in docs]
        tagged = self.tagger.tag([[doc[i].text for i in ids] for doc, ids in zip(docs, kept)])
        for doc, ids, paragraph in zip(docs, kept, tagged):
            doc.ents = entities(doc, ids, paragraph)
        return docs


def entities(doc: Doc, ids: list[int], paragraph: Paragraph) -> list[Span]:
    """``paragraph``'s spans over the doc tokens ``ids`` (the tokens that were tagged), scored."""
    out = []
    for s in paragraph.spans or []:
        span = Span(doc, ids[s.start], ids[s.end - 1] + 1, label=s.label)
        span._.set(SCORE, s.score)
        out.append(span)
    return out


@Language.factory(
    "sciner",
    default_config={"model": None, "batch_size": 32, "precision": "auto", "device": "auto"},
    assigns=["doc.ents", f"span._.{SCORE}"],
)
def make_sciner(nlp: Language, name: str, model: str | None, batch_size: int, precision: str,
                device: str) -> SciNER:
    """The ``sciner`` component: ``model`` is a model directory (None = the shipped model),
    at most ``batch_size`` docs are tagged per call, ``precision`` and ``device`` as for
    :meth:`Tagger.load`."""
    from sciner.inference.tagger import Tagger

    return SciNER(nlp, name, Tagger.load(model, precision=precision, device=device), batch_size)
