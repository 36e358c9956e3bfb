"""``sciner predict``: tag papers (paragraph text, CoNLL, JSONL or PDF) with a trained model."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path
from typing import Optional

import typer

from sciner.cli.app import app

FORMATS = ("conll", "jsonl", "html")


@app.command()
def predict(
    inputs: list[str] = typer.Argument(..., help="Files, directories or globs: .txt (one tokenized paragraph per line), .conll (tags ignored), .jsonl, .pdf."),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="Output file (all inputs together), or an existing directory (one output per input). Default: stdout."),
    fmt: str = typer.Option("conll", "--format", "-f", help="conll (token<TAB>tag), jsonl (spans with scores) or html (a page to read)."),
    model: Optional[Path] = typer.Option(None, "--model", "-m", help="Model directory; default: the model shipped with sciner."),
    batch_subwords: int = typer.Option(2048, "--batch-subwords", help="Subwords per encoder batch; 2048 was fastest on a 2-core CPU."),
    precision: str = typer.Option("auto", "--precision", help="auto (bf16 where the CPU has it natively, else fp32), fp32, bf16 or int8 (faster, less accurate)."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar or summary on stderr."),
) -> None:
    """Tag every token of every paragraph with exactly one BIO tag.

    A file that cannot be read is reported on stderr and the batch goes on; the exit code is
    non-zero when any input failed.

    Example: sciner predict paper.pdf ../shared/data/test-inputs/2022-official-test.txt -o tags.conll
    """
    from sciner.errors import ConfigError, ScinerError
    from sciner.inference.files import expand_inputs, read_input
    from sciner.inference.files import tag_files

    if fmt not in FORMATS:
        raise ConfigError(f"--format must be one of {', '.join(FORMATS)}, not {fmt!r}")
    failures: list[str] = []
    exit_codes: list[int] = []
    paths = []
    for item in inputs:  # a missing input is reported like an unreadable one, and the batch goes on
        try:
            paths.extend(expand_inputs([item]))
        except ScinerError as err:
            failures.append(err.message)
            exit_codes.append(err.exit_code)
            print(str(err), file=sys.stderr)
    if not paths:
        raise typer.Exit(code=exit_codes[0])
    per_file = output is not None and output.is_dir()
    from sciner import load

    tagger = load(str(model) if model else None, precision=precision)
    results = tag_files(tagger, paths, read_input, batch_subwords=batch_subwords, show_progress=not quiet,
                        on_error=lambda path, err: (failures.append(f"{path}: {err.message}"),
                                                    exit_codes.append(err.exit_code),
                                                    print(str(err), file=sys.stderr)))
    from sciner.inference.files import render

    if per_file:
        for path, paragraphs in results:
            target = output / (path.stem + {"conll": ".conll", "jsonl": ".jsonl", "html": ".html"}[fmt])
            target.write_text(render(paragraphs, fmt, title=path.name), encoding="utf-8")
    else:
        everything = [p for _, ps in results for p in ps]
        text = render(everything, fmt, title=", ".join(p.name for p, _ in results) or "sciner")
        if output is None:
            sys.stdout.write(text)
        else:
            output.write_text(text, encoding="utf-8")
    if not quiet:
        counts = Counter(s.label for _, ps in results for p in ps for s in p.spans)
        n_tokens = sum(len(p.tokens) for _, ps in results for p in ps)
        n_paras = sum(len(ps) for _, ps in results)
        print(f"tagged {n_tokens} tokens in {n_paras} paragraphs from {len(results)} file(s)", file=sys.stderr)
        for label, n in sorted(counts.items(), key=lambda kv: -kv[1]):
            print(f"  {label:<20} {n}", file=sys.stderr)
    if failures:
        print(f"{len(failures)} input(s) failed:", file=sys.stderr)
        for f in failures:
            print(f"  {f}", file=sys.stderr)
        # Nothing readable: the first error's own code; some inputs tagged, some not: 9.
        raise typer.Exit(code=exit_codes[0] if not results else 9)
