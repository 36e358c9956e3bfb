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
replaces ``doc.ents``; each entity's ``._.sciner_score`` is the model's score for it. With
``spans_key`` set it writes ``doc.spans[spans_key]`` instead (scores also in the group's
``attrs["scores"]``, as spaCy's span categorizer keeps them) and leaves ``doc.ents`` to the
other NER pipes. ``nlp.to_disk(dir)`` writes the model into the pipeline's folder, so
``spacy.load(dir)`` tags in a fresh process; the model is loaded on first use, so loading a
saved pipeline never loads the shipped model first.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from spacy.language import Language
from spacy.tokens import Doc, Span, SpanGroup
from spacy.util import minibatch

from sciner.document import Paragraph
from sciner.labels import ENTITY_TYPES

#: The ``Span`` extension holding an entity's score.
SCORE = "sciner_score"

if not Span.has_extension(SCORE):
    Span.set_extension(SCORE, default=None)


class SciNER:
    """Tags a Doc's tokens with a sciner model and sets them as ``doc.ents`` (or ``doc.spans[spans_key]``)."""

    def __init__(self, nlp: Language, name: str, model: str | Path | None, batch_size: int,
                 precision: str = "auto", spans_key: str | None = None, device: str = "auto",
                 paper_level: bool = True) -> None:
        self.name = name
        self.paper_level = paper_level
        self.model = model
        self.precision = precision
        self.device = device
        self.batch_size = batch_size
        self.spans_key = spans_key
        self._tagger: Any = None

    @property
    def tagger(self) -> Any:
        """The :class:`~sciner.inference.tagger.Tagger`, loaded on first use."""
        if self._tagger is None:
            from sciner.inference.tagger import Tagger

            self._tagger = Tagger.load(self.model, precision=self.precision, device=self.device)
        return self._tagger

    def to_disk(self, path: str | Path, *, exclude: Iterable[str] = ()) -> None:
        """Write the model (what tagging needs, the encoder too when no package carries it) to ``path``."""
        from sciner.model.store import copy_model

        copy_model(self.tagger.path, path, carry_encoder=True)

    def from_disk(self, path: str | Path, *, exclude: Iterable[str] = ()) -> "SciNER":
        """Tag with the model :meth:`to_disk` wrote at ``path`` (loaded on first use)."""
        self.model, self._tagger = Path(path), None
        return self

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
        """Tag the docs' non-space tokens in one call and set each doc's entities; each doc is
        one document to the paper-level pass (see :meth:`Tagger.tag`; off with ``paper_level``
        false in the component's config)."""
        kept = [[t.i for t in doc if not t.is_space] for doc in docs]
        tagged = self.tagger.tag([Paragraph([doc[i].text for i in ids], meta={"doc": k})
                                  for k, (doc, ids) in enumerate(zip(docs, kept))], paper_level=self.paper_level)
        for doc, ids, paragraph in zip(docs, kept, tagged):
            found = entities(doc, ids, paragraph)
            if self.spans_key is None:
                doc.ents = found
            else:
                doc.spans[self.spans_key] = SpanGroup(doc, name=self.spans_key, spans=found,
                                                      attrs={"scores": [s._.get(SCORE) for s in found]})
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
    default_config={"model": None, "batch_size": 32, "precision": "auto", "device": "auto", "spans_key": None,
                    "paper_level": True},
    assigns=["doc.ents", "doc.spans", f"span._.{SCORE}"],
)
def make_sciner(nlp: Language, name: str, model: str | None, batch_size: int, precision: str,
                device: str, spans_key: str | None, paper_level: bool = True) -> SciNER:
    """The ``sciner`` component: ``model`` is a model directory (None = the shipped model),
    at most ``batch_size`` docs are tagged per call, ``precision`` and ``device`` as for
    :meth:`Tagger.load`; ``spans_key`` (None = ``doc.ents``) names the span group to write
    instead; each doc is one document to the paper-level pass, ``paper_level`` false tags it
    strictly as ``sciner predict --paragraph-local`` does."""
    from sciner.errors import ModelError
    from sciner.config import PRECISIONS

    # The model itself is read on first use: spacy.load builds the component from config.cfg,
    # whose model path may be gone, before from_disk points it at the pipeline's own copy.
    if precision not in PRECISIONS:
        raise ModelError(f"precision must be one of {', '.join(PRECISIONS)}, not {precision!r}")
    return SciNER(nlp, name, model, batch_size, precision, spans_key, device, paper_level)
