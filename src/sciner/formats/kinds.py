"""The one vocabulary of a PDF element's kind: what the block classifier decides
(:mod:`sciner.pdf`), what a paragraph is written as (JSONL ``kind``), what ``--include`` may
add to the body, and what the checks of :mod:`sciner.formats.include` name. It sits with the
formats, below the PDF reader, so that every floor reads the same names.

A new kind is one member here: its value (the name JSONL writes), its ``include`` name if the
body leaves it out unless asked, and what its paragraphs are written as.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import Enum

from sciner.document import Paragraph
from sciner.errors import InputFormatError


class Kind(str, Enum):
    """What a block of lines, or a paragraph, of a paper is (the value is JSONL's ``kind``)."""

    TITLE = "title"
    HEADER = "header"
    BODY = "body"
    FOOTNOTE = "footnote"  # kept in the body when it is running text; all with --include footnotes
    CAPTION = "caption"  # --include captions
    TABLE = "table"  # a table's row, a paragraph each: --include tables
    # what a float prints that is no table row, a paragraph for each run of its blocks on a page: a
    # figure's labels, the part of a table the reader could not set in rows; only blocks holding
    # numbers no row holds (--include tables); never tagged: no running text
    FIGURE = "figure"
    CODE = "code"  # a code listing in a monospace font: written as a body paragraph
    FRAGMENT = "fragment"  # a short body-size piece: a paragraph's tail after a break, or clutter
    REFERENCES = "references"  # the "References" heading: what follows is dropped
    DROP = "drop"

    @property
    def include(self) -> str | None:
        """The ``--include`` name that brings this kind (all of it) into the output, if any."""
        return _INCLUDE_NAMES.get(self)

    @property
    def written_as(self) -> "Kind":
        """The kind its paragraphs are written as (a code listing is body text)."""
        return Kind.BODY if self is Kind.CODE else self

    def __str__(self) -> str:
        return self.value


_INCLUDE_NAMES: dict[Kind, str] = {Kind.TABLE: "tables", Kind.FIGURE: "tables", Kind.CAPTION: "captions",
                                    Kind.FOOTNOTE: "footnotes"}
# What `--include` may add to a paper's body: table rows (a paragraph each, and the floats' other
# text that holds numbers), captions, and every footnote (the body keeps only those that are
# running text).
INCLUDE: tuple[str, ...] = tuple(dict.fromkeys(_INCLUDE_NAMES.values()))


def is_tagged(kind: object) -> bool:
    """Whether the model tags a paragraph of this kind (JSONL's ``kind``, None for none): every
    kind but a float's text ("figure", a plot's labels), which is no running text."""
    return kind != Kind.FIGURE.value


def text_of(paragraphs: Sequence[Paragraph]) -> list[Paragraph]:
    """The ``paragraphs`` the model tags (:func:`is_tagged`), in order."""
    return [p for p in paragraphs if is_tagged(p.meta.get("kind"))]


def with_tagged(paragraphs: Sequence[Paragraph], tagged: Iterable[Paragraph]) -> list[Paragraph]:
    """``paragraphs`` with those of :func:`text_of` replaced, in order, by ``tagged`` (the model's
    answers for them); the others written with no entity."""
    answers = iter(tagged)
    return [next(answers) if is_tagged(p.meta.get("kind")) else p.with_no_entities() for p in paragraphs]


def check_include(include: Sequence[str]) -> frozenset[str]:
    """``include`` as a set, each a name of :data:`INCLUDE` (a one-line error otherwise)."""
    unknown = [name for name in include if name not in INCLUDE]
    if unknown:
        raise InputFormatError(f"--include: {', '.join(unknown)}: not one of {', '.join(INCLUDE)}")
    return frozenset(include)


def included(kind: Kind, include: frozenset[str]) -> bool:
    """True when ``include`` asks for every element of ``kind``."""
    return kind.include is not None and kind.include in include
