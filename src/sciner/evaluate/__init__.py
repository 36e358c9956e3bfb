"""Evaluation of BIO predictions: exact-span scores, error analysis, and paired bootstrap.

    from sciner.evaluate import evaluate_files, compare_files
    result = evaluate_files("gold.conll", "pred.conll")
    print(result.report.micro.f1)
    print(compare_files("gold.conll", "a.conll", "b.conll").micro.p_value)

For tag sequences already in memory use :mod:`sciner.evaluate.metrics`
(``classification_report``, ``f1_score``...) and :func:`sciner.evaluate.bootstrap.paired_bootstrap`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sciner.document import Paragraph
from sciner.evaluate.align import AlignedParagraph, align, align_files, read_pairs, read_tagged
from sciner.evaluate.analysis import analyse, training_entities
from sciner.config import BOOTSTRAP_SAMPLES, BOOTSTRAP_SEED
from sciner.evaluate.bootstrap import BootstrapResult, paired_bootstrap
from sciner.evaluate.metrics import Report, classification_report, f1_score, precision_score, recall_score


@dataclass(frozen=True)
class Evaluation:
    """Scores of one prediction file against gold, the analysis, and the paired paragraphs."""

    report: Report
    analysis: dict[str, Any]
    pairs: list[AlignedParagraph]

    def to_dict(self) -> dict[str, Any]:
        """The ``sciner evaluate --json`` object."""
        return {**self.report.to_dict(), "analysis": self.analysis}


def evaluate_pairs(pairs: list[AlignedParagraph], train: Sequence[Paragraph] | None = None) -> Evaluation:
    """Score aligned paragraphs; ``train`` (tagged paragraphs) adds the seen/unseen analysis."""
    report = classification_report([p.gold for p in pairs], [p.pred for p in pairs])
    known = training_entities(train) if train is not None else None
    return Evaluation(report=report, analysis=analyse(pairs, known), pairs=pairs)


def evaluate_files(gold: str | Path, pred: str | Path, train: str | Path | None = None, *, fmt: str | None = None) -> Evaluation:
    """Score a predicted file against a gold one (optionally against a training file too); files
    are read in ``fmt`` (a format registry name), else by their suffix."""
    pairs = align_files(gold, pred, fmt=fmt)
    return evaluate_pairs(pairs, read_tagged(train, fmt) if train is not None else None)


def compare_files(
    gold: str | Path, pred_a: str | Path, pred_b: str | Path, *, samples: int = BOOTSTRAP_SAMPLES,
    seed: int = BOOTSTRAP_SEED, fmt: str | None = None,
) -> BootstrapResult:
    """Paired bootstrap of two prediction files of the same gold file, or three folders of
    them paired by name (all read in ``fmt``, else by suffix). Papers are resampled where the
    gold names at least two (see :func:`bootstrap_units`), else paragraphs."""
    gold_paragraphs, (pred_a_paragraphs, pred_b_paragraphs) = read_pairs(gold, pred_a, pred_b, fmt=fmt)
    a = align(gold_paragraphs, pred_a_paragraphs, str(gold), str(pred_a))
    b = align(gold_paragraphs, pred_b_paragraphs, str(gold), str(pred_b))
    return paired_bootstrap([p.gold for p in a], [p.pred for p in a], [p.pred for p in b], samples=samples,
                            seed=seed, units=bootstrap_units(a))


def bootstrap_units(pairs: Sequence[AlignedParagraph]) -> list[str] | None:
    """Each paragraph's paper when the gold names at least two papers (a paper's paragraphs
    are not independent samples: resampling them alone makes intervals too narrow), else None."""
    docs = [p.doc for p in pairs]
    return [d or "" for d in docs] if len({d for d in docs if d}) >= 2 else None


__all__ = [
    "AlignedParagraph",
    "BootstrapResult",
    "Evaluation",
    "Report",
    "align",
    "align_files",
    "bootstrap_units",
    "classification_report",
    "compare_files",
    "evaluate_files",
    "evaluate_pairs",
    "f1_score",
    "paired_bootstrap",
    "precision_score",
    "read_tagged",
    "recall_score",
]
