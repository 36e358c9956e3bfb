"""``sciner predict``: tag papers (paragraph text, any tagged format, or PDF) with a trained model."""

from __future__ import annotations

import sys
from typing import Optional

import typer

from sciner.cli.app import app
from sciner.cli.options import (
    DeviceOwn, From, Include, JsonLines, ModelOption, ParagraphLocal, Precision, Quiet, ThreadsOwn, include_kinds,
)
from sciner.files.inputs import NAMED_ONLY_SUFFIXES
from sciner.inference.predict import PREDICT_FORMATS, THREADS
from sciner.model.batching import BATCH_SUBWORDS

_TO_HELP = f"Format of the output: {', '.join(PREDICT_FORMATS)}. Default: from -o's extension, else conll."
_INPUTS_HELP = (
    "Files, directories or globs: .txt (one tokenized paragraph per line), any tagged format (tags ignored), "
    f".pdf; - is standard input (format: --from, else its content, else paragraph text). "
    f"A directory gives its files of those formats, never a {'/'.join(NAMED_ONLY_SUFFIXES)} (CoNLL only when named)."
)


@app.command()
def predict(
    inputs: list[str] = typer.Argument(..., help=_INPUTS_HELP),
    output: Optional[str] = typer.Option(None, "--output", "-o", help="Output file (all inputs together: CoNLL marks each input with -DOCSTART-, JSONL names it in 'doc'), or a directory (existing, or ending in /): one output per input, mirroring their paths. Default, or -: stdout."),
    to_format: Optional[str] = typer.Option(None, "--to", help=_TO_HELP, show_default=False),
    as_json: JsonLines = False,
    legacy_format: Optional[str] = typer.Option(None, "--format", "-f", hidden=True),
    from_format: From = None,
    model: ModelOption = None,
    batch_subwords: int = typer.Option(BATCH_SUBWORDS, "--batch-subwords", help="Subwords per encoder batch (the default was fastest on a 2-core CPU)."),
    precision: Precision = "auto",
    device: DeviceOwn = "auto",
    tokenize: bool = typer.Option(False, "--tokenize", help="Paragraph text is untokenized: tokenize each line with the task's tokenizer (spaCy's English rules) first."),
    include: Include = None,
    threads: ThreadsOwn = THREADS,
    quiet: Quiet = False,
    paragraph_local: ParagraphLocal = False,
    workers: Optional[int] = typer.Option(None, "--workers", min=1, help="Tag a corpus into -o DIR with N processes, each loading the model once: every input's output is written as soon as it is tagged, and recorded in DIR/manifest.jsonl.", show_default=False),
    resume: bool = typer.Option(False, "--resume", help="With -o DIR: skip the inputs that DIR/manifest.jsonl records as done and whose output is whole."),
    ray: bool = typer.Option(False, "--ray", help="Run the --workers as Ray actors (pip install 'sciner[ray]'), on a local Ray started for the run."),
    ray_address: Optional[str] = typer.Option(None, "--ray-address", help="Run the --workers as actors on the Ray cluster at this address (inputs and -o on a disk all nodes share).", show_default=False),
) -> None:
    """Tag every token of every paragraph with exactly one BIO tag.

    Outputs are checked before the model is loaded: none may be an input. A file that cannot
    be read is reported on stderr and the batch goes on; the exit code is non-zero when any
    input failed, and a run in which every input failed writes nothing.

    Each input is one paper: where the model has paper-level parameters, a name the paper
    tags is evidence at its other occurrences, and touching names of one type are joined
    where the model nearly joined them (--paragraph-local: every paragraph on its own).

    Untokenized text: --tokenize (cat notes.txt | sciner predict - --tokenize).

    Example: sciner predict paper.pdf ../shared/data/test-inputs/2022-official-test.txt -o tags.conll
    """
    from sciner.cli.options import json_or_to
    from sciner.files.inputs import Reading
    from sciner.files.run import Engine, finish, say
    from sciner.inference.predict import TagOptions, tag_files

    to_format = json_or_to(to_format or legacy_format, as_json)
    tagging = TagOptions(model=model, precision=precision, device=device, threads=threads,
                         batch_subwords=batch_subwords, paper_level=not paragraph_local)
    reading = Reading.of(from_format, tokenize=tokenize, include=include_kinds(include))
    # A paper whose tables print numbers and give no result is said as it is tagged.
    notes = None
    if "tables" in reading.include and not quiet:  # (a text input imports no summary code)
        from sciner.summary.files import paper_notes
        notes = paper_notes
    run = tag_files(inputs, output, tagging=tagging, reading=reading,
                    to_format=to_format, engine=Engine.of(workers, resume=resume, ray=ray, ray_address=ray_address),
                    show_progress=not quiet, on_error=say, keep=False, notes=notes)
    if not quiet and (summary := run.summary()):
        print(summary, file=sys.stderr)
    raise typer.Exit(finish(run.failed, run.inputs))
