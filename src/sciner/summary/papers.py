"""Inputs -> tagged papers: what ``sciner summarize`` reads before it summarizes.

An input is anything ``sciner predict`` reads. It is *already tagged* when its format carries
entities (the registry's ``carries_entities``: CoNLL, JSONL, doccano, Label Studio, spaCy),
every paragraph has tags (a one-column CoNLL has none) and at least one entity is found (a
JSONL written by ``sciner extract`` has no ``entities``); then its tags are used as they are.
Anything else (text, PDF, untagged files) is tagged with the model, loaded once for all.

Each input is one paper named by its file's stem, unless it holds several: a JSONL's ``doc``
field names each paragraph's paper, and CoNLL ``-DOCSTART-`` lines start a new one
(``name#2``, ``name#3``, ...).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from sciner.document import Paragraph
from sciner.errors import InputNotFoundError, ScinerError
from sciner.formats.registry import input_format
from sciner.formats.tokens import DOCSTART
from sciner.stdio import display_name, readable


@dataclass
class Paper:
    """One paper's paragraphs; ``tagged`` once they carry the tags to summarize."""

    doc: str
    paragraphs: list[Paragraph]
    tagged: bool


def is_tagged(paragraphs: Sequence[Paragraph]) -> bool:
    """True when every paragraph has tags and some paragraph has an entity."""
    return bool(paragraphs) and all(p.spans is not None for p in paragraphs) and any(p.spans for p in paragraphs)


def read_papers(path: Path, fmt: str | None = None, *, tokenize: bool = False, retag: bool = False) -> list[Paper]:
    """The papers of one input file (``-`` is standard input), tagged or not (see the module)."""
    from sciner.inference.files import read_input

    try:
        with readable(path) as local:
            chosen = input_format(local, fmt)
            paragraphs = chosen.read(local) if chosen.carries_entities and not tokenize else []  # type: ignore[misc]
            tagged = not retag and is_tagged(paragraphs)
            if not tagged:
                paragraphs = read_input(local, fmt, tokenize=tokenize)
            docstarts = _docstart_lines(local) if chosen.name == "conll" else []
    except OSError as err:
        raise InputNotFoundError(f"{display_name(path)}: cannot be read ({err.strerror or type(err).__name__})") from None
    return [Paper(doc, ps, tagged) for doc, ps in split_documents(paragraphs, _stem(path), docstarts)]


def _stem(path: Path) -> str:
    name = display_name(path)
    return Path(name).stem if name != "-" else "stdin"


def _docstart_lines(path: Path) -> list[int]:
    """The line numbers of a CoNLL file's ``-DOCSTART-`` lines."""
    with open(path, encoding="utf-8-sig", errors="replace") as handle:
        return [n for n, line in enumerate(handle, start=1) if line.split("\t")[0].strip() == DOCSTART]


def split_documents(paragraphs: list[Paragraph], stem: str, docstarts: Sequence[int] = ()) -> list[tuple[str, list[Paragraph]]]:
    """One input's paragraphs as papers: by their ``doc`` (JSONL), else between ``-DOCSTART-``
    lines (CoNLL: ``stem``, ``stem#2``, ...), else all of them as ``stem``."""
    papers: dict[str, list[Paragraph]] = {}
    if any("doc" in p.meta for p in paragraphs):
        for p in paragraphs:
            papers.setdefault(Path(str(p.meta.get("doc", stem))).stem, []).append(p)
        return list(papers.items())
    if len(docstarts) > 1:
        for p in paragraphs:
            number = sum(line < p.line for line in docstarts)
            papers.setdefault(stem if number <= 1 else f"{stem}#{number}", []).append(p)
        return list(papers.items())
    return [(stem, paragraphs)]


def tag_papers(papers: list[Paper], *, model: str | Path | None = None, precision: str = "auto",
               device: str = "auto", threads: int = 2, batch_subwords: int | None = None,
               show_progress: bool = True) -> None:
    """Tag the papers that have no tags yet, in one batch with one model (loaded only when needed)."""
    todo = [paper for paper in papers if not paper.tagged]
    if not todo:
        return
    import torch

    from sciner.inference.files import tag_read
    from sciner.inference.tagger import Tagger
    from sciner.model.batching import BATCH_SUBWORDS

    torch.set_num_threads(threads)
    tagger = Tagger.load(model, precision=precision, device=device)
    read = [(Path(paper.doc), paper.paragraphs) for paper in todo]
    for paper, (_, tagged) in zip(todo, tag_read(tagger, read, batch_subwords=batch_subwords or BATCH_SUBWORDS,
                                                 show_progress=show_progress)):
        paper.paragraphs, paper.tagged = tagged, True


def read_all(paths: Sequence[Path], fmt: str | None, *, tokenize: bool, retag: bool,
             on_error: Callable[[ScinerError], object]) -> list[Paper]:
    """The papers of every readable input, in input order; an unreadable input goes to ``on_error``."""
    papers: list[Paper] = []
    for path in paths:
        try:
            papers.extend(read_papers(path, fmt, tokenize=tokenize, retag=retag))
        except ScinerError as err:
            on_error(err)
    return papers
