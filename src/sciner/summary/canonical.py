"""One key per dataset and per metric across papers, whatever each paper's spelling.

:func:`metric_key` and :func:`dataset_key` normalise a name (case, punctuation, dashes, version
spellings "v1.1" / "1.1", two-digit years "CoNLL-03" / "2003", generic words such as "dataset"
or "score") and then look the metric up in a short table of synonyms (:data:`METRIC_SYNONYMS`):
"R1", "ROUGE-1" and "ROUGE 1" meet at "rouge-1", "Acc", "Acc." and "Accuracy" at "accuracy",
"SQuAD1.1" and "SQuAD v1.1" at "squad 1.1", "CoNLL 2003 NER" and "CoNLL-2003" at "conll 2003".
A dataset key is words joined by single spaces, so that a key is a member of a family whose key
it starts with (:func:`in_family`: "conll" holds "conll 2003"). A lone "F" is kept apart from
"F1" (an F-measure of unknown beta). The paper's own spelling is stored beside the key.

Numbers too have one reading whatever their spelling (:func:`number_value`: "1,806", ".58",
"3 × 10−5"), and a metric printed as a percentage bounds its scores (:func:`beyond_percent`).
"""

from __future__ import annotations

import re

# Synonyms of a metric, each spelling normalised as :func:`_metric_words` makes it -> the key.
METRIC_SYNONYMS: dict[str, str] = {
    **{s: "accuracy" for s in ("acc", "accuracy", "accuracies", "accu")},
    **{s: "exact match" for s in ("em", "exact match", "exactmatch", "exact match accuracy", "exact")},
    **{s: "f1" for s in ("f1", "f 1", "f1 measure", "f measure 1", "f1 score", "fl", "f1score")},
    **{s: "macro f1" for s in ("macro f1", "macro f", "maf1", "mf1", "macro averaged f1", "f1 macro")},
    **{s: "micro f1" for s in ("micro f1", "micro f", "mif1", "micro averaged f1", "f1 micro")},
    **{s: "precision" for s in ("p", "prec", "precision")},
    **{s: "recall" for s in ("r", "rec", "recall")},
    **{s: "rouge-1" for s in ("r1", "rouge1", "rouge 1", "r 1")},
    **{s: "rouge-2" for s in ("r2", "rouge2", "rouge 2", "r 2")},
    **{s: "rouge-l" for s in ("rl", "rougel", "rouge l", "r l")},
    **{s: "bleu" for s in ("bleu", "bleu score")},
    **{s: "perplexity" for s in ("ppl", "perplexity", "perp")},
    **{s: "word error rate" for s in ("wer", "word error rate")},
    **{s: "character error rate" for s in ("cer", "character error rate")},
    **{s: "auc" for s in ("auc", "area under curve", "area under the curve", "roc auc", "auroc", "auc roc")},
    **{s: "mrr" for s in ("mrr", "mean reciprocal rank")},
    **{s: "map" for s in ("map", "mean average precision")},
    **{s: "pearson" for s in ("pearson", "pearson r", "pearson correlation", "pearson s r")},
    **{s: "spearman" for s in ("spearman", "spearman rho", "spearman correlation", "spearman s rho", "spearman s ρ")},
    **{s: "matthews correlation" for s in ("mcc", "matthews correlation", "matthews corr", "matthew s corr")},
    **{s: "las" for s in ("las", "labeled attachment score", "labelled attachment score")},
    **{s: "uas" for s in ("uas", "unlabeled attachment score", "unlabelled attachment score")},
}
# Metrics printed as a percentage or a fraction: no score of theirs is over 100 (a count under
# such a head is a statistic of the data, "211727" tokens under F1).
PERCENT_METRICS = frozenset({"accuracy", "exact match", "f1", "macro f1", "micro f1", "precision", "recall",
                             "rouge-1", "rouge-2", "rouge-l", "bleu", "auc", "mrr", "map", "pearson", "spearman",
                             "matthews correlation", "las", "uas"})
# Words that say nothing of which metric it is ("F1 score", "Accuracy (%)").
_METRIC_FILLER = frozenset({"score", "scores", "value", "values", "avg", "average", "mean", "percent"})
# Words a dataset's name is written with that do not tell one dataset from another.
_DATASET_FILLER = frozenset({"the", "dataset", "datasets", "data", "corpus", "corpora", "benchmark", "set", "ner",
                             "pos", "test", "dev", "development", "validation", "valid", "shared"})
_LANGUAGES = {"english": "en", "german": "de", "french": "fr", "chinese": "zh", "romanian": "ro", "czech": "cs",
              "russian": "ru", "spanish": "es", "japanese": "ja", "finnish": "fi", "turkish": "tr", "dutch": "nl",
              "italian": "it", "portuguese": "pt", "arabic": "ar", "estonian": "et", "latvian": "lv", "hindi": "hi"}
_DASHES = str.maketrans({c: "-" for c in "‐‑‒–—−"})


def _metric_words(name: str) -> str:
    """``name`` lowercased, its marks of percent and parentheses, dashes and dots as spaces."""
    text = name.translate(_DASHES).lower()
    text = re.sub(r"\(\s*%\s*\)|%|↑|↓", " ", text)
    text = re.sub(r"(?<=[a-z])-(?=\d)", "", text)  # "rouge-1" -> "rouge1", "f-1" -> "f1"
    text = re.sub(r"[^\w@ρ]+", " ", text)
    words = [w for w in text.split() if w not in _METRIC_FILLER]
    return " ".join(words)


