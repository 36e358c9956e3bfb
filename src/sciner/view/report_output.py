"""Write an experiment report to disk: HTML (plots embedded) or Markdown (plots as PNG files beside it)."""

from __future__ import annotations

from pathlib import Path

from sciner.errors import InputFormatError
from sciner.view.report import ExperimentReport


def write_report(report: ExperimentReport, path: str | Path) -> list[Path]:
    """Write the report as HTML (``.html``/``.htm``) or Markdown (``.md``); returns the files written.

    Markdown's plots are PNG files named after the report, in the same folder.
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix in {".html", ".htm"}:
        from sciner.view.report_html import render_report_html

        path.write_text(render_report_html(report), encoding="utf-8")
        return [path]
    if suffix == ".md":
        from sciner.view.report_md import write_report_markdown

        return write_report_markdown(report, path)
    raise InputFormatError(f"{path}: the report is written as .html or .md")
