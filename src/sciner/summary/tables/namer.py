"""What a table cell names, by type (:class:`Namer`): the type the paper tags its text with,
else the type the model tagged in it, else, for a column's head, a metric or a type the
gazetteers list it under. A row's label is named from the paper and the model only."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Literal

from sciner.document import Paragraph
from sciner.labels import NAME_TYPES
from sciner.summary.names import Gazetteer, fold, mainly
from sciner.summary.tables.cells import ENUMERATOR, Known, TableCell, metric_like, says_nothing

# Where a cell stands: over a column (a head, named from the gazetteers too) or at the left of
# its row (a row's label).
Role = Literal["head", "label"]
# Of the types a paper tags one text with equally often, a head names the first of these, a row
# label the first of those: tables head their columns with metrics and datasets and list
# methods down their rows.
HEAD_ORDER = ("MetricName", "DatasetName", "TaskName", "HyperparameterName", "MethodName")
ROW_ORDER = ("MethodName", "DatasetName", "TaskName", "MetricName", "HyperparameterName")
# The types a gazetteer may give a header cell the paper does not tag, in the order tried; no
# metric ("List", "Table" and "Title" are metrics of some leaderboard: cells.metric_like reads
# the heads that are), and a row label takes none.
GAZETTEER_ORDER = ("DatasetName", "TaskName", "MethodName")
_PARENTHESES = re.compile(r"\([^()]*\)")
_UNIT = re.compile(r"\[\s*%\s*\]")  # "Accuracy [ % ]"
_VERSION = re.compile(r"\s+v\d+(?:\.\d+)+$")  # "SQuAD v2.0"
_QUALIFIER = re.compile(r"\s(?:±|\+/-|/|,)\s")


def metric_pair(text: str) -> bool:
    """Whether a text names two metrics, one per score of an "x / y" or "x [ y ]" cell:
    "UAS [ LAS ]", "F1 / EM", "Accuracy / F1"."""
    pair = re.fullmatch(r"\s*(\S[^\[\]/]*?)\s*(?:\[\s*([^\[\]]+?)\s*\]|/\s*([^\[\]/]+?))\s*", text)
    return bool(pair and metric_like(pair.group(1)) and metric_like(pair.group(2) or pair.group(3)))


@dataclass(frozen=True)
class Namer:
    """What a cell of a paper's tables names, by type: see the module."""

    paragraphs: Sequence[Paragraph]
    known: Known
    gazetteer: Gazetteer
    # What :meth:`name` answered, by its arguments: a head is named again on every row under it.
    _named: dict[tuple[str, str | None, Role], tuple[str, str] | None] = field(
        default_factory=dict, init=False, repr=False, compare=False)

    def names(self, cell: TableCell, role: Role = "head") -> dict[str, str]:
        """The cell's name of each type it names: each piece the model tagged in it, else its
        whole text, is one name of one type (see :meth:`name`). A cell over several columns
        that names two things of a type ("MNLI-m MRPC", set too tightly to be cut) names
        neither: which is whose column is not known."""
        found = self.all_names(cell, role)
        if cell.first != cell.last and role == "head":
            p = self.paragraphs[cell.paragraph]
            spans = [s for s in p.spans or [] if s.label in NAME_TYPES and s.start < cell.end and cell.start < s.end]
            covered = sum(min(s.end, cell.end) - max(s.start, cell.start) for s in spans)
            rest = [w for k, w in enumerate(p.tokens[cell.start:cell.end], cell.start)
                    if not any(s.start <= k < s.end for s in spans)]
            # (the words untagged said something: "[ % ]" after a tagged "Accuracy" says nothing)
            if covered and 2 * covered < cell.end - cell.start and any(re.search(r"\w", w) for w in rest):
                return {}  # "SemEval 2010 KBP37 TACRED" over three columns, "SemEval" tagged: whose is not known
        # Several names of one type in a cell over one column ("SSK – MIL", both tagged as methods):
        # the cell's whole text is the one name.
        return {label: next(iter(names)) if len(names) == 1 else ENUMERATOR.sub("", cell.text)
                for label, names in found.items() if len(names) == 1 or cell.first == cell.last}

    def all_names(self, cell: TableCell, role: Role = "head") -> dict[str, set[str]]:
        """Every name of each type in the cell (a head is looked up in the gazetteer too)."""
        head = role == "head"
        p = self.paragraphs[cell.paragraph]
        text = cell.text
        pieces = [(" ".join(p.tokens[max(s.start, cell.start):min(s.end, cell.end)]), s.label) for s in p.spans or []
                  if s.label in NAME_TYPES and s.start < cell.end and cell.start < s.end]
        if len(pieces) == 1 and (self.known(text) or (head and metric_like(text))
                                 or (text.startswith(pieces[0][0]) and re.search(r"\([^()]*/[^()]*\)\s*$", text))
                                 or (head and pieces[0][1] == "MethodName" and text.startswith(pieces[0][0])
                                     and len(text[len(pieces[0][0]):].split()) <= 2
                                     and re.search(r"\w", text[len(pieces[0][0]):]) and not metric_like(text))):
            # "BERT -" tagged in "BERT - PT", "MNLI-(m" in "MNLI-(m / mm )", "GROBID" in a head
            # "GROBID NN": the cell is the name
            pieces = [(text, pieces[0][1])]
        # A span the model tagged across the cell's border ("IMDB Yelp-2" over two heads): the
        # paper's entity of that name joins two cells, each of which names its own piece.
        crossing = any(s.label in NAME_TYPES and s.start < cell.end and cell.start < s.end
                       and (s.start < cell.start or s.end > cell.end) for s in p.spans or [])
        found: dict[str, set[str]] = {}
        for piece, tagged in pieces or [(text, None)]:
            named = self.name(piece, tagged, role)
            if named is not None:
                if crossing and fold(piece) != fold(named[1]) and fold(piece) in fold(named[1]):
                    named = (named[0], piece)
                found.setdefault(named[0], set()).add(named[1])
        return found

    def name(self, text: str, tagged: str | None, role: Role = "head") -> tuple[str, str] | None:
        """(type, name) of a cell's text: the type the paper tags it with most often (in the
        paper's spelling; a tie goes to a head's first in :data:`HEAD_ORDER`, a row label's in
        :data:`ROW_ORDER`), else the type the model tagged here, else (a head only) a
        metric when it reads as one, else the first type the gazetteers list it under; tried as
        it is, without parentheses ("F1 ( base )") or a unit in brackets ("Accuracy [ % ]"), and without what follows a "±" or "/"."""
        key = (text, tagged, role)
        if key not in self._named:
            self._named[key] = self._name(text, tagged, role)
        return self._named[key]

    def _name(self, text: str, tagged: str | None, role: Role) -> tuple[str, str] | None:
        head = role == "head"
        if head and metric_pair(text):
            return "MetricName", text  # "UAS [ LAS ]" over "80.34 [ 68.58 ]", "F1 / EM": both, split per score
        bare = _UNIT.sub(" ", _PARENTHESES.sub(" ", text)).strip()
        spellings = [t for t in dict.fromkeys((text, bare, _QUALIFIER.split(bare)[0].strip())) if not says_nothing(t)]
        order = HEAD_ORDER if head else ROW_ORDER
        for spelling in spellings:
            known = self.known(spelling)
            if known:
                label = max(known, key=lambda k: (known[k][1], -order.index(k)))
                if head and label in ("MethodName", "HyperparameterName") and metric_like(text):
                    return "MetricName", known.get("MetricName", (text, 0))[0]  # "UAS" over a column
                name = known[label][0]
                if spelling != text and re.search(r"\(\s*[^()/]+/[^()/]+\)\s*$", text):
                    return label, text  # "MNLI-(m / mm )": both names, split per score of its "x / y" cells
                # A metric in the cell's own spelling where the entity's differs only in form
                # ("R-1", not a leaderboard's "R@1").
                keep = label == "MetricName" and fold(name) == fold(spelling)
                # A method over a column in the head's own words ("GROBID NN" beside "GROBID CRF",
                # not the entity's "Grobid").
                keep = keep or (head and label == "MethodName" and spelling == text and fold(name) != fold(text))
                return label, spelling.replace(" - ", "-") if keep else name
        if (unversioned := _VERSION.sub("", text)) != text and not says_nothing(unversioned):
            # "SQuAD v2.0" no one tags: the data "SQuAD" names, in this version
            known = self.known(unversioned)
            if known and max(known, key=lambda k: known[k][1]) == "DatasetName":
                return "DatasetName", text
        if tagged is not None:
            if head and tagged in ("MethodName", "HyperparameterName") and metric_like(text):
                return "MetricName", text  # "LCM" tagged as a method over a column
            return (tagged, text) if spellings else None
        if not head:
            return None
        metric = metric_like(text)
        if metric is not None:
            return "MetricName", metric
        for label in GAZETTEER_ORDER:
            for spelling in spellings:
                canonical = self.gazetteer.canonical(label, spelling)
                if canonical is not None:
                    return label, canonical
        return None

    @cached_property
    def prose_tasks(self) -> frozenset[str]:
        """The tasks (folded) the paper's running text tags, not its tables or captions."""
        return frozenset(fold(" ".join(p.tokens[s.start:s.end])) for p in self.paragraphs
                         if p.meta.get("kind") not in ("table", "caption") and not p.meta.get("cells")
                         for s in p.spans or [] if s.label == "TaskName")

    @cached_property
    def cell_texts(self) -> frozenset[str]:
        """The text of every cell of the paper's tables ("NYT", "NYT *"), stripped."""
        return frozenset(" ".join(p.tokens[start:end]).strip() for p in self.paragraphs
                         for start, end, *_ in p.meta.get("cells") or ())

    def mainly_task(self, name: str) -> bool:
        """Whether the paper tags ``name`` as a task more often than as anything else (not
        "NBSVM", a method a caption once tags as a task)."""
        return mainly(self.known(name), "TaskName")

    def is_metric(self, cell: TableCell) -> bool:
        """Whether a head names a metric."""
        return "MetricName" in self.names(cell)
