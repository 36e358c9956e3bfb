"""A paper's entities, one name each: its tagged name mentions cleaned, spelling variants
folded, abbreviations linked to their long forms, and a canonical spelling from the shared
gazetteers where one matches.

Four steps, each small:

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
* :func:`paper_entities` cleans a paper's mentions (:func:`clean_mentions`, ``CLEAN_RULES``)
  and groups them into :class:`Entity` s: spellings that fold alike, a name with and without
  a head word, an abbreviation and its long form are one entity (a union-find over
  (type, folded name) keys), named by its short form, else its most frequent spelling; its
  list keeps the entities a reader would list (:func:`listed_entities`; :func:`is_listed`
  answers it for one name, for any caller), while every entity's spellings stay known.
"""

from __future__ import annotations

import csv
import gzip
import re
from collections import Counter, defaultdict
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from sciner.document import Paragraph, Place, Span
from sciner.labels import NAME_TYPES

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


_POSSESSIVE = re.compile(r"(?<=\w)\s?['’]s\b")


def fold(name: str) -> str:
    """The key under which spellings of one name meet: a possessive's "'s" dropped, the last word
    singular, then lower case with everything but letters and digits dropped. ``fold("BERT-Base")
    == fold("BERTBASE")``, ``fold("Spearman ’s correlation") == fold("Spearman correlation")``."""
    words = _POSSESSIVE.sub("", name).split() if "s" in name else name.split()
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
    def inner(token: str) -> bool:  # "AN" (adjective-noun) is a name, "An" the article
        return any(c.isalnum() for c in token) and (token.lower() not in _EDGE_WORDS
                                                    or (len(token) > 1 and token.isupper()))

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
    "DatasetName": ("leaderboards_datasets.tsv", "pwc_datasets_in_acl_anthology.tsv"),
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
            if self.folder is None:  # the shipped lists as read (cached, only ever looked up): no copy a paper
                self._names = read_shipped() if self.shipped else {}
                return self._names
            names = {label: dict(found) for label, found in read_shipped().items()} if self.shipped else {}
            for label, found in read_folder(self.folder).items():
                names.setdefault(label, {}).update(found)
            self._names = names
        return self._names


def read_folder(folder: Path) -> dict[str, dict[str, str]]:
    """Type -> folded name -> canonical spelling, from a gazetteer folder's lists (``GAZETTEER_FILES``);
    not as data a name the lists give as a metric too ("MAP"), an optimizer ("ADAM"), generic
    words ("Supervised", "Experimental Results") or a company ("Google"), as some Papers with
    Code dataset names are: a table head naming one is no dataset."""
    folder = folder.resolve()  # the lists are cached by path: a relative one would follow the current folder
    names = {label: _read_names(folder, files) for label, files in GAZETTEER_FILES.items()}
    names["DatasetName"] = {key: name for key, name in names["DatasetName"].items()
                            if key not in names["MetricName"] and key not in OPTIMIZERS and key not in _NOT_DATA
                            and not is_generic(name)}
    return names


# Names some dataset lists give that a table head means otherwise: companies whose systems a
# table compares, and a section's heading.
_NOT_DATA = frozenset({"google", "microsoft", "amazon", "facebook", "meta", "ibm", "baidu", "apple", "openai",
                       "experimentalresult"})


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


# --- a paper's list of names, cleaned ------------------------------------------------------

