"""Split over-long blocks at sentence ends, and pack sentences back into short paragraphs."""

from __future__ import annotations

import re

from sciner.document import Paragraph

_SENTENCE_END = {".", "?", "!"}
_ABBREVIATIONS = {"al.", "e.g.", "i.e.", "etc.", "vs.", "Fig.", "Eq.", "cf.", "resp."}


def _ends_sentence(tokens: list[str], tags: list[str], i: int) -> bool:
    """True when a sentence may end after token ``i``: a final stop, outside any entity."""
    tok = tokens[i]
    if i + 1 >= len(tokens):
        return True
    if tags[i + 1].startswith("I-"):
        return False
    nxt = tokens[i + 1]
    ends = tok in _SENTENCE_END or (tok.endswith(".") and tok not in _ABBREVIATIONS and len(tok) > 3)
    return ends and (nxt[:1].isupper() or nxt[:1].isdigit() or not nxt[:1].isalnum())


def sentence_ranges(tokens: list[str], tags: list[str], min_tokens: int = 3) -> list[tuple[int, int]]:
    """The (start, end) token ranges of the sentences of a tagged paragraph; never inside an entity."""
    ranges: list[tuple[int, int]] = []
    start = 0
    for i in range(len(tokens)):
        if i + 1 - start >= min_tokens and _ends_sentence(tokens, tags, i):
            ranges.append((start, i + 1))
            start = i + 1
    if start < len(tokens):
        ranges.append((start, len(tokens)))
    return ranges


def split_sentences(p: Paragraph, min_tokens: int = 3) -> list[Paragraph]:
    """Split a tagged paragraph into sentences; never inside an entity."""
    tags = p.tags
    assert tags is not None
    return [Paragraph(p.tokens[start:end], tags[start:end], p.source, p.line + start)
            for start, end in sentence_ranges(p.tokens, tags, min_tokens)]


def hard_split(p: Paragraph, max_tokens: int) -> list[Paragraph]:
    """Cut a sentence longer than ``max_tokens`` into pieces, preferring cuts outside entities."""
    tags = p.tags
    assert tags is not None
    pieces = []
    start = 0
    n = len(p.tokens)
    while n - start > max_tokens:
        cut = start + max_tokens
        while cut > start + 1 and tags[cut].startswith("I-"):
            cut -= 1
        pieces.append(Paragraph(p.tokens[start:cut], tags[start:cut], p.source, p.line + start))
        start = cut
    pieces.append(Paragraph(p.tokens[start:], tags[start:], p.source, p.line + start))
    return pieces


def pack_sentences(sentences: list[Paragraph], max_tokens: int) -> list[Paragraph]:
    """Join consecutive sentences (of one block) into paragraphs of at most ``max_tokens``."""
    out: list[Paragraph] = []
    cur_tokens: list[str] = []
    cur_tags: list[str] = []
    first: Paragraph | None = None
    for s in sentences:
        assert s.tags is not None
        if cur_tokens and len(cur_tokens) + len(s.tokens) > max_tokens:
            out.append(Paragraph(cur_tokens, cur_tags, first.source, first.line))  # type: ignore[union-attr]
            cur_tokens, cur_tags, first = [], [], None
        if first is None:
            first = s
        cur_tokens = cur_tokens + s.tokens
        cur_tags = cur_tags + s.tags
    if cur_tokens:
        out.append(Paragraph(cur_tokens, cur_tags, first.source, first.line))  # type: ignore[union-attr]
    return out


_KEY_RE = re.compile(r"[^0-9a-z]+")


def sentence_key(tokens: list[str]) -> str:
    """Lower-cased alphanumerics only: equal for the same sentence tokenized differently."""
    return _KEY_RE.sub("", "".join(tokens).lower())
