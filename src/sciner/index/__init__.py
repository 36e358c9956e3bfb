"""The corpus index: tagged papers in one SQLite file, and the questions asked of it.

schema.py is the file (tables, version, opening it); write.py the per-paper step and the one
writer (one transaction per paper); run.py ``sciner index`` as :func:`index_files`; query.py
``sciner query`` as :class:`Index`; render.py the answers as a table, CSV or HTML; web.py the
corpus routes and page of ``sciner serve --index``. docs/index.md writes the schema down.
"""

from sciner.index.query import Index
from sciner.index.run import index_files

__all__ = ["Index", "index_files"]
