"""Write an experiment report to disk: HTML (plots embedded) or Markdown (plots as PNG files beside it).

Every file goes through :class:`sciner.outputs.Outputs`: written atomically, never over an input.
"""

from __future__ import annotations

from pathlib import Path

from sciner.errors import InputFormatError
from sciner.outputs import Outputs
from sciner.view.report import ExperimentReport


def report_kind(path: str | Path) -> str:
    """``html`` or ``markdown``, from ``path``'s suffix; anything else is a one-line error."""
    suffix = Path(path).suffix.lower()
    if suffix in {".html", ".htm"}:
        return "html"
    if suffix == ".md":
        return "markdown"
    raise InputFormatError(f"{path}: the report is written as .html or .md")


def write_report(report: ExperimentReport, path: str | Path, *, outputs: Outputs | None = None) -> list[Path]:
    """Write the report as HTML (``.html``/``.htm``) or Markdown (``.md``); returns the files written.

    Markdown's plots are PNG files named after the report, in the same folder. ``outputs``
    (default: no inputs to protect) checks every file before it is written.
    """
    path = Path(path)
    outputs = outputs or Outputs([])
    if report_kind(path) == "html":
        from sciner.view.report_html import render_report_html

        return [outputs.write(path, render_report_html(report))]
    from sciner.view.report_md import write_report_markdown

    return write_report_markdown(report, path, outputs)
