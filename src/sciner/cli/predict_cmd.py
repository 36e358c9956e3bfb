"""``sciner predict``: tag papers (paragraph text, any tagged format, or PDF) with a trained model."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from sciner.cli.app import app
from sciner.model.batching import BATCH_SUBWORDS
from sciner.document import Paragraph
from sciner.cli.options import FROM_HELP, JSON_HELP, Precision, one_of
from sciner.config import DEVICES
from sciner.inference.corpus import LOCAL_RAY
from sciner.inference.files import NAMED_ONLY_SUFFIXES, PREDICT_FORMATS, OutputPlan

if TYPE_CHECKING:  # pragma: no cover
    from sciner.cli.batch import Failures
    from sciner.inference.corpus import Worker

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
    as_json: bool = typer.Option(False, "--json", help=JSON_HELP),
    legacy_format: Optional[str] = typer.Option(None, "--format", "-f", hidden=True),
    from_format: Optional[str] = typer.Option(None, "--from", help=FROM_HELP, show_default=False),
    model: Optional[Path] = typer.Option(None, "--model", "-m", help="Model directory; default: the model shipped with sciner."),
    batch_subwords: int = typer.Option(BATCH_SUBWORDS, "--batch-subwords", help="Subwords per encoder batch (the default was fastest on a 2-core CPU)."),
    precision: Precision = "auto",
    device: Annotated[Optional[str], one_of("--device", DEVICES, show_default=False,
                                            help="Where to tag: auto = cuda if available, else cpu (default: auto).")] = None,
    tokenize: bool = typer.Option(False, "--tokenize", help="Paragraph text is untokenized: tokenize each line with the task's tokenizer (spaCy's English rules) first."),
    threads: int = typer.Option(2, "--threads", min=1, help="CPU threads for torch."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar or summary on stderr."),
    workers: Optional[int] = typer.Option(None, "--workers", min=1, help="Tag a corpus into -o DIR with N processes, each loading the model once: every input's output is written as soon as it is tagged, and recorded in DIR/manifest.jsonl.", show_default=False),
    resume: bool = typer.Option(False, "--resume", help="With -o DIR: skip the inputs that DIR/manifest.jsonl records as done and whose output is whole."),
    ray: bool = typer.Option(False, "--ray", help="Run the --workers as Ray actors (pip install 'sciner[ray]'), on a local Ray started for the run."),
    ray_address: Optional[str] = typer.Option(None, "--ray-address", help="Run the --workers as actors on the Ray cluster at this address (inputs and -o on a disk all nodes share).", show_default=False),
) -> None:
    """Tag every token of every paragraph with exactly one BIO tag.

    Outputs are checked before the model is loaded: none may be an input. A file that cannot
    be read is reported on stderr and the batch goes on; the exit code is non-zero when any
    input failed, and a run in which every input failed writes nothing.

    Untokenized text: --tokenize (cat notes.txt | sciner predict - --tokenize).

    Example: sciner predict paper.pdf ../shared/data/test-inputs/2022-official-test.txt -o tags.conll
    """
    from sciner.cli.batch import Failures, expand_each
    from sciner.cli.options import json_or_to, reading_format
    from sciner.inference.files import plan_outputs, read_inputs, tag_read, write_outputs

    from_format = reading_format(from_format)
    failures = Failures()
    paths = expand_each(inputs, failures)
    plan = plan_outputs(paths, output, json_or_to(to_format or legacy_format, as_json))
    if ray and ray_address is None:
        ray_address = LOCAL_RAY
    corpus = workers is not None or resume or ray_address is not None
    read = [] if corpus else read_inputs(paths, from_format, show_progress=not quiet,
                                         on_error=lambda path, err: failures.add(err), tokenize=tokenize)
    results = []
    if read:
        import torch

        from sciner.inference.tagger import Tagger

        torch.set_num_threads(threads)
        tagger = Tagger.load(model, precision=precision, device=device or "auto")
        results = tag_read(tagger, read, batch_subwords=batch_subwords, show_progress=not quiet)
    written = write_outputs(plan, results)
    if corpus:  # each input tagged and written on its own, by one or more workers
        from sciner.inference.corpus import Worker, split_threads

        n = workers or 1  # the --threads are shared out between the workers
        worker = Worker(str(model) if model else None, precision, split_threads(threads, n), batch_subwords,
                        device or "auto")
        results = _tag_corpus(plan, output, worker, n, from_format, tokenize, resume, ray_address, quiet, failures)
    elif not quiet:
        _summary(results, written)
    failures.exit_if_any(done=len(results))


def _summary(results: list[tuple[Path, list[Paragraph]]], written: list[Path]) -> None:
    """What was tagged and which files were written, on stderr."""
    if not results:
        return
    counts = Counter(s.label for _, ps in results for p in ps for s in p.spans)
    n_tokens = sum(len(p.tokens) for _, ps in results for p in ps)
    n_paras = sum(len(ps) for _, ps in results)
    print(f"tagged {n_tokens} tokens in {n_paras} paragraphs from {len(results)} input file(s)", file=sys.stderr)
    for label, n in sorted(counts.items(), key=lambda kv: -kv[1]):
        print(f"  {label:<20} {n}", file=sys.stderr)
    if len(written) == 1:
        print(f"wrote {written[0]}", file=sys.stderr)
    elif written:
        print(f"wrote {len(written)} files", file=sys.stderr)


def _tag_corpus(plan: OutputPlan, output: Optional[str], worker: "Worker", workers: int, from_format: Optional[str],
                tokenize: bool, resume: bool, ray_address: Optional[str], quiet: bool,
                failures: "Failures") -> list[dict]:
    """Run predict as a corpus run (see :mod:`sciner.inference.corpus`); its failed inputs join
    ``failures`` (exit code 9); returns the records of the inputs tagged."""
    from sciner.inference.corpus import MANIFEST, tag_corpus

    try:
        run = tag_corpus(plan, output or "", worker, workers=workers, read_format=from_format, tokenize=tokenize,
                         resume=resume, ray_address=ray_address, show_progress=not quiet)
    except KeyboardInterrupt:  # what is done is on disk and in the manifest: say how to go on
        print(f"interrupted; to go on, run the same command with --resume ({Path(output or '') / MANIFEST} "
              "has what is done)", file=sys.stderr)
        raise
    for record in run.failed:
        failures.add_line(record["error"])
    if not quiet:
        print(run.summary(), file=sys.stderr)
    return [r for r in run.records if r["status"] == "ok"]
