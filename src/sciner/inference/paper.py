"""Paper-level decoding: a paper's own tags as evidence at the other places its names occur.

Papers repeat their names, and a model tagging one paragraph at a time is inconsistent about
them: a name tagged in one paragraph is missed, or given another type, in the next. The
second pass here reads a whole document (one paper) at once:

1. decode every paragraph as usual (type biases, constrained Viterbi);
2. for every name the paper tagged (its exact tokens; values such as "0.1" do not vote, as
   their type depends on the sentence), find all its occurrences in the paper, and note
   what the first pass made of each: type X (every word tagged X), outside (every word O),
   or neither;
3. at each occurrence, the *other* occurrences vote: the words get ``bonus`` times the share
   of the others tagged X added to the log-probabilities of B-X and I-X (when at least
   ``min_tagged`` others are X), and ``outside_bonus`` times the share left untagged added
   to O;
4. decode again. The model's own scores decide: a span is added, removed or retyped only
   where the model's margin against it is smaller than the paper's vote.

Whole names: ``touch_penalty`` is subtracted from the transition into B-X right after B-X or
I-X, in both passes, so that two touching names of one type must beat one longer name by that
much (the model otherwise splits names such as "OpenAI GPT" in two).

All of it is NumPy over per-word log-probabilities: no model, no torch. The parameters are
chosen on the dev groups by cross-fitting (``benchmarks/accuracy.py --steps``) and kept in a
model's ``model.json`` under ``paper_level``.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from sciner.document import Span, bio_to_spans
from sciner.labels import BIO_TAGS, ENTITY_TYPES, NAME_TYPES, OUTSIDE
from sciner.model.viterbi import touch_penalty, type_shift, viterbi_tags

_B = {t: BIO_TAGS.index(f"B-{t}") for t in ENTITY_TYPES}
_I = {t: BIO_TAGS.index(f"I-{t}") for t in ENTITY_TYPES}
_O = BIO_TAGS.index(OUTSIDE)


@dataclass(frozen=True)
class PaperLevel:
    """Parameters of the paper-level pass; the defaults (all 0) decode each paragraph alone."""

    bonus: float = 0.0  # per word, on B-X and I-X, times the share of other occurrences tagged X
    min_tagged: int = 2  # other occurrences tagged X needed before X gets any bonus
    outside_bonus: float = 0.0  # per word, on O, times the share of other occurrences left untagged
    touch_penalty: dict[str, float] = field(default_factory=dict)  # per type: B-X right after X

    @property
    def consistency(self) -> bool:
        return self.bonus > 0.0 or self.outside_bonus > 0.0

    def to_meta(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_meta(cls, meta: Mapping[str, Any] | None) -> "PaperLevel":
        meta = dict(meta or {})
        return cls(bonus=float(meta.get("bonus", 0.0)), min_tagged=int(meta.get("min_tagged", 2)),
                   outside_bonus=float(meta.get("outside_bonus", 0.0)),
                   touch_penalty={str(k): float(v) for k, v in dict(meta.get("touch_penalty", {})).items()})


def decode_paper(tokens: Sequence[Sequence[str]], log_probs: Sequence[np.ndarray],
                 type_bias: Mapping[str, float], params: PaperLevel) -> list[list[str]]:
    """BIO tags of one document's paragraphs (``tokens``, with their (n_words, T) ``log_probs``)."""
    return decode_documents(tokens, log_probs, [list(range(len(tokens)))], type_bias, params)


def decode_documents(tokens: Sequence[Sequence[str]], log_probs: Sequence[np.ndarray],
                     documents: Sequence[Sequence[int]], type_bias: Mapping[str, float],
                     params: PaperLevel) -> list[list[str]]:
    """BIO tags of every paragraph, each of ``documents`` (lists of paragraph indices) read as
    one paper; the Viterbi passes are batched over all the documents' paragraphs."""
    shift = type_shift(type_bias)
    scores = [lp + shift for lp in log_probs]
    transition = _transition(params)
    first = viterbi_tags(scores, transition)
    if not params.consistency:
        return first
    votes = [occurrence_votes([tokens[i] for i in members], [first[i] for i in members]) for members in documents]
    return _second_pass(scores, first, documents, votes, params, transition)


def _transition(params: PaperLevel) -> np.ndarray | None:
    return touch_penalty(params.touch_penalty) if any(params.touch_penalty.values()) else None


def _second_pass(scores: Sequence[np.ndarray], first: list[list[str]], documents: Sequence[Sequence[int]],
                 votes: Sequence[list[tuple[int, int, int, Counter[str]]]], params: PaperLevel,
                 transition: np.ndarray | None) -> list[list[str]]:
    """``first`` decoded again where the documents' ``votes`` add scores."""
    extra: list[np.ndarray | None] = [None] * len(scores)
    for members, doc_votes in zip(documents, votes):
        for i, e in zip(members, votes_to_scores(doc_votes, [len(scores[i]) for i in members], params)):
            extra[i] = e
    return redecode(scores, first, extra, transition)


