"""Values and results read off a paper's tables (PDFs read with ``--include tables``).

A table row carries its ``table`` and its ``cells`` (token ranges and the columns each covers;
see :mod:`sciner.pdf.tables`). The rows above a table's first row holding a number are its
header; every number below sits under the header cells that cover its column, and beside the
label cells left of its row's numbers. A cell's text is a name of the type the paper tags it
with most often, else of the type the model tagged in it here, else of a type the shared
gazetteers list it under; split names ("Dev", "Test") name nothing, for they head columns of
every metric. A number is

* a HyperparameterValue when its column's heads name a HyperparameterName and no MetricName;
* a MetricValue of the lowest MetricName above it, else of its row's, else of the one
  MetricName its caption tags (with ``--include captions``: "Table 3: Accuracy on SST-2"),
  with the dataset and task found the same way and the row's label cells as the model: one
  result. A column whose lowest head names nothing ("P", "#Docs") takes no metric from the
  caption, but qualifies a metric above it ("MUC" over "R" is "MUC R"), and a caption naming
  two metrics or datasets names neither;
* else nothing: a number with no name to belong to (a count, a year) is left out, and so is
  a gain over another row ("+0.25").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from sciner.document import Paragraph
from sciner.labels import NAME_TYPES
from sciner.pdf.clean import caption_label
from sciner.pdf.tables import is_number
from sciner.summary.names import Gazetteer, fold
from sciner.summary.values import Result, Value

# Column heads that name a split or an aggregate, never the metric itself, though leaderboards
# list some of them as metrics.
SPLITS = frozenset({"dev", "development", "test", "train", "training", "validation", "valid", "val", "average",
                    "avg", "mean", "all", "overall", "ours", "baseline"})

def says_nothing(text: str) -> bool:
    """A cell that names nothing: a split ("Dev"), a number, or no letter or digit at all."""
    key = fold(text)
    return not key or key in SPLITS or is_number(text)


_PARENTHESES = re.compile(r"\([^()]*\)")
_QUALIFIER = re.compile(r"\s(?:±|\+/-|/|,)\s")
# A text -> each type the paper tags it with, and under that type the entity's name and its
# number of mentions ({} when the paper never tags it).
Known = Callable[[str], dict[str, tuple[str, int]]]
# Of the types a paper tags one text with ("UAS" a metric in one sentence, a method in the
# next), a head names the first of these, a row label the first of those: tables head their
# columns with metrics and datasets and list methods down their rows.
HEAD_ORDER = ("MetricName", "DatasetName", "TaskName", "HyperparameterName", "MethodName")
ROW_ORDER = ("MethodName", "DatasetName", "TaskName", "MetricName", "HyperparameterName")
# The types a gazetteer may give a header cell the paper does not tag, in the order tried (a
# row label takes none: "List", "Table" and "Title" are metrics of some leaderboard).
GAZETTEER_ORDER = ("MetricName", "DatasetName", "TaskName", "MethodName")


@dataclass(frozen=True)
class TableCell:
    """One cell of a tagged table row: its paragraph, token range and columns."""

    paragraph: int
    start: int
    end: int
    first: int
    last: int

    def text(self, paragraphs: Sequence[Paragraph]) -> str:
        return " ".join(paragraphs[self.paragraph].tokens[self.start:self.end])


def table_rows(paragraphs: Sequence[Paragraph]) -> dict[tuple[object, str], list[list[TableCell]]]:
    """The rows of each table, keyed by (page, label), in reading order."""
    tables: dict[tuple[object, str], list[list[TableCell]]] = {}
    for i, p in enumerate(paragraphs):
        cells, label = p.meta.get("cells"), p.meta.get("table")
        if not cells or not isinstance(label, str):
            continue
        row = [TableCell(i, start, min(end, len(p.tokens)), first, last) for start, end, first, last in cells
               if start < min(end, len(p.tokens))]
        tables.setdefault((p.meta.get("page"), label), []).append(row)
    return tables


def caption_of(paragraphs: Sequence[Paragraph], page: object, label: str) -> int | None:
    """The paragraph captioning table ``label`` (on its page if there is one there), or None."""
    found = [i for i, p in enumerate(paragraphs) if p.meta.get("kind") == "caption" and p.tokens
             and (caption_label(" ".join(p.tokens[:4])) or "") == label]
    return next((i for i in found if paragraphs[i].meta.get("page") == page), found[0] if found else None)


class _Namer:
    """What a cell names, by type: see the module."""

    def __init__(self, paragraphs: Sequence[Paragraph], known: Known, gazetteer: Gazetteer) -> None:
        self.paragraphs, self.known, self.gazetteer = paragraphs, known, gazetteer

    def names(self, cell: TableCell, gazetteer: bool = True) -> dict[str, str]:
        """The cell's name of each type it names: each piece the model tagged in it, else its
        whole text, is one name of one type (see :meth:`name`). A cell over several columns
        that names two things of a type ("MNLI-m MRPC", set too tightly to be cut) names
        neither: which is whose column is not known."""
        found = self.all_names(cell, gazetteer)
        return {label: names.pop() for label, names in found.items() if len(names) == 1 or cell.first == cell.last}

    def all_names(self, cell: TableCell, gazetteer: bool = True) -> dict[str, set[str]]:
        """Every name of each type in the cell (``gazetteer``: looked up there too)."""
        p = self.paragraphs[cell.paragraph]
        pieces = [(" ".join(p.tokens[max(s.start, cell.start):min(s.end, cell.end)]), s.label) for s in p.spans or []
                  if s.label in NAME_TYPES and s.start < cell.end and cell.start < s.end]
        found: dict[str, set[str]] = {}
        for text, tagged in pieces or [(cell.text(self.paragraphs), None)]:
            named = self.name(text, tagged, gazetteer)
            if named is not None:
                found.setdefault(named[0], set()).add(named[1])
        return found

    def name(self, text: str, tagged: str | None, gazetteer: bool = True) -> tuple[str, str] | None:
        """(type, name) of a cell's text: a type the paper tags it with (in the paper's spelling;
        of several, a head's first in :data:`HEAD_ORDER`, a row label's in :data:`ROW_ORDER`),
        else the type the model tagged here, else (``gazetteer``) the first type the gazetteers
        list it under; tried as it is, without parentheses ("F1 ( base )"), and without what
        follows a "±" or "/" ("F 1 ± std.")."""
        bare = _PARENTHESES.sub(" ", text).strip()
        spellings = [t for t in dict.fromkeys((text, bare, _QUALIFIER.split(bare)[0].strip())) if not says_nothing(t)]
        for spelling in spellings:
            known = self.known(spelling)
            if known:
                label = next(k for k in (HEAD_ORDER if gazetteer else ROW_ORDER) if k in known)
                return label, known[label][0]
        if tagged is not None:
            return (tagged, text) if spellings else None
        for label in GAZETTEER_ORDER if gazetteer else ():
            for spelling in spellings:
                canonical = self.gazetteer.canonical(label, spelling)
                if canonical is not None:
                    return label, canonical
        return None

    def caption_names(self, caption: int | None) -> dict[str, str]:
        """The name of each type the caption's tags give one name of (a caption naming three
        datasets says nothing of which column is which)."""
        if caption is None:
            return {}
        p = self.paragraphs[caption]
        names: dict[str, set[str]] = {}
        for s in p.spans or []:
            if s.label in NAME_TYPES:
                text = " ".join(p.tokens[s.start:s.end])
                names.setdefault(s.label, set()).add(self.known(text).get(s.label, (text, 0))[0])
        return {label: found.pop() for label, found in names.items() if len(found) == 1}


def read_tables(paragraphs: Sequence[Paragraph], known: Known,
                gazetteer: Gazetteer | None = None) -> tuple[list[Value], list[Result]]:
    """Every number of the paper's tables that belongs to a name (see the module), and each
    MetricValue's result, in reading order."""
    namer = _Namer(paragraphs, known, gazetteer or Gazetteer.empty())
    values: list[Value] = []
    results: list[Result] = []
    for (page, label), rows in table_rows(paragraphs).items():
        caption = namer.caption_names(caption_of(paragraphs, page, label))
        for value, result in _read_table(namer, rows, caption):
            values.append(value)
            if result is not None:
                results.append(result)
    return sorted(values, key=lambda v: v.place), sorted(results, key=lambda r: r.place)


