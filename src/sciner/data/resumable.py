"""A folder that a long job fills bit by bit and goes on filling after an interruption (soft
labels of raw text, a pretraining cache): the job may go on only with the settings it began with.

Mixing the outputs of two settings in one folder gives a result that neither setting made, and
nothing downstream can tell; so the settings are written to a JSON record in the folder when
the job begins, and a later run with other settings is refused before it writes anything.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path

from sciner.errors import ConfigError


def refuse_other_settings(record: Path, settings: Mapping, keys: Iterable[str], what: str, option: str) -> None:
    """A resumable job continues in a folder only what was started there with the same ``keys``
    of its JSON ``record``: else a one-line ConfigError, "<folder>: <what> another <keys>;
    choose another <option> folder"."""
    if not record.exists():
        return
    old = json.loads(record.read_text(encoding="utf-8"))
    changed = [key for key in keys if old.get(key) != settings.get(key)]
    if changed:
        raise ConfigError(f"{record.parent}: {what} another {', '.join(changed)}; choose another {option} folder")
