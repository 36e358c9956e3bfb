"""Soft labels on disk: shards of tokenized paragraphs with their teachers' top-k tag probabilities.

A soft-label folder holds ``manifest.json`` (teachers, tokenization, k, shard size, counts)
and ``shard-00000.npz``, ``shard-00001.npz``, ... Each shard is written atomically, so a
shard that exists is complete: a resumed run skips it. Per token a shard keeps the ``k`` most
probable tag ids (uint8) and their probabilities (fp16): 12 bytes a token for k = 4 instead of
60 for the full fp32 distribution. Read back, the mass the top k leave is spread evenly over
the other tags.

The *compact* form (:func:`write_compact`, ``*.labels.xz``) is one file to carry home from a
GPU machine: the manifest as a line of JSON, then, xz-compressed, the tokens and per token the
teachers' ``k`` most probable tags (a byte each) and their probabilities in 255 levels (a byte
each): about 1.9 bytes a token for k = 4 once compressed. Format 1 kept only the top tag with
its probability in 16 levels (a byte a token); a student trained on that lost 0.018 F1 against
the same labels in full (docs/fast.md), so format 2 keeps the folder's k. Both are read;
:func:`load_soft_labels` and ``sciner distill student --soft`` take a folder or either file.
"""

from __future__ import annotations

import io
import json
import lzma
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from sciner.errors import ConfigError, InputNotFoundError
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
        return _paragraphs(data["tokens"], data["lengths"], data["top_ids"], data["top_probs"])


def _paragraphs(tokens: np.ndarray, lengths: np.ndarray, ids: np.ndarray, probs: np.ndarray) -> list[SoftParagraph]:
    """Paragraphs back from their tokens (UTF-8, joined by line breaks), lengths and per-token labels."""
    words = bytes(tokens).decode("utf-8").split("\n") if int(lengths.sum()) else []
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
    """The manifest of a soft-label folder, or of a compact file."""
    if is_compact(folder):
        return _compact_manifest(Path(folder))
    path = Path(folder) / MANIFEST
    if not path.is_file():
        raise InputNotFoundError(f"{folder}: not a soft-label folder ({MANIFEST} missing) nor a compact "
                                 f"*{COMPACT_SUFFIX} file; make one with `sciner distill label`")
    return json.loads(path.read_text(encoding="utf-8"))


def load_soft_labels(folder: str | Path, limit: int = 0) -> list[SoftParagraph]:
    """The soft-labelled paragraphs of ``folder`` (or of a compact file), shard by shard (at
    most ``limit``; 0 = all)."""
    folder = Path(folder)
    if is_compact(folder):
        paragraphs = [p for p in _read_compact(folder) if p.tokens]
        if not paragraphs:
            raise InputNotFoundError(f"{folder}: no soft-labelled paragraphs")
        return paragraphs[:limit] if limit else paragraphs
    read_manifest(folder)
    out: list[SoftParagraph] = []
    for path in sorted(folder.glob("shard-*.npz")):
        out.extend(p for p in read_shard(path) if p.tokens)
        if limit and len(out) >= limit:
            return out[:limit]
    if not out:
        raise InputNotFoundError(f"{folder}: no soft-labelled paragraphs")
    return out


# --- the compact form: one file to carry home --------------------------------------------------

COMPACT_SUFFIX = ".labels.xz"
COMPACT_FORMAT = "sciner-compact-labels/2"
COMPACT_V1 = "sciner-compact-labels/1"  # still read: the top tag and its probability in a byte
LEVELS = 16  # format 1: the most probable tag's probability, from 1/T (no confidence) to 1, in this many steps
PROB_STEPS = 255  # format 2: each kept probability as round(p * 255), a byte


def is_compact(path: str | Path) -> bool:
    return str(path).endswith(COMPACT_SUFFIX)


def pack_labels(top_ids: np.ndarray, top_probs: np.ndarray) -> np.ndarray:
    """Format 1, a byte a token: the most probable tag id (high 4 bits) and its probability in
    :data:`LEVELS` steps between 1/T and 1 (low 4 bits), from (n, k) top-k ids and probabilities."""
    if len(BIO_TAGS) > 16:
        raise ValueError(f"{len(BIO_TAGS)} tags do not fit 4 bits")
    floor = 1.0 / len(BIO_TAGS)
    share = (top_probs[:, 0].astype(np.float32) - floor) / (1.0 - floor)
    level = np.clip(np.rint(share * (LEVELS - 1)), 0, LEVELS - 1).astype(np.uint8)
    return (top_ids[:, 0].astype(np.uint8) << 4) | level