# The rules :func:`clean_mentions` applies, each measured on the dev papers
# (benchmarks/entity_lists.py; the table is in docs/names.md):
#   hyphens   a name cut at a hyphen is joined again ("Co -" + "guiding" -> "Co-guiding")
#   brackets  a name holding an unmatched bracket is cut there ("Intent(Acc" -> "Intent")
#   repeats   a name said twice over, as merged table heads are, is said once ("MSCOCO MSCOCO")
#   fragments a name that is a fragment is dropped ("co", "sentence -", a lower-case letter), and
#             a task name of one word cut from a hyphenated word ("Zero" of "Zero - shot")
#   longer    a name the text around it completes to a longer name the paper tags at least as
#             often is that name ("NYT" in "the NYT corpus")
#   modifiers a word saying a method or dataset's role or state is no part of its name, as the
#             annotation standard says ("the pretrained BERT model" is BERT: "original BERT",
#             "standard Transformer"; MODIFIERS), where a name is left
#   heads     "score" is no part of a metric's name, as the annotation standard says ("macro
#             F1 score" -> "macro F1"), and "X Net" is X where the paper also says X
#             ("Co-guiding Net", "Co-guiding": one entity)
#   one type  a name tagged with several types is the type most of its mentions have
#   lower     an all-lower-case method, dataset or metric name said once that the gazetteer
#             does not know is dropped ("pseudolabeling", "misc", "similarity"); task names are
#             often lower case, and a name said again is kept ("papermage", "faithfulness")
# and the rules that pick which of a paper's entities its list shows (:func:`listed_entities`;
# an entity left out stays known to the results reader, its table columns are still read):
#   generic   a name of generic words only is not listed ("Sentence", "fine-tuning", "t-test",
#             "Mean", "Base / Small"; GENERIC_WORDS)
#   layout    a footnote's number glued to a word ("6The") or a version alone ("V2.0") is not
#   long      a name of more than LONGEST_NAME words, a description or two names run together,
#             is not ("RACE The ReAding Comprehension from Ex- aminations")
#   optimizers an optimizer is no method: the annotation standard makes "Adam" a hyperparameter's
#             value ("SGD", "AdaGrad"; OPTIMIZERS)
#   text      a name said only in a PDF's tables and captions, which the annotation standard
#             leaves unannotated, is not (UNANNOTATED_KINDS; the dev lists have no such paragraphs)
#   runs      a name that is two or more names of its type side by side, as a table's row of
#             heads read as one, is not ("MPQA TREC", "SQuAD1.1 SQuAD2.0")
#   main type a name listed under several types is listed under the one it is said most as
#   unsure    a method, dataset or metric name said at most UNSURE_MENTIONS times, no span of
#             which scores UNSURE_SCORE, is not listed (task names, descriptive phrases, score
#             lower: the rule dropped as many right task names as wrong ones on the tune papers)
CLEAN_RULES: tuple[str, ...] = ("hyphens", "brackets", "repeats", "fragments", "modifiers", "longer", "heads", "lower",
                                "generic", "layout", "long", "optimizers", "text", "runs", "main type")
# Measured and not applied:
# * "one type" (+0.004 on the tune papers, but a metric tagged more often as a method, UAS in
#   1805.01087, loses its table columns; "main type" does the same to the list only);
# * "unsure" (+0.003 on the tune papers' lists, but on the results dev set's tune PDFs, tagged
#   by the shipped model, the names it leaves out are right names, "BM25", "Wikipedia",
#   "SpanBERT", about as often as not, where a rule must be right twice as often as wrong to
#   raise F1 at these lists' precision and recall);
# * leaving out a name that is part of a longer listed name of its type said as often ("CNN"
#   and "CNN / Daily Mail": -0.004, annotators list "ClueWeb" and "ClueWeb 2012-B", "NER"
#   and "cross-lingual NER" alike).
# The types whose names the rules clean: a summary's lists (hyperparameter names such as "λ"
# or "L" are whole as tagged).
LISTED_TYPES = frozenset({"MethodName", "DatasetName", "TaskName", "MetricName"})

_HYPHENS = {"-", "‐"}  # not dashes: "Spanish — STACKPTR" is two things
_BRACKETS = {"(": ")", "[": "]", "{": "}"}
# Head words the annotation standard leaves out of names ("macro F1 score": macro F1), by type.
# (Measured: leaving "model", "dataset" or "task" out of names lowers the dev lists' F1, for
# the annotators keep them more often than not.)
_GENERIC_HEADS = {"MetricName": {"score", "scores"}}
# Head words that may be part of a name ("Siamese Network"): only where the paper also says
# the name without them ("Co-guiding Net" and "Co-guiding").
_NAMED_HEADS = {"net", "network", "networks", "model", "system", "module"}
# Words after a hyphen that make a name an adjective ("BERT - based models" names BERT).
_SUFFIX_WORDS = {"based", "style", "like", "only", "level", "specific", "aware", "driven", "oriented", "free",
                 "wise", "related", "dependent", "independent", "sized", "scale", "type"}
