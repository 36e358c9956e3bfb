"""A paper's metadata as its first page prints it: authors, year, venue, arXiv id and DOI.

Read from the lines the PDF layer keeps aside as the front matter (``front``: the author block,
the running header and the margin's arXiv stamp of page 1, one line each) and from the first
page's footnotes (a copyright or venue line). Each field is None where the page does not say:

* arXiv id: ``arXiv:1810.04805v2 [cs.CL] 24 May 2019`` -> "1810.04805v2" (old ids: "cs/0501001");
* DOI: ``10.NNNN/...`` (a ``doi.org`` link too);
* venue: "Published as a conference paper at ICLR 2020" -> "ICLR 2020"; a "Proceedings of ..."
  line (not a citation's "In Proceedings"); "31st Conference on Neural Information Processing
  Systems (NIPS 2017)" -> "NIPS 2017"; a journal line ("Transactions of the ACL, vol. 8, ... 2020");
  "Copyright © 2020, Association for the Advancement of Artificial Intelligence" -> "AAAI";
* year: the venue's year, else the copyright line's, else the arXiv stamp's date (the version
  read), else the arXiv id's (its first version's);
* authors: the author block's lines, split at commas and "and", the pieces that read as a
  person's name (two to five capitalized words, no digit, no affiliation word, no e-mail).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from sciner.document import Paragraph
from sciner.tokenize import detokenize

_ARXIV = re.compile(r"\barXiv\s*:\s*(\d{4}\.\d{4,5}(?:v\d+)?|[a-z][a-z.\-]*(?:\.[A-Z]{2})?/\d{7}(?:v\d+)?)"
                    r"(?:\s*\[[^\]]*\]\s*\d{1,2}\s+[A-Z][a-z]{2}\s+((?:19|20)\d\d))?", re.I)  # the stamp's date
_DOI = re.compile(r"\b(10\.\d{4,9}/[^\s\"<>]*\d[^\s\"<>]*)")  # a digit after the slash: no template's "nnnn"
_YEAR = re.compile(r"\b(19[5-9]\d|20\d\d)\b")
_PUBLISHED = re.compile(r"\b(?:published|accepted|appear(?:s|ing)?)\b.*?\b(?:at|in)\s+(?:the\s+)?(.+?\b(?:19|20)\d\d)\b",
                        re.I)
_CONFERENCE = re.compile(r"\bConference on [^()]+\(([A-Z][\w&\-]*(?: [A-Z][\w&\-]*)? (?:19|20)\d\d)\)")
_PROCEEDINGS = re.compile(r"^(Proceedings of .+?)(?:,\s*pages?\b.*|,\s*(?:vol|volume)\b.*|\s*pp\..*)?$", re.I)
_JOURNAL = re.compile(r"^((?:Transactions|Journal) of .+?)(?:,|\s+\d)", re.I)
_COPYRIGHT = re.compile(r"(?:copyright|©|\(c\))\s*(?:c\s+)?(?:©\s*)?((?:19|20)\d\d)\s*,?\s*(.*)", re.I)
_COPYRIGHT_VENUES = {"association for the advancement of artificial intelligence": "AAAI",
                     "association for computational linguistics": "ACL",
                     "international joint conferences on artificial intelligence": "IJCAI"}
_NOT_A_NAME = re.compile(r"\d|@|\b(?:universit\w*|institute|research|lab\w*|inc|corp\w*|department|school|college|"
                         r"center|centre|google|microsoft|facebook|amazon|ai|academy|technology|science\w*|"
                         r"abstract|introduction|conference|proceedings|published|email|equal|contribution|work|"
                         r"china|usa|germany|france|japan|canada|uk|korea|india|the|of|for|and|in|at|view|york|street|road|"
                         r"parkway|tower|box|group|team|technical|report|language|processing|understanding|"
                         r"systems?|technolog\w*|computing|information|hugging|face|co|ltd)\b", re.I)
# A first-page paragraph this short may be a footnote saying where the paper appeared (an
# abstract, which may cite a venue, is longer).
NOTE_TOKENS = 60
_NAME_WORD = re.compile(r"^(?:[A-Z][a-zA-Z'\-]*\.?|[A-Z]\.(?:[A-Z]\.)*|de|van|von|der|la|da|del)$")


@dataclass(frozen=True)
class PaperMetadata:
    """What the first page says of the paper (each None where it does not)."""

    authors: tuple[str, ...] = field(default_factory=tuple)
    year: int | None = None
    venue: str | None = None
    arxiv_id: str | None = None
    doi: str | None = None

    def columns(self) -> tuple[str | None, int | None, str | None, str | None, str | None]:
        """The index's papers columns authors ("; " between two, None: none), year, venue, arxiv_id, doi."""
        return "; ".join(self.authors) or None, self.year, self.venue, self.arxiv_id, self.doi


