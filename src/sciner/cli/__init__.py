"""The ``sciner`` command line: one small module per verb, all registered on one Typer app.

User errors (:class:`sciner.errors.ScinerError`) are printed as one line on stderr and
exit with the error's code; so is an ``OSError`` that no verb handled (E010: a permission,
a directory, a full disk are the system's answer, not a bug). Anything else is a bug and
keeps its traceback.
"""

from __future__ import annotations

import os
import sys

from sciner.cli.app import app
from sciner import tokenize as tokenizing
from sciner.errors import FileSystemError, ScinerError

# Importing a verb module registers its command(s) on ``app``; the help lists them in
# workflow order (sciner.cli.app.WORKFLOW) whatever the order here.
from sciner.cli import extract_cmd  # noqa: F401,E402
from sciner.cli import predict_cmd  # noqa: F401,E402
from sciner.cli import convert_cmd  # noqa: F401,E402
from sciner.cli import show_cmd  # noqa: F401,E402
from sciner.cli import summarize_cmd  # noqa: F401,E402
from sciner.cli import serve_cmd  # noqa: F401,E402
from sciner.cli import evaluate_cmd  # noqa: F401,E402
from sciner.cli import report_cmd  # noqa: F401,E402
from sciner.cli import data_cmd  # noqa: F401,E402
from sciner.cli import train_cmd  # noqa: F401,E402
from sciner.cli import calibrate_cmd  # noqa: F401,E402
from sciner.cli import pretrain_cmd  # noqa: F401,E402
from sciner.cli import ngrams_cmd  # noqa: F401,E402
from sciner.cli import info_cmd  # noqa: F401,E402
from sciner.cli import export_cmd  # noqa: F401,E402
from sciner.cli import distill_cmd  # noqa: F401,E402
from sciner.cli import index_cmd  # noqa: F401,E402
from sciner.cli import query_cmd  # noqa: F401,E402


# Transformers' and the Hugging Face hub's own bars ("Loading weights", "Writing model
# shards") and notices: sciner shows its own progress, and -q must silence everything.
QUIET_LIBRARIES = {"HF_HUB_DISABLE_PROGRESS_BARS": "1", "TRANSFORMERS_VERBOSITY": "error"}
# Torch's worker threads sleep when they wait instead of spinning: spinning threads on a machine
# whose cores are shared made `--threads 2` 2.6 to 5.7 times slower than `--threads 1` (issue 34;
# read when torch is imported, later).
THREAD_WAITS = {"OMP_WAIT_POLICY": "PASSIVE"}


def main() -> None:
    """Entry point of the ``sciner`` console script."""
    for name, value in {**QUIET_LIBRARIES, **THREAD_WAITS}.items():  # read when transformers is imported, later
        os.environ.setdefault(name, value)
    tokenizing.HIDE_TORCH_FROM_THINC = True  # the command's tokenizer imports spaCy without torch
    try:
        # Standalone mode: click itself reports usage errors (exit 2); our errors come through.
        app()
    except ScinerError as exc:
        _fail(exc)
    except OSError as exc:
        _fail(FileSystemError.of(exc))
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        sys.exit(130)


def _fail(exc: ScinerError) -> None:
    print(str(exc), file=sys.stderr)
    sys.exit(exc.exit_code)


if __name__ == "__main__":  # pragma: no cover
    main()