# Words before a method or dataset name that say its role or state, not which it is ("the
# pretrained BERT model" is BERT, the annotation standard says); "modifiers" leaves them out.
# Written without hyphens: "pre-trained" is "pretrained".
MODIFIERS = frozenset({"original", "standard", "vanilla", "plain", "pretrained", "finetuned", "proposed",
                       "baseline", "conventional", "traditional", "existing"})
_MODIFIED_TYPES = {"MethodName", "DatasetName"}
# A model's sizes, which a name takes in after a hyphen ("BioBERT - base").
_SIZE_WORDS = {"base", "large", "small", "tiny", "mini", "medium", "xl", "xxl", "big"}
# A name said at most UNSURE_MENTIONS times none of whose spans has a mean tag probability of
# UNSURE_SCORE is not listed ("unsure"; spans without a score, as CoNLL input has, are kept).
UNSURE_SCORE = 0.3
UNSURE_MENTIONS = 2
# The most words a listed name has ("long"; a defined short form names its entity, so long
# forms rarely are one).
LONGEST_NAME = 4
_UNSURE_TYPES = {"MethodName", "DatasetName", "MetricName"}
# The types whose names are rarely all lower case ("lower").
_CAPITALISED_TYPES = {"MethodName", "DatasetName", "MetricName"}


@dataclass
class Mention:
    """One tagged name in a paper: its type, its text as the rules leave it, where the tagged
    span lies (paragraph, first token, end token), the span's score, and the tokens the text
    was read from (``start``, ``end``: after the rules)."""

    label: str
    text: str
    place: tuple[int, int, int]
    score: float | None
    start: int
    end: int


def _is_word(token: str) -> bool:
    return any(c.isalnum() for c in token)


def join_hyphens(tokens: Sequence[str], start: int, end: int) -> tuple[int, int]:
    """``start``-``end`` grown over the hyphens a name was cut at: a word and a hyphen just
    before it ("AN -" + "NPN"), a hyphen it ends on and the word after ("Co -" + "guiding"),
    unless that word makes it an adjective ("BERT -" + "based"), and a hyphen and a model
    size after it ("BioBERT" + "- base")."""
    while start >= 2 and tokens[start - 1] in _HYPHENS and any(c.isalpha() for c in tokens[start - 2]):
        start -= 2  # (not over a number: "2 - layer" is a value and its name)
    while (end < len(tokens) and end > start and tokens[end - 1] in _HYPHENS and _is_word(tokens[end])
           and tokens[end].lower() not in _SUFFIX_WORDS):
        end += 1
    if end + 1 < len(tokens) and tokens[end] in _HYPHENS and tokens[end + 1].lower() in _SIZE_WORDS:
        end += 2  # "BioBERT" + "- base": a model's size is part of its name
    return start, end


def without_modifier(label: str, text: str) -> str:
    """``text`` without the words of :data:`MODIFIERS` it starts with, hyphens aside, where a
    method or dataset name written as one is left ("orig- inal BERT" -> "BERT", "pre-trained
    ELMo" -> "ELMo"; not "standard deviation")."""
    if label not in _MODIFIED_TYPES:
        return text
    words, first = text.split(), 0
    while first < len(words):
        cut = 2 if words[first].endswith("-") and first + 1 < len(words) else 1  # a word broken at a line's end
        if "".join(words[first:first + cut]).replace("-", "").lower() not in MODIFIERS:
            break
        first += cut
    rest = words[first:]
    return " ".join(rest) if first and rest and (rest[0][:1].isupper() or _is_shaped(rest[0])) else text


def cut_brackets(text: str) -> str:
    """``text`` up to its first unmatched bracket ("Intent(Acc" -> "Intent", "BERT )" -> "BERT")."""
    stack: list[tuple[str, int]] = []
    for i, c in enumerate(text):
        if c in _BRACKETS:
            stack.append((c, i))
        elif c in _BRACKETS.values():
            if not stack or _BRACKETS[stack[-1][0]] != c:
                return text[:i].rstrip()
            stack.pop()
    return text[:stack[0][1]].rstrip() if stack else text


def said_once(text: str) -> str:
    """A name said twice over said once ("MSCOCO MSCOCO" -> "MSCOCO", "Penn Treebank Penn Treebank")."""
    words = text.split()
    half = len(words) // 2
    if len(words) % 2 == 0 and half and words[:half] == words[half:]:
        return " ".join(words[:half])
    return text


