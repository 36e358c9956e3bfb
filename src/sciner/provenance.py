"""Where a piece of sciner comes from: its version and git commit, recorded in every model
trained (``model.json``) and shown by ``sciner info`` beside the running code's."""

from __future__ import annotations

import subprocess
from pathlib import Path


def git_commit() -> str:
    """The current git commit of the sciner checkout, or 'unknown' (an installed wheel has none)."""
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True,
                             cwd=Path(__file__).parent, timeout=5)
        return out.stdout.strip() if out.returncode == 0 and out.stdout.strip() else "unknown"
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def running() -> dict[str, str]:
    """The version and git commit of the code running now."""
    from sciner.version import __version__

    return {"version": __version__, "git_commit": git_commit()}
