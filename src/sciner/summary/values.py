"""Values linked to what they measure, and results read off sentences.

Within one sentence, a HyperparameterValue belongs to a HyperparameterName and a MetricValue
to a MetricName: the nearest one before it, else the nearest one after it ("learning rate
... 5e-5 , 3e-5 , 2e-5" gives three pairs; "93.2 F1" one). A result is a MetricValue with
its metric and the dataset, task and method named nearest to it in the same sentence, each
``None`` where the sentence names none. A table's rows are no sentences: they are read by
:mod:`sciner.summary.tables`, into the same :class:`Value` and :class:`Result`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from sciner.data.sentences import sentence_ranges
from sciner.document import Paragraph, Place, Span
from sciner.formats.kinds import Kind
from sciner.summary.canonical import beyond_percent, is_multiple
from sciner.summary.names import fold, mainly
from sciner.summary.provenance import said_setting, said_split
from sciner.tokenize import detokenize

# Each value type and the name type it belongs to.
VALUE_OF: dict[str, str] = {"HyperparameterValue": "HyperparameterName", "MetricValue": "MetricName"}
# The fields of a result and the entity type each is read from.
RESULT_FIELDS: dict[str, str] = {"task": "TaskName", "dataset": "DatasetName", "model": "MethodName"}


@dataclass
class Value:
    """A HyperparameterValue or MetricValue and the name it belongs to (None: none found)."""

    type: str
    value: str
    of: str | None
    place: Place

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "value": self.value, "of": self.of, "paragraph": self.place[0]}


@dataclass
class Result:
    """A reported result: a metric's value and what its sentence, or its table's header, row
    and caption, say it was measured on."""

    task: str | None
    dataset: str | None
    metric: str | None
    value: str
    model: str | None
    place: Place
    # True: the paper's own method; False: another's, the paper cites it; None: the paper does not
    # tell (see :func:`sciner.summary.ours.mark_ours` and :func:`~sciner.summary.ours.mark_theirs`)
    ours: bool | None = None
    table: str | None = None  # the table it was read off ("table 2"), None for a sentence
    caption: str | None = None  # its table's caption, cut short
    header: str | None = None  # the heads over its column, top to bottom ("WMT14 En-De > BLEU")
    split: str | None = None  # "test", "dev" or "validation" where the heads, row group, caption or sentence say
    setting: str | None = None  # "5-shot", a settings column's value: where the table or sentence says
    ablation: bool = False  # a row varying the paper's own method ("w/o X", "- X", "+ X" under it)
    citation: str | None = None  # the citation ending its row's label ("Lample et al . , 2016"), apart from the model

    def readable(self) -> Result:
        """This result with its names, caption and header as written ("BI-LSTM-CRF (Senna)", not
        the tokens "BI - LSTM - CRF ( Senna )"; a mark "( ours )" that ``ours`` already says
        dropped), as the outputs show it; its value and place as
        they are. The readers keep tokens (a result's place is in tokens)."""
        model = (_OWN_MARK.sub("", self.model) or self.model) if self.model and self.ours else self.model
        return replace(self, **{name: _written(getattr(self, name)) for name in _TEXT_FIELDS}, model=_written(model))

    def to_json(self) -> dict[str, Any]:
        """The result as every output writes it: its text fields readable (:meth:`readable`)."""
        r = self.readable()
        return {"task": r.task, "dataset": r.dataset, "metric": r.metric, "value": r.value,
                "model": r.model, "ours": r.ours, "table": r.table, "paragraph": r.place[0],
                "caption": r.caption, "header": r.header, "split": r.split, "setting": r.setting,
                "ablation": r.ablation, "citation": r.citation}


# A result's fields of tokens joined by spaces, made readable by Result.readable.
_TEXT_FIELDS = ("task", "dataset", "metric", "caption", "header", "setting", "citation")
# A row label's mark that the row is the paper's own, at its end: "BI - LSTM - CRF ( ours )".
_OWN_MARK = re.compile(r"\s*[(\[]\s*(?:ours|our model|this work|this paper|proposed)\s*[)\]]\s*$", re.I)


def _written(text: str | None) -> str | None:
    return detokenize(text.split(" ")) if text else text


@dataclass
class NotResult:
    """A number of a table's body (or a MetricValue of a sentence) that is no result, and why:
    "difference" (a gain, a Δ column), "deviation" (the ± part), "count", "p-value", "size",
    "time", "setting" (a hyperparameter's value, a row label such as a threshold), "statistic"
    (a column of a table of data statistics), "bound" ("chance level < 0.0001"), "no metric"
    (nothing says what it measures), "over 100" (over 100 in a metric printed as a percentage:
    :func:`sciner.summary.canonical.beyond_percent`), "untagged" (a sentence's number printed like
    a score, "4.1 %", that the tagger gave no type: :func:`untagged`), "amount" (a multiple, "4.8×", or
    in a table a count or size, "335 M"), "figure" (printed in a float's text no table row holds:
    a plot's labels, a table's part not set in rows); in a table also "train" (under a "Train"
    head: a score on the training data), "parenthesized",
    "axis" (a figure's ticks set amid the table's rows) and "unread" (a cell the reader could not read,
    its text as the value: see :mod:`sciner.summary.tables`)."""

    value: str
    reason: str
    place: Place
    table: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"value": self.value, "reason": self.reason, "table": self.table, "paragraph": self.place[0]}