def is_fragment(text: str) -> bool:
    """A name that is only part of one: a lower-case letter, a lower-case word of three
    letters or fewer ("co"), or what ends or starts on a hyphen. (A capital alone may be a
    metric: B³ is read "B".)"""
    key = fold(text)
    if not key or not is_name(text) or (len(key) < 2 and text.islower()):
        return True
    if text[-1] in _HYPHENS or text[0] in _HYPHENS:
        return True
    return len(key) <= 3 and text.islower() and " " not in text


def cut_from_word(label: str, tokens: Sequence[str], start: int, end: int) -> bool:
    """Whether a task name of one word is the first part of a hyphenated word the tagger cut
    ("Zero" of "Zero - shot results"), not a name ("NER - based" names NER)."""
    return label == "TaskName" and end - start == 1 and end + 1 < len(tokens) and tokens[end] in _HYPHENS \
        and _is_word(tokens[end + 1]) and tokens[end + 1].lower() not in _SUFFIX_WORDS | _SIZE_WORDS


def _text(tokens: Sequence[str], start: int, end: int) -> tuple[str, int, int]:
    first, last = trim(tokens[start:end])
    return " ".join(tokens[start + first:start + last]).replace(" - ", "-"), start + first, start + last


def clean_mentions(paragraphs: Sequence[Sequence[str]], mentions: Sequence[Mention],
                   rules: Collection[str] = CLEAN_RULES, gazetteer: "Gazetteer | None" = None) -> list[Mention]:
    """A paper's name mentions with ``rules`` applied (see ``CLEAN_RULES``; "heads" is
    :func:`same_but_heads`, applied where names are grouped), over the paragraphs' tokens; a
    mention a rule drops is left out."""
    out: list[Mention] = []
    kept = [m for m in mentions if m.label not in LISTED_TYPES]  # hyperparameter names: "λ", "L" are whole
    mentions = [m for m in mentions if m.label in LISTED_TYPES]
    for m in mentions:
        tokens = paragraphs[m.place[0]]
        text, start, end = m.text, m.start, m.end
        if "hyphens" in rules:
            start, end = join_hyphens(tokens, m.place[1], m.place[2])
            text, start, end = _text(tokens, start, end)
        if "brackets" in rules:
            text = cut_brackets(text)
        if "repeats" in rules:
            text = said_once(text)
        if "heads" in rules:
            text = without_head(m.label, text)
        if "modifiers" in rules:
            text = without_modifier(m.label, text)
        if "fragments" in rules and (is_fragment(text) or cut_from_word(m.label, tokens, start, end)):
            continue
        if is_name(text):
            out.append(Mention(m.label, text, m.place, m.score, start, end))
    if "longer" in rules:
        out = _longer(paragraphs, out)
    if "one type" in rules:
        out = _one_type(out)
    if "lower" in rules:  # names are known from the shipped lists even where spellings are not taken
        # The gazetteer given already holds them when it has the shipped list (loaded once a run).
        known = gazetteer if gazetteer is not None and gazetteer.shipped else Gazetteer(
            gazetteer.folder if gazetteer is not None else None)
        said = Counter((m.label, fold(m.text)) for m in out)
        out = [m for m in out if m.label not in _CAPITALISED_TYPES or not m.text.islower()
               or said[(m.label, fold(m.text))] > 1 or known.canonical(m.label, m.text) is not None]
    return sorted(out + kept, key=lambda m: m.place)


def _longer(paragraphs: Sequence[Sequence[str]], mentions: list[Mention], reach: int = 3) -> list[Mention]:
    """Each mention whose neighbouring tokens complete it to a longer name of its type that
    the paper tags elsewhere at least as often, as that name ("BERT" before "- large" where
    "BERT-large" is tagged; not "D&M" in "D&M parses LISA", tagged once, where "D&M" is tagged
    often)."""
    keys = [(m.label, fold(m.text)) for m in mentions]
    names: dict[tuple[str, str], str] = {}
    said = Counter(keys)
    for m, own in zip(mentions, keys):
        names.setdefault(own, m.text)
    out = []
    for m, own in zip(mentions, keys):
        tokens = paragraphs[m.place[0]]
        best: tuple[int, str] | None = None
        for a in range(max(0, m.start - reach), m.start + 1):
            for b in range(m.end, min(len(tokens), m.end + reach) + 1):
                if (a, b) == (m.start, m.end):
                    continue
                key = (m.label, fold(" ".join(tokens[a:b])))
                found = names.get(key)
                if (found is not None and key != own and said[key] >= said[own]
                        and (best is None or b - a > best[0])):
                    best = (b - a, found)
        out.append(m if best is None else Mention(m.label, best[1], m.place, m.score, m.start, m.end))
    return out


