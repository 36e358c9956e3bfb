"""A table's cells as text: what a cell prints (numbers, a metric's head, a language, a
split), and the cells of each table row of a paper (:class:`TableCell`, :func:`table_rows`)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import NamedTuple

from sciner.document import Paragraph
from sciner.summary.canonical import is_multiple, number_value, written_out
from sciner.summary.names import OPTIMIZERS, fold

# Column heads that name a split or an aggregate, never the metric itself, though leaderboards
# list some of them as metrics; and words that say what a label column lists.
SPLITS = frozenset({"dev", "development", "test", "train", "training", "validation", "valid", "val", "average",
                    "avg", "mean", "all", "overall", "ours", "our", "baseline", "baselines", "split",
                    "fwd", "bwd", "forward", "backward"})
# Column heads of an aggregate over the columns beside them ("Average", "Avg .", "All"), folded.
AGGREGATES = frozenset({"average", "avg", "mean", "overall", "all", "total", "macroaverage", "microaverage",
                        "macroavg", "microavg"})
# A cell that marks a score missing: "N / A", "n/a", "-", "–".
_MISSING_CELL = re.compile(r"n\s?/\s?a|[-–—]", re.I)
LABEL_HEADS = frozenset({"model", "method", "system", "approach", "algorithm", "encoder", "architecture",
                         "dataset", "data", "corpus", "task", "domain", "category", "structure", "input", "output",
                         "setting", "configuration", "type", "language", "lang", "field", "subtask", "metric",
                         "description", "variant", "hint", "target", "length", "lengths", "evaluatedtask",
                         "trainingsignal", "modelvariant", "encoderarchitecture", "doclength", "segmentlength"})
# Column heads that qualify how a score was got, not the data it was measured on: a total, a
# difficulty level, a model's size, a single model or an ensemble, a published or leaderboard
# figure ("Extra Hard", "BASE", "Published"): never part of a result's dataset.
SETTING_HEADS = frozenset({"total", "easy", "medium", "hard", "extrahard", "veryhard", "base", "large", "small",
                           "tiny", "single", "singlemodel", "ensemble", "ensembles", "published", "leaderboard",
                           "reported"})
# Words that say how a model was trained or run, never the data it was measured on: a training
# regime ("Semi-supervised", "Zero-shot", "Fine-tuned"), an optimizer ("Adam", names.OPTIMIZERS),
# a condition ("With", "Without", "Only"), the languages a model covers ("Mono", "Multilingual").
_SETTING_WORDS = OPTIMIZERS | frozenset({
    "supervised", "unsupervised", "semisupervised", "selfsupervised", "weaklysupervised", "distantlysupervised",
    "zeroshot", "fewshot", "oneshot", "finetuned", "finetuning", "pretrained", "pretraining", "frozen", "transfer",
    "with", "without", "only", "mono", "monolingual", "multi", "multilingual", "crosslingual", "single", "cross",
    "multitask", "multitasklearning", "singletask"})
# What a number-like head row prints under a dataset: "392k", "8.5k", "1.2M".
_AMOUNT = re.compile(r"^\d+(?:[.,]\d+)?\s?[kKmMbB]$")
# An amount in a table's body: a count or a size with its magnitude ("335 M", "6B", "10 K",
# "1.6T"), never a score (nor a multiple: :func:`~sciner.summary.canonical.is_multiple`).
_BODY_AMOUNT = re.compile(r"^\.?\d+(?:[.,]\d+)?\s?[kKmMbBGT]$")

# Heads that read as a metric though nothing tags them (checked on the folded head, its
# parentheses and arrows dropped): "BLEU", "ROUGE-1", "R-L", "EM", "R1(%)", "Acc.", "MF1", "P@1".
_METRIC_HEAD = re.compile(
    r"^(?:bleu\d?|sacrebleu|chrf\d*|meteor|cider|ter|rouge(?:1|2|l|lsum)?|r(?:1|2|l)(?:f1?)?|rouge\w*f1?|em|exactmatch|"
    r"ravg|rougeavg|f|f1|f05|f2|microf1|macrof1|mf1|weightedf1|avgf1|averagef1|conllf1|p|r|prec|precision|rec|recall|acc|accuracy|"
    r"mcc|auc|rocauc|prauc|map|mrr|ndcg\d*|hits\d+|p\d+|r\d+|recall\d+|precision\d+|uas|las|ppl|perp|perplexity|"
    r"wer|cer|err|error|errorrate|bertscore|bs|bsf1|spearman|pearson|kendall|kappa|fleiss|corr|correlation|"
    r"matthews?|(?:pearson|spearman|matthews?|kendall)s?(?:corr|correlation|r|rho|tau)|"
    r"lr|lp|lf1|ur|up|uf1|sacc|exec|execacc|bits|bpc|bpb|ent|humaneval|cov|coverage|ucm|lcm|"
    r"muc|b3|ceaf(?:[em]|φ)?\d*|blanc|lea)$")
# Correlations and agreement a head names by their Greek letter alone: Spearman's ρ, Kendall's τ, Cohen's κ.
_GREEK_METRICS = frozenset({"ρ", "τ", "κ"})
# Heads of columns that hold no scores, and what their numbers are.
_NOT_SCORE_HEADS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"(?:^|\s)(?:Δ|∆|(?:diff\.?|difference|gain|improvement|increase|decrease|change|impr\.?|δ"
                r"|relative|reduction)(?:\s|$|\())", re.I), "difference"),  # "∆bpc", "Δ F1", "Gain ( % )"
    (re.compile(r"(?:^|\s)(?:std\.?|stdev|s\.d\.|sd|σ|variance|var\.?|deviation)(?:\s|$)", re.I), "deviation"),
    (re.compile(r"(?:^|\s)p(?:\s?-\s?value|\s?<|\s?val)", re.I), "p-value"),
    (re.compile(r"^(?:#|n$|num\b|number\b|count\b|no\.\s|size\b)|(?:#\s?\w+|\bcount|\bsize|\s#)$|\bnumber of\b|"
                r"\b(?:failed|solved|passed)\s(?:tasks|tests|cases)\b|"  # "Failed tasks ( err . > 5 % )"
                r"(?:^|\s)(?:words|tokens|sents?|sentences|docs|documents|examples|samples|pairs|queries|papers|"
                r"instances|types|classes|labels|vocab|mentions|entities|relations|citations|length|len\.?)"
                r"(?:\s|$|\()", re.I), "count"),
    (re.compile(r"(?:^|\s)(?:params|parameters|#params|mb|gb|memory|flops|\|\s?θ\s?\||θ)(?:\s|$|\()", re.I), "size"),
    (re.compile(r"^(?:beam(?:\s?size)?|thr\s?\.?|threshold|k|λ|α|β|γ|τ|temperature|epochs?|layers?|dims?\s?\.?|window|"
                r"seed|batch(?:\s?size)?|d\s?model|d\s?ff|hidden(?:\s?size)?|dropout|p\s?drop|(?:train(?:ing)?\s)?steps|"
                r"#?\s?shots?|(?:model\s|training\s)?(?:settings|hyper\s?-?\s?parameters|configurations?))$|"
                r"(?:^|\s)(?:dimensions?|dimensionality)(?:\s|$)", re.I), "setting"),
    # a percentile of the systems of a shared task ("50 %", "75 %" beside "Max"), a frequency of a category
    (re.compile(r"^\d{1,2}\s?(?:%|th|st|nd|rd)(?:\s?percentile)?$|(?:^|\s)(?:percentile|median|freq\.?|frequency|"
                r"proportion)(?:\s|$)", re.I), "statistic"),
    # a place among the systems of a shared task ("Rank", "RR" spelt out as "the run ranking")
    (re.compile(r"(?:^|\s)(?:rank|ranking|ranked)(?:\s|$)", re.I), "rank"),
    (re.compile(r"(?:^|\s)(?:time|speed|secs?|seconds|ms|hours?|min|mins|minutes|days|latency|throughput|"
                r"sents?/s|tokens?/s)(?:\s|$|\()", re.I), "time"),
)
ENUMERATOR = re.compile(r"^\(\s?[a-z0-9]\s?\)\s*")  # "( a ) CA"
# Languages (and their ISO codes as treebank tables print them): a column or row of one is
# data, never a task or a model.
LANGUAGES = frozenset("""english german french spanish chinese arabic basque hebrew hungarian korean polish swedish
dutch italian japanese portuguese russian czech danish bulgarian catalan romanian slovene slovenian turkish
norwegian estonian finnish greek hindi latvian lithuanian persian ukrainian vietnamese indonesian
ar bg ca cs da de el en es et eu fa fi fr ga gl he hi hr hu id it ja ko la lt lv nl no pl pt ro ru sk sl sr sv tr uk ur
vi zh""".split())
_LANGUAGE_CODES = frozenset({w for w in LANGUAGES if len(w) == 2} | {"et", "lv", "lt", "kk", "gu", "ha", "is", "ps",
                                                                    "km", "ne", "si", "ta", "iu", "zu", "xh", "sw"})
# A text -> each type the paper tags it with, and under that type the entity's name and its
# number of mentions ({} when the paper never tags it): :meth:`sciner.summary.names.PaperNames.known_as`.
Known = Callable[[str], dict[str, tuple[str, int]]]


def says_nothing(text: str) -> bool:
    """A cell that names nothing: a split ("Dev"), a direction ("Bwd"), a label column's head
    ("Model"), a number or an amount ("392k"), a missing score ("N / A"), or no letter or digit
    at all."""
    key, bare = fold(text), text.strip()
    return (not key and bare not in _GREEK_METRICS) or key in SPLITS or key in LABEL_HEADS \
        or bool(_AMOUNT.match(bare)) or bool(_MISSING_CELL.fullmatch(bare)) or bool(cell_numbers(text))


# Heads over a group of metric columns that say which output a score is of, not what data it was
# measured on: "Entity P R F1 Relation P R F1", "Ans EM F1 Sup EM F1 Joint EM F1".
_ASPECTS = frozenset({"entity", "entities", "relation", "relations", "ans", "answer", "answers", "sup",
                      "supporting", "joint", "trigger", "triggers", "argument", "arguments"})


def names_aspect(text: str) -> bool:
    """Whether a head names which output a group of metric columns scores ("Relation", "Joint")."""
    return fold(text) in _ASPECTS


# A part of a test or dev split as leaderboards name it: VQA's "Test - Dev" and "Test - Std",
# NLVR's "Test - P" (public) and "Test - U" (unreleased).
_SPLIT_PART = re.compile(r"(?:test|dev|val)(?:dev|std|standard|p|u|public|unreleased)")


# What a head says where it says that the cells it heads, or those beside it, are metrics
# ("Metric", "Eval metric", "Measures"), folded.
METRIC_HEADS = frozenset({"metric", "metrics", "evalmetric", "evaluationmetric", "measure", "measures"})


def is_run(text: str) -> bool:
    """Whether a head names one run of several ("1st run", "Run 2"): a setting of the scores."""
    return bool(re.fullmatch(_RUN, fold(text)))


def names_setting(text: str) -> bool:
    """Whether a name says how a score was got, not the data it was measured on: a split
    ("Dev", "Test - Std"), a setting head ("Single model", "Base", "Extra Hard"), a training regime
    ("Semi-supervised"), an optimizer ("Adam"), a condition ("Without"), a cut-off ("Top 500"), a
    variation ("+ ANLI ( 52k )", "w/o CRF"), a granularity ("Sentence - Level", "Sample-Level
    Correlations"), the size of the training data ("70 m sents")."""
    key = fold(ENUMERATOR.sub("", text))
    return key in SPLITS or key in SETTING_HEADS or key in _SETTING_WORDS or bool(_COUNTED_SETTING.fullmatch(key)) \
        or bool(_SPLIT_PART.fullmatch(key)) or bool(_VARIATION.match(text)) \
        or bool(re.fullmatch(r"[a-z]+level(?:correlations?|scores?)?", key)) or bool(_DATA_SIZE.fullmatch(text.strip()))


# One run of several submitted or repeated, folded ("1st run", "Run 2", "second run").
_RUN = r"(?:\d+(?:st|nd|rd|th)|first|second|third|fourth|fifth)(?:run|submission|seed|trial)|(?:run|submission|seed|trial)\d+"
# A setting with its count, folded: a cut-off ("Top 500"), an ensemble ("Ens-8"), a beam, a sentence
# position ("Pos 2"), shots and ways ("5-way 1-shot"), layers, epochs, runs.
_COUNTED_SETTING = re.compile(rf"(?:top|ens|ensemble|beam|pos|position|layer|layers|epoch|epochs)\d+|{_RUN}|"
                              r"\d+(?:shot|shots|way|ways|layer|layers|epoch|epochs)(?:\d+(?:shot|shots))?|"
                              # a split named with its "set" ("TestSet", "Dev Set")
                              r"(?:test|dev|development|validation|valid|val|train|training)sets?")
# The size of the data a model was trained on ("70 m sents", "2.8 Billion words", "6.1 TB"), in
# plural ("1B Word" is a benchmark's name).
_DATA_SIZE = re.compile(r"\d+(?:[.,]\d+)?\s?(?:k|m|b|thousand|million|billion)?\s?(?:words|sents|sentences|tokens|"
                        r"docs|documents|pairs|examples|tb|gb|mb)", re.I)


# A name that adds or takes away something ("+ ANLI ( 52k )": data added to the training; "w/o CRF"):
# how a model was got, not the data it was measured on.
# ("+ ve", "- ve" are the positive and negative class: no variation)
_VARIATION = re.compile(r"^\s*(?:[+＋](?!\s*ve\b)|w\s*/\s*o?\b|with\b|without\b)", re.I)


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
    "Acc.", "MF1", "P@1", "ρ"), else None."""
    bare = re.sub(r"[↑↓]|\((?:%|↑|↓|\s)*\)", " ", text).strip()
    key = fold(bare.replace("@", " "))
    return bare if key and _METRIC_HEAD.match(key) or bare in _GREEK_METRICS else None


def not_score_head(text: str) -> str | None:
    """Why the numbers under this head are no scores ("difference" under "Δ", "count" under
    "#Docs", "time" under "Time (secs)"), or None."""
    if _SPLIT_PART.fullmatch(fold(text)):
        return None  # VQA's "Test - Std": the test-standard split, no standard deviation
    return next((reason for pattern, reason in _NOT_SCORE_HEADS if pattern.search(text)), None)


# One number as a cell prints it: a sign, then a plain number ("92.8", ".58", "3,5", "1,806,230")
# or one in scientific notation ("3e-5", "1.2E+3", "3 × 10−5", "10−5": the superscript lost).
_PLAIN = r"(?:\d{1,3}(?:,\d{3})+(?!\d)(?:\.\d+)?|\d+(?:[.,]\d+)?|\.\d+)"
_SCIENTIFIC = rf"(?:{_PLAIN}\s?[eE][-+−]?\d+|{_PLAIN}\s?[×x]\s?10\^?[-+−]?\d+|10\^?[-−]\d+)"
_ONE_NUMBER = rf"[-+−]?(?:{_SCIENTIFIC}|{_PLAIN})"
# One score of a cell: its number, its "%", its "± 0.17" (or "(±0.17)") and its "(.58)" or "( 19 % )".
_ITEM = re.compile(rf"(?P<n>{_ONE_NUMBER})(?:\s?(?P<p>%))?"
                   rf"(?:\s*(?P<open>\()?\s*(?:±|\+/-|\+ / -)\s*(?P<d>{_ONE_NUMBER})\s?%?(?(open)\s*\)))?"
                   rf"(?:\s?\+?\s*\(\s*(?P<b>{_ONE_NUMBER}\s?(?:%|[x×]\s?\+?)?)\s*\))?")
_SEPARATOR = re.compile(r"\s*(?:/|,|;|\[)\s*")
# A cell that brackets a whole mean and its deviation, as one model's row of several prints it.
_BRACKETED_MEAN = re.compile(rf"\(\s*({_ONE_NUMBER}\s*(?:±|\+/-)\s*{_ONE_NUMBER})\s*\)")
_MISSING = re.compile(r"[-–—]|n/?a|N/?A")  # "86.6/-": no second score
# "]", footnote marks "* *", "†,‡", a "\" (retrieved from the original paper), an arrow of
# better or worse than a baseline ("87.52 ↑"), "81.32 a"
_CELL_END = re.compile(r"\s*\]?(?:\s*,?\s*[*∗⋆†‡§¶♣♦♠♥\\↑↓▲▼]+)*(?:\s[a-d])?$")
_BOLD = re.compile(r"^(?:\*\*|__)(.*)(?:\*\*|__)$|^\\(?:textbf|textit|underline|mathbf)\{(.*)\}$")


class CellNumber(NamedTuple):
    """A number of a body cell: as it prints (leading dot and scientific notation written out:
    ".58" -> "0.58", "3 × 10−5" -> "3e-5"), None or why it is no score, and which score of
    how many it is (``part``: (0, 2) for the "80.6" of "80.6/80.1"; None in a cell of one)."""

    number: str
    why: str | None
    part: tuple[int, int] | None = None


def notation(number: str) -> str | None:
    """Why a number written in scientific notation is no score, else None: no paper prints a
    score so; "2e-05" is a setting (a learning rate), "7.1e20" a size (FLOPs, parameters)."""
    if "e" not in number.lower():
        return None
    return "setting" if "e-" in number.lower() else "size"


def cell_numbers(text: str) -> list[CellNumber]:
    """The numbers of a body cell, each with None (a score) or why it is none: "88.7 ± 0.17"
    -> [("88.7", None), ("0.17", "deviation")]; "85.21(.58)", "91.62(±0.33 )" -> a score and a "deviation";
    "80.6/80.1", "84.7/85.0/84.9" -> two, three scores; "86.6/-" -> the first of two;
    "0.907 ( 19 % )", "+0.25" -> a "difference"; "3 × 10−5" -> "3e-5"; [] for a cell that is
    no number ("392k", "5.2.1")."""
    text = text.strip()
    if bold := _BOLD.match(text):  # "**85.2**", "\\textbf{85.2}"
        text = (bold.group(1) or bold.group(2) or "").strip()
    if whole := _BRACKETED_MEAN.fullmatch(text):  # "( 91.48±0.07 )": the mean and its deviation
        text = whole.group(1)
    if not re.match(r"^(?:[-+−]?\s?\.?\d|[-–—]\s?/\s?\.?\d)", text):
        return []
    text = re.sub(r"(\d) \. (\d)", r"\1.\2", text)
    text = re.sub(r"(^|[/,;\[]\s?)([-+−]) (?=\.?\d)", r"\1\2", text)  # "- 0.7 / -0.7"
    items: list[list[tuple[str, str | None]]] = []  # each score's numbers; [] for a "-" in its place
    at = 0
    while True:
        if item := _ITEM.match(text, at):
            items.append(_item_numbers(item))
        elif (item := _MISSING.match(text, at)) and (items or _SEPARATOR.match(text, item.end())):
            items.append([])
        else:
            return []
        at = item.end()
        separator = _SEPARATOR.match(text, at)
        if separator is None or separator.end() == len(text):
            break
        at = separator.end()
    if not _CELL_END.fullmatch(text, at):
        return []
    return [CellNumber(number, why, (slot, len(items)) if k == 0 and why is None and len(items) > 1 else None)
            for slot, numbers in enumerate(items) for k, (number, why) in enumerate(numbers)]


def _item_numbers(item: re.Match[str]) -> list[tuple[str, str | None]]:
    """One score of a cell, its deviation and what it has in parentheses: a "difference" when
    signed or a share beside a score that is none, a "deviation" when under a third of the score
    ("85.21(.58)"), else "parenthesized" (a second count beside a count)."""
    first = item.group("n")
    number = written_out(first)
    found: list[tuple[str, str | None]] = [(number + (item.group("p") or ""),
                                            "difference" if first.startswith("+") else notation(number))]
    if deviation := item.group("d"):  # "88.7 ± 0.17", "91.62(±0.33 )"
        found.append((written_out(deviation), "deviation"))
    if bracketed := item.group("b"):
        inner = re.sub(r"\s", "", bracketed)
        value, score = number_value(inner), number_value(first)
        if re.search(r"[x×]\+?$", inner):  # "6.4e19 ( 45x )": a multiple of another row's
            why = "amount"
        elif inner[:1] in "+-−" or (inner.endswith("%") and not item.group("p")):
            why = "difference"
        elif value is not None and score is not None and 0 <= value < abs(score) / 3:
            why = "deviation"
        else:
            why = "parenthesized"
        found.append((written_out(inner.rstrip("%")) + ("%" if inner.endswith("%") else ""), why))
    return found


def is_amount(text: str) -> bool:
    """A body cell that prints an amount ("335 M", "6B", "10 K") or a multiple ("18x")."""
    return bool(_BODY_AMOUNT.match(text.strip())) or is_multiple(text)


def prints_numbers_only(text: str) -> bool:
    """A cell that prints a number and no word ("85.2", "86.6/-", "5.2.1", "512 + 512", "10−5"):
    a number of a table's body that is a result or a not result, never dropped."""
    bare = re.sub(r"(?<=\d)\s?(?:[eE×x])\s?(?=[-+−]?\d)|\s[a-d]$|n/a|N/A", " ", text)
    return bool(re.search(r"\d", bare)) and not re.search(r"[^\W\d_]", bare)


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
        row = [part for start, end, first, last in cells if start < min(end, len(p.tokens)) and first <= last
               for part in _label_and_score(TableCell(i, start, min(end, len(p.tokens)), first, last,
                                                      " ".join(p.tokens[start:end])), p.tokens)]
        if row:
            tables.setdefault((p.meta.get("page"), label), []).append(row)
    return tables


