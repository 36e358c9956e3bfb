"""``sciner predict`` as a function: its step (:class:`Tagging`: tag whole papers with one
model, as :class:`TagOptions` say) run over files by :mod:`sciner.files`, in chunks or one job
per input (worker processes, Ray actors, a manifest to resume from), and predict's own rules
for its outputs (:data:`PREDICT_FORMATS`, :func:`plan_outputs`)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from sciner.document import Paragraph
from sciner.errors import OutputError, ScinerError
from sciner.files.inputs import Reading, status_line
from sciner.files.plan import OutputPlan, plan_files
from sciner.files.run import Engine, Input, Run, Step, run_verb, split_threads
from sciner.formats.include import check_include_kept
from sciner.formats.kinds import text_of, with_tagged
from sciner.formats.registry import FORMATS, WRITE_FORMATS, output_format
from sciner.model.batching import BATCH_SUBWORDS
from sciner.outputs import Outputs, wants_directory
from sciner.stdio import is_stdio

if TYPE_CHECKING:
    from sciner.inference.tagger import Tagger

# predict's default CPU threads, torch's or a NumPy network's BLAS's (the --workers share them out).
THREADS = 2
# What predict can write: every format that holds entities.
PREDICT_FORMATS: tuple[str, ...] = tuple(n for n in WRITE_FORMATS if FORMATS[n].carries_entities)


@dataclass(frozen=True)
class TagOptions:
    """How a verb tags (predict, summarize, index), built once from the command line (or in
    Python) and carried down unchanged (across worker processes too): the ``model`` (None: the
    shipped one; a name or a folder), its ``precision`` and ``device``, the CPU ``threads``
    (shared out between the workers), the subwords per encoder batch, and ``paper_level`` (each
    input is one paper to the paper-level pass; False: every paragraph on its own, see
    :meth:`Tagger.tag`)."""

    model: str | Path | None = None
    precision: str = "auto"
    device: str = "auto"
    threads: int = THREADS
    batch_subwords: int = BATCH_SUBWORDS
    paper_level: bool = True


def tag_read(
    tagger: Tagger, read: list[Input], *, batch_subwords: int, show_progress: bool,
    paper_level: bool = True, progress: Callable[[int], object] | None = None,
) -> list[Input]:
    """Tag the paragraphs of every file together (one batching, one progress bar, or
    ``progress`` called with each batch's tokens), kept per file; each file is one document to
    the paper-level pass (``paper_level``: see :meth:`Tagger.tag`). A paragraph of a kind the
    model does not tag (:func:`~sciner.formats.kinds.text_of`: a float's text) is written with no
    entity and kept out of that pass."""
    from tqdm import tqdm

    everything = [p for _, ps in read for p in ps]
    text = text_of(everything)
    total = sum(len(p.tokens) for p in text)
    documents = [(k, p.meta.get("doc")) for k, (_, ps) in enumerate(read) for p in text_of(ps)]
    with tqdm(total=total, desc="tagging", unit="tok", unit_scale=True, disable=not show_progress or progress is not None,
              file=sys.stderr) as bar:
        answers = tagger.tag(text, batch_subwords=batch_subwords, progress=progress or bar.update,
                             paper_level=paper_level, documents=documents)
    tagged = with_tagged(everything, answers)
    out, k = [], 0
    for path, ps in read:
        out.append((path, tagged[k : k + len(ps)]))
        k += len(ps)
    return out


@dataclass(frozen=True)
class Tagging(Step):
    """predict's step: tag with the model every worker loads once, as ``options`` say; each
    input is one document (one paper) to the paper-level pass (unless ``options.paper_level``
    is False).

    ``keep_tagged`` (summarize's tagging): an input whose paragraphs carry tags passes as it
    is (``Reading(tags=True)`` keeps them where :func:`sciner.files.inputs.is_tagged`, and
    drops them elsewhere), and the model is loaded only when an input carries none."""

    reading: ClassVar[tuple[str, str]] = ("reading", "file")
    working: ClassVar[tuple[str, str] | None] = ("tagging", "tok")
    did: ClassVar[str] = "tagged"

    options: TagOptions = TagOptions()
    keep_tagged: bool = False
    # What to say on stderr of each input tagged (a module's function: it crosses to workers).
    notes: Callable[[Path, list[Paragraph]], list[str]] | None = None

    @property
    def threads(self) -> int:  # type: ignore[override]
        """Each worker's CPU threads (what Ray reserves per actor): the options'."""
        return self.options.threads

    def check(self) -> None:
        from sciner.model.store import load_model_meta

        load_model_meta(self.options.model)

    def load(self) -> Any:
        """The Tagger (with ``keep_tagged``: a :class:`LazyTagger`, loaded at its first use)."""
        return LazyTagger(self) if self.keep_tagged else self.tagger()

    def tagger(self) -> Tagger:
        # The model's libraries (NumPy, and torch for a large call) load here, when a worker loads
        # the model: the CLI imports this module to build its options and must start without them.
        from sciner.inference.tagger import Tagger

        options = self.options
        tagger = Tagger.load(options.model, precision=options.precision, device=options.device)
        tagger.limit_threads(options.threads)
        return tagger

    def run(self, state: Any, inputs: list[Input], progress: Callable[[int], object]) -> list[Input]:
        if not self.keep_tagged:
            done = tag_read(state, inputs, batch_subwords=self.options.batch_subwords, show_progress=False,
                            paper_level=self.options.paper_level, progress=progress)
            if self.notes is not None and (say := status_line(True)) is not None:
                for path, paragraphs in done:
                    for line in self.notes(path, paragraphs):
                        say(line)
            return done
        done = list(inputs)
        todo = [k for k, (_, ps) in enumerate(inputs) if any(p.spans is None for p in ps)]
        untouched = set(range(len(inputs))).difference(todo)
        progress(sum(len(p.tokens) for k in untouched for p in inputs[k][1]))
        if todo:
            tagged = tag_read(state.get(), [inputs[k] for k in todo], batch_subwords=self.options.batch_subwords,
                              show_progress=False, paper_level=self.options.paper_level, progress=progress)
            for k, one in zip(todo, tagged):
                done[k] = one
        return done


class LazyTagger:
    """A :class:`Tagging` step's Tagger, loaded at its first :meth:`get`."""

    def __init__(self, step: Tagging) -> None:
        self.step = step
        self.tagger: Tagger | None = None

    def get(self) -> Tagger:
        if self.tagger is None:
            self.tagger = self.step.tagger()
        return self.tagger


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


def tag_files(
    inputs: Sequence[str | Path],
    output: str | Path | None = None,
    *,
    tagging: TagOptions = TagOptions(),
    reading: Reading = Reading(),
    to_format: str | None = None,
    engine: Engine = Engine(),
    show_progress: bool = True,
    on_error: Callable[[ScinerError], object] | None = None,
    keep: bool = True,
    notes: Callable[[Path, list[Paragraph]], list[str]] | None = None,
) -> Run:
    """Tag files, folders and globs (``-``: standard input) and write the tags
    (``sciner predict``): to ``output``, a file (all inputs together: CoNLL marks each input
    with ``-DOCSTART-``, JSONL names it in ``doc``), a folder (one output per input, mirroring
    their paths) or standard output (None or ``-``), in ``to_format`` (default: ``output``'s
    suffix, else conll). Outputs are checked before the model is loaded: none may be an input.

    ``tagging`` (:class:`TagOptions`): the model and how it runs; each input is one document
    (one paper) to the paper-level pass. ``reading`` (:class:`sciner.files.inputs.Reading`,
    e.g. ``Reading.of(include=("tables",))``): ``--from``, ``--tokenize``, a PDF's
    ``--include``. An input that cannot be read is kept in the result's ``failed`` (and given
    to ``on_error``) and the others go on; when every input fails nothing is written.

    ``engine`` (:class:`sciner.files.run.Engine`): by default inputs are read, tagged and, one
    output per input, written a chunk of whole inputs at a time; ``keep=False`` leaves the
    result's ``done`` empty (its counts and summary stay). ``Engine(workers=N, resume=...,
    ray_address=...)`` tags a corpus into a folder ``output`` one input at a time, each output
    recorded in ``output/manifest.jsonl`` to resume from, ``tagging.threads`` shared out
    between the workers. ``notes``: what to say on stderr of each input tagged (a module's
    function, such as :func:`sciner.summary.files.paper_notes`), None: nothing.
    """
    step = Tagging(replace(tagging, threads=split_threads(tagging.threads, engine.processes)), notes=notes)
    return run_verb(inputs, lambda paths: plan_outputs(paths, None if output is None else str(output), to_format,
                                                       reading.include),
                    step, reading, engine=engine, on_error=on_error, show_progress=show_progress, keep=keep)
