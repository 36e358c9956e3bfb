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


def read_papers(path: Path, fmt: str | None = None, *, tokenize: bool = False, retag: bool = False,
                include: Sequence[str] = ()) -> list[Paper]:
    """The papers of one input file (``-`` is standard input), tagged or not (see the module)."""
    from sciner.files.inputs import read_input

    try:
        with readable(path) as local:
            chosen = input_format(local, fmt)
            paragraphs = chosen.read(local) if chosen.carries_entities and not tokenize else []  # type: ignore[misc]
            tagged = not retag and is_tagged(paragraphs)
            if not tagged:
                paragraphs = read_input(local, fmt, tokenize=tokenize, include=include, name=display_name(path))
    except OSError as err:
        raise InputNotFoundError(f"{display_name(path)}: cannot be read ({err.strerror or type(err).__name__})") from None
    return [Paper(doc, ps, tagged) for doc, ps in split_documents(paragraphs, _stem(path))]


def _stem(path: Path) -> str:
    name = display_name(path)
    return Path(name).stem if name != "-" else "stdin"


def split_documents(paragraphs: list[Paragraph], stem: str) -> list[tuple[str, list[Paragraph]]]:
    """One input's paragraphs as papers: by their ``doc`` (a JSONL field, or a CoNLL file's
    ``-DOCSTART-`` blocks as its reader names them), else all of them as ``stem``."""
    papers: dict[str, list[Paragraph]] = {}
    for p in paragraphs:
        papers.setdefault(paper_name(str(p.meta["doc"])) if "doc" in p.meta else stem, []).append(p)
    return list(papers.items()) or [(stem, paragraphs)]


def paper_name(doc: str) -> str:
    """A document's name as a paper: its file name less a suffix sciner reads (``papers/x.pdf``
    -> ``x``); a name without one (``arxiv_1603.01360``, ``x#2``) stays whole."""
    from sciner.formats.registry import suffix_format

    name = Path(doc).name
    fmt = suffix_format(name)
    for suffix in (*(fmt.suffixes if fmt else ()), ".pdf"):
        if name.lower().endswith(suffix) and len(name) > len(suffix):
            return name[: -len(suffix)]
    return name


def tag_papers(papers: list[Paper], *, model: str | Path | None = None, precision: str = "auto",
               device: str = "auto", threads: int = 2, batch_subwords: int | None = None,
               show_progress: bool = True) -> None:
    """Tag the papers that have no tags yet, in one batch with one model (loaded only when needed)."""
    todo = [paper for paper in papers if not paper.tagged]
    if not todo:
        return
    import torch

    from sciner.inference.predict import tag_read
    from sciner.inference.tagger import Tagger
    from sciner.model.batching import BATCH_SUBWORDS

    torch.set_num_threads(threads)
    tagger = Tagger.load(model, precision=precision, device=device)
    read = [(Path(paper.doc), paper.paragraphs) for paper in todo]
    for paper, (_, tagged) in zip(todo, tag_read(tagger, read, batch_subwords=batch_subwords or BATCH_SUBWORDS,
                                                 show_progress=show_progress)):
        paper.paragraphs, paper.tagged = tagged, True


def read_all(paths: Sequence[Path], fmt: str | None, *, tokenize: bool, retag: bool, include: Sequence[str] = (),
             on_error: Callable[[ScinerError], object]) -> list[Paper]:
    """The papers of every readable input, in input order; an unreadable input goes to ``on_error``."""
    papers: list[Paper] = []
    for path in paths:
        try:
            papers.extend(read_papers(path, fmt, tokenize=tokenize, retag=retag, include=include))
        except ScinerError as err:
            on_error(err)
    return papers
