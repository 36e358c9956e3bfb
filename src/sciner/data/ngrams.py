"""Span Fine-tuning's n-gram dictionary (Bao et al., 2021): frequent n-grams and greedy segmentation.

The dictionary holds every n-gram with ``2 <= n <= 5`` that occurs *more than* ``min_count``
times in a corpus (the paper: more than ten times in wikitext-103). Single tokens are not
stored: an unmatched token is a span of its own anyway.

Matching is on lower-cased tokens: the encoders sciner uses are uncased, and "Machine
Translation" and "machine translation" are the same phrase for segmentation.

Counting works on the task's spaCy tokens, within sentences: a sentence ends after a ``.``,
``!`` or ``?`` token and at the end of a paragraph, so no stored n-gram runs on from one
sentence into the next, and segmenting a whole paragraph gives the same spans as segmenting
it sentence by sentence. Counting is apriori-style: an n-gram is counted only where its
(n-1)-gram prefix and suffix are both frequent, with numpy over integer ids, so memory stays
bounded on the 30M-token raw corpus.

File format (``.txt.gz``): ``# comment`` header lines, then one ``n-gram<TAB>count`` per line,
sorted; tokens of an n-gram are joined by single spaces. Loading with a higher ``min_count``
gives the smaller dictionary of that threshold.
"""

from __future__ import annotations

import array
import gzip
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from sciner.outputs import atomic_target

MAX_N = 5
SENTENCE_END = frozenset({".", "!", "?"})
SHIPPED_DICTIONARY = Path(__file__).resolve().parents[1] / "resources" / "ngrams.txt.gz"


@dataclass
class NgramDictionary:
    """Frequent n-grams (lower-cased, space-joined) with their corpus counts."""

    counts: dict[str, int]
    min_count: int
    max_n: int = MAX_N

    def __contains__(self, ngram: str) -> bool:
        return ngram in self.counts

    def __len__(self) -> int:
        return len(self.counts)

    def restrict(self, min_count: int) -> "NgramDictionary":
        """The smaller dictionary of n-grams occurring more than ``min_count`` times."""
        if min_count < self.min_count:
            raise ValueError(f"counted with min_count={self.min_count}: cannot lower it to {min_count}")
        return NgramDictionary({g: c for g, c in self.counts.items() if c > min_count}, min_count, self.max_n)


def split_sentences(tokens: Sequence[str]) -> list[list[str]]:
    """Cut a paragraph's tokens after each ``.``, ``!`` or ``?`` token.

    >>> split_sentences(["We", "win", ".", "It", "works", "!", "Yes"])
    [['We', 'win', '.'], ['It', 'works', '!'], ['Yes']]
    """
    sentences: list[list[str]] = []
    current: list[str] = []
    for token in tokens:
        current.append(token)
        if token in SENTENCE_END:
            sentences.append(current)
            current = []
    if current:
        sentences.append(current)
    return sentences


def count_ngrams(sentences: Iterable[Sequence[str]], min_count: int, max_n: int = MAX_N) -> NgramDictionary:
    """All n-grams (2 <= n <= max_n) of lower-cased tokens occurring more than ``min_count`` times.

    Apriori: level n counts only n-grams whose (n-1)-prefix and (n-1)-suffix passed level n-1,
    which gives exactly the frequent n-grams (a frequent n-gram's sub-n-grams are at least as
    frequent) while keeping the candidate sets small.
    """
    import numpy as np  # here, not at the top: `sciner ngrams --help` should not pay for it

    vocab: dict[str, int] = {}
    flat = array.array("i")
    for sentence in sentences:
        flat.extend(vocab.setdefault(token.lower(), len(vocab)) for token in sentence)
        flat.append(-1)  # sentence separator: no n-gram may contain it
    tokens = np.frombuffer(flat, dtype=np.int32).astype(np.int64)
    words = np.array(list(vocab), dtype=object)
    n_vocab = max(1, len(vocab))

    # Level 1: ids of frequent tokens at each position (-1 elsewhere).
    unigram_counts = np.bincount(tokens[tokens >= 0], minlength=n_vocab)
    ids = np.where((tokens >= 0) & (unigram_counts[np.maximum(tokens, 0)] > min_count), tokens, -1)
    strings = words  # strings[id] of the frequent (n-1)-grams
    counts: dict[str, int] = {}
    for n in range(2, max_n + 1):
        prefix, suffix = ids[:-1], ids[1:]
        last = tokens[n - 1 :]
        valid = (prefix[: len(last)] >= 0) & (suffix[: len(last)] >= 0)
        keys = prefix[: len(last)] * n_vocab + last
        unique, freq = np.unique(keys[valid], return_counts=True)
        frequent = unique[freq > min_count]
        if len(frequent) == 0:
            break
        level_strings = np.array(
            [f"{strings[k // n_vocab]} {words[k % n_vocab]}" for k in frequent.tolist()], dtype=object
        )
        counts.update(zip(level_strings.tolist(), freq[freq > min_count].tolist()))
        # Ids of this level's frequent n-grams at each position, for the next level.
        where = np.searchsorted(frequent, keys)
        where = np.minimum(where, len(frequent) - 1)
        found = valid & (frequent[where] == keys)
        ids = np.where(found, where, -1)
        strings = level_strings
    return NgramDictionary(counts, min_count, max_n)


