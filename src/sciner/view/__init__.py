"""Pages for people: the entity view and gold/prediction diff (HTML), and the experiment report."""

from sciner.view.diff import render_diff
from sciner.view.html import render_entities

__all__ = ["render_entities", "render_diff"]
