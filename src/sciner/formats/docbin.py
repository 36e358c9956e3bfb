"""spaCy DocBin (``.spacy``): the binary corpus format of ``spacy train``, via spaCy's own classes.

Each paragraph becomes a ``Doc`` whose words are exactly its tokens (separated by one
space, none after the last) and whose ``ents`` are its entity spans. Where the paragraph
came from is kept in the Doc's ``user_data``. spaCy stores no entity scores.

Every token is kept both ways, whitespace tokens included (spaCy makes them for runs of
spaces or newlines in raw text); only an empty token or a lone surrogate is refused on
writing. Writing such a corpus on to CoNLL or text is then refused by those formats.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from sciner.document import Paragraph, Span
from sciner.errors import InputFormatError, InputNotFoundError
from sciner.formats.jsonfields import json_label
from sciner.formats.tokens import check_writable
from sciner.labels import ENTITY_TYPES


def paragraphs_to_docbin(paragraphs: Iterable[Paragraph]):  # -> spacy.tokens.DocBin (spaCy imported lazily)
    """A DocBin holding one Doc per paragraph, entities in ``doc.ents``; :class:`UnwritableTokenError`
    on a token no format carries."""
    from spacy.tokens import Doc, DocBin
    from spacy.tokens import Span as SpacySpan
    from spacy.vocab import Vocab

    vocab = Vocab()
    docbin = DocBin(store_user_data=True)
    for p in check_writable(paragraphs, "spacy"):
        spaces = [True] * (len(p.tokens) - 1) + [False] if p.tokens else []
        doc = Doc(vocab, words=list(p.tokens), spaces=spaces)
        doc.ents = [SpacySpan(doc, s.start, s.end, label=s.label) for s in p.spans or []]
        doc.user_data["sciner_source"] = p.source
        doc.user_data["sciner_line"] = p.line
        docbin.add(doc)
    return docbin


def format_docbin(paragraphs: Iterable[Paragraph]) -> bytes:
    """The bytes of a ``.spacy`` file holding ``paragraphs``."""
    return paragraphs_to_docbin(paragraphs).to_bytes()


def doc_to_paragraph(doc, where: str) -> Paragraph:
    """A tagged paragraph from a spaCy ``Doc``: every token's text (whitespace tokens too, so
    entity indices stay spaCy's) and its ``ents``."""
    spans = [Span(json_label(e.label_, where, f"ents[{i}].label", ENTITY_TYPES), e.start, e.end)
             for i, e in enumerate(doc.ents)]
    # user_data is whatever the file's writer stored: provenance is taken only when it has sciner's types.
    source, line = doc.user_data.get("sciner_source"), doc.user_data.get("sciner_line")
    return Paragraph(
        tokens=[t.text for t in doc],
        spans=spans,
        source=source if isinstance(source, str) else where.rpartition(":")[0],
        line=line if isinstance(line, int) and not isinstance(line, bool) else 0,
    )


def read_docbin(path: str | Path) -> list[Paragraph]:
    """Read a ``.spacy`` DocBin into tagged paragraphs, one per Doc (empty ones too)."""
    from spacy.tokens import DocBin
    from spacy.vocab import Vocab

    path = Path(path)
    if not path.exists():
        raise InputNotFoundError(f"{path}: no such file")
    try:
        docbin = DocBin().from_disk(path)
        docs = list(docbin.get_docs(Vocab()))  # a bad file may fail only when its docs are built
    except Exception as exc:  # spaCy raises plain ValueError/msgpack errors on a bad file
        raise InputFormatError(f"{path}: not a spaCy DocBin ({type(exc).__name__})") from None
    return [doc_to_paragraph(doc, f"{path}:doc {i + 1}") for i, doc in enumerate(docs)]
