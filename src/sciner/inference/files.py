"""Tagging whole files: expand the inputs (files, folders, globs, ``-`` for standard input),
plan the outputs, read each input, tag everything with one progress bar.

Outputs are planned and checked against the inputs before anything is read or tagged, so a
run that would write over an input (or into a folder that cannot exist) stops at once.
"""

from __future__ import annotations

import glob
import os
import sys
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from sciner.document import Paragraph
from sciner.errors import InputFormatError, InputNotFoundError, OutputError, ScinerError
from sciner.formats.registry import (
    FORMATS, READ_FORMATS, WRITE_FORMATS, Format, input_format, output_format, reading_format, refuse_binary,
    suffix_format,
)
from sciner.inference.tagger import Tagger
from sciner.model.batching import BATCH_SUBWORDS
from sciner.outputs import Outputs, wants_directory
from sciner.stdio import display_name, file_names, is_stdio, is_stream, readable, write_stdout

# What predict can write: every format that holds entities.
PREDICT_FORMATS: tuple[str, ...] = tuple(n for n in WRITE_FORMATS if FORMATS[n].carries_entities)
# predict's default torch CPU threads (the --workers share them out).
THREADS = 2
# Beside papers a .tsv is more often a table (pdfs/PDF_LIST.tsv) than CoNLL: it is read as
# CoNLL when named, never swept in from a folder.
NAMED_ONLY_SUFFIXES: tuple[str, ...] = (".tsv",)


def folder_suffixes(formats: tuple[str, ...]) -> list[str]:
    """The suffixes that a folder is expanded to for a verb reading ``formats``."""
    return [s for n in formats for s in FORMATS[n].suffixes if s not in NAMED_ONLY_SUFFIXES]


def _found_in_folder(path: Path, formats: tuple[str, ...]) -> bool:
    fmt = suffix_format(path)
    return (fmt is not None and fmt.name in formats and path.is_file()
            and not path.name.lower().endswith(NAMED_ONLY_SUFFIXES))


def walk_folder(folder: Path, formats: tuple[str, ...]) -> tuple[list[Path], Counter[str]]:
    """The files of ``folder`` and of every folder below it whose suffix is one of ``formats``
    (sorted by path; hidden files and folders left out), and how many others were skipped, by
    why: "hidden", "named only" (a .tsv) or their suffix."""
    found: list[Path] = []
    skipped: Counter[str] = Counter()
    for root, dirs, names in os.walk(folder):
        skipped["hidden"] += sum(d.startswith(".") for d in dirs)
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in names:
            path = Path(root) / name
            if name.startswith("."):
                skipped["hidden"] += 1
            elif _found_in_folder(path, formats):
                found.append(path)
            elif name.lower().endswith(NAMED_ONLY_SUFFIXES):
                skipped["named only"] += 1
            else:
                skipped[path.suffix.lower() or "no suffix"] += 1
    return sorted(found), +skipped  # + drops the reasons counted zero times


def describe_skipped(folder: Path, found: int, skipped: Counter[str]) -> str:
    """One line saying what a folder gave and what it left out, and why."""
    why = {"hidden": "hidden", "named only": ".tsv: read as CoNLL only when named"}
    parts = [f"{n} {why.get(reason, reason)}" for reason, n in sorted(skipped.items(), key=lambda kv: (-kv[1], kv[0]))]
    return f"{folder}: {found} file(s) to read; skipped {sum(skipped.values())} ({', '.join(parts)})"


def expand_inputs(items: list[str], formats: tuple[str, ...] = READ_FORMATS,
                  notes: Callable[[str], object] | None = None) -> list[Path]:
    """Files named directly (``-`` is standard input), the files of a named directory and of the
    directories below it whose suffix is one of ``formats`` (sorted; never a .tsv, nothing
    hidden), and glob matches. What a directory left out goes to ``notes`` as one line."""
    paths: list[Path] = []
    for item in items:
        p = Path(item)
        if is_stdio(item):
            paths.append(p)
        elif p.is_dir():
            found, skipped = walk_folder(p, formats)
            if not found:
                suffixes = ", ".join(folder_suffixes(formats))
                raise InputNotFoundError(f"{p}: directory holds no file to read here ({suffixes})")
            if skipped and notes is not None:
                notes(describe_skipped(p, len(found), skipped))
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