@dataclass(frozen=True)
class Pair:
    """A value span and the name span it belongs to (None where the sentence has none)."""

    value: Span
    name: Span | None


def pair_values(spans: Sequence[Span], tokens: Sequence[str] = ()) -> list[Pair]:
    """Each value among ``spans`` (one sentence's) with its name: the nearest preceding span of
    the name type, else the nearest following one; but in a sentence listing as many names as
    values "respectively" (``tokens``: the paragraph's), the names and values in order
    ("Rouge-1 , Rouge-2 and BERT-Scores were 45.6 , 30.0 and 38.0 , respectively")."""
    pairs = []
    in_order: dict[Span, Span] = {}
    reach = tokens[min((s.start for s in spans), default=0):max((s.end for s in spans), default=0) + 12]
    if any(t.lower() == "respectively" for t in reach):
        for value_label, name_label in VALUE_OF.items():
            values = [s for s in spans if s.label == value_label]
            names = [s for s in spans if s.label == name_label and values and s.end <= values[0].start]
            if len(values) >= 2 and len(names) == len(values):
                in_order.update(zip(values, names))
    for value in spans:
        wanted = VALUE_OF.get(value.label)
        if wanted is None:
            continue
        names = [s for s in spans if s.label == wanted]
        before = [s for s in names if s.end <= value.start]
        after = [s for s in names if s.start >= value.end]
        # A name right after the value, only "vs" and values between, is its: "0.71 vs 0.64 Fleiss
        # κ", "87.5 vs. 85.7 average LAS", "achieves 73.0 F1", not the one before.
        close = after[0] if after and tokens and after[0].start - value.end <= 4 and all(
            re.fullmatch(r"vs\.?|versus|[-–]|%|[-+]?\d[\d.,]*%?|average|avg\.?|mean", t.lower())
            for t in tokens[value.end:after[0].start]) else None
        name = in_order.get(value) or close or (before[-1] if before else after[0] if after else None)
        pairs.append(Pair(value, name))
    return pairs


# A word of training ("trained", "pre - training"): the data it names is what a model was trained on.
TRAINING = re.compile(r"^(?:pre)?train(?:s|ed|ing)?$", re.I)


