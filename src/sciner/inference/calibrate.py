"""Calibration: what ``sciner calibrate`` fits on a model's dev split, on top of its network.

1. Per-type decision biases for the BIO head. Groups annotate with different density: on
   held-out groups the shipped model's precision is well above its recall, most of all for
   TaskName. A bias ``b[X]`` added to the log-probabilities of B-X and I-X before Viterbi
   trades precision for recall per type. Fitting (:func:`fit_bias`): coordinate ascent over a
   grid, each type's bias chosen to maximise that type's exact-span F1 on the dev split.
2. Paper-level decoding's parameters (:mod:`sciner.model.paper_decoding`), on top of the
   biases: a grid search (:func:`fit_paper_level`).

Honest scores come from cross-fitting over the dev split's *units* (its annotator groups; its
papers for a model trained on the user's own files): each unit is decoded with what was fit on
the other units only (:func:`cross_fitted_tags`, :func:`cross_fitted_paper_tags`). With fewer
than two units nothing can be cross-fitted: :func:`calibrate` refuses unless asked to fit
in-sample, and records which it did.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from sciner.evaluate.metrics import Counts, count_entities
from sciner.config import CALIBRATION_UNITS
from sciner.labels import ENTITY_TYPES
from sciner.model.info import fit_on
from sciner.model.paper_decoding import PaperLevel, decode_documents, documents_of, first_pass, paper_pass
from sciner.model.viterbi import touch_penalty, type_shift, viterbi_tags

if TYPE_CHECKING:  # pragma: no cover
    from sciner.data.assemble import Corpus
    from sciner.evaluate.metrics import Report

# What a fit reports after each decoding it scores (a progress bar's update), or None.
Progress = Callable[[int], object] | None


@dataclass
class CalibrateConfig:
    # First pass: candidate biases from low to high (inclusive) in steps of step.
    low: float
    high: float
    step: float
    # Second pass: the first choice and this much either side of it.
    refine: float
    # Paragraphs per Viterbi batch.
    batch: int

    def grid(self) -> list[float]:
        n = int(round((self.high - self.low) / self.step))
        return [round(self.low + k * self.step, 6) for k in range(n + 1)]


DEFAULT = CalibrateConfig(low=-1.0, high=2.0, step=0.5, refine=0.25, batch=256)

LogProbs = Sequence[np.ndarray]  # per paragraph: (n_words, T)


def decode_with_bias(log_probs: LogProbs, bias: dict[str, float], batch: int) -> list[list[str]]:
    """BIO tags of each paragraph by constrained Viterbi over ``log_probs`` plus the type bias."""
    shift = type_shift(bias)
    return viterbi_tags([lp + shift for lp in log_probs], batch=batch)


def _type_f1(gold: Sequence[Sequence[str]], pred: Sequence[Sequence[str]], etype: str) -> float:
    counts = count_entities(gold, pred).get(etype)
    return counts.f1 if counts is not None else 0.0


def fit_bias(log_probs: LogProbs, gold: Sequence[Sequence[str]], cfg: CalibrateConfig,
             types: Sequence[str] = ENTITY_TYPES, *, progress: Progress = None) -> dict[str, float]:
    """Biases of ``types`` (others 0) maximising each type's F1: a pass over the grid, then a
    second pass ``refine`` either side of the first choice. Ties keep the bias nearest 0.
    ``progress`` is told of each of the :func:`bias_fit_steps` decodings."""
    bias = {t: 0.0 for t in ENTITY_TYPES}
    for etype in types:
        bias[etype] = _best(log_probs, gold, bias, etype, sorted(cfg.grid(), key=abs), cfg.batch, progress)
    for etype in types:
        first = bias[etype]
        bias[etype] = _best(log_probs, gold, bias, etype, [first, first - cfg.refine, first + cfg.refine], cfg.batch,
                            progress)
    return {t: bias[t] for t in types}


def bias_fit_steps(cfg: CalibrateConfig, types: Sequence[str] = ENTITY_TYPES) -> int:
    """The decodings one :func:`fit_bias` scores."""
    return len(types) * (len(cfg.grid()) + 3)


def _best(log_probs: LogProbs, gold: Sequence[Sequence[str]], bias: dict[str, float], etype: str,
          values: list[float], batch: int, progress: Progress) -> float:
    """The first of ``values`` that gives ``etype`` its highest F1, the other types' biases as they are."""
    scores = []
    for v in values:
        scores.append(_type_f1(gold, decode_with_bias(log_probs, {**bias, etype: v}, batch), etype))
        if progress is not None:
            progress(1)
    return values[scores.index(max(scores))]


