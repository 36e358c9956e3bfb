"""Tagging a corpus: one output per input, each written the moment its input is tagged, by one
process, by N worker processes, or by Ray actors; a manifest to resume from.

The plain ``sciner predict INPUTS -o DIR`` tags every input in one batch and writes at the end:
for thousands of papers that is hours with nothing on disk and no way to resume. Here each
input is a job: read, tag, render (with :func:`~sciner.inference.files.render_input`, as the
plain run does, so the outputs are byte for byte the same), written atomically, then recorded
as one line of ``DIR/manifest.jsonl``. Each worker loads the model once; jobs go out biggest
input first from one queue, so a long paper started last does not hold up the end of the run.

With Ray the actors read the inputs and write the outputs themselves: on a cluster, the input
and output folders must be on a file system every node sees (NFS or another shared disk), and
sciner must be installed on every node.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sciner.errors import FileSystemError, MissingExtraError, OutputError, ScinerError
from sciner.formats.registry import FORMATS, reading_format
from sciner.inference.files import (
    THREADS, OutputPlan, expand_each, plan_outputs, read_input, render_input, reporter, status_line,
)
from sciner.inference.tagger import Tagger
from sciner.model.batching import BATCH_SUBWORDS
from sciner.outputs import append_line, write_atomic

MANIFEST = "manifest.jsonl"
LOCAL_RAY = "local"  # the --ray value (and flag value) that starts a Ray of our own for the run


@dataclass(frozen=True)
class Job:
    """One input to tag into one output; paths as text, since jobs cross process boundaries."""

    input: str
    output: str
    read_format: str | None
    write_format: str
    # Paragraph text is untokenized (predict --tokenize).
    tokenize: bool = False
    # What besides a PDF's body to read (predict --include).
    include: tuple[str, ...] = ()


@dataclass(frozen=True)
class Worker:
    """What every worker needs: the model it loads once (None: the shipped one), and how it
    runs it (the defaults are :func:`~sciner.inference.files.tag_files`')."""

    model: str | None = None
    precision: str = "auto"
    threads: int = THREADS
    batch_subwords: int = BATCH_SUBWORDS
    device: str = "auto"
    paper_level: bool = True  # each input one document to the paper-level pass (Tagger.tag)

    def load(self) -> Tagger:
        import torch

        torch.set_num_threads(self.threads)
        return Tagger.load(self.model, precision=self.precision, device=self.device)


def run_job(tagger: Tagger, job: Job, batch_subwords: int, paper_level: bool = True) -> dict[str, Any]:
    """Tag one input and write its output atomically; returns the attempt's manifest record.

    A failing input is a record with status ``failed`` and its error, never an exception: one
    odd paper among thousands must not stop the run.
    """
    start = time.perf_counter()
    record = _failed(job, "")
    error = None
    try:
        path = Path(job.input)
        paragraphs = read_input(path, job.read_format, tokenize=job.tokenize, include=job.include)
        tagged = tagger.tag(paragraphs, batch_subwords=batch_subwords, paper_level=paper_level,
                            documents=[p.meta.get("doc") for p in paragraphs])
        write_atomic(job.output, render_input(path, tagged, FORMATS[job.write_format]))
        record.update(status="ok", paragraphs=len(tagged), tokens=sum(len(p.tokens) for p in tagged),
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


# --- the manifest ------------------------------------------------------------------------------

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


# --- running the jobs --------------------------------------------------------------------------

def _in_process(jobs: list[Job], worker: Worker) -> Iterator[dict[str, Any]]:
    tagger = worker.load()
    for job in jobs:
        yield run_job(tagger, job, worker.batch_subwords, worker.paper_level)


_TAGGER: Tagger | None = None  # a worker process's model, loaded once by _start_worker
_WORKER: Worker | None = None


def _start_worker(worker: Worker) -> None:
    global _TAGGER, _WORKER
    _exit_with_parent(os.getppid())
    _TAGGER, _WORKER = worker.load(), worker


# How often a worker checks that the run that started it is still there (seconds).
PARENT_CHECK_SECONDS = 0.5


def _exit_with_parent(parent: int) -> None:
    """End this worker process as soon as ``parent`` is gone: a run killed with ``kill -9`` gets no
    chance to stop its pool, and its workers would go on tagging for nobody. When the parent dies
    the worker is handed to another process, so its parent id changes."""
    import threading
    import time

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="sciner-parent-watch", daemon=True).start()


def _run_in_worker(job: Job) -> dict[str, Any]:
    assert _TAGGER is not None and _WORKER is not None
    return run_job(_TAGGER, job, _WORKER.batch_subwords, _WORKER.paper_level)


def _processes(jobs: list[Job], worker: Worker, n: int) -> Iterator[dict[str, Any]]:
    """Jobs run by ``n`` spawned processes (spawn: no copy of the parent's torch threads or locks)."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed
    from concurrent.futures.process import BrokenProcessPool

    pool = ProcessPoolExecutor(n, mp_context=multiprocessing.get_context("spawn"),
                               initializer=_start_worker, initargs=(worker,))
    try:
        futures = {pool.submit(_run_in_worker, job): job for job in jobs}
        for future in as_completed(futures):
            try:
                yield future.result()
            except BrokenProcessPool:  # a worker was killed (out of memory?): the job is retried on --resume
                yield _failed(futures[future], "a worker process died (out of memory?)")
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


class _TaggerActor:
    """A Ray actor holding one model (the class is made remote when Ray is imported)."""

    def __init__(self, worker: Worker) -> None:
        self.worker = worker
        self.tagger = worker.load()

    def run(self, job: Job) -> dict[str, Any]:
        return run_job(self.tagger, job, self.worker.batch_subwords, self.worker.paper_level)


def _import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise MissingExtraError("--ray needs Ray: pip install 'sciner[ray]'") from None
    return ray


def _ray(jobs: list[Job], worker: Worker, n: int, address: str) -> Iterator[dict[str, Any]]:
    """Jobs run by ``n`` Ray actors, each holding the model; ``address`` ``local`` starts a
    Ray of our own on this machine for the run, anything else is a cluster to connect to."""
    ray = _import_ray()
    from ray.util import ActorPool

    quiet = {"include_dashboard": False, "log_to_driver": False, "logging_level": "ERROR"}
    if address == LOCAL_RAY:
        # A new Ray of our own, never one already running here; the records are small: a small store.
        # (Ray 2.60 resolves 127.0.0.1 to the machine's address: its servers are not loopback-only.)
        ray.init(address="local", num_cpus=n * worker.threads, object_store_memory=100 * 2**20, **quiet)
    else:
        ray.init(address=address, **quiet)
    try:
        actor = ray.remote(num_cpus=worker.threads)(_TaggerActor)
        pool = ActorPool([actor.remote(worker) for _ in range(n)])
        yield from pool.map_unordered(lambda a, job: a.run.remote(job), jobs)
    finally:
        ray.shutdown()


# --- one corpus run ----------------------------------------------------------------------------

@dataclass
class CorpusRun:
    """What a corpus run did: this run's records (in the order they finished), the inputs it
    skipped as already done, and its manifest."""

    manifest: Path
    workers: int
    skipped: int = 0
    records: list[dict[str, Any]] = field(default_factory=list)
    seconds: float = 0.0
    # Inputs named that are not there (tag_corpus_files): they never became jobs.
    not_found: list[ScinerError] = field(default_factory=list)

    @property
    def failed(self) -> list[dict[str, Any]]:
        return [r for r in self.records if r["status"] != "ok"]

    def summary(self) -> str:
        """Lines for stderr: what was tagged, skipped and written."""
        ok = [r for r in self.records if r["status"] == "ok"]
        lines = [f"tagged {sum(r['tokens'] for r in ok)} tokens in {sum(r['paragraphs'] for r in ok)} paragraphs "
                 f"from {len(ok)} input file(s) with {self.workers} worker(s) in {self.seconds:.1f} s"]
        if self.skipped:
            lines.append(f"skipped {self.skipped} input(s) already done")
        lines.append(f"wrote {len(ok)} file(s); manifest {self.manifest}")
        return "\n".join(lines)


def corpus_jobs(plan: OutputPlan, read_format: str | None, tokenize: bool = False,
                include: Sequence[str] = ()) -> list[Job]:
    """One job per input of ``plan``, which must write one output per input (``-o DIR``)."""
    if plan.per_input is None:
        raise OutputError("--workers, --resume and --ray write one output per input: "
                          "give -o a directory (an existing one, or a path ending in /)")
    return [Job(str(src), str(dst), read_format, plan.format.name, tokenize, tuple(include))
            for src, dst in plan.per_input.items()]


def tag_corpus(
    plan: OutputPlan,
    output_dir: str | Path,
    worker: Worker,
    *,
    workers: int = 1,
    read_format: str | None = None,
    tokenize: bool = False,
    include: Sequence[str] = (),
    resume: bool = False,
    ray_address: str | None = None,
    show_progress: bool = True,
) -> CorpusRun:
    """Tag every input of ``plan`` into its own output under ``output_dir`` with ``workers``
    workers: this process (1), spawned processes, or Ray actors (``ray_address``: ``local`` or
    a cluster's). Each finished input is appended to ``output_dir/manifest.jsonl``; with
    ``resume``, inputs whose record says ok and whose output is whole are skipped."""
    from tqdm import tqdm

    from sciner.model.store import load_model_meta

    jobs = corpus_jobs(plan, read_format, tokenize, include)
    load_model_meta(worker.model)  # a bad model is one line now, not an error in every worker
    manifest = plan.outputs.check(Path(output_dir) / MANIFEST)
    if any(Path(job.output) == manifest for job in jobs):
        raise OutputError(f"{manifest}: is also the output of an input; the manifest needs that name")
    done = read_manifest(manifest) if resume else {}
    todo = [job for job in jobs if not is_done(job, done.get(job.input))]
    if not resume:
        write_atomic(manifest, "")  # a new run starts a new manifest
    todo.sort(key=lambda job: -_size(job.input))  # biggest first: the long ones start early
    run = CorpusRun(manifest, workers, skipped=len(jobs) - len(todo))
    start = time.perf_counter()
    with tqdm(total=len(todo), desc="tagging", unit="file", disable=not show_progress, file=sys.stderr) as bar:
        for record in _dispatch(todo, worker, workers, ray_address):
            append_line(manifest, json.dumps(record, ensure_ascii=False))
            run.records.append(record)
            bar.update(1)
    run.seconds = time.perf_counter() - start
    return run


def tag_corpus_files(
    inputs: Sequence[str | Path],
    output_dir: str | Path | None,
    worker: Worker = Worker(),
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
) -> CorpusRun:
    """Tag files, folders and globs into ``output_dir`` (an existing folder, or a path ending
    in ``/``; anything else is a one-line error) one input at a time (``sciner predict
    --workers/--resume/--ray``): each output is written when its input is tagged and recorded
    in ``output_dir/manifest.jsonl``. ``workers`` processes (or Ray actors) each run
    ``worker``; see :func:`tag_corpus` for ``resume`` and ``ray_address`` (``local``: a Ray
    of our own); the formats and ``tokenize`` are :func:`~sciner.inference.files.tag_files`'.
    Inputs that name nothing are the run's ``not_found`` (and go to ``on_error``); inputs
    that fail are its ``failed`` records.
    """
    from sciner.pdf import check_include

    not_found: list[ScinerError] = []
    read_format = reading_format(from_format)
    paths = expand_each(inputs, reporter(not_found, on_error), notes=status_line(show_progress))
    plan = plan_outputs(paths, None if output_dir is None else str(output_dir), to_format)
    run = tag_corpus(plan, output_dir or "", worker, workers=workers, read_format=read_format, tokenize=tokenize,
                     include=check_include(include),
                     resume=resume, ray_address=ray_address, show_progress=show_progress)
    run.not_found = not_found
    return run


def _dispatch(jobs: list[Job], worker: Worker, workers: int, ray_address: str | None) -> Iterator[dict[str, Any]]:
    if not jobs:
        return iter(())
    if ray_address is not None:
        return _ray(jobs, worker, workers, ray_address)
    if workers > 1:
        return _processes(jobs, worker, min(workers, len(jobs)))
    return _in_process(jobs, worker)


def _size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def split_threads(total: int, workers: int) -> int:
    """Each worker's torch threads: ``total`` shared out, at least one each."""
    return max(1, total // workers)

