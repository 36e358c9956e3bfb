"""Where a run writes: standard output, one file (every input together), or a folder of one
output per input mirroring the inputs' paths. Planned and checked before any input is read:
no output is an input, every folder can be created, the format can be written there."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from sciner.document import Paragraph
from sciner.errors import OutputError
from sciner.formats.include import check_include_kept
from sciner.formats.registry import FORMATS, WRITE_FORMATS, Format, output_format, refuse_binary
from sciner.outputs import Outputs, wants_directory
from sciner.stdio import display_name, file_names, is_stdio, write_stdout

# What predict can write: every format that holds entities.
PREDICT_FORMATS: tuple[str, ...] = tuple(n for n in WRITE_FORMATS if FORMATS[n].carries_entities)


@dataclass(frozen=True)
class OutputPlan:
    """Where one run writes: standard output (``target`` None), one file, or one file per input
    (``per_input``), in ``format``; ``extracted``: paragraphs as ``sciner extract`` writes
    them (the format's ``render_extracted``), else with their entities."""

    format: Format
    outputs: Outputs
    target: Path | None = None
    per_input: dict[Path, Path] | None = None
    extracted: bool = False
    folder: Path | None = None  # with one output per input: the folder -o names

    def render(self, paragraphs: list[Paragraph], title: str = "") -> str | bytes:
        """The content of a file of this plan holding ``paragraphs``."""
        return render_paragraphs(self.format, paragraphs, title, extracted=self.extracted)

    def render_input(self, path: Path, paragraphs: list[Paragraph]) -> str | bytes:
        """The content of ``path``'s own output (one output per input): a chunked run and a run
        of one job per input both write exactly this, so their outputs are byte for byte the same."""
        return self.render(paragraphs, path.name)


def render_paragraphs(fmt: Format, paragraphs: list[Paragraph], title: str = "", *,
                      extracted: bool = False) -> str | bytes:
    """The content of a ``fmt`` file holding ``paragraphs``: with their entities, or
    (``extracted``) as ``sciner extract`` writes a paper's paragraphs; ``title``: an HTML page's."""
    render = fmt.render_extracted if extracted else fmt.render
    return render(paragraphs, title)  # type: ignore[misc]


def _check_folder_can_exist(target: Path) -> None:
    """Refuse now a target whose folder cannot be created (a file in the way), not after the work."""
    folder = target.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    if not folder.is_dir():
        raise OutputError(f"{target}: cannot create folder {target.parent} ({folder} is a file)")


def plan_outputs(paths: list[Path], output: str | None, to_format: str | None = None,
                 include: Sequence[str] = ()) -> OutputPlan:
    """The outputs of tagging ``paths`` into ``output`` (a file, a folder, or None or ``-`` for
    stdout) in ``to_format`` (default: ``output``'s suffix, else conll), every one checked: none
    is an input, every folder can be created, the format holds entities; and what ``include``
    reads is there and kept (:func:`sciner.formats.include.check_include_kept`: PDFs among the
    inputs, table rows written where their cells go too)."""
    check_include_kept(include, paths, output, to_format)
    output = None if is_stdio(output) else output
    single = output is not None and not wants_directory(output)
    if single:
        Outputs(paths).check(output)  # first: "that is an input" says more than "that format holds no tags"
    fmt = output_format(output if single else None, to_format)
    if fmt.name not in PREDICT_FORMATS:
        raise OutputError(f"predict writes entities, which {fmt.name} files cannot hold; "
                          f"expected one of {', '.join(PREDICT_FORMATS)}")
    return plan_files(paths, output, fmt)


def plan_files(paths: list[Path], output: str | None, fmt: Format, *, extracted: bool = False) -> OutputPlan:
    """The outputs of a run writing ``paths``' paragraphs in ``fmt`` (predict, extract) into
    ``output``: standard output (None or ``-``; never a binary format), one file, or a folder
    (an existing one, or ending in ``/``) mirroring the inputs' paths. Every target checked
    before any input is read: none is an input, every folder can be created."""
    output = None if is_stdio(output) else output
    outputs = Outputs(paths)
    if output is None:
        refuse_binary(fmt)
        return OutputPlan(fmt, outputs, extracted=extracted)
    if wants_directory(output):
        targets = outputs.mirrored(output, file_names(paths), fmt.suffixes[0]) if paths else []
        for target in targets:
            _check_folder_can_exist(target)
        return OutputPlan(fmt, outputs, per_input=dict(zip(paths, targets)), extracted=extracted,
                          folder=Path(output))
    target = outputs.check(output)
    _check_folder_can_exist(target)
    return OutputPlan(fmt, outputs, target=target, extracted=extracted)


def write_outputs(plan: OutputPlan, results: list[tuple[Path, list[Paragraph]]]) -> list[Path]:
    """Write the inputs' paragraphs as planned (each file atomically); returns the files written.

    With no results nothing is written, so an existing output is left as it was. Several inputs
    written together keep their boundaries (see :func:`name_documents`).
    """
    contents = render_outputs(plan, results)
    if plan.per_input is None and plan.target is None:
        for _, content in contents:
            write_stdout(content)
        return []
    return [plan.outputs.write(target, content) for target, content in contents]


def render_outputs(plan: OutputPlan, results: list[tuple[Path, list[Paragraph]]]) -> list[tuple[Path | None, str | bytes]]:
    """What :func:`write_outputs` writes: each target (None: standard output) with its content."""
    if not results:
        return []
    if plan.per_input is not None:
        return [(plan.per_input[path], plan.render_input(path, ps)) for path, ps in results]
    if len(results) > 1:  # one document needs no boundary
        name_documents(results)
    everything = [p for _, ps in results for p in ps]
    return [(plan.target, plan.render(everything, ", ".join(p.name for p, _ in results)))]


def name_documents(results: list[tuple[Path, list[Paragraph]]]) -> None:
    """Name each paragraph's input in its ``meta["doc"]`` (the path as given): CoNLL writes a
    ``-DOCSTART-`` line where a document begins, JSONL a ``doc`` on every paragraph."""
    for path, paragraphs in results:
        for p in paragraphs:
            p.meta["doc"] = display_name(path)
