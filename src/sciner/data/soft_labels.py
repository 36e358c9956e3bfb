"""Soft labels on disk: shards of tokenized paragraphs with their teachers' top-k tag probabilities.

A soft-label folder holds ``manifest.json`` (teachers, tokenization, k, shard size, counts)
and ``shard-00000.npz``, ``shard-00001.npz``, ... Each shard is written atomically, so a
shard that exists is complete: a resumed run skips it. Per token a shard keeps the ``k`` most
probable tag ids (uint8) and their probabilities (fp16): 12 bytes a token for k = 4 instead of
60 for the full fp32 distribution. Read back, the mass the top k leave is spread evenly over
the other tags.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from sciner.errors import InputNotFoundError
from sciner.labels import BIO_TAGS
from sciner.data.resumable import refuse_other_settings
from sciner.outputs import atomic_target, write_atomic

MANIFEST = "manifest.json"
# Manifest fields that define the labels: a run may only continue a folder that agrees on them.
IDENTITY = ("teachers", "source", "tokenization", "top_k", "shard_paragraphs", "seed")


@dataclass
class SoftParagraph:
    """A paragraph's tokens and, per token, its top-k tag ids and probabilities."""

    tokens: list[str]
    top_ids: np.ndarray  # (n, k) uint8
    top_probs: np.ndarray  # (n, k) float16

    def dense(self) -> np.ndarray:
        """(n, T) float32 tag distributions: the top k as stored, the rest spread evenly."""
        n, k = self.top_ids.shape
        kept = self.top_probs.astype(np.float32)
        rest = np.clip(1.0 - kept.sum(axis=1, keepdims=True), 0.0, None) / max(1, len(BIO_TAGS) - k)
        out = np.repeat(rest, len(BIO_TAGS), axis=1)
        np.put_along_axis(out, self.top_ids.astype(np.int64), kept, axis=1)
        return out


def shard_path(folder: Path, number: int) -> Path:
    return folder / f"shard-{number:05d}.npz"


def top_k(probs: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The ``k`` most probable tags of each row of (n, T) ``probs``: uint8 ids and fp16 probabilities,
    most probable first."""
    ids = np.argsort(-probs, axis=1, kind="stable")[:, :k]
    return ids.astype(np.uint8), np.take_along_axis(probs, ids, axis=1).astype(np.float16)


def write_shard(path: Path, paragraphs: Sequence[Sequence[str]], probs: Sequence[np.ndarray], k: int,
                origin: Sequence[int]) -> None:
    """Write one shard: ``paragraphs`` (tokens), their (n, T) tag ``probs``, and each one's
    ``origin`` (its raw paragraph, or its line in a pre-tokenized file)."""
    ids, top = top_k(np.concatenate(probs) if probs else np.zeros((0, len(BIO_TAGS))), k)
    # Tokens never hold a line break (spaCy drops whitespace tokens), so one joins them.
    text = "\n".join(t for p in paragraphs for t in p).encode("utf-8")
    with atomic_target(path) as tmp, open(tmp, "wb") as handle:
        np.savez_compressed(handle, tokens=np.frombuffer(text, dtype=np.uint8), lengths=np.array([len(p) for p in paragraphs], dtype=np.int32),
                 top_ids=ids, top_probs=top, origin=np.asarray(origin, dtype=np.int64))


def read_shard(path: Path) -> list[SoftParagraph]:
    """The paragraphs of a shard written by :func:`write_shard`."""
    with np.load(path) as data:
        lengths = data["lengths"]
        words = bytes(data["tokens"]).decode("utf-8").split("\n") if int(lengths.sum()) else []
        ids, probs = data["top_ids"], data["top_probs"]
    out, at = [], 0
    for n in lengths.tolist():
        out.append(SoftParagraph(words[at : at + n], ids[at : at + n], probs[at : at + n]))
        at += n
    return out


def shard_size(path: Path) -> int:
    """Paragraphs in a shard, without reading its tokens."""
    with np.load(path) as data:
        return len(data["lengths"])


def open_folder(folder: Path, manifest: dict[str, Any]) -> None:
    """Start or continue labelling into ``folder``: refused when the folder was labelled with
    other teachers, source or settings (its shards would mix two labellings)."""
    refuse_other_settings(folder / MANIFEST, manifest, IDENTITY, "soft labels made with", "output")
    write_manifest(folder, manifest)


def write_manifest(folder: Path, manifest: dict[str, Any]) -> None:
    write_atomic(folder / MANIFEST, json.dumps(manifest, indent=2) + "\n")


def read_manifest(folder: Path) -> dict[str, Any]:
    path = Path(folder) / MANIFEST
    if not path.is_file():
        raise InputNotFoundError(f"{folder}: not a soft-label folder ({MANIFEST} missing); "
                                 "make one with `sciner distill label`")
    return json.loads(path.read_text(encoding="utf-8"))


def load_soft_labels(folder: str | Path, limit: int = 0) -> list[SoftParagraph]:
    """The soft-labelled paragraphs of ``folder``, shard by shard (at most ``limit``; 0 = all)."""
    folder = Path(folder)
    read_manifest(folder)
    out: list[SoftParagraph] = []
    for path in sorted(folder.glob("shard-*.npz")):
        out.extend(p for p in read_shard(path) if p.tokens)
        if limit and len(out) >= limit:
            return out[:limit]
    if not out:
        raise InputNotFoundError(f"{folder}: no soft-labelled paragraphs")
    return out