# A score with its deviation ("95.90±0.05"), or with two digits or more before its decimal point
# ("90.2"; a version is "2.0", "1.1"): never the end of a name.
_SCORE_ENDING_LABEL = re.compile(r"[-+]?\d+(?:\.\d+)?\s?±\s?\d*\.?\d+|\d{2,3}\.\d{1,2}")


def _label_and_score(cell: TableCell, tokens: Sequence[str]) -> list[TableCell]:
    """A cell as the layout set it, or split in two where it holds a row's label and then a
    score ("None 95.90±0.05": the label "None", the score "95.90±0.05"; "Reported 90.2") or an
    amount ("ELECTRA - Small++ 3.3e19 ( 18x )": the label, then its FLOPs)."""
    words = tokens[cell.start:cell.end]

    def size(word: str) -> bool:  # "3.3e19": a size in scientific notation (see notation)
        return re.fullmatch(_SCIENTIFIC, word) is not None and notation(word) == "size"

    # (the size last, or before its multiple: "3.3e19 ( 18x )")
    at = next((k for k in range(1, len(words)) if size(words[k]) and (
        k == len(words) - 1 or (len(words) == k + 4 and words[k + 1] == "(" and words[k + 3] == ")"))), None)
    if at is not None and any(re.search(r"[^\W\d_]", w) and not size(w) for w in words[:at]):
        return [replace(cell, end=cell.start + at, text=" ".join(words[:at])),
                replace(cell, start=cell.start + at, text=" ".join(words[at:]))]
    if len(words) > 1 and _SCORE_ENDING_LABEL.fullmatch(words[-1]) and re.search(r"[^\W\d_]", " ".join(words[:-1])):
        return [replace(cell, end=cell.end - 1, text=" ".join(words[:-1])),
                replace(cell, start=cell.end - 1, text=words[-1])]
    return [cell]