def trained_on(tokens: Sequence[str], start: int) -> bool:
    """Whether the name starting at ``start`` is what a model was trained on: "trained on X",
    "pre - trained on the X", "trained with X" (not "trained and tested on X")."""
    before = [w.lower() for w in tokens[max(0, start - 3):start]]
    if before[-1:] == ["the"]:
        before = before[:-1]
    return len(before) >= 2 and before[-1] in ("on", "with", "from") and bool(TRAINING.match(before[-2]))


def nearest(spans: Sequence[Span], label: str, to: Span) -> Span | None:
    """The ``label`` span nearest to ``to`` (a tie goes to the earlier one), or None."""
    candidates = [s for s in spans if s.label == label]
    if not candidates:
        return None
    return min(candidates, key=lambda s: (max(to.start - s.end, s.start - to.end, 0), s.start))


def sentences(p: Paragraph) -> list[list[Span]]:
    """The spans of each sentence of a tagged paragraph."""
    spans = p.spans or []
    return [[s for s in spans if start <= s.start < end] for start, end in sentence_ranges(p.tokens, p.tags or [])]


# Words right after a value that make it a change, not a score ("by 4.7 points", "+3.2 absolute",
# "15 - 40 % faster", "1.0 % additional accuracy", "0.3 F1 behind").
_GAIN_AFTER = frozenset({"improvement", "improvements", "gain", "gains", "points", "point", "absolute", "relative",
                         "higher", "lower", "better", "worse", "increase", "decrease", "reduction", "drop", "boost",
                         "error", "over", "more", "less", "fewer", "faster", "slower", "additional", "behind", "ahead",
                         "degradation", "increment", "increments"})
# Nouns of a change: a value they follow closely ("an improvement of almost 0.5 F1", "a gain in
# absolute accuracy of almost 3 %") or precede ("1.1 BLEU score improvement") is its size.
_GAIN_NOUNS = frozenset({"improvement", "improvements", "gain", "gains", "increase", "decrease",
                         "reduction", "drop", "margin", "boost", "degradation", "loss", "increment", "increments"})
# Words between a value and a change noun after it that still make the value the change's size
# ("0.7 % of improvement", "7.0 % respective average accuracy improvement", "0.6/0.5 performance gain").
_GAIN_BETWEEN = frozenset({"%", "of", "absolute", "relative", "performance", "average", "respective", "overall",
                           "accuracy", "score", "scores", "point", "points"})
# Verbs that report a change: a value after "by" in their sentence is its size, and so is a value
# right after one ("we only lose 0.1 - 0.4 F1", "dropping 3 %", "F 1 increased 3.35 %").
_CHANGE = ("improv", "outperform", "increas", "decreas", "reduc", "boost", "gain", "surpass", "exceed", "beat", "drop",
           "lower", "rais", "los", "suffer", "degrad", "jump", "fell", "fall")
# Verbs whose value right after them is a change's size ("lose 0.1 - 0.4 F1"), not a score
# compared ("does not exceed the 1.0 %") nor an adjective's ("lower accuracy 66 %").
_CHANGED_BY = ("improv", "increas", "decreas", "reduc", "boost", "gain", "drop", "los", "suffer", "degrad", "jump",
               "fell", "fall")
_NUMBER = re.compile(r"[-+]?\d[\d.,]*%?|%")
# Words after an integer that make it a count ("620 ANs", "5 runs").
_COUNTED = frozenset({"examples", "sentences", "documents", "papers", "words", "tokens", "pairs", "annotators", "samples",
                      "runs", "epochs", "layers", "parameters", "instances", "queries", "questions", "articles",
                      "summaries", "languages", "tasks", "datasets", "models", "systems", "times", "seeds", "classes",
                      "relations", "entities", "k", "m", "million", "billion", "thousand", "labels", "proposals"})


# Metrics counted over a ranking's top k, said "... at k" ("Precision at 5", "Hits at 10").
_RANKED = frozenset({"precision", "recall", "accuracy", "hits", "success", "ndcg", "map", "mrr", "rate"})


