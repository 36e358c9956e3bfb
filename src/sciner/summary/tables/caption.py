"""What a table's caption says of it (:class:`Caption`): the names it gives, the metric it
gives each dataset it names, the legend of the heads' abbreviations."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from sciner.document import Paragraph
from sciner.labels import NAME_TYPES
from sciner.pdf.clean import caption_label
from sciner.summary.names import fold
from sciner.summary.tables.cells import Known, metric_like


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
        texts[s] = known(text).get(label, (text, 0))[0]
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
    one = {label: found.pop() for label, found in names.items() if len(found) == 1}
    by_name: dict[str, str] = {}
    default: str | None = None
    legend: dict[str, str] = {}
    if "MetricName" not in names:  # "All values are F1 scores": a metric no tag gives
        # a word ("accuracies") or said of the numbers ("F1 scores", "values are", "in terms of"),
        # not "RL trained models"
        said = {"score", "scores", "values", "value", "are", "in", "report", "reported", "measured", "(", "%"}
        words = [m for i, w in enumerate(p.tokens[4:], 4) if (m := metric_like(w)) and len(w) > 1
                 and w.lower() not in ("p", "r")
                 and (len(w) >= 5 or said & {t.lower() for t in p.tokens[max(0, i - 2):i] + p.tokens[i + 1:i + 3]})]
        if len(set(words)) == 1:
            one["MetricName"] = words[0]
    # Each metric and the datasets and tasks after it up to the next metric or ";": its own.
    metric: str | None = None
    end = 0
    for s in spans:
        if s.label == "MetricName":
            metric, end = texts[s], s.end
            if any(w.lower() in ("other", "others", "remaining", "rest") for w in p.tokens[s.end:s.end + 8]):
                default = metric
        elif metric is not None and labels[s] in ("DatasetName", "TaskName", "MethodName"):
            if any(w in (";", ".") for w in p.tokens[end:s.start]):
                metric = None
                continue
            by_name.setdefault(fold(texts[s]), metric)
            end = s.end
    # A legend of the heads' abbreviations ("CLS : classification , USR : User activity"):
    # what each short head stands for.
    text = " ".join(p.tokens)
    for short, long in re.findall(r"(?:^|[,;.:(]\s)([A-Z][A-Za-z0-9\-]{1,7})\s:\s([^,;:.()]{3,60}?)(?=\s[,;.)]|$)", text):
        legend[fold(short)] = long.strip()
    if (metric := one.get("MetricName")) and fold(metric) in legend \
            and not metric_like(legend[fold(metric)]):
        del one["MetricName"]  # "REC : Recommendation" names a task
    if len(set(by_name.values()) | ({default} if default else set())) > 1:
        one.pop("MetricName", None)  # several metrics: each for its own datasets
    else:
        by_name, default = {}, None
    return Caption(one, by_name, default, legend)

