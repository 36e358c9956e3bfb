"""Inputs -> papers: what ``sciner summarize`` summarizes.

An input is anything ``sciner predict`` reads, read by :mod:`sciner.files` (its tags kept when
it carries them: ``Reading(tags=True)``, see :func:`sciner.files.inputs.is_tagged`) and tagged
there by the :class:`~sciner.inference.predict.Tagging` step when it carries none.

Each input is one paper named by its file (:func:`paper_name`: ``papers/x.pdf`` -> ``x``),
unless it holds several: a JSONL's ``doc`` field names each paragraph's paper, and CoNLL
``-DOCSTART-`` lines start a new one (``name#2``, ``name#3``, ...). Every verb that names
papers (summarize, index) names them here, by the one rule of :func:`paper_name`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from sciner.document import Paragraph
from sciner.files.inputs import Reading
from sciner.formats.registry import without_suffix
from sciner.stdio import display_name


@dataclass
class Paper:
    """One paper's paragraphs."""

    doc: str
    paragraphs: list[Paragraph]


def papers_of(path: Path, paragraphs: list[Paragraph]) -> list[Paper]:
    """The papers of one input (``path`` as given; ``-`` is standard input) as read and tagged."""
    return [Paper(doc, ps) for doc, ps in split_documents(paragraphs, file_paper(path))]


def read_papers(path: Path, fmt: str | None = None, *, tokenize: bool = False, retag: bool = False,
                include: Sequence[str] = ()) -> list[Paper]:
    """The papers of one input file as summarize reads them, not yet tagged: its tags as they are
    where it carries them (:func:`sciner.files.inputs.is_tagged`; ``retag``: dropped)."""
    return papers_of(path, Reading.of(fmt, tokenize=tokenize, include=include, tags=not retag)(path))


def file_paper(path: Path) -> str:
    """The paper a file is when none of its paragraphs names one: :func:`paper_name` of its
    name as messages say it (``-``, standard input, is ``<stdin>``)."""
    return paper_name(display_name(path))


def split_documents(paragraphs: list[Paragraph], name: str) -> list[tuple[str, list[Paragraph]]]:
    """One input's paragraphs as papers: by their ``doc`` (a JSONL field, or a CoNLL file's
    ``-DOCSTART-`` blocks as its reader names them), else all of them as ``name``."""
    papers: dict[str, list[Paragraph]] = {}
    for p in paragraphs:
        papers.setdefault(paper_name(str(p.meta["doc"])) if "doc" in p.meta else name, []).append(p)
    return list(papers.items()) or [(name, paragraphs)]


def paper_name(doc: str) -> str:
    """A document's name as a paper: its file name less a suffix sciner reads (``papers/x.pdf``
    -> ``x``, ``x.pdf.txt`` -> ``x.pdf``); a name without one (``arxiv_1603.01360``, ``x#2``)
    stays whole."""
    return without_suffix(Path(doc).name)  # .pdf is a format suffix too