def count_ngrams_in_texts(texts: Iterable[str], min_count: int, max_n: int = MAX_N) -> NgramDictionary:
    """Tokenize raw paragraphs with the task's spaCy tokenizer and count their n-grams."""
    from sciner.tokenize import tokenize_paragraphs

    def sentences() -> Iterable[list[str]]:
        batch: list[str] = []
        for text in texts:
            batch.append(text)
            if len(batch) == 2000:
                yield from _split_all(tokenize_paragraphs(batch, batch_size=500))
                batch = []
        yield from _split_all(tokenize_paragraphs(batch, batch_size=500))

    return count_ngrams(sentences(), min_count, max_n)


def _split_all(paragraphs: list[list[str]]) -> Iterable[list[str]]:
    for tokens in paragraphs:
        yield from split_sentences(tokens)


def raw_paragraphs(data: str | Path | None, max_lines: int | None = None, seed: int = 13) -> tuple[Iterator[str], str]:
    """Paragraphs of a raw folder (``*.txt``) or file, optionally a seeded random sample of ``max_lines``.

    Also returns a one-line description of the source, for the dictionary's header.
    """
    import numpy as np  # here, not at the top: `sciner ngrams --help` should not pay for it

    from sciner.config import data_root
    from sciner.data.raw import ParagraphIndex, raw_files

    path = Path(data) if data is not None else data_root() / "raw"
    files = [path] if path.is_file() else raw_files(path)
    index = ParagraphIndex(files)
    chosen = np.arange(len(index))
    if max_lines is not None and max_lines < len(index):
        chosen = np.sort(np.random.default_rng(seed).choice(len(index), size=max_lines, replace=False))
    source = f"{len(chosen)} of {len(index)} paragraphs of {path.name or path}"

    def texts() -> Iterator[str]:
        for i in chosen:
            yield index.read(int(i))
        index.close()

    return texts(), source


def read_stats_sentences(path: str | Path) -> list[list[str]]:
    """Sentences of a tokenized file (paragraph lines, CoNLL or JSONL), for :func:`dictionary_stats`."""
    from sciner.formats.registry import read_file

    return [s for paragraph in read_file(path) for s in split_sentences(paragraph.tokens)]


def segment(tokens: Sequence[str], dictionary, max_n: int = MAX_N) -> list[tuple[int, int]]:
    """Greedy longest-match segmentation from the start: ``(start, end_exclusive)`` spans covering all tokens.

    At each position the longest n-gram (n <= max_n) in ``dictionary`` (anything supporting
    ``in`` on lower-cased space-joined n-grams) becomes one span; an unmatched token is a
    span of its own.

    >>> segment(["We", "use", "machine", "translation", "data"], {"machine translation"})
    [(0, 1), (1, 2), (2, 4), (4, 5)]
    """
    lowered = [t.lower() for t in tokens]
    spans: list[tuple[int, int]] = []
    i = 0
    while i < len(lowered):
        end = i + 1
        for n in range(min(max_n, len(lowered) - i), 1, -1):
            if " ".join(lowered[i : i + n]) in dictionary:
                end = i + n
                break
        spans.append((i, end))
        i = end
    return spans


def save_dictionary(dictionary: NgramDictionary, path: str | Path, comment: str = "") -> None:
    """Write the dictionary as sorted ``n-gram<TAB>count`` lines, gzip-compressed (deterministic bytes)."""
    lines = [f"# sciner n-gram dictionary: n <= {dictionary.max_n}, lower-cased, count > {dictionary.min_count}"]
    lines += [f"# {line}" for line in comment.splitlines()]
    lines += [f"{g}\t{c}" for g, c in sorted(dictionary.counts.items())]
    data = ("\n".join(lines) + "\n").encode("utf-8")
    with atomic_target(path) as tmp, open(tmp, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0,
                                                                           filename="") as out:
        out.write(data)


