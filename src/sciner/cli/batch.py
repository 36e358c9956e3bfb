"""What the verbs that work through many inputs (predict, extract, summarize) share on the
command line: an input that fails is reported at once and the batch goes on; the exit code
tells at the end (see :mod:`sciner.files.run`)."""

from __future__ import annotations

import sys

import typer

from sciner.errors import ScinerError
from sciner.files.run import PARTIAL_EXIT_CODE


class Failures:
    """The inputs of one run that failed, each reported on stderr as it happens."""

    def __init__(self) -> None:
        self.errors: list[ScinerError] = []

    def add(self, err: ScinerError) -> None:
        """Report ``err`` now (one line); the batch goes on."""
        self.errors.append(err)
        print(str(err), file=sys.stderr)

    def exit_if_any(self, done: int) -> None:
        """With failures, list them and exit: the first error's own code when nothing was done
        (``done`` inputs were), else :data:`~sciner.files.run.PARTIAL_EXIT_CODE`. A lone
        failure of a run that did nothing stays the one line already printed."""
        if not self.errors:
            return
        if done or len(self.errors) > 1:
            print(f"{len(self.errors)} input(s) failed:", file=sys.stderr)
            for err in self.errors:
                print(f"  {err.message}", file=sys.stderr)
        raise typer.Exit(code=self.errors[0].exit_code if not done else PARTIAL_EXIT_CODE)