def without_head(label: str, text: str) -> str:
    """``text`` without a generic head word of its type at its end, after a space or a hyphen
    ("macro F1 score" -> "macro F1", "F1-score" -> "F1")."""
    head, _, last = text.rpartition(" ")
    if not head or "-" in last:  # "F1-score" is F1; "BERT-Scores" (BERTScore) is a name
        head, _, last = text.rpartition("-")
        if not last.islower():
            return text
    if head and last.lower() in _GENERIC_HEADS.get(label, ()) and len(fold(head)) > 1:
        return head.rstrip()
    return text


def _one_type(mentions: list[Mention]) -> list[Mention]:
    """The mentions of a name tagged with several types, each given the type most of them
    have (a tie: the first tagged)."""
    votes: dict[str, dict[str, int]] = {}
    for m in mentions:
        votes.setdefault(fold(m.text), {}).setdefault(m.label, 0)
        votes[fold(m.text)][m.label] += 1
    out = []
    for m in mentions:
        counts = votes[fold(m.text)]
        best = max(counts, key=lambda label: counts[label])  # dicts keep the first tagged first
        out.append(m if best == m.label or counts[best] == counts[m.label] else
                   Mention(best, m.text, m.place, m.score, m.start, m.end))
    return out


def same_but_heads(mentions: Sequence[Mention]) -> list[tuple[tuple[str, str], tuple[str, str]]]:
    """Pairs of (type, folded name) keys that name one thing: "X Net" and X where the paper
    tags both (a head word added to a name)."""
    keys = {(m.label, fold(m.text)) for m in mentions}
    pairs = []
    for m in mentions:
        words = m.text.split()
        if len(words) > 1 and words[-1].lower() in _NAMED_HEADS:
            short = (m.label, fold(" ".join(words[:-1])))
            if short in keys and short[1]:
                pairs.append((short, (m.label, fold(m.text))))
    return pairs


# --- the names a reader would list ---------------------------------------------------------

# Words that are not a name by themselves, nor together: a name all of whose words are among
# them is not listed ("Sentence", "fine-tuning", "Base / Small", "t-test", "Mean"). Parts of
# a text, generic nouns of the four types, stages of training, a model's sizes, statistics.
GENERIC_WORDS = frozenset({
    "word", "token", "sentence", "paragraph", "document", "text", "segment", "pair", "entity", "character",
    "model", "method", "approach", "baseline", "system", "architecture", "network", "layer", "encoder", "decoder",
    "data", "dataset", "corpus", "benchmark", "set", "split", "train", "dev", "test", "validation",
    "task", "metric", "score", "result", "performance", "mean", "average", "median", "std", "variance", "sum",
    "pretrain", "pretraining", "pretrained", "training", "finetune", "finetuning", "finetuned", "tuning",
    "multitask", "semi", "supervised", "unsupervised", "selfsupervised", "bidirectional", "unidirectional",
    "pre", "fine", "ttest", "pvalue", "significance", "ablation", "full", "multi", "single", "domain",
    "loc", "org", "misc", "other",  # classes of a named-entity scheme (not "PER": a phone error rate)
    "micro", "macro",  # how a metric is averaged ("Macro Average"; "macro F1" is a metric)
    "gpu", "tpu", "cpu", "unk",  # the hardware a model runs on, the unknown-word token
    *_SIZE_WORDS})

# Optimizers: the annotation standard makes "Adam" the value of the optimizer hyperparameter,
# no method ("optimizers" leaves them out of the methods).
OPTIMIZERS = frozenset({"sgd", "adam", "adamw", "adamax", "nadam", "adagrad", "adadelta", "rmsprop", "adafactor",
                        "lamb"})


def is_generic(name: str) -> bool:
    """Every word of ``name`` is a generic word (:data:`GENERIC_WORDS`, plural or not, case
    aside; hyphens and slashes part words): "Sentence", "fine-tuning", "Base / Small"."""
    def generic(word: str) -> bool:
        return word in GENERIC_WORDS or singular(word) in GENERIC_WORDS

    words = [fold(w) for w in re.split(r"[\s/\-‐]+", name) if fold(w)]
    return generic(fold(name)) or (bool(words) and all(map(generic, words)))


