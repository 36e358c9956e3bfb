"""One name per entity: spelling variants folded, abbreviations linked to their long forms,
and a canonical spelling from the shared gazetteers where one matches.

Three steps, each small:

* :func:`fold` is the key two spellings share when they are the same name: case, hyphens,
  spaces and punctuation dropped, a plural last word made singular ("BERT-base",
  "BERT base" and "BERTBASE" all fold to ``bertbase``; "F1 scores" to ``f1score``).
* :func:`find_abbreviations` is Schwartz & Hearst (2003), "A simple algorithm for
  identifying abbreviation definitions in biomedical text", on a paragraph's tokens: a short
  form in parentheses after its long form ("Bidirectional Encoder Representations from
  Transformers ( BERT )"), or the reverse when the parentheses hold several words.
* :class:`Gazetteer` maps folded names to the spellings leaderboards use
  (``gazetteers/leaderboards_*.tsv`` and Papers with Code's metric and task lists of the
  shared data, shipped compacted in ``resources/gazetteer.tsv.gz``), read on first use; a
  user's gazetteer folder (``--data``) adds to them.
"""

from __future__ import annotations

import csv
import gzip
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

_NOT_ALNUM = re.compile(r"[^0-9a-z]+")
# A last word that is not a plural though it ends in s (a handful seen in NLP papers).
_NOT_PLURAL = ("ss", "us", "is", "ous", "news", "cs", "ics")


def singular(word: str) -> str:
    """``word`` without a plural ending: "embeddings" -> "embedding", "entities" -> "entity";
    short words, acronyms and words such as "class" or "corpus" are left as they are."""
    if len(word) >= 3 and word.endswith("s") and word[-2].isupper():  # LSTMs, RNNs, BiLSTMs
        return word[:-1]
    if len(word) <= 3 or not word.endswith("s") or not word[:-1].islower() or word.endswith(_NOT_PLURAL):
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    return word[:-1]


def fold(name: str) -> str:
    """The key under which spellings of one name meet: the last word singular, then lower case
    with everything but letters and digits dropped. ``fold("BERT-Base") == fold("BERTBASE")``."""
    words = name.split()
    if words:
        words[-1] = singular(words[-1])
    return _NOT_ALNUM.sub("", " ".join(words).lower())


# --- Schwartz & Hearst (2003) -------------------------------------------------------------

@dataclass(frozen=True)
class Abbreviation:
    """A short form defined in a paragraph: its text, the long form's text, and the token
    ranges of both (end exclusive)."""

    short: str
    long: str
    short_range: tuple[int, int]
    long_range: tuple[int, int]


def _is_short_form(text: str) -> bool:
    """The paper's test of a short-form candidate: 2 to 10 characters, a letter among them,
    starting with a letter or digit; and not a Latin abbreviation ("e.g.", "i.e.")."""
    return 2 <= len(text) <= 10 and any(c.isalpha() for c in text) and text[0].isalnum() and "." not in text


def _is_long_form(words: Sequence[str]) -> bool:
    """False for what reads as a citation ("McCann et al. , 2017") or a clause holding another
    acronym ("SCIBERT uses an in - domain vocabulary") rather than a definition."""
    for word in words:
        if word in {"al", "al.", "."} or (word.isdigit() and len(word) == 4):
            return False
        if len(word) >= 3 and word.isalpha() and sum(c.isupper() for c in word) >= 2:
            return False
    return True


# Tokens a name never starts or ends with: a tagger's span sometimes takes them in.
_EDGE_WORDS = {"the", "a", "an", "and", "or", "of", "our", "for", "with", "in", "on", "to"}


def trim(tokens: Sequence[str]) -> tuple[int, int]:
    """The range of ``tokens`` left once punctuation and function words are dropped from both
    ends ("( CLS" -> "CLS", "sentence classification and" -> "sentence classification")."""
    def inner(token: str) -> bool:
        return any(c.isalnum() for c in token) and token.lower() not in _EDGE_WORDS

    start, end = 0, len(tokens)
    while start < end and not inner(tokens[start]):
        start += 1
    while end > start and not inner(tokens[end - 1]):
        end -= 1
    return start, end