def not_a_score(tokens: Sequence[str], value: Span, spans: Sequence[Span]) -> str | None:
    """Why a MetricValue of a sentence is no reported score, or None: a "difference" ("+2.94",
    "outperforms X by 19.3 %", "4.7 points higher"), a "setting" ("λ = 0.05") or a "count"."""
    text = "".join(tokens[value.start:value.end])
    before = [t.lower() for t in tokens[max(0, value.start - 2):value.start]]
    after = [t.lower() for t in tokens[value.end:value.end + 2]]
    sentence = "".join(tokens).lower()  # "out - performs" as "outperforms"
    changed = any(verb in sentence for verb in _CHANGE)
    if changed and (after[:1] == ["from"] or after == ["%", "from"]):
        return "difference"  # "increased development accuracy 0.6 % from 88.9 % to 89.5 %"
    metric = next((s for s in spans if s.label == "MetricName" and s.start >= value.end), None)
    if metric is not None and metric.start - value.end <= 2 and tokens[metric.end - 1].lower() in ("points", "point"):
        return "difference"  # "by 1.5 - 2 F1 points"
    if metric is not None and metric.start == value.end and \
            [t.lower() for t in tokens[metric.end:metric.end + 1]] in (
                ["absolute"], ["higher"], ["lower"], ["better"], ["worse"], ["points"], ["improvement"], ["gain"],
                ["behind"], ["ahead"]):
        return "difference"  # "2.5 F1 absolute higher than", "2.0 F1 higher on Brown", "0.3 F1 behind"
    k = value.end  # "1.1 BLEU score improvement", "0.7 % of improvement"
    while k < min(len(tokens), value.end + 8) and (tokens[k].lower() in _GAIN_BETWEEN or any(
            s.label == "MetricName" and s.start <= k < s.end for s in spans) or tokens[k] == "and"
                                                     or _NUMBER.fullmatch(tokens[k])):  # "4.5 % and 7.0 % respective"
        k += 1
    if k > value.end and k < len(tokens) and tokens[k].lower() in _GAIN_NOUNS:
        return "difference"
    if text.startswith(("+", "−")) or (after and after[0] in _GAIN_AFTER) or (len(after) > 1 and after[0] == "%"
                                                                              and after[1] in _GAIN_AFTER):
        return "difference"
    back = [t.lower() for t in tokens[max(0, value.start - 12):value.start]]
    listed = next((k for k in range(len(back) - 1, -1, -1)
                   if not re.fullmatch(r"[\d.,%]+|and|,|more|than|over|about|almost|nearly|up|to|roughly|an?|average|"
                                       r"of|approximately|around|some|[-–−]", back[k])), None)
    if listed is not None and back[listed] == "by" and changed:
        return "difference"  # "reduce the error by 4.8 % , 18.2 % , 2.0 %", "by an average of 0.7 %"
    for k in range(len(back) - 1, max(len(back) - 7, -1), -1):
        # "an improvement of almost 0.5 F1", "a gain in absolute accuracy of almost 3 %", "gains of
        # 2.5 to 5", not "increases from 90.87 % to 91.93 %" nor "an increase ... to 63.24 %"
        if back[k] in _GAIN_NOUNS or back[k] == "another":
            return "difference"
        if back[k] in (",", ";", ":", "."):
            break
        if back[k] == "to":
            j = k - 1
            while j >= 0 and _NUMBER.fullmatch(back[j]):
                j -= 1
            if j == k - 1 or (j >= 0 and back[j] == "from"):
                break
    words = back[-4:]
    while len(words) >= 2 and words[-1] in ("-", "–", "−") and _NUMBER.fullmatch(words[-2]):
        words = words[:-2]  # the range "0.1 - 0.4" as one value
    while len(words) >= 3 and words[-1] == "and" and (_NUMBER.fullmatch(words[-2]) or (
            words[-2] == "%" and _NUMBER.fullmatch(words[-3]))):
        words = words[:-3] if words[-2] == "%" else words[:-2]  # "drops 0.5 % and 1.0 %": both changes
    for word in reversed(words):  # "we only lose 0.1 - 0.4 F1", "F 1 increased a marginal 0.1 % to 82.2"
        if word in ("to", "of", "from", "at", "as", ",", "(", "than", "the") or _NUMBER.fullmatch(word):
            break
        if word.startswith(_CHANGED_BY):
            return "difference"
    if before and before[-1] == "+":
        return "difference"  # "∆= + 2.3"
    if re.fullmatch(r"\d{1,4}", text) and (before[-1:] == ["top"] or before[-2:] == ["top", "-"] or (
            before[-1:] == ["at"] and (before[-2:-1] and before[-2] in _RANKED or any(
                s.label == "MetricName" and s.end == value.start - 1 for s in spans)))):
        return "setting"  # the k of a metric's name: "P@5 ( Precision at 5 )", "top - 5 accuracy"
    if (before and before[-1] in ("above", "over", "below", "under", "beyond")) or before in (
            ["more", "than"], ["less", "than"], ["at", "least"], ["at", "most"], ["up", "to"], ["fewer", "than"],
            ["greater", "than"], ["larger", "than"], ["smaller", "than"]):
        return "bound"  # "above 97 F1", "a recall of over 60 %", "less than 0.3", "when the recall is greater than 0.1"
    if before[-1:] in (["is"], ["are"], ["of"], ["="]) and any(w in ("when", "if", "whenever") for w in back[-6:]) \
            and not any(s.label == "MetricName" and value.start - 6 <= s.start < value.start for s in spans):
        return "setting"  # "when masking probability is 0.7": a condition, no score (not "when ..., F1 is 90.1")
    ahead = [t.lower() for t in tokens[value.end:value.end + 4]]
    if "confidence" in ahead[:3] or (before[-1:] == ["at"] and any(
            w.startswith(("test", "significan", "confidence", "level")) for w in
            [t.lower() for t in tokens[value.end:value.end + 10]])):
        return "setting"  # "95 % bootstrap confidence interval", "( at 95 % , two - sided Welch t - test"
    run = next((k for k, w in enumerate(ahead) if not re.fullmatch(r"[-–−]|%|to|[-+]?\d[\d.,]*%?", w)), len(ahead))
    if run < len(ahead) and ahead[run] in ("increase", "decrease", "reduction", "improvement", "faster", "slower",
                                           "higher", "lower", "better", "worse", "increased", "decreased",
                                           "improved", "reduced"):
        return "difference"  # "a 30 - 40 % increase", "15 − 40 % faster", not "to 87.4 % , 1.0 % increase"
    if ahead[:1] == ["%"] and ahead[1:2] == ["of"] and ahead[2:3] in (["our"], ["the"], ["all"], ["these"], ["its"]):
        return "statistic"  # "only 18 % of our sample were errors", "95 % of the performance": a share
    if any(w in ("upper", "ceiling") for w in back[-8:]) and not any(w in (".", ";") for w in back[-8:]):
        return "bound"  # "the upper - bound for accuracy is around 95 %"
    if any(w.startswith(("std", "deviation", "stdev")) for w in back[-6:]):
        return "deviation"  # "std - dev 18.5 to 6.8"
    said = next((k for k in range(len(back) - 1, max(len(back) - 11, -1), -1) if back[k] in ("deviation", "variance")),
                None)
    if said is not None and not any(_NUMBER.fullmatch(w) and re.search(r"\d", w) for w in back[said + 1:]) and not any(
            s.label == "MetricName" and value.start - (len(back) - said) < s.start < value.start for s in spans):
        return "deviation"  # "The standard deviation for models with the same hyperparameters was between 0.6 - 2.5 %"
    if before and before[-1] in ("<", ">", "≤", "≥", "<=", ">="):
        return "p-value" if len(before) > 1 and before[-2].lower() == "p" else "bound"  # "chance level < 0.0001"
    named = max((s for s in spans if s.end <= value.start and s.label in ("HyperparameterName", "MetricName")),
                key=lambda s: s.end, default=None)
    if named is not None and named.label == "HyperparameterName" and value.start - named.end <= 3:
        return "setting"  # "a λ of 0.05", "learning rate 3 × 10−5"
    if before and before[-1] in ("=", ":") and len(before) > 1 and not any(
            s.label == "MetricName" and s.end == value.start - 1 for s in spans):
        return "setting"
    if before[-1:] == ["(="]:
        return "setting"  # "the error rates (= 1 - P@1 )": a metric's definition, no score
    if after and after[0] in _COUNTED:
        return "count"  # "620 examples", "0.001 labels"
    return None


