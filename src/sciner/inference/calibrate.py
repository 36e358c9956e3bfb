"""Per-type decision biases for the BIO head, fit on annotator groups the model never saw.

Groups annotate with different density: on held-out groups the shipped model's precision is
well above its recall, most of all for TaskName. A bias ``b[X]`` added to the
log-probabilities of B-X and I-X before Viterbi trades precision for recall per type.

Fitting (:func:`fit_bias`): coordinate ascent over a grid, each type's bias chosen to
maximise that type's exact-span F1 on the dev groups. Honest scores
(:func:`cross_fitted_tags`): each dev group is decoded with biases fit on the other dev
groups only, so no paragraph is scored with a bias fit on its own group.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from sciner.evaluate.metrics import count_entities
from sciner.labels import ENTITY_TYPES

if TYPE_CHECKING:  # pragma: no cover
    from sciner.evaluate.metrics import Report
    from sciner.inference.paper import PaperLevel


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
    from sciner.model.viterbi import type_shift, viterbi_tags

    shift = type_shift(bias)
    return viterbi_tags([lp + shift for lp in log_probs], batch=batch)


def _type_f1(gold: Sequence[Sequence[str]], pred: Sequence[Sequence[str]], etype: str) -> float:
    counts = count_entities(gold, pred).get(etype)
    return counts.f1 if counts is not None else 0.0


def fit_bias(log_probs: LogProbs, gold: Sequence[Sequence[str]], cfg: CalibrateConfig,
             types: Sequence[str] = ENTITY_TYPES) -> dict[str, float]:
    """Biases of ``types`` (others 0) maximising each type's F1: a pass over the grid, then a
    second pass ``refine`` either side of the first choice. Ties keep the bias nearest 0."""
    bias = {t: 0.0 for t in ENTITY_TYPES}
    for etype in types:
        bias[etype] = _best(log_probs, gold, bias, etype, sorted(cfg.grid(), key=abs), cfg.batch)
    for etype in types:
        first = bias[etype]
        bias[etype] = _best(log_probs, gold, bias, etype, [first, first - cfg.refine, first + cfg.refine], cfg.batch)
    return {t: bias[t] for t in types}


def _best(log_probs: LogProbs, gold: Sequence[Sequence[str]], bias: dict[str, float], etype: str,
          values: list[float], batch: int) -> float:
    """The first of ``values`` that gives ``etype`` its highest F1, the other types' biases as they are."""
    scores = [_type_f1(gold, decode_with_bias(log_probs, {**bias, etype: v}, batch), etype) for v in values]
    return values[scores.index(max(scores))]


def cross_fitted_tags(log_probs: LogProbs, gold: Sequence[Sequence[str]], groups: Sequence[str],
                      cfg: CalibrateConfig) -> tuple[list[list[str]], dict[str, dict[str, float]]]:
    """Tags of every paragraph decoded with biases fit on the other groups only, and those
    biases per group: the honest score of calibrating."""
    out: list[list[str]] = [[] for _ in log_probs]
    used: dict[str, dict[str, float]] = {}
    for group in sorted(set(groups)):
        rest = [i for i, g in enumerate(groups) if g != group]
        mine = [i for i, g in enumerate(groups) if g == group]
        used[group] = fit_bias([log_probs[i] for i in rest], [gold[i] for i in rest], cfg)
        for i, tags in zip(mine, decode_with_bias([log_probs[i] for i in mine], used[group], cfg.batch)):
            out[i] = tags
    return out, used


@dataclass
class Calibration:
    """What ``sciner calibrate`` measured on a dev split and chose."""

    gold: list[list[str]]
    uncalibrated: list[list[str]]  # tags without any bias
    cross_fitted: list[list[str]]  # each group decoded with biases fit on the other groups
    cross_fitted_bias: dict[str, dict[str, float]]  # group -> the biases its tags were decoded with
    chosen: dict[str, float]  # fit on every dev group: what the model will use


def fit_and_score(log_probs: LogProbs, gold: Sequence[Sequence[str]], groups: Sequence[str],
                  cfg: CalibrateConfig) -> Calibration:
    """Score decoding without a bias and with cross-fitted biases, and fit the biases to keep."""
    cross, used = cross_fitted_tags(log_probs, gold, groups, cfg)
    return Calibration(
        gold=[list(g) for g in gold],
        uncalibrated=decode_with_bias(log_probs, {}, cfg.batch),
        cross_fitted=cross,
        cross_fitted_bias=used,
        chosen=fit_bias(log_probs, gold, cfg),
    )


