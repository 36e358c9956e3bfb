"""What a table's caption says of it (:class:`Caption`): the names it gives, the metric it
gives each dataset it names, the legend of the heads' abbreviations, the dataset of each side
of two tables set side by side; the metric the paper's sentences give each dataset
(:func:`said_metrics`), for tables whose heads and caption name none; and the dataset the
prose citing a table names (:func:`cited_dataset`), for tables nothing of which names theirs."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from sciner.document import Paragraph, Span
from sciner.labels import NAME_TYPES
from sciner.pdf.clean import FLOAT_NUMBER, caption_label
from sciner.summary.names import cut_from_word, fold
from sciner.summary.tables.cells import METRIC_HEADS, Known, TableCell, is_language, is_language_pair, metric_like
from sciner.summary.tables.conventions import benchmark_metric
from sciner.summary.values import TRAINING, sentence_ranges, trained_on

# A word citing a table ("Table 3", "Tab. 3", "Tables 2 and 3").
_CITES = re.compile(r"^tab(?:le|\.)?s?$", re.I)


# A caption whose first word says its table holds statistics ("Table 4 : Statistic information of
# the extended dictionary", "Statistics of the datasets").
_STATISTICS_FIRST = re.compile(r"\s*(?:Table\s+\S+\s*:\s*)?(?:statistics?|statistical information)\b", re.I)


@dataclass(frozen=True)
class Caption:
    """What a caption says of its table: the one name of each type it gives (a caption naming
    three datasets says nothing of which column is which), and the metric it gives each
    dataset or task it names after a metric ("F1 for QQP and MRPC; accuracy for the other
    tasks": ``by_name`` {"qqp": "F1", "mrpc": "F1"}, ``default`` "accuracy")."""

    names: dict[str, str] = field(default_factory=dict)
    by_name: dict[str, str] = field(default_factory=dict)
    default: str | None = None
    legend: dict[str, str] = field(default_factory=dict)  # "CITE : Citation prediction": {"cite": ...}
    text: str = ""  # the caption's words
    # The one dataset each side of a caption of two tables set side by side names ("Left : results
    # on SICK ... Right : results on MSRP", "SICK ( left ) and MSRP ( right )"): {"left": "SICK", ...}.
    sides: dict[str, str] = field(default_factory=dict)
    # The two metrics a caption names as a pair ("on Spearman / Pearson correlation measures"):
    # the metrics of the two scores of each "x / y" cell (a lone number is told by neither).
    pair: str | None = None
    # What the number in brackets beside a score is, where the caption says it is a score too
    # ("The average score of 10 independent runs is depicted in brackets": "average"), else None.
    bracketed: str | None = None
    # The one metric each side names, alike ("Spearman 's correlation ( left ) and accuracy ( right )").
    metric_sides: dict[str, str] = field(default_factory=dict)
    # The datasets it names where it names several ("on the text8 , IMDB and BBC"), saying
    # which is whose nowhere: no one of them is every column's, nor another (the paper's own).
    several: frozenset[str] = frozenset()
    # The metrics it spells out for a symbol heading a column ("Pearson correlation ( r ) ,
    # Spearman 's ρ": {"r": "Pearson correlation", "ρ": "Spearman 's ρ"}), by the symbol as printed.
    symbols: dict[str, str] = field(default_factory=dict)
    # The metric its sentences say each dataset is scored with, read as the paper's prose is
    # (:func:`said_metrics`: "TriviaQA , Hyperpartisan metrics are F1 , WikiHop and IMDB use
    # accuracy"), by folded name: over the paper's prose for this table's columns.
    said: dict[str, str] = field(default_factory=dict)
    # The one task each side names, alike ("Left : ... SICK semantic relatedness ... Right : ...").
    task_sides: dict[str, str] = field(default_factory=dict)

    @property
    def divided(self) -> bool:
        """Whether the caption says which of its words are of the left table and which of the right."""
        return bool(self.sides or self.metric_sides or self.task_sides)

    @cached_property
    def opens_as_statistics(self) -> bool:
        """Whether the caption's first word says its table holds statistics, whatever heads them: its
        precision and recall are those of the data ("Statistic information of the extended dictionary")."""
        return bool(_STATISTICS_FIRST.match(self.text))


def caption_of(paragraphs: Sequence[Paragraph], page: object, label: str) -> int | None:
    """The paragraph captioning table ``label`` (on its page if there is one there), or None."""
    found = [i for i, p in enumerate(paragraphs) if p.meta.get("kind") == "caption" and p.tokens
             and (caption_label(" ".join(p.tokens[:4])) or "") == label]
    return next((i for i in found if paragraphs[i].meta.get("page") == page), found[0] if found else None)


def read_caption(paragraphs: Sequence[Paragraph], page: object, label: str, known: Known) -> Caption:
    """What the caption of table ``label`` says of it (see :class:`Caption`); nothing without one."""
    at = caption_of(paragraphs, page, label)
    if at is None:
        return Caption()
    p = paragraphs[at]
    # Not a name that modifies the next word ("Document - level evaluation": no task "Document"),
    # nor a task cut from a word ("Zero - shot results": no task "Zero"), nor the data a model was
    # trained on ("vectors trained on Wikipedia"), not what its scores were measured on.
    spans = sorted((s for s in p.spans or [] if s.label in NAME_TYPES
                    and [w.lower() for w in p.tokens[s.end:s.end + 2]] not in (["-", "level"], ["-", "based"])
                    and not cut_from_word(s.label, p.tokens, s.start, s.end)
                    and not (s.label == "DatasetName" and trained_on(p.tokens, s.start))
                    and not spells_out(p.tokens, s.start) and not cut_short(s.label, p.tokens, s.start, s.end)),
                   key=lambda s: s.start)
    named = {s: _span_name(p, s, known) for s in spans}
    names: dict[str, set[str]] = {}
    for kind, name in named.values():
        names.setdefault(kind, set()).add(name)
    # One metric spelled twice ("EM ( Exact Match )") or named by two spans ("Accuracy of
    # Exact Matching") is one.
    metrics = [s for s in spans if s.label == "MetricName"]
    for a, b in zip(metrics, metrics[1:]):
        between = p.tokens[a.end:b.start]
        if between == ["("]:
            names["MetricName"].discard(named[b][1])
        elif between == ["of"]:
            names["MetricName"] -= {named[a][1], named[b][1]}
            names["MetricName"].add(f"{named[a][1]} of {named[b][1]}")
    data = [s for s in spans if named[s][0] == "DatasetName"]
    for a, b in zip(data, data[1:]):
        # "the CNN and Daily Mail dataset": one dataset of two names (not "the WN18 and FB15k datasets")
        if p.tokens[a.end:b.start] in (["and"], ["/"]) and [w.lower() for w in p.tokens[b.end:b.end + 1]] in (
                ["dataset"], ["corpus"]) and len(names["DatasetName"]) == 2:
            names["DatasetName"] = {f"{named[a][1]} {p.tokens[a.end]} {named[b][1]}"}
    one = {kind: found.pop() for kind, found in names.items() if len(found) == 1}
    if "DatasetName" not in names and (untagged := _results_on(p.tokens, known)):
        one["DatasetName"] = untagged  # "Main results on resume NER ." where the prose tags "resume"
    elif "DatasetName" not in names and (pair := _language_pair(p.tokens)):
        one["DatasetName"] = pair  # "En - De test BLEU": the data is the translation direction's
    if "MetricName" not in names and (said := _said_metric(p)) is not None:
        one["MetricName"] = said
    by_name, default = _metric_by_name(p, spans, named)
    legend = _legend(p)
    if (metric := one.get("MetricName")) and fold(metric) in legend and not metric_like(legend[fold(metric)]):
        del one["MetricName"]  # "REC : Recommendation" names a task
    if len(set(by_name.values()) | ({default} if default else set())) > 1:
        one.pop("MetricName", None)  # several metrics: each for its own datasets
    else:
        by_name, default = {}, None
    return Caption(one, by_name, default, legend, " ".join(p.tokens), _sides(p, named), _said_pair(p),
                   bracketed_score(p.tokens), _sides(p, named, "MetricName"), frozenset(names.get("DatasetName", ())),
                   _symbols(p, metrics), said_metrics([p], known, captions=True).by_name,
                   _sides(p, named, "TaskName"))


# The words before what a caption's key says a mark or short form stands for ("“ MTL ” stands
# for multi - task learning", "Ens denotes ensemble").
_SPELLS_OUT = re.compile(r"^(?:stands? for|refers? to|is short for|short for|denotes?|means?|represents?)$", re.I)


def spells_out(tokens: Sequence[str], start: int) -> bool:
    """Whether the name at ``start`` is what a caption's key spells a short form out as ("“ MTL ”
    stands for multi - task learning"): a row's mark explained, not what the table is of."""
    return any(_SPELLS_OUT.match(" ".join(tokens[max(start - n, 0):start])) for n in (1, 2, 3))


# Words that may follow a task's whole name in a caption ("translation tasks", "parsing results").
_AFTER_TASK = frozenset({"task", "tasks", "result", "results", "performance", "dataset", "datasets", "data",
                         "benchmark", "benchmarks", "set", "sets", "model", "models", "system", "systems", "score",
                         "scores", "and", "or", "of", "on", "for", "with", "in", "by", "to", "from", "at", "as"})


def cut_short(label: str, tokens: Sequence[str], start: int, end: int) -> bool:
    """Whether a task the caption tags is one word in lower case cut from the name it begins
    ("word" of "word similarity tasks"): no task of the table's, the whole name untagged."""
    if label != "TaskName" or end - start != 1 or end >= len(tokens) or not tokens[start].isalpha() \
            or not tokens[start].islower():
        return False
    after = tokens[end]
    return after.isalpha() and after.islower() and after not in _AFTER_TASK and not metric_like(after)


# A metric's symbol: one letter, Latin or Greek ("r", "ρ", "τ").
_SYMBOL = re.compile(r"^[A-Za-zα-ωΑ-Ω]$")


def _symbols(p: Paragraph, metrics: Sequence[Span]) -> dict[str, str]:
    """The symbols the caption spells out as metrics it tags: one in brackets right after the
    metric ("Pearson correlation ( r )") or ending it ("Spearman 's ρ")."""
    found = {}
    for s in metrics:
        words = p.tokens[s.start:s.end]
        after = p.tokens[s.end:s.end + 3]
        if len(after) == 3 and after[0] == "(" and after[2] == ")" and _SYMBOL.match(after[1]):
            found[after[1]] = " ".join(words)
        elif len(words) > 1 and _SYMBOL.match(words[-1]):
            found[words[-1]] = " ".join(words)
    return found


# A sentence of a caption saying what brackets hold, and the words that make it a score ("the
# average score of 10 runs is in brackets", "mean accuracy in parentheses") or not one ("the
# standard deviation in parentheses", "the number of examples in brackets", "rank").
_BRACKETS = re.compile(r"^(?:brackets?|parenthes[ie]s|parenthesized|bracketed)$", re.I)
_BRACKETED_SCORE = re.compile(r"^(?:average|averaged|mean|median|score|scores|result|results)$", re.I)
_BRACKETED_OTHER = re.compile(r"^(?:std|standard|deviations?|variance|difference|differences|improvements?|gains?|"
                              r"ranks?|ranking|number|numbers|counts?|sizes?|#|p|significance|change|relative|"
                              r"error|errors|interval|intervals|percentage|%)$", re.I)


def bracketed_score(tokens: Sequence[str]) -> str | None:
    """What the numbers in brackets beside the scores of a table are, where its caption says in
    a sentence naming brackets that they are scores too ("The average score of 10 independent
    runs is depicted in brackets" -> "average"; "mean in parentheses" -> "mean"); None where it
    says nothing of brackets, or says they hold a deviation, a difference, a count or a rank."""
    start = 0
    for end in [k for k, t in enumerate(tokens) if t in (".", ";")] + [len(tokens)]:
        words = tokens[start:end]
        start = end + 1
        if not any(_BRACKETS.match(w) for w in words) or any(_BRACKETED_OTHER.match(w) for w in words):
            continue
        said = [w.lower() for w in words if _BRACKETED_SCORE.match(w)]
        if said:
            return next((w for w in said if w not in ("score", "scores", "result", "results")), "bracketed")
    return None


def _language_pair(tokens: Sequence[str]) -> str | None:
    """The one translation direction a caption names ("En - De", "EN→DE", "English-German"),
    written without spaces; None for none or several."""
    found = set()
    for k, word in enumerate(tokens):
        if is_language_pair(word):
            found.add(word)
        elif k + 2 < len(tokens) and tokens[k + 1] in ("-", "–", "→", "->") \
                and is_language_pair(" ".join(tokens[k:k + 3])):
            found.add(f"{word}-{tokens[k + 2]}" if tokens[k + 1] in ("-", "–") else "".join(tokens[k:k + 3]))
    return found.pop() if len(found) == 1 else None


def _sides(p: Paragraph, named: dict[Span, tuple[str, str]], kind: str = "DatasetName") -> dict[str, str]:
    """The one dataset (``kind``: or name of another type) each side of the caption names, where
    it says which words are of the left table and which of the right: "Left : ... Right : ..." (a
    side's words up to the next side's), "... ( left ) and ... ( right )" (a side's words since
    the last side's)."""
    words = [w.lower() for w in p.tokens]
    marks = []  # (side, its words' start, end)
    for k, w in enumerate(words):
        if w in ("left", "right") and words[k + 1:k + 2] == [":"]:
            marks.append((w, k + 2, None))
        elif w in ("left", "right") and words[k - 1:k] == ["("] and words[k + 1:k + 2] == [")"]:
            marks.append((w, None, k - 1))
    if {side for side, _, _ in marks} != {"left", "right"} or len(marks) != 2:
        return {}
    bounds = [(0, 0)] + [(start or end, start or end + 3) for _, start, end in marks] + [(len(words), len(words))]
    sides = {}
    for k, (side, start, end) in enumerate(marks):
        first, last = (start, bounds[k + 2][0]) if start is not None else (bounds[k][1], end)
        data = {fold(name): name for s, (label, name) in named.items() if label == kind and first <= s.start < last}
        if len(data) == 1:
            sides[side] = next(iter(data.values()))
    return sides


# The words before the data a caption's results are on: "Results on", "Performance on the".
_RESULT_NOUNS = r"results?|performances?|scores?|accuracy|accuracies|evaluation"
_RESULTS_ON = re.compile(rf"(?:^|\s)(?:{_RESULT_NOUNS})\son(?:\sthe)?$")


def _results_on(tokens: Sequence[str], known: Known) -> str | None:
    """The data a caption's first sentence says its results are on, in words the model left
    untagged there but the paper tags as data elsewhere ("Main results on resume NER ." with
    "resume" tagged in the prose): the paper's name for it; words the paper never tags at all,
    capitalized, as written ("Main results on Resume NER ."); None when it says none so."""
    end = next((k for k, w in enumerate(tokens) if w == "." and k > 3), len(tokens))
    for k in range(2, end):
        if not _RESULTS_ON.search(" ".join(tokens[max(0, k - 3):k]).lower()):
            continue
        words = list(itertools.takewhile(lambda w: re.search(r"\w", w) and w.lower() not in _AFTER_DATA,
                                         tokens[k:end]))
        tagged = False  # whether the paper tags any of the words' starts as anything
        for n in range(min(len(words), 4), 0, -1):
            kinds = known(" ".join(words[:n]))
            if kinds and max(kinds, key=lambda t: kinds[t][1]) == "DatasetName":
                return kinds["DatasetName"][0]
            tagged = tagged or bool(kinds)
        if words and not tagged and words[0][:1].isupper() and words[0].lower() not in _NOT_DATA_WORDS \
                and len(words) <= 3:
            return " ".join(words)
        return None
    return None


# Words after a name that say it is data ("X dataset", "X test set"); with these, the words that
# end the data's name after "results on" ("with", "using" ...).
_DATA_NOUNS = frozenset({"dataset", "datasets", "data", "corpus", "test", "dev", "development", "set", "benchmark"})
_AFTER_DATA = _DATA_NOUNS | {"with", "using", "by", "for", "and", "of", "in", "when", "under", "without"}


def _span_name(p: Paragraph, s: Span, known: Known) -> tuple[str, str]:
    """(type, name) of a name the caption tags: the paper's name for it; "X system" is a
    method whatever it was tagged; a "method" the results are on ("Results on DRCD") is the
    data; a metric with the average or area it is said of."""
    text = " ".join(p.tokens[s.start:s.end])
    label = s.label
    if label == "DatasetName" and [w.lower() for w in p.tokens[s.end:s.end + 1]] in (
            ["system"], ["model"], ["parser"], ["tool"]):
        label = "MethodName"  # "Results of the ScienceParse system": a method, whatever it was tagged
    elif label == "DatasetName" and not _said_data(p.tokens, s.start, s.end):
        # "vectors from the word2vec website": a name the paper tags as a method twice as often
        # as data, not said to be the data here, is the method
        kinds = known(text)
        top = max(kinds, key=lambda k: kinds[k][1], default=label)
        if top != label and kinds[top][1] > 2 * kinds.get(label, (text, 0))[1]:
            label = top
    elif label == "MethodName" and _RESULTS_ON.search(" ".join(p.tokens[max(0, s.start - 3):s.start]).lower()):
        label = "DatasetName"  # "Results on DRCD": the data results are on, whatever it was tagged
    elif label == "TaskName" and benchmark_metric(text) is not None:
        label = "DatasetName"  # "Model performance on VQA": a benchmark's name is its data, tagged as a task
    name = known(text).get(label, (text, 0))[0]
    if label == "MetricName":  # "Area Under Precision - Recall Curve": the area, not the curve
        before = [w.lower() for w in p.tokens[max(0, s.start - 3):s.start]]
        if before[-1:] in (["average"], ["averaged"], ["mean"]) and not text.lower().startswith(before[-1]):
            name = f"{p.tokens[s.start - 1]} {name}"  # "average F 1 for Coref"
        after = [w.lower() for w in p.tokens[s.end:s.end + 1]]
        if before[-2:] == ["area", "under"] or before[-3:] == ["area", "under", "the"]:
            curve = "curve" in text.lower().split() or after != ["curve"]
            name = f"area under {name.replace(' / ', '/')}{'' if curve else ' curve'}"
    return label, name


def _said_data(tokens: Sequence[str], start: int, end: int) -> bool:
    """Whether the words about a name say it is data: "results on X", "in the X", "X dataset",
    "X test set"."""
    before = [w.lower() for w in tokens[max(0, start - 2):start]]
    if before[-1:] == ["the"]:
        before = before[:-1]
    after = [w.lower() for w in tokens[end:end + 1]]
    return before[-1:] in (["on"], ["in"], ["for"], ["across"], ["over"]) or (bool(after) and after[0] in _DATA_NOUNS)


def _said_metric(p: Paragraph) -> str | None:
    """The one metric a caption no tag gives a metric names ("All values are F1 scores"): a
    word ("accuracies"), an acronym of three capitals or more ("Small model BPC on text8"), or
    one said of the numbers ("F1 scores", "values are", "in terms of"), not "RL trained models";
    None when it names none or several."""
    said = {"score", "scores", "values", "value", "are", "in", "report", "reported", "measured", "(", "%"}
    words = [m for i, w in enumerate(p.tokens[4:], 4) if (m := metric_like(w)) and len(w) > 1
             and w.lower() not in ("p", "r")
             and (len(w) >= 5 or (len(w) >= 3 and w.isupper())
                  or said & {t.lower() for t in p.tokens[max(0, i - 2):i] + p.tokens[i + 1:i + 3]})]
    return words[0] if len(set(words)) == 1 else None


def _said_pair(p: Paragraph) -> str | None:
    """The pair of metrics a caption names "x / y" ("Spearman / Pearson correlation", "EM / F1"),
    or None."""
    tokens = p.tokens
    return next((f"{metric_like(tokens[i])} / {metric_like(tokens[i + 2])}" for i in range(4, len(tokens) - 2)
                 if tokens[i + 1] == "/" and all(len(w) > 1 and metric_like(w) for w in (tokens[i], tokens[i + 2]))),
                None)


def _metric_by_name(p: Paragraph, spans: Sequence[Span],
                    named: dict[Span, tuple[str, str]]) -> tuple[dict[str, str], str | None]:
    """Each metric and the datasets and tasks after it up to the next metric or ";": its own
    (folded name -> metric); and the metric said of "the other" ones (None: none)."""
    by_name: dict[str, str] = {}
    default: str | None = None
    metric: str | None = None
    end = 0
    for s in spans:
        if s.label == "MetricName":
            metric, end = named[s][1], s.end
            if any(w.lower() in ("other", "others", "remaining", "rest") for w in p.tokens[s.end:s.end + 8]):
                default = metric
        elif metric is not None and named[s][0] in ("DatasetName", "TaskName", "MethodName"):
            if any(w in (";", ".") for w in p.tokens[end:s.start]):
                metric = None
                continue
            by_name.setdefault(fold(named[s][1]), metric)
            end = s.end
    return by_name, default


def _legend(p: Paragraph) -> dict[str, str]:
    """A legend of the heads' abbreviations ("CLS : classification , USR : User activity", "RR
    denote the run ranking"): what each short head stands for, by its folded short form."""
    text = " ".join(p.tokens)
    return {fold(short): long.strip() for short, long in
            [*re.findall(r"(?:^|[,;.:(]\s)([A-Z][A-Za-z0-9\-]{1,7})\s:\s([^,;:.()]{3,60}?)(?=\s[,;.)]|$)", text),
             *_DENOTES.findall(text)]}


# "RR denote the run ( system ) ranking and TR denote our team ranking": a head spelt out.
_DENOTES = re.compile(r"\b([A-Z][A-Z0-9\-]{1,7})\s(?:denotes?|stands?\sfor)\s(?:the\s|our\s|a\s)?"
                      r"([^,;:.]{3,60}?)(?=\s(?:and|[,;.])\s|\s?[.]?$)")


# Words saying a metric is the one of the data a sentence leaves unnamed ("accuracy for the
# other GLUE tasks", "The other three datasets use accuracy").
_OTHERS = frozenset({"other", "others", "remaining", "rest"})


@dataclass(frozen=True)
class Said:
    """What the paper's sentences (not its tables or captions) say of the metrics: the one metric
    they give each dataset and task, by its folded name (``by_name``); and each metric said of
    "the other" data of a paragraph, with the folded names that paragraph gives their own metric
    (``others``: "Spearman correlation for STS, Matthews correlation for CoLA, and accuracy for
    the other GLUE tasks" -> ({"sts", "cola"}, "accuracy"))."""

    by_name: dict[str, str] = field(default_factory=dict)
    others: tuple[tuple[frozenset[str], str], ...] = ()

    def metric(self, name: str) -> str | None:
        """The metric said of the data or task ``name`` (folded), or of the one name it is cut
        from ("20news", a table's head, for the text's "20Newsgroups"; four letters at least, and
        the names it may be cut from agree), else None."""
        if name in self.by_name:
            return self.by_name[name]
        return _only({m for key, m in self.by_name.items() if _cut_from(name, key)})

    def other(self, name: str, siblings: Sequence[str]) -> str | None:
        """The metric said of the other data for data ``name`` (folded), where the sentence that
        says it gives ``name`` no metric of its own but one to one of its ``siblings`` (the other
        heads of its table, folded, or names they are cut from), else None."""
        return next((metric for named, metric in self.others
                     if not _among(name, named) and any(_among(s, named) for s in siblings if s != name)), None)


def _cut_from(head: str, name: str) -> bool:
    """Whether the folded ``head`` is the folded ``name`` cut short ("20news" of "20newsgroups",
    "fudan" of "fudanset"): four characters or more, a word of three letters or more cut off
    (not a version: "squad" is not cut from "squadv11")."""
    rest = name[len(head):]
    return len(head) >= 4 and name.startswith(head) and len(rest) >= 3 and rest.isalpha()


def _among(name: str, names: frozenset[str]) -> bool:
    return name in names or any(_cut_from(name, other) for other in names)


def _sentence_metrics(tokens: Sequence[str], start: int, spans: Sequence[Span], names: dict[Span, str],
                      ) -> tuple[dict[str, set[str]], str | None]:
    """What one sentence (``tokens`` up to its end, from ``start``) gives each dataset and task it
    names (folded name -> metrics), and the metric it says of the others (None: none); nothing
    where no name it tags as a metric reads as one ("textual similarity"). One metric goes to
    every name of the sentence. Of several, a name the sentence opens a clause with ("For FIGER ,
    we adopt accuracy , loose macro and micro F1") takes the metrics after it up to the next
    name; any other the metrics between the name before it and it ("F1 for QQP and MRPC ,
    Spearman correlation for STS-B"; none there: those of the name before it). No ";" between."""
    if not any(s.label == "MetricName" and metric_like(names[s]) for s in spans):
        return {}, None
    spans = [s for s in spans if s.label in ("DatasetName", "TaskName", "MetricName")]
    metrics = [s for s in spans if s.label == "MetricName"]
    given: dict[str, set[str]] = {}
    default = None
    distinct = {fold(names[m]) for m in metrics}
    for k, m in enumerate(metrics):
        end = metrics[k + 1].start if k + 1 < len(metrics) else len(tokens)
        # (words of its own clause only: "Matthew ’s correlation is used for CoLA ; Other tasks
        # are measured by Accuracy" says Accuracy of the others)
        before = [w.lower() for w in tokens[max(m.start - 6, start):m.start]]
        if ";" in before:
            before = before[len(before) - before[::-1].index(";"):]
        elif len(distinct) != 1:
            before = []
        after = [w.lower() for w in tokens[m.end:min(m.end + 8, end)]]
        after = after[:after.index(";")] if ";" in after else after
        if set(before + after) & _OTHERS:
            default = names[m]
    group: list[Span] = []
    for k, d in enumerate(spans):
        if d.label == "MetricName":
            continue
        between = [m for m in reversed(spans[:k]) if ";" not in tokens[m.end:d.start]]
        before = list(itertools.takewhile(lambda m: m.label == "MetricName", between))[::-1]
        after = list(itertools.takewhile(
            lambda m: m.label == "MetricName" and ";" not in tokens[d.end:m.start], spans[k + 1:]))
        if len(distinct) == 1:
            found = metrics
        elif linked := _linked_metrics(tokens, spans, k):
            found = linked
        elif after and _opens_clause(tokens, start, d.start):
            found = after
        else:
            group = before or (group if between and between[0].label != "MetricName" else [])
            found = group
        found = [m for m in found if not (names[m] == default and _OTHERS & {w.lower() for w in tokens[
            min(m.end, d.end):max(m.start, d.start)]})]  # "GLUE" in "for the other GLUE tasks"
        if found:
            given.setdefault(fold(names[d]), set()).update(names[m] for m in found)
    return given, default


# Words that say the names before them are scored with the metric after them ("TriviaQA ,
# Hyperpartisan metrics are F1", "WikiHop and IMDB use accuracy"), and what else may stand there.
_LINKS = frozenset({"is", "are", "use", "uses", "used", "using", "measured", "evaluated", "scored", "report",
                    "reports", "reported", "adopt", "adopts"})
_LINK_FILLER = frozenset({"metric", "metrics", "the", "by", "with", "in", "terms", "of", "as", "evaluation", "score",
                          "scores", "their", "its", "we"})


def _linked_metrics(tokens: Sequence[str], spans: Sequence[Span], k: int) -> list[Span]:
    """The metrics the name ``spans[k]`` (and the names listed right after it, "," or "and"
    between) are said to be scored with by a word of :data:`_LINKS` ("TriviaQA , Hyperpartisan
    metrics are F1"), else none."""
    j = k + 1
    while j < len(spans) and spans[j].label != "MetricName" \
            and set(tokens[spans[j - 1].end:spans[j].start]) <= {",", "and"}:
        j += 1
    if j >= len(spans) or spans[j].label != "MetricName":
        return []
    words = {w.lower() for w in tokens[spans[j - 1].end:spans[j].start]}
    if not words & _LINKS or not words <= _LINKS | _LINK_FILLER:
        return []
    linked = [spans[j]]
    while j + 1 < len(spans) and spans[j + 1].label == "MetricName" \
            and set(tokens[spans[j].end:spans[j + 1].start]) <= {",", "and", "/"}:
        j += 1
        linked.append(spans[j])
    return linked


def _opens_clause(tokens: Sequence[str], start: int, at: int) -> bool:
    """Whether the name at ``at`` opens a clause of the sentence starting at ``start``: "For
    FIGER", ", and for Open Entity", "On the SST datasets" (not "accuracy for STS")."""
    k = at - 1 if at - 1 >= start and tokens[at - 1].lower() != "the" else at - 2
    return k >= start and tokens[k].lower() in ("for", "on") \
        and (k == start or tokens[k - 1].lower() in (",", "and", ";"))


def said_metrics(paragraphs: Sequence[Paragraph], known: Known, captions: bool = False) -> Said:
    """The metrics the paper's sentences (not its tables; its captions only with ``captions``:
    a caption speaks of its own table, see :attr:`Caption.said`) give its datasets and tasks
    (see :class:`Said`): a sentence tagging metrics and datasets or tasks gives each of them its
    metric ("we report F1 on CoNLL 2003"; of several, the one before it); a name given two
    metrics or more across the paper gets none. A metric said of "the other" data holds for
    the data its sentence and the one before give other metrics."""
    given: dict[str, dict[str, str]] = {}
    others: list[tuple[frozenset[str], str]] = []
    for p in paragraphs:
        if p.meta.get("cells") or (p.meta.get("kind") == "caption") != captions:
            continue
        last: dict[str, set[str]] = {}
        for start, end in sentence_ranges(p.tokens, p.tags or []):
            spans = [s for s in p.spans or [] if start <= s.start < end]
            if not any(s.label == "MetricName" for s in spans):
                last = {}
                continue
            names = {s: known(text := " ".join(p.tokens[s.start:s.end])).get(s.label, (text, 0))[0] for s in spans}
            for s in spans:  # "Matthew" tagged in "Matthew ’s Corr .": the name goes on past the "’s"
                if s.label == "MetricName" and p.tokens[s.end:s.end + 1] in (["’s"], ["'s"]) \
                        and s.end + 1 < len(p.tokens) and p.tokens[s.end + 1][:1].isalpha():
                    names[s] = " ".join(p.tokens[s.start:s.end + 2])
            metrics, default = _sentence_metrics(p.tokens[:end], start, spans, names)
            for key, found in metrics.items():
                given.setdefault(key, {}).update({fold(m): m for m in found})
            if default is not None and metric_like(default):
                named = {key for key, found in (last | metrics).items() if fold(default) not in map(fold, found)}
                if named:
                    others.append((frozenset(named), default))
            last = metrics
    return Said({key: metric for key, metrics in given.items() if key and len(metrics) == 1
                 and metric_like(metric := next(iter(metrics.values())))}, tuple(others))


def listed_metrics(tables: dict[tuple[object, str], list[list[TableCell]]]) -> dict[str, str]:
    """The metric a table of the data lists for each of them, by its folded name: the words
    under a "Metric" head beside the row's first cell ("cMedQANER | 1,673 | 175 | NER | F1"
    under "Dataset | Train | Dev | Task | Metric"); a name listed with two metrics ("F1a / EM",
    or on two rows) gets none."""
    given: dict[str, set[str]] = {}
    for rows in tables.values():
        column = None
        for row in rows:
            head = next((c for c in row[1:] if fold(c.text) in METRIC_HEADS), None)
            if head is not None:
                column = (head.first, head.last)
                continue
            if column is None or len(row) < 2:
                continue
            cell = next((c for c in row[1:] if c.first <= column[1] and column[0] <= c.last), None)
            if cell is not None and re.search(r"[A-Za-z]", cell.text) and len(cell.text.split()) <= 4 \
                    and not re.search(r"[/,&]|\band\b", cell.text) and fold(row[0].text):  # "PAIR" too; one metric
                given.setdefault(fold(row[0].text), set()).add(cell.text.strip())
    return {name: next(iter(metrics)) for name, metrics in given.items() if len(metrics) == 1}


def _datasets(p: Paragraph, spans: Sequence[Span], known: Known) -> set[str]:
    """The datasets ``spans`` of ``p`` name, in the paper's spelling (not a name modifying the
    next word: "Document - level")."""
    found = set()
    for s in spans:
        if s.label != "DatasetName" or [w.lower() for w in p.tokens[s.end:s.end + 2]] in (["-", "level"], ["-", "based"]):
            continue
        text = " ".join(p.tokens[s.start:s.end])
        found.add(known(text).get("DatasetName", (text, 0))[0])
    return found


def _only(names: set[str]) -> str | None:
    """The one name of ``names`` (those that fold alike are one), else None."""
    by_key = {fold(n): n for n in sorted(names, key=len)}
    return next(iter(by_key.values())) if len(by_key) == 1 and next(iter(by_key)) else None


# A sentence of a prose paragraph citing a table: the paragraph, the sentence's token range and
# whether the sentence itself cites the table.
Citing = tuple[Paragraph, int, int, bool]


def citing_sentences(paragraphs: Sequence[Paragraph], label: str) -> Iterator[Citing]:
    """Each sentence of the prose paragraphs citing table ``label`` ("Table 3", "Tab. 3")."""
    number = label.split()[-1]
    for p in paragraphs:
        if p.meta.get("cells") or p.meta.get("kind") == "caption" or not p.spans:
            continue
        at = [k for k in range(len(p.tokens) - 1) if _CITES.match(p.tokens[k]) and p.tokens[k + 1] == number]
        for start, end in sentence_ranges(p.tokens, p.tags or []) if at else ():
            yield p, start, end, any(start <= k < end for k in at)


def cited_tables(paragraphs: Sequence[Paragraph]) -> list[str]:
    """The labels ("table 6") of the tables the prose paragraphs cite, in order, once each: "Table
    6 shows", "Tab. 3", each of "Tables 2 and 3"."""
    cited: dict[str, None] = {}
    for p in paragraphs:
        if p.meta.get("cells") or p.meta.get("kind") in ("caption", "table"):
            continue
        for k in (k for k in range(len(p.tokens) - 1) if _CITES.match(p.tokens[k])):
            at = k + 1
            while re.fullmatch(FLOAT_NUMBER, p.tokens[at]):
                cited.setdefault(f"table {p.tokens[at].lower()}")
                if at + 2 >= len(p.tokens) or p.tokens[at + 1] not in (",", "and", "&"):
                    break
                at += 2  # "Tables 2 and 3": the next number of the list
    return list(cited)


def cited_metric(citing: Sequence[Citing], known: Known) -> str | None:
    """The one metric the sentences citing a table name ("Table 4 shows the accuracy of ..."; the
    table's :func:`citing_sentences`), in the paper's spelling; None when they name none or several."""
    found = {known(text).get("MetricName", (text, 0))[0]
             for p, start, end, cites in citing if cites
             for s in p.spans or [] if s.label == "MetricName" and start <= s.start < end
             for text in [" ".join(p.tokens[s.start:s.end])]}
    return _only(found)


def cited_dataset(citing: Sequence[Citing], known: Known) -> str | None:
    """The one dataset the paper's prose gives a table ("Table 3 shows results on the WMT'14
    En-De test set"; the table's :func:`citing_sentences`): the one the sentences citing it
    name, else the one the paragraphs citing it name (not in a sentence about training: a
    corpus trained on); None when none names one, or several, or the one is a language ("Chinese")."""
    in_sentences: set[str] = set()
    in_paragraphs: set[str] = set()
    untagged: set[str] = set()  # "Results on the resume NER test data are shown in Table 8", "resume" untagged
    for p, start, end, cites in citing:
        if any(TRAINING.match(w) for w in p.tokens[start:end]):
            continue  # "We have used a Google News corpus for training": not the data tested on
        named = _datasets(p, [s for s in p.spans or [] if start <= s.start < end], known)
        in_paragraphs |= named
        if cites:
            in_sentences |= named
            if (data := _results_on_data(p.tokens[start:end])) is not None:
                untagged.add(data)
    cited = _only(in_sentences) if in_sentences else _only(untagged) if untagged else _only(in_paragraphs)
    return None if cited is None or is_language(cited) else cited  # "Chinese" of "Chinese MSRA": no data


def _results_on_data(words: Sequence[str]) -> str | None:
    """The data a sentence says results are on, named by the words between "results on (the)"
    and a word saying they are data ("Results on the resume NER test data": "resume NER"),
    one to three words with a letter each; None where it says none so."""
    text = " ".join(words)
    found = re.search(rf"\b(?:{_RESULT_NOUNS})\s+on\s+(?:the\s+)?((?:[\w.-]*[A-Za-z][\w.-]*\s+){{1,3}}?)"
                      r"(?:(?:test|dev|development|evaluation)\s+)?(?:data|dataset|datasets|set|corpus|benchmark)\b",
                      text, re.I)
    name = found.group(1).strip() if found else None
    return None if not name or any(w.lower() in _AFTER_DATA | _NOT_DATA_WORDS for w in name.split()) else name


# Words that say which or how many data, not their name ("results on all the datasets").
_NOT_DATA_WORDS = frozenset({"all", "the", "both", "each", "every", "these", "those", "this", "that", "our", "their",
                             "its", "other", "several", "different", "various", "two", "three", "four", "five",
                             "same", "full", "whole", "original", "public", "standard", "new", "validation",
                             "held-out", "training", "train", "small", "large", "entire"})


# A word saying what data a paper's results are measured on ("We evaluate our approach on ...",
# "experiments on", "tested on"), and the paper's "use" of a dataset named so ("We use the
# WikiReading dataset", not "( 2016 ) used ... the InfoboxQA dataset").
_EVALUATED = re.compile(r"^(?:evaluat(?:e|es|ed|ing|ion)|experiments?|experimented|tested|benchmarked)$", re.I)
_USED = re.compile(r"^(?:use|used|using)$", re.I)
_DATA_WORDS = frozenset({"dataset", "corpus", "benchmark"})


def evaluated_dataset(paragraphs: Sequence[Paragraph], known: Known) -> str | None:
    """The one dataset the paper's prose says it evaluates on: the datasets named in its
    sentences of evaluation ("We evaluate our approach on the English/French translation task
    of the WMT'14 workshop", "experiments on X") and those it says it uses, named as data ("We
    use the WikiReading dataset"), not in a sentence about training; None when none or several."""
    found: set[str] = set()
    for p in paragraphs:
        if p.meta.get("cells") or p.meta.get("kind") == "caption" or not p.spans:
            continue
        for start, end in sentence_ranges(p.tokens, p.tags or []):
            words = p.tokens[start:end]
            if any(TRAINING.match(w) for w in words):
                continue
            spans = [s for s in p.spans if start <= s.start < end and s.label == "DatasetName"]
            if any(_EVALUATED.match(w) for w in words):
                found |= _datasets(p, spans, known)
            elif any(_USED.match(w) and words[k - 1:k] in (["We"], ["we"]) for k, w in enumerate(words)):
                found |= _datasets(p, [s for s in spans if p.tokens[s.end:s.end + 1]
                                       and p.tokens[s.end].lower() in _DATA_WORDS], known)
    return _only(found)


# A caption of a table of settings or of the data's statistics, whose numbers are no scores
# where no head names a metric over them (said in the caption's first sentence, which names no
# result: "Table 6 : MLM BPC for various pretrained model configurations" is a table of scores).
_SETTINGS_CAPTION = re.compile(r"\b(?:hyper\s?-?\s?parameters?|"
                               r"(?:model|architecture|training)\s(?:settings|configurations?|sizes|details))\b", re.I)
_STATISTICS_CAPTION = re.compile(r"\bstatistics\b|\bpercentiles?\b|\b(?:sentence|document|text|context) lengths\b|\b(?:summary|overview|sizes?|characteristics) of "
                                 r"(?:the |our |all )?(?:data\s?sets?|corpora|benchmarks?)\b|\b(?:numbers?|sizes?|counts?) "
                                 r"of (?:the )?(?:classes|examples|instances|sentences|documents|tokens|samples|words)\b",
                                 re.I)
# A caption whose first words say its numbers are times ("Time cost of each model", "Running
# time of ..."; not "The effect of controlling for training time").
_TIME_CAPTION = re.compile(r"^\s*(?:the\s)?(?:time costs?|running times?|run\s?times?|training times?|inference times?|"
                           r"speed|latency|throughput)\b", re.I)
# A caption whose first words say its numbers are changes ("Perplexity increase when mixed chunk
# attention is applied", "Absolute improvement over the baseline"; not "Results of ...").
_DIFFERENCE_CAPTION = re.compile(r"^\s*(?:\S+\s){0,3}?(?:increases?|decreases?|improvements?|gains?|drops?|"
                                 r"reductions?|changes?|degradations?)\s(?:in|of|on|when|from|over|by|after|with|"
                                 r"relative|compared|against)\b", re.I)
_RESULT_WORDS = re.compile(r"\b(?:results?|comparison|compared|performance|scores?|accuracy|accuracies|error|errors)\b",
                           re.I)


def caption_reason(text: str) -> str | None:
    """Why the numbers of a table with this caption are no scores where no head names their
    metric: "setting" ("The detailed model settings of a few models", "Hyperparameters for
    finetuning"), "statistic" ("Dataset statistics", "Size of sentences, tokens and labels of the
    training, validation and test sets", "Number of documents per split"), "time" ("Time cost of
    each model"), "difference" ("Perplexity increase when ... is applied"), else None."""
    first = re.split(r"\s\.\s|\.$", re.sub(r"^\s*Table\s+\S+\s*:\s*", "", text), maxsplit=1)[0]
    if _STATISTICS_CAPTION.search(" ".join(first.split()[:5])):
        return "statistic"  # "Average sentence lengths for the datasets used in the comparison"
    if _DIFFERENCE_CAPTION.match(first):
        return "difference"  # "Perplexity increase when mixed chunk attention is applied to GAU"
    if _RESULT_WORDS.search(first) or any(metric_like(word) for word in first.split()):
        return None
    if _SETTINGS_CAPTION.search(first):
        return "setting"
    if _TIME_CAPTION.match(first):
        return "time"  # "Time cost of each model ... seconds ... in each training iteration"
    return "statistic" if _STATISTICS_CAPTION.search(first) else None