# What follows a number's digits in scientific notation: "× 10−5", "x 10 ^ -5", "e-5", "^ -5".
_EXPONENT = re.compile(r"[×x·*]\s?10(?:\s?\^\s?[-−–]?|\s?[-−–])\s?\d+|[eE][-−–]?\d+|\^\s?[-−–]?\s?\d+")


def changed_from(tokens: Sequence[str], value: Span) -> bool:
    """Whether a value is where a change starts in a sentence of change ("F1 improved by 4.7 %
    from 81.1 % to 85.8 %"): a score of the thing before the change (a baseline the sentence
    seldom names), not of the model it names."""
    if value.start == 0 or tokens[value.start - 1].lower() != "from":
        return False
    after = " ".join(tokens[value.end:value.end + 3]).lower()
    return bool(re.match(r"(?:% )?to [-+]?\.?\d", after)) and any(v in "".join(tokens).lower() for v in _CHANGE)


def with_exponent(tokens: Sequence[str], value: Span) -> Span:
    """``value`` grown over the rest of a number in scientific notation the tagger cut ("3" of
    "3 × 10−5", "10−5" of it): one number, never "3"."""
    start, end = value.start, value.end
    if start >= 2 and tokens[start - 1] in ("×", "x", "·", "*") and re.fullmatch(r"\d+(?:\.\d+)?", tokens[start - 2]) \
            and tokens[start].startswith("10"):
        start -= 2
    for n in (4, 3, 2, 1):
        if end + n <= len(tokens) and _EXPONENT.fullmatch(" ".join(tokens[end:end + n])) \
                and re.search(r"\d$", tokens[end - 1]):
            end += n
            break
    return value if (start, end) == (value.start, value.end) else Span(value.label, start, end, value.score)


