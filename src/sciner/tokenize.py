"""The task's tokenization: spaCy's rule-based English tokenizer, with whitespace dropped.

The official test inputs were tokenized with ``spacy.blank("en")``; every text that
enters sciner (PDF paragraphs, raw pretraining text) goes through the same rules so
that tokens line up with what the model was trained on.
"""

from __future__ import annotations

import re
import sys
import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from spacy.tokenizer import Tokenizer


@lru_cache(maxsize=1)
def _tokenizer() -> "Tokenizer":
    # Imported lazily: spaCy takes about a second to import, which `sciner --help` should not pay.
    with _torch_hidden_from_thinc():
        import spacy

    return spacy.blank("en").tokenizer


# Set by the ``sciner`` command (:func:`sciner.cli.main`), never by importing sciner: a library
# user's process may go on to run spaCy pipelines that need thinc's torch shims.
HIDE_TORCH_FROM_THINC = False


@contextmanager
def _torch_hidden_from_thinc() -> Iterator[None]:
    """spaCy imports thinc, whose ``thinc.compat`` imports torch if it can (1.2 s of spaCy's 2.1 s
    here), though the tokenizer needs none of it: a PDF or untokenized text tagged in NumPy would
    pay it. While thinc is imported here for the first time, ``import torch`` fails as if torch were
    not installed (thinc then has no torch shims; sciner uses none), and works again afterwards.
    A process that imported torch or thinc before (training, spaCy pipelines) is left as it is,
    and so is a thread other than the main one (a server's request), while another request may
    import torch. Only in the ``sciner`` command (:data:`HIDE_TORCH_FROM_THINC`)."""
    if not HIDE_TORCH_FROM_THINC or "torch" in sys.modules or "thinc" in sys.modules or threading.current_thread() is not threading.main_thread():
        yield
        return
    sys.modules["torch"] = None  # type: ignore[assignment]  # the import system's "not importable"
    try:
        yield
    finally:
        if sys.modules.get("torch", ...) is None:
            del sys.modules["torch"]


def tokenize(text: str) -> list[str]:
    """Split ``text`` into spaCy tokens, dropping whitespace tokens.

    >>> tokenize("BERT-base reaches 84.6% on MNLI.")
    ['BERT', '-', 'base', 'reaches', '84.6', '%', 'on', 'MNLI', '.']
    """
    return [token.text for token in _tokenizer()(text) if not token.is_space]


# Tokens written without a space before them (closing punctuation, a percent sign, a
# contraction's second half) and after them (opening brackets); a hyphen or slash between two
# word tokens joins them ("state - of - the - art" was "state-of-the-art": spaCy splits it so).
_NO_SPACE_BEFORE = frozenset({",", ".", ":", ";", ")", "]", "}", "%", "!", "?", "'s", "'re", "'ve", "'ll", "'d", "'m",
                              "n't", "..", "..."})
_NO_SPACE_AFTER = frozenset({"(", "[", "{"})
_JOINERS = frozenset({"-", "/", "–"})


def detokenize(tokens: Sequence[str]) -> str:
    """``tokens`` as readable text: the inverse of :func:`tokenize` where the rules above can
    tell how the text was written (the task's files keep no whitespace).

    >>> detokenize(['BERT', '-', 'base', 'reaches', '84.6', '%', '(', 'MNLI', ')', '.'])
    'BERT-base reaches 84.6% (MNLI).'
    """
    text, joined = "", False
    for i, token in enumerate(tokens):
        joins = token in _JOINERS and i > 0 and _wordlike(tokens[i - 1]) and i + 1 < len(tokens) \
            and _wordlike(tokens[i + 1])
        glued = not text or joins or joined or token in _NO_SPACE_BEFORE or tokens[i - 1] in _NO_SPACE_AFTER
        text += token if glued else " " + token
        joined = joins
    return text


def _wordlike(token: str) -> bool:
    return token[:1].isalnum() or token[-1:].isalnum()


def tokenize_paragraphs(texts: Iterable[str], batch_size: int = 256) -> list[list[str]]:
    """Tokenize many paragraphs at once (faster than calling :func:`tokenize` in a loop)."""
    tokenizer = _tokenizer()
    return [
        [token.text for token in doc if not token.is_space]
        for doc in tokenizer.pipe(texts, batch_size=batch_size)
    ]


# Above this share of tokens that the task's tokenizer would cut further ("paper," "models."),
# text read as tokenized is taken for untokenized: the task's own inputs have under 0.01%,
# its example input 1%, raw paper text about 13%.
GLUED_WARNING_SHARE = 0.02


def glued_share(paragraphs: Iterable[list[str]]) -> tuple[float, list[str]]:
    """The share of tokens that :func:`tokenize` would cut into several (punctuation glued to a
    word), and the most frequent such tokens: a sign that text read as tokenized was not.

    Only tokens that may be cut (a word with punctuation at an end, or a hyphen or slash between
    letters) go to the tokenizer, and only when they are more than
    :data:`GLUED_WARNING_SHARE` of the text: a tokenized file never loads spaCy for this.
    """
    from collections import Counter

    counts = Counter(token for tokens in paragraphs for token in tokens)
    total = sum(counts.values())
    candidates = [t for t in counts if _MAY_BE_GLUED.search(t) and any(c.isalnum() for c in t)]
    if not total or sum(counts[t] for t in candidates) <= GLUED_WARNING_SHARE * total:
        return 0.0, []
    glued = [t for t, doc in zip(candidates, _tokenizer().pipe(candidates)) if len(doc) > 1]
    return sum(counts[t] for t in glued) / total, sorted(glued, key=lambda t: -counts[t])[:3]


GLUED_WARNING_MIN_TOKENS = 5


def untokenized_gold_warning(paragraphs: Iterable[list[str]], name: str) -> str | None:
    """The warning for annotated text (gold, training papers) not tokenized as the task's
    inputs (None when it is): its glued tokens ("performance,") never match a prediction,
    which splits them; ``sciner convert --retokenize`` cuts them, keeping the labels."""
    token_lists = list(paragraphs)
    share, examples = glued_share(token_lists)
    # A few glued tokens in a small file ("fine-tune" in a 13-token example) are no evidence.
    if share <= GLUED_WARNING_SHARE or share * sum(map(len, token_lists)) < GLUED_WARNING_MIN_TOKENS:
        return None
    return (f"warning: {name}: {share:.0%} of the tokens have punctuation glued to them "
            f"({', '.join(repr(t) for t in examples)}): annotated text not tokenized as the task's inputs "
            f"scores and trains badly; re-tokenize it keeping its labels: sciner convert {name} OUT --retokenize")


# What the task's tokenizer may cut off or apart: punctuation at either end of a token, and a
# hyphen or slash between letters ("fine-tune", "and/or"); a superset, checked by the tokenizer.
_MAY_BE_GLUED = re.compile(r"""^[^\w\s]|[^\w\s]$|[^\W\d_][-/][^\W\d_]""")
