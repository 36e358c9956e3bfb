"""``sciner distill label``: raw paragraphs labelled with the teachers' averaged tag distributions.

Raw text is tokenized with the task's spaCy tokenizer, split at sentence ends and packed back
to at most ``data.max_block_tokens`` tokens with the rules of the training data
(:mod:`sciner.data.sentences`), so the student sees soft-labelled paragraphs shaped like its
gold ones. A machine without spaCy (the GPU one) labels a pre-tokenized file instead, made
here by ``sciner distill paragraphs``: the same paragraphs, in the same order.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from sciner.data.sentences import hard_split, pack_sentences, split_sentences
from sciner.data.soft_labels import open_folder, shard_path, shard_size, write_manifest, write_shard
from sciner.document import Paragraph
from sciner.labels import BIO_TAGS

TOKENIZATION = "spaCy blank('en') (sciner.tokenize), split at sentence ends, packed to <= {} tokens"


def split_like_training(tokens: list[str], max_tokens: int) -> list[list[str]]:
    """One raw paragraph's tokens cut into sentences and packed back like the training data."""
    if not tokens:
        return []
    sentences = [piece for s in split_sentences(Paragraph(tokens, ["O"] * len(tokens)))
                 for piece in hard_split(s, max_tokens)]
    return [p.tokens for p in pack_sentences(sentences, max_tokens)]


class Source(Protocol):
    """Where paragraphs to label come from, a shard at a time."""

    description: str
    tokenization: str
    per_shard: int

    def __len__(self) -> int: ...  # shards

    def shard(self, number: int) -> tuple[list[list[str]], list[int]]:
        """Paragraphs (tokens) of shard ``number`` and each one's origin."""
        ...


class RawSource:
    """Raw paragraphs (a folder of ``*.txt``) in a seeded random order, ``per_shard`` raw
    paragraphs a shard; tokenized only when their shard is labelled."""

    def __init__(self, folder: Path, per_shard: int, seed: int, max_tokens: int) -> None:
        from sciner.data.raw import ParagraphIndex, raw_files

        self.index = ParagraphIndex(raw_files(folder))
        self.order = np.random.default_rng(seed).permutation(len(self.index))
        self.per_shard, self.max_tokens = per_shard, max_tokens
        self.description = f"raw:{folder}"
        self.tokenization = TOKENIZATION.format(max_tokens)

    def __len__(self) -> int:
        return -(-len(self.order) // self.per_shard)

    def shard(self, number: int) -> tuple[list[list[str]], list[int]]:
        from sciner.tokenize import tokenize_paragraphs

        ids = self.order[number * self.per_shard : (number + 1) * self.per_shard].tolist()
        paragraphs, origin = [], []
        for i, tokens in zip(ids, tokenize_paragraphs(self.index.read(i) for i in ids)):
            for piece in split_like_training(tokens, self.max_tokens):
                paragraphs.append(piece)
                origin.append(i)
        return paragraphs, origin


class FileSource:
    """The paragraphs of a tokenized file (any format sciner reads), as they are, ``per_shard`` a shard."""

    def __init__(self, path: Path, per_shard: int, tokenization: str = "") -> None:
        from sciner.formats.registry import read_file

        self.paragraphs = [p.tokens for p in read_file(path) if p.tokens]
        self.per_shard = per_shard
        self.description = f"file:{path.name}"
        self.tokenization = tokenization or f"as in {path.name}"

    def __len__(self) -> int:
        return -(-len(self.paragraphs) // self.per_shard)

    def shard(self, number: int) -> tuple[list[list[str]], list[int]]:
        start = number * self.per_shard
        part = self.paragraphs[start : start + self.per_shard]
        return part, list(range(start, start + len(part)))


def raw_source(cfg: Any, raw: Path | None = None) -> RawSource:
    """The raw paragraphs ``cfg`` labels: ``raw`` or the data folder's ``raw``, in ``train.seed``'s
    order, ``distill.shard_paragraphs`` a shard, packed to ``data.max_block_tokens``."""
    folder = raw if raw is not None else cfg.data.root() / "raw"
    return RawSource(folder, cfg.distill.shard_paragraphs, cfg.train.seed, cfg.data.max_block_tokens)


def shards_until(source: Source, paragraphs: int, written: Path | None = None
                 ) -> Iterator[tuple[int, list[list[str]] | None, list[int], int]]:
    """``(number, paragraphs, origins, size)`` of the source's shards until at least
    ``paragraphs`` paragraphs have come (the last shard whole). A shard already in the folder
    ``written`` is not read again: it comes as ``(number, None, [], its size)``."""
    total = 0
    for number in range(len(source)):
        if total >= paragraphs:
            return
        path = shard_path(written, number) if written is not None else None
        if path is not None and path.exists():
            size = shard_size(path)
            total += size
            yield number, None, [], size
            continue
        part, origin = source.shard(number)
        total += len(part)
        yield number, part, origin, len(part)


@dataclass
class LabelResult:
    paragraphs: int
    tokens_labelled: int
    shards_written: int
    shards_skipped: int
    seconds: float


def teacher_probs(taggers: Sequence[Any], paragraphs: list[list[str]]) -> list[np.ndarray]:
    """Each paragraph's (n, T) tag distribution averaged over the teachers (probabilities, not log)."""
    total: list[np.ndarray] = []
    for tagger in taggers:
        probs = [np.exp(log_probs) for log_probs in tagger.log_probs(paragraphs)]
        total = [a + b for a, b in zip(total, probs)] if total else probs
    return [t / len(taggers) for t in total]


def label(teachers: Sequence[Path], source: Source, output: Path, *, paragraphs: int, top_k: int, seed: int,
          device: str = "auto", progress: Callable[[str], None] | None = None) -> LabelResult:
    """Label ``paragraphs`` (at least) of ``source`` with the ``teachers``' averaged distributions
    into ``output``, shard by shard; shards already there are kept (a resumed run)."""
    from sciner.inference.tagger import Tagger
    from sciner.model.device import hardware, pick_device

    started = time.monotonic()
    manifest = {"teachers": [str(t) for t in teachers], "source": source.description,
                "tokenization": source.tokenization, "top_k": top_k,
                "shard_paragraphs": source.per_shard, "seed": seed, "tags": list(BIO_TAGS)}
    open_folder(output, manifest)
    taggers = [Tagger.load(t, precision="auto", device=device) for t in teachers]
    count = tokens = written = skipped = 0
    for number, part, origin, size in shards_until(source, paragraphs, written=output):
        count += size
        if part is None:
            skipped += 1
            continue
        write_shard(shard_path(output, number), part, teacher_probs(taggers, part), top_k, origin)
        written += 1
        tokens += sum(len(p) for p in part)
        if progress is not None:
            progress(f"shard {number}: {len(part)} paragraphs ({count} in all)")
    seconds = time.monotonic() - started
    write_manifest(output, {**manifest, "paragraphs": count, "shards": written + skipped,
                            "seconds_last_run": round(seconds, 1), "hardware": hardware(pick_device(device))})
    return LabelResult(count, tokens, written, skipped, seconds)