def _owner(spans: Sequence[Span], tokens: Sequence[str], value: Span, label: str) -> Span | None:
    """The ``label`` span a value in parentheses right after it belongs to ("A ( 68.2 ) and B
    ( 66.2 )": 68.2 is A's, 66.2 B's), else None."""
    if value.start >= 1 and tokens[value.start - 1] == "(":
        return next((s for s in spans if s.label == label and s.end == value.start - 1), None)
    return None


# A year as papers print it in a citation or a name ("2019", "2016a"); one in a citation between a name and its value
# ("BERT ( Devlin et al . , 2018 ) reaches 89 F1") is no rival score.
YEAR = r"(?:19|20)\d\d[a-z]?"
_YEAR = re.compile(YEAR)


def stated_of(spans: Sequence[Span], tokens: Sequence[str], value: Span) -> Span | None:
    """The method a sentence states ``value`` of: the one named right after it by "for",
    "with", "using" ("93.55 F1 for our CharLSTM parser", "91.20 when using BiLSTM"), else the
    one method it names before the value, with no other score nor a comparison between the
    two ("MobileBERT achieves a dev F1 score of 90.3", "DeBERTa improves the perplexity from
    21.6 to 19.5"); None where the sentence names several before it ("BERT outperformed
    ELECTRA ( 77.9 % vs 75.5 % )"), a score between ("BERT BASE achieved 84.4 , whereas we
    achieve 84.24"), a comparison ("91.65 when employing a CNN structure compared to 91.20"), or
    none before (a name after a value is what it is compared with: "a similar F1 ( e.g. ,
    83.91 % ) as our AutoNER models")."""
    methods = [s for s in spans if s.label == "MethodName"]
    metric_words = {k for s in spans if s.label == "MetricName" for k in range(s.start, s.end)}
    after = next((s for s in methods if s.start >= value.end), None)
    if after is not None and after.start - value.end <= 6:
        words = [(k, tokens[k].lower()) for k in range(value.end, after.start)]
        if any(w in _NAMING for _, w in words) and all(w in _NAMING or w in _FILLER or k in metric_words
                                                       for k, w in words):
            return after
    before = [s for s in methods if s.end <= value.start]
    if len({fold(" ".join(tokens[s.start:s.end])) for s in before}) != 1:
        return None
    first = before[-1].end
    # (a change's size, "by 7 %", and where a change starts, "from 21.6 to 19.5", are no rival score)
    rivals = [k for k in range(first, value.start) if _NUMBER.fullmatch(tokens[k]) and re.search(r"\d", tokens[k])
              and not _YEAR.fullmatch(tokens[k]) and tokens[k - 1].lower() not in ("by", "from")]
    compared = any(t.lower() in _COMPARED or t.lower().startswith("outperform") for t in tokens[first:value.start])
    return None if rivals or compared else before[-1]