def load_dictionary(path: str | Path | None = None, min_count: int | None = None) -> NgramDictionary:
    """Read a dictionary file (default: the one shipped with sciner), optionally at a higher threshold.

    A file stored at or above ``min_count`` already holds only n-grams counted more often, so it
    is used as it is (no copy of its entries).
    """
    dictionary = _read(str(path or SHIPPED_DICTIONARY))
    return dictionary if min_count is None or min_count <= dictionary.min_count else dictionary.restrict(min_count)


def _read(path: str) -> NgramDictionary:
    from sciner.errors import InputFormatError, InputNotFoundError

    if not Path(path).is_file():
        raise InputNotFoundError(f"{path}: n-gram dictionary not found")
    counts: dict[str, int] = {}
    stored_min, max_n = 0, MAX_N
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            ngram, tab, count = line.rstrip("\n").rpartition("\t")
            if not tab and line.startswith("#"):  # a comment; n-grams such as "# of parameters" have a tab
                if "count >" in line:
                    stored_min = int(line.rsplit("count >", 1)[1].split()[0])
                    max_n = int(line.split("n <=", 1)[1].split(",")[0])
                continue
            if not tab or not count.isdigit():
                raise InputFormatError(f"{path}:{number}: expected 'n-gram<TAB>count'")
            counts[ngram] = int(count)
    return NgramDictionary(counts, stored_min, max_n)


@dataclass(frozen=True)
class SegmentationStats:
    """One point of the paper's Figure 3: a dictionary size and the segmentation it gives."""

    min_count: int
    size: int
    spans_per_sentence: float
    tokens_per_sentence: float
    tokens_in_multiword_spans: float


def dictionary_stats(
    sentences: Sequence[Sequence[str]], dictionary: NgramDictionary, thresholds: Iterable[int]
) -> list[SegmentationStats]:
    """Dictionary size against average spans per sentence, for each threshold (Figure 3 of the paper).

    Thresholds below the dictionary's own ``min_count`` are skipped (those n-grams were not kept).
    """
    n_tokens = sum(len(s) for s in sentences)
    rows = []
    for threshold in sorted(set(thresholds)):
        if threshold < dictionary.min_count:
            continue
        restricted = dictionary.restrict(threshold)
        n_spans = in_multi = 0
        for sentence in sentences:
            spans = segment(sentence, restricted, dictionary.max_n)
            n_spans += len(spans)
            in_multi += sum(end - start for start, end in spans if end - start > 1)
        rows.append(
            SegmentationStats(
                min_count=threshold,
                size=len(restricted),
                spans_per_sentence=n_spans / max(1, len(sentences)),
                tokens_per_sentence=n_tokens / max(1, len(sentences)),
                tokens_in_multiword_spans=in_multi / max(1, n_tokens),
            )
        )
    return rows


# The thresholds ``sciner ngrams --stats`` tabulates by default.
STATS_THRESHOLDS = (2, 5, 10, 20, 50, 100, 200)


@dataclass
class DictionaryBuild:
    """What :func:`build_dictionary` wrote (the n-grams above its ``min_count``) and measured."""

    dictionary: NgramDictionary
    source: str
    # With ``stats_on``: its sentences, and one row per threshold.
    sentences: int = 0
    stats: list[SegmentationStats] = field(default_factory=list)


def build_dictionary(output: str | Path, *, data: str | Path | None = None, min_count: int = 10,
                     max_lines: int | None = None, seed: int = 13, stats_on: str | Path | None = None,
                     thresholds: Iterable[int] = STATS_THRESHOLDS) -> DictionaryBuild:
    """Count the n-grams of the raw text at ``data`` (a folder of ``*.txt`` or one file; default
    ``$SCINER_DATA/raw``; a seeded sample of ``max_lines`` paragraphs when given) and write those
    occurring more than ``min_count`` times to ``output`` (``sciner ngrams``). With
    ``stats_on`` (a tokenized file), also measure the segmentation of its sentences at each of
    ``thresholds``: the counts are then made at the lowest of them and ``min_count``."""
    from sciner.errors import ConfigError

    if min_count < 0 or (max_lines is not None and max_lines < 1):
        raise ConfigError("--min-count must be >= 0 and --max-lines >= 1")
    levels = list(thresholds) if stats_on else []
    texts, source = raw_paragraphs(data, max_lines, seed)
    counted = count_ngrams_in_texts(texts, min(levels + [min_count]))
    kept = counted.restrict(min_count)
    save_dictionary(kept, output, comment=f"source: {source}")
    done = DictionaryBuild(kept, source)
    if stats_on:
        sentences = read_stats_sentences(stats_on)
        done.sentences, done.stats = len(sentences), dictionary_stats(sentences, counted, levels)
    return done
