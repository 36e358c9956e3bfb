"""One skeleton that runs a verb's :class:`Step` over files: read, step, write, with progress,
each input that fails reported and the others going on. :func:`run_verb` is the one way in,
for every verb (predict, extract, summarize, index), and :class:`Engine` the one spelling of
how it runs (workers, resume, Ray).

Two ways to run it, one result (:class:`Run`):

- **in chunks** (the default :class:`Engine`): inputs are read, stepped and (one output per
  input) written a chunk of whole papers at a time (:data:`CHUNK_TOKENS`), in this process,
  so memory is bounded by a chunk however many inputs a run has, and enough paragraphs go
  through the step together to keep a model busy;
- **one job per input** (``Engine(workers=N)``, ``resume=True`` or a Ray address): each input
  is read, stepped, rendered (exactly as in chunks, so the outputs are byte for byte the same),
  written atomically, then recorded as one line of ``DIR/manifest.jsonl``, by this process, by
  N spawned processes or by Ray actors. Each worker loads the step's state (a model) once;
  jobs go out biggest input first from one queue. With ``resume`` the inputs the manifest
  records as done, whose output is whole, are skipped.

With Ray the actors read the inputs and write the outputs themselves: on a cluster, the input
and output folders must be on a file system every node sees (NFS or another shared disk), and
sciner must be installed on every node.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from sciner.document import Paragraph
from sciner.errors import FileSystemError, MissingExtraError, OutputError, ScinerError
from sciner.files.inputs import expand_each, status_line
from sciner.files.plan import Input, OutputPlan, render_paragraphs, write_outputs
from sciner.formats.registry import FORMATS, READ_FORMATS
from sciner.outputs import append_line, write_atomic
from sciner.stdio import display_name

# Reads one input (a picklable callable, such as :class:`sciner.files.inputs.Reading`).
Read = Callable[[Path], list[Paragraph]]

MANIFEST = "manifest.jsonl"
LOCAL_RAY = "local"  # the --ray value (and flag value) that starts a Ray of our own for the run
# Some inputs done, some failed: the exit code of such a run.
PARTIAL_EXIT_CODE = 9
# Inputs are read, stepped and (one output per input) written a chunk at a time: whole inputs
# (papers) until a chunk holds this many tokens.
CHUNK_TOKENS = 200_000


class Step:
    """A verb's work on whole papers. Subclass it as a dataclass of plain values (it crosses to
    worker processes and Ray actors; a step that only runs in this process, such as index's
    one writer, may hold its run's state): :meth:`prepare` once, before any input is read,
    :meth:`load` once per worker (a model), then :meth:`run` on each chunk of inputs. The
    default step passes every input on as read."""

    # Progress bars: (what, unit) over the files read, and over the step's work (None: no bar).
    reading: ClassVar[tuple[str, str]] = ("reading", "file")
    working: ClassVar[tuple[str, str] | None] = None
    # What the summary says the step did to the inputs.
    did: ClassVar[str] = "read"
    # A status line for each output written ("12 paragraphs from a.pdf -> out/a.txt").
    says_writes: ClassVar[bool] = False
    # CPU threads each worker takes (Ray reserves them per actor).
    threads: int = 1

    def check(self) -> None:
        """Fail now, in one line, before any input is read (a model that is not there)."""

    def load(self) -> Any:
        """What every call of :meth:`run` in one worker shares (a model), loaded once, when the
        first input has been read."""
        return None

    def prepare(self, paths: list[Path], read: Read,
                report: Callable[[ScinerError], None]) -> tuple[list[Path], Read]:
        """Asked once, before any input is read: the inputs that need doing (one already done
        left out, one that cannot be done given to ``report``) and how to read them. The
        default: every input, read with ``read``."""
        return paths, read

    def run(self, state: Any, inputs: list[Input], progress: Callable[[int], object]) -> list[Input]:
        """The inputs' paragraphs as they are written (tagged, say), in the same order;
        ``progress(n)`` as ``n`` tokens are done."""
        return inputs


@dataclass(frozen=True)
class Engine:
    """How a run goes: in chunks in this process (the default), or one job per input with
    ``workers`` workers (processes, or Ray actors when ``ray_address`` is given: ``local``
    starts a Ray of our own), skipping what the manifest records as done with ``resume``."""

    workers: int | None = None
    resume: bool = False
    ray_address: str | None = None

    @classmethod
    def of(cls, workers: int | None = None, *, resume: bool = False, ray: bool = False,
           ray_address: str | None = None) -> "Engine":
        """The engine the options ``--workers``, ``--resume``, ``--ray`` and ``--ray-address`` ask for."""
        return cls(workers, resume, ray_address if ray_address is not None else LOCAL_RAY if ray else None)

    @property
    def per_job(self) -> bool:
        """True when each input is a job of its own, recorded in the manifest."""
        return self.workers is not None or self.resume or self.ray_address is not None

    @property
    def processes(self) -> int:
        return self.workers or 1


def split_threads(total: int, workers: int) -> int:
    """Each worker's CPU threads: ``total`` shared out, at least one each."""
    return max(1, total // workers)


class FailedInput(ScinerError):
    """An input that failed in a worker, as its one error line (the worker's error is text)."""

    exit_code = PARTIAL_EXIT_CODE

    def __str__(self) -> str:
        return self.message


@dataclass
class Run:
    """What a run did: the inputs done (in input order, with their paragraphs, when kept), the
    files written, the inputs that failed (each error names its input), the counts, and for a
    run of jobs its manifest, its records (in the order they finished) and the inputs skipped
    as already done."""

    did: str = "read"
    done: list[Input] = field(default_factory=list)
    written: list[Path] = field(default_factory=list)
    failed: list[ScinerError] = field(default_factory=list)
    inputs: int = 0  # inputs done, with their paragraphs, tokens and entities per type
    paragraphs: int = 0
    tokens: int = 0
    entities: Counter[str] = field(default_factory=Counter)
    manifest: Path | None = None
    workers: int = 1
    records: list[dict[str, Any]] = field(default_factory=list)
    skipped: int = 0
    seconds: float = 0.0

    def count(self, done: list[Input]) -> None:
        """Add ``done`` inputs to the counts."""
        self.inputs += len(done)
        for _, ps in done:
            self.paragraphs += len(ps)
            self.tokens += sum(len(p.tokens) for p in ps)
            self.entities.update(s.label for p in ps for s in p.spans or [])

    def summary(self) -> str:
        """Lines for stderr: tokens, paragraphs and inputs done (entities per type), files written."""
        if self.manifest is not None:
            lines = [f"{self.did} {self.tokens} tokens in {self.paragraphs} paragraphs from {self.inputs} input "
                     f"file(s) with {self.workers} worker(s) in {self.seconds:.1f} s"]
            if self.skipped:
                lines.append(f"skipped {self.skipped} input(s) already done")
            lines.append(f"wrote {len(self.written)} file(s); manifest {self.manifest}")
            return "\n".join(lines)
        if not self.inputs:
            return ""
        lines = [f"{self.did} {self.tokens} tokens in {self.paragraphs} paragraphs from {self.inputs} input file(s)"]
        lines += [f"  {label:<20} {n}" for label, n in sorted(self.entities.items(), key=lambda kv: -kv[1])]
        if len(self.written) == 1:
            lines.append(f"wrote {self.written[0]}")
        elif self.written:
            lines.append(f"wrote {len(self.written)} files")
        return "\n".join(lines)


def say(err: ScinerError) -> None:
    """Report an input that failed on stderr, in its one line, as it happens (a CLI's ``on_error``)."""
    print(str(err), file=sys.stderr)


def exit_code(failed: Sequence[ScinerError], done: int) -> int:
    """The exit code of a run that did ``done`` inputs, ``failed`` failing: 0 without failures,
    else the first error's own code when nothing was done, else :data:`PARTIAL_EXIT_CODE`."""
    if not failed:
        return 0
    return failed[0].exit_code if not done else PARTIAL_EXIT_CODE


def failure_lines(failed: Sequence[ScinerError], done: int) -> list[str]:
    """The closing list of the inputs that failed (each said already as it happened), for stderr;
    none for a lone failure of a run that did nothing: its one line says it all."""
    if not failed or (not done and len(failed) == 1):
        return []
    return [f"{len(failed)} input(s) failed:", *(f"  {err.message}" for err in failed)]


def finish(failed: Sequence[ScinerError], done: int) -> int:
    """Say the closing list of failures on stderr; returns the run's exit code (see :func:`exit_code`)."""
    for line in failure_lines(failed, done):
        print(line, file=sys.stderr)
    return exit_code(failed, done)


def reporter(failed: list[ScinerError], on_error: Callable[[ScinerError], object] | None) -> Callable[[ScinerError], None]:
    """Keep each error in ``failed`` and pass it on to ``on_error`` (a CLI prints it at once)."""

    def report(err: ScinerError) -> None:
        failed.append(err)
        if on_error is not None:
            on_error(err)

    return report


def run_verb(
    inputs: Sequence[str | Path],
    plan: Callable[[list[Path]], OutputPlan | None],
    step: Step,
    read: Read,
    *,
    formats: tuple[str, ...] | None = None,
    engine: Engine = Engine(),
    on_error: Callable[[ScinerError], object] | None = None,
    show_progress: bool = True,
    keep: bool = True,
) -> Run:
    """Run a verb over files, the one way every verb (predict, extract, summarize, index) runs:
    expand ``inputs`` (files, folders of ``formats``, default every readable one; globs; ``-``),
    ``plan`` their outputs (checked before anything is read; None: nothing is written), ask the
    step which inputs need doing and how to read them (:meth:`Step.prepare`), then read, step
    and write them as ``plan`` says. ``engine``: in chunks, or one job per input (then ``plan``
    must write one output per input). An input that names nothing or fails goes to
    ``on_error`` and the run's ``failed``, and the others go on; with every input failed
    nothing is written. ``keep=False`` leaves the run's ``done`` empty (its counts stay), so
    memory stays bounded by a chunk."""
    run = Run(did=step.did)
    report = reporter(run.failed, on_error)
    paths = expand_each(inputs, report, formats=formats or READ_FORMATS, notes=status_line(show_progress))
    planned = plan(paths)
    paths, read = step.prepare(paths, read, report)
    if engine.per_job:
        return _run_jobs(run, paths, planned, step, read, engine, report, show_progress)
    return _run_chunks(run, paths, planned, step, read, report, show_progress, keep)


# --- in chunks ---------------------------------------------------------------------------------

def read_chunks(
    paths: list[Path], read: Read, *, on_error: Callable[[Path, ScinerError], object],
    chunk_tokens: int = CHUNK_TOKENS, on_read: Callable[[Path], object] | None = None,
) -> Iterator[list[Input]]:
    """The readable inputs' paragraphs, whole inputs at a time, each chunk at least
    ``chunk_tokens`` tokens (but the last) unless one input is larger; unreadable files go
    to ``on_error``, and every file read or not to ``on_read``."""
    chunk: list[Input] = []
    tokens = 0
    for path in paths:
        try:
            paragraphs = read(path)
        except ScinerError as err:
            on_error(path, err)
            continue
        finally:
            if on_read is not None:
                on_read(path)
        chunk.append((path, paragraphs))
        tokens += sum(len(p.tokens) for p in paragraphs)
        if tokens >= chunk_tokens:
            yield chunk
            chunk, tokens = [], 0
    if chunk:
        yield chunk


def _run_chunks(run: Run, paths: list[Path], plan: OutputPlan | None, step: Step, read: Read,
                report: Callable[[ScinerError], None], show_progress: bool, keep: bool) -> Run:
    status = status_line(show_progress)
    together = plan is not None and plan.per_input is None  # one output for every input: written at the end
    for group in _grouped(_stepped(run, paths, step, read, report, show_progress, keep), together):
        written = write_outputs(plan, group) if plan is not None else []
        run.written += written
        if status and step.says_writes and written:
            paragraphs = sum(len(ps) for _, ps in group)
            source = f"{len(group)} paper(s)" if together else display_name(group[0][0])
            status(f"{paragraphs} paragraphs from {source} -> {written[0]}")
    return run


def _grouped(stepped: Iterator[list[Input]], together: bool) -> Iterator[list[Input]]:
    """The inputs done, as they are written: all of them at the end (``together``), else each
    input as soon as its chunk is done."""
    if together:
        yield [one for done in stepped for one in done]
        return
    for done in stepped:
        yield from ([one] for one in done)


def _stepped(run: Run, paths: list[Path], step: Step, read: Read, report: Callable[[ScinerError], None],
             show_progress: bool, keep: bool) -> Iterator[list[Input]]:
    """Each chunk of inputs, read and stepped (counted in ``run``, kept with ``keep``), under two
    progress bars: the files read, and the step's work."""
    from tqdm import tqdm

    what, unit = step.reading
    reading = tqdm(total=len(paths), desc=what, unit=unit, disable=not show_progress or len(paths) < 2, file=sys.stderr)
    chunks = read_chunks(paths, read, on_error=lambda path, err: report(err), chunk_tokens=CHUNK_TOKENS,
                         on_read=lambda _: reading.update())
    state: Any = None
    loaded = False
    bar: tqdm | None = None  # drawn once the first chunk is read, so that it starts with a total
    try:
        for chunk in chunks:
            tokens = sum(len(p.tokens) for _, ps in chunk for p in ps)
            if not loaded:
                state, loaded = step.load(), True
            if bar is None:
                desc, unit = step.working or ("", "")
                bar = tqdm(total=tokens, desc=desc, unit=unit, unit_scale=True,
                           disable=not show_progress or step.working is None, file=sys.stderr)
            else:
                bar.total += tokens
                bar.refresh()
            done = step.run(state, chunk, bar.update)
            run.count(done)
            if keep:
                run.done += done
            yield done
    finally:
        reading.close()
        if bar is not None:
            bar.close()


# --- one job per input -------------------------------------------------------------------------

@dataclass(frozen=True)
class Job:
    """One input into one output; paths as text, since jobs cross process boundaries."""

    input: str
    output: str


@dataclass(frozen=True)
class Work:
    """What a worker does with each job: ``read`` it, run ``step``, render in ``format``
    (``extracted``: as ``sciner extract`` writes), write."""

    step: Step
    read: Read
    format: str
    extracted: bool = False


def run_job(state: Any, work: Work, job: Job) -> dict[str, Any]:
    """Do one job and write its output atomically; returns the attempt's manifest record.

    A failing input is a record with status ``failed`` and its error, never an exception: one
    odd paper among thousands must not stop the run.
    """
    start = time.perf_counter()
    record = _failed(job, "")
    error = None
    try:
        path = Path(job.input)
        [(_, done)] = work.step.run(state, [(path, work.read(path))], lambda n: None)
        write_atomic(job.output, render_paragraphs(FORMATS[work.format], done, path.name, extracted=work.extracted))
        record.update(status="ok", paragraphs=len(done), tokens=sum(len(p.tokens) for p in done),
                      bytes=os.path.getsize(job.output))
    except ScinerError as err:
        error = str(err)
    except OSError as err:
        error = str(FileSystemError.of(err))
    except Exception as err:  # a library failing on one odd paper: recorded, and the run goes on
        error = f"{type(err).__name__}: {err}"
    record.update(seconds=round(time.perf_counter() - start, 3), error=error)
    return record


def _failed(job: Job, error: str) -> dict[str, Any]:
    """The record of a job that failed with ``error`` (the fields every record has, in order)."""
    return {"input": job.input, "output": job.output, "status": "failed", "paragraphs": 0, "tokens": 0, "bytes": 0,
            "seconds": 0.0, "error": error}


def read_manifest(path: Path) -> dict[str, dict[str, Any]]:
    """The last record of each input in the manifest at ``path`` (none when it does not exist).

    A line that does not parse, such as the last one cut short by a crash, is skipped.
    """
    records: dict[str, dict[str, Any]] = {}
    if not path.is_file():
        return records
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(record, dict) and isinstance(record.get("input"), str):
            records[record["input"]] = record
    return records


def is_done(job: Job, record: dict[str, Any] | None) -> bool:
    """True when ``record`` says ``job`` went well and its output is still there, whole."""
    if record is None or record.get("status") != "ok" or record.get("output") != job.output:
        return False
    try:
        return os.path.getsize(job.output) == record.get("bytes")
    except OSError:
        return False


def plan_jobs(plan: OutputPlan | None) -> list[Job]:
    """One job per input of ``plan``, which must write one output per input (``-o DIR``)."""
    if plan is None or plan.per_input is None:
        raise OutputError("--workers, --resume and --ray write one output per input: "
                          "give -o a directory (an existing one, or a path ending in /)")
    return [Job(str(src), str(dst)) for src, dst in plan.per_input.items()]


def _run_jobs(run: Run, paths: list[Path], plan: OutputPlan | None, step: Step, read: Read, engine: Engine,
              report: Callable[[ScinerError], None], show_progress: bool) -> Run:
    from tqdm import tqdm

    wanted = {str(path) for path in paths}
    jobs = [job for job in plan_jobs(plan) if job.input in wanted]
    assert plan is not None and plan.format is not None
    step.check()  # a bad model is one line now, not an error in every worker
    manifest = plan.outputs.check(Path(plan.folder if plan.folder is not None else "") / MANIFEST)
    if any(Path(job.output) == manifest for job in jobs):
        raise OutputError(f"{manifest}: is also the output of an input; the manifest needs that name")
    done = read_manifest(manifest) if engine.resume else {}
    todo = [job for job in jobs if not is_done(job, done.get(job.input))]
    if not engine.resume:
        write_atomic(manifest, "")  # a new run starts a new manifest
    todo.sort(key=lambda job: -_size(job.input))  # biggest first: the long ones start early
    run.manifest, run.workers, run.skipped = manifest, engine.processes, len(jobs) - len(todo)
    work = Work(step, read, plan.format.name, plan.extracted)
    start = time.perf_counter()
    try:
        with tqdm(total=len(todo), desc=(step.working or step.reading)[0], unit="file", disable=not show_progress,
                  file=sys.stderr) as bar:
            for record in _dispatch(todo, work, engine):
                append_line(manifest, json.dumps(record, ensure_ascii=False))
                run.records.append(record)
                if record["status"] == "ok":
                    run.inputs += 1
                    run.paragraphs += record["paragraphs"]
                    run.tokens += record["tokens"]
                    run.written.append(Path(record["output"]))
                else:
                    report(FailedInput(record["error"]))
                bar.update(1)
    except KeyboardInterrupt:  # what is done is on disk and in the manifest: say how to go on
        print(f"interrupted; to go on, run the same command with --resume ({manifest} has what is done)",
              file=sys.stderr)
        raise
    run.seconds = time.perf_counter() - start
    return run


def _size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def _dispatch(jobs: list[Job], work: Work, engine: Engine) -> Iterator[dict[str, Any]]:
    if not jobs:
        return iter(())
    if engine.ray_address is not None:
        return _ray(jobs, work, engine.processes, engine.ray_address)
    if engine.processes > 1:
        return _processes(jobs, work, min(engine.processes, len(jobs)))
    return _in_process(jobs, work)


def _in_process(jobs: list[Job], work: Work) -> Iterator[dict[str, Any]]:
    state = work.step.load()
    for job in jobs:
        yield run_job(state, work, job)


_STATE: Any = None  # a worker process's state (its model), loaded once by _start_worker
_WORK: Work | None = None


def _start_worker(work: Work) -> None:
    global _STATE, _WORK
    _exit_with_parent(os.getppid())
    _STATE, _WORK = work.step.load(), work


# How often a worker checks that the run that started it is still there (seconds).
PARENT_CHECK_SECONDS = 0.5


def _exit_with_parent(parent: int) -> None:
    """End this worker process as soon as ``parent`` is gone: a run killed with ``kill -9`` gets no
    chance to stop its pool, and its workers would go on working for nobody. When the parent dies
    the worker is handed to another process, so its parent id changes."""
    import threading

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="sciner-parent-watch", daemon=True).start()