def _folds(units: Sequence[str]) -> Iterator[tuple[str, list[int], list[int]]]:
    """Each unit (sorted), the indices of the other units' paragraphs (to fit on) and its own (to decode)."""
    for unit in sorted(set(units)):
        yield unit, [i for i, u in enumerate(units) if u != unit], [i for i, u in enumerate(units) if u == unit]


def cross_fitted_tags(log_probs: LogProbs, gold: Sequence[Sequence[str]], units: Sequence[str],
                      cfg: CalibrateConfig, *, progress: Progress = None
                      ) -> tuple[list[list[str]], dict[str, dict[str, float]]]:
    """Tags of every paragraph decoded with biases fit on the other ``units`` (each
    paragraph's group, or paper) only, and those biases per unit: the honest score of calibrating."""
    out: list[list[str]] = [[] for _ in log_probs]
    used: dict[str, dict[str, float]] = {}
    for unit, rest, mine in _folds(units):
        used[unit] = fit_bias([log_probs[i] for i in rest], [gold[i] for i in rest], cfg, progress=progress)
        for i, tags in zip(mine, decode_with_bias([log_probs[i] for i in mine], used[unit], cfg.batch)):
            out[i] = tags
    return out, used


@dataclass
class Calibration:
    """What ``sciner calibrate`` measured on a dev split and chose."""

    gold: list[list[str]]
    uncalibrated: list[list[str]]  # tags without any bias
    # Each unit decoded with biases fit on the other units; None when fit in-sample.
    cross_fitted: list[list[str]] | None
    cross_fitted_bias: dict[str, dict[str, float]]  # unit -> the biases its tags were decoded with
    chosen: dict[str, float]  # fit on the whole dev split: what the model will use
    in_sample: list[list[str]]  # the whole dev split decoded with ``chosen`` (an optimistic score)


def fit_and_score(log_probs: LogProbs, gold: Sequence[Sequence[str]], units: Sequence[str],
                  cfg: CalibrateConfig, *, cross_fit: bool = True, progress: Progress = None) -> Calibration:
    """Score decoding without a bias and (``cross_fit``) with cross-fitted biases, and fit the
    biases to keep on all of ``log_probs``."""
    cross, used = cross_fitted_tags(log_probs, gold, units, cfg, progress=progress) if cross_fit else (None, {})
    chosen = fit_bias(log_probs, gold, cfg, progress=progress)
    return Calibration(
        gold=[list(g) for g in gold],
        uncalibrated=decode_with_bias(log_probs, {}, cfg.batch),
        cross_fitted=cross,
        cross_fitted_bias=used,
        chosen=chosen,
        in_sample=decode_with_bias(log_probs, chosen, cfg.batch),
    )


# Candidate values when fitting (:func:`fit_paper_level`); 0 (off) is always among them.
BONUS_GRID = (0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0)
MIN_TAGGED_GRID = (1, 2, 3)
OUTSIDE_GRID = (0.0, 0.5, 1.0, 1.5, 2.0, 3.0)
TOUCH_GRID = (0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0, 8.0)
# A type's touch penalty is the largest whose F1 is within this of its best: where the dev
# scores cannot tell a split name from a whole one (the differences are seed noise), whole.
TOUCH_TOLERANCE = 0.002


def fit_paper_level(tokens: Sequence[Sequence[str]], log_probs: Sequence[np.ndarray], gold: Sequence[Sequence[str]],
                    documents: Sequence[Sequence[int]], type_bias: Mapping[str, float], *,
                    consistency: bool = True, whole_names: bool = True, progress: Progress = None) -> PaperLevel:
    """Parameters that maximise dev F1 over ``documents`` (lists of paragraph indices), decoded
    with ``type_bias``. Whole names first: each type's touch penalty the largest value of
    :data:`TOUCH_GRID` that gives that type an F1 within :data:`TOUCH_TOLERANCE` of its best;
    then the consistency bonuses, over the whole grid, for the best micro F1 (ties: the
    smallest). ``progress`` is told of each of the :func:`paper_fit_steps` decodings."""
    penalty: dict[str, float] = {}
    if whole_names:
        no_votes = PaperLevel()
        for etype in ENTITY_TYPES:
            scores: list[tuple[float, float]] = []
            for value in TOUCH_GRID:
                transition = touch_penalty({**penalty, etype: value})
                prepared = first_pass(tokens, log_probs, documents, type_bias, transition, votes=False)
                counts = count_entities(gold, paper_pass(prepared, documents, no_votes, transition)).get(etype)
                f1 = counts.f1 if counts is not None else 0.0
                scores.append((value, f1))
                if progress is not None:
                    progress(1)
            best_f1 = max(f1 for _, f1 in scores)
            penalty[etype] = max(value for value, f1 in scores if f1 >= best_f1 - TOUCH_TOLERANCE - 1e-9)
        penalty = {t: v for t, v in penalty.items() if v}
    if not consistency:
        return PaperLevel(touch_penalty=penalty)
    transition = touch_penalty(penalty) if penalty else None
    prepared = first_pass(tokens, log_probs, documents, type_bias, transition)
    best_params, best_f1 = PaperLevel(touch_penalty=penalty), -1.0
    for bonus in BONUS_GRID:
        for min_tagged in MIN_TAGGED_GRID if bonus else MIN_TAGGED_GRID[:1]:
            for outside in OUTSIDE_GRID:
                params = PaperLevel(bonus, min_tagged, outside, penalty)
                counts = count_entities(gold, paper_pass(prepared, documents, params, transition))
                f1 = sum(counts.values(), Counts()).f1
                if progress is not None:
                    progress(1)
                if f1 > best_f1 + 1e-9:
                    best_params, best_f1 = params, f1
    return best_params