@dataclass
class CalibratedModel:
    """What :func:`calibrate` wrote (``path``, a model folder) and measured on the dev groups."""

    path: Path
    dev_groups: list[str]
    calibration: Calibration
    uncalibrated: "Report"  # dev scores without a bias
    cross_fitted: "Report"  # dev scores, each group decoded with biases fit on the others
    # Paper-level decoding (sciner.inference.paper) on top, cross-fitted the same way, and the
    # parameters fit on every dev group: kept in the model only where it scores better.
    paper_cross_fitted: "Report | None" = None
    paper_level: "PaperLevel | None" = None

    @property
    def type_bias(self) -> dict[str, float]:
        """The biases the model now applies (the types whose bias is not 0)."""
        return {t: b for t, b in self.calibration.chosen.items() if b != 0.0}

    def table(self) -> str:
        """Dev F1 per type without a bias and cross-fitted, and each type's chosen bias."""
        before, after = self.uncalibrated, self.cross_fitted
        paper = self.paper_cross_fitted
        lines = [f"{'dev F1':<22}{'no bias':>9}{'cross-fitted':>14}{'bias':>8}" + (f"{'+ paper':>10}" if paper else "")]
        for etype, scores in before.per_type.items():
            lines.append(f"{etype:<22}{scores.f1:9.4f}{after.per_type[etype].f1:14.4f}"
                         f"{self.calibration.chosen.get(etype, 0.0):+8.2f}"
                         + (f"{paper.per_type[etype].f1:10.4f}" if paper else ""))
        lines.append(f"{'micro':<22}{before.micro.f1:9.4f}{after.micro.f1:14.4f}{'':8}"
                     + (f"{paper.micro.f1:10.4f}" if paper else ""))
        lines.append(f"{'macro':<22}{before.macro.f1:9.4f}{after.macro.f1:14.4f}{'':8}"
                     + (f"{paper.macro.f1:10.4f}" if paper else ""))
        return "\n".join(lines)


def calibrate(model: str | Path, output: str | Path | None = None, *, data: str | Path | None = None,
              precision: str = "auto", device: str = "auto", threads: int | None = None,
              show_progress: bool = True, paper_level: bool = True) -> CalibratedModel:
    """Fit a decision bias per entity type of the model at ``model`` on its dev groups, and
    save the model with them (``type_bias`` in ``model.json``) to ``output`` (default: in place).

    With ``paper_level``, the parameters of paper-level decoding (:mod:`sciner.inference.paper`;
    a dev file is one document) are fit too, on top of the biases, and kept (``paper_level``
    in ``model.json``) only where their cross-fitted dev micro F1 beats the biases' alone.

    The dev groups and the corpus are the model's own (its data config and training seed),
    read from ``data`` (default: ``$SCINER_DATA``, else the folder the model recorded). The
    model written at ``output`` holds only what tagging needs (see
    :func:`~sciner.model.store.copy_model`). ``threads`` defaults to the model's training
    config; ``show_progress`` prints which dev groups are used on stderr.
    """
    import torch

    from sciner.config import data_root
    from sciner.data.assemble import assemble
    from sciner.errors import ModelError
    from sciner.evaluate.metrics import classification_report
    from sciner.inference.tagger import Tagger
    from sciner.model.heads import head_spec
    from sciner.model.store import copy_model, load_model_meta, save_meta

    cfg, _, _ = load_model_meta(model)
    if not head_spec(cfg.model.head).scores_tags:  # before any weights load
        raise ModelError(f"{model}: calibrate needs a BIO model, not head {cfg.model.head!r}")
    torch.set_num_threads(threads or cfg.train.threads)
    tagger = Tagger.load(model, precision=precision, device=device)
    # The data folder recorded in a model is where it lay when the model was trained: this
    # machine's $SCINER_DATA knows better.
    cfg.data.data_dir = str(data_root(data, recorded=cfg.data.data_dir))
    corpus = assemble(cfg.data, seed=cfg.train.seed)  # the corpus training saw
    if show_progress:
        print(f"dev: {len(corpus.dev)} paragraphs of groups {', '.join(corpus.dev_groups)}", file=sys.stderr)
    log_probs = tagger.log_probs([p.tokens for p in corpus.dev])
    result = fit_and_score(log_probs, [p.tags for p in corpus.dev], corpus.dev_group_of, DEFAULT)
    done = CalibratedModel(Path(output if output is not None else model), corpus.dev_groups, result,
                           classification_report(result.gold, result.uncalibrated),
                           classification_report(result.gold, result.cross_fitted))
    paper_record: dict[str, Any] | None = None
    if paper_level:
        from sciner.inference.paper import cross_fitted_paper_tags, documents_of, fit_paper_level

        tokens, docs = [p.tokens for p in corpus.dev], [p.source for p in corpus.dev]
        paper_tags, paper_used = cross_fitted_paper_tags(tokens, log_probs, result.gold, corpus.dev_group_of, docs,
                                                         result.cross_fitted_bias)
        done.paper_cross_fitted = classification_report(result.gold, paper_tags)
        if done.paper_cross_fitted.micro.f1 > done.cross_fitted.micro.f1:
            done.paper_level = fit_paper_level(tokens, log_probs, result.gold, documents_of(docs), result.chosen)
        paper_record = {"documents": "one per dev file", "kept": done.paper_level is not None,
                        "cross_fitted_params": {g: p.to_meta() for g, p in paper_used.items()},
                        "dev_cross_fitted": done.paper_cross_fitted.to_dict()}
    if output is not None:
        copy_model(model, output)
    meta: dict[str, Any] = dict(load_model_meta(done.path)[1])  # the copy's (its encoder may have moved in)
    meta["type_bias"] = done.type_bias
    meta.pop("paper_level", None)
    if done.paper_level is not None:
        meta["paper_level"] = done.paper_level.to_meta()
    meta["calibration"] = {
        "dev_groups": corpus.dev_groups,
        "precision": tagger.precision,
        "config": asdict(DEFAULT),
        "cross_fitted_biases": result.cross_fitted_bias,
        "dev_uncalibrated": done.uncalibrated.to_dict(),
        "dev_cross_fitted": done.cross_fitted.to_dict(),
    }
    if paper_record is not None:
        meta["calibration"]["paper_level"] = paper_record
    save_meta(done.path, meta)
    return done
