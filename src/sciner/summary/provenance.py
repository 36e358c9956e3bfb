"""What a result says of where it came from and what it is, besides its numbers: the split it
was measured on (test, dev, validation), its setting ("5-shot"), whether it is an ablation of
the paper's own method, and its caption cut short. Read from words: a table's heads, group
label and caption (:mod:`sciner.summary.tables.reader`) or a result's sentence
(:mod:`sciner.summary.values`)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from sciner.summary.names import fold
# A split's words -> its one name.
SPLIT_WORDS: dict[str, str] = {"test": "test", "testing": "test", "dev": "dev", "development": "dev",
                               "validation": "validation", "valid": "validation", "val": "validation"}
# A split said in running text: "on the test set", "dev split", "the validation data".
_SAID_SPLIT = re.compile(r"\b(test|testing|dev|development|validation|val)\s*(?:set|sets|split|splits|data|"
                         r"portion|partition)\b|\b(?:on|the)\s+(test|dev|development|validation)\b", re.I)
_SHOT = re.compile(r"\b(\d+|zero|one|few|two|three|four|five|ten)\s*-?\s*shots?\b", re.I)
# A row label that varies a method: "w/o X", "without X", "minus X", "- X", "−X" (not a negative
# number), "replace X with Y".
_ABLATED = re.compile(r"^\s*(?:w\s*/\s*o\b|without\b|minus\b|no\s+(?=[A-Za-z])|[-−–]\s*(?=[^\d\s.])|"
                      r"replac(?:e|ing)\s+\S.*\s(?:with|by)\s)", re.I)
_ADDED = re.compile(r"^\s*[+＋]\s*(?=\S)")
ABLATION_CAPTION = re.compile(r"\bablat", re.I)
# Heads over a column of row labels that say the labels are settings.
SETTING_HEADS = frozenset({"setting", "settings", "shot", "shots", "k", "condition", "conditions", "mode", "regime",
                           "scenario", "supervision", "protocol", "trainingdata", "train", "training"})
# A citation ending a table row's label: "( Lample et al . , 2016 )", "( 2016a )", "[ 22 ]", "[ 3 , 7 ]".
_CITATION_END = re.compile(r"\s*(?:\(\s?([^()]*(?:et al|(?:19|20)\d\d[a-z]?)[^()]*)\)|\[\s?(\d+(?:\s?,\s?\d+)*)\s?\])\s*$")
# Authors cited by name ending a label: "Devlin et al . ( 2019 )", "Ma and Hovy ( 2016 )".
_NARRATIVE_END = re.compile(r"\s*((?:[A-Z]\S*\s+et\s+al\s?\.?|[A-Z]\S*\s+(?:and|&)\s+[A-Z]\S*)\s*"
                            r"\(\s?(?:19|20)\d\d[a-z]?\s?\))\s*$")
# The longest caption a result carries, in characters.
CAPTION_CHARS = 160


def head_split(texts: Iterable[str]) -> str | None:
    """The split the heads over a column (or a group label) name as a word of their own ("Test",
    "Dev ( all lengths )", "WSJ Test"), the lowest first; None when none does."""
    for text in reversed(list(texts)):
        for word in re.findall(r"[A-Za-z]+", text):
            if word.lower() in SPLIT_WORDS and (word[0].isupper() or len(text.split()) <= 3):
                return SPLIT_WORDS[word.lower()]
    return None


def said_split(text: str) -> str | None:
    """The one split running text names ("results on the test set"); None for none or several."""
    found = {SPLIT_WORDS[(m.group(1) or m.group(2)).lower()] for m in _SAID_SPLIT.finditer(text)}
    return found.pop() if len(found) == 1 else None


def said_setting(text: str) -> str | None:
    """The one k-shot setting ``text`` names ("5 - shot" -> "5-shot"); None for none or several."""
    found = {f"{m.group(1).lower()}-shot" for m in _SHOT.finditer(text)}
    return found.pop() if len(found) == 1 else None


def first_setting(texts: Sequence[str]) -> str | None:
    """The setting the lowest of ``texts`` that names one names (heads top to bottom)."""
    return next((s for text in reversed(texts) if (s := said_setting(text))), None)


def is_setting_head(text: str) -> bool:
    """Whether a head over row labels names a setting ("Setting", "Shots", "k", "Regime")."""
    return fold(text) in SETTING_HEADS


def is_ablated(label: str | None) -> bool:
    """Whether a row's label removes or swaps a part ("w/o CRF", "- pretraining", "without
    attention", "minus X", "No char embedding", "replace sep convolution with normal convolution")."""
    return bool(label and _ABLATED.match(label))


def is_added(label: str | None) -> bool:
    """Whether a row's label adds a part to the row above ("+ D&M")."""
    return bool(label and _ADDED.match(label))


def short_caption(text: str | None) -> str | None:
    """A caption cut to :data:`CAPTION_CHARS` characters (at a word, with an ellipsis); None when empty."""
    text = " ".join((text or "").split())
    if not text:
        return None
    if len(text) <= CAPTION_CHARS:
        return text
    return text[:CAPTION_CHARS].rsplit(" ", 1)[0] + " …"


def split_citation(model: str) -> tuple[str, str | None]:
    """A row label's model and the citation that ends it, apart: "BiLSTM ( Lample et al . , 2016 )"
    -> ("BiLSTM", "Lample et al . , 2016"), "LSTM [ 22 ]" -> ("LSTM", "22"), "BERT base Devlin et
    al . ( 2019 )" -> ("BERT base", "Devlin et al . ( 2019 )"); a label that is only a citation
    ("Lample et al . ( 2016 )": the authors name the system), or ends in none, is the model as it
    is (citation None)."""
    match = _NARRATIVE_END.search(model) or _CITATION_END.search(model)
    if match is None or not model[:match.start()].strip():
        return model, None
    return model[:match.start()].strip(), next(g for g in match.groups() if g).strip()
