"""Measures of extraction quality, for ``benchmarks/pdf_extraction.py`` and the PDF tests (not
the library: sciner never needs them to extract).

- :func:`ngram_coverage`: the share of a reference text's word 4-grams (lower-cased
  alphanumeric words, taken within each reference paragraph) found anywhere in our
  output. Our paragraph breaks are not penalised; the reference's are not invented.
  With ``normalize=True`` both texts first lose what GROBID's reference texts always
  drop or mangle, so that content rather than conventions is compared: in-text
  citations ("(Devlin et al., 2019)", "[12, 14]") and hyphens inside words (GROBID
  joins every line-break hyphen: "taskspecific"). ``normalize=False`` is the raw measure.
- :func:`looks_like_reference_entry`: a bibliography entry ("Alan Akbik, Duncan
  Blythe, and Roland Vollgraf. 2018. Contextual string embeddings ... In Proceedings
  of ..."): an author list, then a year, and a venue, in a short paragraph.
- :func:`residue_kind`: what is left of a float: a caption ("Table 2: Results ...") or
  table rows ("BERT-Large 86.7 85.9 92.7", "84.8").
- :func:`debris_kind` and :func:`body_paragraphs`: residue and bibliography entries
  together, so that coverage can be counted over body text only: an extractor earns no
  coverage for captions, table rows or references, which the task's inputs leave out.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from sciner.pdf.blocks import BULLET_RE
from sciner.pdf.clean import is_caption

_WORD_RE = re.compile(r"[a-z0-9]+")
# A table cell's number: "82.2", "-", "±0.3", "12%", "(1.2)".
# A page number some extractors glue in front of the caption below it: "476 Figure 1: ...".
_PAGE_NUMBER_RE = re.compile(r"^\d{1,4}\s+(?=(?:Figure|Fig\.|Table|Tab\.)\s*[A-Z]?\d)")
_CELL_NUMBER_RE = re.compile(r"^\(?[-+±–]?\d*[.,]?\d+[a-z]?%?\)?\*?$|^[-–—]$")
_YEAR_RE = re.compile(r"(?<![\w-])(19[5-9]\d|20[0-4]\d)[a-z]?\b")
_VENUE_RE = re.compile(
    r"\b(in proceedings|proceedings of|proc\.|arxiv|corr|journal|conference|workshop|transactions|symposium"
    r"|pages? \d+|pp\. ?\d+|vol\. ?\d+|volume \d+|association for computational linguistics|press"
    r"|preprint|thesis|university|magazine|springer|ieee|acm|doi|https?://"
    r"|in (acl|emnlp|naacl|eacl|coling|conll|lrec|iclr|icml|neurips|nips|aaai|ijcai|sigir|kdd|www))\b"
    r"|\b\d+\s?\(\d+\)|\b\d+\s?[–-]\s?\d+\b",  # volume(issue), page range
    re.IGNORECASE,
)
# "Names. 2018. Title": the ACL author-year signature, venue or not.
_AUTHOR_YEAR_RE = re.compile(r"^[^.]{2,300}?\.\s+\(?(19[5-9]\d|20[0-4]\d)[a-z]?\)?\.\s")
_NAME_TOKEN_RE = re.compile(r"[A-Za-zÀ-ÿ][\w'’`´¨\-]*\.?")
_NOT_NAMES = {"the", "a", "an", "in", "we", "this", "our", "of", "for", "to", "on", "with", "as", "is", "table", "figure", "section"}
_NAME_GLUE = {"and", "et", "al", "al.", "&", "van", "von", "de", "der", "den", "la", "le", "da", "di", "du"}


_CITATION_RE = re.compile(
    r"\((?:[^()]*?(?:19|20)\d\d[a-z]?)(?:[;,][^()]*?(?:19|20)\d\d[a-z]?)*\)"  # (Devlin et al., 2019; ...)
    r"|\[\d+(?:[,–-]\s*\d+)*\]"  # [12], [3, 5-7]
)
_INNER_HYPHEN_RE = re.compile(r"(?<=[a-z0-9])-\s?(?=[a-z0-9])")


def words(text: str, normalize: bool = False) -> list[str]:
    """Lower-cased alphanumeric words: "Pre-training (BERT)" → ["pre", "training", "bert"].

    ``normalize`` drops in-text citations and joins hyphenated words first ("pretraining").
    """
    if normalize:
        text = _INNER_HYPHEN_RE.sub("", _CITATION_RE.sub(" ", text).lower())
    return _WORD_RE.findall(text.lower())


def word_ngrams(text: str, n: int = 4, normalize: bool = False) -> set[tuple[str, ...]]:
    """The set of word n-grams of ``text``."""
    tokens = words(text, normalize)
    return set(zip(*(tokens[i:] for i in range(n))))


def ngram_coverage(
    reference_paragraphs: Iterable[str], output_text: str, n: int = 4, normalize: bool = False
) -> float:
    """Share of the reference's n-grams (within its paragraphs) found in ``output_text``."""
    reference: set[tuple[str, ...]] = set()
    for paragraph in reference_paragraphs:
        reference |= word_ngrams(paragraph, n, normalize)
    if not reference:
        return 0.0
    return len(reference & word_ngrams(output_text, n, normalize)) / len(reference)