def is_name(text: str) -> bool:
    """A name has a letter: a span of digits or punctuation alone tagged as a name is not one."""
    return any(c.isalpha() for c in text)


def best_long_form(short: str, long: str) -> str | None:
    """The shortest end of ``long`` that holds every letter and digit of ``short`` in order,
    the first one starting a word (the paper's ``findBestLongForm``); None when there is none."""
    s, l = len(short) - 1, len(long) - 1
    while s >= 0:
        c = short[s].lower()
        if not c.isalnum():
            s -= 1
            continue
        while l >= 0 and (long[l].lower() != c or (s == 0 and l > 0 and long[l - 1].isalnum())):
            l -= 1
        if l < 0:
            return None
        l -= 1
        s -= 1
    start = long.rfind(" ", 0, l + 1) + 1
    return long[start:]


def _long_form(tokens: Sequence[str], before: int, short: str) -> tuple[int, str] | None:
    """The long form of ``short`` among the tokens ending at ``before`` (exclusive): at most
    min(|short| + 5, 2 |short|) words back, as the paper bounds it. Returns its first token."""
    words = min(len(short) + 5, 2 * len(short))
    start = max(0, before - words)
    window = list(tokens[start:before])
    # The long form does not reach back over a sentence end or another parenthesis.
    for i in range(len(window) - 1, -1, -1):
        if window[i] in {".", ";", "(", ")", "[", "]", ":"}:
            window, start = window[i + 1:], start + i + 1
            break
    if not window:
        return None
    text = " ".join(window)
    found = best_long_form(short, text)
    if found is None or found.lower() == short.lower() or len(found) <= len(short):
        return None
    n_words = len(found.split())
    first = before - n_words
    if short.lower() in (t.lower() for t in tokens[first:before]) or not _is_long_form(tokens[first:before]):
        return None
    return first, " ".join(tokens[first:before])


def _end_of_words(tokens: Sequence[str], before: int) -> int:
    """``before`` moved back over closing quotes (“masked LM” ( MLM ))."""
    while before > 0 and tokens[before - 1] in {"”", "\"", "''", "'"}:
        before -= 1
    return before


def find_abbreviations(tokens: Sequence[str]) -> list[Abbreviation]:
    """Every ``long form ( SHORT )`` (and ``SHORT ( long form )``) definition among ``tokens``."""
    found: list[Abbreviation] = []
    for open_at, token in enumerate(tokens):
        if token != "(":
            continue
        close = next((j for j in range(open_at + 1, min(len(tokens), open_at + 12)) if tokens[j] == ")"), None)
        if close is None or close == open_at + 1:
            continue
        inside = list(tokens[open_at + 1:close])
        # "( BERT ; Devlin et al. , 2019 )": the short form is what comes before a ; or ,
        for cut, t in enumerate(inside):
            if t in {";", ","}:
                inside = inside[:cut]
                break
        if len(inside) == 1 and _is_short_form(inside[0]):
            short, end = inside[0], _end_of_words(tokens, open_at)
            long = _long_form(tokens, end, short)
            if long is not None:
                found.append(Abbreviation(short, long[1], (open_at + 1, open_at + 2), (long[0], end)))
                continue
        # The reverse: "BERT ( Bidirectional Encoder ... )" — the short form before the parenthesis.
        if open_at > 0 and len(inside) > 2 and _is_short_form(tokens[open_at - 1]):
            short = tokens[open_at - 1]
            text = " ".join(inside)
            hit = best_long_form(short, text)
            if (hit is not None and hit == text and len(inside) <= min(len(short) + 5, 2 * len(short))
                    and _is_long_form(inside)):
                found.append(Abbreviation(short, text, (open_at - 1, open_at), (open_at + 1, open_at + 1 + len(inside))))
    return found


# --- gazetteers ----------------------------------------------------------------------------

# Which name lists give each type its canonical spellings (first column; a count where given).
GAZETTEER_FILES: dict[str, tuple[str, ...]] = {
    "MethodName": ("leaderboards_models.tsv",),
    "DatasetName": ("leaderboards_datasets.tsv",),
    "TaskName": ("leaderboards_tasks.tsv", "pwc_archive_tasks.tsv"),
    "MetricName": ("leaderboards_metrics.tsv", "pwc_archive_metrics.tsv"),
}