def expand_each(items: Sequence[str | Path], on_error: Callable[[ScinerError], object],
                formats: tuple[str, ...] = READ_FORMATS, notes: Callable[[str], object] | None = None) -> list[Path]:
    """The input files of ``items`` (files, folder trees of ``formats``, globs, ``-``); an item
    that names nothing goes to ``on_error``, and the others are still expanded; what a folder
    left out goes to ``notes``."""
    paths: list[Path] = []
    for item in items:
        try:
            paths.extend(expand_inputs([str(item)], formats=formats, notes=notes))
        except ScinerError as err:
            on_error(err)
    # A file named twice (a folder and a file in it) is read once, where it first came.
    return list(dict.fromkeys(paths))


def status_line(show: bool) -> Callable[[str], object] | None:
    """A printer of status lines on stderr (above a progress bar, not through it), or None when
    they are silenced (``-q``)."""
    if not show:
        return None
    from tqdm import tqdm

    return lambda line: tqdm.write(line, file=sys.stderr)


def read_input(path: Path, fmt: str | None = None, *, tokenize: bool = False,
               include: Sequence[str] = ()) -> list[Paragraph]:
    """Paragraphs of one input file in any readable format; their entities, if any, are dropped.

    ``-`` (or ``/dev/stdin``, a pipe) is read once from the stream, in ``fmt``, else in the
    format its content shows (paragraph text unless unmistakably another). With ``tokenize``
    paragraph text is untokenized text, one paragraph per line (see :func:`read_raw_text`).
    ``include`` adds a PDF's table rows, captions and footnotes (:data:`sciner.pdf.INCLUDE`).
    A file the system will not let us read (permissions, a folder, a device error) is a
    :class:`~sciner.errors.InputNotFoundError` naming it, like a missing one.
    """
    stream = is_stream(path)
    try:
        with readable(path) as local:
            paragraphs = _read(local, fmt, tokenize, include)
    except OSError as err:
        raise InputNotFoundError(f"{display_name(path)}: cannot be read ({err.strerror or type(err).__name__})") from None
    for p in paragraphs:
        p.spans = None
        if stream:  # the paragraphs came from a temporary copy: name the stream
            p.source = display_name(path)
    return paragraphs


def _read(path: Path, fmt: str | None, tokenize: bool, include: Sequence[str] = ()) -> list[Paragraph]:
    chosen = input_format(path, fmt)
    if include and chosen.name == "pdf":
        from sciner.pdf import read_pdf_paragraphs

        return read_pdf_paragraphs(path, include=include)
    # A PDF's paragraphs are always tokenized the task's way; tagged formats carry their tokens.
    if tokenize and chosen.name != "pdf":
        if chosen.name != "text":
            raise InputFormatError(f"{path}: --tokenize reads untokenized text, one paragraph per line; "
                                   f"a {chosen.name} file carries its own tokens")
        return read_raw_text(path)
    paragraphs = chosen.read(path)  # type: ignore[misc]
    if chosen.name == "text":
        warn_if_untokenized(paragraphs, path)
    return paragraphs


_warned_untokenized = False  # the warning is said once a run, not once per input


def warn_if_untokenized(paragraphs: list[Paragraph], path: Path) -> None:
    """Say once, on stderr, when text read as tokenized looks untokenized (punctuation glued to
    words gets worse tags), with the share of such tokens and the option that tokenizes it."""
    global _warned_untokenized
    from sciner.tokenize import GLUED_WARNING_SHARE, glued_share

    if _warned_untokenized:
        return
    share, examples = glued_share(p.tokens for p in paragraphs)
    if share > GLUED_WARNING_SHARE:
        _warned_untokenized = True
        print(f"warning: {display_name(path)}: {share:.0%} of the tokens have punctuation glued to them "
              f"({', '.join(repr(t) for t in examples)}): the text looks untokenized; pass --tokenize "
              "to tokenize it as the task's inputs were", file=sys.stderr)


def read_raw_text(path: Path) -> list[Paragraph]:
    """Untokenized text, one paragraph per non-blank line, tokenized with the task's tokenizer
    (:mod:`sciner.tokenize`): the tokens the task's inputs would have had."""
    from sciner.formats.textfile import read_lines
    from sciner.tokenize import tokenize_paragraphs

    numbered = [(n, line) for n, line in enumerate(read_lines(path), start=1) if line.strip()]
    token_lists = tokenize_paragraphs(line for _, line in numbered)
    return [Paragraph(tokens, source=str(path), line=n) for (n, _), tokens in zip(numbered, token_lists)]


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
    """The outputs of tagging ``paths`` into ``output`` (a file, a folder, or None or ``-`` for
    stdout) in ``to_format`` (default: ``output``'s suffix, else conll), every one checked: none
    is an input, every folder can be created, the format holds entities."""
    output = None if is_stdio(output) else output
    single = output is not None and not wants_directory(output)
    if single:
        Outputs(paths).check(output)  # first: "that is an input" says more than "that format holds no tags"
    fmt = output_format(output if single else None, to_format)
    if fmt.name not in PREDICT_FORMATS:
        raise OutputError(f"predict writes entities, which {fmt.name} files cannot hold; "
                          f"expected one of {', '.join(PREDICT_FORMATS)}")
    return plan_files(paths, output, fmt)