def _run_in_worker(job: Job) -> dict[str, Any]:
    assert _WORK is not None
    return run_job(_STATE, _WORK, job)


def _processes(jobs: list[Job], work: Work, n: int) -> Iterator[dict[str, Any]]:
    """Jobs run by ``n`` spawned processes (spawn: no copy of the parent's torch threads or locks)."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed
    from concurrent.futures.process import BrokenProcessPool

    pool = ProcessPoolExecutor(n, mp_context=multiprocessing.get_context("spawn"),
                               initializer=_start_worker, initargs=(work,))
    try:
        futures = {pool.submit(_run_in_worker, job): job for job in jobs}
        for future in as_completed(futures):
            try:
                yield future.result()
            except BrokenProcessPool:  # a worker was killed (out of memory?): the job is retried on --resume
                yield _failed(futures[future], "a worker process died (out of memory?)")
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


class _Actor:
    """A Ray actor holding one worker's state (the class is made remote when Ray is imported)."""

    def __init__(self, work: Work) -> None:
        self.work = work
        self.state = work.step.load()

    def run(self, job: Job) -> dict[str, Any]:
        return run_job(self.state, self.work, job)


def _import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise MissingExtraError("--ray needs Ray: pip install 'sciner[ray]'") from None
    return ray


def _ray(jobs: list[Job], work: Work, n: int, address: str) -> Iterator[dict[str, Any]]:
    """Jobs run by ``n`` Ray actors, each holding the step's state; ``address`` ``local`` starts
    a Ray of our own on this machine for the run, anything else is a cluster to connect to."""
    ray = _import_ray()
    from ray.util import ActorPool

    quiet = {"include_dashboard": False, "log_to_driver": False, "logging_level": "ERROR"}
    threads = work.step.threads
    if address == LOCAL_RAY:
        # A new Ray of our own, never one already running here; the records are small: a small store.
        # (Ray 2.60 resolves 127.0.0.1 to the machine's address: its servers are not loopback-only.)
        ray.init(address="local", num_cpus=n * threads, object_store_memory=100 * 2**20, **quiet)
    else:
        ray.init(address=address, **quiet)
    try:
        actor = ray.remote(num_cpus=threads)(_Actor)
        pool = ActorPool([actor.remote(work) for _ in range(n)])
        yield from pool.map_unordered(lambda a, job: a.run.remote(job), jobs)
    finally:
        ray.shutdown()

