"""An experiment report on one gold file and one or more systems' predictions of it.

:func:`build_report` gathers the numbers (all computed by :mod:`sciner.evaluate`):
micro/macro/per-type scores per system, F1 by entity length and casing, a type confusion
table, pairwise paired-bootstrap significance, and example paragraphs where the systems
disagree. :func:`write_report` renders it as self-contained HTML (plots embedded) or as
Markdown (plots saved as PNG files beside it)::

    from sciner.view.report import build_report
    from sciner.view.report_output import write_report
    report = build_report("gold.conll", ["crf.conll", "bert.conll"])
    write_report(report, "report.html")
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path

from sciner.document import Span
from sciner.errors import InputFormatError
from sciner.evaluate import Evaluation, evaluate_pairs
from sciner.evaluate.align import AlignedParagraph, align, read_tagged
from sciner.config import BOOTSTRAP_SAMPLES, BOOTSTRAP_SEED
from sciner.evaluate.bootstrap import BootstrapResult, paired_bootstrap
from sciner.evaluate.metrics import span_key
from sciner.document import bio_to_spans
from sciner.view.confusion import Confusion, confusion

#: Tokens shown around the first disagreement of an example; whole sections would swamp the page.
EXAMPLE_CONTEXT_BEFORE = 15
EXAMPLE_MAX_TOKENS = 70


@dataclass(frozen=True)
class SystemResult:
    """One system's scores against gold, and its type confusion table."""

    name: str
    path: str
    evaluation: Evaluation
    confusion: Confusion

    @property
    def pairs(self) -> list[AlignedParagraph]:
        return self.evaluation.pairs


@dataclass(frozen=True)
class Comparison:
    """Paired bootstrap of two systems, ``a`` being the one with the higher micro F1."""

    a: str
    b: str
    result: BootstrapResult


@dataclass(frozen=True)
class Example:
    """A window of one paragraph where the systems (or a lone system and gold) disagree.

    Spans are relative to ``tokens``, which start at token ``offset`` of the paragraph.
    """

    paragraph: int
    offset: int
    truncated: bool
    tokens: list[str]
    gold: list[Span]
    systems: list[list[Span]]


@dataclass(frozen=True)
class ExperimentReport:
    """Everything the report shows."""

    gold_path: str
    paragraphs: int
    tokens: int
    gold_entities: int
    systems: list[SystemResult]
    comparisons: list[Comparison]
    examples: list[Example]
    samples: int
    seed: int


def system_names(paths: Sequence[str | Path]) -> list[str]:
    """Short names for systems: file stems, with parent folders added until they are unique."""
    paths = [Path(p) for p in paths]
    for depth in range(1, max((len(p.parts) for p in paths), default=1) + 1):
        names = ["/".join(p.with_suffix("").parts[-depth:]) for p in paths]
        if len(set(names)) == len(names):
            return names
    return [f"{i + 1}: {p}" for i, p in enumerate(paths)]


def _disagreement(gold: list[Span], systems: list[list[Span]]) -> set[tuple[str, int, int]]:
    """Spans not shared by every side: the systems, plus gold when there is a single system."""
    sides = [{span_key(s) for s in spans} for spans in systems]
    if len(sides) == 1:
        sides.append({span_key(s) for s in gold})
    return set.union(*sides) - set.intersection(*sides)


def _crop(spans: list[Span], start: int, end: int) -> list[Span]:
    return [Span(s.label, max(s.start, start) - start, min(s.end, end) - start, s.score) for s in spans if s.start < end and s.end > start]


def select_examples(systems: Sequence[SystemResult], limit: int) -> list[Example]:
    """Up to ``limit`` paragraphs with the most disagreement, in document order, cropped to a window."""
    scored = []
    for i, pair in enumerate(systems[0].pairs):
        gold = bio_to_spans(pair.gold)
        preds = [bio_to_spans(s.pairs[i].pred) for s in systems]
        diff = _disagreement(gold, preds)
        if diff:
            scored.append((len(diff), -len(pair.tokens), i, gold, preds, diff))
    chosen = sorted(scored, reverse=True)[:limit]
    examples = []
    for _, _, i, gold, preds, diff in sorted(chosen, key=lambda x: x[2]):
        tokens = systems[0].pairs[i].tokens
        start = max(0, min(s for _, s, _ in diff) - EXAMPLE_CONTEXT_BEFORE)
        end = min(len(tokens), start + EXAMPLE_MAX_TOKENS)
        # Never cut an entity in half at the window's edges.
        for s in gold + [s for p in preds for s in p]:
            if s.start < start < s.end:
                start = s.start
            if s.start < end < s.end:
                end = s.end
        examples.append(
            Example(
                paragraph=i,
                offset=start,
                truncated=start > 0 or end < len(tokens),
                tokens=list(tokens[start:end]),
                gold=_crop(gold, start, end),
                systems=[_crop(p, start, end) for p in preds],
            )
        )
    return examples


def build_report(
    gold: str | Path,
    systems: Sequence[str | Path],
    *,
    names: Sequence[str] | None = None,
    samples: int = BOOTSTRAP_SAMPLES,
    seed: int = BOOTSTRAP_SEED,
    examples: int = 8,
    fmt: str | None = None,
) -> ExperimentReport:
    """Score every system file against the gold file and gather the report's contents.

    Files are read in ``fmt`` (a :mod:`~sciner.formats.registry` name), else by their suffix.

    Files are CoNLL or JSONL with the same paragraphs and tokens as gold (else
    :class:`~sciner.errors.TokenMismatchError`).
    """
    if not systems:
        raise InputFormatError("give at least one system's predictions")
    if names is not None and len(names) != len(systems):
        raise InputFormatError(f"{len(names)} names given for {len(systems)} systems")
    names = list(names) if names is not None else system_names(systems)
    gold_paragraphs = read_tagged(gold, fmt)
    results = []
    for name, path in zip(names, systems):
        pairs = align(gold_paragraphs, read_tagged(path, fmt), str(gold), str(path))
        results.append(SystemResult(name, str(path), evaluate_pairs(pairs), confusion(pairs)))
    comparisons = []
    gold_tags = [p.gold for p in results[0].pairs]
    for x, y in combinations(results, 2):
        a, b = (x, y) if x.evaluation.report.micro.f1 >= y.evaluation.report.micro.f1 else (y, x)
        result = paired_bootstrap(gold_tags, [p.pred for p in a.pairs], [p.pred for p in b.pairs], samples=samples, seed=seed)
        comparisons.append(Comparison(a.name, b.name, result))
    return ExperimentReport(
        gold_path=str(gold),
        paragraphs=len(gold_paragraphs),
        tokens=sum(len(p.tokens) for p in gold_paragraphs),
        gold_entities=sum(len(bio_to_spans(p.gold)) for p in results[0].pairs),
        systems=results,
        comparisons=comparisons,
        examples=select_examples(results, examples),
        samples=samples,
        seed=seed,
    )
