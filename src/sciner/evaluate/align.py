"""Read gold and predicted files and pair their paragraphs, refusing any token difference.

Evaluation is only meaningful when both files hold the same paragraphs with the same
tokens; the first difference is reported with the file, paragraph and token index.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from sciner.document import Paragraph
from sciner.errors import InputFormatError, InputNotFoundError, TokenMismatchError
from sciner.formats.registry import read_annotated


@dataclass(frozen=True)
class AlignedParagraph:
    """One paragraph's tokens with its gold and predicted BIO tags."""

    tokens: list[str]
    gold: list[str]
    pred: list[str]
    # The paper it belongs to, where known (a -DOCSTART- document, JSONL's ``doc``, one file of
    # a folder): the bootstrap resamples papers when the gold names several.
    doc: str | None = None


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
        pairs.append(AlignedParagraph(tokens=list(g.tokens), gold=list(g.tags), pred=list(p.tags),
                                      doc=g.meta.get("doc")))
    return pairs


def paired_files(gold: str | Path, *others: str | Path) -> list[tuple[Path, ...]]:
    """``(gold, *others)`` as they are when all are files; when all are folders, one tuple per
    gold file (every tagged format, in sorted order) with the file of the same name in each of
    ``others`` (any tagged suffix, as ``sciner predict -o DIR/`` writes them). A gold file
    without its partner is a one-line error naming it."""
    from sciner.formats.registry import TAGGED_FORMATS, without_suffix
    from sciner.files.inputs import walk_folder

    paths = [Path(gold), *map(Path, others)]
    folders = [p.is_dir() for p in paths]
    if not any(folders):
        return [tuple(paths)]
    if not all(folders):
        raise InputFormatError(f"{', '.join(str(p) for p in paths)}: give files, or folders, not both")

    def key(path: Path, folder: Path) -> str:
        return without_suffix(path.relative_to(folder).as_posix())

    gold_files = walk_folder(paths[0], TAGGED_FORMATS)[0]
    if not gold_files:
        raise InputNotFoundError(f"{paths[0]}: no tagged file in this folder ({', '.join(TAGGED_FORMATS)})")
    partners = []
    for folder in paths[1:]:
        found = walk_folder(folder, TAGGED_FORMATS)[0]
        by_key = {key(f, folder): f for f in found} | {f.relative_to(folder).as_posix(): f for f in found}
        mine = []
        for g in gold_files:
            k = key(g, paths[0])
            match = by_key.get(k) or by_key.get(g.relative_to(paths[0]).as_posix())
            if match is None:
                raise InputNotFoundError(f"{folder}: no file named like gold {g} ({k}.*)")
            mine.append(match)
        partners.append(mine)
    return [(g, *rest) for g, *rest in zip(gold_files, *partners)]


def _as_paper(paragraphs: list[Paragraph], path: Path) -> list[Paragraph]:
    """Paragraphs of one file of a folder: a paper each, unless the file names its documents."""
    for p in paragraphs:
        p.meta.setdefault("doc", str(path))
    return paragraphs


def read_pairs(gold_path: str | Path, *pred_paths: str | Path, fmt: str | None = None
               ) -> tuple[list[Paragraph], list[list[Paragraph]]]:
    """The gold paragraphs and each prediction's, from files or from folders paired by
    :func:`paired_files` (each file of a folder one paper); tokens are checked file by file."""
    import sys

    from sciner.tokenize import untokenized_gold_warning

    gold: list[Paragraph] = []
    preds: list[list[Paragraph]] = [[] for _ in pred_paths]
    files = paired_files(gold_path, *pred_paths)
    for g_path, *p_paths in files:
        g = read_tagged(g_path, fmt)
        if warning := untokenized_gold_warning((p.tokens for p in g), str(g_path)):
            print(warning, file=sys.stderr)
        if len(files) > 1 or Path(gold_path).is_dir():
            g = _as_paper(g, g_path)
        gold.extend(g)
        for side, p_path in zip(preds, p_paths):
            p = read_tagged(p_path, fmt)
            check_same_tokens(g, p, str(g_path), str(p_path))
            side.extend(p)
    return gold, preds


def align_files(gold_path: str | Path, pred_path: str | Path, *, fmt: str | None = None) -> list[AlignedParagraph]:
    """Read a gold and a predicted file, or two folders of them paired by name (in ``fmt``,
    else by suffix), and pair their paragraphs."""
    gold, (pred,) = read_pairs(gold_path, pred_path, fmt=fmt)
    return align(gold, pred, str(gold_path), str(pred_path))