# Words after a value that name whose it is ("93.55 F1 for our CharLSTM parser"), what else
# may stand between, and words between a name and a value that set another against it.
_NAMING = frozenset({"for", "with", "using", "by"})
_FILLER = frozenset({"%", "our", "the", "a", "an", "when", "score", "mean", "average", "of", "its", "their"})
_COMPARED = frozenset({"compared", "than", "vs", "vs.", "versus", "whereas", "while", "but", "against", "over"})


def only_dataset(p: Paragraph, name: Callable[[Paragraph, Span], str | None]) -> str | None:
    """The one dataset a paragraph names, twice or more, not as data trained on; None for none,
    several, or one named once."""
    mentions = [n for s in p.spans or [] if s.label == "DatasetName" and not trained_on(p.tokens, s.start)
                and (n := name(p, s))]
    data = {fold(n): n for n in mentions}
    return next(iter(data.values())) if len(data) == 1 and len(mentions) > 1 else None


def read_sentences(paragraphs: Sequence[Paragraph], name: Callable[[Paragraph, Span], str | None],
                   known: Callable[[str], dict[str, tuple[str, int]]] | None = None,
                   ) -> tuple[list[Value], list[Result], list[NotResult]]:
    """Every value of the paper's sentences with the name it belongs to; every MetricValue that
    reports a score (a metric named in its sentence, no gain, setting or count: see
    :func:`not_a_score`) as a result, the others as not results. Table rows are skipped.
    ``known``: each type the paper tags a name with (a result's task is one the paper mostly
    calls a task)."""
    values, results, others = [], [], []
    paragraph_data: dict[int, str | None] = {}
    for i, p in enumerate(paragraphs):
        if p.meta.get("cells"):
            continue
        if p.meta.get("kind") == Kind.FIGURE.value:
            # a float's text no table row holds (a plot's labels, a table's part not set in rows):
            # its numbers are said, no results, whatever the tagger made of them
            others.extend(NotResult(token, "figure", (i, k, k + 1)) for k, token in enumerate(p.tokens)
                          if re.search(r"\d", token))
            continue
        ranges = sentence_ranges(p.tokens, p.tags or [])
        for (start, end), spans in zip(ranges, ([s for s in p.spans or [] if a <= s.start < b] for a, b in ranges)):
            said = " ".join(p.tokens[start:end])
            for pair in pair_values(spans, p.tokens):
                pair = Pair(with_exponent(p.tokens, pair.value), pair.name)
                of = name(p, pair.name) if pair.name is not None else None
                place = (i, pair.value.start, pair.value.end)
                text = " ".join(p.tokens[pair.value.start:pair.value.end])
                if pair.value.label == "MetricValue" and not re.search(r"\d", text):
                    continue  # "(" tagged apart from the "72.4 %" after it: no value
                values.append(Value(pair.value.label, text, of, place))
                if pair.value.label != "MetricValue":
                    continue
                # a metric of one letter in lower case ("f = 0.5") is some fraction, no metric
                # (a metric that is a change, "relative error reductions", gives a change, no score)
                reason = not_a_score(p.tokens, pair.value, spans) or (
                    None if of is not None and not re.fullmatch(r"[a-z]", of) else "no metric") or (
                    "difference" if of and _GAIN_NOUNS & {w.rstrip("s") for w in of.lower().split()} else None) or (
                    "over 100" if beyond_percent(of, text) else None) or (
                    "amount" if is_multiple(text) else None)  # "4.8×": a speed-up, no score
                if reason is not None:
                    others.append(NotResult(text, reason, place))
                    continue
                # the data a model was trained on ("trained on Wikipedia") is not the data of its
                # score where the sentence names other data
                tested = [s for s in spans if s.label != "DatasetName" or not trained_on(p.tokens, s.start)]
                tested = tested if any(s.label == "DatasetName" for s in tested) else spans
                found = {f: _owner(tested, p.tokens, pair.value, label) or (
                    stated_of(tested, p.tokens, pair.value) if f == "model" else nearest(tested, label, pair.value))
                         for f, label in RESULT_FIELDS.items()}
                named = {f: name(p, s) if s is not None else None for f, s in found.items()}
                if named["task"] and known is not None and not mainly(known(named["task"]), "TaskName"):
                    named["task"] = None  # a method or setting the model once tagged as a task
                if named["dataset"] is None:
                    # "... allowing our model to reach 66.04 EM" in a paragraph on "the TriviaQA test
                    # set": the one dataset the paragraph names (asked once a paragraph)
                    if i not in paragraph_data:
                        paragraph_data[i] = only_dataset(p, name)
                    named["dataset"] = paragraph_data[i]
                if changed_from(p.tokens, pair.value):
                    named["model"] = None  # "from 81.1 % to 85.8 %": 81.1 is the baseline's, not the model's
                results.append(Result(named["task"], named["dataset"], of, text, named["model"], place,
                                      split=said_split(said), setting=said_setting(said)))
        others.extend(untagged(p, i))
    return values, results, others