# A name the text's layout made: a footnote's number glued to the next word ("6The"), a
# version alone ("V2.0", "v1").
_LAYOUT_NAME = re.compile(r"^(\d+[A-Z][a-z]+|[vV]?\d+(\.\d+)*)$")


def is_listed(label: str, name: str, mentions: int = 1, score: float | None = None,
              rules: Collection[str] = CLEAN_RULES) -> bool:
    """Whether a reader would list ``name`` as a ``label`` of a paper that tags it ``mentions``
    times, its best span scoring ``score`` (None: unknown), by the one-name ``rules`` of
    :data:`CLEAN_RULES` that need no other name of the paper (the others in ``rules`` are
    ignored here):

    * "generic": not a name made of generic words only (:func:`is_generic`);
    * "layout": not a footnote's number glued to a word, nor a version alone;
    * "long": not more than ``LONGEST_NAME`` words;
    * "optimizers": not a method that is an optimizer (:data:`OPTIMIZERS`: "SGD", "Adam");
    * "unsure" (not in CLEAN_RULES): not a method, dataset or metric name said at most
      ``UNSURE_MENTIONS`` times with no span scoring ``UNSURE_SCORE`` or more.

    Any caller can ask it (the corpus facets: a name, its type and mentions, no score)."""
    if "generic" in rules and is_generic(name):
        return False
    if "layout" in rules and _LAYOUT_NAME.match(name):
        return False
    if "long" in rules and len(name.split()) > LONGEST_NAME:
        return False
    if "optimizers" in rules and label == "MethodName" and fold(name) in OPTIMIZERS:
        return False
    if ("unsure" in rules and label in _UNSURE_TYPES and score is not None and score < UNSURE_SCORE
            and mentions <= UNSURE_MENTIONS):
        return False
    return True


# The kinds of a PDF's paragraphs the annotation standard leaves unannotated ("text" lists no
# name said only there).
UNANNOTATED_KINDS = frozenset({"table", "caption"})


def listed_entities(entities: Sequence[Entity], rules: Collection[str] = CLEAN_RULES,
                    unannotated: Collection[int] = ()) -> list[Entity]:
    """The ``entities`` a reader would list, in their order, by ``rules``: each passes
    :func:`is_listed`, and the rules over a paper's whole list:

    * "text": not a name said only in the paragraphs ``unannotated`` (their indices: a PDF's
      tables and captions, which the annotation standard leaves out; a table's baseline the
      text never names is no name of the paper's text);
    * "main type": a name listed under several types is listed under the one it is said most
      often as (a tie: under each);
    * "runs": not several names of its type side by side (:func:`is_run`).

    Only method, dataset, task and metric names are weighed (``LISTED_TYPES``); the others are
    listed as they are."""
    out = [e for e in entities if e.type in LISTED_TYPES and is_listed(e.type, e.name, len(e.places), e.score, rules)]
    if "text" in rules and unannotated:
        out = [e for e in out if any(place[0] not in unannotated for place in e.places)]
    if "main type" in rules:
        most: dict[str, int] = {}
        for e in out:
            most[fold(e.name)] = max(most.get(fold(e.name), 0), len(e.places))
        out = [e for e in out if len(e.places) == most[fold(e.name)]]
    if "runs" in rules:
        shaped: dict[str, set[str]] = defaultdict(set)
        for e in out:
            shaped[e.type] |= {fold(text) for text in [e.name, *e.surface] if _is_shaped(text)}
        out = [e for e in out if not is_run(e.name, shaped[e.type])]
    listed = {id(e) for e in out}
    return [e for e in entities if e.type not in LISTED_TYPES or id(e) in listed]  # hyperparameters: "layers"


def _is_shaped(text: str) -> bool:
    """Written as names are and words are not: a capital after the first letter, a digit, or a
    capital alone ("MPQA", "SQuAD1.1", "biLSTM", "P"; not "Accuracy", "parsing")."""
    return any(c.isupper() for c in text[1:]) or any(c.isdigit() for c in text) or (len(text) == 1 and text.isupper())