def scored_spans(tags: Sequence[str], log_probs: np.ndarray) -> list[Span]:
    """The spans of ``tags``, each scored as the BIO head scores its own: the mean, over its
    words, of the model's probability of the chosen tag (before any bias or vote)."""
    if not len(tags):
        return []
    chosen = log_probs[np.arange(len(tags)), [BIO_TAGS.index(t) for t in tags]]
    return [Span(s.label, s.start, s.end, float(np.exp(chosen[s.start : s.end].mean()))) for s in bio_to_spans(tags)]


def redecode(scores: Sequence[np.ndarray], first: list[list[str]], extra: Sequence[np.ndarray | None],
             transition: np.ndarray | None) -> list[list[str]]:
    """``first`` with the paragraphs that have ``extra`` scores decoded again with them added."""
    changed = [i for i, e in enumerate(extra) if e is not None]
    out = list(first)
    for i, tags in zip(changed, viterbi_tags([scores[i] + extra[i] for i in changed], transition)):
        out[i] = tags
    return out


def occurrence_votes(tokens: Sequence[Sequence[str]], tags: Sequence[Sequence[str]]
                     ) -> list[tuple[int, int, int, Counter[str]]]:
    """Each occurrence (paragraph, start, end) of a string the document tagged somewhere, with
    what the *other* occurrences of that string were tagged: a count per type and ``O``."""
    # Names only: a value's type depends on its sentence ("0.1": a dropout rate, then a gain in
    # F1); letting values vote cost a dev group 0.02 MetricValue F1.
    names = {tuple(tokens[p][s.start : s.end]) for p, para in enumerate(tags) for s in bio_to_spans(para)
             if s.label in NAME_TYPES}
    lengths: dict[str, set[int]] = defaultdict(set)
    for name in names:
        lengths[name[0]].add(len(name))
    found: list[tuple[int, int, int, tuple[str, ...], str | None]] = []
    for p, words in enumerate(tokens):
        for i, word in enumerate(words):
            for n in lengths.get(word, ()):
                name = tuple(words[i : i + n])
                if name in names:
                    found.append((p, i, i + n, name, _read_as(tags[p][i : i + n])))
    totals: dict[tuple[str, ...], Counter[str]] = defaultdict(Counter)
    for *_, name, label in found:
        totals[name][label or ""] += 1
    out = []
    for p, start, end, name, label in found:
        others = totals[name].copy()
        others[label or ""] -= 1  # "": occurrences read as neither a type nor O
        out.append((p, start, end, others))
    return out


def _read_as(tags: Sequence[str]) -> str | None:
    """The type every word of ``tags`` has (``O`` when all are outside), else None."""
    kinds = {t if t == OUTSIDE else t[2:] for t in tags}
    return kinds.pop() if len(kinds) == 1 else None


def consistency_bonus(tokens: Sequence[Sequence[str]], tags: Sequence[Sequence[str]],
                      params: PaperLevel) -> list[np.ndarray | None]:
    """Per paragraph, (n_words, T) scores the paper's votes add (step 3 of the module
    docstring), or None where they add nothing."""
    return votes_to_scores(occurrence_votes(tokens, tags), [len(words) for words in tokens], params)


def votes_to_scores(votes: Sequence[tuple[int, int, int, Counter[str]]], lengths: Sequence[int],
                    params: PaperLevel) -> list[np.ndarray | None]:
    """:func:`consistency_bonus` from the :func:`occurrence_votes` of paragraphs of ``lengths`` words."""
    extra: list[np.ndarray | None] = [None] * len(lengths)
    for p, start, end, others in votes:
        n_others = sum(others.values())
        if n_others == 0:
            continue
        add = np.zeros(len(BIO_TAGS), dtype=np.float32)
        for etype in ENTITY_TYPES:
            if others[etype] >= params.min_tagged:
                add[_B[etype]] = add[_I[etype]] = params.bonus * others[etype] / n_others
        add[_O] = params.outside_bonus * others[OUTSIDE] / n_others
        if not add.any():
            continue
        if extra[p] is None:
            extra[p] = np.zeros((lengths[p], len(BIO_TAGS)), dtype=np.float32)
        extra[p][start:end] += add
    return extra


# Candidate values when fitting (:func:`fit_paper_level`); 0 (off) is always among them.
BONUS_GRID = (0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0)
MIN_TAGGED_GRID = (1, 2, 3)
OUTSIDE_GRID = (0.0, 0.5, 1.0, 1.5, 2.0, 3.0)
TOUCH_GRID = (0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0, 8.0)
# A type's touch penalty is the largest whose F1 is within this of its best: where the dev
# scores cannot tell a split name from a whole one (the differences are seed noise), whole.
TOUCH_TOLERANCE = 0.002


@dataclass
class _Prepared:
    """Biased scores, first-pass tags and each document's votes (they do not depend on the bonuses)."""

    scores: list[np.ndarray]
    first: list[list[str]]
    votes: list[list[tuple[int, int, int, Counter[str]]]]