def plan_files(paths: list[Path], output: str | None, fmt: Format) -> OutputPlan:
    """The outputs of a run writing ``paths``' paragraphs in ``fmt`` (predict, extract) into
    ``output``: standard output (None or ``-``; never a binary format), one file, or a folder
    (an existing one, or ending in ``/``) mirroring the inputs' paths. Every target checked
    before any input is read: none is an input, every folder can be created."""
    output = None if is_stdio(output) else output
    outputs = Outputs(paths)
    if output is None:
        refuse_binary(fmt)
        return OutputPlan(fmt, outputs)
    if wants_directory(output):
        targets = outputs.mirrored(output, file_names(paths), fmt.suffixes[0]) if paths else []
        for target in targets:
            _check_folder_can_exist(target)
        return OutputPlan(fmt, outputs, per_input=dict(zip(paths, targets)))
    target = outputs.check(output)
    _check_folder_can_exist(target)
    return OutputPlan(fmt, outputs, target=target)


def tag_read(
    tagger: Tagger, read: list[tuple[Path, list[Paragraph]]], *, batch_subwords: int, show_progress: bool,
    paper_level: bool = True, progress: Callable[[int], object] | None = None,
) -> list[tuple[Path, list[Paragraph]]]:
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


# Inputs are read, tagged and (one output per input) written a chunk at a time: whole inputs
# (papers) until a chunk holds this many tokens, so memory is bounded by a chunk however many
# inputs a run has, and enough paragraphs are batched together to keep the encoder busy.
CHUNK_TOKENS = 200_000


def read_chunks(
    paths: list[Path], fmt: str | None, *, on_error: Callable[[Path, ScinerError], object], tokenize: bool = False,
    include: Sequence[str] = (), chunk_tokens: int = CHUNK_TOKENS, on_read: Callable[[Path], object] | None = None,
) -> Iterator[list[tuple[Path, list[Paragraph]]]]:
    """The readable inputs' paragraphs (see :func:`read_input`), whole inputs at a time, each
    chunk at least ``chunk_tokens`` tokens (but the last) unless one input is larger;
    unreadable files go to ``on_error``, and every file read or not to ``on_read``."""
    chunk: list[tuple[Path, list[Paragraph]]] = []
    tokens = 0
    for path in paths:
        try:
            paragraphs = read_input(path, fmt, tokenize=tokenize, include=include)
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


def render_input(path: Path, paragraphs: list[Paragraph], fmt: Format) -> str | bytes:
    """The content of ``path``'s own output (one output per input): the serial run and the
    corpus runner both write exactly this, so their outputs are byte for byte the same."""
    from sciner.formats.registry import render

    return render(paragraphs, fmt, title=path.name)


def write_outputs(plan: OutputPlan, results: list[tuple[Path, list[Paragraph]]]) -> list[Path]:
    """Write the tagged files as planned (each atomically); returns the files written.

    With no results nothing is written, so an existing output is left as it was. Several inputs
    written together keep their boundaries (see :func:`name_documents`).
    """
    from sciner.formats.registry import render

    if not results:
        return []
    if plan.per_input is not None:
        return [plan.outputs.write(plan.per_input[path], render_input(path, ps, plan.format)) for path, ps in results]
    if len(results) > 1:  # one document needs no boundary
        name_documents(results)
    everything = [p for _, ps in results for p in ps]
    content = render(everything, plan.format, title=", ".join(p.name for p, _ in results))
    if plan.target is None:
        write_stdout(content)
        return []
    return [plan.outputs.write(plan.target, content)]


def name_documents(results: list[tuple[Path, list[Paragraph]]]) -> None:
    """Name each paragraph's input in its ``meta["doc"]`` (the path as given): CoNLL writes a
    ``-DOCSTART-`` line where a document begins, JSONL a ``doc`` on every paragraph."""
    for path, paragraphs in results:
        for p in paragraphs:
            p.meta["doc"] = display_name(path)


