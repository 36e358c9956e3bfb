"""Text-level cleaning of PDF lines: what to drop, and how to mend what is kept.

- running headers, footers and page numbers (lines repeating at page edges),
- figure and table captions ("Figure 3:", "Table 2."),
- the reference list (from a "References" heading up to an appendix heading),
- ligatures (ﬁ → fi) and line-break hyphenation ("repre-" + "sentation"), keeping
  real hyphens ("pre-" + "training") by asking the document itself which spelling
  it uses elsewhere.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable

from sciner.pdf.extract import PdfPage
from sciner.pdf.spellings import prefers_hyphen

LIGATURES = {
    "\ufb00": "ff",
    "\ufb01": "fi",
    "\ufb02": "fl",
    "\ufb03": "ffi",
    "\ufb04": "ffl",
    "\ufb05": "st",
    "\ufb06": "st",
}
_LIGATURE_RE = re.compile("|".join(LIGATURES))

# A float's number, an appendix's with its letter: "2", "3.1", "A1", "D.1".
FLOAT_NUMBER = r"(?:[A-Z]\.?)?\d+(?:\.\d+)?"
CAPTION_RE = re.compile(rf"^\s*(figure|fig\.|table|tab\.|algorithm|listing)\s*{FLOAT_NUMBER}\s*[:.|]", re.IGNORECASE)
ABSTRACT_RE = re.compile(r"^abstract\s*[.:—–-]?\s*$", re.IGNORECASE)
REFERENCES_RE = re.compile(r"^\s*(\d+\.?\s+)?(references|bibliography|literature cited|reference list)\s*$", re.IGNORECASE)
APPENDIX_RE = re.compile(
    r"^\s*(?i:appendix|appendices|supplementary|supplemental)\b"  # "Appendix A: ...", "Supplementary Material"
    r"|^\s*[A-H](\.\d+)*\.?\s+[A-Z][A-Za-z]",  # "A Additional Details", "B.1 Datasets"
)
# Lines at the page edge that are never content: venue footers, licences, preprint notes.
_EDGE_BOILERPLATE_RE = re.compile(
    r"(^(in )?proceedings of\b|association for computational linguistics|^preprint\b|under review"
    r"|^arxiv:|\bcopyright\b|©|^(this (work|article|paper) is )?licen[cs]ed under|^creative commons"
    r"|^published as|^accepted (at|to)\b)",
    re.IGNORECASE,
)
_PAGE_NUMBER_RE = re.compile(r"^\s*(page\s*)?[-–—]?\s*(\d{1,4}|[ivxlc]{1,6})\s*[-–—]?\s*(of\s*\d+)?\s*$", re.IGNORECASE)
COMMON_PREFIXES = frozenset(
    "pre post non multi self semi co cross anti inter intra sub super over under re de un bi tri "
    "out well meta mid auto end top low high long short fine coarse large small state task".split()
)
# Short words that are a word's first syllable far more often than a compound's first half.
_NOT_COMPOUND_HEADS = frozenset("with of to more us be at for from by as an or and the it is we no".split())
_WORD_RE = re.compile(r"[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*")
WORD_EDGE_PUNCTUATION = ".,;:()[]\"'“”‘’"
_URL_RE = re.compile(r"(https?://|www\.)\S*|\S+\.(com|org|net|io|edu)\b\S*|\S+@\S+")


def normalize_ligatures(text: str) -> str:
    """Expand typographic ligatures: "eﬃcient" → "efficient"."""
    return _LIGATURE_RE.sub(lambda match: LIGATURES[match.group(0)], text)


# LaTeX's OT1 fonts draw accents as separate glyphs before the letter: "J¨urgen", "C´ıcero".
_SPACING_ACCENTS = {"¨": "\u0308", "´": "\u0301", "ˆ": "\u0302", "˜": "\u0303", "ˇ": "\u030c", "˚": "\u030a", "¸": "\u0327", "`": "\u0300"}
_ACCENT_RE = re.compile("([" + "".join(set(_SPACING_ACCENTS) - {"`"}) + "]) ?([A-Za-zıȷ])|(`)([aeiou])")


def normalize_accents(text: str) -> str:
    """Join spacing accents to the letter they sit on: "J¨urgen" → "Jürgen", "Lo¨ıc" → "Loïc"."""

    def combine(match: re.Match[str]) -> str:
        accent, letter = (match.group(1), match.group(2)) if match.group(1) else (match.group(3), match.group(4))
        letter = {"ı": "i", "ȷ": "j"}.get(letter, letter)
        return unicodedata.normalize("NFC", letter + _SPACING_ACCENTS[accent])

    return _ACCENT_RE.sub(combine, text)


def normalize_text(text: str) -> str:
    """Ligatures expanded, accents joined: the character-level fixes for any extracted text."""
    return normalize_accents(normalize_ligatures(text))


def is_caption(text: str) -> bool:
    """A figure/table caption starts like "Figure 3:" or "Table 2." """
    return bool(CAPTION_RE.match(text))


def caption_label(text: str) -> str | None:
    """The float a caption names ("table 2", "figure 3"), or None when ``text`` starts no caption."""
    match = CAPTION_RE.match(text)
    if match is None:
        return None
    kind = {"fig.": "figure", "tab.": "table"}.get(match.group(1).lower(), match.group(1).lower())
    number = re.search(FLOAT_NUMBER, text[match.start(1) + len(match.group(1)):]).group(0)
    return f"{kind} {number}"


def is_references_heading(text: str) -> bool:
    return bool(REFERENCES_RE.match(text))


def is_abstract_heading(text: str) -> bool:
    return bool(ABSTRACT_RE.match(text))


def is_appendix_heading(text: str) -> bool:
    return bool(APPENDIX_RE.match(text))


# How much larger than its running headers a first page's line must be set to be the title they
# repeat (points).
TITLE_LARGER = 2.0


def remove_headers_footers(pages: list[PdfPage], edge_lines: int = 2, keep_rows: bool = False) -> list[PdfPage]:
    """Drop running headers/footers and page numbers from every page (in place; returns ``pages``).

    A line is a header or footer if it is among the ``edge_lines`` topmost or bottommost
    lines of its page and either (a) its text, digits ignored, recurs at the edge of
    several pages, (b) it is a bare page number, or (c) it is venue boilerplate. A first page's
    line set :data:`TITLE_LARGER` points larger than its repeats is the title they repeat, kept.
    ``keep_rows`` (pages read for tables): a line cut into three cells or more is a table's
    head row set at the page's top ("R-1 R-2 R-L" over several pages' tables), never (a).
    """
    edge_keys: list[set[str]] = []
    for page in pages:
        edge_keys.append({_edge_key(page.lines[i].text) for i in _edge_indices(page, edge_lines)})
    recurring = Counter(key for keys in edge_keys for key in keys)
    min_repeats = 2 if len(pages) <= 4 else 3
    # The running header's size on the pages after the first: the title it repeats is set larger on
    # page 1 ("Language Models are Unsupervised Multitask Learners" in ICML's style), and stays.
    later_size: dict[str, float] = {}
    for page in pages[1:]:
        for i in _edge_indices(page, edge_lines):
            key = _edge_key(page.lines[i].text)
            later_size[key] = max(later_size.get(key, 0.0), page.lines[i].font_size)
    for number, page in enumerate(pages):
        drop = set()
        for i in _edge_indices(page, edge_lines):
            text = page.lines[i].text
            key = _edge_key(text)
            if number == 0 and key in later_size and page.lines[i].font_size >= later_size[key] + TITLE_LARGER:
                continue
            if (
                (recurring[key] >= min_repeats and not (keep_rows and len(page.lines[i].cells()) >= 3))
                or _PAGE_NUMBER_RE.match(text)
                or _EDGE_BOILERPLATE_RE.search(text)
            ):
                drop.add(i)
        page.lines = [line for i, line in enumerate(page.lines) if i not in drop]
    return pages


def _edge_indices(page: PdfPage, n: int) -> list[int]:
    """Indices of the lines in the top and bottom ``n`` rows of the page."""
    if not page.lines:
        return []
    by_top = sorted(range(len(page.lines)), key=lambda i: page.lines[i].top)
    tops = sorted({round(page.lines[i].top) for i in by_top})
    top_rows, bottom_rows = set(tops[:n]), set(tops[-n:])
    edge_band = 0.12 * page.height  # never treat mid-page lines as headers on sparse pages
    return [
        i
        for i in by_top
        if (round(page.lines[i].top) in top_rows and page.lines[i].top < edge_band)
        or (round(page.lines[i].top) in bottom_rows and page.lines[i].bottom > page.height - edge_band)
    ]


def _edge_key(text: str) -> str:
    return re.sub(r"\d+", "#", text.lower()).strip()


class WordCounts:
    """How often each word and hyphenated compound occurs in a document (lower-cased).

    Used to undo line-break hyphenation the way the author spells the word elsewhere.
    """

    def __init__(self, texts: Iterable[str]) -> None:
        self.counts: Counter[str] = Counter()
        for text in texts:
            for word in _WORD_RE.findall(_URL_RE.sub(" ", text.lower())):
                self.counts[word] += 1
                if "-" in word:
                    self.counts.update(part for part in word.split("-") if part)

    def __getitem__(self, word: str) -> int:
        return self.counts[word.lower()]


def keep_hyphen(head: str, tail: str, counts: WordCounts) -> bool:
    """Whether "head-" at a line end + "tail" at the next line's start is a real hyphen.

    ``head`` is the whole word before the break ("left-to", "repre"), ``tail`` the
    word after it. The document's own spelling decides when it has one, else the spelling
    NLP papers use (:mod:`sciner.pdf.spellings`); otherwise a hyphen is kept when both
    sides are words on their own ("task-specific") or the tail is a name or number
    ("BERT-Large", "GPT-2").
    """
    head_word, tail_word = head.strip(WORD_EDGE_PUNCTUATION), tail.strip(WORD_EDGE_PUNCTUATION)
    if not head_word or not tail_word:
        return True
    if head_word[-1].isdigit() and tail_word[0].isdigit():  # a range of numbers: "3-" + "5"
        return True
    joined = counts[head_word + tail_word]
    hyphenated = counts[f"{head_word}-{tail_word}"]
    if joined or hyphenated:
        return hyphenated > joined
    last = head_word.split("-")[-1]
    if last.isalpha() and tail_word.isalpha() and last.islower() and tail_word.islower():
        # The paper never spells it: NLP papers at large decide ("in-" + "direct" is one word).
        corpus = prefers_hyphen(last, tail_word)
        if corpus is not None:
            return corpus
    if tail_word[0].isupper() or tail_word[0].isdigit() or last[-1:].isdigit() or last.isupper():
        return True
    if "-" in head_word or "-" in tail_word:  # "state-of-the-" + "art", "out-" + "of-vocabulary"
        return True
    if last.lower() in _NOT_COMPOUND_HEADS:  # "with-" + "out", "More-" + "over", "of-" + "fers"
        return False
    tail_known = counts[tail_word] > 0
    head_known = counts[last] > 0 or last.lower() in COMMON_PREFIXES
    return tail_known and head_known and len(last) > 1


def _ends_inside_url(text: str, following: str) -> bool:
    """Whether ``text`` ends in a URL broken at the line end ("https://blog." + "openai.com/").
    A URL's final full stop before a capital ("unsupervised." + "The GLUE") ends a sentence."""
    last = text.rsplit(" ", 1)[-1]
    if not ("://" in last or last.startswith("www.")):
        return False
    if last.endswith(".") and following[:1].isupper():
        return False
    return last.endswith(("/", ".", "-", "_", "#", "?", "="))


def join_lines(lines: list[tuple[str, bool]], counts: WordCounts) -> str:
    """Join a paragraph's lines, mending words hyphenated at line breaks.

    Each item is (text, ends_with_break_hyphen).
    """
    text = ""
    pending_hyphen = False
    for line, hyphenated in lines:
        line = line.strip()
        if not text:
            text = line
        elif _ends_inside_url(text, line):  # "https://nlp." + "stanford.edu/": no space inside a URL
            text += line
        elif text.endswith("-") and pending_hyphen:
            head = text[:-1].rsplit(" ", 1)[-1]
            tail = line.split(" ", 1)[0]
            text = text if keep_hyphen(head, tail, counts) else text[:-1]
            text += line
        else:
            text += " " + line
        pending_hyphen = hyphenated
    return text
