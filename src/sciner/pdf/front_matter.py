"""The first page's front matter: find the title, and where the author block ends.

The title is the largest text near the top of page 1. Authors, affiliations and
e-mail addresses sit between it and the "Abstract" heading (or, without one, the
first block of running text); they are not part of the task's input.
"""

from __future__ import annotations

import re

from sciner.pdf.layout import OrderedLine

_ABSTRACT_START_RE = re.compile(r"^abstract\b", re.IGNORECASE)
_INTRODUCTION_RE = re.compile(r"^(1\.?|I\.)?\s*introduction\s*$", re.IGNORECASE)


def find_title(lines: list[OrderedLine], body_size: float) -> list[OrderedLine]:
    """The title's lines on the first page: the largest font in its top 40%, at least 1.5 pt above body text."""
    candidates = [
        line
        for line in lines
        if line.top < 0.4 * line.page_height and sum(c.isalpha() for c in line.text) >= 3
    ]
    if not candidates:
        return []
    size = max(line.font_size for line in candidates)
    if size < body_size + 1.5:
        return []
    title = [line for line in candidates if abs(line.font_size - size) <= 0.3]
    # Only the first run of title-size lines: a large figure label further down is not the title.
    first_top = min(line.top for line in title)
    return [line for line in title if line.top - first_top <= 4 * size]


def front_matter_end(lines: list[OrderedLine], title: list[OrderedLine], body_size: float) -> float:
    """The ``top`` below which page-1 content starts.

    That is the "Abstract" heading; without one, the "Introduction" heading or the first
    run of running text, whichever comes first.
    """
    title_bottom = max((line.bottom for line in title), default=0.0)
    for line in lines:
        if line.top >= title_bottom and _ABSTRACT_START_RE.match(line.text):
            return line.top - 1.0
    introduction = [line.top for line in lines if line.top >= title_bottom and _INTRODUCTION_RE.match(line.text)]
    # No abstract heading: the first run of three body-size, column-wide lines starts the content.
    run: list[OrderedLine] = []
    for line in sorted(lines, key=lambda line: line.top):
        if line.top < title_bottom:
            continue
        if abs(line.font_size - body_size) <= 1.0 and line.width >= 0.6 * line.box.width:
            run.append(line)
            if len(run) == 3:
                return min([run[0].top, *introduction]) - 1.0
        else:
            run = []
    return min([title_bottom + 1.0, *introduction]) - 1.0
