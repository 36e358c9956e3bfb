"""A tagged paper -> its summary (entities with one name each, values with what they belong
to, results), and papers -> the corpus table (papers x methods, datasets, tasks, metrics)."""

from __future__ import annotations

from collections import Counter, defaultdict
import re
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sciner.data.sentences import sentence_ranges
from sciner.document import Paragraph, Span
from sciner.labels import NAME_TYPES
from sciner.summary.names import (
    CLEAN_RULES, Gazetteer, Mention, clean_mentions, find_abbreviations, fold, is_name, same_but_heads, trim,
    without_head,
)
from sciner.summary.tables import CITED, read_tables
from sciner.summary.values import NotResult, Place, Result, Value, read_sentences
# The corpus table's columns and the entity type each counts.
CORPUS_TYPES: dict[str, str] = {"methods": "MethodName", "datasets": "DatasetName", "tasks": "TaskName",
                                "metrics": "MetricName"}


@dataclass
class Entity:
    """One thing a paper names, however it spells it."""

    type: str
    name: str
    surface: list[str]
    places: list[Place]

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "name": self.name, "mentions": len(self.places), "surface": self.surface}


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

    def to_json(self) -> dict[str, Any]:
        return {"doc": self.doc, "entities": [e.to_json() for e in self.entities],
                "values": [v.to_json() for v in self.values], "results": [r.to_json() for r in self.results],
                "proposed": self.proposed, "not_results": [n.to_json() for n in self.not_results]}


class _Groups:
    """Union-find over (type, folded name) keys: the spellings that name one entity."""

    def __init__(self) -> None:
        self.parent: dict[tuple[str, str], tuple[str, str]] = {}

    def find(self, key: tuple[str, str]) -> tuple[str, str]:
        self.parent.setdefault(key, key)
        while self.parent[key] != key:
            self.parent[key] = self.parent[self.parent[key]]
            key = self.parent[key]
        return key

    def union(self, a: tuple[str, str], b: tuple[str, str]) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[max(ra, rb)] = min(ra, rb)


def mention_text(p: Paragraph, s: Span) -> str:
    """A name's mention as the paper spells it, without the punctuation and function words a
    span may have taken in at its ends ("( CLS" -> "CLS")."""
    tokens = p.tokens[s.start:s.end]
    start, end = trim(tokens)
    return " ".join(tokens[start:end]).replace(" - ", "-")  # the tokenizer's "LSTM - CRF" is LSTM-CRF


def _overlapping(p: Paragraph, where: tuple[int, int]) -> list[Span]:
    return [s for s in p.spans or [] if s.start < where[1] and where[0] < s.end and s.label in NAME_TYPES]


def link_abbreviations(paragraphs: Sequence[Paragraph], groups: _Groups) -> set[tuple[str, str]]:
    """Join each abbreviation defined in the paper with its long form, for the type the short
    form is tagged with there; returns the short forms' keys (a name is spelled as its short form)."""
    shorts: set[tuple[str, str]] = set()
    for p in paragraphs:
        for abbreviation in find_abbreviations(p.tokens):
            tagged_short = _overlapping(p, abbreviation.short_range)
            tagged_long = _overlapping(p, abbreviation.long_range)
            for label in {s.label for s in tagged_short} | {s.label for s in tagged_long}:
                short_key = (label, fold(abbreviation.short))
                groups.union(short_key, (label, fold(abbreviation.long)))
                for s in tagged_long + tagged_short:
                    if s.label == label:
                        groups.union(short_key, (label, fold(mention_text(p, s))))
                shorts.add(short_key)
    return shorts


def _name(spellings: Counter[str], short_keys: set[str], label: str, gazetteer: Gazetteer) -> str:
    """A group's name: its short form if it has one, else its most frequent spelling (a tie goes
    to the first seen), in the gazetteer's spelling where the gazetteer lists it."""
    ranked = sorted(spellings, key=lambda s: (fold(s) not in short_keys, -spellings[s]))
    best = ranked[0]
    return gazetteer.canonical(label, best) or best