# The canonical names the summary ships (made from the shared data's lists above by
# scripts/build_gazetteer.py; sources and licences in resources/gazetteer.NOTICE.md): the
# same names from any folder, with or without the data.
SHIPPED_GAZETTEER = Path(__file__).resolve().parents[1] / "resources" / "gazetteer.tsv.gz"


class Gazetteer:
    """Canonical spellings by type and folded name: the shipped list (``shipped``), to which
    the lists of a user's gazetteer ``folder`` add (a spelling there wins for its name), read
    on first use.

    A missing folder or file adds nothing; :meth:`empty` gives no canonical names at all
    (summaries keep the paper's own spellings)."""

    def __init__(self, folder: str | Path | None = None, *, shipped: bool = True) -> None:
        self.folder = Path(folder) if folder is not None else None
        self.shipped = shipped
        self._names: dict[str, dict[str, str]] | None = None

    @classmethod
    def empty(cls) -> "Gazetteer":
        return cls(None, shipped=False)

    def canonical(self, label: str, name: str) -> str | None:
        """The gazetteer's spelling of ``name`` as a ``label``, or None. A spelling that only
        lowers the paper's capitals ("Stlr" for "STLR") is not taken."""
        found = self._load().get(label, {}).get(fold(name))
        if found is not None and found.lower() == name.lower() and _capitals(found) < _capitals(name):
            return None
        return found

    def added(self) -> int:
        """How many names the user's folder lists (0 without one, or when it has no lists)."""
        return sum(len(names) for names in read_folder(self.folder).values()) if self.folder is not None else 0

    def _load(self) -> dict[str, dict[str, str]]:
        if self._names is None:
            names = {label: dict(found) for label, found in read_shipped().items()} if self.shipped else {}
            if self.folder is not None:
                for label, found in read_folder(self.folder).items():
                    names.setdefault(label, {}).update(found)
            self._names = names
        return self._names


def read_folder(folder: Path) -> dict[str, dict[str, str]]:
    """Type -> folded name -> canonical spelling, from a gazetteer folder's lists (``GAZETTEER_FILES``)."""
    folder = folder.resolve()  # the lists are cached by path: a relative one would follow the current folder
    return {label: _read_names(folder, files) for label, files in GAZETTEER_FILES.items()}


@lru_cache(maxsize=2)
def read_shipped(path: Path = SHIPPED_GAZETTEER) -> dict[str, dict[str, str]]:
    """Type -> folded name -> canonical spelling, from the shipped list (``type<TAB>spelling`` rows)."""
    names: dict[str, dict[str, str]] = {}
    if path.is_file():
        with gzip.open(path, "rt", encoding="utf-8") as handle:
            for row in handle:
                label, _, spelling = row.rstrip("\n").partition("\t")
                if spelling:
                    names.setdefault(label, {})[fold(spelling)] = spelling
    return names


def _capitals(text: str) -> int:
    return sum(c.isupper() for c in text)


def _read_names(folder: Path, files: tuple[str, ...]) -> dict[str, str]:
    """Folded name -> the spelling listed most often (the first file wins a tie)."""
    best: dict[str, tuple[int, str]] = {}
    for rank, name in enumerate(files):
        for spelling, count in _read_list(folder / name):
            key = fold(spelling)
            score = count - rank * 10**9  # an earlier list always beats a later one
            if key and (key not in best or score > best[key][0]):
                best[key] = (score, spelling)
    return {key: spelling for key, (_, spelling) in best.items()}


@lru_cache(maxsize=16)
def _read_list(path: Path) -> tuple[tuple[str, int], ...]:
    """The (name, count) rows of a gazetteer TSV (count 1 where the file has none)."""
    if not path.is_file():
        return ()
    rows = []
    with open(path, encoding="utf-8", newline="") as handle:
        reader = csv.reader(handle, delimiter="\t")
        next(reader, None)  # the header
        for row in reader:
            if row and row[0].strip():
                count = int(row[1]) if len(row) > 1 and row[1].isdigit() else 1
                rows.append((row[0].strip(), count))
    return tuple(rows)
