"""Range rules of configurable values: the test a value must pass and what the error says.

Used by the config (:mod:`sciner.config`) and by what declares settings of its own (a head,
:mod:`sciner.model.heads.builtin`), so both check values the same way without importing each other.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

#: A range rule: the test a value must pass and what the error says when it does not.
Rule = tuple[Callable[[Any], bool], str]


def at_least(n: float) -> Rule:
    """``v >= n``."""
    return (lambda v: v >= n), f"must be at least {n}"


def between(low: float, high: float, *, low_open: bool = False, high_open: bool = False) -> Rule:
    """``low <= v <= high``, either end excluded when ``*_open``."""
    def test(v: Any) -> bool:
        return (v > low if low_open else v >= low) and (v < high if high_open else v <= high)
    return test, f"must be in {'(' if low_open else '['}{low}, {high}{')' if high_open else ']'}"


def one_of(names: tuple[str, ...]) -> Rule:
    """``v`` is one of ``names``."""
    return (lambda v: v in names), f"must be one of {', '.join(names)}"


POSITIVE: Rule = ((lambda v: v > 0), "must be greater than 0")


def check_rules(obj: Any, rules: dict[str, Rule]) -> Iterator[tuple[str, str]]:
    """``(key, what is wrong)`` for each field of ``obj`` that breaks its rule."""
    for key, (test, what) in rules.items():
        value = getattr(obj, key)
        if not test(value):
            yield key, f"{what}, got {value!r}"
