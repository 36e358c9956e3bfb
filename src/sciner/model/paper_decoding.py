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

All of it is NumPy over per-word log-probabilities, beside the Viterbi it runs
(:mod:`sciner.model.viterbi`): no model, no torch. The parameters are fit on the dev split by
``sciner calibrate`` (:func:`sciner.inference.calibrate.fit_paper_level`) and kept in a model's
``model.json`` under ``paper_level``.
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
    transition = _transition(params)
    first = first_pass(tokens, log_probs, documents, type_bias, transition, votes=params.consistency)
    return paper_pass(first, documents, params, transition)


@dataclass
class FirstPass:
    """Biased scores, first-pass tags and each document's votes: all that the paper pass reads,
    none of it depending on the bonuses (so a fit over the bonuses decodes the first pass once)."""

    scores: list[np.ndarray]
    first: list[list[str]]
    votes: list[list[tuple[int, int, int, Counter[str]]]]


def first_pass(tokens: Sequence[Sequence[str]], log_probs: Sequence[np.ndarray], documents: Sequence[Sequence[int]],
               type_bias: Mapping[str, float], transition: np.ndarray | None, *, votes: bool = True) -> FirstPass:
    """Each paragraph decoded alone with ``type_bias`` (and ``transition``'s touch penalties),
    and with ``votes``, each document's :func:`occurrence_votes` of those tags."""
    shift = type_shift(type_bias)
    scores = [lp + shift for lp in log_probs]
    first = viterbi_tags(scores, transition)
    if not votes:
        return FirstPass(scores, first, [])
    return FirstPass(scores, first, [occurrence_votes([tokens[i] for i in members], [first[i] for i in members])
                                     for members in documents])


def paper_pass(first: FirstPass, documents: Sequence[Sequence[int]], params: PaperLevel,
               transition: np.ndarray | None) -> list[list[str]]:
    """The tags of ``params``: the first pass's, decoded again where the documents' votes add
    scores (when ``params`` has consistency bonuses)."""
    if not params.consistency:
        return first.first
    return _second_pass(first.scores, first.first, documents, first.votes, params, transition)


def _transition(params: PaperLevel) -> np.ndarray | None:
    return touch_penalty(params.touch_penalty) if any(params.touch_penalty.values()) else None


def _second_pass(scores: Sequence[np.ndarray], first: list[list[str]], documents: Sequence[Sequence[int]],
                 votes: Sequence[list[tuple[int, int, int, Counter[str]]]], params: PaperLevel,
                 transition: np.ndarray | None) -> list[list[str]]:
    """``first`` decoded again where the documents' ``votes`` (:func:`occurrence_votes` of each
    document's first pass) add scores."""
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


def votes_to_scores(votes: Sequence[tuple[int, int, int, Counter[str]]], lengths: Sequence[int],
                    params: PaperLevel) -> list[np.ndarray | None]:
    """Per paragraph of ``lengths`` words, the (n_words, T) scores the paper's :func:`occurrence_votes`
    add (step 3 of the module docstring), or None where they add nothing."""
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


def documents_of(doc_ids: Sequence[Any]) -> list[list[int]]:
    """Paragraph indices grouped by document id, in first-seen order."""
    out: dict[Any, list[int]] = {}
    for i, doc in enumerate(doc_ids):
        out.setdefault(doc, []).append(i)
    return list(out.values())
