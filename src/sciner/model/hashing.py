"""The fast model's hashed word features, without torch: the strings each word is hashed by and
the hash-table rows they land in (:class:`~sciner.model.heads.cnn.CNNHead` looks the rows up;
the NumPy tagger (:mod:`sciner.inference.numpy_network`) does the same with no torch imported)."""

from __future__ import annotations

import zlib

# The hashed word features, in the order of their tables.
FEATURES = ("norm", "prefix", "suffix", "shape")
# Hashes per feature (their rows are summed): two make most collisions harmless (spaCy uses four).
SEEDS = (0x5C1, 0xE2)


def word_shape_string(word: str, limit: int = 4) -> str:
    """spaCy's shape string: Xx for letters by case, d for digits, other characters kept, runs
    of the same class cut after ``limit`` ("BERT-base" -> "XXXX-xxxx", "0.001" -> "d.ddd")."""
    out: list[str] = []
    last, run = "", 0
    for c in word:
        k = "X" if c.isupper() else "x" if c.isalpha() else "d" if c.isdigit() else c
        run = run + 1 if k == last else 1
        last = k
        if run <= limit:
            out.append(k)
    return "".join(out)


def word_features(word: str) -> tuple[str, str, str, str]:
    """The strings hashed for ``word``, in :data:`FEATURES` order."""
    norm = word.lower()
    return norm, norm[:3], norm[-3:], word_shape_string(word)


def hash_rows(word: str, rows: int) -> tuple[int, ...]:
    """The table rows of ``word``: for each feature in :data:`FEATURES` order (feature ``f`` in
    rows ``f * rows`` to ``(f + 1) * rows``), one row for each of :data:`SEEDS`."""
    return tuple(f * rows + zlib.crc32(text.encode("utf-8", "surrogatepass"), seed) % rows
                 for f, text in enumerate(word_features(word)) for seed in SEEDS)


# Words whose rows a tagger keeps at most (then it starts afresh): a long-running one stays bounded.
CACHE_WORDS = 1_000_000


def cached_rows(cache: dict[str, tuple[int, ...]], words: list[str], rows: int) -> list[tuple[int, ...]]:
    """:func:`hash_rows` of each of ``words``, remembered in ``cache`` (emptied when it holds
    :data:`CACHE_WORDS`)."""
    for word in set(words).difference(cache):
        if len(cache) >= CACHE_WORDS:
            cache.clear()
        cache[word] = hash_rows(word, rows)
    return [cache[w] for w in words]
