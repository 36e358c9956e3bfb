"""Which tokens each format can carry, checked before anything is written.

A token a format cannot carry would come back changed, split or merged, or vanish, so
writing it is refused with :class:`UnwritableTokenError` naming the paragraph and token:

============ ==================================================================================
every format an empty token; a lone surrogate (not Unicode that UTF-8 can hold)
conll        also a tab, line break or carriage return in a token; a token that is only
             whitespace; the token ``-DOCSTART-`` (the document marker readers skip); an
             empty paragraph (a blank line is a paragraph end, not a paragraph)
text         also a space, line break or carriage return in a token; an empty paragraph
============ ==================================================================================

JSONL, doccano, Label Studio and spaCy keep the tokens themselves, so they carry any other token.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from sciner.document import Paragraph
from sciner.errors import InputFormatError, UnwritableTokenError
from sciner.formats.jsonfields import json_list, json_string

# token -> why a format cannot carry it, or None when it can.
TokenRule = Callable[[str], "str | None"]

DOCSTART = "-DOCSTART-"
_BREAKS = (("\n", "a line break"), ("\r", "a carriage return"))


def unwritable_anywhere(token: str) -> str | None:
    """Why no format can carry ``token``, or None."""
    if token == "":
        return "is empty"
    try:
        token.encode("utf-8")
    except UnicodeEncodeError:
        return "is not valid Unicode (a lone surrogate)"
    return None


def _containing(token: str, forbidden: tuple[tuple[str, str], ...]) -> str | None:
    for char, name in forbidden:
        if char in token:
            return f"contains {name}"
    return None


def conll_rule(token: str) -> str | None:
    """Why a CoNLL line (``token<TAB>tag``) cannot carry ``token``, or None."""
    reason = _containing(token, (("\t", "a tab"), *_BREAKS))
    if reason is None and token.isspace():
        reason = "is only whitespace"
    if reason is None and token == DOCSTART:
        reason = "is the CoNLL document marker"
    return reason


def text_rule(token: str) -> str | None:
    """Why a paragraph line (tokens joined by single spaces) cannot carry ``token``, or None."""
    return _containing(token, ((" ", "a space"), *_BREAKS))


def check_writable(
    paragraphs: Iterable[Paragraph], fmt: str, rule: TokenRule | None = None, *, empty_paragraphs: bool = True
) -> list[Paragraph]:
    """``paragraphs`` as a list, or :class:`UnwritableTokenError` on the first token that a ``fmt``
    file cannot carry (``rule``, on top of what no format carries)."""
    paragraphs = list(paragraphs)
    for number, p in enumerate(paragraphs, start=1):
        where = f"{p.source}:{p.line}: paragraph {number}"
        if not p.tokens and not empty_paragraphs:
            raise UnwritableTokenError(
                f"{where} has no tokens: a {fmt} file cannot hold an empty paragraph; "
                "use --to jsonl, which carries any paragraph"
            )
        for i, token in enumerate(p.tokens):
            reason = unwritable_anywhere(token)
            if reason is not None:
                raise UnwritableTokenError(f"{where}, token {i} {token!r} {reason}: no format can carry it")
            reason = rule(token) if rule is not None else None
            if reason is not None:
                raise UnwritableTokenError(
                    f"{where}, token {i} {token!r} {reason}: a {fmt} file cannot carry it; "
                    "use --to jsonl, which carries any token"
                )
    return paragraphs


def read_tokens(value: object, where: str, field: str = "tokens") -> list[str]:
    """The tokens a JSON file stores in ``field``, or :class:`InputFormatError` unless it is a
    list of strings that some format can carry (JSON can spell an empty token or a lone surrogate)."""
    tokens = [json_string(t, where, f"{field}[{i}]") for i, t in enumerate(json_list(value, where, field))]
    for i, token in enumerate(tokens):
        reason = unwritable_anywhere(token)
        if reason is not None:
            raise InputFormatError(f"{where}: token {i} {token!r} {reason} (field '{field}[{i}]')")
    return tokens