def metric_key(name: str | None) -> str | None:
    """The canonical key of a metric's name ("ROUGE 1" -> "rouge-1", "Acc." -> "accuracy"), or
    None for no name. "R@1" (recall at 1) stays apart from "R1" (ROUGE-1)."""
    if not name or not name.strip():
        return None
    words = _metric_words(name)
    if not words:
        return name.strip().lower()
    at = re.fullmatch(r"(p|r|prec|precision|rec|recall|hits|h|acc|accuracy)\s*@\s*(\d+)", words)
    if at:  # "R@1", "Recall@1", "P @ 5", "Hits@10"
        head = METRIC_SYNONYMS.get(at.group(1), "hits" if at.group(1) in ("h", "hits") else at.group(1))
        return f"{head}@{at.group(2)}"
    if words in METRIC_SYNONYMS:
        return METRIC_SYNONYMS[words]
    squeezed = words.replace(" ", "")
    if squeezed in METRIC_SYNONYMS:
        return METRIC_SYNONYMS[squeezed]
    return words


def _year(word: str, before: str | None) -> str:
    """A two-digit year after a name ("CoNLL-03", "WMT14") as four digits; any other word as it is."""
    if before is not None and before.isalpha() and re.fullmatch(r"[0-2]\d", word) and len(before) > 2:
        return "20" + word
    return word


def dataset_key(name: str | None) -> str | None:
    """The canonical key of a dataset's name: words and numbers in lower case joined by single
    spaces ("SQuAD v1.1" -> "squad 1.1", "CoNLL-2003 NER" -> "conll 2003", "SST2" -> "sst 2",
    "WMT14 En-De" -> "wmt 2014 en de"), or None for no name."""
    if not name or not name.strip():
        return None
    text = name.translate(_DASHES).lower().replace("'", " ")
    words = re.findall(r"[^\W\d_]+|\d+(?:\.\d+)*", text)
    out: list[str] = []
    for k, word in enumerate(words):
        if word == "v" and k + 1 < len(words) and words[k + 1][0].isdigit():
            continue  # "v1.1": the version
        if word[0].isdigit():
            word = re.sub(r"(\.0)+$", "", word)  # "2.0" is "2"
            word = _year(word, out[-1] if out else None)
        word = _LANGUAGES.get(word, word)
        if word in _DATASET_FILLER and len(words) > 1:
            continue
        out.append(word)
    if re.search(r"\w\s?[*∗⋆]$", text.strip()):
        out.append("*")  # "NYT*": a variant of NYT (its partial-match annotation), a board of its own
    return " ".join(out) or text.strip()


def languages_named(name: str) -> frozenset[str]:
    """The languages a name names, as codes ("WMT 2014 English - to - German" -> {"en", "de"},
    "EN - FR" -> {"en", "fr"})."""
    words = re.findall(r"[^\W\d_]+", name.lower())
    return frozenset(_LANGUAGES.get(w, w) for w in words if w in _LANGUAGES or w in _LANGUAGES.values())


def in_family(key: str, family: str) -> bool:
    """Whether the dataset ``key`` is ``family`` or one of its members ("conll 2003" of "conll")."""
    return key == family or key.startswith(family + " ")


def beyond_percent(metric: str | None, number: str) -> bool:
    """Whether the number written ``number`` cannot be a score in ``metric``: over 100 in a
    metric printed as a percentage or a fraction (accuracy, F1, BLEU, P@5, ...)."""
    key, worth = metric_key(metric), number_value(number)
    if key is None or worth is None:
        return False
    return worth > 100 and (key in PERCENT_METRICS or re.fullmatch(r"(precision|recall|accuracy)@\d+", key) is not None)


def is_multiple(number: str) -> bool:
    """Whether a number is a multiple ("4.8×", "18x", "1.3 ×"): how many times faster or
    smaller, never a score."""
    return _MULTIPLE.fullmatch(number.strip()) is not None


_MULTIPLE = re.compile(r"\.?\d+(?:[.,]\d+)?\s?[x×]")


def written_out(number: str) -> str:
    """A number as Python reads it where the cell's spelling does not: ".58" -> "0.58", "3 ×
    10−5" -> "3e-5", "10−5" -> "1e-5", "1.2E+3" -> "1.2e+3"; other spellings as printed."""
    compact = re.sub(r"\s", "", number)
    if match := re.fullmatch(r"([-+−]?)(?:(.+?)(?:[×x]10\^?|[eE])([-+−]?\d+)|10\^?([-−]\d+))", compact):
        sign, mantissa, exponent, power = match.groups()
        mantissa, exponent = mantissa or "1", exponent or power
        return f"{sign}{'0' if mantissa.startswith('.') else ''}{mantissa}e{exponent.replace('−', '-')}"
    if match := re.fullmatch(r"([-+−]?)(\.\d+)", compact):
        return f"{match.group(1)}0{match.group(2)}"
    return number.strip()


def number_value(number: str) -> float | None:
    """What a number is worth ("1,806" -> 1806.0, "19%" -> 19.0), or None."""
    try:
        return float(written_out(number).replace("−", "-").replace(",", "").rstrip("%").strip())
    except ValueError:
        return None
