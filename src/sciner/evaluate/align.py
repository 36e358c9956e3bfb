"""Read gold and predicted files and pair their paragraphs, refusing any token difference.

Evaluation is only meaningful when both files hold the same paragraphs with the same
tokens; the first difference is reported with the file, paragraph and token index.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from sciner.document import Paragraph
from sciner.errors import TokenMismatchError
from sciner.formats.registry import read_annotated


@dataclass(frozen=True)
class AlignedParagraph:
    """One paragraph's tokens with its gold and predicted BIO tags."""

    tokens: list[str]
    gold: list[str]
    pred: list[str]


def read_tagged(path: str | Path, fmt: str | None = None) -> list[Paragraph]:
    """Read a file whose every paragraph carries entities (gold or predictions), in any
    format of :mod:`sciner.formats.registry` that carries them."""
    return read_annotated(path, fmt)


def _first_difference(a: Sequence[str], b: Sequence[str]) -> int:
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return i
    return min(len(a), len(b))


def check_same_tokens(gold: Sequence[Paragraph], pred: Sequence[Paragraph], gold_name: str, pred_name: str) -> None:
    """Raise :class:`TokenMismatchError` unless both sides have the same paragraphs with the same tokens."""
    if len(gold) != len(pred):
        raise TokenMismatchError(
            f"{pred_name}: has {len(pred)} paragraphs but gold {gold_name} has {len(gold)}"
        )
    for number, (g, p) in enumerate(zip(gold, pred), start=1):
        if g.tokens != p.tokens:
            i = _first_difference(g.tokens, p.tokens)
            pred_tok = repr(p.tokens[i]) if i < len(p.tokens) else "the end of the paragraph"
            gold_tok = repr(g.tokens[i]) if i < len(g.tokens) else "the end of the paragraph"
            raise TokenMismatchError(
                f"{pred_name}:{p.line}: paragraph {number}, token {i}: prediction has {pred_tok} "
                f"but gold {gold_name}:{g.line} has {gold_tok}"
            )


def align(gold: Sequence[Paragraph], pred: Sequence[Paragraph], gold_name: str, pred_name: str) -> list[AlignedParagraph]:
    """Pair gold and predicted paragraphs in order; raise :class:`TokenMismatchError` on any difference."""
    check_same_tokens(gold, pred, gold_name, pred_name)
    pairs = []
    for number, (g, p) in enumerate(zip(gold, pred), start=1):
        if g.tags is None or p.tags is None:
            raise ValueError(f"paragraph {number} has no tags; read files with read_tagged")
        pairs.append(AlignedParagraph(tokens=list(g.tokens), gold=list(g.tags), pred=list(p.tags)))
    return pairs


def align_files(gold_path: str | Path, pred_path: str | Path, *, fmt: str | None = None) -> list[AlignedParagraph]:
    """Read a gold and a predicted file (in ``fmt``, else by suffix) and pair their paragraphs."""
    gold = read_tagged(gold_path, fmt)
    pred = read_tagged(pred_path, fmt)
    return align(gold, pred, str(gold_path), str(pred_path))
