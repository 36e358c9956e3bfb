"""The experiment report as one self-contained HTML page (plots embedded as base64 PNG)."""

from __future__ import annotations

import base64
import re

from sciner.view.diff import DIFF_CSS, diff_paragraph_html
from sciner.formats.html import escape, page, render_tokens
from sciner.view.plots import report_figures
from sciner.view.report import Example, ExperimentReport
from sciner.view.report_tables import EXAMPLES_TITLE, ReportTable, Section, report_sections

_EMPHASIS = re.compile(r"\*(\w+)\*")

REPORT_CSS = """
h2 { font-size: 1.2em; margin-top: 2em; border-bottom: 1px solid #ddd; padding-bottom: 0.2em; }
h3 { font-size: 1em; margin-top: 1.2em; }
td.txt, th.txt { text-align: left; }
td.num, th.num { text-align: right; }
.row { display: flex; flex-wrap: wrap; gap: 1.5em; align-items: flex-start; }
.figure { margin: 0.5em 0 1.5em; }
.figure img { max-width: 100%; }
.figure figcaption { font-size: 0.85em; color: #666; }
.note { color: #555; font-size: 0.9em; max-width: 60em; }
.example { margin: 1em 0 1.8em; }
.example-head { font-size: 0.8em; color: #888; margin-bottom: 0.3em; }
.side-by-side { display: grid; gap: 0.8em; }
.side { border: 1px solid #e4e4e4; border-radius: 0.4em; padding: 0.4em 0.7em; line-height: 2.4; font-size: 0.9em; }
.side-name { font-weight: bold; font-size: 0.85em; color: #444; line-height: 1.6; }
"""


def table_html(table: ReportTable, css_class: str = "") -> str:
    """An HTML table of escaped cells."""
    align = ['class="num"' if numeric else 'class="txt"' for numeric in table.numeric_columns()]
    head = "".join(f"<th {a}>{escape(h)}</th>" for a, h in zip(align, table.header))
    body = "".join("<tr>" + "".join(f"<td {a}>{escape(c)}</td>" for a, c in zip(align, row)) + "</tr>" for row in table.rows)
    return f'<table class="{css_class}"><tr>{head}</tr>{body}</table>'


def _figure_html(caption: str, png: bytes) -> str:
    data = base64.b64encode(png).decode("ascii")
    return (
        f'<figure class="figure"><img alt="{escape(caption)}" src="data:image/png;base64,{data}">'
        f"<figcaption>{escape(caption)}</figcaption></figure>"
    )


def _row(*items: str) -> str:
    return f'<div class="row">{"".join(items)}</div>'


def example_html(report: ExperimentReport, ex: Example) -> str:
    """One example paragraph: gold, then each system's entities marked correct/missed/spurious."""
    first, last = ex.offset, ex.offset + len(ex.tokens)
    head = f"¶ {ex.paragraph + 1}, tokens {first}–{last}" + (" (excerpt)" if ex.truncated else "")
    sides = [f'<div class="side side-gold"><div class="side-name">gold</div>{render_tokens(ex.tokens, ex.gold)}</div>']
    for system, spans in zip(report.systems, ex.systems):
        sides.append(
            f'<div class="side side-system"><div class="side-name">{escape(system.name)}</div>'
            f"{diff_paragraph_html(ex.tokens, ex.gold, spans)}</div>"
        )
    columns = f"grid-template-columns: repeat({len(sides)}, minmax(0, 1fr));"
    return f'<div class="example"><div class="example-head">{head}</div><div class="side-by-side" style="{columns}">{"".join(sides)}</div></div>'


def section_html(section: Section, figures: dict[str, tuple[str, bytes]]) -> str:
    """A heading, its note, and its table with the plot beside it."""
    parts = [f"<h{section.level}>{escape(section.title)}</h{section.level}>"]
    if section.note:
        note = _EMPHASIS.sub(r"<i>\1</i>", escape(section.note))
        parts.append(f'<p class="note">{note}</p>')
    body = [table_html(section.table, section.css_class)] if section.table is not None else []
    if section.figure:
        body.append(_figure_html(*figures[section.figure]))
    parts.append(_row(*body) if len(body) > 1 else "".join(body))
    return "".join(parts)


def render_report_html(report: ExperimentReport) -> str:
    """The report page: scores, significance, analysis, confusion, plots and examples."""
    figures = {slug: (caption, png) for slug, caption, png in report_figures(report)}
    systems = "".join(f"<li><b>{escape(s.name)}</b>: {escape(s.path)}</li>" for s in report.systems)
    parts = [
        f'<p class="subtitle">gold: {escape(report.gold_path)} · {report.paragraphs} paragraphs · '
        f"{report.tokens} tokens · {report.gold_entities} gold entities</p><ul>{systems}</ul>",
        *(section_html(section, figures) for section in report_sections(report)),
        f"<h2>{EXAMPLES_TITLE}</h2>",
    ]
    if report.examples:
        parts.append(
            '<p class="note">Outlined solid: correct; dashed: missed; dotted: spurious. '
            "Where gold and a system overlap without matching, both are shown, gold above.</p>"
        )
        parts += [example_html(report, ex) for ex in report.examples]
    else:
        parts.append('<p class="note">No paragraph where they differ.</p>')
    names = " vs ".join(s.name for s in report.systems)
    return page(f"sciner report: {names}", "\n".join(parts), extra_css=DIFF_CSS + REPORT_CSS)
