"""The one way sciner writes a file: atomically, into folders it creates, never over an input.

Every file sciner writes (predictions, HTML pages, reports, converted files, models,
checkpoints, calibrated ``model.json``) goes through :func:`write_atomic` or
:func:`atomic_target`: the bytes go to a temporary file in the target's folder, are flushed
and fsynced, and the temporary file is renamed over the target. A crash or ``kill -9`` leaves
the old file or the new one, never half of one. Written files get mode 0644. A log that
grows line by line (a corpus run's manifest) is appended with :func:`append_line`. A target
that is not a regular file (``/dev/null``, ``/dev/stdout``, a named pipe, a terminal) is
written through, never replaced: renaming a file over ``/dev/null`` breaks the machine.

:class:`Outputs` plans the files of one run: it refuses any target that is one of the run's
inputs, and with a directory as ``-o`` it mirrors the inputs' relative paths, so two inputs
with the same name never write the same output.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import tempfile
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path

from sciner.errors import OutputError

FILE_MODE = 0o644


def _prepare_folder(path: Path) -> None:
    """Create ``path``'s parent folders; refuse a target that is an existing directory."""
    if path.is_dir():
        raise OutputError(f"{path}: is a directory; give a file name")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        raise OutputError(f"{path}: cannot create folder {path.parent} (a file of that name exists)") from None
    except PermissionError:
        raise OutputError(f"{path}: no permission to create folder {path.parent}") from None


def writes_through(path: str | Path) -> bool:
    """True when ``path`` is to be written into rather than replaced: it exists and is not a
    regular file or a folder (a device, a named pipe, a socket), or it leads into ``/proc``
    (``/dev/stdout``, ``/dev/fd/1``: links to whatever standard output is, a regular file
    included, and the link itself must survive)."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)) or _leads_into_proc(path)


def _leads_into_proc(path: str | Path) -> bool:
    """True when ``path``'s folder, or a link it follows, lies in ``/proc``."""
    current = os.path.abspath(path)
    for _ in range(16):  # a link chain longer than the kernel's own limit is not followed
        parent = os.path.realpath(os.path.dirname(current))
        if parent == "/proc" or parent.startswith("/proc/"):
            return True
        current = os.path.join(parent, os.path.basename(current))
        if not os.path.islink(current):
            return False
        current = os.path.join(parent, os.readlink(current))
    return False


@contextlib.contextmanager
def atomic_target(path: str | Path) -> Iterator[Path]:
    """A temporary path to write ``path``'s new content to; renamed over ``path`` on success.

    For writers that need a path of their own (``torch.save``, safetensors, matplotlib,
    spaCy's ``to_disk``). On any error the temporary file is removed and ``path`` is untouched.
    A :func:`writes_through` target gets the temporary file's bytes written into it instead.
    """
    path = Path(path)
    if writes_through(path):
        with tempfile.TemporaryDirectory(prefix="sciner-out-") as folder:
            tmp = Path(folder) / path.name
            tmp.touch()
            yield tmp
            _write_through(path, tmp)
        return
    _prepare_folder(path)
    try:
        fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except PermissionError:
        raise OutputError(f"{path}: no permission to write in {path.parent}") from None
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        yield tmp
        with open(tmp, "rb+") as handle:
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, FILE_MODE)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    _fsync_folder(path.parent)


def _write_through(path: Path, content: Path) -> None:
    """Copy ``content``'s bytes into the existing special file ``path``."""
    try:
        with open(content, "rb") as source, open(path, "wb") as target:
            shutil.copyfileobj(source, target)
    except FileNotFoundError:
        raise OutputError(f"{path}: no such device or file") from None
    except PermissionError:
        raise OutputError(f"{path}: no permission to write") from None
    except OSError as err:
        raise OutputError(f"{path}: cannot write ({err.strerror or err})") from None


def write_atomic(path: str | Path, data: str | bytes) -> Path:
    """Write ``data`` (text is UTF-8) to ``path`` atomically; returns ``path``."""
    payload = data.encode("utf-8") if isinstance(data, str) else data
    with atomic_target(path) as tmp:
        tmp.write_bytes(payload)
    return Path(path)


def append_line(path: str | Path, line: str) -> Path:
    """Append ``line`` to a log file (a corpus run's manifest), flushed and fsynced: a crash
    loses at most the line being written. A last line cut short by an earlier crash is ended
    first, so the new line stays whole. The one kind of write that is not a rename: a log grows."""
    path = Path(path)
    _prepare_folder(path)
    with open(path, "ab+") as handle:
        if handle.seek(0, os.SEEK_END):
            handle.seek(-1, os.SEEK_END)
            if handle.read(1) != b"\n":
                handle.write(b"\n")
        handle.write(line.rstrip("\n").encode("utf-8") + b"\n")
        handle.flush()
        os.fsync(handle.fileno())
    return path


def _fsync_folder(folder: Path) -> None:
    """Make the rename itself durable (where the platform allows opening a folder)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _file_id(path: Path) -> tuple[int, int] | None:
    """The (device, inode) of an existing file, as :func:`os.path.samefile` compares them."""
    try:
        status = os.stat(path)
    except OSError:
        return None
    return status.st_dev, status.st_ino


def wants_directory(output: str | Path) -> bool:
    """True when ``-o`` names a directory: an existing one, or a path written with a trailing slash."""
    text = str(output)
    return text.endswith(("/", os.sep)) or Path(text).is_dir()


class Outputs:
    """The output files of one run, checked against its inputs before anything is written."""

    def __init__(self, inputs: Sequence[str | Path]) -> None:
        self.inputs = [Path(p) for p in inputs]
        # Each input once, by path and by file identity (a link or another spelling of the same
        # file): checking a target is then two lookups, not a walk over every input.
        self._paths = {p.resolve() for p in self.inputs}
        self._files = {_file_id(p) for p in self.inputs} - {None}

    def check(self, target: str | Path) -> Path:
        """``target`` as a Path, or :class:`OutputError` when it is one of the run's inputs."""
        target = Path(target)
        if target.resolve() in self._paths or (self._files and _file_id(target) in self._files):
            raise OutputError(f"{target}: is also an input of this run; refusing to write over it")
        return target

    def mirrored(self, output_dir: str | Path, inputs: Sequence[Path], suffix: str) -> list[Path]:
        """One target per input under ``output_dir``, keeping the inputs' paths relative to their
        common folder, with ``suffix`` as the extension; every target checked."""
        output_dir = Path(output_dir)
        resolved = [p.resolve() for p in inputs]
        if len(resolved) == 1:
            base = resolved[0].parent
        else:
            base = Path(os.path.commonpath([p.parent for p in resolved]))
        relative = [p.relative_to(base) for p in resolved]
        targets = [output_dir / r.with_suffix(suffix) for r in relative]
        # paper.pdf and paper.txt side by side keep their full names: paper.pdf.conll, paper.txt.conll.
        counts = Counter(targets)
        clashing = {t for t in targets if counts[t] > 1}
        targets = [self.check(output_dir / r.parent / (r.name + suffix) if t in clashing else t)
                   for r, t in zip(relative, targets)]
        seen: dict[Path, Path] = {}
        for source, target in zip(inputs, targets):
            if target in seen:
                raise OutputError(f"{seen[target]} and {source} would both be written to {target}")
            seen[target] = source
        return targets

    def write(self, target: str | Path, data: str | bytes) -> Path:
        """Check ``target`` and write ``data`` to it atomically."""
        return write_atomic(self.check(target), data)
