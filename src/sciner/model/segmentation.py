"""Segmentations of a paragraph into spans of words, for the span fine-tuning head.

- ``dictionary``: Span Fine-tuning's greedy longest match against an n-gram dictionary;
- ``random``: random segment lengths (1-3 words), the paper's control;
- ``none``: every word its own segment (a CNN without segmentation).
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Callable
from functools import lru_cache
from typing import Protocol

from sciner.errors import ConfigError

class SegmentationSettings(Protocol):
    """The span fine-tuning head's settings that choose a segmentation."""

    segmentation: str
    ngram_dictionary: str
    ngram_min_count: int


Segmenter = Callable[[list[str]], list[tuple[int, int]]]

def singletons(tokens: list[str]) -> list[tuple[int, int]]:
    return [(i, i + 1) for i in range(len(tokens))]


def random_segments(tokens: list[str]) -> list[tuple[int, int]]:
    # Seeded by the text, so the same paragraph is always cut the same way (train and predict agree).
    rng = random.Random(zlib.crc32(" ".join(tokens).encode("utf-8")))
    out, i = [], 0
    while i < len(tokens):
        j = min(len(tokens), i + rng.choice((1, 1, 2, 3)))
        out.append((i, j))
        i = j
    return out


@lru_cache(maxsize=4)
def _dictionary(path: str | None, min_count: int):  # type: ignore[no-untyped-def]
    from sciner.data.ngrams import load_dictionary

    return load_dictionary(path, min_count=min_count)


def make_segmenter(settings: SegmentationSettings) -> Segmenter:
    """The segmenter that ``settings.segmentation`` names."""
    if settings.segmentation == "none":
        return singletons
    if settings.segmentation == "random":
        return random_segments
    if settings.segmentation == "dictionary":
        from sciner.data.ngrams import segment

        # "" = the dictionary shipped with sciner; a missing file raises a clear error.
        dictionary = _dictionary(settings.ngram_dictionary or None, settings.ngram_min_count)
        return lambda tokens: segment(tokens, dictionary)
    # The setting's allowed values are checked where the head declares it (config.py's SpanFinetuneSettings).
    raise ConfigError(f"model.heads.span_finetune.segmentation: unknown segmentation {settings.segmentation!r}")
