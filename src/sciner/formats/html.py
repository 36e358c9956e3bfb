"""The ``html`` output format: a self-contained page of tagged paragraphs, in the spirit of
spaCy's displaCy. Its page pieces (marks, legend, CSS) also build the diff and report pages
of :mod:`sciner.view`.

Each entity is a ``<mark class="ent ent-TYPE">`` with its type shown after its text; every
type has a fixed colour so pages made from different files read the same. The page has
no external assets (inline CSS, no scripts), so it can be mailed or attached to a paper.
All text from the input is HTML-escaped.
"""

from __future__ import annotations

import html
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence

from sciner.document import Paragraph, Span
from sciner.labels import ENTITY_TYPES, type_colour


BASE_CSS = """
body { font-family: -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif;
       margin: 2em auto; max-width: 70em; padding: 0 1.5em; color: #222; background: #fff; }
h1 { font-size: 1.5em; margin-bottom: 0.2em; }
.subtitle { color: #666; margin-top: 0; }
.legend { display: flex; flex-wrap: wrap; gap: 0.5em 1em; margin: 1em 0 1.5em;
          padding: 0.8em 1em; border: 1px solid #e4e4e4; border-radius: 0.4em; background: #fafafa; }
.legend-item { display: inline-flex; align-items: center; gap: 0.4em; font-size: 0.9em; }
.swatch { display: inline-block; width: 1.1em; height: 1.1em; border-radius: 0.25em; }
.count { color: #555; font-variant-numeric: tabular-nums; }
.paragraph { line-height: 2.6; margin: 0 0 1.2em; padding: 0.3em 0 0.8em; border-bottom: 1px solid #eee; }
.para-head { font-size: 0.75em; color: #999; line-height: 1.4; margin-bottom: 0.2em; }
mark.ent { padding: 0.3em 0.5em; margin: 0 0.2em; line-height: 1; border-radius: 0.35em;
           box-decoration-break: clone; -webkit-box-decoration-break: clone; color: #222; }
.ent-label { font-size: 0.7em; font-weight: bold; line-height: 1; border-radius: 0.35em;
             vertical-align: middle; margin-left: 0.45em; text-transform: uppercase; letter-spacing: 0.02em; }
.score { font-weight: normal; color: #444; margin-left: 0.3em; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; font-size: 0.9em; }
th, td { border: 1px solid #ddd; padding: 0.3em 0.6em; text-align: right; }
th:first-child, td:first-child { text-align: left; }
th { background: #f3f3f3; }
"""


def type_class(label: str) -> str:
    """The CSS class of an entity type, e.g. ``ent-MethodName``; unsafe characters become ``_``."""
    return "ent-" + re.sub(r"[^A-Za-z0-9_-]", "_", label)


def type_css(labels: Iterable[str]) -> str:
    """CSS rules giving each type's class its colour."""
    return "\n".join(f".{type_class(t)} {{ background: {type_colour(t)}; }}" for t in labels)


def escape(text: object) -> str:
    """HTML-escape any value, quotes included (it may land in an attribute)."""
    return html.escape(str(text), quote=True)


def mark(text: str, label: str, *, extra_class: str = "", note: str = "", score: float | None = None,
         anchor: str = "") -> str:
    """One highlighted entity: its text, then its type (and ``note``, ``score``) as a small label;
    ``anchor`` is its ``id`` (for links to it)."""
    classes = f"ent {type_class(label)} {extra_class}".strip()
    title = label if score is None else f"{label} (score {score:.2f})"
    if note:
        title += f" - {note}"
    suffix = f" {escape(note)}" if note == "✓" else f" · {escape(note)}" if note else ""
    score_html = f'<span class="score">{score:.2f}</span>' if score is not None else ""
    id_attr = f' id="{escape(anchor)}"' if anchor else ""
    return (
        f'<mark{id_attr} class="{classes}" data-type="{escape(label)}" title="{escape(title)}">{escape(text)}'
        f'<span class="ent-label">{escape(label)}{suffix}</span>{score_html}</mark>'
    )


