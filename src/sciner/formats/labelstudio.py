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
from sciner.formats.charspans import CharEntity, char_entities_to_paragraph, tokens_of
from sciner.formats.jsonfields import (
    json_index, json_label, json_list, json_object, json_score, json_string, parse_json, wrong,
)
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


def chosen_result(task: dict[str, Any], where: str, *, use_predictions: bool) -> tuple[list[Any], str]:
    """The results a task stands for, and their field path: its latest non-cancelled
    annotation, else its first prediction.

    A person's annotation always wins over a model's prediction; with
    ``use_predictions=False`` a task nobody annotated has no entities.
    """
    annotations = [
        (json_object(a, where, f"annotations[{i}]"), f"annotations[{i}]")
        for i, a in enumerate(json_list(task.get("annotations"), where, "annotations", optional=True))
    ]
    annotations = [(a, field) for a, field in annotations if not a.get("was_cancelled")]
    if annotations:
        # Several people may have annotated a task; the latest edit is the reviewed one.
        latest, field = max(enumerate(annotations), key=lambda ia: (str(ia[1][0].get("updated_at") or ""), ia[0]))[1]
        return json_list(latest.get("result"), where, f"{field}.result", optional=True), f"{field}.result"
    predictions = json_list(task.get("predictions"), where, "predictions", optional=True)
    if use_predictions and predictions:
        first = json_object(predictions[0], where, "predictions[0]")
        return json_list(first.get("result"), where, "predictions[0].result", optional=True), "predictions[0].result"
    return [], ""


def _entities(results: list[Any], where: str, field: str) -> list[CharEntity]:
    """The character entities of a task's ``labels`` results (one per label of each)."""
    entities = []
    for i, r in enumerate(results):
        r = json_object(r, where, f"{field}[{i}]")
        # Relations, choices and other result types carry no entity.
        if r.get("type") != "labels":
            continue
        value = json_object(r.get("value"), where, f"{field}[{i}].value")
        start = json_index(value.get("start"), where, f"{field}[{i}].value.start")
        end = json_index(value.get("end"), where, f"{field}[{i}].value.end")
        score = json_score(r.get("score"), where, f"{field}[{i}].score")
        labels = json_list(value.get("labels"), where, f"{field}[{i}].value.labels")
        for j, label in enumerate(labels):
            label = json_label(label, where, f"{field}[{i}].value.labels[{j}]", ENTITY_TYPES)
            entities.append(CharEntity(start, end, label, score, f"{field}[{i}].value"))
    return entities


def task_to_paragraph(task: Any, where: str, *, use_predictions: bool = True) -> Paragraph:
    """A tagged paragraph from one task of a Label Studio export (or of an import file)."""
    task = json_object(task, where, "")
    data = json_object(task.get("data"), where, "data")
    text = json_string(data.get("text"), where, "data.text")
    tokens = tokens_of(data.get("tokens"), text, where, "data.tokens")
    results, field = chosen_result(task, where, use_predictions=use_predictions)
    entities = _entities(results, where, field)
    source = data.get("source") if isinstance(data.get("source"), str) else where.rpartition(":")[0]
    line = data.get("line") if isinstance(data.get("line"), int) else 0
    return char_entities_to_paragraph(tokens, text, entities, where, source=source, line=line)


def read_labelstudio(path: str | Path, *, use_predictions: bool = True) -> list[Paragraph]:
    """Read a Label Studio JSON export (or import file) into tagged paragraphs, in task order.

    Tokens come from ``data.tokens`` when present (else ``data.text`` split on spaces), and
    character offsets are mapped back onto them; see :func:`chosen_result` for which
    annotation is used.
    """
    tasks = parse_json(read_text(path), path)
    if isinstance(tasks, dict):
        tasks = [tasks]
    if not isinstance(tasks, list):
        raise wrong(f"{path}:1", "", "a list of Label Studio tasks", tasks)
    return [task_to_paragraph(t, f"{path}:task {i + 1}", use_predictions=use_predictions) for i, t in enumerate(tasks)]