# Words before a number that make it a reference, not a figure: "Section 5.2", "Table 3.1".
_REFERENCES = frozenset({"section", "sections", "sec", "sec.", "§", "table", "tables", "tab.", "figure", "figures",
                         "fig", "fig.", "eq", "eq.", "equation", "appendix", "algorithm", "chapter", "step", "line"})


_PLAIN_NUMBER = re.compile(r"\d+(?:\.\d+)?")


def untagged(p: Paragraph, i: int) -> list[NotResult]:
    """The numbers of paragraph ``i`` that print like a score ("4.1 %", "0.37") and that no
    tagged span covers: not results, "untagged" (the tagger gave the number no type), so that no
    number that may be a score leaves the summary unaccounted for."""
    covered = {k for s in p.spans or [] for k in range(s.start, s.end)}
    found = []
    for k, token in enumerate(p.tokens):
        if k not in covered and _PLAIN_NUMBER.fullmatch(token) and (
                "." in token or p.tokens[k + 1:k + 2] == ["%"]) and not (
                k and p.tokens[k - 1].lower().strip("(") in _REFERENCES):
            end = k + 2 if p.tokens[k + 1:k + 2] == ["%"] else k + 1
            found.append(NotResult(" ".join(p.tokens[k:end]), "untagged", (i, k, end)))
    return found
