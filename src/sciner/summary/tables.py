"""Values and results read off a paper's tables (PDFs read with ``--include tables``).

A table row carries its ``table`` and its ``cells`` (token ranges and the columns each covers;
see :mod:`sciner.pdf.tables`). Rows are read top to bottom:

* a row holding a number is a *data row*: the cells left of its first number are its label;
* the rows above the first data row are the table's *header*; a row of several cells without
  numbers below data rows starts a new header block (stacked sub-tables: "Test P R F1" under
  the "Dev" block);
* a row of one cell in the label column and no number is a *group label* ("Published",
  "Ours", "Dev (all lengths)"): a group labelled "Ours" holds the paper's own rows.

A cell's text is a name of the type the paper tags it with most often, else of the type the
model tagged in it here, else a metric when it reads as one (:func:`metric_like`: "BLEU",
"R-1", "EM", "Acc.", "MF1"), else of a type the shared gazetteers list it under; split names
("Dev", "Test") name nothing, for they head columns of every metric. Every number of a data
row's body is then accounted for, as

* a *result* (a MetricValue): its metric is the lowest metric head above it (a sub-metric such
  as "F1" under a spanning "MUC" is "MUC F1"), else its row's, else the one its caption gives
  its dataset or the table ("F1 scores are reported for QQP and MRPC", "All values are F1
  scores"), else the paper's only metric; its dataset, task and model come from the heads,
  the row's label and the caption, a head that names nothing ("Laptop", "Arabic") qualifying
  the dataset; where a head names the method ("SSK-T1" over a column), the row's label is
  the dataset; an "x / y" cell is two results;
* a HyperparameterValue when its column's heads name a HyperparameterName and no metric;
* else a :class:`~sciner.summary.values.NotResult` with its reason: a "difference" ("+0.25",
  a Δ column, "(19 %)" after a score), a "deviation" (the "± 0.17" of a score, a "std"
  column), a "count" ("#Docs", "N"), a "p-value", a "size", a "time", a "setting" (a
  hyperparameter's value; a number labelling its row, such as a threshold), or "no metric".
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from sciner.document import Paragraph
from sciner.labels import NAME_TYPES
from sciner.pdf.clean import caption_label
from sciner.summary.names import Gazetteer, fold
from sciner.summary.ours import CITATION, CITED
from sciner.summary.values import NotResult, Result, Value

# Column heads that name a split or an aggregate, never the metric itself, though leaderboards
# list some of them as metrics; and words that say what a label column lists.
SPLITS = frozenset({"dev", "development", "test", "train", "training", "validation", "valid", "val", "average",
                    "avg", "mean", "all", "overall", "ours", "our", "baseline", "baselines"})
_LABEL_HEADS = frozenset({"model", "method", "system", "approach", "algorithm", "encoder", "architecture",
                          "dataset", "data", "corpus", "task", "domain", "category", "structure", "input", "output",
                          "setting", "configuration", "type", "language", "lang", "field", "subtask", "metric",
                          "description", "variant", "hint", "target", "length", "lengths", "evaluatedtask",
                          "trainingsignal", "modelvariant", "encoderarchitecture", "doclength", "segmentlength"})
# A number as a table cell prints it: "92.8", "-0.5", "95.4 %", "86.2*", "81.32 a" (a footnote mark).
_NUMBER = r"[-+−]?\d+(?:[.,]\d+)?"
_MARK = r"(?:\s?[*†‡§¶♣♦♠♥]+|\s[a-d])?"
# A year in a head ("SemEval 2010"): a name's part, not a number of the body.
_YEAR = re.compile(r"^(?:19|20)\d\d[a-z]?$")
# What a number-like head row prints under a dataset: "392k", "8.5k", "1.2M".
_AMOUNT = re.compile(r"^\d+(?:[.,]\d+)?\s?[kKmMbB]$")

# Heads that read as a metric though nothing tags them (checked on the folded head, its
# parentheses and arrows dropped): "BLEU", "ROUGE-1", "R-L", "EM", "R1(%)", "Acc.", "MF1", "P@1".
_METRIC_HEAD = re.compile(
    r"^(?:bleu\d?|sacrebleu|chrf\d*|meteor|cider|ter|rouge(?:1|2|l|lsum)?|r(?:1|2|l)(?:f1?)?|rouge\w*f1?|em|exactmatch|"
    r"f|f1|f05|f2|microf1|macrof1|mf1|weightedf1|avgf1|averagef1|conllf1|p|r|prec|precision|rec|recall|acc|accuracy|"
    r"mcc|auc|rocauc|prauc|map|mrr|ndcg\d*|hits\d+|p\d+|r\d+|recall\d+|precision\d+|uas|las|ppl|perplexity|"
    r"wer|cer|err|error|errorrate|bertscore|bs|bsf1|spearman|pearson|kendall|kappa|fleiss|corr|correlation|"
    r"lr|lp|lf1|ur|up|uf1|sacc|exec|execacc|bits|bpc|bpb|ent|humaneval|cov|coverage|ucm|lcm|"
    r"muc|b3|ceaf(?:[em]|φ)?\d*|blanc|lea)$")
# Sub-metrics that a spanning metric head above qualifies ("MUC" over "F1" is "MUC F1").
_SUB_METRIC = frozenset({"p", "r", "f", "f1", "prec", "precision", "rec", "recall", "acc", "accuracy", "em",
                         "uas", "las", "map", "ndcg"})
# Heads of columns that hold no scores, and what their numbers are.
_NOT_SCORE_HEADS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"(?:^|\s)(?:Δ|∆|δ|diff\.?|difference|gain|improvement|increase|decrease|change|impr\.?)(?:\s|$|\()",
                re.I), "difference"),
    (re.compile(r"(?:^|\s)(?:std\.?|stdev|s\.d\.|sd|σ|variance|var\.?)(?:\s|$)", re.I), "deviation"),
    (re.compile(r"(?:^|\s)p(?:\s?-\s?value|\s?<|\s?val)", re.I), "p-value"),
    (re.compile(r"^(?:#|n$|num\b|number\b|count\b|no\.\s|size\b)|(?:#\s?\w+|\bcount|\bsize)$|"
                r"(?:^|\s)(?:words|tokens|sents?|sentences|docs|documents|examples|samples|pairs|queries|papers|"
                r"instances|types|classes|labels|vocab|mentions|entities|relations|citations|length|len\.?)"
                r"(?:\s|$|\()", re.I), "count"),
    (re.compile(r"(?:^|\s)(?:params|parameters|#params|mb|gb|memory|flops)(?:\s|$|\()", re.I), "size"),
    (re.compile(r"^(?:beam(?:\s?size)?|thr\s?\.?|threshold|k|λ|α|β|γ|τ|temperature|epochs?|layers?|dim|window|"
                r"seed|batch(?:\s?size)?)$", re.I), "setting"),
    (re.compile(r"(?:^|\s)(?:time|speed|secs?|seconds|ms|hours?|min|mins|minutes|days|latency|throughput|"
                r"sents?/s|tokens?/s)(?:\s|$|\()", re.I), "time"),
)
_PARENTHESES = re.compile(r"\([^()]*\)")
_LABEL_METRIC = re.compile(r"^(.*\S)\s*(?:\(\s*([^()]+?)\s*\)|\s-\s([A-Za-z0-9@]+))$")  # "DEP ( LAS )", "GENIA - LAS"
_QUALIFIER = re.compile(r"\s(?:±|\+/-|/|,)\s")
_ENUMERATOR = re.compile(r"^\(\s?[a-z0-9]\s?\)\s*")  # "( a ) CA"
# Languages (and their ISO codes as treebank tables print them): a column or row of one is
# data, never a task or a model.
LANGUAGES = frozenset("""english german french spanish chinese arabic basque hebrew hungarian korean polish swedish
dutch italian japanese portuguese russian czech danish bulgarian catalan romanian slovene slovenian turkish
norwegian estonian finnish greek hindi latvian lithuanian persian ukrainian vietnamese indonesian
ar bg ca cs da de el en es et eu fa fi fr ga gl he hi hr hu id it ja ko la lt lv nl pl pt ro ru sk sl sr sv tr uk ur
vi zh""".split())
_LANGUAGE_CODES = frozenset({w for w in LANGUAGES if len(w) == 2} | {"et", "lv", "lt", "kk", "gu", "ha", "is", "ps",
                                                                    "km", "ne", "si", "ta", "iu", "zu", "xh", "sw"})
# A text -> each type the paper tags it with, and under that type the entity's name and its
# number of mentions ({} when the paper never tags it).
Known = Callable[[str], dict[str, tuple[str, int]]]
# Of the types a paper tags one text with equally often, a head names the first of these, a row
# label the first of those: tables head their columns with metrics and datasets and list
# methods down their rows.
HEAD_ORDER = ("MetricName", "DatasetName", "TaskName", "HyperparameterName", "MethodName")
ROW_ORDER = ("MethodName", "DatasetName", "TaskName", "MetricName", "HyperparameterName")
# The types a gazetteer may give a header cell the paper does not tag, in the order tried; no
# metric ("List", "Table" and "Title" are metrics of some leaderboard: :func:`metric_like`
# reads the heads that are), and a row label takes none.
GAZETTEER_ORDER = ("DatasetName", "TaskName", "MethodName")


def says_nothing(text: str) -> bool:
    """A cell that names nothing: a split ("Dev"), a label column's head ("Model"), a number
    or an amount ("392k"), or no letter or digit at all."""
    key = fold(text)
    return not key or key in SPLITS or key in _LABEL_HEADS or bool(_AMOUNT.match(text.strip())) \
        or bool(cell_numbers(text))


def is_language(text: str) -> bool:
    """A language's name ("Chinese") or its code as treebank tables print it, in lower case
    ("ro"; "PL" is an acronym)."""
    key = fold(text)
    return key in LANGUAGES and (len(key) > 2 or text.strip().islower())


def is_language_pair(text: str) -> bool:
    """A translation direction: "English - Estonian", "En→De", "de-en"."""
    parts = re.split(r"\s*(?:-|–|→|->|>)\s*", text.strip())
    return len(parts) == 2 and all(fold(p) in LANGUAGES or fold(p) in _LANGUAGE_CODES for p in parts)


def metric_like(text: str) -> str | None:
    """The head's text when it reads as a metric though nothing tags it ("ROUGE-1", "R1(%)",
    "Acc.", "MF1", "P@1"), else None."""
    bare = re.sub(r"[↑↓]|\((?:%|↑|↓|\s)*\)", " ", text).strip()
    key = fold(bare.replace("@", " "))
    return bare if key and _METRIC_HEAD.match(key) else None


def not_score_head(text: str) -> str | None:
    """Why the numbers under this head are no scores ("difference" under "Δ", "count" under
    "#Docs", "time" under "Time (secs)"), or None."""
    return next((reason for pattern, reason in _NOT_SCORE_HEADS if pattern.search(text)), None)


_ONE = rf"({_NUMBER})\s?(%?)(?:\s*(?:±|\+/-|\+ / -)\s*({_NUMBER})\s?%?)?"
# One cell: a score (its ± deviation), then another score after "/", "," or "[" ("80.6/80.1",
# "92.80±0.26 [ 88.36±0.18 ]"), or a difference in parentheses ("0.907 ( 19 % )").
_CELL = re.compile(rf"^{_ONE}(?:\s*(?:/|,|\[)\s*{_ONE}\s*\]?|\s*\(\s*([-+−]?\d+(?:[.,]\d+)?\s?%?)\s*\))?{_MARK}$")


def cell_numbers(text: str) -> list[tuple[str, str | None]]:
    """The numbers of a body cell, each with None (a score) or why it is none: "88.7 ± 0.17"
    -> [("88.7", None), ("0.17", "deviation")]; "80.6/80.1" -> two scores; "0.907 ( 19 % )"
    -> a score and a "difference"; "+0.25" -> a "difference"; [] for a cell that is no number."""
    text = text.strip()
    if re.match(r"^[-+−]?\d", text):
        text = re.sub(r"(\d) \. (\d)", r"\1.\2", text)
    match = _CELL.match(text)
    if match is None:
        return []
    first, percent, deviation, second, percent2, deviation2, difference = match.groups()
    found: list[tuple[str, str | None]] = [(first + percent, "difference" if first.startswith("+") else None)]
    if deviation:
        found.append((deviation, "deviation"))
    if second:
        found.append((second + percent2, "difference" if second.startswith("+") else None))
        if deviation2:
            found.append((deviation2, "deviation"))
    if difference:
        found.append((difference.replace(" ", ""), "difference"))
    return found


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


@dataclass
class Caption:
    """What a caption says of its table: the one name of each type it gives (a caption naming
    three datasets says nothing of which column is which), and the metric it gives each
    dataset or task it names after a metric ("F1 for QQP and MRPC; accuracy for the other
    tasks": ``by_name`` {"qqp": "F1", "mrpc": "F1"}, ``default`` "accuracy")."""

    names: dict[str, str] = field(default_factory=dict)
    by_name: dict[str, str] = field(default_factory=dict)
    default: str | None = None
    legend: dict[str, str] = field(default_factory=dict)  # "CITE : Citation prediction": {"cite": ...}


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
        if cell.first != cell.last and gazetteer:
            p = self.paragraphs[cell.paragraph]
            covered = sum(min(s.end, cell.end) - max(s.start, cell.start) for s in p.spans or []
                          if s.label in NAME_TYPES and s.start < cell.end and cell.start < s.end)
            if covered and 2 * covered < cell.end - cell.start:
                return {}  # "SemEval 2010 KBP37 TACRED" over three columns, "SemEval" tagged: whose is not known
        # Several names of one type in a cell over one column ("SSK – MIL", both tagged as methods):
        # the cell's whole text is the one name.
        return {label: next(iter(names)) if len(names) == 1 else _ENUMERATOR.sub("", cell.text(self.paragraphs))
                for label, names in found.items() if len(names) == 1 or cell.first == cell.last}

    def all_names(self, cell: TableCell, gazetteer: bool = True) -> dict[str, set[str]]:
        """Every name of each type in the cell (``gazetteer``: a head, looked up there too)."""
        p = self.paragraphs[cell.paragraph]
        text = cell.text(self.paragraphs)
        pieces = [(" ".join(p.tokens[max(s.start, cell.start):min(s.end, cell.end)]), s.label) for s in p.spans or []
                  if s.label in NAME_TYPES and s.start < cell.end and cell.start < s.end]
        if len(pieces) == 1 and (self.known(text) or (gazetteer and metric_like(text))
                                 or (text.startswith(pieces[0][0]) and re.search(r"\([^()]*/[^()]*\)\s*$", text))
                                 or (gazetteer and pieces[0][1] == "MethodName" and text.startswith(pieces[0][0])
                                     and len(text[len(pieces[0][0]):].split()) <= 2
                                     and re.search(r"\w", text[len(pieces[0][0]):]) and not metric_like(text))):
            # "BERT -" tagged in "BERT - PT", "MNLI-(m" in "MNLI-(m / mm )", "GROBID" in a head
            # "GROBID NN": the cell is the name
            pieces = [(text, pieces[0][1])]
        found: dict[str, set[str]] = {}
        for piece, tagged in pieces or [(text, None)]:
            named = self.name(piece, tagged, gazetteer)
            if named is not None:
                found.setdefault(named[0], set()).add(named[1])
        return found

    def name(self, text: str, tagged: str | None, gazetteer: bool = True) -> tuple[str, str] | None:
        """(type, name) of a cell's text: the type the paper tags it with most often (in the
        paper's spelling; a tie goes to a head's first in :data:`HEAD_ORDER`, a row label's in
        :data:`ROW_ORDER`), else the type the model tagged here, else (``gazetteer``: a head) a
        metric when it reads as one, else the first type the gazetteers list it under; tried as
        it is, without parentheses ("F1 ( base )"), and without what follows a "±" or "/"."""
        if gazetteer and (pair := re.fullmatch(r"\s*(\S[^\[\]]*?)\s*\[\s*([^\[\]]+?)\s*\]\s*", text)) \
                and metric_like(pair.group(1)) and metric_like(pair.group(2)):
            return "MetricName", text  # "UAS [ LAS ]" over "80.34 [ 68.58 ]": both, split per score
        bare = _PARENTHESES.sub(" ", text).strip()
        spellings = [t for t in dict.fromkeys((text, bare, _QUALIFIER.split(bare)[0].strip())) if not says_nothing(t)]
        order = HEAD_ORDER if gazetteer else ROW_ORDER
        for spelling in spellings:
            known = self.known(spelling)
            if known:
                label = max(known, key=lambda k: (known[k][1], -order.index(k)))
                if gazetteer and label in ("MethodName", "HyperparameterName") and metric_like(text):
                    return "MetricName", known.get("MetricName", (text, 0))[0]  # "UAS" over a column
                name = known[label][0]
                if spelling != text and re.search(r"\(\s*[^()/]+/[^()/]+\)\s*$", text):
                    return label, text  # "MNLI-(m / mm )": both names, split per score of its "x / y" cells
                # A metric in the cell's own spelling where the entity's differs only in form
                # ("R-1", not a leaderboard's "R@1").
                keep = label == "MetricName" and fold(name) == fold(spelling)
                # A method over a column in the head's own words ("GROBID NN" beside "GROBID CRF",
                # not the entity's "Grobid").
                keep = keep or (gazetteer and label == "MethodName" and spelling == text and fold(name) != fold(text))
                return label, spelling.replace(" - ", "-") if keep else name
        if tagged is not None:
            if gazetteer and tagged in ("MethodName", "HyperparameterName") and metric_like(text):
                return "MetricName", text  # "LCM" tagged as a method over a column
            return (tagged, text) if spellings else None
        if not gazetteer:
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

    def caption(self, index: int | None) -> Caption:
        """What the caption paragraph says of its table (see :class:`Caption`)."""
        if index is None:
            return Caption()
        p = self.paragraphs[index]
        # Not a name that modifies the next word ("Document - level evaluation": no task "Document").
        spans = sorted((s for s in p.spans or [] if s.label in NAME_TYPES
                        and [w.lower() for w in p.tokens[s.end:s.end + 2]] not in (["-", "level"], ["-", "based"])),
                       key=lambda s: s.start)
        names: dict[str, set[str]] = {}
        texts = {}
        labels = {}
        for s in spans:
            text = " ".join(p.tokens[s.start:s.end])
            label = s.label
            if label == "DatasetName" and [w.lower() for w in p.tokens[s.end:s.end + 1]] in (
                    ["system"], ["model"], ["parser"], ["tool"]):
                label = "MethodName"  # "Results of the ScienceParse system": a method, whatever it was tagged
            texts[s] = self.known(text).get(label, (text, 0))[0]
            if label == "MetricName":  # "Area Under Precision - Recall Curve": the area, not the curve
                before = [w.lower() for w in p.tokens[max(0, s.start - 3):s.start]]
                if before[-1:] in (["average"], ["averaged"], ["mean"]) and not text.lower().startswith(before[-1]):
                    texts[s] = f"{p.tokens[s.start - 1]} {texts[s]}"  # "average F 1 for Coref"
                after = [w.lower() for w in p.tokens[s.end:s.end + 1]]
                if before[-2:] == ["area", "under"] or before[-3:] == ["area", "under", "the"]:
                    curve = "curve" in text.lower().split() or after != ["curve"]
                    texts[s] = f"area under {texts[s].replace(' / ', '/')}{'' if curve else ' curve'}"
            names.setdefault(label, set()).add(texts[s])
            labels[s] = label
        # One metric spelled twice ("EM ( Exact Match )") or named by two spans ("Accuracy of
        # Exact Matching") is one.
        metrics = [s for s in spans if s.label == "MetricName"]
        for a, b in zip(metrics, metrics[1:]):
            between = p.tokens[a.end:b.start]
            if between == ["("]:
                names["MetricName"].discard(texts[b])
            elif between == ["of"]:
                names["MetricName"] -= {texts[a], texts[b]}
                names["MetricName"].add(f"{texts[a]} of {texts[b]}")
        told = Caption({label: found.pop() for label, found in names.items() if len(found) == 1})
        if "MetricName" not in names:  # "All values are F1 scores": a metric no tag gives
            # a word ("accuracies") or said of the numbers ("F1 scores", "values are", "in terms of"),
            # not "RL trained models"
            said = {"score", "scores", "values", "value", "are", "in", "report", "reported", "measured", "(", "%"}
            words = [m for i, w in enumerate(p.tokens[4:], 4) if (m := metric_like(w)) and len(w) > 1
                     and w.lower() not in ("p", "r")
                     and (len(w) >= 5 or said & {t.lower() for t in p.tokens[max(0, i - 2):i] + p.tokens[i + 1:i + 3]})]
            if len(set(words)) == 1:
                told.names["MetricName"] = words[0]
        # Each metric and the datasets and tasks after it up to the next metric or ";": its own.
        metric: str | None = None
        end = 0
        for s in spans:
            if s.label == "MetricName":
                metric, end = texts[s], s.end
                if any(w.lower() in ("other", "others", "remaining", "rest") for w in p.tokens[s.end:s.end + 8]):
                    told.default = metric
            elif metric is not None and labels[s] in ("DatasetName", "TaskName", "MethodName"):
                if any(w in (";", ".") for w in p.tokens[end:s.start]):
                    metric = None
                    continue
                told.by_name.setdefault(fold(texts[s]), metric)
                end = s.end
        # A legend of the heads' abbreviations ("CLS : classification , USR : User activity"):
        # what each short head stands for.
        text = " ".join(p.tokens)
        for short, long in re.findall(r"(?:^|[,;.:(]\s)([A-Z][A-Za-z0-9\-]{1,7})\s:\s([^,;:.()]{3,60}?)(?=\s[,;.)]|$)", text):
            told.legend[fold(short)] = long.strip()
        if (metric := told.names.get("MetricName")) and fold(metric) in told.legend \
                and not metric_like(told.legend[fold(metric)]):
            del told.names["MetricName"]  # "REC : Recommendation" names a task
        if len(set(told.by_name.values()) | ({told.default} if told.default else set())) > 1:
            told.names.pop("MetricName", None)  # several metrics: each for its own datasets
        else:
            told.by_name, told.default = {}, None
        return told


def read_tables(paragraphs: Sequence[Paragraph], known: Known, gazetteer: Gazetteer | None = None,
                paper_metric: str | None = None) -> tuple[list[Value], list[Result], list[NotResult]]:
    """Every number of the paper's tables: the values that belong to a name, each MetricValue's
    result, and the numbers that are no result with why (see the module), in reading order.
    ``paper_metric``: the paper's only metric, for tables whose heads and caption name none."""
    namer = _Namer(paragraphs, known, gazetteer or Gazetteer.empty())
    values: list[Value] = []
    results: list[Result] = []
    others: list[NotResult] = []
    for (page, label), rows in table_rows(paragraphs).items():
        caption = namer.caption(caption_of(paragraphs, page, label))
        reader = _Table(namer, rows, caption, label, paper_metric)
        reader.read()
        values += reader.values
        results += reader.results
        others += reader.others
    return (sorted(values, key=lambda v: v.place), sorted(results, key=lambda r: r.place),
            sorted(others, key=lambda o: o.place))


@dataclass
class _Column:
    """What the heads over a column say: a name of each type, why its numbers are no scores
    (None: they may be), and the heads over it that name nothing (they qualify its dataset)."""

    names: dict[str, str]
    reason: str | None
    unnamed: list[str]


class _Table:
    """One table's rows read into values, results and not results (see the module)."""

    def __init__(self, namer: _Namer, rows: list[list[TableCell]], caption: Caption, label: str,
                 paper_metric: str | None) -> None:
        self.namer, self.rows, self.caption, self.label, self.paper_metric = namer, rows, caption, label, paper_metric
        self.values: list[Value] = []
        self.results: list[Result] = []
        self.others: list[NotResult] = []
        self.header: list[TableCell] = []
        self.columns: dict[tuple[int, int], _Column] = {}
        self.statistics = False  # the current header heads two columns or more of counts
        self.labelled = False  # some data row has a label
        self.base: str | None = None  # the last row's model that rows labelled "+ X" add to
        self.number_cells: list[TableCell] = []

    def text(self, cell: TableCell) -> str:
        return cell.text(self.namer.paragraphs)

    def row_kind(self, head: TableCell) -> str | None:
        """The type most heads of ``head``'s row name (two at least, and more than half of its
        heads right of the label column): the heads of one row are one kind of thing."""
        siblings = [h for h in self.header if h.paragraph == head.paragraph and h.first > 0]
        kinds = [k for h in siblings for k in self.namer.names(h) if k in ("MethodName", "DatasetName")]
        best = max(dict.fromkeys(kinds), key=kinds.count, default=None)  # ties: the first named, whatever the hash seed
        return best if best is not None and kinds.count(best) >= 2 and 2 * kinds.count(best) > len(siblings) else None

    def counts_heads(self) -> bool:
        """Whether two different heads or more of the header head counts ("# Docs", "Words", "Sents")."""
        # distinct heads: "Words" after each of three "R-1 R-2 R-L BS" groups is one count column, repeated
        return len({fold(self.text(h)) for h in self.header if not_score_head(self.text(h)) == "count"}) >= 2

    def label_head(self, cell: TableCell) -> str | None:
        """What the head over a label cell's column says it is: "Model", "Methods", "System"
        (MethodName), "Dataset", "Data", "Corpus", "Language", "Treebank" (DatasetName), "Task"
        (TaskName), "Category", "Field", "Doc length" (the part of the data: "qualifier"), "Domain",
        "Reference" (a setting: "setting"), or None."""
        for head in reversed(self.header):  # the lowest head over the column says it
            if head.first <= cell.first and cell.last <= head.last and head.last - head.first <= cell.last - cell.first:
                text = self.text(head)
                if "→" in text:  # "Task →": what the heads right of it are; "Model ↓ / Metric →": the rows
                    text = text.split("/")[0] if "↓" in text.split("/")[0] else ""
                key = fold(text)
                if key in ("model", "models", "method", "methods", "system", "systems", "approach", "algorithm"):
                    return "MethodName"
                if key in ("dataset", "datasets", "data", "corpus", "language", "lang", "treebank", "benchmark"):
                    return "DatasetName"
                if key in ("task", "tasks", "subtask"):
                    return "TaskName"
                if key in ("category", "field", "structure", "subset", "doclength", "segmentlength", "length"):
                    return "qualifier"  # "Abstract" under "Category": the part of the data measured
                if key in ("field", "domain", "reference", "ref", "citation", "source", "year", "type", "thr",
                           "threshold", "beam", "k", "n") or key in _LABEL_HEADS \
                        or "HyperparameterName" in self.namer.names(head):
                    return "setting"  # "Doc length", "Category", "Thr.": the row's setting, not its model
        return None

    def is_metric(self, cell: TableCell) -> bool:
        return "MetricName" in self.namer.names(cell)

    def read(self) -> None:
        # Rows labelled somewhere: an unlabelled row continues a label above it (a beam size
        # under "Basic"), it is not the caption's one method ("for the model X") as in a table
        # of one model's numbers.
        # The cells of numbers in data rows: a column holding none is a column of labels.
        # Each row's texts and which of its cells hold numbers, read once for the whole table.
        row_texts = [[self.text(c) for c in row] for row in self.rows]
        numbers = [[bool(cell_numbers(t)) for t in texts] for texts in row_texts]
        numeric = [[n and not _YEAR.match(t.strip()) for n, t in zip(flags, texts)]  # a year is a head's
                   for flags, texts in zip(numbers, row_texts)]
        self.number_cells = [c for row, flags in zip(self.rows, numeric) for c, n in zip(row, flags) if n]
        self.labelled = any(any(flags[1:]) and not flags[0] and not says_nothing(texts[0])
                            for flags, texts in zip(numbers, row_texts))
        block: list[TableCell] = []  # the header rows read since the last data row
        seen_data = False
        label_end = 0  # the first column of numbers in the last data row
        group_ours = after_group = False
        group_names: dict[str, str] = {}
        data = [any(flags) for flags in numeric]
        for index, row in enumerate(self.rows):
            texts = row_texts[index]
            if data[index]:
                if block:
                    if not any(self.is_metric(c) for c in block):
                        # A block naming only the data ("Chinese" over the English block's "UAS LAS
                        # ..."): the metric rows of the header above still head its columns.
                        rows = {c.paragraph for c in self.header if self.is_metric(c)}
                        block = block + [c for c in self.header if c.paragraph in rows]
                    self.header, self.columns, block = widen(block, self.text), {}, []
                    self.statistics = self.statistics or self.counts_heads()
                seen_data = True
                label_end = min(c.first for c, n in zip(row, numbers[index]) if n)
                self._read_row(row, texts, group_ours, group_names)
                continue
            if seen_data and (len(row) > 1 or row[0].first > 0 or texts[0].startswith("(")) \
                    and all(c.last < label_end for c in row):
                # "( final ) ensemble", "4 model", "( final ; run 2 )" under "System Configuration": a
                # row's labels set on several lines, no heads and no group label
                continue
            next_is_data = index + 1 < len(self.rows) and data[index + 1] and not any(
                re.search(r"[-–]$", self.text(c)) and (c.first, c.last) == (row[0].first, row[0].last)
                for c in (self.rows[index - 1] if index else []))  # "S2ORC-" over "SCIBERT": one head
            if len(row) == 1 and (seen_data or self.header or block) and (row[0].first == 0 or seen_data or next_is_data):
                # A group label: "Ours", "Published", "GloVe", "Test ( all lengths )", "Chinese".
                text = texts[0]
                group_ours = bool(re.search(r"\bours?\b", text, re.I))
                group_names = {k: v for k, v in self.namer.names(row[0], gazetteer=False).items()
                               if k in ("DatasetName", "TaskName")}
                if is_language(text) or is_language_pair(text):  # "Chinese", "English - Estonian"
                    group_names["DatasetName"] = text.replace(" - ", "-")
                after_group = True
                continue
            if seen_data and not block and not after_group:
                group_ours, group_names = False, {}
            after_group = False
            words = texts[0].split()
            if row[0].first == 0 and len(row) > 1 and len(words) > 1 and fold(words[-1]) in SPLITS \
                    and all(self.is_metric(c) or metric_like(self.text(c)) for c in row[1:]):
                # "WSJ Test" left of its block's "P R F1": the data of the block's rows
                group_names = {"DatasetName": " ".join(words[:-1])}
            block += join_split_heads(row, self.text, self.namer.known)
            if not seen_data:
                self.header = widen(block, self.text)
                self.statistics = self.counts_heads()
        # A table of heads only (no data row) holds no number to account for.

    def column(self, first: int, last: int) -> _Column:
        """The names the heads over these columns give (top to bottom: the lowest of a type
        wins, a sub-metric under a wider metric head is qualified by it), why its numbers are
        no scores, and its heads that name nothing."""
        if (first, last) in self.columns:
            return self.columns[first, last]
        above = [head for head in self.header if head.first <= last and first <= head.last]
        joined: dict[TableCell, str] = {}  # "S2ORC-" over "SCIBERT": one head, "S2ORC-SCIBERT"
        for upper, lower in zip(above, above[1:]):
            if re.search(r"[-–]$", self.text(upper)) and (upper.first, upper.last) == (lower.first, lower.last):
                joined[lower] = self.text(upper) + self.text(lower)
                joined[upper] = ""
        names: dict[str, str] = {}
        reason: str | None = None
        unnamed: list[str] = []
        metric_width = 0
        for head in above:
            text = joined.get(head, self.text(head))
            if says_nothing(text):
                continue
            why = not_score_head(text)
            if head in joined:
                named = dict([found]) if (found := self.namer.name(text, None)) else {}
                if not named and (kind := self.row_kind(head)) is not None:
                    named = {kind: text}
            elif text == "B" and any(re.match(r"(?:MUC|CEAF)", self.text(h)) for h in self.header
                                     if h.paragraph == head.paragraph):
                named = {"MetricName": "B3"}  # "MUC B3 CEAF" with the superscript lost
            else:
                named = self.namer.names(head)
            if why is not None and not {"MetricName", "DatasetName", "HyperparameterName"} & set(named):
                reason = why
                names.pop("MetricName", None)  # "Sents" under "Source": a count, whatever is above
                continue
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
                named = {kind: _ENUMERATOR.sub("", text)}  # "I-VILA" beside "GROBID CRF" and "RoBERTa": a method too
            if named:
                names.update(named)
            elif nameless and len(text.split()) <= 4 \
                    and re.search(r"[A-Za-z]{2}|[A-Za-z]\s?(?:→|->)\s?[A-Za-z]", text) \
                    and not re.fullmatch(r"\(.*\)", text):
                unnamed.append(_ENUMERATOR.sub("", text))  # "D → L", not "φ4", "T", "B": pieces and marks
        column = _Column(names, reason, unnamed)
        self.columns[first, last] = column
        return column

    def _read_row(self, row: list[TableCell], texts: list[str], group_ours: bool,
                  group_names: dict[str, str]) -> None:
        numbered = [cell for cell, text in zip(row, texts) if cell_numbers(text)]
        numbered_label = bool(numbered and numbered[0].first == 0 and row[0] is numbered[0] and len(numbered) > 1)
        if numbered_label:
            # A number in the label column labels its row ("0.55" a threshold, "128" a length).
            self._other(row[0], texts[0], "setting")
            numbered = numbered[1:]
        first_number = min(cell.first for cell in numbered)
        inner = next((k for k, (cell, text) in enumerate(zip(row, texts)) if cell.first > first_number
                      and not cell_numbers(text) and not says_nothing(text) and re.search(r"[A-Za-z]{2}", text)
                      and not any(c.first <= cell.first <= c.last for c in self.number_cells)), None)
        if inner is not None and any(cell_numbers(t) for t in texts[inner + 1:]):
            # A label in a column of labels amid the row ("Gold L" under "Target" in the right one
            # of two tables set side by side): the numbers right of it are its row's, not this one's.
            self._read_row(row[inner:], texts[inner:], group_ours, group_names)
            row, texts = row[:inner], texts[:inner]
            numbered = [cell for cell in numbered if cell in row]
            if not numbered:
                return
        labels = [cell for cell, text in zip(row, texts) if cell.last < first_number and not says_nothing(text)]
        row_names: dict[str, str] = {}
        model_cells = []
        row_language: list[str] = []
        typed: dict[str, list[str]] = {}
        for cell in labels:  # a row's label names what the paper or the model says, no gazetteer
            text = _ENUMERATOR.sub("", self.text(cell))
            if is_language(text):  # "ro" down a treebank table: the data's language
                row_language.append(text)
                continue
            kind = self.label_head(cell)  # "Dataset" over the cell ("( a ) CA", "BC5CDR ( Li et al . , 2016 )")
            if kind in ("DatasetName", "TaskName"):  # "SQuAD" under "TASK" is still the data it names
                named = self.namer.names(cell, gazetteer=False)
                kind = next((k for k in ("DatasetName", "TaskName") if k in named), kind)
            if kind is not None:
                typed.setdefault(kind, []).append(CITATION.sub("", text).strip() if kind != "MethodName" else text)
                if kind == "MethodName":
                    model_cells.append(cell)
                continue
            named = self.namer.names(cell, gazetteer=False)
            for kind, name in named.items():
                row_names.setdefault(kind, name)
            if not named or "MethodName" in named or not set(named) <= {"DatasetName", "TaskName", "MetricName"}:
                model_cells.append(cell)
        if "MethodName" in typed:  # "Methods" over the labels: a label tagged as data is still a method
            row_names.pop("DatasetName", None)
        for kind in ("DatasetName", "TaskName"):
            if kind in typed:
                row_names[kind] = " ".join(typed[kind])
        for kind in ("DatasetName", "TaskName"):
            # A metric the label gives its row: "DEP ( LAS )", "GENIA - LAS".
            if kind in row_names and (found := _LABEL_METRIC.match(row_names[kind])) \
                    and metric_like(metric := found.group(2) or found.group(3)):
                row_names[kind] = found.group(1)
                row_names.setdefault("MetricName", metric)
        if "DatasetName" in typed:  # a "Dataset" column says it, whatever the caption names
            row_names["TypedDataset"] = row_names["DatasetName"]
        if "qualifier" in typed:
            row_names["Qualifier"] = " ".join(typed["qualifier"])
        label_text = " ".join(_ENUMERATOR.sub("", self.text(cell)) for cell in model_cells) or None
        if label_text and re.match(r"[+＋]\s", label_text) and self.base:
            label_text = f"{self.base} {label_text}"  # "+ D&M" under "LISA": "LISA + D&M"
        elif label_text:
            # The model rows below starting with "+" add to (not one citing prior work: whose the
            # additions are is not known).
            self.base = None if CITED.search(label_text) or label_text[:1] in "+＋" else label_text
        ours = group_ours and not (label_text and CITED.search(label_text)) \
            or bool(label_text and re.search(r"\bours\b", label_text, re.I))
        label_reason = _row_reason(" ".join(self.text(cell) for cell in labels))
        for cell in numbered:
            if cell.last < first_number:
                continue
            if label_reason is not None:  # "Proportion 26 % 12 % ...", "% of training set 1 % 10 % ..."
                for number, _ in cell_numbers(self.text(cell)):
                    self._other(cell, number, label_reason)
                continue
            column = self.column(cell.first, cell.last)
            if row_language:
                column = _Column(column.names, column.reason, [*column.unnamed, *row_language])
            parts = cell_numbers(self.text(cell))
            scores = sum(why is None for _, why in parts)
            index = 0
            for number, why in parts:
                if why is not None:
                    self._other(cell, number, why)
                    continue
                self._number(cell, number, column, row_names, group_names, label_text, ours,
                             part=(index, scores) if scores > 1 else None, numbered_label=numbered_label)
                index += 1

    def _other(self, cell: TableCell, number: str, reason: str) -> None:
        self.others.append(NotResult(number, reason, (cell.paragraph, cell.start, cell.end), self.label))

    def _number(self, cell: TableCell, number: str, column: _Column, row: dict[str, str], group: dict[str, str],
                label_text: str | None, ours: bool, part: tuple[int, int] | None, numbered_label: bool) -> None:
        place = (cell.paragraph, cell.start, cell.end)
        heads = dict(column.names)
        if column.reason is not None and "MetricName" not in heads:
            self._other(cell, number, column.reason)
            return
        if self.statistics:
            # A table of counts ("Samples Docs Words Sents ... Coverage Density"): its other
            # columns are statistics of the data too, not scores.
            self._other(cell, number, "statistic")
            return
        if "MetricName" not in heads and "HyperparameterName" in heads:
            self.values.append(Value("HyperparameterValue", number, heads["HyperparameterName"], place))
            self._other(cell, number, "setting")
            return
        # The caption's one method ("Results of the ScienceParse system") where no row names one: rows
        # labelled with a part of the data only ("title" under "Field") are its too.
        model = label_text or (None if numbered_label or (self.labelled and "Qualifier" not in row)
                               else self.caption.names.get("MethodName"))
        if model is None and "DatasetName" in row and ("DatasetName" in heads or column.unnamed) \
                and "MethodName" not in heads:
            # Data over the columns and a label the paper once tagged as data ("PL"): the label is the system.
            model, row = row["DatasetName"], {k: v for k, v in row.items() if k != "DatasetName"}
        if "MethodName" in heads and "MethodName" not in row:
            # A method over the column ("SSK-T1"): the row's label is what it was measured on.
            model = heads["MethodName"]
            if label_text and "DatasetName" not in row and "TaskName" not in row:
                row = {**row, "DatasetName": label_text}
        dataset = heads.get("DatasetName") or row.get("TypedDataset") or group.get("DatasetName") \
            or self.caption.names.get("DatasetName") or row.get("DatasetName")
        task = heads.get("TaskName") or row.get("TaskName") or group.get("TaskName") or self.caption.names.get("TaskName")
        unnamed = [u for u in column.unnamed if not metric_like(u)]
        if task and is_language(task):  # "Chinese" over a column: the data, not a task
            unnamed, task = [task, *unnamed], self.caption.names.get("TaskName")
        if "DatasetName" in group:  # "Chinese" over its rows: the "English" head above is another block's
            unnamed = [u for u in unnamed if not is_language(u)]
        if unnamed and "DatasetName" not in heads:
            dataset = " ".join(([dataset] if dataset else []) + unnamed)
        if "Qualifier" in row and dataset and fold(row["Qualifier"]) not in fold(dataset):
            # "S2-VL Abstract": the row's category of the data; "( Full S2 - VL )": the data itself
            qualifier = row["Qualifier"].strip("() ")
            dataset = qualifier if fold(dataset) in fold(qualifier) else f"{dataset} {qualifier}"
        if "MetricName" not in heads and "MetricName" not in row and self.caption.by_name and any(
                fold(self.text(h)) in ("average", "avg", "mean") for h in self.header
                if h.first <= cell.first and cell.last <= h.last):
            heads["MetricName"] = "average"  # GLUE's "Average" over F1s, accuracies and correlations: no one of them
        metric = heads.get("MetricName") or row.get("MetricName") or self._caption_metric(dataset, task, row, model) \
            or (self.paper_metric if "DatasetName" in heads and fold(self.paper_metric or "") not in self.caption.legend
                else None)
        if metric and re.fullmatch(r"\(\s*[^()]+\s*\)", metric):
            metric = metric.strip("() ")  # "( Acc )"
        if part is not None:  # "80.6/80.1" under "MNLI-(m/mm)": MNLI-m, MNLI-mm; "UAS [LAS]": UAS, LAS
            dataset, metric = _split_name(dataset, part), _split_name(metric, part)
        if metric is None:
            self._other(cell, number, "no metric")
            return
        self.values.append(Value("MetricValue", number, metric, place))
        self.results.append(Result(task, dataset, metric, number, model, place, ours, self.label))

    def _caption_metric(self, dataset: str | None, task: str | None, row: dict[str, str],
                        model: str | None = None) -> str | None:
        # "average F 1 for Coref" with "Coref" labelling a row (tagged as a method there)
        for name in (dataset, task, row.get("DatasetName"), row.get("TaskName"), model):
            if name and fold(name) in self.caption.by_name:
                return self.caption.by_name[fold(name)]
            if name and (key := next((k for k in self.caption.by_name if k and k in fold(name)), None)):
                return self.caption.by_name[key]
        if self.caption.by_name:
            return self.caption.default
        return self.caption.names.get("MetricName")


def _row_reason(label: str) -> str | None:
    """Why the numbers of a row with this label are no scores: a row of shares ("Proportion"), of
    settings ("% of training set"), of counts ("# sentences"), else None."""
    if re.search(r"\b(?:proportion|percentage|fraction|share|ratio)\b", label, re.I):
        return "statistic"
    if label.strip().startswith("%"):
        return "setting"
    reason = not_score_head(label) if label else None
    return reason if reason in ("count", "time", "size") else None


def join_split_heads(row: list[TableCell], text: Callable[[TableCell], str], known: Known) -> list[TableCell]:
    """A head row with the words of one head that the layout set in two columns joined again: a
    head of one word in lower case continues the head left of it where the two are a name the
    paper tags or a metric ("Citation" "prediction": one head "Citation prediction" over both
    columns; "CEAF" "φ4"; not "Dev" "layers", two heads)."""
    joined: list[TableCell] = []
    for cell in row:
        words = text(cell)
        if joined and re.fullmatch(r"[^\W\d_]\w*", words) and words[0].islower() and joined[-1].first > 0 \
                and joined[-1].end == cell.start and joined[-1].last + 1 == cell.first \
                and (known(both := f"{text(joined[-1])} {words}") or metric_like(both)):
            left = joined.pop()
            cell = TableCell(cell.paragraph, left.start, cell.end, left.first, cell.last)
        joined.append(cell)
    return joined


def widen(header: list[TableCell], text: Callable[[TableCell], str]) -> list[TableCell]:
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
    keys = [fold(text(c)) for c in sub]
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
                cell = TableCell(cell.paragraph, cell.start, cell.end, first, last)
            widened.append(cell)
    return sorted(widened, key=lambda c: (header.index(next(h for h in header if h.paragraph == c.paragraph)), c.first))


def _split_name(name: str | None, part: tuple[int, int]) -> str | None:
    """Which of an "x / y" cell's two scores a name over it names: "MNLI-(m/mm)" -> "MNLI-m"
    for the first, "MNLI-mm" for the second; a name without such a pair is both's."""
    if not name or part[1] != 2:
        return name
    if match := re.search(r"[-\s]*\(\s*([^()/]+?)\s*/\s*([^()/]+?)\s*\)", name):
        return f"{name[:match.start()].rstrip()}-{match.group(part[0] + 1)}"
    if match := re.fullmatch(r"\s*([^\[\]/]+?)\s*(?:\[\s*([^\[\]]+?)\s*\]|/\s*([^\[\]/]+?))\s*", name):
        return match.group(1) if part[0] == 0 else match.group(2) or match.group(3)
    return name