def paper_fit_steps(*, consistency: bool = True, whole_names: bool = True) -> int:
    """The decodings one :func:`fit_paper_level` scores."""
    touch = len(ENTITY_TYPES) * len(TOUCH_GRID) if whole_names else 0
    bonuses = sum(len(MIN_TAGGED_GRID) if bonus else 1 for bonus in BONUS_GRID) * len(OUTSIDE_GRID)
    return touch + (bonuses if consistency else 0)


def cross_fitted_paper_tags(tokens: Sequence[Sequence[str]], log_probs: Sequence[np.ndarray],
                            gold: Sequence[Sequence[str]], units: Sequence[str], doc_ids: Sequence[Any],
                            biases: Mapping[str, Mapping[str, float]], *, consistency: bool = True,
                            whole_names: bool = True, progress: Progress = None
                            ) -> tuple[list[list[str]], dict[str, PaperLevel]]:
    """Tags of every paragraph decoded paper by paper with parameters fit on the other ``units``
    (groups, or papers) only, and those parameters per unit: the honest score of the paper-level
    pass. Each unit's paragraphs (and the other units' when fitting) use that unit's ``biases``
    (the type biases :func:`cross_fitted_tags` fit without it)."""
    out: list[list[str]] = [[] for _ in tokens]
    used: dict[str, PaperLevel] = {}
    for unit, rest, mine in _folds(units):
        used[unit] = fit_paper_level([tokens[i] for i in rest], [log_probs[i] for i in rest], [gold[i] for i in rest],
                                     documents_of([doc_ids[i] for i in rest]), biases[unit],
                                     consistency=consistency, whole_names=whole_names, progress=progress)
        tags = decode_documents([tokens[i] for i in mine], [log_probs[i] for i in mine],
                                documents_of([doc_ids[i] for i in mine]), biases[unit], used[unit])
        for i, t in zip(mine, tags):
            out[i] = t
    return out, used


@dataclass
class CalibratedModel:
    """What :func:`calibrate` wrote (``path``, a model folder) and measured on the dev split."""

    path: Path
    dev_groups: list[str]
    calibration: Calibration
    unit: str  # what cross-fitting held out: each dev "group", or each dev "paper"
    units: list[str]  # the dev split's units
    uncalibrated: "Report"  # dev scores without a bias
    # Dev scores, each unit decoded with biases fit on the others; None when fit in-sample.
    cross_fitted: "Report | None"
    in_sample: "Report"  # dev scores with the biases fit on the whole dev split (optimistic)
    # Paper-level decoding (sciner.model.paper_decoding) on top, cross-fitted the same way, and the
    # parameters fit on the whole dev split: kept in the model only where it scores better.
    paper_cross_fitted: "Report | None" = None
    paper_level: "PaperLevel | None" = None

    @property
    def fit(self) -> str:
        """"cross-fitted" or "in-sample": how the biases were scored."""
        return "in-sample" if self.cross_fitted is None else "cross-fitted"

    @property
    def type_bias(self) -> dict[str, float]:
        """The biases the model now applies (the types whose bias is not 0)."""
        return {t: b for t, b in self.calibration.chosen.items() if b != 0.0}

    def fit_on(self) -> str:
        """What the biases were fit and scored on, in words."""
        return fit_on(self.fit, self.unit, len(self.units))

    def table(self) -> str:
        """Dev F1 per type without a bias and with the biases (cross-fitted, or in-sample), and
        each type's chosen bias."""
        before, after = self.uncalibrated, self.cross_fitted or self.in_sample
        paper = self.paper_cross_fitted
        lines = [f"{'dev F1':<22}{'no bias':>9}{self.fit:>14}{'bias':>8}" + (f"{'+ paper':>10}" if paper else "")]
        # A type one report scores and another does not (no gold, no prediction there) counts as 0.
        def f1(report: "Report", etype: str) -> float:
            return report.per_type[etype].f1 if etype in report.per_type else 0.0

        for etype in dict.fromkeys([*before.per_type, *after.per_type]):
            lines.append(f"{etype:<22}{f1(before, etype):9.4f}{f1(after, etype):14.4f}"
                         f"{self.calibration.chosen.get(etype, 0.0):+8.2f}"
                         + (f"{f1(paper, etype):10.4f}" if paper else ""))
        lines.append(f"{'micro':<22}{before.micro.f1:9.4f}{after.micro.f1:14.4f}{'':8}"
                     + (f"{paper.micro.f1:10.4f}" if paper else ""))
        lines.append(f"{'macro':<22}{before.macro.f1:9.4f}{after.macro.f1:14.4f}{'':8}"
                     + (f"{paper.macro.f1:10.4f}" if paper else ""))
        return "\n".join(lines)


