"""Your own annotated papers (``sciner train FILES``): read from files and folders in any
tagged format, one paper per file (or per ``-DOCSTART-`` document, or JSONL ``doc``), and
split by paper into train and dev.

A paper's paragraphs share topic, style and annotator, so dev is whole papers, never
paragraphs of a paper trained on: a seeded ``dev_share`` of them (at least
:data:`MIN_DEV_PAPERS`), unless the user names the dev files.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

from sciner.document import Paragraph
from sciner.errors import ConfigError

# Fewer dev papers give a dev score that is one paper's: early stopping and the kept epoch
# would follow its quirks.
MIN_DEV_PAPERS = 2


@dataclass
class AnnotatedPaper:
    """One annotated paper: its name (the file, or ``file#2`` for its second document) and paragraphs."""

    name: str
    paragraphs: list[Paragraph]


def tagged_files(items: list[str]) -> list[Path]:
    """The files named, and the tagged files in the folders named (sorted; hidden ones left
    out), expanded as every verb expands its inputs (:func:`sciner.files.inputs.expand_inputs`)."""
    from sciner.files.inputs import expand_inputs
    from sciner.formats.registry import TAGGED_FORMATS

    return expand_inputs(items, formats=TAGGED_FORMATS)


def read_annotated_papers(items: list[str]) -> list[AnnotatedPaper]:
    """The papers of the files and folders named: every paragraph must carry entities (a bad
    line is the reader's one-line error, naming the file and line)."""
    import sys

    from sciner.formats.registry import read_annotated
    from sciner.tokenize import untokenized_gold_warning

    papers: list[AnnotatedPaper] = []
    for path in tagged_files(items):
        by_doc: dict[str, list[Paragraph]] = {}
        paragraphs = read_annotated(path)
        if warning := untokenized_gold_warning((p.tokens for p in paragraphs), str(path)):
            print(warning, file=sys.stderr)
        for p in paragraphs:
            by_doc.setdefault(str(p.meta.get("doc") or ""), []).append(p)
        for doc, paragraphs in by_doc.items():
            name = str(path) if not doc or len(by_doc) == 1 else f"{path}#{doc}"
            papers.append(AnnotatedPaper(name, paragraphs))
    return papers


def split_papers(papers: list[AnnotatedPaper], dev: list[AnnotatedPaper] | None, share: float, seed: int, *,
                 others_to_train: bool = False) -> tuple[list[AnnotatedPaper], list[AnnotatedPaper]]:
    """Train and dev papers: ``dev`` as given (papers named with ``--dev``, left out of train),
    else a seeded ``share`` of ``papers`` (at least :data:`MIN_DEV_PAPERS`, at least one left to
    train on, unless ``others_to_train``: the shared groups). Too few papers for that is a
    :class:`ConfigError` that says what to do."""
    if dev is not None:
        names = {p.name for p in dev}
        train = [p for p in papers if p.name not in names]
        if len(dev) < MIN_DEV_PAPERS:
            raise ConfigError(f"--dev names {len(dev)} paper; dev needs at least {MIN_DEV_PAPERS} papers "
                              "(files, or -DOCSTART- documents) to choose the epoch on: name more with --dev")
    else:
        if len(papers) < MIN_DEV_PAPERS + 1:
            raise ConfigError(f"{len(papers)} paper(s) given: a dev split needs at least {MIN_DEV_PAPERS} papers "
                              "besides those trained on; give more files (each file, or -DOCSTART- document, "
                              "is one paper), name dev papers with --dev FILES, or add the shared groups "
                              "with --with-shared --dev FILES")
        n_dev = min(len(papers) - 1, max(MIN_DEV_PAPERS, round(share * len(papers))))
        chosen = set(random.Random(seed).sample(range(len(papers)), n_dev))
        train = [p for i, p in enumerate(papers) if i not in chosen]
        dev = [p for i, p in enumerate(papers) if i in chosen]
    if not train and not others_to_train:
        raise ConfigError("no paper left to train on: every file given is a --dev file")
    return train, dev
