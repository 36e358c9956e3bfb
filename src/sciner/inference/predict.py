"""``sciner predict`` as a function: its step (:class:`Tagging`: tag whole papers with one
model) run over files by :mod:`sciner.files`, in chunks or one job per input (worker
processes, Ray actors, a manifest to resume from)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from sciner.errors import ScinerError
from sciner.files.inputs import Reading
from sciner.files.plan import OutputPlan, plan_outputs
from sciner.files.run import Engine, Input, Run, Step, run_files, run_verb, split_threads
from sciner.inference.tagger import Tagger
from sciner.model.batching import BATCH_SUBWORDS

# predict's default CPU threads, torch's or a NumPy network's BLAS's (the --workers share them out).
THREADS = 2


def tag_read(
    tagger: Tagger, read: list[Input], *, batch_subwords: int, show_progress: bool,
    paper_level: bool = True, progress: Callable[[int], object] | None = None,
) -> list[Input]:
    """Tag the paragraphs of every file together (one batching, one progress bar, or
    ``progress`` called with each batch's tokens), kept per file; each file is one document to
    the paper-level pass (``paper_level``: see :meth:`Tagger.tag`)."""
    from tqdm import tqdm

    everything = [p for _, ps in read for p in ps]
    total = sum(len(p.tokens) for p in everything)
    documents = [(k, p.meta.get("doc")) for k, (_, ps) in enumerate(read) for p in ps]
    with tqdm(total=total, desc="tagging", unit="tok", unit_scale=True, disable=not show_progress or progress is not None,
              file=sys.stderr) as bar:
        tagged = tagger.tag(everything, batch_subwords=batch_subwords, progress=progress or bar.update,
                            paper_level=paper_level, documents=documents)
    out, k = [], 0
    for path, ps in read:
        out.append((path, tagged[k : k + len(ps)]))
        k += len(ps)
    return out


@dataclass(frozen=True)
class Tagging(Step):
    """predict's step: the model every worker loads once (None: the shipped one), and how it
    runs it; each input is one document (one paper) to the paper-level pass
    (``paper_level=False``: every paragraph on its own, see :meth:`Tagger.tag`).

    ``keep_tagged`` (summarize's tagging): an input whose paragraphs carry tags passes as it
    is (``Reading(tags=True)`` keeps them where :func:`sciner.files.inputs.is_tagged`, and
    drops them elsewhere), and the model is loaded only when an input carries none."""

    reading: ClassVar[tuple[str, str]] = ("reading", "file")
    working: ClassVar[tuple[str, str] | None] = ("tagging", "tok")
    did: ClassVar[str] = "tagged"

    model: str | None = None
    precision: str = "auto"
    threads: int = THREADS
    batch_subwords: int = BATCH_SUBWORDS
    device: str = "auto"
    paper_level: bool = True
    keep_tagged: bool = False

    def check(self) -> None:
        from sciner.model.store import load_model_meta

        load_model_meta(self.model)

    def load(self) -> Any:
        """The Tagger (with ``keep_tagged``: a :class:`LazyTagger`, loaded at its first use)."""
        return LazyTagger(self) if self.keep_tagged else self.tagger()

    def tagger(self) -> Tagger:
        tagger = Tagger.load(self.model, precision=self.precision, device=self.device)
        tagger.limit_threads(self.threads)
        return tagger

    def run(self, state: Any, inputs: list[Input], progress: Callable[[int], object]) -> list[Input]:
        if not self.keep_tagged:
            return tag_read(state, inputs, batch_subwords=self.batch_subwords, show_progress=False,
                            paper_level=self.paper_level, progress=progress)
        done = list(inputs)
        todo = [k for k, (_, ps) in enumerate(inputs) if any(p.spans is None for p in ps)]
        untouched = set(range(len(inputs))).difference(todo)
        progress(sum(len(p.tokens) for k in untouched for p in inputs[k][1]))
        if todo:
            tagged = tag_read(state.get(), [inputs[k] for k in todo], batch_subwords=self.batch_subwords,
                              show_progress=False, paper_level=self.paper_level, progress=progress)
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


def tag_files(
    inputs: Sequence[str | Path],
    output: str | Path | None = None,
    *,
    to_format: str | None = None,
    from_format: str | None = None,
    model: str | Path | None = None,
    precision: str = "auto",
    device: str = "auto",
    threads: int = THREADS,
    batch_subwords: int = BATCH_SUBWORDS,
    tokenize: bool = False,
    show_progress: bool = True,
    on_error: Callable[[ScinerError], object] | None = None,
    paper_level: bool = True,
    include: Sequence[str] = (),
    keep: bool = True,
    engine: Engine = Engine(),
) -> Run:
    """Tag files, folders and globs (``-``: standard input) and write the tags
    (``sciner predict``): to ``output``, a file (all inputs together: CoNLL marks each input
    with ``-DOCSTART-``, JSONL names it in ``doc``), a folder (one output per input, mirroring
    their paths) or standard output (None or ``-``), in ``to_format`` (default: ``output``'s
    suffix, else conll). Outputs are checked before the model is loaded: none may be an input.

    An input that cannot be read is kept in the result's ``failed`` (and given to
    ``on_error``) and the others go on; when every input fails nothing is written.
    ``tokenize``: paragraph text is untokenized, one paragraph per line. ``include``: a PDF's
    table rows, captions or footnotes too (:data:`sciner.pdf.INCLUDE`). Each input is one
    document (one paper) to the paper-level pass; ``paper_level=False`` tags every paragraph
    on its own (see :meth:`Tagger.tag`). ``threads`` sets torch's CPU threads (shared out
    between the workers).

    ``engine`` (:class:`sciner.files.run.Engine`): by default inputs are read, tagged and, one
    output per input, written a chunk of whole inputs at a time; ``keep=False`` leaves the
    result's ``done`` empty (its counts and summary stay). ``Engine(workers=N, resume=...,
    ray_address=...)`` tags a corpus into a folder one input at a time, with a manifest to
    resume from (see :func:`tag_corpus_files`).
    """
    step = Tagging(None if model is None else str(model), precision, split_threads(threads, engine.processes),
                   batch_subwords, device, paper_level)
    return _tag_into(inputs, output, step, Reading.of(from_format, tokenize=tokenize, include=include), to_format,
                     engine=engine, on_error=on_error, show_progress=show_progress, keep=keep)


def _tag_into(inputs: Sequence[str | Path], output: str | Path | None, step: Tagging, reading: Reading,
              to_format: str | None, **run: Any) -> Run:
    """``step`` run by the batch layer over ``inputs``, written where ``output`` says (see :func:`tag_files`)."""
    return run_verb(inputs, lambda paths: plan_outputs(paths, None if output is None else str(output), to_format,
                                                       reading.include),
                    step, reading, **run)


def tag_corpus_files(
    inputs: Sequence[str | Path],
    output_dir: str | Path | None,
    worker: Tagging = Tagging(),
    *,
    workers: int = 1,
    resume: bool = False,
    ray_address: str | None = None,
    to_format: str | None = None,
    from_format: str | None = None,
    tokenize: bool = False,
    include: Sequence[str] = (),
    show_progress: bool = True,
    on_error: Callable[[ScinerError], object] | None = None,
) -> Run:
    """Tag files, folders and globs into ``output_dir`` (an existing folder, or a path ending
    in ``/``; anything else is a one-line error) one input at a time (``sciner predict
    --workers/--resume/--ray``): each output is written when its input is tagged and recorded
    in ``output_dir/manifest.jsonl``. ``workers`` processes (or Ray actors: ``ray_address``,
    ``local`` for a Ray of our own) each run ``worker``, its threads shared out between them;
    with ``resume``, inputs whose record says ok and whose output is whole are skipped. The
    formats and ``tokenize`` are :func:`tag_files`'. Inputs that name nothing or fail are the
    run's ``failed`` (and go to ``on_error``).
    """
    return _tag_into(inputs, output_dir, worker, Reading.of(from_format, tokenize=tokenize, include=include),
                     to_format, engine=Engine(workers, resume, ray_address), on_error=on_error,
                     show_progress=show_progress)


def tag_corpus(
    plan: OutputPlan,
    output_dir: str | Path,
    worker: Tagging,
    *,
    workers: int = 1,
    read_format: str | None = None,
    tokenize: bool = False,
    include: Sequence[str] = (),
    resume: bool = False,
    ray_address: str | None = None,
    show_progress: bool = True,
) -> Run:
    """Tag every input of ``plan`` (one output per input) with ``workers`` workers: this process
    (1), spawned processes, or Ray actors (``ray_address``: ``local`` or a cluster's), each
    running ``worker`` as it is. Each finished input is appended to ``output_dir/manifest.jsonl``;
    with ``resume``, inputs whose record says ok and whose output is whole are skipped."""
    from dataclasses import replace

    reading = Reading.of(read_format, tokenize=tokenize, include=include)
    plan = replace(plan, folder=Path(output_dir))
    return run_files(list(plan.per_input or ()), plan, worker, reading,
                     engine=Engine(workers, resume, ray_address), show_progress=show_progress)
