"""A table's cells as text: what a cell prints (numbers, a metric's head, a language, a
split), and the cells of each table row of a paper (:class:`TableCell`, :func:`table_rows`)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from sciner.document import Paragraph
from sciner.summary.names import fold

# Column heads that name a split or an aggregate, never the metric itself, though leaderboards
# list some of them as metrics; and words that say what a label column lists.
SPLITS = frozenset({"dev", "development", "test", "train", "training", "validation", "valid", "val", "average",
                    "avg", "mean", "all", "overall", "ours", "our", "baseline", "baselines"})
LABEL_HEADS = frozenset({"model", "method", "system", "approach", "algorithm", "encoder", "architecture",
                         "dataset", "data", "corpus", "task", "domain", "category", "structure", "input", "output",
                         "setting", "configuration", "type", "language", "lang", "field", "subtask", "metric",
                         "description", "variant", "hint", "target", "length", "lengths", "evaluatedtask",
                         "trainingsignal", "modelvariant", "encoderarchitecture", "doclength", "segmentlength"})
# A number as a table cell prints it: "92.8", "-0.5", "95.4 %", "86.2*", "81.32 a" (a footnote mark).
_NUMBER = r"[-+−]?\d+(?:[.,]\d+)?"
_MARK = r"(?:\s?[*†‡§¶♣♦♠♥]+|\s[a-d])?"
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
ENUMERATOR = re.compile(r"^\(\s?[a-z0-9]\s?\)\s*")  # "( a ) CA"
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
# number of mentions ({} when the paper never tags it): :meth:`sciner.summary.names.PaperNames.known_as`.
Known = Callable[[str], dict[str, tuple[str, int]]]


def says_nothing(text: str) -> bool:
    """A cell that names nothing: a split ("Dev"), a label column's head ("Model"), a number
    or an amount ("392k"), or no letter or digit at all."""
    key = fold(text)
    return not key or key in SPLITS or key in LABEL_HEADS or bool(_AMOUNT.match(text.strip())) \
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
    """One cell of a tagged table row: its paragraph, token range, columns and text."""

    paragraph: int
    start: int
    end: int
    first: int
    last: int
    text: str


def table_rows(paragraphs: Sequence[Paragraph]) -> dict[tuple[object, str], list[list[TableCell]]]:
    """The rows of each table, keyed by (page, label), in reading order."""
    tables: dict[tuple[object, str], list[list[TableCell]]] = {}
    for i, p in enumerate(paragraphs):
        cells, label = p.meta.get("cells"), p.meta.get("table")
        if not cells or not isinstance(label, str):
            continue
        # A cell of no token or over columns in reverse (a row built by hand, not read from
        # JSONL, which refuses it) is no cell; a row left with none is no row.
        row = [TableCell(i, start, min(end, len(p.tokens)), first, last, " ".join(p.tokens[start:end]))
               for start, end, first, last in cells if start < min(end, len(p.tokens)) and first <= last]
        if row:
            tables.setdefault((p.meta.get("page"), label), []).append(row)
    return tables


def row_reason(label: str) -> str | None:
    """Why the numbers of a row with this label are no scores: a row of shares ("Proportion"), of
    settings ("% of training set"), of counts ("# sentences"), else None."""
    if re.search(r"\b(?:proportion|percentage|fraction|share|ratio)\b", label, re.I):
        return "statistic"
    if label.strip().startswith("%"):
        return "setting"
    reason = not_score_head(label) if label else None
    return reason if reason in ("count", "time", "size") else None


def split_name(name: str | None, part: tuple[int, int]) -> str | None:
    """Which of an "x / y" cell's two scores a name over it names: "MNLI-(m/mm)" -> "MNLI-m"
    for the first, "MNLI-mm" for the second; a name without such a pair is both's."""
    if not name or part[1] != 2:
        return name
    if match := re.search(r"[-\s]*\(\s*([^()/]+?)\s*/\s*([^()/]+?)\s*\)", name):
        return f"{name[:match.start()].rstrip()}-{match.group(part[0] + 1)}"
    if match := re.fullmatch(r"\s*([^\[\]/]+?)\s*(?:\[\s*([^\[\]]+?)\s*\]|/\s*([^\[\]/]+?))\s*", name):
        return match.group(1) if part[0] == 0 else match.group(2) or match.group(3)
    return name