def is_run(name: str, names: Collection[str]) -> bool:
    """``name`` is two or more of ``names`` (folded) side by side, as a table's row of heads
    read as one name is ("MPQA TREC", "SQuAD1.1 SQuAD2.0"): its words split at spaces into runs
    each of which folds to one of ``names`` (not at a slash: "CNN / Daily Mail" is one name; nor
    after a hyphen: "Bi-LSTM- CNN"). The list's rule ("runs") gives the names of the entity's
    type written as names are (:func:`_is_shaped`): "Exact Match Accuracy" is no run."""
    words = name.split()

    def split(start: int, parts: int) -> bool:
        if start == len(words):
            return parts >= 2
        return _is_word(words[start]) and any(
            _is_word(words[end - 1]) and words[end - 1][-1] not in _HYPHENS
            and fold(" ".join(words[start:end])) in names and split(end, parts + 1)
            for end in range(start + 1, len(words) + 1))

    return len(words) >= 2 and split(0, 0)


# --- a paper's entities --------------------------------------------------------------------

@dataclass
class Entity:
    """One thing a paper names, however it spells it."""

    type: str
    name: str
    surface: list[str]
    places: list[Place]
    score: float | None = None  # the best score of its spans (None: the spans carry none)

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "name": self.name, "mentions": len(self.places), "surface": self.surface}


# A folded spelling -> each type the paper tags it with, and under that type the entity's name
# and its number of mentions.
_Known = dict[str, dict[str, tuple[str, int]]]


@dataclass(frozen=True)
class PaperNames:
    """A paper's entities (its list), what each spelling it tags names (``known``, by folded
    spelling), and the list as the results reader weighs it (``read``: every list rule but
    "text", so a metric only a table names is still the paper's one metric)."""

    entities: list[Entity]
    known: _Known
    read: list[Entity]

    def known_as(self, text: str) -> dict[str, tuple[str, int]]:
        """Each type the paper tags ``text`` with, and the entity's name and mentions under it."""
        return self.known.get(fold(text), {})

    def name_of(self, p: Paragraph, s: Span) -> str | None:
        """The name of the entity span ``s`` of ``p`` names, or None."""
        return self.known_as(mention_text(p, s)).get(s.label, (None, 0))[0]


def mainly(kinds: dict[str, tuple[str, int]], label: str) -> bool:
    """Whether ``kinds`` (each type a paper tags a name with, and its mentions: see
    :meth:`PaperNames.known_as`) has ``label`` more often than any other type."""
    return label in kinds and all(kinds[label][1] > count for kind, (_, count) in kinds.items() if kind != label)


class _Groups:
    """Union-find over (type, folded name) keys: the spellings that name one entity."""

    def __init__(self) -> None:
        self.parent: dict[tuple[str, str], tuple[str, str]] = {}

    def find(self, key: tuple[str, str]) -> tuple[str, str]:
        self.parent.setdefault(key, key)
        while self.parent[key] != key:
            self.parent[key] = self.parent[self.parent[key]]
            key = self.parent[key]
        return key

    def union(self, a: tuple[str, str], b: tuple[str, str]) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[max(ra, rb)] = min(ra, rb)


def mention_text(p: Paragraph, s: Span) -> str:
    """A name's mention as the paper spells it, without the punctuation and function words a
    span may have taken in at its ends ("( CLS" -> "CLS")."""
    tokens = p.tokens[s.start:s.end]
    start, end = trim(tokens)
    return " ".join(tokens[start:end]).replace(" - ", "-")  # the tokenizer's "LSTM - CRF" is LSTM-CRF


def _overlapping(p: Paragraph, where: tuple[int, int]) -> list[Span]:
    return [s for s in p.spans or [] if s.start < where[1] and where[0] < s.end and s.label in NAME_TYPES]


def link_abbreviations(paragraphs: Sequence[Paragraph], groups: _Groups) -> set[tuple[str, str]]:
    """Join each abbreviation defined in the paper with its long form, for the type the short
    form is tagged with there; returns the short forms' keys (a name is spelled as its short form)."""
    shorts: set[tuple[str, str]] = set()
    for p in paragraphs:
        for abbreviation in find_abbreviations(p.tokens):
            tagged_short = _overlapping(p, abbreviation.short_range)
            tagged_long = _overlapping(p, abbreviation.long_range)
            for label in {s.label for s in tagged_short} | {s.label for s in tagged_long}:
                short_key = (label, fold(abbreviation.short))
                groups.union(short_key, (label, fold(abbreviation.long)))
                for s in tagged_long + tagged_short:
                    if s.label == label:
                        groups.union(short_key, (label, fold(mention_text(p, s))))
                shorts.add(short_key)
    return shorts


