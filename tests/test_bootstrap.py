"""Paired bootstrap: sane on identical and on clearly different systems, deterministic, fast."""

from __future__ import annotations

import random
import time

import pytest

from sciner.evaluate.bootstrap import paired_bootstrap
from sciner.evaluate.metrics import f1_score
from sciner.labels import ENTITY_TYPES


def make_gold(paragraphs: int, seed: int = 0) -> list[list[str]]:
    """Paragraphs of 20 tokens with a few entities of random types and lengths."""
    rng = random.Random(seed)
    out = []
    for _ in range(paragraphs):
        tags = ["O"] * 20
        for start in rng.sample(range(0, 20, 4), 3):
            label = rng.choice(ENTITY_TYPES)
            length = rng.randint(1, 3)
            tags[start] = f"B-{label}"
            for j in range(start + 1, start + length):
                tags[j] = f"I-{label}"
        out.append(tags)
    return out


def degrade(gold: list[list[str]], drop: float, seed: int) -> list[list[str]]:
    """Remove a share of entities (their B- and I- tags become O)."""
    rng = random.Random(seed)
    out = []
    for tags in gold:
        new, dropping = list(tags), False
        for i, tag in enumerate(tags):
            if tag.startswith("B-"):
                dropping = rng.random() < drop
            elif tag == "O":
                dropping = False
            if dropping:
                new[i] = "O"
        out.append(new)
    return out


def test_a_against_itself_gives_zero_delta_and_high_p():
    gold = make_gold(200)
    pred = degrade(gold, 0.3, seed=1)
    result = paired_bootstrap(gold, pred, pred, samples=300, seed=0)
    assert result.micro.delta == 0.0
    assert result.micro.ci95 == (0.0, 0.0)
    assert result.micro.p_value >= 0.5
    assert all(d.delta == 0.0 and d.p_value >= 0.5 for d in result.per_type.values())


def test_clearly_better_system_is_significant():
    gold = make_gold(300)
    better, worse = degrade(gold, 0.1, seed=1), degrade(gold, 0.4, seed=2)
    result = paired_bootstrap(gold, better, worse, samples=500, seed=0)
    assert result.micro.delta == pytest.approx(f1_score(gold, better) - f1_score(gold, worse))
    assert result.micro.delta > 0.1
    assert result.micro.p_value < 0.05
    lo, hi = result.micro.ci95
    assert 0 < lo < result.micro.delta < hi
    # The other way round A is never better.
    reverse = paired_bootstrap(gold, worse, better, samples=500, seed=0)
    assert reverse.micro.delta == pytest.approx(-result.micro.delta)
    assert reverse.micro.p_value > 0.95


def test_slightly_different_systems_on_little_data_are_not_significant():
    gold = make_gold(10)
    a, b = degrade(gold, 0.3, seed=1), degrade(gold, 0.3, seed=2)
    result = paired_bootstrap(gold, a, b, samples=500, seed=0)
    lo, hi = result.micro.ci95
    assert lo < 0 < hi
    assert 0.05 < result.micro.p_value < 0.95


def test_per_type_deltas_match_per_type_f1():
    gold = make_gold(100)
    a, b = degrade(gold, 0.1, seed=1), degrade(gold, 0.5, seed=2)
    result = paired_bootstrap(gold, a, b, samples=100, seed=0)
    assert list(result.per_type) == [t for t in ENTITY_TYPES if t in result.per_type]
    for label, d in result.per_type.items():
        only = lambda seqs: [[t if t.endswith(label) else "O" for t in s] for s in seqs]  # noqa: E731
        assert d.f1_a == pytest.approx(f1_score(only(gold), only(a)))
        assert d.f1_b == pytest.approx(f1_score(only(gold), only(b)))


def test_deterministic_for_a_seed():
    gold = make_gold(100)
    a, b = degrade(gold, 0.2, seed=1), degrade(gold, 0.25, seed=2)
    first = paired_bootstrap(gold, a, b, samples=300, seed=7)
    assert paired_bootstrap(gold, a, b, samples=300, seed=7) == first
    assert paired_bootstrap(gold, a, b, samples=300, seed=8).micro.ci95 != first.micro.ci95


def test_json_shape():
    gold = make_gold(20)
    d = paired_bootstrap(gold, gold, degrade(gold, 0.5, 1), samples=50).to_dict()
    assert set(d) == {"delta", "ci95", "p_value", "per_type", "resampled", "units"}
    assert len(d["ci95"]) == 2
    for entry in d["per_type"].values():
        assert {"delta", "ci95", "p_value"} <= set(entry)


def test_refuses_bad_arguments():
    gold = make_gold(3)
    with pytest.raises(ValueError, match="samples"):
        paired_bootstrap(gold, gold, gold, samples=0)
    with pytest.raises(ValueError, match="paragraphs"):
        paired_bootstrap(gold, gold[:2], gold)


def test_speed_1000_samples_over_5000_paragraphs():
    gold = make_gold(5000)
    a, b = degrade(gold, 0.2, seed=1), degrade(gold, 0.3, seed=2)
    start = time.perf_counter()
    result = paired_bootstrap(gold, a, b, samples=1000, seed=0)
    elapsed = time.perf_counter() - start
    assert result.paragraphs == 5000 and result.samples == 1000
    assert elapsed < 5.0, f"bootstrap took {elapsed:.1f} s"


def test_papers_are_resampled_whole_when_known():
    """Issue 35.7: with each paragraph's paper given, the bootstrap draws papers; one huge paper
    then weighs as one unit, and the interval is wider than when its paragraphs are drawn one by one."""
    gold = make_gold(40)
    worse = degrade(gold, 0.5, 1)
    papers = [f"paper{i // 10}" for i in range(40)]
    by_paragraph = paired_bootstrap(gold, gold, worse, samples=300)
    by_paper = paired_bootstrap(gold, gold, worse, samples=300, units=papers)
    assert (by_paper.unit, by_paper.units, by_paper.paragraphs) == ("paper", 4, 40)
    assert by_paper.micro.delta == by_paragraph.micro.delta  # the full data's scores do not change
    assert by_paper.micro.ci95 != by_paragraph.micro.ci95
