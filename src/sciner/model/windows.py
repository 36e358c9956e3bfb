"""Words -> subwords (and word shapes: :func:`featurize_many`) -> encoder windows -> one vector per word.

Each word is cut into subwords (at most ``max_subwords_per_word``; an empty result becomes
[UNK]). A paragraph longer than one window is covered by windows that overlap by about
``overlap`` subwords and start at word boundaries; each word takes its vector (its first
subword) from the window where it sits furthest from an edge. So every word of every
paragraph gets a vector, whatever the paragraph's length: nothing is truncated.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from itertools import accumulate, chain, repeat
from typing import TYPE_CHECKING, Any

from sciner.model.shape import word_shape

if TYPE_CHECKING:  # torch only where rows become tensors: the NumPy tagger imports none
    import torch

    from sciner.config import ModelConfig


def word_pieces(tokenizer: Any, words: list[str], max_per_word: int) -> list[list[int]]:
    """Subword ids of each word (never empty)."""
    ids = tokenizer(words, add_special_tokens=False)["input_ids"] if words else []
    unk = tokenizer.unk_token_id
    return [(p[:max_per_word] if p else [unk]) for p in ids]


@dataclass
class Features:
    """A paragraph made ready for the network: subword ids per word and word shapes."""

    pieces: list[list[int]]
    shapes: list[int]
    tokens: list[str]
    tags: list[str] | None = None

    @cached_property
    def n_subwords(self) -> int:
        return sum(len(p) for p in self.pieces)


def featurize_many(tokenizer: Any, paragraphs: list[list[str]], cfg: "ModelConfig",
                   tags: list[list[str] | None] | None = None) -> list[Features]:
    """Paragraphs made ready for the network; each distinct word is cut into subwords once."""
    distinct = list(dict.fromkeys(w for tokens in paragraphs for w in tokens))
    pieces = dict(zip(distinct, word_pieces(tokenizer, distinct, cfg.max_subwords_per_word)))
    shapes = {w: word_shape(w) for w in distinct}
    return [
        Features(pieces=[pieces[w] for w in tokens], shapes=[shapes[w] for w in tokens], tokens=list(tokens),
                 tags=tags[i] if tags is not None else None)
        for i, tokens in enumerate(paragraphs)
    ]


@dataclass(frozen=True)
class Window:
    """Words ``[start, end)`` of a paragraph fit in this window; it supplies vectors for ``[own_start, own_end)``."""

    start: int
    end: int
    own_start: int
    own_end: int


def plan_windows(lengths: list[int], max_subwords: int, overlap: int) -> list[Window]:
    """Cover words with subword counts ``lengths`` by overlapping windows of ``max_subwords``."""
    n = len(lengths)
    if n == 0:
        return [Window(0, 0, 0, 0)]
    spans: list[tuple[int, int]] = []
    a = 0
    while True:
        b, total = a, 0
        while b < n and total + lengths[b] <= max_subwords:
            total += lengths[b]
            b += 1
        b = max(b, a + 1)
        spans.append((a, b))
        if b >= n:
            break
        nxt, shared = b, 0
        while nxt - 1 > a and shared + lengths[nxt - 1] <= overlap:
            nxt -= 1
            shared += lengths[nxt]
        a = nxt
    windows = []
    own_start = 0
    for i, (s, e) in enumerate(spans):
        own_end = n if i + 1 == len(spans) else (spans[i + 1][0] + e) // 2
        own_end = max(own_end, own_start)
        windows.append(Window(s, e, own_start, own_end))
        own_start = own_end
    return windows


def window_rows(
    pieces: list[list[list[int]]], cls_id: int, sep_id: int, window: int, overlap: int
) -> tuple[list[list[int]], list[tuple[int, int, int, int]]]:
    """The windows of the paragraphs' subwords (``pieces[b][word]``) as rows of ids with
    [CLS] and [SEP], and for every word its (paragraph, word, row, position in row): the
    place in the window that supplies its vector."""
    rows: list[list[int]] = []
    owners: list[tuple[int, int, int, int]] = []
    for b, para in enumerate(pieces):
        lengths = [len(p) for p in para]
        if sum(lengths) <= window - 2:  # one window, every word its own (most paragraphs): no per-word loop
            owners.extend(zip(repeat(b), range(len(para)), repeat(len(rows)), accumulate(lengths, initial=1)))
            rows.append([cls_id, *chain.from_iterable(para), sep_id])
            continue
        for w in plan_windows(lengths, window - 2, overlap):
            ids = [cls_id]
            for j in range(w.start, w.end):
                if w.own_start <= j < w.own_end:
                    owners.append((b, j, len(rows), len(ids)))
                ids.extend(para[j])
            ids.append(sep_id)
            rows.append(ids)
    return rows, owners


# Rows are padded to a multiple of this many subwords whatever else is in their batch: in
# bfloat16 the attention's sums over a row depend on its padded length, so padding to the
# batch's longest row made a paragraph's tags depend on the other paragraphs tagged with it
# (8 of 72,511 tags of the official test file changed with the batch size).
BUCKET = 16


def bucket_length(length: int, window: int) -> int:
    """The padded length of a window row of ``length`` subwords: a function of its own length only."""
    return max(length, min(-(-length // BUCKET) * BUCKET, window))


def pad_rows(rows: list[list[int]], pad_id: int,
             length: int | None = None) -> tuple["torch.Tensor", "torch.Tensor"]:
    """(input_ids, attention_mask) of ``rows`` padded to ``length`` (default: the longest)."""
    import torch

    length = length or max(len(r) for r in rows)
    input_ids = torch.tensor([r + [pad_id] * (length - len(r)) for r in rows], dtype=torch.long)
    attention = torch.tensor([[1] * len(r) + [0] * (length - len(r)) for r in rows], dtype=torch.long)
    return input_ids, attention