def row_reason(label: str) -> str | None:
    """Why the numbers of a row with this label are no scores: a row of shares ("Proportion"), of
    settings ("% of training set", "hidden dimension"), of counts ("# sentences", "training sentence #"), of
    differences ("∆ : Ours - Best Previous"), else None; what the label says in parentheses is
    the label's own ("twitter ( 19.7B words )": a corpus and its size)."""
    label = re.sub(r"\([^()]*\)", " ", label).strip()  # "twitter ( 19.7B words )": of the label, not its row
    if re.search(r"\b(?:proportion|percentage|fraction|share|ratio)\b", label, re.I):
        return "statistic"
    if label.strip().startswith("%"):
        return "setting"
    reason = not_score_head(label) if label else None
    if reason == "difference" and re.match(r"\s*(?:Δ|∆|δ|diff\b|difference|gain|improvement|impr\b)", label, re.I):
        return reason  # "∆ : Ours - Best Previous +2.69 +0.90 ..."
    if reason == "setting" and not re.match(r"\s*(?:k|λ|α|β|γ|τ|n)\s*$", label):
        return reason  # "hidden dimension | 20 | 50 | 100", "beam size | 1 | 5": the settings the columns are run with
    return reason if reason in ("count", "time", "size", "deviation") else None


def split_name(name: str | None, part: tuple[int, int]) -> str | None:
    """Which of an "x / y" cell's scores a name over it names: "MNLI-(m/mm)" -> "MNLI-m"
    for the first, "MNLI-mm" for the second; "P / R / F1" over "84.7/85.0/84.9" names each its
    own; "MNLI - m / mm" -> "MNLI-m", "MNLI-mm"; a name without such parts is every part's."""
    if not name or part[1] < 2:
        return name
    if part[1] > 2:
        pieces = [p.strip() for p in name.split("/")]
        return pieces[part[0]] if len(pieces) == part[1] and all(pieces) else name
    if match := re.search(r"[-\s]*\(\s*([^()/]+?)\s*/\s*([^()/]+?)\s*\)", name):
        return f"{name[:match.start()].rstrip()}-{match.group(part[0] + 1)}"
    if match := re.fullmatch(r"\s*(.*?\w)\s*-\s*(\w{1,3})\s*/\s*(\w{1,3})\s*", name):
        return f"{match.group(1)}-{match.group(part[0] + 2)}"  # "MNLI - m / mm": "MNLI-mm" for the second
    if match := re.fullmatch(r"\s*([^\[\]/]+?)\s*(?:\[\s*([^\[\]]+?)\s*\]|/\s*([^\[\]/]+?))\s*", name):
        return match.group(1) if part[0] == 0 else match.group(2) or match.group(3)
    return name
