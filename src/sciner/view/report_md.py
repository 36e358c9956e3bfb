"""The experiment report as Markdown, with its plots written as PNG files beside it."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from sciner.document import Span
from sciner.evaluate.metrics import span_key
from sciner.outputs import Outputs
from sciner.view.plots import report_figures
from sciner.view.report import Example, ExperimentReport
from sciner.view.report_tables import EXAMPLES_TITLE, ReportTable, report_sections


def _cell(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def table_markdown(table: ReportTable) -> str:
    """A GitHub-flavoured Markdown table; columns of numbers right-aligned, others left."""
    align = ["--:" if numeric else ":--" for numeric in table.numeric_columns()]
    lines = ["| " + " | ".join(_cell(h) for h in table.header) + " |", "| " + " | ".join(align) + " |"]
    lines += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in table.rows]
    return "\n".join(lines)


def bracketed(tokens: Sequence[str], spans: Sequence[Span], notes: dict[tuple[str, int, int], str] | None = None) -> str:
    """Tokens with each entity written ``[text]{Type note}``; Markdown specials in tokens escaped."""
    starts = {s.start: s for s in spans}
    out, i = [], 0
    while i < len(tokens):
        span = starts.get(i)
        if span is None:
            out.append(_escape_md(tokens[i]))
            i += 1
            continue
        note = (notes or {}).get(span_key(span), "")
        text = " ".join(_escape_md(t) for t in tokens[span.start : span.end])
        out.append(f"[{text}]{{{span.label}{' ' + note if note else ''}}}")
        i = span.end
    return " ".join(out)


def _escape_md(token: str) -> str:
    return "".join("\\" + ch if ch in "\\`*_{}[]<>|#" else ch for ch in token)


def example_markdown(report: ExperimentReport, ex: Example) -> list[str]:
    """Gold and each system's version of one example, with ✓ (correct) / ✗ (spurious) and missed entities."""
    head = f"**¶ {ex.paragraph + 1}, tokens {ex.offset}–{ex.offset + len(ex.tokens)}**" + (" (excerpt)" if ex.truncated else "")
    lines = [head, "", f"- *gold*: {bracketed(ex.tokens, ex.gold)}"]
    gold_keys = {span_key(s) for s in ex.gold}
    for system, spans in zip(report.systems, ex.systems):
        pred_keys = {span_key(s) for s in spans}
        notes = {k: ("✓" if k in gold_keys else "✗") for k in pred_keys}
        missed = [s for s in ex.gold if span_key(s) not in pred_keys]
        missed_text = "; missed: " + ", ".join(f"{' '.join(ex.tokens[s.start:s.end])} ({s.label})" for s in missed) if missed else ""
        lines.append(f"- *{system.name}*: {bracketed(ex.tokens, spans, notes)}{_escape_md(missed_text)}")
    return lines + [""]


def write_report_markdown(report: ExperimentReport, path: Path, outputs: Outputs | None = None) -> list[Path]:
    """Write ``path`` and its PNG plots (``<stem>-<plot>.png`` in the same folder), each atomically
    and checked by ``outputs``; returns all files."""
    outputs = outputs or Outputs([])
    written = []
    images = {}
    for slug, caption, png in report_figures(report):
        image = path.with_name(f"{path.stem}-{slug}.png")
        outputs.write(image, png)
        written.append(image)
        images[slug] = f"![{caption}]({image.name})"
    names = " vs ".join(s.name for s in report.systems)
    lines = [
        f"# sciner report: {names}",
        "",
        f"gold: `{report.gold_path}` · {report.paragraphs} paragraphs · {report.tokens} tokens · {report.gold_entities} gold entities",
        "",
        *(f"- **{s.name}**: `{s.path}`" for s in report.systems),
        "",
    ]
    for section in report_sections(report):
        lines += ["#" * section.level + " " + section.title, ""]
        if section.note:
            lines += [section.note, ""]
        if section.table is not None:
            lines += [table_markdown(section.table), ""]
        if section.figure:
            lines += [images[section.figure], ""]
    lines += [f"## {EXAMPLES_TITLE}", ""]
    for ex in report.examples:
        lines += example_markdown(report, ex)
    if not report.examples:
        lines.append("No paragraph where they differ.")
    outputs.write(path, "\n".join(lines) + "\n")
    return [path, *written]