def _prepare(documents: Sequence[Sequence[int]], tokens: Sequence[Sequence[str]], log_probs: Sequence[np.ndarray],
             type_bias: Mapping[str, float], transition: np.ndarray | None, *, votes: bool = True) -> _Prepared:
    shift = type_shift(type_bias)
    scores = [lp + shift for lp in log_probs]
    first = viterbi_tags(scores, transition)
    if not votes:
        return _Prepared(scores, first, [])
    return _Prepared(scores, first, [occurrence_votes([tokens[i] for i in members], [first[i] for i in members])
                                     for members in documents])


def _tags(prepared: _Prepared, documents: Sequence[Sequence[int]], params: PaperLevel,
          transition: np.ndarray | None) -> list[list[str]]:
    if not params.consistency:
        return prepared.first
    return _second_pass(prepared.scores, prepared.first, documents, prepared.votes, params, transition)


def fit_paper_level(tokens: Sequence[Sequence[str]], log_probs: Sequence[np.ndarray], gold: Sequence[Sequence[str]],
                    documents: Sequence[Sequence[int]], type_bias: Mapping[str, float], *,
                    consistency: bool = True, whole_names: bool = True) -> PaperLevel:
    """Parameters that maximise dev F1 over ``documents`` (lists of paragraph indices), decoded
    with ``type_bias``. Whole names first: each type's touch penalty the largest value of
    :data:`TOUCH_GRID` that gives that type an F1 within :data:`TOUCH_TOLERANCE` of its best;
    then the consistency bonuses, over the whole grid, for the best micro F1 (ties: the
    smallest)."""
    from sciner.evaluate.metrics import Counts, count_entities

    penalty: dict[str, float] = {}
    if whole_names:
        no_votes = PaperLevel()
        for etype in ENTITY_TYPES:
            scores: list[tuple[float, float]] = []
            for value in TOUCH_GRID:
                transition = touch_penalty({**penalty, etype: value})
                prepared = _prepare(documents, tokens, log_probs, type_bias, transition, votes=False)
                counts = count_entities(gold, _tags(prepared, documents, no_votes, transition)).get(etype)
                f1 = counts.f1 if counts is not None else 0.0
                scores.append((value, f1))
            best_f1 = max(f1 for _, f1 in scores)
            penalty[etype] = max(value for value, f1 in scores if f1 >= best_f1 - TOUCH_TOLERANCE - 1e-9)
        penalty = {t: v for t, v in penalty.items() if v}
    if not consistency:
        return PaperLevel(touch_penalty=penalty)
    transition = touch_penalty(penalty) if penalty else None
    prepared = _prepare(documents, tokens, log_probs, type_bias, transition)
    best_params, best_f1 = PaperLevel(touch_penalty=penalty), -1.0
    for bonus in BONUS_GRID:
        for min_tagged in MIN_TAGGED_GRID if bonus else MIN_TAGGED_GRID[:1]:
            for outside in OUTSIDE_GRID:
                params = PaperLevel(bonus, min_tagged, outside, penalty)
                counts = count_entities(gold, _tags(prepared, documents, params, transition))
                f1 = sum(counts.values(), Counts()).f1
                if f1 > best_f1 + 1e-9:
                    best_params, best_f1 = params, f1
    return best_params


def documents_of(doc_ids: Sequence[Any]) -> list[list[int]]:
    """Paragraph indices grouped by document id, in first-seen order."""
    out: dict[Any, list[int]] = {}
    for i, doc in enumerate(doc_ids):
        out.setdefault(doc, []).append(i)
    return list(out.values())


def cross_fitted_paper_tags(tokens: Sequence[Sequence[str]], log_probs: Sequence[np.ndarray],
                            gold: Sequence[Sequence[str]], groups: Sequence[str], doc_ids: Sequence[Any],
                            biases: Mapping[str, Mapping[str, float]], *, consistency: bool = True,
                            whole_names: bool = True) -> tuple[list[list[str]], dict[str, PaperLevel]]:
    """Tags of every paragraph decoded paper by paper with parameters fit on the other groups
    only, and those parameters per group: the honest score of the paper-level pass. Each
    group's paragraphs (and the other groups' when fitting) use that group's ``biases`` (the
    type biases :func:`~sciner.inference.calibrate.cross_fitted_tags` fit without it)."""
    out: list[list[str]] = [[] for _ in tokens]
    used: dict[str, PaperLevel] = {}
    for group in sorted(set(groups)):
        rest = [i for i, g in enumerate(groups) if g != group]
        mine = [i for i, g in enumerate(groups) if g == group]
        used[group] = fit_paper_level([tokens[i] for i in rest], [log_probs[i] for i in rest], [gold[i] for i in rest],
                                      documents_of([doc_ids[i] for i in rest]), biases[group],
                                      consistency=consistency, whole_names=whole_names)
        tags = decode_documents([tokens[i] for i in mine], [log_probs[i] for i in mine],
                                documents_of([doc_ids[i] for i in mine]), biases[group], used[group])
        for i, t in zip(mine, tags):
            out[i] = t
    return out, used
