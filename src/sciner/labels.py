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

# The types that name things, in the order summaries list them; the other two are values
# ("0.1", "93.2"), whose type depends on the sentence they are in, not on the string.
NAME_TYPES: tuple[str, ...] = ("MethodName", "DatasetName", "TaskName", "MetricName", "HyperparameterName")

OUTSIDE = "O"

BIO_TAGS: tuple[str, ...] = (OUTSIDE,) + tuple(
    f"{prefix}-{etype}" for etype in ENTITY_TYPES for prefix in ("B", "I")
)

VALID_TAGS: frozenset[str] = frozenset(BIO_TAGS)


def is_valid_tag(tag: str) -> bool:
    """True when ``tag`` is ``O`` or ``B-``/``I-`` followed by one of the seven types."""
    return tag in VALID_TAGS

# displaCy's palette, one colour per type; kept fixed so a colour always means one type.
TYPE_COLOURS: dict[str, str] = {
    "MethodName": "#7aecec",
    "HyperparameterName": "#feca74",
    "HyperparameterValue": "#ffeb80",
    "MetricName": "#aa9cfc",
    "MetricValue": "#c887fb",
    "TaskName": "#bfeeb7",
    "DatasetName": "#ff9561",
}
FALLBACK_COLOUR = "#dddddd"


def type_colour(label: str) -> str:
    """The fixed background colour of an entity type (grey for a type outside the task)."""
    return TYPE_COLOURS.get(label, FALLBACK_COLOUR)