def summarize_paper(doc: str, paragraphs: Sequence[Paragraph], gazetteer: Gazetteer | None = None,
                    clean: Collection[str] = CLEAN_RULES) -> PaperSummary:
    """The summary of one tagged paper (``paragraphs`` in reading order); ``clean``: the rules
    that clean its names (:data:`~sciner.summary.names.CLEAN_RULES`)."""
    gazetteer = gazetteer or Gazetteer.empty()
    groups = _Groups()
    tagged = [Mention(s.label, mention_text(p, s), (i, s.start, s.end), s.score, s.start, s.end)
              for i, p in enumerate(paragraphs) for s in p.spans or [] if s.label in NAME_TYPES]
    cleaned = clean_mentions([p.tokens for p in paragraphs], [m for m in tagged if is_name(m.text)], clean, gazetteer)
    as_tagged = {m.place: m.text for m in tagged}  # each span's text before the rules
    mentions: list[tuple[tuple[str, str], str, Place]] = []
    for m in cleaned:
        key = (m.label, fold(m.text))
        groups.find(key)
        mentions.append((key, m.text, m.place))
        raw = as_tagged[m.place]
        if "heads" in clean and without_head(m.label, raw) != raw:  # "labeled attachment score ( LAS )"
            groups.union(key, (m.label, fold(raw)))
    for a, b in same_but_heads(cleaned) if "heads" in clean else ():
        groups.union(a, b)
    shorts = link_abbreviations(paragraphs, groups)
    by_group: dict[tuple[str, str], list[tuple[str, Place]]] = defaultdict(list)
    for key, text, place in mentions:
        by_group[groups.find(key)].append((text, place))
    entities = []
    for (label, _), found in by_group.items():
        spellings = Counter(text for text, _ in found)
        short_keys = {k for lab, k in shorts if lab == label}
        entities.append(Entity(label, _name(spellings, short_keys, label, gazetteer), list(spellings),
                               [place for _, place in found]))
    entities.sort(key=lambda e: (NAME_TYPES.index(e.type), -len(e.places), e.name.lower()))
    # Each spelling the paper tags, folded: the entity it names under each type, and its mentions.
    known: dict[str, dict[str, tuple[str, int]]] = defaultdict(dict)
    for e in entities:
        for text in e.surface:
            known[fold(text)][e.type] = (e.name, len(e.places))
    for m in cleaned:  # a span as tagged names what its cleaned text names (values are paired by it)
        named = known[fold(m.text)].get(m.label)
        if named is not None:
            known[fold(as_tagged[m.place])].setdefault(m.label, named)

    def name_of(p: Paragraph, s: Span) -> str | None:
        return known.get(fold(mention_text(p, s)), {}).get(s.label, (None, 0))[0]

    values, results, others = read_sentences(paragraphs, name_of)
    metrics = [e for e in entities if e.type == "MetricName"]
    in_tables = read_tables(paragraphs, lambda text: known.get(fold(text), {}), gazetteer,
                            paper_metric=metrics[0].name if len(metrics) == 1 else None)
    values = sorted(values + in_tables[0], key=lambda v: v.place)
    results = sorted(results + in_tables[1], key=lambda r: r.place)
    others = sorted(others + in_tables[2], key=lambda o: o.place)
    proposed = proposed_methods(paragraphs, name_of)
    mark_ours(results, proposed, cited_names(paragraphs, proposed))
    return PaperSummary(doc, entities, values, results, list(paragraphs), others, proposed)


# Words that introduce the paper's own method in its abstract or introduction.
_PROPOSE = re.compile(r"\b(?:we|this paper|this work)\s+(?:propose|proposes|introduce|introduces|present|presents|"
                      r"develop|develops|call|term|describe|describes)\b|\b(?:called|named|dubbed|our (?:model|method|"
                      r"approach|system|framework|parser|architecture))\b")