def _read_table(namer: _Namer, rows: list[list[TableCell]],
                caption: dict[str, str]) -> list[tuple[Value, Result | None]]:
    texts = [[cell.text(namer.paragraphs) for cell in row] for row in rows]
    first_data = next((r for r, row in enumerate(texts) if any(is_number(t) for t in row)), len(rows))
    header = [cell for row in rows[:first_data] for cell in row]
    head_names = {head: namer.names(head) for head in header}
    columns: dict[tuple[int, int], tuple[dict[str, str], dict[str, str]]] = {}

    def column(first: int, last: int) -> tuple[dict[str, str], dict[str, str]]:
        """The names the heads over these columns give, and what the caption may add to them."""
        if (first, last) not in columns:
            above = [head for head in header if head.first <= last and first <= head.last]
            heads: dict[str, str] = {}
            for head in above:  # top to bottom: the lowest head of a type wins
                heads.update(head_names[head])
            # The column's own head: the lowest one over this column alone, a word or two (not a
            # group's label across the table, "Top Leaderboard Systems (Dec 10th, 2018)").
            own = next((h for h in reversed(above) if h.first == h.last and h.end - h.start <= 3), None)
            own_text = own.text(namer.paragraphs) if own is not None and not namer.all_names(own) else ""
            unnamed = not says_nothing(own_text)  # a head of its own that names nothing: "P", "#Docs"
            if unnamed and "MetricName" in heads:  # "MUC" over "R": the column is MUC's R
                heads["MetricName"] = f"{heads['MetricName']} {own_text}"
            told = {k: v for k, v in caption.items() if not (unnamed and k == "MetricName")}
            columns[first, last] = heads, told
        return columns[first, last]

    found = []
    for row, row_texts in zip(rows[first_data:], texts[first_data:]):
        numbers = [(cell, text) for cell, text in zip(row, row_texts) if is_number(text)]
        labels = [cell for cell, text in zip(row, row_texts) if not says_nothing(text)
                  and cell.last < min((n.first for n, _ in numbers), default=0)]
        row_names: dict[str, str] = {}
        for cell in labels:  # a row's label names what the paper or the model says, no gazetteer
            for kind, name in namer.names(cell, gazetteer=False).items():
                row_names.setdefault(kind, name)
        model = " ".join(cell.text(namer.paragraphs) for cell in labels) or None
        for cell, text in numbers:
            if text.startswith("+"):  # "+0.25" is a gain over a row above, not a score
                continue
            heads, told = column(cell.first, cell.last)
            value = _value(cell, text, heads, row_names, told, model)
            if value is not None:
                found.append(value)
    return found


def _value(cell: TableCell, text: str, heads: dict[str, str], row: dict[str, str], caption: dict[str, str],
           model: str | None) -> tuple[Value, Result | None] | None:
    """A number as a value and, for a MetricValue, a result (see the module); None when it
    belongs to no name."""

    def named(kind: str) -> str | None:
        return heads.get(kind) or row.get(kind) or caption.get(kind)

    place = (cell.paragraph, cell.start, cell.end)
    if "MetricName" not in heads and "HyperparameterName" in heads:
        return Value("HyperparameterValue", text, heads["HyperparameterName"], place), None
    metric = named("MetricName")
    if metric is None:
        return None
    return (Value("MetricValue", text, metric, place),
            Result(named("TaskName"), named("DatasetName"), metric, text, model, place))
