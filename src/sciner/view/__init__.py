"""Pages for people: the gold/prediction diff (HTML) and the experiment report. The entity view
of one tagged file is the ``html`` output format (:mod:`sciner.formats.html`), re-exported here."""

from sciner.formats.html import render_entities
from sciner.view.diff import render_diff

__all__ = ["render_entities", "render_diff"]
