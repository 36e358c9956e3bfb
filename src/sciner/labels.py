"""The task's label set: seven entity types in BIO encoding."""

from __future__ import annotations

ENTITY_TYPES: tuple[str, ...] = (
    "MethodName",
    "HyperparameterName",
    "HyperparameterValue",
    "MetricName",
    "MetricValue",
    "TaskName",
    "DatasetName",
)

OUTSIDE = "O"

BIO_TAGS: tuple[str, ...] = (OUTSIDE,) + tuple(
    f"{prefix}-{etype}" for etype in ENTITY_TYPES for prefix in ("B", "I")
)

VALID_TAGS: frozenset[str] = frozenset(BIO_TAGS)


def is_valid_tag(tag: str) -> bool:
    """True when ``tag`` is ``O`` or ``B-``/``I-`` followed by one of the seven types."""
    return tag in VALID_TAGS
