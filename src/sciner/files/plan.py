"""Where a run writes: standard output, one file (every input together), or a folder of one
output per input mirroring the inputs' paths. Planned and checked before any input is read:
no output is an input, every folder can be created, the format can be written there.

Every input together is rendered by the format (each input's paragraphs in turn) or, for a
verb whose output is about the corpus (summarize), by the plan's own ``together`` renderer,
called once with every input done."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from sciner.document import Paragraph
from sciner.errors import OutputError
from sciner.formats.registry import Format, refuse_binary
from sciner.outputs import Outputs, wants_directory
from sciner.stdio import display_name, file_names, is_stdio, write_stdout

# One input as read (and stepped): its path as given (``-``: standard input) and its paragraphs.
Input = tuple[Path, list[Paragraph]]


@dataclass(frozen=True)
class OutputPlan:
    """Where one run writes: standard output (``target`` None), one file, or one file per input
    (``per_input``), in ``format``; ``extracted``: paragraphs as ``sciner extract`` writes
    them (the format's ``render_extracted``), else with their entities. ``together``: what
    renders every input done into the one output (a summary of the corpus), called once at the
    end; None: the format does, each input's paragraphs in turn."""

    outputs: Outputs
    format: Format | None = None
    target: Path | None = None
    per_input: dict[Path, Path] | None = None
    extracted: bool = False
    folder: Path | None = None  # with one output per input: the folder -o names
    together: Callable[[list[Input]], str | bytes] | None = None

    def render(self, paragraphs: list[Paragraph], title: str = "") -> str | bytes:
        """The content of a file of this plan holding ``paragraphs``."""
        assert self.format is not None, "a plan without a format renders every input together"
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


def plan_files(paths: list[Path], output: str | None, fmt: Format, *, extracted: bool = False) -> OutputPlan:
    """The outputs of a run writing ``paths``' paragraphs in ``fmt`` (predict, extract) into
    ``output``: standard output (None or ``-``; never a binary format), one file, or a folder
    (an existing one, or ending in ``/``) mirroring the inputs' paths. Every target checked
    before any input is read: none is an input, every folder can be created."""
    output = None if is_stdio(output) else output
    outputs = Outputs(paths)
    if output is None:
        refuse_binary(fmt)
        return OutputPlan(outputs, fmt, extracted=extracted)
    if wants_directory(output):
        targets = outputs.mirrored(output, file_names(paths), fmt.suffixes[0]) if paths else []
        for target in targets:
            _check_folder_can_exist(target)
        return OutputPlan(outputs, fmt, per_input=dict(zip(paths, targets)), extracted=extracted,
                          folder=Path(output))
    target = outputs.check(output)
    _check_folder_can_exist(target)
    return OutputPlan(outputs, fmt, target=target, extracted=extracted)


def plan_together(paths: list[Path], target: Path | None, together: Callable[[list[Input]], str | bytes]) -> OutputPlan:
    """The one output of a run whose content ``together`` renders from every input done (a
    summary): ``target`` (None: standard output), checked before any input is read: it is none
    of the inputs, and its folder can be created."""
    outputs = Outputs(paths)
    if target is not None:
        target = outputs.check(target)
        _check_folder_can_exist(target)
    return OutputPlan(outputs, target=target, together=together)


def write_outputs(plan: OutputPlan, results: list[Input]) -> list[Path]:
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


def render_outputs(plan: OutputPlan, results: list[Input]) -> list[tuple[Path | None, str | bytes]]:
    """What :func:`write_outputs` writes: each target (None: standard output) with its content."""
    if not results:
        return []
    if plan.together is not None:
        return [(plan.target, plan.together(results))]
    if plan.per_input is not None:
        return [(plan.per_input[path], plan.render_input(path, ps)) for path, ps in results]
    if len(results) > 1:  # one document needs no boundary
        name_documents(results)
    everything = [p for _, ps in results for p in ps]
    return [(plan.target, plan.render(everything, ", ".join(p.name for p, _ in results)))]


def name_documents(results: list[Input]) -> None:
    """Name each paragraph's input in its ``meta["doc"]`` (the path as given): CoNLL writes a
    ``-DOCSTART-`` line where a document begins, JSONL a ``doc`` on every paragraph."""
    for path, paragraphs in results:
        for p in paragraphs:
            p.meta["doc"] = display_name(path)