def proposed_methods(paragraphs: Sequence[Paragraph], name_of: Callable[[Paragraph, Span], str | None]) -> list[str]:
    """The names of the methods the paper proposes: the MethodNames its title names before a
    colon ("BERT: Pre-training of ..."), and the first two after "we propose", "we introduce",
    "called" ... in a sentence of its abstract or introduction."""
    found: list[str] = []
    for p in paragraphs:
        kind, section = p.meta.get("kind"), str(p.meta.get("section") or "")
        if kind == "title":
            colon = p.tokens.index(":") if ":" in p.tokens else len(p.tokens)
            found += [n for s in p.spans or [] if s.label == "MethodName" and s.end <= colon and (n := name_of(p, s))]
            continue
        if kind not in (None, "body", "abstract") or not re.match(r"(?:abstract|(?:1\.?\s+)?introduction)\b",
                                                                 section.lower().lstrip("1. ")):
            continue
        for start, end in sentence_ranges(p.tokens, p.tags or []):
            text = " ".join(w.lower() for w in p.tokens[start:end])
            match = _PROPOSE.search(text)
            if match is None:
                continue
            at = start + len(text[:match.start()].split())
            after = [s for s in p.spans or [] if s.label == "MethodName" and at <= s.start and s.end <= end][:2]
            found += [n for s in after if (n := name_of(p, s))]
    names = [n for n in dict.fromkeys(found) if len(fold(n)) >= 3 and n != n.lower()]  # not "fine-tuning"
    # A part of another proposed name ("GCN" of "AGGCN", "Multi" of "Multi-LexSum") is not one.
    return [n for n in names if not any(fold(n) != fold(m) and fold(n) in fold(m) for m in names)]


# A citation right after a name: "BERT ( Devlin et al . , 2019 )", "LSTM ( Hochreiter and
# Schmidhuber , 1997 )", "[ 12 ]".
_CITATION_AFTER = re.compile(r"^\s*(?:\(\s?[^()]*(?:et al|(?:19|20)\d\d[a-z]?)[^()]*\)|\[\s?\d+(?:\s?,\s?\d+)*\s?\])")
# What a model adds to a name and still is that name: its size, the paper's spelling of it.
_SIZES = re.compile(r"\b(?:base|large|small|tiny|medium|xl|xxl|uncased|cased)\b")


def cited_names(paragraphs: Sequence[Paragraph], names: Sequence[str]) -> set[str]:
    """The names among ``names`` the paper cites as prior work somewhere: a mention right
    followed by a citation ("BERT ( Devlin et al . , 2019 )"): the paper builds on them."""
    keys = {fold(n): n for n in names}
    found: set[str] = set()
    for p in paragraphs:
        for s in p.spans or []:
            name = keys.get(fold(mention_text(p, s)))
            if name is not None and name not in found and _CITATION_AFTER.match(" ".join(p.tokens[s.end:s.end + 12])):
                found.add(name)
    return found


def mark_ours(results: Sequence[Result], ours: Sequence[str], cited: Iterable[str] = ()) -> None:
    """Mark each result whose model is the paper's own: a row labelled "Ours" (set when read),
    or a model that is a proposed name or a variant of one ("BERT LARGE", "X + Y"). A proposed
    name the paper also cites as prior work ("BERT" in a paper proposing a post-training of it)
    is not its own in a table that lists its variants beside it ("BERT" beside "BERT - PT" and
    "BERT - DK": the baseline the variants improve on)."""
    keys = [fold(n) for n in ours]
    built_on = {fold(n) for n in cited}

    def bare(model: str) -> str:  # "BERT Large ( single )" -> "bert"
        return fold(_SIZES.sub(" ", re.sub(r"\([^()]*\)", " ", model.lower())))

    variants = {(r.table, k) for r in results if r.table and r.model for k in built_on
                if fold(r.model).startswith(k) and bare(r.model) != k}
    for r in results:
        model = fold(r.model or "")
        if not model or CITED.search(r.model or ""):
            continue
        for k in keys:
            if model.startswith(k) or (len(k) >= 4 and k in model):
                if (r.table, k) in variants and bare(r.model or "") == k:
                    continue
                r.ours = True


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

