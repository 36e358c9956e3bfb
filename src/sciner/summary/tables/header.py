"""A table's header: its head rows joined and widened over the columns they head
(:func:`join_split_heads`, :func:`widen`), and what the heads over a column say of its
numbers (:meth:`Header.column`)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property

from sciner.summary.names import fold
from sciner.summary.provenance import SPLIT_WORDS
from sciner.summary.tables.caption import Caption
from sciner.summary.tables.cells import (
    AGGREGATES, ENUMERATOR, LABEL_HEADS, METRIC_HEADS, SETTING_HEADS, Known, TableCell, is_language, is_run, metric_like,
    names_setting, not_score_head, says_nothing,
)
from sciner.summary.tables.namer import Namer, metric_pair

# Sub-metrics that a spanning metric head above qualifies ("MUC" over "F1" is "MUC F1").
_SUB_METRIC = frozenset({"p", "r", "f", "f1", "prec", "precision", "rec", "recall", "acc", "accuracy", "em",
                         "uas", "las", "map", "ndcg"})


# A head giving its metric in parentheses: "CoLA ( MCC )", "Overall ( Acc )".
_HEAD_METRIC = re.compile(r"\s*(.*?\S)\s*\(\s*([^()]+?)\s*\)\s*")
# A head naming a split and a metric ("Test BPC", "Dev F1"): the metric's part.
_SPLIT_METRIC = re.compile(rf"\s*(?:{'|'.join(SPLIT_WORDS)})\s+([A-Za-z].*?)\s*", re.I)
# Heads over a label column of the data a model was trained on ("Training corpus", "Pre-training
# data"): a setting of the row, not the data its scores were measured on.
_TRAINING_DATA = re.compile(r"(?:pre)?train(?:ing|ed)?(?:corpus|corpora|data|dataset|set|on)$")
# A head that is a check mark or a cross: its column is with or without what the head above names.
_CHECK_MARK = re.compile(r"[✓✔✗✘]")
# A caption saying its table reports significance: a head "p" there is a p-value, not precision.
_SIGNIFICANCE = re.compile(r"significan|p\s?-\s?(?:values?|scores?)", re.I)
# The heads of a dataset's splits, folded.
_SPLIT_HEADS = frozenset({"train", "training", "dev", "development", "valid", "validation", "val", "test"})
# Heads of a model's size, counted though they are ("# Params", "#FLOPs"): no data statistics.
_MODEL_SIZE = re.compile(r"param|flop", re.I)


@dataclass(frozen=True)
class Column:
    """What the heads over a column say: a name of each type, why its numbers are no scores
    (None: they may be), and the heads over it that name nothing (they qualify its dataset)."""

    names: dict[str, str]
    reason: str | None
    unnamed: list[str]


@dataclass(frozen=True)
class Header:
    """The heads over a table's data rows (its cells top to bottom), read with the table's
    namer and caption; ``statistics``: the header heads two columns or more of counts (a table
    of data statistics: its numbers are no scores)."""

    cells: Sequence[TableCell]
    namer: Namer
    caption: Caption
    statistics: bool = False
    # What :meth:`column` answered, by its columns: every row asks again for each of its cells.
    _columns: dict[tuple[int, int], Column] = field(default_factory=dict, init=False, repr=False, compare=False)

    @cached_property
    def hyperparameters(self) -> bool:
        """Whether a head is a heading of hyper-parameters ("A.2 HYPER - PARAMETERS" read as the
        table's top head): the numbers under the heads are settings."""
        return any(_HYPERPARAMETERS.fullmatch(h.text) for h in self.cells)

    def row_kind(self, head: TableCell, named: bool = False) -> str | None:
        """The type most heads of ``head``'s row name (two at least, and more than half of its
        heads right of the label column; with ``named``, more than name the other type): the
        heads of one row are one kind of thing."""
        siblings = [h for h in self.cells if h.paragraph == head.paragraph and h.first > 0]
        kinds = [k for h in siblings for k in self.namer.names(h) if k in ("MethodName", "DatasetName")]
        best = max(dict.fromkeys(kinds), key=kinds.count, default=None)  # ties: the first named, whatever the hash seed
        return best if best is not None and kinds.count(best) >= 2 and 2 * kinds.count(best) > (
            len(kinds) if named else len(siblings)) else None

    def lone_method(self, head: TableCell) -> bool:
        """Whether ``head`` is the one head of its row that names a method, beside a head that
        names data ("CMRC 2018 DRCD CJRC XNLI" with "DRCD" tagged as a method more often): one
        of the data, not a model over its column."""
        siblings = [h for h in self.cells if h.paragraph == head.paragraph and h.first > 0]
        kinds = [self.namer.names(h) for h in siblings]
        return sum("MethodName" in k for k in kinds) == 1 and "MethodName" in self.namer.names(head) \
            and any("DatasetName" in k for k in kinds)

    def label_head(self, cell: TableCell) -> str | None:
        """What the head over a label cell's column says it is: "Model", "Methods", "System"
        (MethodName), "Dataset", "Data", "Corpus", "Language", "Treebank" (DatasetName), "Task"
        (TaskName), "Metrics" (MetricName), "Category", "Field", "Doc length" (the part of the data: "qualifier"), "Domain",
        "Reference" (a setting: "setting"), or None."""
        for head in reversed(self.cells):  # the lowest head over the column says it
            if head.first <= cell.first and cell.last <= head.last and head.last - head.first <= cell.last - cell.first:
                text = head.text
                if "→" in text:  # "Task →": what the heads right of it are; "Model ↓ / Metric →": the rows
                    text = text.split("/")[0] if "↓" in text.split("/")[0] else ""
                key = fold(text)
                if key in ("model", "models", "method", "methods", "system", "systems", "approach", "algorithm"):
                    return "MethodName"
                if key in ("dataset", "datasets", "data", "corpus", "language", "lang", "treebank", "benchmark"):
                    return "DatasetName"
                if key in ("task", "tasks", "subtask"):
                    return "TaskName"
                if key in ("metric", "metrics", "measure", "measures"):
                    return "MetricName"  # "EM / F1" under "Metrics": the row's metrics
                if key in ("category", "field", "structure", "subset", "doclength", "segmentlength", "length"):
                    return "qualifier"  # "Abstract" under "Category": the part of the data measured
                if key in ("field", "domain", "reference", "ref", "citation", "source", "year", "type", "thr",
                           "threshold", "beam", "k", "n") or key in LABEL_HEADS or _TRAINING_DATA.match(key) \
                        or "HyperparameterName" in self.namer.names(head):
                    return "setting"  # "Doc length", "Category", "Thr.": the row's setting, not its model
        return None

    def label_data(self, cell: TableCell) -> str | None:
        """The dataset the lowest head over a label cell's column names, where it names one left
        of its block's metric heads ("SQuAD2.0 EM F1 SQuAD1.1 EM F1", each over the models of
        its block): the data of the rows' numbers, their labels still the models."""
        for head in reversed(self.cells):
            if head.first <= cell.first and cell.last <= head.last and head.last - head.first <= cell.last - cell.first:
                if not any(h.paragraph == head.paragraph and h.first > head.last and self.namer.is_metric(h)
                           for h in self.cells):
                    return None
                return self.namer.names(head).get("DatasetName")
        return None

    @cached_property
    def metric_rows(self) -> frozenset[int]:
        """The rows of heads (paragraphs) that say in their first cell that they name the metric,
        with one head beside it ("Eval metric | Average reward" over the scores; not "Metric |
        PersonaChat | TopicalChat" over rows of metrics)."""
        rows: dict[int, list[TableCell]] = {}
        for head in self.cells:
            rows.setdefault(head.paragraph, []).append(head)
        return frozenset(k for k, row in rows.items()
                         if len(row) == 2 and row[0].first == 0 and fold(row[0].text) in METRIC_HEADS)

    def parts_over(self, cell: TableCell) -> str | None:
        """The data the lowest head over a label cell's column names, where every other head
        of the header names a run ("STS2016" over "headlines", "1st run 2nd run" right of it):
        the labels are the data's parts; else None."""
        over = [h for h in self.cells if h.first <= cell.first and cell.last <= h.last]
        others = [h for h in self.cells if h.first > cell.last]
        if not over or not others or not all(is_run(h.text) for h in others):
            return None
        return self.namer.names(over[-1]).get("DatasetName")

    def aggregate(self, first: int, last: int) -> str | None:
        """The head over these columns that names an aggregate ("Average", "Avg .", "All",
        "Overall") of a row of heads two others of which name data ("MR CR SUBJ ... Average",
        "Ar De He ... All"): its numbers are over those data, no one of them's; else None."""
        for head in reversed(self.cells):
            if head.first <= last and first <= head.last and fold(head.text) in AGGREGATES:
                data = {fold(h.text) for h in self.cells if h.paragraph == head.paragraph and h is not head
                        and h.first > 0 and ("DatasetName" in self.namer.names(h) or is_language(h.text))}
                return head.text if len(data) >= 2 else None
        return None

    def split_sizes(self, first: int, last: int) -> bool:
        """Whether the lowest head over these columns is a split's ("Test") in a row of heads of
        splits only, one of them the training set's ("Train Dev Test", "Train / Dev / Test"):
        its numbers are the splits' sizes."""
        over = [h for h in self.cells if h.first <= last and first <= h.last]
        if not over:
            return False
        row = [h for h in self.cells if h.paragraph == over[-1].paragraph and h.first > 0]
        splits = [fold(part) for h in row for part in re.split(r"\s*/\s*", h.text)]
        return bool(splits) and all(s in _SPLIT_HEADS for s in splits) and bool({"train", "training"} & set(splits))

    def siblings_name(self, name: str, first: int, last: int) -> bool:
        """Whether ``name`` is the data a head beside the one over these columns names (the
        "MSRP" of "MSRP MR ... Average", read for the "Average" column)."""
        key = fold(name)
        return any(h.paragraph == head.paragraph and not (h.first <= last and first <= h.last)
                   and key and (key == fold(h.text) or key == fold(self.namer.names(h).get("DatasetName", "")))
                   for head in self.cells if head.first <= last and first <= head.last for h in self.cells)

    def column(self, first: int, last: int) -> Column:
        """The names the heads over these columns give (top to bottom: the lowest of a type
        wins, a sub-metric under a wider metric head is qualified by it), why its numbers are
        no scores, and its heads that name nothing (asked once a table for each span of columns;
        the answer is shared, not to be changed)."""
        if (first, last) not in self._columns:
            self._columns[(first, last)] = self._read_column(first, last)
        return self._columns[(first, last)]

    def _read_column(self, first: int, last: int) -> Column:
        above = [head for head in self.cells if head.first <= last and first <= head.last or (
            head.first > 0 and first > 0 and head.paragraph in self.metric_rows)]  # "Eval metric | Average reward": all
        joined: dict[TableCell, str] = {}  # "S2ORC-" over "SCIBERT": one head, "S2ORC-SCIBERT"
        for upper, lower in zip(above, above[1:]):
            if re.search(r"[-–]$", upper.text) and (upper.first, upper.last) == (lower.first, lower.last):
                joined[lower] = upper.text + lower.text
                joined[upper] = ""
        names: dict[str, str] = {}
        reason: str | None = None
        unnamed: list[str] = []
        metric_width = 0
        prose = {row for row in {h.paragraph for h in above}
                 if is_prose(" ".join(h.text for h in self.cells if h.paragraph == row))}
        for head in above:
            text = joined.get(head, head.text)
            if head.paragraph in prose:
                continue  # a line of the caption or the body text the PDF reader set in the table
            # (a head the caption spells out as no score, "RR denote the run ranking", is none even
            # where tagged as a metric; not a legend of settings and sizes, "BSZ : Batch Size", "MSL :
            # Maximum Sequence Length", a hyperparameter table's, whose columns are settings already)
            spelt = not_score_head(self.caption.legend.get(fold(text), ""))
            spelt = None if spelt in ("count", "setting") else spelt
            why = not_score_head(text) or spelt
            if text.strip() == "p" and _SIGNIFICANCE.search(self.caption.text):
                reason = "p-value"  # "d p" under each model, "significance ... p-scores" in the caption
                names.pop("MetricName", None)
                continue
            if says_nothing(text):
                if why is not None:  # "∆", "σ": no letter, still a difference, a deviation
                    reason = why
                    names.pop("MetricName", None)
                continue
            if head in joined:
                named = dict([found]) if (found := self.namer.name(text, None)) else {}
                if not named and (kind := self.row_kind(head)) is not None:
                    named = {kind: text}
            elif text == "B" and any(re.match(r"(?:MUC|CEAF)", h.text) for h in self.cells
                                     if h.paragraph == head.paragraph):
                named = {"MetricName": "B3"}  # "MUC B3 CEAF" with the superscript lost
            elif head.first > 0 and head.paragraph in self.metric_rows:
                named = {"MetricName": text}  # "Average reward" right of "Eval metric", over other heads
            else:
                named = self.namer.names(head)
                if len(named) == 1 and set(named) <= {"MethodName", "TaskName"} \
                        and (self.lone_method(head) or self.row_kind(head, named=True) == "DatasetName"):
                    # "MNLI - mm" tagged as a method, "SST" as a task, amid a row of dataset heads;
                    # methods fewer than the data beside them ("WS - SIM" and "MC-30" beside
                    # "WS-353", "RG-65" and "MTurk-287")
                    named = {"DatasetName": next(iter(named.values()))}
            if why is not None and (spelt or not {"MetricName", "DatasetName", "HyperparameterName"} & set(named)
                                    or re.match(r"\s*[Δ∆]", text)):  # "∆bpc", tagged as a metric: still a difference
                reason = why
                names.pop("MetricName", None)  # "Sents" under "Source": a count, whatever is above
                continue
            if not named and (split := _SPLIT_METRIC.fullmatch(text)) and metric_like(split.group(1)):
                named = {"MetricName": split.group(1)}  # "Test BPC", "Dev F1": the metric, on that split
            if "MetricName" not in named and (said := _HEAD_METRIC.fullmatch(text)) \
                    and (metric_like(said.group(2)) or metric_pair(said.group(2))):
                # "CoLA ( MCC )", "Overall ( Acc )", "SQuAD v1.1 ( F1 / EM )" over "93.1/87.2": the
                # metric(s) in the parentheses, the rest the data's
                named = {k: _HEAD_METRIC.sub(r"\1", v) for k, v in named.items()} | {"MetricName": said.group(2)}
                if not named.keys() - {"MetricName"} and not says_nothing(said.group(1)) \
                        and re.search(r"[A-Za-z]{2}", said.group(1)):
                    unnamed.append(said.group(1))
            if "MetricName" in named:
                reason = None
            legend = self.caption.legend.get(fold(text))
            if legend is not None and "MetricName" in named and not metric_like(legend):
                named = {"TaskName": legend}  # "CITE" defined as "Citation prediction": a task, not a metric
            metric = named.get("MetricName")
            if metric is not None and fold(metric) in self.caption.by_name:  # "MRPC": the caption's dataset
                named["DatasetName"] = named.pop("MetricName")
                metric = None
            if metric is not None:
                width = head.last - head.first
                if "MetricName" in names and width < metric_width and fold(metric) in _SUB_METRIC \
                        and fold(metric) != fold(names["MetricName"]):
                    named["MetricName"] = f"{names['MetricName']} {metric}"
                metric_width = width
            nameless = not named and not self.namer.all_names(head)
            if nameless and (kind := self.row_kind(head)) is not None:
                named = {kind: ENUMERATOR.sub("", text)}  # "I-VILA" beside "GROBID CRF" and "RoBERTa": a method too
            data = named.get("DatasetName")
            if data and text.rstrip()[-1:] in ("*", "∗", "⋆") \
                    and re.fullmatch(rf"{re.escape(data)}\s?[*∗⋆]", text.strip()) \
                    and data in self.namer.cell_texts:
                # "NYT *" where a table of the paper heads a column "NYT" too: the variant its star marks
                named = {**named, "DatasetName": f"{data}*"}
            if named:
                names.update(named)
            elif nameless and len(text.split()) <= 4 and not names_setting(text) \
                    and re.search(r"[A-Za-z]{2}|[A-Za-z]\s?(?:→|->)\s?[A-Za-z]", text) \
                    and not re.fullmatch(r"\(.*\)", text):
                unnamed.append(ENUMERATOR.sub("", text))  # "D → L", not "φ4", "T", "B": pieces and marks
        if any(_CHECK_MARK.fullmatch(h.text.strip()) for h in above):
            unnamed = []  # "Word embeddings" over "✓ ✗": with and without them, a setting, no data
        return Column(names, reason, unnamed)


# A head that is a heading of hyper-parameters, numbered or not ("A.2 HYPER - PARAMETERS",
# "Hyperparameter settings"), not prose that mentions them.
_HYPERPARAMETERS = re.compile(r"\s*(?:[A-Z]?\d*(?:\.\d+)*\s+)?hyper\s?-?\s?parameters?"
                              r"(?:\s(?:settings|values|used))?\s*", re.I)
# Words of running text, seldom of a table's heads.
_FUNCTION_WORDS = frozenset({"the", "of", "for", "and", "between", "to", "in", "is", "are", "we", "our", "that", "which",
                             "with", "this", "these", "from", "by", "as", "be", "was", "were", "it", "its", "a", "an"})


def is_prose(text: str) -> bool:
    """Whether a head row reads as a line of running text: seven words or more, three of them
    words such as "the", "of", "and" ("between all pairs of words evaluated for the different
    embed-", a line of the text the PDF reader set in the table)."""
    words = text.split()
    return len(words) >= 7 and sum(w in _FUNCTION_WORDS for w in words) >= 3


def counts_heads(cells: Sequence[TableCell]) -> bool:
    """Whether two different heads or more of ``cells`` over columns of numbers head counts ("#
    Docs", "Words", "Sents"); not the model's size ("# Params", "# FLOPs" beside the scores of
    a results table), nor the label of a row of counts ("# of train samples" left of its "440 K")."""
    # distinct heads: "Words" after each of three "R-1 R-2 R-L BS" groups is one count column, repeated
    return len({fold(h.text) for h in cells if h.first > 0 and not_score_head(h.text) == "count"
                and not _MODEL_SIZE.search(h.text)}) >= 2


def join_split_heads(row: list[TableCell], known: Known) -> list[TableCell]:
    """A head row with the words of one head that the layout set in two columns joined again: a
    head of one word in lower case continues the head left of it where the two are a name the
    paper tags or a metric, one in capitals where the two are a metric or data the paper tags
    and neither alone is a name ("Citation" "prediction": one head "Citation prediction" over both
    columns; "CEAF" "φ4"; "Exact" "Match"; "Daily" "Mail"; not "Dev"
    "layers", two heads; not "r" "ρ", whose "ρ" folds to nothing)."""
    joined: list[TableCell] = []
    for cell in row:
        words = cell.text
        version = bool(re.fullmatch(r"v\d+(?:\.\d+)+", words)) and bool(joined) \
            and bool(re.search(r"[A-Za-z]{2}", joined[-1].text)) and not metric_like(joined[-1].text)
        if joined and (re.fullmatch(r"[^\W\d_]\w*", words) or version) and joined[-1].first > 0 \
                and (words[0].islower() or metric_like(f"{joined[-1].text} {words}")
                     or ("DatasetName" in known(f"{joined[-1].text} {words}")
                         and not known(words) and not known(joined[-1].text))) \
                and joined[-1].end == cell.start and joined[-1].last + 1 == cell.first \
                and fold(both := f"{joined[-1].text} {words}") != fold(joined[-1].text) \
                and (known(both) or metric_like(both) or version):
            left = joined.pop()
            cell = TableCell(cell.paragraph, left.start, cell.end, left.first, cell.last, both)
        joined.append(cell)
    return joined


def widen(header: list[TableCell]) -> list[TableCell]:
    """A header block with each head set over one column of a group of sub-heads widened over
    the whole group: the lowest head row repeats a pattern ("EM F1 EM F1", "P R F1 P R F1 ...
    Avg. F1"), each repeat is a group, and a head of a row above that falls within one group,
    alone in its row, heads all of it ("Laptop" set at the left of its "EM F1", "RoBERTa" in
    the middle of its "P R F1": dataset and model heads that span several columns)."""
    rows: dict[int, list[TableCell]] = {}
    for cell in header:
        rows.setdefault(cell.paragraph, []).append(cell)
    ordered = [sorted(row, key=lambda c: c.first) for row in rows.values()]
    if len(ordered) < 2:
        return header
    sub = [c for c in ordered[-1] if c.first > 0]
    keys = [fold(c.text) for c in sub]
    # The longest run of a repeated pattern, wherever it starts ("F1 F1 MAP nDCG MAP nDCG ...":
    # "MAP nDCG" from the third head on).
    period, offset, repeats = 0, 0, 0
    for at in range(len(keys)):
        for n in range(2, (len(keys) - at) // 2 + 1):
            if keys[at + n:at + 2 * n] != keys[at:at + n] or len(set(keys[at:at + n])) < 2:
                continue
            count = 2
            while keys[at + count * n:at + (count + 1) * n] == keys[at:at + n]:
                count += 1
            if count * n > period * repeats:
                period, offset, repeats = n, at, count
    groups = [(sub[offset + k * period].first, sub[offset + (k + 1) * period - 1].last) for k in range(repeats)]
    whole = (sub[0].first, sub[-1].last) if sub else None
    widened = list(ordered[-1])
    if not groups and whole is not None and all(metric_like(c.text) for c in sub):
        # (over metric heads only: over "News Forum ... Headlines", "STS 2014" set over the
        # fourth of six is not known to head them all)
        ordered = [*(tiled(row, whole) for row in ordered[:-1]), ordered[-1]]
    for row in ordered[:-1]:
        for cell in row:
            inside = [g for g in groups if g[0] <= cell.last and cell.first <= g[1]]
            if len(inside) != 1 and whole is not None and whole[0] <= cell.last and cell.first <= whole[1] and (
                    cell.first == cell.last or abs(
                    cell.first + cell.last - sum(whole)) <= (whole[1] - whole[0] + 1) / 3):
                # Over no group or several, over one column (its width unknown) or set about the
                # middle of all heads ("English" over its block's "Dev Test"): all of them
                # ("Recomm ." set over the last two of twelve: its own).
                inside = [whole]
            alone = len(inside) == 1 and not any(o is not cell and inside[0][0] <= o.last and o.first <= inside[0][1]
                                                 for o in row)
            if cell.first > 0 and alone:
                first, last = min(cell.first, inside[0][0]), max(cell.last, inside[0][1])
                cell = replace(cell, first=first, last=last)
            widened.append(cell)
    return sorted(widened, key=lambda c: (header.index(next(h for h in header if h.paragraph == c.paragraph)), c.first))


def tiled(row: list[TableCell], whole: tuple[int, int]) -> list[TableCell]:
    """A head row of two heads or more over the number columns, each set about the middle of
    the columns it heads ("DBQA" over the second of "MAP MRR P@1", "KBRE" over "P@1 MRR"),
    each widened over the columns nearer its middle than any other's; any other row as it is
    (one overlapping another, over the label column, or fewer than two)."""
    heads = sorted(row, key=lambda c: c.first)
    if len(heads) < 2 or heads[0].first < whole[0] or any(a.last >= b.first for a, b in zip(heads, heads[1:])):
        return row
    middles = [(c.first + c.last) / 2 for c in heads]
    spans: dict[int, list[int]] = {}
    for column in range(whole[0], whole[1] + 1):
        nearest = min(range(len(heads)), key=lambda k: (abs(middles[k] - column), k))
        spans.setdefault(nearest, []).append(column)
    return [replace(c, first=min(c.first, *spans.get(k, [c.first])), last=max(c.last, *spans.get(k, [c.last])))
            for k, c in enumerate(heads)]