def dev_units(corpus: "Corpus", unit: str, *, from_files: bool = False) -> list[str]:
    """Each dev paragraph's unit: its annotator group (``unit="group"``) or its paper
    (``"paper"``): for a corpus of your own files (``from_files``), the paper the split was made
    of (a file, or a -DOCSTART- document of one: the corpus's dev sources), else the file it was
    read from."""
    if unit not in CALIBRATION_UNITS:
        from sciner.errors import ConfigError

        raise ConfigError(f"calibrate: unit must be one of {', '.join(CALIBRATION_UNITS)}, not {unit!r}")
    return list(corpus.dev_group_of) if unit == "group" or from_files else [p.source for p in corpus.dev]


def calibrate(model: str | Path, output: str | Path | None = None, *, data: str | Path | None = None,
              precision: str = "auto", device: str = "auto", threads: int | None = None,
              show_progress: bool = True, paper_level: bool = True, unit: str = "group",
              in_sample: bool = False) -> CalibratedModel:
    """Fit a decision bias per entity type of the model at ``model`` on its dev split, and
    save the model with them (``type_bias`` in ``model.json``) to ``output`` (default: in place).

    The biases are scored by cross-fitting over the dev split's ``unit``s (each ``"group"``, or
    each ``"paper"`` for a model trained on files split by paper), which needs two units or more:
    with fewer, a :class:`~sciner.errors.ConfigError` says so before anything is fit, unless
    ``in_sample`` asks for biases fit and scored on the whole dev split (recorded as such).

    With ``paper_level`` (and cross-fitting), the parameters of paper-level decoding
    (:mod:`sciner.model.paper_decoding`; a dev file is one document) are fit too, on top of the
    biases, and kept (``paper_level`` in ``model.json``) only where their cross-fitted dev micro
    F1 beats the biases' alone.

    The dev split and the corpus are the model's own (its data config and training seed),
    read from ``data`` (default: ``$SCINER_DATA``, else the folder the model recorded). The
    model written at ``output`` holds only what tagging needs (see
    :func:`~sciner.model.store.copy_model`). ``threads`` defaults to the model's training
    config; ``show_progress`` prints the dev split and progress bars on stderr.
    """
    from tqdm import tqdm

    from sciner.config import data_root
    from sciner.data.assemble import assemble
    from sciner.errors import ConfigError, ModelError
    from sciner.evaluate.metrics import classification_report
    from sciner.inference.tagger import Tagger
    from sciner.model.heads import head_spec
    from sciner.model.store import copy_model, load_model_meta, save_meta

    cfg, _, _ = load_model_meta(model)
    if not head_spec(cfg.model.head).scores_tags:  # before any weights load
        raise ModelError(f"{model}: calibrate needs a BIO model, not head {cfg.model.head!r}")
    tagger = Tagger.load(model, precision=precision, device=device)
    tagger.limit_threads(threads or cfg.train.threads)
    # The data folder recorded in a model is where it lay when the model was trained: this
    # machine's $SCINER_DATA knows better.
    cfg.data.data_dir = str(data_root(data, recorded=cfg.data.data_dir))
    corpus = assemble(cfg.data, seed=cfg.train.seed)  # the corpus training saw
    units = dev_units(corpus, unit, from_files=bool(cfg.data.files))
    names = sorted(set(units))
    if not corpus.dev:
        raise ConfigError(f"{model}: the model's dev split is empty: there is nothing to calibrate on")
    if len(names) < 2 and not in_sample:
        raise ConfigError(f"{model}: the dev split is 1 {unit} ({names[0]}): biases cannot be cross-fitted "
                          f"without 2 or more, so none were fit; --in-sample fits them on it anyway")
    if show_progress:
        print(f"dev: {len(corpus.dev)} paragraphs of {len(names)} {unit}{'' if len(names) == 1 else 's'}"
              + (f": {', '.join(names)}" if unit == "group" else ""), file=sys.stderr)
    tokens, gold = [p.tokens for p in corpus.dev], [p.tags for p in corpus.dev]
    with tqdm(total=sum(map(len, tokens)), desc="dev log-probs", unit="tok", unit_scale=True,
              disable=not show_progress, file=sys.stderr) as bar:
        log_probs = tagger.log_probs(tokens, progress=bar.update)
    cross_fit = not in_sample
    fit_paper = paper_level and cross_fit  # kept only where cross-fitting shows it helps
    steps = bias_fit_steps(DEFAULT) * (1 + (len(names) if cross_fit else 0)) \
        + (paper_fit_steps() * (len(names) + 1) if fit_paper else 0)
    with tqdm(total=steps, desc="fitting", unit="decoding", disable=not show_progress, file=sys.stderr) as bar:
        result = fit_and_score(log_probs, gold, units, DEFAULT, cross_fit=cross_fit, progress=bar.update)
        done = CalibratedModel(Path(output if output is not None else model), corpus.dev_groups, result, unit, names,
                               classification_report(result.gold, result.uncalibrated),
                               None if result.cross_fitted is None
                               else classification_report(result.gold, result.cross_fitted),
                               classification_report(result.gold, result.in_sample))
        papers = dev_units(corpus, "paper", from_files=bool(cfg.data.files))  # the documents predict decodes
        paper_record = _fit_paper_level(done, tokens, log_probs, units, papers, bar.update) if fit_paper else None
    if output is not None:
        copy_model(model, output)
    meta: dict[str, Any] = dict(load_model_meta(done.path)[1])  # the copy's (its encoder may have moved in)
    meta["type_bias"] = done.type_bias
    meta.pop("paper_level", None)
    if done.paper_level is not None:
        meta["paper_level"] = done.paper_level.to_meta()
    meta["calibration"] = _record(done, tagger.precision_for(sum(map(len, tokens))), paper_record)
    save_meta(done.path, meta)
    return done


