"""The corpus index: tagged papers in one SQLite file, and the questions asked of it.

schema.py is the file (tables, version, opening it); write.py the per-paper step and the one
writer (one transaction per paper); run.py ``sciner index`` as :func:`index_files`;
questions.py the question table (each question's parameters and answer dataclass, from which
``sciner query`` and the routes of ``sciner serve --index`` are made); query.py the answers, as
the methods of :class:`Index`; render.py the answers as a table, CSV or HTML.
docs/index.md writes the schema down.
"""

from __future__ import annotations

from typing import Any

__all__ = ["Index", "index_files"]

_WHERE = {"Index": "sciner.index.query", "index_files": "sciner.index.run"}


def __getattr__(name: str) -> Any:
    """``Index`` and ``index_files``, imported when first asked for: ``sciner query`` opens
    the index through query.py and should not import the writer (run.py, write.py, summary)."""
    import importlib

    if name in _WHERE:
        return getattr(importlib.import_module(_WHERE[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
