"""Tagged paragraphs written by hand: a tiny tagged corpus for the index tests, and the body
sentences, captions and table rows of the summary tests."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

from sciner.document import Paragraph, Span
from sciner.formats.jsonl import write_jsonl

PAPERS = {
    "alpha": ["[BERT|MethodName] : pre-training for [question answering|TaskName]",
              "We fine-tune [BERT-base|MethodName] on [SQuAD|DatasetName] and reach [88.5|MetricValue] [F1|MetricName] .",
              "Tuned , [BERT base|MethodName] reaches [90.9|MetricValue] [F1|MetricName] on [SQuAD|DatasetName] with a "
              "[learning rate|HyperparameterName] of [5e-5|HyperparameterValue] .",
              "Span masking helps the [LSTM|MethodName] language model reach a [perplexity|MetricName] of "
              "[35.1|MetricValue] on [PTB|DatasetName] ."],
    "beta": ["In this paper we propose [XLNet|MethodName] , a new model .",
             "Our [XLNet|MethodName] reaches [92.1|MetricValue] [F1|MetricName] on [SQuAD|DatasetName] .",
             "The [learning rate|HyperparameterName] is [5e-5|HyperparameterValue] .",
             "An [LSTM|MethodName] gets a [perplexity|MetricName] of [29.4|MetricValue] on [PTB|DatasetName] ."],
    "gamma": ["[Bert Base|MethodName] gets [85.0|MetricValue] [F1|MetricName] on [SQuAD|DatasetName] .",
              "We set the [learning rates|HyperparameterName] to [3e-5|HyperparameterValue] ."],
}


def bracketed(line: str) -> Paragraph:
    """A paragraph from ``words [entity words|Type] words``."""
    tokens, tags = [], []
    for bracket, plain in re.findall(r"\[([^\]]+)\]|(\S+)", line):
        if plain:
            tokens.append(plain)
            tags.append("O")
        else:
            words, label = bracket.rsplit("|", 1)
            for k, word in enumerate(words.split()):
                tokens.append(word)
                tags.append(("B-" if k == 0 else "I-") + label)
    return Paragraph(tokens, tags)


def write_corpus(folder: Path, papers: dict[str, list[str]] = PAPERS) -> Path:
    """One tagged JSONL file a paper in ``folder``, its lines written as :func:`bracketed` reads them."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, lines in papers.items():
        paragraphs = [bracketed(line) for line in lines]
        paragraphs[0].meta["section"] = "Abstract"  # where summarize looks for the method a paper proposes
        write_jsonl(paragraphs, folder / f"{name}.jsonl")
    return folder


def indexed_corpus(folder: Path, name: str = "corpus.sqlite") -> Path:
    """:func:`write_corpus`'s papers in ``folder`` indexed into ``name`` beside it (no gazetteers)."""
    import sciner

    path = write_corpus(folder).parent / name
    sciner.index_files([folder], path, show_progress=False, gazetteers=False)
    return path


def tagged(text: str, *entities: tuple[str, int, int]) -> Paragraph:
    """A paragraph of ``text``'s words with ``(label, start, end)`` spans."""
    return Paragraph(text.split(), spans=[Span(label, start, end) for label, start, end in entities])


def row(cells: list[tuple[str, int]] | list[tuple[str, int, int]], *entities: tuple[str, int, int],
        table: str = "table 2", page: int = 7) -> Paragraph:
    """A table row as ``--include tables`` writes it: one cell per (text, column), or per (text,
    first column, last column) for a cell spanning columns."""
    tokens: list[str] = []
    spans = []
    for text, *columns in cells:
        spans.append([len(tokens), len(tokens) + len(text.split()), columns[0], columns[-1]])
        tokens += text.split()
    return Paragraph(tokens, spans=[Span(label, a, b) for label, a, b in entities],
                     meta={"kind": "table", "page": page, "table": table, "cells": spans})


def caption(text: str, *entities: tuple[str, int, int], page: int = 7) -> Paragraph:
    """A caption as ``--include captions`` writes it."""
    p = tagged(text, *entities)
    p.meta.update(kind="caption", page=page)
    return p


def with_years(db: Path, years: dict[str, int]) -> Path:
    """``db`` with ``papers.year`` set for the papers named in ``years`` (the column added if the
    index has none)."""
    con = sqlite3.connect(db)
    if "year" not in {row[1] for row in con.execute("PRAGMA table_info(papers)")}:
        con.execute("ALTER TABLE papers ADD COLUMN year INTEGER")
    con.executemany("UPDATE papers SET year = ? WHERE doc = ?", [(y, doc) for doc, y in years.items()])
    con.commit()
    con.close()
    return db