@dataclass
class TaggedFiles:
    """What :func:`tag_files` did: the inputs tagged (in input order, with their paragraphs),
    the files written, and the inputs that failed (each error names its input)."""

    tagged: list[tuple[Path, list[Paragraph]]] = field(default_factory=list)
    written: list[Path] = field(default_factory=list)
    failed: list[ScinerError] = field(default_factory=list)
    inputs: int = 0  # inputs tagged, with their paragraphs, tokens and entities per type
    paragraphs: int = 0
    tokens: int = 0
    entities: Counter[str] = field(default_factory=Counter)

    def count(self, tagged: list[tuple[Path, list[Paragraph]]]) -> None:
        """Add ``tagged`` inputs to the counts."""
        self.inputs += len(tagged)
        for _, ps in tagged:
            self.paragraphs += len(ps)
            self.tokens += sum(len(p.tokens) for p in ps)
            self.entities.update(s.label for p in ps for s in p.spans or [])

    def summary(self) -> str:
        """Lines for stderr: tokens, paragraphs and inputs tagged, entities per type, files written."""
        if not self.inputs:
            return ""
        lines = [f"tagged {self.tokens} tokens in {self.paragraphs} paragraphs from {self.inputs} input file(s)"]
        lines += [f"  {label:<20} {n}" for label, n in sorted(self.entities.items(), key=lambda kv: -kv[1])]
        if len(self.written) == 1:
            lines.append(f"wrote {self.written[0]}")
        elif self.written:
            lines.append(f"wrote {len(self.written)} files")
        return "\n".join(lines)


def reporter(failed: list[ScinerError], on_error: Callable[[ScinerError], object] | None) -> Callable[[ScinerError], None]:
    """Keep each error in ``failed`` and pass it on to ``on_error`` (a CLI prints it at once)."""

    def report(err: ScinerError) -> None:
        failed.append(err)
        if on_error is not None:
            on_error(err)

    return report


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
) -> TaggedFiles:
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
    on its own (see :meth:`Tagger.tag`). ``threads`` sets torch's CPU threads.

    Inputs are read, tagged and, one output per input, written a chunk of whole inputs at a
    time (:data:`CHUNK_TOKENS`); ``keep=False`` leaves the result's ``tagged`` empty (its
    counts and summary stay), so that with one output per input memory stays bounded by a
    chunk however many inputs there are. For a corpus written input by input, with workers
    and a manifest to resume from, see :func:`sciner.inference.corpus.tag_corpus_files`.
    """
    from tqdm import tqdm

    from sciner.pdf import check_include

    done = TaggedFiles()
    report = reporter(done.failed, on_error)
    read_format = reading_format(from_format)
    paths = expand_each(inputs, report, notes=status_line(show_progress))
    plan = plan_outputs(paths, None if output is None else str(output), to_format)
    reading = tqdm(total=len(paths), desc="reading", unit="file", disable=not show_progress or len(paths) < 2,
                   file=sys.stderr)
    chunks = read_chunks(paths, read_format, on_error=lambda path, err: report(err), tokenize=tokenize,
                         include=check_include(include), chunk_tokens=CHUNK_TOKENS, on_read=lambda _: reading.update())
    together: list[tuple[Path, list[Paragraph]]] = []  # one output for every input: written at the end
    tagger: Tagger | None = None
    bar: tqdm | None = None  # drawn once the first chunk is read, so that it starts with a total
    try:
        for chunk in chunks:
            tokens = sum(len(p.tokens) for _, ps in chunk for p in ps)
            if tagger is None:
                import torch

                torch.set_num_threads(threads)
                tagger = Tagger.load(model, precision=precision, device=device)
            if bar is None:
                bar = tqdm(total=tokens, desc="tagging", unit="tok", unit_scale=True, disable=not show_progress,
                           file=sys.stderr)
            else:
                bar.total += tokens
                bar.refresh()
            tagged = tag_read(tagger, chunk, batch_subwords=batch_subwords, show_progress=False,
                              paper_level=paper_level, progress=bar.update)
            done.count(tagged)
            if plan.per_input is not None:  # each input's output as soon as it is tagged
                done.written += write_outputs(plan, tagged)
            else:
                together += tagged
            if keep:
                done.tagged += tagged
    finally:
        reading.close()
        if bar is not None:
            bar.close()
    if plan.per_input is None:
        done.written = write_outputs(plan, together)
    return done