def paper_metadata(paragraphs: Sequence[Paragraph]) -> PaperMetadata:
    """The metadata of a paper read from a PDF: its ``front`` lines (carried by its first
    paragraph) and the short paragraphs of its first page (footnotes, which a PDF read without
    ``--include footnotes`` keeps as body text); the authors from the ``front`` lines only."""
    front = next((str(p.meta["front"]) for p in paragraphs[:3] if p.meta.get("front")), "").splitlines()
    notes = [detokenize(p.tokens) for p in paragraphs if p.meta.get("page") == 1 and len(p.tokens) <= NOTE_TOKENS
             and p.meta.get("kind") not in ("title", "header", "table", "caption")]
    return read_metadata(front, notes)


def read_metadata(front: Sequence[str], notes: Sequence[str] = ()) -> PaperMetadata:
    """The metadata written in the first page's ``front`` lines and footnotes (``notes``)."""
    lines = [re.sub(r"\s+", " ", line).strip() for line in [*front, *notes]]
    lines = [line for line in lines if line]
    stamp = next((m for line in lines if (m := _ARXIV.search(line))), None)
    arxiv = stamp.group(1) if stamp else None
    doi = next((m.group(1).rstrip(".,;)]") for line in lines if (m := _DOI.search(line))), None)
    venue, venue_year = _venue(lines)
    copyright_year = next((int(m.group(1)) for line in lines if (m := _COPYRIGHT.search(line))), None)
    year = venue_year or copyright_year or (int(stamp.group(2)) if stamp and stamp.group(2) else _arxiv_year(arxiv))
    return PaperMetadata(tuple(authors(front)), year, venue, arxiv, doi)


def _venue(lines: Sequence[str]) -> tuple[str | None, int | None]:
    """The venue a line names and its year (the line's, else the next line's: "Florence, Italy, ... 2019")."""
    for k, line in enumerate(lines):
        if re.match(r"^(?:in|see)\b", line, re.I) or re.search(r"\bunder review\b", line, re.I):
            continue  # a citation, or not yet a venue
        found = None
        if m := _PUBLISHED.search(line):
            found = m.group(1).rstrip(" .,")
        elif m := _CONFERENCE.search(line):
            found = m.group(1)
        elif m := _PROCEEDINGS.match(line):
            found = m.group(1).rstrip(" .,")
        elif m := _JOURNAL.match(line):
            found = m.group(1).rstrip(" .,")
        elif (m := _COPYRIGHT.search(line)) and (name := _copyright_venue(m.group(2))):
            return name, int(m.group(1))
        if found:
            found = re.sub(r"\s*,?\s*\d+\s*[-–]\s*\d+\s*,?$", "", found)  # a page range after the name
            return found, _year_of(found) or _year_of(re.sub(r"\b(?:pages?|pp\.?)\s.*", "", line)) or (
                _year_of(lines[k + 1]) if k + 1 < len(lines) else None)
    return None, None


def _year_of(text: str) -> int | None:
    """The last year ``text`` writes ("... 2019"; "(AAAI-17)" -> 2017), or None."""
    years = _YEAR.findall(text)
    if years:
        return int(years[-1])
    short = re.search(r"\b[A-Z]{2,}[- ']?(\d\d)\)", text)
    return (2000 if int(short.group(1)) < 50 else 1900) + int(short.group(1)) if short else None


def _copyright_venue(holder: str) -> str | None:
    holder = holder.lower()
    return next((short for name, short in _COPYRIGHT_VENUES.items() if name in holder), None)


def _arxiv_year(arxiv: str | None) -> int | None:
    """The year of an arXiv id's first version: "1810.04805" -> 2018, "cs/0501001" -> 2005."""
    if not arxiv:
        return None
    digits = arxiv.split("/")[-1][:2]
    return (2000 if int(digits) < 90 else 1900) + int(digits) if digits.isdigit() else None


def authors(front: Sequence[str]) -> list[str]:
    """The person names of the author block's lines (up to the "Abstract" line), in order, each once."""
    names: list[str] = []
    for line in front:
        if re.match(r"^\s*abstract\b", line, re.I):
            break
        for piece in re.split(r",|\band\b|&|;|\s{2,}", re.sub(r"[*∗†‡§¶♠♣♥♦⋆\d]+", " ", line)):
            words = piece.split()
            if 2 <= len(words) <= 5 and not _NOT_A_NAME.search(piece) and all(_NAME_WORD.match(w) for w in words) \
                    and " ".join(words) not in names:
                names.append(" ".join(words))
    return names
