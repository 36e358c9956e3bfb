"""Raw paragraphs -> single contiguous segments of subwords, in a reproducible, resumable order.

The raw folder holds ``*.txt`` files with one paragraph per line. A segment is a run of
whole words from one paragraph, at most ``seq_len - 2`` subwords, wrapped in ``[CLS] ...
[SEP]``: one contiguous piece of text and no next-sentence pairs (SpanBERT section 3.3).
Segments never cross a line: SpanBERT stops a segment at a document boundary, and the
lines of an abstract file are unrelated papers.

Words are the task's spaCy tokens (:func:`sciner.tokenize.tokenize_paragraphs`), so span
masking works on the same word units as the NER data.

Order: each epoch visits the paragraphs in a permutation drawn from ``(seed, epoch)``. The
stream is cut into pools of about ``pool_batches`` batches; a pool's segments are sorted by
length and batched (little padding), and its batches shuffled. A :class:`StreamPosition`
(epoch, first paragraph of the pool, batches of the pool used) is all a checkpoint needs to
resume the stream exactly.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from sciner.data.raw import ParagraphIndex, raw_files  # noqa: F401  (re-exported for the pretraining loop)
from sciner.errors import ConfigError


@dataclass(frozen=True)
class Segment:
    """One training sequence: subword ids with [CLS]/[SEP], and each subword's word index (None for specials)."""

    input_ids: list[int]
    word_ids: list[int | None]

    @property
    def n_words(self) -> int:
        return len({w for w in self.word_ids if w is not None})


@dataclass(frozen=True)
class StreamPosition:
    """Where the segment stream is: resume from here to get exactly the batches that follow."""

    epoch: int = 0
    paragraph: int = 0
    batch: int = 0


def split_into_segments(
    input_ids: Sequence[int],
    word_ids: Sequence[int | None],
    max_subwords: int,
    cls_id: int,
    sep_id: int,
) -> list[Segment]:
    """Cut one paragraph's subwords into segments of whole words, at most ``max_subwords`` each.

    A single word longer than ``max_subwords`` (a URL, a formula) keeps only its first subwords.
    """
    segments: list[Segment] = []
    ids: list[int] = []
    wids: list[int] = []
    n_words = 0
    for start, end in _word_spans(word_ids):
        end = min(end, start + max_subwords)
        if len(ids) + (end - start) > max_subwords:
            segments.append(_wrap(ids, wids, cls_id, sep_id))
            ids, wids, n_words = [], [], 0
        ids.extend(input_ids[start:end])
        wids.extend([n_words] * (end - start))
        n_words += 1
    if ids:
        segments.append(_wrap(ids, wids, cls_id, sep_id))
    return segments


def _word_spans(word_ids: Sequence[int | None]) -> Iterator[tuple[int, int]]:
    start = 0
    for pos in range(1, len(word_ids) + 1):
        if pos == len(word_ids) or word_ids[pos] != word_ids[start]:
            if word_ids[start] is not None:
                yield start, pos
            start = pos


def _wrap(ids: list[int], wids: list[int], cls_id: int, sep_id: int) -> Segment:
    return Segment([cls_id, *ids, sep_id], [None, *wids, None])


class SegmentStream:
    """Batches of segments from a raw folder, in the reproducible order described in the module doc."""

    def __init__(
        self,
        index: Any,  # a ParagraphIndex (raw text, tokenized as read) or a pretrain.cache.CachedParagraphs
        tokenizer: Any,
        seq_len: int,
        batch_size: int,
        seed: int,
        min_segment_words: int = 8,
        pool_batches: int = 32,
    ) -> None:
        self.index = index
        self.tokenizer = tokenizer
        self.max_subwords = seq_len - 2
        self.batch_size = batch_size
        self.seed = seed
        self.min_segment_words = min_segment_words
        self.pool_size = pool_batches * batch_size

    def batches(self, start: StreamPosition = StreamPosition()) -> Iterator[tuple[list[Segment], StreamPosition]]:
        """Yield ``(batch, position after it)`` forever, starting at ``start``."""
        position = start
        while True:
            order = np.random.default_rng([self.seed, position.epoch]).permutation(len(self.index))
            paragraph, skip = position.paragraph, position.batch
            yielded = False
            while paragraph < len(order):
                pool, next_paragraph = self._read_pool(order, paragraph)
                batches = self._pool_batches(pool, position.epoch, paragraph)
                for b in range(skip, len(batches)):
                    yielded = True
                    if b + 1 < len(batches):
                        after = StreamPosition(position.epoch, paragraph, b + 1)
                    else:
                        after = StreamPosition(position.epoch, next_paragraph, 0)
                    yield batches[b], after
                paragraph, skip = next_paragraph, 0
            if not yielded and position.paragraph == 0:
                raise ConfigError(
                    f"the raw corpus gives fewer than batch_size={self.batch_size} segments of "
                    f">= {self.min_segment_words} words"
                )
            position = StreamPosition(position.epoch + 1, 0, 0)

    def _read_pool(self, order: np.ndarray, first: int) -> tuple[list[Segment], int]:
        """Segments of paragraphs ``order[first:]`` until the pool is full; also the next paragraph."""
        from sciner.pretrain.cache import CachedParagraphs

        if isinstance(self.index, CachedParagraphs):
            return self._read_cached_pool(order, first)
        from sciner.tokenize import tokenize_paragraphs

        pool: list[Segment] = []
        paragraph = first
        chunk = 64  # paragraphs tokenized together: spaCy and the HF tokenizer are faster in batches
        while len(pool) < self.pool_size and paragraph < len(order):
            ids = order[paragraph : paragraph + chunk]
            texts = [self.index.read(int(i)) for i in ids]
            for words in tokenize_paragraphs(texts):
                pool.extend(self._segments(words))
                paragraph += 1
                if len(pool) >= self.pool_size:
                    break
        return pool, paragraph

    def _read_cached_pool(self, order: np.ndarray, first: int) -> tuple[list[Segment], int]:
        """:meth:`_read_pool` from a cache: the same segments, without tokenizing."""
        pool: list[Segment] = []
        paragraph = first
        while len(pool) < self.pool_size and paragraph < len(order):
            ids, word_ids = self.index.paragraph(int(order[paragraph]))
            if word_ids and word_ids[-1] + 1 >= self.min_segment_words:
                pool.extend(self._split(ids, word_ids))
            paragraph += 1
        return pool, paragraph

    def _segments(self, words: list[str]) -> list[Segment]:
        if len(words) < self.min_segment_words:
            return []
        enc = self.tokenizer(words, is_split_into_words=True, add_special_tokens=False, verbose=False)
        return self._split(enc["input_ids"], enc.word_ids())

    def _split(self, ids: Sequence[int], word_ids: Sequence[int | None]) -> list[Segment]:
        segments = split_into_segments(ids, word_ids, self.max_subwords,
                                       self.tokenizer.cls_token_id, self.tokenizer.sep_token_id)
        return [s for s in segments if s.n_words >= self.min_segment_words]

    def _pool_batches(self, pool: list[Segment], epoch: int, paragraph: int) -> list[list[Segment]]:
        """Batches of similar lengths in random order; the pool's last incomplete batch is dropped."""
        rng = np.random.default_rng([self.seed, epoch, paragraph])
        chosen = [pool[i] for i in rng.permutation(len(pool))]
        chosen = chosen[: len(chosen) - len(chosen) % self.batch_size]
        chosen.sort(key=lambda s: len(s.input_ids))
        batches = [chosen[i : i + self.batch_size] for i in range(0, len(chosen), self.batch_size)]
        return [batches[i] for i in rng.permutation(len(batches))]