def _name(spellings: Counter[str], short_keys: set[str], label: str, gazetteer: Gazetteer) -> str:
    """A group's name: its short form if it has one, else its most frequent spelling (a tie goes
    to the first seen), in the gazetteer's spelling where the gazetteer lists it."""
    ranked = sorted(spellings, key=lambda s: (fold(s) not in short_keys, -spellings[s]))
    best = ranked[0]
    return gazetteer.canonical(label, best) or best


def paper_entities(paragraphs: Sequence[Paragraph], gazetteer: Gazetteer | None = None,
                   clean: Collection[str] = CLEAN_RULES) -> PaperNames:
    """The entities of one tagged paper (``paragraphs`` in reading order), its name mentions
    cleaned by the rules ``clean`` (:data:`CLEAN_RULES`) and grouped (see the module)."""
    gazetteer = gazetteer or Gazetteer.empty()
    tagged = [Mention(s.label, mention_text(p, s), (i, s.start, s.end), s.score, s.start, s.end)
              for i, p in enumerate(paragraphs) for s in p.spans or [] if s.label in NAME_TYPES]
    cleaned = clean_mentions([p.tokens for p in paragraphs], [m for m in tagged if is_name(m.text)], clean, gazetteer)
    as_tagged = {m.place: m.text for m in tagged}  # each span's text before the rules
    groups = _Groups()
    mentions: list[tuple[tuple[str, str], str, Place]] = []
    scores: dict[Place, float | None] = {}
    for m in cleaned:
        key = (m.label, fold(m.text))
        groups.find(key)
        mentions.append((key, m.text, m.place))
        scores[m.place] = m.score
        raw = as_tagged[m.place]
        if "heads" in clean and without_head(m.label, raw) != raw:  # "labeled attachment score ( LAS )"
            groups.union(key, (m.label, fold(raw)))
    for a, b in same_but_heads(cleaned) if "heads" in clean else ():
        groups.union(a, b)
    shorts = link_abbreviations(paragraphs, groups)
    by_group: dict[tuple[str, str], list[tuple[str, Place]]] = defaultdict(list)
    for key, text, place in mentions:
        by_group[groups.find(key)].append((text, place))
    entities = []
    for (label, _), found in by_group.items():
        spellings = Counter(text for text, _ in found)
        short_keys = {k for lab, k in shorts if lab == label}
        said = [scores[place] for _, place in found if scores[place] is not None]
        entities.append(Entity(label, _name(spellings, short_keys, label, gazetteer), list(spellings),
                               [place for _, place in found], max(said) if said else None))
    entities.sort(key=lambda e: (NAME_TYPES.index(e.type), -len(e.places), e.name.lower()))
    # The list shows what a reader would list; the spellings of every entity stay known (a
    # table's column named by a name the list leaves out is still read).
    unannotated = {i for i, p in enumerate(paragraphs) if p.meta.get("kind") in UNANNOTATED_KINDS}
    read = listed_entities(entities, clean)
    shown = listed_entities(read, ("text",), unannotated) if "text" in clean and unannotated else read
    return PaperNames(shown, _known(entities, cleaned, as_tagged), read)


def _known(entities: Sequence[Entity], cleaned: Sequence[Mention], as_tagged: dict[Place, str]) -> _Known:
    """Each spelling the paper tags, folded: the entity it names under each type, and its mentions."""
    known: _Known = defaultdict(dict)
    for e in entities:
        for text in e.surface:
            known[fold(text)][e.type] = (e.name, len(e.places))
    for m in cleaned:  # a span as tagged names what its cleaned text names (values are paired by it)
        named = known[fold(m.text)].get(m.label)
        if m.text.startswith(as_tagged[m.place] + "-"):
            continue  # "zero -" joined into "zero-shot": "zero" alone elsewhere names no such thing
        if named is not None:
            known[fold(as_tagged[m.place])].setdefault(m.label, named)
    return known
