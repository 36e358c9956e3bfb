"""Label Studio: tasks to import (with model ``predictions`` for pre-annotation) and JSON exports.

Writing gives a JSON list of tasks. Each task's ``data`` holds ``text`` (the tokens joined
by single spaces, which Label Studio shows) and ``tokens`` (so reading back never
re-tokenizes); its ``predictions`` hold the entities as Label Studio ``labels`` results with
character offsets into ``text`` and the model's score. Import the file into a project whose
labeling config is :func:`label_config`, correct the pre-annotations, and export as JSON:
:func:`read_labelstudio` turns that export back into tagged paragraphs. Because the tokens
are kept, any token is carried except an empty one or a lone surrogate (refused on writing).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from sciner.document import Paragraph
from sciner.errors import InputFormatError
from sciner.formats.charspans import char_entities_to_paragraph, tokens_of
from sciner.formats.jsonl import paragraph_char_entities
from sciner.formats.textfile import read_text
from sciner.formats.tokens import check_writable
from sciner.labels import ENTITY_TYPES, type_colour

# Names the results point at; they must match the <Labels name> and <Text name> of the config.
FROM_NAME = "label"
TO_NAME = "text"


def label_config() -> str:
    """The Label Studio labeling config (XML) that the written tasks expect."""
    labels = "\n".join(f'    <Label value="{t}" background="{type_colour(t)}"/>' for t in ENTITY_TYPES)
    return (
        "<View>\n"
        f'  <Labels name="{FROM_NAME}" toName="{TO_NAME}">\n{labels}\n  </Labels>\n'
        f'  <Text name="{TO_NAME}" value="$text"/>\n'
        "</View>\n"
    )


def _results(p: Paragraph, task_index: int) -> list[dict[str, Any]]:
    results = []
    text = p.text  # joined once: Paragraph.text is computed on each access
    for j, (start, end, span) in enumerate(paragraph_char_entities(p)):
        result: dict[str, Any] = {
            "id": f"t{task_index}e{j}",
            "from_name": FROM_NAME,
            "to_name": TO_NAME,
            "type": "labels",
            "value": {"start": start, "end": end, "text": text[start:end], "labels": [span.label]},
        }
        if span.score is not None:
            result["score"] = round(float(span.score), 4)
        results.append(result)
    return results


def paragraph_to_task(p: Paragraph, index: int = 0, *, model_version: str = "sciner") -> dict[str, Any]:
    """One Label Studio task; a paragraph with tags or spans gets them as a prediction."""
    data: dict[str, Any] = {"text": p.text, "tokens": list(p.tokens)}
    if p.source != "<memory>":
        data["source"] = p.source
        data["line"] = p.line
    task: dict[str, Any] = {"data": data}
    if p.spans is not None:
        results = _results(p, index)
        scores = [r["score"] for r in results if "score" in r]
        prediction: dict[str, Any] = {"model_version": model_version, "result": results}
        if scores:
            prediction["score"] = round(sum(scores) / len(scores), 4)
        task["predictions"] = [prediction]
    return task


def format_labelstudio(paragraphs: Iterable[Paragraph], *, model_version: str = "sciner") -> str:
    """Paragraphs as a Label Studio import file (a JSON list of tasks); :class:`UnwritableTokenError`
    on a token no format carries."""
    checked = check_writable(paragraphs, "labelstudio")
    tasks = [paragraph_to_task(p, i, model_version=model_version) for i, p in enumerate(checked)]
    return json.dumps(tasks, ensure_ascii=False, indent=1) + "\n"


def chosen_result(task: dict[str, Any], *, use_predictions: bool) -> list[Any]:
    """The results a task stands for: its latest non-cancelled annotation, else its first prediction.

    A person's annotation always wins over a model's prediction; with
    ``use_predictions=False`` a task nobody annotated has no entities.
    """
    annotations = [a for a in task.get("annotations") or [] if isinstance(a, dict) and not a.get("was_cancelled")]
    if annotations:
        # Several people may have annotated a task; the latest edit is the reviewed one.
        latest = max(enumerate(annotations), key=lambda ia: (str(ia[1].get("updated_at") or ""), ia[0]))[1]
        return latest.get("result") or []
    predictions = task.get("predictions") or []
    if use_predictions and predictions and isinstance(predictions[0], dict):
        return predictions[0].get("result") or []
    return []


def _entities(results: list[Any], where: str) -> list[tuple[int, int, str, float | None]]:
    entities = []
    for r in results:
        # Relations, choices and other result types carry no entity.
        if not isinstance(r, dict) or r.get("type") != "labels":
            continue
        value = r.get("value") or {}
        try:
            start, end, labels = int(value["start"]), int(value["end"]), value["labels"]
        except (KeyError, TypeError, ValueError):
            raise InputFormatError(f"{where}: a 'labels' result needs value.start, value.end and value.labels") from None
        for label in labels:
            entities.append((start, end, label, r.get("score")))
    return entities


def task_to_paragraph(task: Any, where: str, *, use_predictions: bool = True) -> Paragraph:
    """A tagged paragraph from one task of a Label Studio export (or of an import file)."""
    data = task.get("data") if isinstance(task, dict) else None
    if not isinstance(data, dict) or not isinstance(data.get("text"), str):
        raise InputFormatError(f"{where}: expected a task with data.text")
    tokens = tokens_of(data.get("tokens"), data["text"], where)
    entities = _entities(chosen_result(task, use_predictions=use_predictions), where)
    source = data.get("source") if isinstance(data.get("source"), str) else where.rpartition(":")[0]
    line = data.get("line") if isinstance(data.get("line"), int) else 0
    return char_entities_to_paragraph(
        tokens, data["text"], entities, where, known_labels=ENTITY_TYPES, source=source, line=line
    )


def read_labelstudio(path: str | Path, *, use_predictions: bool = True) -> list[Paragraph]:
    """Read a Label Studio JSON export (or import file) into tagged paragraphs, in task order.

    Tokens come from ``data.tokens`` when present (else ``data.text`` split on spaces), and
    character offsets are mapped back onto them; see :func:`chosen_result` for which
    annotation is used.
    """
    try:
        tasks = json.loads(read_text(path))
    except json.JSONDecodeError as exc:
        raise InputFormatError(f"{path}:{exc.lineno}: invalid JSON ({exc.msg})") from None
    if isinstance(tasks, dict):
        tasks = [tasks]
    if not isinstance(tasks, list):
        raise InputFormatError(f"{path}: expected a JSON list of Label Studio tasks")
    return [task_to_paragraph(t, f"{path}:task {i + 1}", use_predictions=use_predictions) for i, t in enumerate(tasks)]
