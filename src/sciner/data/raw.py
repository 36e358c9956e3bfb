"""Raw text folders (``*.txt``, one paragraph per line): the file list and random access to paragraphs.

Pretraining streams segments from it and the n-gram dictionary counts over it; neither loads
the 160 MB into memory.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from sciner.errors import InputNotFoundError


def raw_files(folder: Path) -> list[Path]:
    """The ``*.txt`` files of a raw-text folder, sorted (the order is part of the run's identity)."""
    if not folder.is_dir():
        raise InputNotFoundError(f"{folder}: raw text folder not found")
    files = sorted(folder.glob("*.txt"))
    if not files:
        raise InputNotFoundError(f"{folder}: no *.txt files")
    return files


class ParagraphIndex:
    """Byte offsets of every non-blank line of the raw files, for random access without loading them."""

    def __init__(self, files: Sequence[Path]) -> None:
        self.files = list(files)
        file_ids, starts, ends = [], [], []
        for i, path in enumerate(self.files):
            data = np.frombuffer(path.read_bytes(), dtype=np.uint8)
            newlines = np.flatnonzero(data == 10)
            line_starts = np.concatenate([[0], newlines + 1])
            line_ends = np.concatenate([newlines, [len(data)]])
            keep = (line_ends - line_starts) > 1  # drop empty lines (and lone "\r")
            starts.append(line_starts[keep])
            ends.append(line_ends[keep])
            file_ids.append(np.full(int(keep.sum()), i, dtype=np.int32))
        self.file_ids = np.concatenate(file_ids)
        self.starts = np.concatenate(starts)
        self.ends = np.concatenate(ends)
        self._handles: dict[int, Any] = {}

    def __len__(self) -> int:
        return len(self.starts)

    def read(self, i: int) -> str:
        """The text of paragraph ``i`` (undecodable bytes replaced: raw text is only for pretraining)."""
        fid = int(self.file_ids[i])
        handle = self._handles.get(fid)
        if handle is None:
            handle = self._handles[fid] = open(self.files[fid], "rb")
        handle.seek(int(self.starts[i]))
        return handle.read(int(self.ends[i] - self.starts[i])).decode("utf-8", errors="replace").strip()

    def close(self) -> None:
        for handle in self._handles.values():
            handle.close()
        self._handles.clear()