def unpack_labels(packed: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(n, 1) tag ids and (n, 1) probabilities of :func:`pack_labels`'s bytes."""
    floor = 1.0 / len(BIO_TAGS)
    probs = floor + (packed & 0x0F).astype(np.float32) / (LEVELS - 1) * (1.0 - floor)
    return (packed >> 4).astype(np.uint8)[:, None], probs.astype(np.float16)[:, None]


def quantize_probs(top_probs: np.ndarray) -> np.ndarray:
    """Format 2: (n, k) probabilities as bytes, round(p * 255) (off by 1/510 at most)."""
    return np.clip(np.rint(top_probs.astype(np.float32) * PROB_STEPS), 0, PROB_STEPS).astype(np.uint8)


def dequantize_probs(levels: np.ndarray) -> np.ndarray:
    return (levels.astype(np.float32) / PROB_STEPS).astype(np.float16)


def write_compact(folder: str | Path, path: str | Path, top: int = 0) -> int:
    """The soft-label ``folder`` as one compact file at ``path`` (``*.labels.xz``, written
    atomically), keeping each token's ``top`` most probable tags (0: all the folder keeps);
    returns the paragraphs written."""
    folder, path = Path(folder), Path(path)
    if not is_compact(path):
        raise ConfigError(f"{path}: a compact soft-label file ends in {COMPACT_SUFFIX}")
    if top < 0:
        raise ConfigError(f"--top-k must be 1 or more (0: all the folder keeps), not {top}")
    paragraphs = load_soft_labels(folder)  # never empty: it refuses a folder without paragraphs
    kept = min(top or len(BIO_TAGS), min(p.top_ids.shape[1] for p in paragraphs))
    manifest = {**read_manifest(folder), "format": COMPACT_FORMAT, "tags": list(BIO_TAGS), "top_k": kept}
    text = "\n".join(t for p in paragraphs for t in p.tokens).encode("utf-8")
    ids = np.concatenate([p.top_ids[:, :kept] for p in paragraphs])
    probs = quantize_probs(np.concatenate([p.top_probs[:, :kept] for p in paragraphs]))
    buffer = io.BytesIO()
    np.savez(buffer, tokens=np.frombuffer(text, dtype=np.uint8), ids=ids, probs=probs,
             lengths=np.array([len(p.tokens) for p in paragraphs], dtype=np.int32))
    with atomic_target(path) as tmp:
        Path(tmp).write_bytes(json.dumps(manifest).encode("utf-8") + b"\n" + lzma.compress(buffer.getvalue(), preset=9))
    return len(paragraphs)


def _compact_manifest(path: Path) -> dict[str, Any]:
    """A compact file's manifest (its first line), checked for the format and the tags."""
    if not path.is_file():
        raise InputNotFoundError(f"{path}: no such compact soft-label file")
    with open(path, "rb") as handle:
        head = handle.readline()
    try:
        manifest = json.loads(head)
    except ValueError:
        manifest = None
    if not isinstance(manifest, dict) or manifest.get("format") not in (COMPACT_FORMAT, COMPACT_V1):
        raise InputNotFoundError(f"{path}: not a compact soft-label file ({COMPACT_FORMAT})")
    if manifest.get("tags") != list(BIO_TAGS):
        raise InputNotFoundError(f"{path}: written for other tags than this version's")
    return manifest


def _read_compact(path: Path) -> list[SoftParagraph]:
    version = _compact_manifest(path)["format"]
    blob = path.read_bytes().split(b"\n", 1)[1]
    try:
        with np.load(io.BytesIO(lzma.decompress(blob))) as data:
            if version == COMPACT_V1:
                ids, probs = unpack_labels(data["labels"])
            else:
                ids, probs = data["ids"], dequantize_probs(data["probs"])
                if ids.ndim != 2 or ids.shape != probs.shape or (ids.size and int(ids.max()) >= len(BIO_TAGS)):
                    raise ValueError("tag ids and probabilities do not match")
            return _paragraphs(data["tokens"], data["lengths"], ids, probs)
    except (lzma.LZMAError, ValueError, KeyError, OSError) as err:
        raise InputNotFoundError(f"{path}: a damaged compact soft-label file ({err})") from None
