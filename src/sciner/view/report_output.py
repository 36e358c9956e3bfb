"""Write an experiment report to disk: HTML (plots embedded) or Markdown (plots as PNG files beside it).

Every file goes through :class:`sciner.outputs.Outputs`: written atomically, never over an input.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from sciner.config import BOOTSTRAP_SAMPLES, BOOTSTRAP_SEED
from sciner.errors import InputFormatError
from sciner.formats.registry import reading_format
from sciner.outputs import Outputs
from sciner.view.report import ExperimentReport, build_report


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


def report(gold: str | Path, systems: Sequence[str | Path], output: str | Path, *,
           names: Sequence[str] | None = None, samples: int = BOOTSTRAP_SAMPLES, seed: int = BOOTSTRAP_SEED,
           examples: int = 8, from_format: str | None = None) -> list[Path]:
    """Build the experiment report of ``systems``' predictions against ``gold`` (see
    :func:`~sciner.view.report.build_report`) and write it to ``output`` (.html or .md);
    returns the files written. ``output`` is checked before the bootstrap runs: not an input,
    a known kind."""
    fmt = reading_format(from_format)
    outputs = Outputs([gold, *systems])
    target = outputs.check(output)
    report_kind(target)  # before the bootstrap, not after
    data = build_report(Path(gold), [Path(s) for s in systems], names=names or None, samples=samples, seed=seed,
                        examples=examples, fmt=fmt)
    return write_report(data, target, outputs=outputs)