def _fit_paper_level(done: CalibratedModel, tokens: Sequence[Sequence[str]], log_probs: LogProbs,
                     units: Sequence[str], docs: Sequence[str], progress: Progress) -> dict[str, Any]:
    """Score paper-level decoding cross-fitted on top of ``done``'s biases, set
    ``done.paper_level`` where it beats them, and return what ``model.json`` records of it."""
    from sciner.evaluate.metrics import classification_report

    result = done.calibration
    assert done.cross_fitted is not None, "paper-level decoding is judged by cross-fitting"
    paper_tags, paper_used = cross_fitted_paper_tags(tokens, log_probs, result.gold, units, docs,
                                                     result.cross_fitted_bias, progress=progress)
    done.paper_cross_fitted = classification_report(result.gold, paper_tags)
    if done.paper_cross_fitted.micro.f1 > done.cross_fitted.micro.f1:
        done.paper_level = fit_paper_level(tokens, log_probs, result.gold, documents_of(docs), result.chosen,
                                           progress=progress)
    return {"documents": "one per dev paper", "kept": done.paper_level is not None,
            "cross_fitted_params": {u: p.to_meta() for u, p in paper_used.items()},
            "dev_cross_fitted": done.paper_cross_fitted.to_dict()}


def _record(done: CalibratedModel, precision: str, paper_record: dict[str, Any] | None) -> dict[str, Any]:
    """``model.json``'s ``calibration``: the dev split, how the biases were fit and scored
    (``fit``: cross-fitted over ``units`` of ``unit``, or in-sample), and the scores."""
    record: dict[str, Any] = {
        "dev_groups": done.dev_groups,
        "fit": done.fit,
        "unit": done.unit,
        "units": len(done.units),
        "precision": precision,
        "config": asdict(DEFAULT),
        "dev_uncalibrated": done.uncalibrated.to_dict(),
    }
    if done.cross_fitted is not None:
        record["cross_fitted_biases"] = done.calibration.cross_fitted_bias
        record["dev_cross_fitted"] = done.cross_fitted.to_dict()
    else:
        record["dev_in_sample"] = done.in_sample.to_dict()
    if paper_record is not None:
        record["paper_level"] = paper_record
    return record
