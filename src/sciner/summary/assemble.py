"""The summary pipeline: a tagged paper -> its summary, each stage in its module, called in
order by :func:`summarize_paper`; and papers -> the corpus table (papers x methods, datasets,
tasks, metrics)."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sciner.document import Paragraph
from sciner.formats.kinds import is_tagged
from sciner.summary.names import CLEAN_RULES, Entity, Gazetteer, fold, paper_entities
from sciner.summary.ours import cited_names, mark_ablations, mark_ours, own_row_names, proposed_methods
from sciner.summary.tables.caption import evaluated_dataset
from sciner.summary.tables.cells import is_language, metric_like
from sciner.summary.tables.reader import lost_tables, read_tables, silent_tables, unfound_tables
from sciner.summary.values import NotResult, Result, Value, read_sentences

# The corpus table's columns and the entity type each counts.
CORPUS_TYPES: dict[str, str] = {"methods": "MethodName", "datasets": "DatasetName", "tasks": "TaskName",
                                "metrics": "MetricName"}


@dataclass
class PaperSummary:
    """A paper's summary, with the tagged paragraphs it was read from (for the HTML view)."""

    doc: str
    entities: list[Entity]
    values: list[Value]
    results: list[Result]
    paragraphs: list[Paragraph] = field(repr=False, default_factory=list)
    not_results: list[NotResult] = field(default_factory=list)
    proposed: list[str] = field(default_factory=list)  # the names of the method(s) the paper proposes
    # What the reading could not do, one line each: tables with numbers and no result read off
    # them, tables whose rows the PDF lost.
    warnings: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"doc": self.doc, "entities": [e.to_json() for e in self.entities],
                "values": [v.to_json() for v in self.values], "results": [r.to_json() for r in self.results],
                "proposed": self.proposed, "not_results": [n.to_json() for n in self.not_results],
                "warnings": self.warnings}

    def notes(self) -> list[str]:
        """The stderr lines saying its :attr:`warnings`, one each ("note: paper X: ...")."""
        return [f"note: paper {self.doc}: {warning}" for warning in self.warnings]


def summarize_paper(doc: str, paragraphs: Sequence[Paragraph], gazetteer: Gazetteer | None = None,
                    clean: Collection[str] = CLEAN_RULES) -> PaperSummary:
    """The summary of one tagged paper (``paragraphs`` in reading order); ``clean``: the rules
    that clean its names (:data:`~sciner.summary.names.CLEAN_RULES`). The stages: its entities
    (names.py), the values and results of its sentences (values.py) and of its tables
    (tables.py), its own method and results (ours.py)."""
    written = list(paragraphs)
    # A float's text (kind "figure": a plot's labels) is read for its numbers only: what a model
    # tagged there (an input tagged elsewhere) names nothing of the paper (no entity, no metric its
    # tables may take).
    paragraphs = [p if is_tagged(p.meta.get("kind")) else p.with_no_entities() for p in written]
    names = paper_entities(paragraphs, gazetteer, clean)
    values, results, others = read_sentences(paragraphs, names.name_of, names.known_as)
    metrics = [e for e in names.read if e.type == "MetricName"]
    in_tables = read_tables(paragraphs, names.known_as, gazetteer,
                            paper_metric=metrics[0].name if len(metrics) == 1 and not _heads_run(metrics[0].name) else None,
                            paper_dataset=main_dataset(names.read, evaluated_dataset(paragraphs, names.known_as)))
    values = sorted(values + in_tables[0], key=lambda v: v.place)
    results = sorted(results + in_tables[1], key=lambda r: r.place)
    others = sorted(others + in_tables[2], key=lambda o: o.place)
    proposed = proposed_methods(paragraphs, names.name_of)
    mark_ours(results, proposed, cited_names(paragraphs, proposed), paragraphs)
    proposed += [n for n in own_row_names(results) if fold(n) not in {fold(m) for m in proposed}]
    mark_ablations(results)
    warnings = [w for w in (silent_tables(paragraphs, results, others), lost_tables(paragraphs),
                            unfound_tables(paragraphs)) if w]
    return PaperSummary(doc, names.entities, values, results, written, others, proposed, warnings)


def _heads_run(name: str) -> bool:
    """Whether a metric's name is a run of table heads, two metrics at least ("Precision Rrecall
    F1", a header row the PDF reader set amid the text): no one metric of the paper."""
    return sum(len(word) > 1 and bool(metric_like(word)) for word in name.split()) >= 2  # not "Pearson r"


def main_dataset(entities: Sequence[Entity], evaluated: str | None = None) -> str | None:
    """The dataset more than half of the paper's mentions of data name (with the names that
    contain it: "SQuAD dataset" is SQuAD), three at least, else the one its prose says it is
    evaluated on (``evaluated``: see :func:`~sciner.summary.tables.caption.evaluated_dataset`)
    where the paper names it more often than any other; None: the data the paper is about, or
    that one is a language ("Chinese", most named in "Chinese OntoNotes 4.0", "Chinese MSRA")."""
    data = [e for e in entities if e.type == "DatasetName"]
    total = sum(len(e.places) for e in data)

    def mentions(key: str) -> int:
        return sum(len(e.places) for e in data if key in fold(e.name))

    for top in sorted(data, key=lambda e: -len(e.places))[:1]:
        key = fold(top.name)
        if key and (said := mentions(key)) >= 3 and 2 * said > total:
            return None if is_language(top.name) else top.name  # "Chinese" of "Chinese MSRA": no data
    key = fold(evaluated or "")
    said = mentions(key) if key else 0
    if key and all(said > len(e.places) for e in data if key not in fold(e.name)):
        return None if is_language(evaluated or "") else evaluated
    return None


def corpus_table(papers: Iterable[PaperSummary]) -> dict[str, Any]:
    """Papers x methods / datasets / tasks / metrics: for each name (folded across papers), the
    papers naming it, its mentions in all of them, and its mentions in each."""
    papers = list(papers)
    table: dict[str, Any] = {"papers": len(papers)}
    for column, label in CORPUS_TYPES.items():
        rows: dict[str, dict[str, Any]] = {}
        for paper in papers:
            for e in paper.entities:
                if e.type == label:
                    row = rows.setdefault(fold(e.name) or e.name, {"name": e.name, "papers": 0, "mentions": 0, "in": {}})
                    row["papers"] += 1
                    row["mentions"] += len(e.places)
                    row["in"][paper.doc] = row["in"].get(paper.doc, 0) + len(e.places)
        table[column] = sorted(rows.values(), key=lambda r: (-r["papers"], -r["mentions"], r["name"].lower()))
    # Each paper's own results only: its proposed method's numbers, side by side across papers.
    table["ours"] = [{"doc": paper.doc, **{k: v for k, v in r.to_json().items() if k != "ours"}}
                     for paper in papers for r in paper.results if r.ours]
    return table

