"""The raw corpus tokenized once: spaCy words, then the encoder's subwords, in compact parts.

Tokenizing all of raw/ takes spaCy most of an hour on a CPU, and a machine with a GPU may have
no spaCy at all; the cache is made once, here, and copied. A cache folder holds:

- ``cache.json``: the tokenizer it was made with (vocabulary size and hash), the raw files
  (names and sizes), and its parts;
- ``part-00000.npz``, ...: each ``per_part`` consecutive raw paragraphs (in the order of
  :class:`~sciner.data.raw.ParagraphIndex`) as ``ids`` (uint16 when the vocabulary fits, else
  uint32), ``starts`` (one bit per subword, set where a word begins, ``np.packbits``) and
  ``offsets`` (each paragraph's first subword, n + 1 values).

Parts are written atomically and a build skips the parts already there, so it resumes; a cache
holding only its first parts is a smaller corpus (what fits in a carry to another machine).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from sciner.errors import ConfigError, InputNotFoundError
from sciner.data.resumable import refuse_other_settings
from sciner.outputs import atomic_target, write_atomic

META = "cache.json"
TOKENIZATION = "spaCy blank('en') words (sciner.tokenize), then the encoder's subwords, no special tokens"


def vocab_hash(tokenizer: Any) -> str:
    """A short hash of the tokenizer's vocabulary: a cache only serves the tokenizer it was made with."""
    items = sorted(tokenizer.get_vocab().items(), key=lambda kv: kv[1])
    return hashlib.sha256("\n".join(f"{t}\t{i}" for t, i in items).encode("utf-8")).hexdigest()[:16]


def part_path(folder: Path, number: int) -> Path:
    return folder / f"part-{number:05d}.npz"


def encode_words(tokenizer: Any, paragraphs: list[list[str]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(ids, word-start flags, offsets)`` of tokenized paragraphs, as the cache stores them."""
    ids: list[int] = []
    starts: list[bool] = []
    offsets = [0]
    for words in paragraphs:
        if words:
            enc = tokenizer(words, is_split_into_words=True, add_special_tokens=False, verbose=False)
            word_ids = enc.word_ids()
            ids.extend(enc["input_ids"])
            starts.extend(k == 0 or word_ids[k] != word_ids[k - 1] for k in range(len(word_ids)))
        offsets.append(len(ids))
    dtype = np.uint16 if tokenizer.vocab_size <= np.iinfo(np.uint16).max + 1 else np.uint32
    return np.asarray(ids, dtype=dtype), np.asarray(starts, dtype=bool), np.asarray(offsets, dtype=np.int64)


def build_cache(raw_folder: Path, tokenizer: Any, folder: Path, per_part: int = 50_000,
                progress: Callable[[str], None] | None = None) -> Path:
    """Tokenize every paragraph of ``raw_folder`` into the cache ``folder`` (parts already there are kept)."""
    from sciner.data.raw import ParagraphIndex, raw_files
    from sciner.tokenize import tokenize_paragraphs

    files = raw_files(raw_folder)
    index = ParagraphIndex(files)
    meta = {"vocab_size": tokenizer.vocab_size, "vocab_hash": vocab_hash(tokenizer), "tokenization": TOKENIZATION,
            "raw_files": [[f.name, f.stat().st_size] for f in files], "per_part": per_part, "parts": []}
    refuse_other_settings(folder / META, meta, ("vocab_hash", "raw_files", "per_part"), "a cache of", "raw_cache")
    for number, start in enumerate(range(0, len(index), per_part)):
        path = part_path(folder, number)
        if not path.exists():
            texts = (index.read(i) for i in range(start, min(start + per_part, len(index))))
            ids, starts, offsets = encode_words(tokenizer, tokenize_paragraphs(texts))
            with atomic_target(path) as tmp, open(tmp, "wb") as handle:
                np.savez(handle, ids=ids, starts=np.packbits(starts), offsets=offsets)
            if progress is not None:
                progress(f"{path.name}: {len(offsets) - 1} paragraphs, {len(ids)} subwords")
        with np.load(path) as data:
            meta["parts"].append({"file": path.name, "paragraphs": len(data["offsets"]) - 1,
                                  "subwords": int(data["offsets"][-1])})
    index.close()
    write_atomic(folder / META, json.dumps(meta, indent=2) + "\n")
    return folder


class CachedParagraphs:
    """The paragraphs of a cache folder (the parts present), as subword ids and word indices."""

    def __init__(self, folder: str | Path, tokenizer: Any) -> None:
        folder = Path(folder)
        if not (folder / META).is_file():
            raise InputNotFoundError(f"{folder}: not a pretraining cache ({META} missing); "
                                     "make one with `sciner pretrain --cache-only`")
        meta = json.loads((folder / META).read_text(encoding="utf-8"))
        if meta["vocab_hash"] != vocab_hash(tokenizer):
            raise ConfigError(f"{folder}: the cache was made with another tokenizer than the encoder's")
        ids, starts, offsets, base = [], [], [], 0
        for part in meta["parts"]:
            path = folder / part["file"]
            if not path.exists():
                break  # a partial copy: the parts before the first missing one
            with np.load(path) as data:
                n = int(data["offsets"][-1])
                ids.append(data["ids"])
                starts.append(np.unpackbits(data["starts"], count=n).astype(bool))
                offsets.append(data["offsets"][:-1] + base)
                base += n
        if not ids:
            raise InputNotFoundError(f"{folder}: the cache holds no parts")
        self.ids = np.concatenate(ids)
        self.word_index = np.cumsum(np.concatenate(starts)) - 1  # global word number of each subword
        self.offsets = np.append(np.concatenate(offsets), base)

    def close(self) -> None:
        """Nothing to release (the parts are read whole): the same interface as ``ParagraphIndex``."""

    def __len__(self) -> int:
        return len(self.offsets) - 1

    def paragraph(self, i: int) -> tuple[list[int], list[int]]:
        """Subword ids of paragraph ``i`` and each one's word index within the paragraph."""
        a, b = int(self.offsets[i]), int(self.offsets[i + 1])
        words = self.word_index[a:b]
        return self.ids[a:b].tolist(), (words - words[0]).tolist() if b > a else []
