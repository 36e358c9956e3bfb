"""Tagging whole files: expand the inputs (files, folders, globs), plan the outputs, read each
input, tag everything with one progress bar.

Outputs are planned and checked against the inputs before anything is read or tagged, so a
run that would write over an input (or into a folder that cannot exist) stops at once.
"""

from __future__ import annotations

import glob
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from sciner.document import Paragraph
from sciner.errors import InputNotFoundError, OutputError, ScinerError
from sciner.formats.registry import FORMATS, READ_FORMATS, WRITE_FORMATS, Format, output_format, read_file, suffix_format
from sciner.inference.tagger import Tagger
from sciner.outputs import Outputs, wants_directory

# What predict can write: every format that holds entities.
PREDICT_FORMATS: tuple[str, ...] = tuple(n for n in WRITE_FORMATS if FORMATS[n].carries_entities)

def _readable(path: Path) -> bool:
    fmt = suffix_format(path)
    return fmt is not None and fmt.read is not None


def expand_inputs(items: list[str]) -> list[Path]:
    """Files named directly, every readable file in a named directory (sorted), and glob matches."""
    paths: list[Path] = []
    for item in items:
        p = Path(item)
        if p.is_dir():
            found = sorted(f for f in p.iterdir() if f.is_file() and _readable(f))
            if not found:
                suffixes = ", ".join(s for n in READ_FORMATS for s in FORMATS[n].suffixes)
                raise InputNotFoundError(f"{p}: directory holds no file sciner reads ({suffixes})")
            paths.extend(found)
        elif p.exists():
            paths.append(p)
        elif any(ch in item for ch in "*?["):
            matches = sorted(Path(m) for m in glob.glob(item, recursive=True) if Path(m).is_file())
            if not matches:
                raise InputNotFoundError(f"{item}: pattern matches no file")
            paths.extend(matches)
        else:
            raise InputNotFoundError(f"{p}: no such file or directory")
    return paths


def read_input(path: Path, fmt: str | None = None) -> list[Paragraph]:
    """Paragraphs of one input file in any readable format; their entities, if any, are dropped.

    A file the system will not let us read (permissions, a folder, a device error) is a
    :class:`~sciner.errors.InputNotFoundError` naming it, like a missing one.
    """
    try:
        paragraphs = read_file(path, fmt)
    except OSError as err:
        raise InputNotFoundError(f"{path}: cannot be read ({err.strerror or type(err).__name__})") from None
    for p in paragraphs:
        p.spans = None
    return paragraphs


@dataclass(frozen=True)
class OutputPlan:
    """Where one predict run writes: standard output (``target`` None), one file, or one file per input."""

    format: Format
    outputs: Outputs
    target: Path | None = None
    per_input: dict[Path, Path] | None = None


def _check_folder_can_exist(target: Path) -> None:
    """Refuse now a target whose folder cannot be created (a file in the way), not after tagging."""
    folder = target.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    if not folder.is_dir():
        raise OutputError(f"{target}: cannot create folder {target.parent} ({folder} is a file)")


def plan_outputs(paths: list[Path], output: str | None, to_format: str | None = None) -> OutputPlan:
    """The outputs of tagging ``paths`` into ``output`` (a file, a folder, or None for stdout) in
    ``to_format`` (default: ``output``'s suffix, else conll), every one checked: none is an
    input, every folder can be created, the format holds entities."""
    outputs = Outputs(paths)
    single = output is not None and not wants_directory(output)
    if single:
        outputs.check(output)  # first: "that is an input" says more than "that format holds no tags"
    fmt = output_format(output if single else None, to_format)
    if fmt.name not in PREDICT_FORMATS:
        raise OutputError(f"predict writes entities, which {fmt.name} files cannot hold; "
                          f"expected one of {', '.join(PREDICT_FORMATS)}")
    if output is None:
        # The registry has no binary flag: a renderer returning bytes is one.
        if not isinstance(fmt.render([], ""), str):  # type: ignore[misc]
            raise OutputError(f"{fmt.name} is a binary format; give an output file with -o")
        return OutputPlan(fmt, outputs)
    if not single:
        targets = outputs.mirrored(output, paths, fmt.suffixes[0])
        for target in targets:
            _check_folder_can_exist(target)
        return OutputPlan(fmt, outputs, per_input=dict(zip(paths, targets)))
    target = Path(output)
    _check_folder_can_exist(target)
    return OutputPlan(fmt, outputs, target=target)


def read_inputs(
    paths: list[Path], fmt: str | None, *, show_progress: bool, on_error: Callable[[Path, ScinerError], object]
) -> list[tuple[Path, list[Paragraph]]]:
    """The paragraphs of each readable file, in input order; unreadable files go to ``on_error``."""
    from tqdm import tqdm

    read: list[tuple[Path, list[Paragraph]]] = []
    for path in tqdm(paths, desc="reading", unit="file", disable=not show_progress or len(paths) < 2, file=sys.stderr):
        try:
            read.append((path, read_input(path, fmt)))
        except ScinerError as err:
            on_error(path, err)
    return read


def tag_read(
    tagger: Tagger, read: list[tuple[Path, list[Paragraph]]], *, batch_subwords: int, show_progress: bool
) -> list[tuple[Path, list[Paragraph]]]:
    """Tag the paragraphs of every file together (one batching, one progress bar), kept per file."""
    from tqdm import tqdm

    everything = [p for _, ps in read for p in ps]
    total = sum(len(p.tokens) for p in everything)
    with tqdm(total=total, desc="tagging", unit="tok", unit_scale=True, disable=not show_progress,
              file=sys.stderr) as bar:
        tagged = tagger.tag(everything, batch_subwords=batch_subwords, progress=bar.update)
    out, k = [], 0
    for path, ps in read:
        out.append((path, tagged[k : k + len(ps)]))
        k += len(ps)
    return out


def render_input(path: Path, paragraphs: list[Paragraph], fmt: Format) -> str | bytes:
    """The content of ``path``'s own output (one output per input): the serial run and the
    corpus runner both write exactly this, so their outputs are byte for byte the same."""
    from sciner.formats.registry import render

    return render(paragraphs, fmt, title=path.name)


def write_outputs(plan: OutputPlan, results: list[tuple[Path, list[Paragraph]]]) -> list[Path]:
    """Write the tagged files as planned (each atomically); returns the files written.

    With no results nothing is written, so an existing output is left as it was.
    """
    from sciner.formats.registry import render

    if not results:
        return []
    if plan.per_input is not None:
        return [plan.outputs.write(plan.per_input[path], render_input(path, ps, plan.format)) for path, ps in results]
    everything = [p for _, ps in results for p in ps]
    content = render(everything, plan.format, title=", ".join(p.name for p, _ in results))
    if plan.target is None:
        sys.stdout.write(content)  # type: ignore[arg-type]  # binary formats are refused by plan_outputs
        return []
    return [plan.outputs.write(plan.target, content)]