def looks_like_reference_entry(text: str) -> bool:
    """Whether a paragraph reads like one entry of a bibliography.

    It must be short (< 120 words) and either follow the author-year signature
    ("Alan Akbik and Roland Vollgraf. 2018. Title...") or start with an author list
    (two or more capitalised name tokens before the first year, or a "[12]" label),
    contain a year, and name a venue ("In Proceedings of", "arXiv", "pages 1-10", ...).
    """
    if len(text.split()) >= 120:
        return False
    if _AUTHOR_YEAR_RE.match(text) and _has_author_list(text[: _YEAR_RE.search(text).start()]):
        return True
    year = _YEAR_RE.search(text)
    if year is None or not _VENUE_RE.search(text):
        return False
    head = text[: year.start()]
    if len(head) > 300:
        return False
    if re.match(r"^\s*\[[^\]]{1,60}\]", head):  # "[12] ..." or "[Lample et al.2016] ..."
        return True
    return _has_author_list(head)


def _has_author_list(head: str) -> bool:
    """At least two capitalised name-like tokens, and little else."""
    tokens = [token for token in _NAME_TOKEN_RE.findall(head) if token.lower() not in _NAME_GLUE]
    if len(tokens) < 2 or any(token.lower().rstrip(".") in _NOT_NAMES for token in tokens):
        return False
    capitalised = sum(token[0].isupper() for token in tokens)
    return capitalised >= 0.8 * len(tokens)


def residue_kind(text: str) -> str | None:
    """"caption" or "table" when a paragraph is what is left of a figure or table, else None.

    Table rows are paragraphs of which a third or more of the words are numbers or
    empty cells ("SVM (Rink and Harabagiu, 2010) 82.2 SDP-LSTM 83.7", "84.8"); running
    text with results in it ("accuracies of 87.1 and 87.0 on") stays well below; an item
    of a list ("• Number of epochs: 2, 3, 4") is text. A caption counts with or without a
    page number glued in front of it ("476 Figure 1: NMT system training progress").
    """
    if is_caption(_PAGE_NUMBER_RE.sub("", text, count=1)):
        return "caption"
    if BULLET_RE.match(text):
        return None
    tokens = text.split()
    numbers = sum(bool(_CELL_NUMBER_RE.match(token.strip(",;"))) for token in tokens)
    if tokens and 3 * numbers >= len(tokens):
        return "table"
    return None


def debris_kind(text: str) -> str | None:
    """"caption", "table" or "bibliography" when a paragraph is not body text, else None."""
    return residue_kind(text) or ("bibliography" if looks_like_reference_entry(text) else None)


def body_paragraphs(paragraphs: Iterable[str]) -> list[str]:
    """``paragraphs`` without captions, table rows and bibliography entries (:func:`debris_kind`)."""
    return [text for text in paragraphs if debris_kind(text) is None]
