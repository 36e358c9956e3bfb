"""A table's rows read into values, results and not results (see the package): the header
and group label in force over each data row (:func:`data_rows`), then each data row's
label and numbers (:func:`read_row`, :func:`read_number`)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

from sciner.document import Paragraph
from sciner.summary.canonical import beyond_percent, languages_named, number_value
from sciner.summary.names import Gazetteer, fold
from sciner.summary.ours import CITATION, CITED
from sciner.summary.provenance import (
    ABLATION_CAPTION, first_setting, head_split, is_added, is_ablated, is_setting_head, said_setting, said_split,
    short_caption, split_citation,
)
from sciner.summary.tables.caption import (
    Caption, Said, bracketed_score, caption_reason, cited_dataset, cited_metric, cited_tables, citing_sentences,
    listed_metrics, read_caption, said_metrics,
)
from sciner.summary.tables.cells import (
    AGGREGATES, ENUMERATOR, LABEL_HEADS, SETTING_HEADS, SPLITS, Known, TableCell, cell_numbers, is_amount, is_language,
    is_language_pair, metric_like, names_aspect, names_setting, not_score_head, prints_numbers_only, row_reason,
    says_nothing, split_name, table_rows,
)
from sciner.summary.tables.header import Column, Header, counts_heads, join_split_heads, widen
from sciner.summary.tables.conventions import (
    ASSUMED, USUAL, benchmark_metric, cannot_be, dev_metric, larger_metric, suite_of, usual_metric,
)
from sciner.summary.tables.namer import Namer, metric_pair
from sciner.summary.values import TRAINING, YEAR, NotResult, Result, Value

# A year in a head ("SemEval 2010"): a name's part, not a number of the body.
_YEAR = re.compile(rf"^{YEAR}$")
_LEADING_NUMBER = re.compile(r"^\s*[-+−]?\.?\d")  # a cell that starts as a number does ("0.763 / 0.719 ( r )")
# A row label counting the data under the heads: "# of train samples", "Number of examples".
_COUNT_LABEL = re.compile(r"^\s*(?:#|number\b|num\b|no\.)|\b(?:samples|examples|instances)\b", re.I)
# A head's unit whose superscript the layout set apart ("params ×10" then "6"): the number after it is its power.
_POWER_OF_TEN = re.compile(r"[×x]\s?10$")
# A number and its unit: a measure (a time, a size) left of a row's scores, no label.
_MEASURE = re.compile(r"^\s*\d[\d.,]*\s?(?:ms|s|sec|secs|h|hrs?|hours?|min|mins|days?|[kKMBGT]|x|×)\s*$")
_LABEL_METRIC = re.compile(r"^(.*\S)\s*(?:\(\s*([^()]+?)\s*\)|\s-\s([A-Za-z0-9@]+))$")  # "DEP ( LAS )", "GENIA - LAS"


@dataclass(frozen=True)
class Found:
    """What a table, a row or a number gives: values, results, and the numbers that are no result."""

    values: tuple[Value, ...] = ()
    results: tuple[Result, ...] = ()
    others: tuple[NotResult, ...] = ()

    def __add__(self, other: Found) -> Found:
        return Found(self.values + other.values, self.results + other.results, self.others + other.others)

    def with_others(self, others: Iterable[NotResult]) -> Found:
        return Found(self.values, self.results, self.others + tuple(others))


@dataclass(frozen=True)
class Table:
    """One table of a paper as read before its rows are: its rows' cells, which cells
    hold a number (``numbers``; ``numeric``: a number of the body, not a year), the cells of
    numbers of its data rows (a column holding none is a column of labels), and whether some
    data row has a label (``labelled``: an unlabelled row then continues a label above it, a
    beam size under "Basic", and is not the caption's one method as in a table of one model's
    numbers); ``cited_dataset``, ``cited_metric``: the one dataset, the one metric the prose
    citing the table names."""

    namer: Namer
    caption: Caption
    label: str
    paper_metric: str | None
    said: Said
    paper_dataset: str | None
    cited_dataset: str | None
    rows: list[list[TableCell]]
    numbers: list[list[bool]]
    numeric: list[list[bool]]
    number_cells: list[TableCell] = field(repr=False)
    labelled: bool
    right_from: int | None = None  # the first column of the right one of two tables set side by side
    # the columns of a row counting the data ("# of train samples 440 K 223 K", "( 8.5k ) ( 393k )"):
    # their heads name data, whatever the paper tags them
    counted: frozenset[int] = frozenset()
    # Whether the paper's prose gives its one metric to a dataset or task ("we report accuracy on
    # ChnSentiCorp"): then it scores a table whose data only the caption, the prose or a row
    # names; a metric only tables and captions name (a task's short form in a legend, "REC") is
    # not trusted that far. The paper's, asked once (read_tables), not per cell.
    metric_said: bool = False
    # The one metric the sentences citing the table name ("Table 4 shows the accuracy ..."): the
    # metric of a column of data where nothing else, no convention either, names one.
    cited_metric: str | None = None

    @classmethod
    def of(cls, namer: Namer, rows: list[list[TableCell]], caption: Caption, label: str,
           paper_metric: str | None, said: Said | None = None, paper_dataset: str | None = None,
           cited_dataset: str | None = None, metric_said: bool = False, cited_metric: str | None = None) -> Table:
        texts = [[c.text for c in row] for row in rows]
        numbers = [[bool(cell_numbers(t)) and not (k and _POWER_OF_TEN.search(row_texts[k - 1]))
                    for k, t in enumerate(row_texts)] for row_texts in texts]
        numeric = [[n and not _YEAR.match(t.strip()) for n, t in zip(flags, row_texts)]  # a year is a head's
                   for flags, row_texts in zip(numbers, texts)]
        if texts and heads_the_labels(texts[0]) and 2 * sum(numeric[0]) < len(texts[0]) - 1:
            # "Dataset 50 % 75 % Max PP DAN ...": the heads, a percentile among them, not a row of scores
            numeric[0] = [False] * len(texts[0])
        number_cells = [c for row, flags in zip(rows, numeric) for c, n in zip(row, flags) if n]
        labelled = any(any(flags[1:]) and not flags[0] and not says_nothing(row_texts[0])
                       for flags, row_texts in zip(numbers, texts))
        return cls(namer, caption, label, paper_metric, said or Said(), paper_dataset, cited_dataset, rows, numbers,
                   numeric, number_cells, labelled, right_table(rows, numbers), counted_columns(rows), metric_said,
                   cited_metric)

    def not_result(self, cell: TableCell, number: str, reason: str) -> NotResult:
        return NotResult(number, reason, (cell.paragraph, cell.start, cell.end), self.label)

    @cached_property
    def caption_task(self) -> str | None:
        """The caption's one task, the task of every score no head, label or group gives one: not
        where the caption names several datasets and the task right after one of them ("Results on
        MNLI , SQuAD v1.1 , ... , CoNLL 2003 NER development set": NER is CoNLL 2003's column's),
        nor where the caption is an ablation's (its task is what the rows take away), nor a task the
        models were trained with ("performance with DLM")."""
        task = self.caption.names.get("TaskName")
        if task and any(fold(data) + fold(task) in fold(self.caption.text) for data in self.caption.several):
            return None
        if task and ABLATION_CAPTION.search(self.caption.text):
            return None  # "Ablation over the pre-training tasks ... next sentence prediction": the task taken away
        if task and re.search(rf"\b(?:with|without|using|via)\s(?:the\s)?{re.escape(task)}\b", self.caption.text, re.I):
            return None  # "XNLI finetuning performance with DLM": how the models were trained, not what was measured
        return task


@dataclass(frozen=True)
class Group:
    """The group label over data rows: "Ours" (the paper's own rows), the data or task it names."""

    ours: bool = False
    names: dict[str, str] = field(default_factory=dict)
    text: str = ""  # the group label's words


@dataclass(frozen=True)
class DataRow:
    """A data row (a row holding a number) with the header and group label over it."""

    cells: list[TableCell]
    header: Header
    group: Group


def counted_columns(rows: Sequence[Sequence[TableCell]]) -> frozenset[int]:
    """The columns of the rows that count the data under the heads: a row labelled as a count of
    samples ("# of train samples 440 K 223 K"), or a row of amounts only ("( 8.5k ) ( 393k )")."""
    found: set[int] = set()
    for row in rows:
        body = [c for c in row if c.first > 0]
        counts = row[0].first == 0 and row[0] not in body and bool(_COUNT_LABEL.search(row[0].text)) \
            and bool(body) and all(re.fullmatch(r"\d{1,3}(?:,\d{3})*|\d+", c.text.strip()) or is_amount(c.text)
                                   for c in body)
        amounts = len(body) >= 2 and len(body) == len(row) and all(is_amount(c.text.strip("() ")) for c in body)
        if counts or amounts:
            found.update(k for c in body for k in range(c.first, c.last + 1))
    return frozenset(found)


def right_table(rows: Sequence[Sequence[TableCell]], numbers: Sequence[Sequence[bool]]) -> int | None:
    """The first column of the right one of two tables set side by side: the column of a head
    without numbers that repeats the head over the first column ("Method" over the labels of
    each); None when no head does."""
    firsts = {fold(row[0].text) for row, flags in zip(rows, numbers) if not any(flags) and row[0].first == 0}
    return min((c.first for row, flags in zip(rows, numbers) if not any(flags) for c in row
                if c.first > 0 and fold(c.text) in firsts - {""}), default=None)


# A caption's words saying its table holds scores ("Comparing BART performance", "Results on").
_RESULTS_CAPTION = re.compile(r"\b(?:results?|performance|scores?|accuracy|accuracies)\b", re.I)


def read_tables(paragraphs: Sequence[Paragraph], known: Known, gazetteer: Gazetteer | None = None,
                paper_metric: str | None = None, paper_dataset: str | None = None,
                ) -> tuple[list[Value], list[Result], list[NotResult]]:
    """Every number of the paper's tables: the values that belong to a name, each MetricValue's
    result, and the numbers that are no result with why (see the package), in reading order.
    ``paper_metric``: the paper's only metric, for tables whose heads and caption name none;
    ``paper_dataset``: the data the paper is about, for tables nothing of which names their data."""
    namer = Namer(paragraphs, known, gazetteer or Gazetteer.empty())
    found = Found()
    said = said_metrics(paragraphs, known)
    tables = table_rows(paragraphs)
    # (the metric a table of the data lists for each, where no sentence gives it one)
    said = Said({**listed_metrics(tables), **said.by_name}, said.others)
    metric_said = bool(paper_metric) and fold(paper_metric or "") in {fold(m) for m in said.by_name.values()}
    # What one caption says the brackets hold holds for the paper's other tables ("Table 3: ...
    # The average score of 10 independent runs is depicted in brackets"; "Table 4: Results on DRCD").
    bracketed = next((b for p in paragraphs if p.meta.get("kind") == "caption" and (b := bracketed_score(p.tokens))),
                     None)
    for (page, label), rows in tables.items():
        caption = read_caption(paragraphs, page, label, known)
        if caption.bracketed is None and bracketed is not None:
            caption = replace(caption, bracketed=bracketed)
        citing = list(citing_sentences(paragraphs, label))  # once, for the table's data and metric
        # (what the caption says each of its data is scored with, over what the prose says)
        own = Said({**said.by_name, **caption.said}, said.others) if caption.said else said
        found = found + read_table(Table.of(namer, centered_labels(rows), caption, label, paper_metric, own,
                                            paper_dataset, cited_dataset(citing, known), metric_said,
                                            cited_metric(citing, known)))
    return (sorted(found.values, key=lambda v: v.place), sorted(found.results, key=lambda r: r.place),
            sorted(found.others, key=lambda o: o.place))


def read_table(table: Table) -> Found:
    """A table's data rows read top to bottom (a row labelled "+ X" adds to the model above it;
    a row whose first label column is empty continues the label above it there: see
    :func:`carry_labels`)."""
    found = Found()
    base: str | None = None
    for row in carry_labels(data_rows(table)):
        read, base = read_row(table, row.header, row.cells, row.group, base)
        found = found + read
    axis = evenly_spaced(table.rows)
    if axis:  # a figure's axis set amid the table's rows: its ticks are no scores
        ticks = {(c.paragraph, c.start, c.end) for c in axis}
        read = {r.place for r in found.results}
        found = Found(tuple(v for v in found.values if v.place not in ticks),
                      tuple(r for r in found.results if r.place not in ticks),
                      found.others + tuple(table.not_result(c, c.text.strip(), "axis")
                                           for c in axis if (c.paragraph, c.start, c.end) in read))
    return ablation_changes(table, found).with_others(unread(table, found))


def ablation_changes(table: Table, found: Found) -> Found:
    """``found`` with the changes of an ablation table taken out of its results: in a table its
    caption calls ablations, a column whose first score is above zero and whose scores below it
    are all below zero ("Full Model 0.8784" over "- Remove context modeling -0.1225") holds each
    variant's change from the full model, a ``difference``, no score."""
    if not ABLATION_CAPTION.search(table.caption.text):
        return found
    columns: dict[tuple[str | None, str | None], list[Result]] = {}
    for r in found.results:
        columns.setdefault((r.header, r.metric), []).append(r)
    changes = {id(r) for column in columns.values() if len(column) >= 2 and (first := number_value(column[0].value))
               is not None and first > 0 and all((v := number_value(r.value)) is not None and v < 0 and -v < first
                                                 for r in column[1:]) for r in column[1:]}
    if not changes:
        return found
    return Found(found.values, tuple(r for r in found.results if id(r) not in changes),
                 found.others + tuple(NotResult(r.value, "difference", r.place, table.label)
                                      for r in found.results if id(r) in changes))


def evenly_spaced(rows: Sequence[Sequence[TableCell]], least: int = 4) -> list[TableCell]:
    """The cells of runs of ``least`` numbers or more evenly spaced along a row or down a
    column ("2 4 6 8 10 12" beside a row's score, "0.5 0.4 0.3 0.2" down rows that print
    scores left of them): a figure's axis ticks that the layout set amid a table, no scores."""
    worth: dict[int, float | None] = {}

    def plain(cell: TableCell) -> float | None:
        if id(cell) not in worth:
            numbers = cell_numbers(cell.text)
            worth[id(cell)] = None if len(numbers) != 1 or numbers[0].why is not None or not re.fullmatch(
                r"[-−]?\d+(?:\.\d+)?", numbers[0].number) else float(numbers[0].number.replace("−", "-"))
        return worth[id(cell)]

    def runs(cells: Sequence[TableCell], least: int = least) -> list[TableCell]:
        found: list[TableCell] = []
        start = 0
        while start < len(cells):
            end = start + 1
            while end < len(cells) and (end - start < 2 or abs(
                    (plain(cells[end]) or 0) - (plain(cells[end - 1]) or 0)
                    - ((plain(cells[start + 1]) or 0) - (plain(cells[start]) or 0))) < 1e-9) \
                    and plain(cells[end]) is not None:
                end += 1
            run = cells[start:end]
            if len(run) >= least and all(plain(c) is not None for c in run) and plain(run[1]) != plain(run[0]):
                found += run
                start = end
            else:
                start += 1
        return found

    ticks = [c for row in rows for c in runs([c for c in row if plain(c) is not None
                                                and all(o is c or o.last < c.first or o.first > c.last for o in row)])]
    # (a row of plain numbers only, in reading order, whatever columns the layout gave them:
    # "0 2 4 6 8 0 2 4 6 8", the ticks of four plots side by side)
    ticks += [c for row in rows if len(row) >= 2 * least and all(plain(c) is not None for c in row) for c in runs(row)]
    # (rows of one number each, no label, three at least in a row evenly spaced: "-2.8" "-3.0"
    # "-3.2" up a plot's side; not a row's score set on a line of its own, away from its label)
    ticks += runs([row[0] for row in rows if len(row) == 1 and plain(row[0]) is not None], least=3)
    columns: dict[int, list[TableCell]] = {}
    for row in rows:
        for cell in row:
            if cell.first == cell.last:
                columns.setdefault(cell.first, []).append(cell)
    for cells in columns.values():  # down the rows: a run broken by a cell of no plain number ends
        down = runs(cells)
        if len(down) > least:  # five at least: an axis, not a tie of scores
            ticks += down
    return list(dict.fromkeys(ticks))


def unread(table: Table, found: Found) -> list[NotResult]:
    """The cells of the table's body that print numbers only (:func:`body_cells`), and those of
    its data rows right of their first number that start with a number the reader cannot read
    ("0.763 / 0.719 ( r )"), that
    no value, result or not result covers ("5.2.1", "512 + 512", a row read as a head), each an
    "unread" not result ("amount" for "335 M", "18x": a count, a size or a multiple): no number
    of a table's body goes unaccounted for."""
    places = [x.place for x in (*found.values, *found.results, *found.others)]
    unparsed = [c for row, flags in zip(table.rows, table.numeric) if any(flags) for c in row
                if c.first > min(n.first for n, number in zip(row, flags) if number)  # a label's "300D LSTM"
                and _LEADING_NUMBER.match(c.text) and not prints_numbers_only(c.text) and not cell_numbers(c.text)]
    return [table.not_result(c, c.text.strip(), "amount" if is_amount(c.text) else "unread")
            for c in body_cells(table.rows) + unparsed
            if not any(p == c.paragraph and start < c.end and end > c.start for p, start, end in places)]


def body_cells(rows: Sequence[Sequence[TableCell]]) -> list[TableCell]:
    """The cells of a table's rows that print numbers only (:func:`prints_numbers_only`), but
    for a row whose numbers are all years ("2016 2017"), which heads its columns."""
    cells = []
    for row in rows:
        numeric = [c for c in row if prints_numbers_only(c.text)]
        if not all(_YEAR.match(c.text.strip()) for c in numeric):
            cells += numeric
    return cells


def silent_tables(paragraphs: Sequence[Paragraph], results: Sequence[Result],
                  others: Sequence[NotResult]) -> str | None:
    """What to say of a paper whose tables print numbers and gave no result: "3 tables with
    numbers, no result read (12 numbers classed: no metric 10, count 2)"; None when one did, or
    no table prints a number."""
    tables = sum(bool(body_cells(rows)) for rows in table_rows(paragraphs).values())
    if not tables or any(r.table is not None for r in results):
        return None
    reasons = Counter(n.reason for n in others if n.table is not None)
    classed = ", ".join(f"{reason} {count}" for reason, count in reasons.most_common())
    return (f"{tables} table{'s' if tables > 1 else ''} with numbers, no result read "
            f"({sum(reasons.values())} numbers classed{': ' + classed if classed else ''})")


def lost_tables(paragraphs: Sequence[Paragraph]) -> str | None:
    """What to say of a paper whose PDF lost the rows of some tables (captions marked
    ``"table_body": "missing"``): "2 tables whose rows the PDF's text layer lost (table 1,
    table 4)"; None when none."""
    lost = _lost_labels(paragraphs)
    if not lost:
        return None
    return f"{len(lost)} table{'s' if len(lost) > 1 else ''} whose rows the PDF's text layer lost ({', '.join(lost)})"


def unfound_tables(paragraphs: Sequence[Paragraph]) -> str | None:
    """What to say of a PDF's paper whose text cites tables ("Table 6 shows", "in Tables 2 and
    3") that no table read carries the label of, nor a caption says the PDF lost: "2 tables the
    text cites that no table read is labelled (table 1, table 3)"; None when none, or when the
    paragraphs are no PDF's (no page: a text's tables are not read)."""
    if not any(p.meta.get("page") for p in paragraphs):
        return None
    have = {p.meta["table"].lower() for p in paragraphs if p.meta.get("cells") and isinstance(p.meta.get("table"), str)}
    have |= set(_lost_labels(paragraphs))
    missing = [label for label in cited_tables(paragraphs) if label not in have]
    if not missing:
        return None
    return f"{len(missing)} table{'s' if len(missing) > 1 else ''} the text cites that no table read is labelled " \
           f"({', '.join(missing)})"


def _lost_labels(paragraphs: Sequence[Paragraph]) -> list[str]:
    """The labels ("table 4") of the captions whose table's rows the PDF lost."""
    return [" ".join(p.tokens[:2]).lower() for p in paragraphs if p.meta.get("table_body") == "missing"]


def centered_labels(rows: list[list[TableCell]]) -> list[list[TableCell]]:
    """The rows with a label the layout set once, about the middle of the rows it labels (a
    cell spanning rows), given to each of them: where the second label column repeats a cycle
    ("PER LOC ORG Overall", once for each dataset), each cycle is a block, and the one first-
    column label set within a block ("CoNLL ( en )" beside its "ORG", "MUC" on a line of its own
    between "LOC" and "ORG") is every row's of it; the rows as they were where no such cycle is."""
    firsts = [next((k for k, c in enumerate(row) if cell_numbers(c.text)), None) for row in rows]  # first score's
    data = [k for k, first in enumerate(firsts) if first not in (None, 0)]
    if len(data) < 4:
        return rows
    inline: dict[int, TableCell] = {}
    kinds: dict[int, str] = {}
    for k in data:
        labels = rows[k][:firsts[k]]
        second = [c for c in labels if c.first == 1]
        if len(second) != 1 or len(labels) > 2 or any(c.first > 1 for c in labels):
            return rows
        kinds[k] = re.sub(r"\s", "", second[0].text.lower())  # "BPE 32 K" is not "BPE 32K+"
        if labels[0].first == 0:
            inline[k] = labels[0]
    lone = {k: row[0] for k, row in enumerate(rows) if data[0] < k < data[-1] and len(row) == 1
            and row[0].first == 0 and firsts[k] is None}
    blocks: list[list[int]] = [[]]
    for k in data:
        if kinds[k] in {kinds[j] for j in blocks[-1]}:
            blocks.append([])
        blocks[-1].append(k)
    if len(blocks) < 2 or len({fold(c.text) for c in [*inline.values(), *lone.values()]}) < 2:
        return rows
    given: dict[int, TableCell] = {}
    used: set[int] = set()
    after = -1
    for block in blocks:
        inside = [j for j in lone if after < j < block[-1]]
        named = {fold(c.text): c for c in [*(inline[k] for k in block if k in inline), *(lone[j] for j in inside)]}
        after = block[-1]
        if len(named) == 1 and (len(block) == 1 or block[-1] not in inline):
            # (not one beside a block's last row: the first of the next block's, set high, or the
            # last's, set low, is not known)
            cell = next(iter(named.values()))
            given.update({k: cell for k in block if k not in inline})
            used.update(inside)
    if not given:
        return rows
    return [[given[k], *row] if k in given else row for k, row in enumerate(rows) if k not in used]


def carry_labels(rows: Iterable[DataRow]) -> Iterator[DataRow]:
    """The data rows with the cell of a label column set once over several rows given to each:
    under a header, when the first data row's labels fill two columns ("EN→FR" "Baseline") and
    rows below fill only the second ("Decoder WT"), the first column's cell above is theirs too.
    A first data row without it, or a group label amid the rows (the cells set about the middle
    of their rows, some on lines of their own: whose rows are above them is not known), carries
    nothing."""
    rows = list(rows)
    groups: dict[int, list[Group]] = {}
    for row in rows:
        if row.group not in (found := groups.setdefault(id(row.header), [])):
            found.append(row.group)
    lead: TableCell | None = None
    header: Header | None = None
    for row in rows:
        first_number = min((c.first for c in row.cells if cell_numbers(c.text)), default=0)
        labels = [c for c in row.cells if c.last < first_number and c.text.strip()]
        if row.header is not header:
            header = row.header
            lead = labels[0] if len(labels) > 1 and labels[0].first == 0 and labels[0].last < labels[1].first \
                and len(groups[id(header)]) == 1 else None
        elif labels and labels[0].first == 0:
            lead = labels[0] if lead is not None and len(labels) > 1 else None
        elif labels and lead is not None and lead.last < labels[0].first:
            row = replace(row, cells=[lead, *row.cells])
        yield row


def heads_the_labels(texts: list[str]) -> bool:
    """Whether a row's first cell heads a column of labels ("Dataset", "Model"): the row is heads."""
    return bool(texts) and fold(texts[0]) in LABEL_HEADS and not cell_numbers(texts[0])


def data_rows(table: Table) -> Iterator[DataRow]:
    """The table's data rows, each with the header and group label over it: the rows above the
    first data row are the header; a row of several cells without numbers below data rows
    starts a new header block; a row of one cell is a group label (see the package)."""
    namer = table.namer
    header = Header([], namer, table.caption)
    block: list[TableCell] = []  # the header rows read since the last data row
    seen_data = False
    label_end = 0  # the first column of numbers in the last data row
    group_ours = after_group = False
    group_names: dict[str, str] = {}
    titled: dict[str, str] = {}  # the data a block title names ("English CoNLL 2003"), for its group labels
    group_text = ""
    ended: tuple[bool, dict[str, str]] = (False, {})  # the group of the rows above a block of heads
    data = [any(flags) for flags in table.numeric]
    for index, row in enumerate(table.rows):
        texts = [c.text for c in row]
        if data[index]:
            if block and seen_data and not group_names and not any(
                    namer.is_metric(c) or namer.names(c).keys() & {"DatasetName", "TaskName"} for c in block):
                # "Large Model" below the rows of "Base Model", both under "English CoNLL 2003": heads
                # naming neither a metric nor data go on in the data of the group above
                group_ours, group_names = ended
            if block:
                if not any(namer.is_metric(c) for c in block):
                    # A block naming only the data ("Chinese" over the English block's "UAS LAS
                    # ..."): the metric rows of the header above still head its columns.
                    rows = {c.paragraph for c in header.cells if namer.is_metric(c)}
                    block = block + [c for c in header.cells if c.paragraph in rows]
                cells, block = widen(block), []
                header = Header(cells, namer, table.caption, header.statistics or counts_heads(cells))
            seen_data = True
            label_end = min(c.first for c, n in zip(row, table.numbers[index]) if n)
            yield DataRow(row, header, Group(group_ours, group_names, group_text))
            continue
        if seen_data and (len(row) > 1 or row[0].first > 0 or texts[0].startswith("(")) \
                and all(c.last < label_end for c in row):
            # "( final ) ensemble", "4 model", "( final ; run 2 )" under "System Configuration": a
            # row's labels set on several lines, no heads and no group label
            continue
        next_is_data = index + 1 < len(table.rows) and data[index + 1] and not any(
            re.search(r"[-–]$", c.text) and (c.first, c.last) == (row[0].first, row[0].last)
            for c in (table.rows[index - 1] if index else []))  # "S2ORC-" over "SCIBERT": one head
        if index + 1 < len(table.rows) and not data[index + 1] and (title := block_title(namer, row)) is not None:
            # "Chinese MSRA" over its block's "Model Precision Recall F1" (the PDF reader set it in
            # the label column): the data of all the block's columns, not of the one it sits over
            if seen_data and not block and not after_group:
                ended = (group_ours, group_names)
            group_ours, group_names, group_text, after_group = False, {"DatasetName": title}, title, True
            titled = dict(group_names)
            continue
        if len(row) == 1 and (seen_data or header.cells or block) and (row[0].first == 0 or seen_data or next_is_data):
            # A group label: "Ours", "Published", "GloVe", "Test ( all lengths )", "Chinese".
            text = group_text = texts[0]
            group_ours = bool(re.search(r"\bours?\b", text, re.I))
            # (the data a group label says its rows were trained on, "Trained on Wikipedia", is no
            # data they were measured on)
            group_names = {k: v for k, v in namer.names(row[0], "label").items() if k in ("DatasetName", "TaskName")
                           and not (k == "DatasetName" and any(TRAINING.match(w) for w in text.split()))}
            if is_language(text) or is_language_pair(text):  # "Chinese", "English - Estonian"
                group_names["DatasetName"] = text.replace(" - ", "-")
            # ("Base Model" under the block title "English CoNLL 2003": the title's data still)
            group_names = {**titled, **group_names}
            after_group = True
            continue
        if seen_data and not block and not after_group:
            ended = (group_ours, group_names)
            group_ours, group_names, group_text = False, {}, ""
        after_group = False
        words = texts[0].split()
        if row[0].first == 0 and len(row) > 1 and len(words) > 1 and fold(words[-1]) in SPLITS \
                and all(namer.is_metric(c) or metric_like(c.text) for c in row[1:]):
            # "WSJ Test" left of its block's "P R F1": the data of the block's rows
            group_names = {"DatasetName": " ".join(words[:-1])}
        block += join_split_heads(row, namer.known)
        if not seen_data:
            cells = widen(block)
            header = replace(header, cells=cells, statistics=counts_heads(cells))
    # A table of heads only (no data row) holds no number to account for.


def block_title(namer: Namer, row: Sequence[TableCell]) -> str | None:
    """The data a head row names as the title of the block of heads below it: one or two cells
    from the label column on whose words are one dataset's name, a language before it at most
    ("Chinese OntoNotes 4.0", "Chinese" "MSRA"); None for any other row."""
    if row[0].first != 0 or len(row) > 2 or any(namer.is_metric(c) for c in row):
        return None
    whole = TableCell(row[0].paragraph, row[0].start, row[-1].end, row[0].first, row[-1].last,
                      " ".join(c.text for c in row))
    name = namer.names(whole, "label").get("DatasetName")
    if name is None or fold(name) not in fold(whole.text):
        return None
    rest = whole.text.replace(name, " ").split() if name in whole.text else whole.text.split()
    return whole.text if len(rest) <= 1 and all(is_language(w) for w in rest) else None


def read_row(table: Table, header: Header, row: list[TableCell], group: Group,
             base: str | None) -> tuple[Found, str | None]:
    """The values, results and not results of one data row under ``header`` in ``group``, and
    the model the rows below labelled "+ X" add to (``base``: the one above's)."""
    found = Found()
    texts = [cell.text for cell in row]
    numbered = [cell for cell, text in zip(row, texts) if cell_numbers(text)]
    numbered_label = bool(numbered and numbered[0].first == 0 and row[0] is numbered[0] and len(numbered) > 1)
    if numbered_label:
        # A number in the label column labels its row ("0.55" a threshold, "128" a length).
        found = found.with_others([table.not_result(row[0], texts[0], "setting")])
        numbered = numbered[1:]
    first_number = min(cell.first for cell in numbered)
    inner = next((k for k, (cell, text) in enumerate(zip(row, texts)) if cell.first > first_number
                  and not cell_numbers(text) and not says_nothing(text) and re.search(r"[A-Za-z]{2}", text)
                  and not any(c.first <= cell.first <= c.last for c in table.number_cells)), None)
    # (never the row's first cell: cells out of column order would read the same row again)
    if inner and any(cell_numbers(t) for t in texts[inner + 1:]):
        # A label in a column of labels amid the row ("Gold L" under "Target" in the right one
        # of two tables set side by side): the numbers right of it are its row's, not this one's.
        inside, base = read_row(table, header, row[inner:], group, base)
        found = found + inside
        row, texts = row[:inner], texts[:inner]
        numbered = [cell for cell in numbered if cell in row]
        if not numbered:
            return found, base
    # (not a cell left of the scores that is a measure: "342 ms" beside "109 M" under "Latency")
    # (nor one the layout set in the column of the first score, before it: "PGD" "90.53 ( .2 )" both
    # under "MNLI", the label's column lost)
    first_at = row.index(numbered[0])
    labels = [cell for k, (cell, text) in enumerate(zip(row, texts))
              if (cell.last < first_number or (cell.last == first_number and k < first_at))
              and not says_nothing(text) and not _MEASURE.match(text)]
    label = read_label(table, header, labels)
    if label.model and labels and (whole := header.parts_over(labels[0])):
        # "headlines" under "STS2016", the other heads runs ("1st run"): the row is a part of the
        # data, the model the table's one
        label = replace(label, model=None, names={**label.names, "TypedDataset": f"{whole} {label.model}"})
    label_text = label.model
    if label_text and re.match(r"[+＋]\s", label_text) and base:
        label_text = f"{base} {label_text}"  # "+ D&M" under "LISA": "LISA + D&M"
    elif label_text and not is_ablated(label_text):
        # The model rows below starting with "+" add to (not one citing prior work: whose the
        # additions are is not known; not a row taking a part away, "- convolution" or "replace X
        # with Y" between "Base QANet" and "+ data augmentation": the additions are the base's).
        # (of a base that adds to a model itself, its model: "BERT - base + flow" over "+ whitening",
        # the layout having set the group's "BERT - base" in its first row, gives "BERT - base +
        # whitening", the additions being siblings)
        base = None if CITED.search(label_text) or label_text[:1] in "+＋" else label_text.split(" + ")[0]
    ours = group.ours and not (label_text and (CITED.search(label_text) or split_citation(label_text)[1])) \
        or bool(label_text and re.search(r"\bours\b", label_text, re.I))
    ablation = is_ablated(label.model) or bool(ABLATION_CAPTION.search(table.caption.text)) \
        or (is_added(label.model) and label_text != label.model and group.ours)
    label = replace(label, model=label_text, ours=ours, numbered=numbered_label, ablation=ablation)
    # (not a label cell that starts with a number: "2.8 Billion words", the size of the data of its row)
    label_reason = row_reason(" ".join(cell.text for cell in labels if not _LEADING_NUMBER.match(cell.text)))
    for cell in numbered:
        if cell.last < first_number:
            continue
        if label_reason is not None:  # "Proportion 26 % 12 % ...", "% of training set 1 % 10 % ..."
            found = found.with_others([table.not_result(cell, number, label_reason)
                                       for number, _, _ in cell_numbers(cell.text)])
            continue
        column = header.column(cell.first, cell.last)
        if label.languages:
            column = Column(column.names, column.reason, [*column.unnamed, *label.languages])
        scores = [n for n, why, _ in cell_numbers(cell.text) if why is None]
        for number, why, part in cell_numbers(cell.text):
            if why == "parenthesized" and table.caption.bracketed and is_beside_score(number, scores):
                # "65.5 ( 64.4 )" where the caption says the average of the runs is in brackets
                read = read_number(table, header, group, label, cell, number, column, part)
                found = found + replace(read, results=tuple(
                    replace(r, setting=r.setting or table.caption.bracketed) for r in read.results))
                continue
            if why is not None:
                found = found.with_others([table.not_result(cell, number, why)])
                continue
            found = found + read_number(table, header, group, label, cell, number, column, part)
    return found, base


@dataclass(frozen=True)
class RowLabel:
    """What a data row's label cells say: a name of each type (under a "Dataset" column also
    "TypedDataset", under a "Category" column "Qualifier"), the model they name (None: none;
    "+ X" under a row of model Y: "Y + X"), the languages they name (the data's, down a
    treebank table), and whether the row is the paper's own."""

    names: dict[str, str]
    model: str | None
    languages: list[str]
    ours: bool = False  # the paper's own row
    numbered: bool = False  # a number in the label column labels the row (a threshold)
    setting: str | None = None  # what a settings column ("Setting", "k") says of the row
    # the label names a model, whatever the heads over the columns name: it cites prior work
    # ("Lample et al . ( 2016 )") or varies a model ("w/o SOP", "+ CRF")
    method: bool = False
    lists_data: bool = False  # the label is under a "Dataset" or "Task" column: the rows list the data
    ablation: bool = False  # the row varies the paper's own method ("w/o X")


# A run of eight digits or more standing alone in a row's label: text the PDF hid there.
_HIDDEN_DIGITS = re.compile(r"(?<!\S)\d{8,}(?!\S)\s*")


def read_label(table: Table, header: Header, labels: Sequence[TableCell]) -> RowLabel:
    """What a data row's ``labels`` (its cells left of its numbers that say something) name:
    what the paper or the model says, no gazetteer; what the heads over them say they are."""
    row_names: dict[str, str] = {}
    model_cells = []
    row_language: list[str] = []
    typed: dict[str, list[str]] = {}
    listed = False
    models_column = any(header.label_head(c) == "MethodName" for c in labels)  # a "Models" head over a label
    for cell in labels:  # a row's label names what the paper or the model says, no gazetteer
        text = ENUMERATOR.sub("", cell.text)
        if is_language(text) or is_language_pair(text):  # "ro" down a treebank table, "EN→DE": the data's language
            row_language.append(text)
            continue
        kind = header.label_head(cell)  # "Dataset" over the cell ("( a ) CA", "BC5CDR ( Li et al . , 2016 )")
        if kind is None and set(table.namer.names(cell, "label")) <= {"MethodName"} \
                and (data := header.label_data(cell)) is not None:
            typed.setdefault("DatasetName", []).append(data)  # "SQuAD2.0" over the models: their data
            model_cells.append(cell)
            continue
        listed = listed or kind in ("DatasetName", "TaskName")
        if kind in ("DatasetName", "TaskName"):  # "SQuAD" under "TASK" is still the data it names
            named = table.namer.names(cell, "label")
            kind = next((k for k in ("DatasetName", "TaskName") if k in named), kind)
        if kind is not None:
            typed.setdefault(kind, []).append(CITATION.sub("", text).strip() if kind != "MethodName" else text)
            if kind == "setting" and is_setting_head(next((h.text for h in reversed(header.cells)
                                                           if h.first <= cell.first and cell.last <= h.last), "")):
                typed.setdefault("setting column", []).append(text)  # "5-shot" under "Setting"
            if kind == "MethodName":
                model_cells.append(cell)
            continue
        named = table.namer.names(cell, "label")
        if set(named) == {"TaskName"} and split_citation(text)[1]:
            named = {}  # "NovelTagging ( Zheng et al . , 2017 )" tagged as a task: a cited method, the row's model
        for kind, name in named.items():
            row_names.setdefault(kind, name)
        if not named or "MethodName" in named or not set(named) <= {"DatasetName", "TaskName", "MetricName"}:
            if models_column and any(h.first <= cell.first and cell.last <= h.last and not says_nothing(h.text)
                                     for h in header.cells):
                # "Lexicon" under "Extra Resource" beside "Ours" under "Models": what the row
                # used, no part of the model's name
                typed.setdefault("resource", []).append(text)
                continue
            model_cells.append(cell)
    if "MethodName" in typed:  # "Methods" over the labels: a label tagged as data is still a method
        row_names.pop("DatasetName", None)
        # (and, where the paper names it as a method, the row's model, not the data a method over
        # its column was measured on: "PEGASUS" under "Models", "S Fine - tuning" over the column;
        # not "Dev PPL" under "Model", the models over the columns)
        if any("MethodName" in table.namer.names(c, "label") for c in model_cells):
            row_names.setdefault("MethodName", " ".join(typed["MethodName"]))
    for kind in ("DatasetName", "TaskName"):
        if kind in typed:
            row_names[kind] = " ".join(typed[kind])
    for kind in ("DatasetName", "TaskName"):
        # A metric the label gives its row: "DEP ( LAS )", "GENIA - LAS".
        if kind in row_names and (named_metric := _LABEL_METRIC.match(row_names[kind])) \
                and (metric_like(metric := named_metric.group(2) or named_metric.group(3)) or metric_pair(metric)):
            row_names[kind] = named_metric.group(1)
            row_names.setdefault("MetricName", metric)
    for cell in labels:
        # Two metrics the label gives its "x / y" cells: "QQP ( Accuracy / F1 )", whatever is tagged in it.
        if (named_metric := _LABEL_METRIC.match(cell.text)) and metric_pair(metric := named_metric.group(2) or ""):
            row_names["MetricName"] = metric
    if "MetricName" in typed:  # "EM / F1" under "Metrics", whatever is tagged in it
        row_names["MetricName"] = " ".join(typed["MetricName"])
    if "DatasetName" in typed:  # a "Dataset" column says it, whatever the caption names
        row_names["TypedDataset"] = row_names["DatasetName"]
    if "qualifier" in typed:
        row_names["Qualifier"] = " ".join(typed["qualifier"])
    # (not a run of eight digits or more, text the PDF hid in the label: "00000000000000000 + multi - task")
    model = _HIDDEN_DIGITS.sub("", " ".join(ENUMERATOR.sub("", cell.text) for cell in model_cells)).strip() or None
    method = bool(model and (CITED.search(model) or split_citation(model)[1] or is_ablated(model) or is_added(model)))
    setting = " ".join(typed.get("setting column", []) or typed.get("resource", [])) or None
    return RowLabel(row_names, model, row_language, setting=setting, method=method, lists_data=listed)


def read_number(table: Table, header: Header, group: Group, label: RowLabel, cell: TableCell, number: str,
                column: Column, part: tuple[int, int] | None) -> Found:
    """One score of a data row's cell under ``column`` (``part``: which of its cell's scores, of
    how many): a result, a hyperparameter's value, or a number that is no result (see the package)."""
    row, label_text = label.names, label.model
    place = (cell.paragraph, cell.start, cell.end)
    heads = dict(column.names)
    if column.reason is not None and "MetricName" not in heads:
        return Found(others=(table.not_result(cell, number, column.reason),))
    if "MetricName" not in heads and "DatasetName" not in heads and is_layer_size(number):
        # "512" under "h inter": a width or a size (a power of two), no score, where no head
        # over it names a metric or the data
        return Found(others=(table.not_result(cell, number, "setting"),))
    if "MetricName" not in heads and re.fullmatch(r"\d{1,3}(?:,\d{3})+|\d+", number) \
            and int(number.replace(",", "")) > 100 and header.split_sizes(cell.first, cell.last):
        # "67,349 872 1,821" under "Train Dev Test", "7520/836/5563" under "Train / Dev / Test": the splits' sizes
        return Found(others=(table.not_result(cell, number, "count"),))
    if header.statistics and not ("MetricName" in heads and _RESULTS_CAPTION.search(table.caption.text)):
        # A table of counts ("Samples Docs Words Sents ... Coverage Density"): its other
        # columns are statistics of the data too, not scores (not one a metric heads in a table
        # its caption says holds results: "R-1 f1" beside "Samples" and "Words" in "Comparing
        # BART performance ...").
        return Found(others=(table.not_result(cell, number, "statistic"),))
    if "MetricName" not in heads and header.hyperparameters:
        # "A.2 HYPER - PARAMETERS" read as the table's top head (FreeLB's appendix, no caption): its
        # numbers under the data's names are settings, "m 2 2 2 3", not scores on the data
        return Found(others=(table.not_result(cell, number, "setting"),))
    if table.caption.opens_as_statistics:
        # "Table 4 : Statistic information of the extended dictionary": its precision and recall
        # are the dictionary's, statistics, whatever heads them
        return Found(others=(table.not_result(cell, number, "statistic"),))
    if "MetricName" not in heads and "MetricName" not in row and (why := caption_reason(table.caption.text)):
        # "The detailed model settings of a few models", "Dataset statistics": no scores, no metric over them
        return Found(others=(table.not_result(cell, number, why),))
    if any(fold(h.text) in _TRAIN_HEADS for h in header.cells if h.first <= cell.first and cell.last <= h.last):
        # "99.7" under "Train" beside "Test" (ESIM's Table 1): a score on the training data, no result
        return Found(others=(table.not_result(cell, number, "train"),))
    if "MetricName" not in heads and "HyperparameterName" in heads:
        return Found((Value("HyperparameterValue", number, heads["HyperparameterName"], place),), (),
                     (table.not_result(cell, number, "setting"),))
    # The caption's one method ("Results of the ScienceParse system") where no row names one: rows
    # labelled with a part of the data only ("title" under "Field") are its too.
    model = label_text or (None if label.numbered or (table.labelled and "Qualifier" not in row)
                           else table.caption.names.get("MethodName"))
    # (under a "Dataset" head over the labels, "Dataset ... PSL" over "MSRpar", the label is the
    # data, never the system: the system is a method over the column, or not known)
    if model is None and "DatasetName" in row and not label.lists_data and ("DatasetName" in heads or any(
            not names_setting(u) for u in column.unnamed)) and "MethodName" not in heads:
        # Data over the columns and a label the paper once tagged as data ("PL"): the label is the system.
        model, row = row["DatasetName"], {k: v for k, v in row.items() if k != "DatasetName"}
    if "MethodName" in heads and "DatasetName" not in heads and cell.first in table.counted:
        # "KFTT" tagged as a method over "440 K" samples: the data
        heads["DatasetName"] = heads.pop("MethodName")
    if "MethodName" in heads and label.method and "DatasetName" not in row and "TaskName" not in row:
        # A label citing prior work or varying a model ("Michel et al . ( 2018 )", "w/o SOP") under
        # a head tagged as a method ("KFTT", the data; "nDĈG", a metric): the row's label is the
        # model; what the head is is not known.
        del heads["MethodName"]
    if "MethodName" in heads and "MethodName" not in row:
        # A method over the column ("SSK-T1"): the row's label is what it was measured on.
        model = heads["MethodName"]
        if label_text and "DatasetName" not in row and "TaskName" not in row:
            row = {**row, "DatasetName": label_text}
    side = None if table.right_from is None else "right" if cell.first >= table.right_from else "left"
    # (a task a head, label or group names that the paper's text never tags as one, "Transfer" over
    # SentEval's columns, "Multi" over "Multi-NLI", is no task of the scores; a caption of two
    # tables side by side gives its task to the side that names it only)
    task = next((t for t in (heads.get("TaskName"), row.get("TaskName"), group.names.get("TaskName"))
                 if t and (fold(t) in table.namer.prose_tasks or is_language(t))), None) \
        or (table.caption.task_sides.get(side or "") if table.caption.divided else table.caption_task)
    # (a name that says how the score was got, "Semi-supervised" or "Single model", is no data:
    # the next source says it)
    dataset = next((name for name in (heads.get("DatasetName"), row.get("TypedDataset"), group.names.get("DatasetName"),
                                      table.caption.names.get("DatasetName"), table.caption.sides.get(side or ""),
                                      row.get("DatasetName")) if name and not names_setting(name)), None)
    aspects = [u for u in column.unnamed if names_aspect(u)]  # "Relation" over "P R F1": the metric's
    unnamed = [u for u in column.unnamed if not metric_like(u) and not names_setting(u) and u not in aspects]
    if label.lists_data or ("MethodName" in column.names and "DatasetName" in row):
        # A "Dataset" or "Task" column lists the data, or the label names the data and a head the
        # method over the column: a head over the column qualifies the model ("Sent2Vec Unigrams"
        # over "Tweets Model", "PE LS RN" under "MemN2N" over rows of tasks), only the row's
        # language the data
        qualifiers = [u for u in unnamed if u not in label.languages]
        unnamed = [u for u in unnamed if u in label.languages]
        if label.lists_data and qualifiers and "MethodName" in column.names and model == heads.get("MethodName"):
            model = " ".join(dict.fromkeys([*([model] if model else []), *qualifiers]))
    if task and is_language(task):  # "Chinese" over a column: the data, not a task
        unnamed, task = [task, *unnamed], table.caption.names.get("TaskName")
    if task and is_language_pair(task):
        task = None  # "EN-FR" tagged as a task in the caption: a translation direction, the data's
    if "DatasetName" in group.names:  # "Chinese" over its rows: the "English" head above is another block's
        unnamed = [u for u in unnamed if not is_language(u)]
    if unnamed and "DatasetName" not in heads:
        dataset = " ".join(([dataset] if dataset else []) + unnamed)
    elif dataset is None and fold(model or "") != fold(table.cited_dataset or table.paper_dataset or "") \
            and (table.cited_dataset or not table.caption.several
                 or any(fold(table.paper_dataset or "") in fold(name) for name in table.caption.several)) and all(
            says_nothing(h.text) or table.namer.is_metric(h) or fold(h.text) in SETTING_HEADS or names_aspect(h.text)
            or (table.cited_dataset and set(table.namer.names(h)) == {"TaskName"})
            for h in header.cells if h.first <= cell.last and cell.first <= h.last) \
            and (table.cited_dataset or not (heads.get("TaskName") or row.get("TaskName"))):
        # Nothing names the data, nor part of it ("Mismatched"); only metrics head the column
        # (not "SemEval 2010 KBP37 TACRED" over three: whose is not known): the data the prose
        # citing the table names ("Caption Retrieval" over the column: its task on that data),
        # else, where no task is named either, the paper's.
        dataset = table.cited_dataset or table.paper_dataset
    pair = next((p for h in header.cells if h.first <= cell.first and cell.last <= h.last
                 and (p := language_pair_in(h.text))), None)
    if pair and dataset and languages_named(dataset) and languages_named(dataset) != languages_named(pair):
        dataset = pair  # "EN - FR BLEU" over the column, the caption's one data "English-to-German"
    aggregate = None if "DatasetName" in heads else header.aggregate(cell.first, cell.last)
    if aggregate is not None:
        # "Average" right of "MR CR SUBJ ...": the average over those data, not the caption's or the
        # prose's one of them ("MSRP"); "Supervised" over it, "Ja-En" in the caption still say whose
        if dataset is None or header.siblings_name(dataset, cell.first, cell.last):
            # (the suite its data heads are tasks of, where they are one's: "GLUE Average")
            # (else, alone, the task of those data, "STS Avg ." over STS12 ... SICK-R, or their span,
            # "STS12 – SICK-R Avg .": an "Avg ." alone names no data)
            suite = suite_of(tuple(h.text for h in header.cells)) or (None if unnamed else task or data_span(
                table, header, cell))
            dataset = " ".join([*unnamed, *([suite] if suite and not any(suite in u for u in unnamed) else []),
                                aggregate])
        elif fold(aggregate) not in fold(dataset):
            dataset = f"{dataset} {aggregate}"
    if "Qualifier" in row and dataset and fold(row["Qualifier"]) not in fold(dataset):
        # "S2-VL Abstract": the row's category of the data; "( Full S2 - VL )": the data itself
        qualifier = row["Qualifier"].strip("() ")
        dataset = qualifier if fold(dataset) in fold(qualifier) else f"{dataset} {qualifier}"
    if "MetricName" not in heads and "MetricName" not in row and table.caption.by_name and any(
            fold(h.text) in ("average", "avg", "mean") for h in header.cells
            if h.first <= cell.first and cell.last <= h.last):
        heads["MetricName"] = "average"  # GLUE's "Average" over F1s, accuracies and correlations: no one of them
    metric = heads.get("MetricName") or row.get("MetricName") or caption_metric(table.caption, dataset, task, row, model) \
        or next((said for name in (heads.get("DatasetName"), dataset, heads.get("TaskName"), row.get("DatasetName"),
                                   row.get("TaskName")) if name and (said := table.said.metric(fold(name)))), None) \
        or said_other(table, header, cell, heads) \
        or side_metric(table, header, cell, side) \
        or (table.paper_metric if ("DatasetName" in heads or (dataset and table.metric_said)) and fold(
            table.paper_metric or "") not in table.caption.legend else None)
    if metric and not (heads.get("MetricName") or row.get("MetricName")) and cannot_be(metric, number_value(number)):
        metric = None  # "we reduce the error rate ... for the 20News dataset" said of a column of 92.81: no error rate
    if metric and re.fullmatch(r"\(\s*[^()]+\s*\)", metric):
        metric = metric.strip("() ")  # "( Acc )"
    if metric and dataset and fold(metric) == fold(dataset):
        metric = None  # "STS" over STS12 ... STS16: the data's name, no metric
    elif metric and dataset and set(dataset.lower().split()) < set(metric.lower().split()):
        dataset = None  # "Macro" over "average", the metric "Macro Average": the metric's own word, no data
    if metric and aspects and "MetricName" in heads and not any(fold(a) in fold(metric) for a in aspects):
        metric = " ".join([*aspects, metric])  # "EM" under "Ans": "Ans EM"
    if metric in table.caption.symbols and metric not in row.values():
        metric = table.caption.symbols[metric]  # "r" over the column, "Pearson correlation ( r )" in the caption
    if part is not None and part[1] == 2 and table.caption.pair and (
            metric is None or metric == table.paper_metric or not metric_pair(metric)) \
            and "MetricName" not in heads and "MetricName" not in row:
        metric = table.caption.pair  # ".62/.67" where the caption says "Spearman / Pearson": the second Pearson
    if part is not None:  # "80.6/80.1" under "MNLI-(m/mm)": MNLI-m, MNLI-mm; "UAS [LAS]": UAS, LAS
        dataset, metric = split_name(dataset, part), split_name(metric, part)
        if metric and (why := not_score_head(metric)):  # "72.4 / -1.4" under "Accuracy / ∆": a difference
            return Found(others=(table.not_result(cell, number, why),))
    elif metric and len(scored := [m for m in re.split(r"\s*/\s*", metric) if not not_score_head(m)]) == 1 \
            and "/" in metric:
        metric = scored[0]  # "73.8" alone under "Accuracy / ∆": the score; its row's difference left blank
    found = provenance(table, header, group, label, cell)
    beside = () if metric is not None else tuple(h.text for h in header.cells)  # the head row, asked only here
    # (asked only where nothing above named the metric: most numbers have one)
    whole = None if metric is not None else whole_data(
        table, dataset, [h.text for h in header.cells if h.first <= cell.first and cell.last <= h.last])
    benchmark, metric = next(((name, by_convention) for name in (
        dataset, task, split_name(row.get("DatasetName"), part) if part else row.get("DatasetName"), whole)
        if metric is None and (by_convention := benchmark_metric(name, part, beside))), (None, metric))
    if benchmark is not None:
        # "CoLA" alone over its column: the benchmark's metric, marked as assumed
        found["header"] = f"{found['header'] or ''} {ASSUMED}".lstrip()
        if part is not None and part[1] == 2 and larger_metric(benchmark):
            metric = by_size(cell, number, benchmark, metric or "")  # SQuAD's "89.3/82.3": F1 first or second
        elif part is None and found["split"] == "dev" and (on_dev := dev_metric(benchmark)):
            metric = on_dev  # "90.2" under "MRPC" in a table of dev results: an accuracy, F1 the test server's
    elif part is not None and part[1] == 2 and metric and fold(metric) in ("em", "f1", "exactmatch") \
            and "MetricName" not in heads and "MetricName" not in row and fold(larger_metric(dataset) or "") == "f1":
        # "89.1/86.3" under "SQuAD2.0 test" where a sentence names F1 of SQuAD2.0: one cell, no one metric twice
        metric = by_size(cell, number, dataset or "", metric)
    if metric is None and part is None and (usual := leaderboard_metric(table, header, cell, number, (
            dataset, row.get("DatasetName"), whole))):
        metric, found["header"] = usual, f"{found['header'] or ''} {USUAL}".lstrip()
    if metric is None and part is None and table.cited_metric and ("DatasetName" in heads or dataset):
        metric = table.cited_metric  # "Table 4 shows the accuracy ...", nothing else naming one
    if metric is None and aggregate is not None and "DatasetName" not in row:
        # "Average" beside "MRPC SST-2 CoLA": the one metric of the data beside it, else an average of
        # several (not under a row naming data: "( Toronto Books )", the data a model was trained on)
        metric = aggregate_metric(table, header, cell)
    if metric is None:
        return Found(others=(table.not_result(cell, number, "no metric"),))
    if beyond_percent(metric, number):  # "211727" tokens in a column under "F1"
        return Found(others=(table.not_result(cell, number, "over 100"),))
    model, citation = split_citation(model) if model else (model, None)
    # (the task a result carries is one the paper mostly calls a task, and no setting: not a
    # method the model once tagged as one, "NBSVM"; not "multi-task")
    task = task if task and table.namer.mainly_task(task) and not names_setting(task) else None
    return Found((Value("MetricValue", number, metric, place),),
                 (Result(task, dataset, metric, number, model, place, label.ours or None, table.label, **found,
                         citation=citation),))


def language_pair_in(text: str) -> str | None:
    """The translation direction a head names among its words ("EN - FR BLEU" -> "EN-FR"), or None."""
    words = text.split()
    return next((f"{words[k]}-{words[k + 2]}" for k in range(len(words) - 2)
                 if words[k + 1] in ("-", "–", "→", "->") and is_language_pair(" ".join(words[k:k + 3]))), None)


def whole_data(table: Table, dataset: str | None, over: list[str]) -> str | None:
    """The caption's data where the result's data is a part of it ("VCR Q → A", "Weibo NE" in a
    table "... on Weibo"), whose convention or usual metric the part takes; None otherwise: where
    a head ``over`` the column names a setting ("Transfer" over "micro macro": another evaluation
    than the caption's data), or the caption explains a word of the part ("Spread is measured as
    the average number of tokens ...": a measure of its own, no part of the data)."""
    whole = table.caption.names.get("DatasetName")
    if not whole or not dataset or fold(dataset) == fold(whole) or not fold(dataset).startswith(fold(whole)) \
            or any(names_setting(h) for h in over):
        return None
    caption = {w.lower() for w in table.caption.text.split()}
    part = [w.lower() for w in dataset.split()[len(whole.split()):] if re.fullmatch(r"[^\W\d_]{3,}", w)]
    return None if any(w in caption for w in part) else whole


def leaderboard_metric(table: Table, header: Header, cell: TableCell, number: str,
                       names: tuple[str | None, ...]) -> str | None:
    """The metric the first of ``names`` that is data nearly always takes on leaderboards
    ("Weibo" alone over its column: F1), where nothing in the table, caption or sentences named
    one; None where the caption names a metric the reader could not place, or a head names
    data with no such metric ("PTB text8": the two are not known to share one)."""
    usual = next((m for name in names if (m := usual_metric(name, number_value(number), "%" in cell.text))), None)
    if usual is None or _NAMES_A_METRIC.search(table.caption.text) or any(
            usual_metric(h.text, None) is None for h in header.cells if "DatasetName" in table.namer.names(h)):
        return None  # (the table's lookup first: most numbers with no metric are of data with no usual one)
    return usual


def aggregate_metric(table: Table, header: Header, cell: TableCell) -> str | None:
    """The metric of a column heading an aggregate of the data heads beside it, where no head,
    caption or sentence names one: the one metric those data take (said of them in the paper's
    sentences, else their benchmark's convention), "average" where they take several; None
    where none of them has one."""
    row = data_beside(table, header, cell)
    beside = tuple(h.text for h in row)  # SentEval's "MR CR SUBJ" take their suite's convention together
    metrics = {fold(m): m for h in row
               if (m := table.said.metric(fold(h.text)) or benchmark_metric(h.text, None, beside))}
    if not metrics:
        return None
    return next(iter(metrics.values())) if len(metrics) == 1 else "average"


def data_beside(table: Table, header: Header, cell: TableCell) -> list[TableCell]:
    """The heads naming data beside a cell's column (not over it, not the label column's)."""
    return [h for h in header.cells if h.first > 0 and not (h.first <= cell.first and cell.last <= h.last)
            and "DatasetName" in table.namer.names(h)]


def data_span(table: Table, header: Header, cell: TableCell) -> str | None:
    """The first and last of the data heads beside a cell's column ("STS12 – SICK-R"), None for
    fewer than two."""
    row = data_beside(table, header, cell)
    return f"{row[0].text} – {row[-1].text}" if len(row) >= 2 else None


def by_size(cell: TableCell, number: str, benchmark: str, metric: str) -> str:
    """Which of the two metrics of an "x / y" cell of ``benchmark`` (a benchmark of
    :data:`~sciner.summary.tables.conventions.LARGER`) ``number`` is, in whatever order the
    cell prints them: the larger metric for the larger number ("89.3/82.3" and "82.3/89.3" of
    SQuAD: F1 89.3, EM 82.3); ``metric`` where the two numbers are equal or not two."""
    pair = [v for n, why, _ in cell_numbers(cell.text) if why is None and (v := number_value(n)) is not None]
    value, larger = number_value(number), larger_metric(benchmark)
    if len(pair) != 2 or value is None or pair[0] == pair[1] or larger is None:
        return metric
    both = [benchmark_metric(benchmark, (k, 2)) or "" for k in (0, 1)]
    smaller = next((m for m in both if fold(m) != fold(larger)), metric)
    return larger if value == max(pair) else smaller


# Heads over a column of scores on the training data (folded): "Train", "Train Acc", "Training accuracy".
_TRAIN_HEADS = frozenset({"train", "training", "trainacc", "trainaccuracy", "trainingaccuracy", "trainppl",
                          "trainperplexity", "trainingperplexity", "trainset", "trainingset", "trainf1", "trainloss"})
# Words that name a metric in a caption ("Spearman ’s correlation ρ is reported").
_NAMES_A_METRIC = re.compile(r"\b(?:accuracy|accuracies|F1|F-score|F-measure|correlations?|BLEU|ROUGE|perplexity|"
                             r"error|precision|recall|AUC|MAP|MRR|EM|exact match)\b", re.I)
# Heads over the data beside them, no one of them's: "Avg .", GLUE's "Score".
_OVER_THE_DATA = AGGREGATES | {"score", "scores"}


def said_other(table: Table, header: Header, cell: TableCell, heads: dict[str, str]) -> str | None:
    """The metric the paper's sentences say of "the other" data, for a column headed by data
    they give no metric of its own, in a table whose other heads name data they do ("accuracy
    for the other GLUE tasks" for "MRPC" beside "STS" and "CoLA"); None otherwise."""
    name = heads.get("DatasetName") or heads.get("TaskName")
    if not name or not table.said.others or fold(name) in _OVER_THE_DATA or metric_like(name):
        return None  # "Avg .", "Score" (GLUE's): over the data, no one of them
    beside = [fold(h.text) for h in header.cells if h.last < cell.first or h.first > cell.last]
    return table.said.other(fold(name), beside)


def side_metric(table: Table, header: Header, cell: TableCell, side: str | None) -> str | None:
    """The metric the caption gives the side of the table a cell is on ("Spearman 's correlation
    ( left ) and accuracy ( right )"): the side of two tables set side by side, else, in one
    table, the right from the first column whose head the paper's sentences give the right's
    metric ("accuracy" said of "SYN-REL"), the left before it; None where it cannot be told."""
    sides = table.caption.metric_sides
    if len(sides) != 2:
        return None
    if side is None:
        right = fold(sides["right"])
        starts = [h.first for h in header.cells if fold(table.said.metric(fold(h.text)) or "") == right]
        if not starts:
            return None
        side = "right" if cell.first >= min(starts) else "left"
    return sides[side]


def is_beside_score(number: str, scores: Sequence[str]) -> bool:
    """Whether a number in brackets is of the size of the one score of its cell (half to twice
    it): another score of it ("65.5 ( 64.4 )"), not a count beside it."""
    if len(scores) != 1:
        return False
    inner, score = number_value(number), number_value(scores[0])
    return inner is not None and score is not None and score > 0 and 0.5 <= inner / score <= 2


def is_layer_size(number: str) -> bool:
    """Whether a cell's number is a multiple of 64 from 128 up, as a layer's width, a sequence's
    length or a batch prints it ("128", "768", "4096"), no score."""
    return number.isdigit() and int(number) >= 128 and int(number) % 64 == 0


def provenance(table: Table, header: Header, group: Group, label: RowLabel, cell: TableCell) -> dict[str, Any]:
    """Where a table's result came from and what it is: its caption (cut short), the heads over
    its column, the split and the setting named by those heads, else by its row (a settings
    column), its group label or the caption, and whether its row is an ablation."""
    heads = [h.text for h in header.cells if h.first <= cell.first and cell.last <= h.last]
    return {"caption": short_caption(table.caption.text), "header": " > ".join(heads) or None,
            "split": head_split(heads) or head_split([group.text]) or said_split(table.caption.text),
            "setting": first_setting(heads) or label.setting or said_setting(group.text)
            or said_setting(table.caption.text), "ablation": label.ablation}


def caption_metric(caption: Caption, dataset: str | None, task: str | None, row: dict[str, str],
                   model: str | None = None) -> str | None:
    """The metric the caption gives a result measured on these (its default for the others),
    else its one metric, else None."""
    # "average F 1 for Coref" with "Coref" labelling a row (tagged as a method there)
    for name in (dataset, task, row.get("DatasetName"), row.get("TaskName"), model):
        if name and fold(name) in caption.by_name:
            return caption.by_name[fold(name)]
        if name and (key := next((k for k in caption.by_name if k and k in fold(name)), None)):
            return caption.by_name[key]
    if caption.by_name:
        return caption.default
    return caption.names.get("MetricName")