def non_overlapping(spans: Iterable[Span]) -> list[Span]:
    """Spans sorted by position, dropping any that overlaps an earlier one (HTML cannot cross-nest)."""
    kept: list[Span] = []
    for span in sorted(spans, key=lambda s: (s.start, -s.end)):
        if not kept or span.start >= kept[-1].end:
            kept.append(span)
    return kept


def render_tokens(
    tokens: Sequence[str],
    spans: Iterable[Span],
    *,
    classify: Callable[[Span], tuple[str, str]] | None = None,
    show_scores: bool = True,
    anchor: Callable[[Span], str] | None = None,
) -> str:
    """Tokens joined by spaces with each span wrapped in a :func:`mark`.

    ``classify(span)`` may return an extra CSS class and a note for the span's label
    (the diff view uses it for correct/missed/spurious); ``anchor(span)`` its ``id`` (the
    summary page links to mentions).
    """
    parts: list[str] = []
    pos = 0
    for span in non_overlapping(spans):
        if span.start > pos:
            parts.append(escape(" ".join(tokens[pos : span.start])))
        extra, note = classify(span) if classify else ("", "")
        score = span.score if show_scores else None
        parts.append(mark(" ".join(tokens[span.start : span.end]), span.label, extra_class=extra, note=note, score=score,
                          anchor=anchor(span) if anchor else ""))
        pos = span.end
    if pos < len(tokens):
        parts.append(escape(" ".join(tokens[pos:])))
    return " ".join(parts)


def paragraph_head(p: Paragraph, index: int) -> str:
    """The small grey line above a paragraph: its number and where it came from."""
    where = f" · {escape(p.source)}:{p.line}" if p.source != "<memory>" else ""
    return f'<div class="para-head">¶ {index + 1}{where}</div>'


def legend(counts: Counter[str], labels: Iterable[str]) -> str:
    """A row of type swatches with how many entities of each type the page shows."""
    items = [
        f'<span class="legend-item" data-type="{escape(t)}"><span class="swatch {type_class(t)}"></span>'
        f'{escape(t)} <span class="count">{counts.get(t, 0)}</span></span>'
        for t in labels
    ]
    return f'<div class="legend">{"".join(items)}</div>'


def page(title: str, body: str, *, labels: Iterable[str] = ENTITY_TYPES, extra_css: str = "") -> str:
    """A complete HTML document with the shared style, type colours and ``body``."""
    css = BASE_CSS + type_css(labels) + extra_css
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{escape(title)}</title>\n<style>{css}</style>\n</head>\n"
        f"<body>\n<h1>{escape(title)}</h1>\n{body}\n</body>\n</html>\n"
    )


def all_labels(*span_lists: Iterable[Span]) -> list[str]:
    """The task's seven types, then any other label found, in a stable order."""
    extra = sorted({s.label for spans in span_lists for s in spans} - set(ENTITY_TYPES))
    return list(ENTITY_TYPES) + extra


def render_entities(paragraphs: Sequence[Paragraph], title: str = "sciner entities") -> str:
    """A page showing every paragraph in order with its entities highlighted per type.

    Paragraphs are read through their ``spans`` (with scores, as a tagger returns them)
    or else their BIO ``tags``; the legend counts entities per type.
    """
    spans_per_para = [p.spans or [] for p in paragraphs]
    counts = Counter(s.label for spans in spans_per_para for s in spans)
    labels = all_labels(*spans_per_para)
    total = sum(counts.values())
    body = [
        f'<p class="subtitle">{len(paragraphs)} paragraphs, '
        f"{sum(len(p.tokens) for p in paragraphs)} tokens, {total} entities</p>",
        legend(counts, labels),
    ]
    for i, (p, spans) in enumerate(zip(paragraphs, spans_per_para)):
        body.append(f'<div class="paragraph">{paragraph_head(p, i)}{render_tokens(p.tokens, spans)}</div>')
    return page(title, "\n".join(body), labels=labels)
