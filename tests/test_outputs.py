"""The one atomic writer: temp file + rename, parents created, inputs never overwritten, mirrored names."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from sciner.errors import OutputError
from sciner.outputs import Outputs, atomic_target, wants_directory, write_atomic


def test_write_atomic_creates_parents_and_sets_mode(tmp_path: Path) -> None:
    target = tmp_path / "a" / "b" / "out.conll"
    write_atomic(target, "x\tO\n")
    assert target.read_text() == "x\tO\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o644
    assert [p.name for p in target.parent.iterdir()] == ["out.conll"]  # no temporary file left


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path: Path) -> None:
    target = tmp_path / "model.json"
    target.write_text("old")
    with pytest.raises(RuntimeError):
        with atomic_target(target) as tmp:
            tmp.write_text("half of the new")
            raise RuntimeError("killed while writing")
    assert target.read_text() == "old"
    assert os.listdir(tmp_path) == ["model.json"]


def test_a_directory_is_not_a_file_target(tmp_path: Path) -> None:
    with pytest.raises(OutputError, match="is a directory"):
        write_atomic(tmp_path, "x")


def test_a_parent_that_is_a_file_is_a_one_line_error(tmp_path: Path) -> None:
    (tmp_path / "f").write_text("")
    with pytest.raises(OutputError, match="cannot create folder"):
        write_atomic(tmp_path / "f" / "out.txt", "x")


def test_inputs_are_never_targets(tmp_path: Path) -> None:
    source = tmp_path / "self.txt"
    source.write_text("We use BERT .\n")
    outputs = Outputs([source])
    with pytest.raises(OutputError, match="is also an input"):
        outputs.write(tmp_path / "." / "self.txt", "overwritten")
    assert source.read_text() == "We use BERT .\n"


def test_mirrored_targets_keep_relative_paths_and_never_collide(tmp_path: Path) -> None:
    inputs = [tmp_path / "x.txt", tmp_path / "sub" / "x.txt", tmp_path / "paper.pdf", tmp_path / "paper.txt"]
    for p in inputs:
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text("a\n")
    targets = Outputs(inputs).mirrored(tmp_path / "out", inputs, ".conll")
    assert [t.relative_to(tmp_path / "out").as_posix() for t in targets] == [
        "x.conll", "sub/x.conll", "paper.pdf.conll", "paper.txt.conll"]


def test_mirroring_into_the_input_folder_refuses_an_input(tmp_path: Path) -> None:
    gold = tmp_path / "g" / "gold.conll"
    gold.parent.mkdir()
    gold.write_text("a\tO\n")
    with pytest.raises(OutputError, match="is also an input"):
        Outputs([gold]).mirrored(tmp_path / "g", [gold], ".conll")


def test_wants_directory(tmp_path: Path) -> None:
    assert wants_directory(tmp_path)
    assert wants_directory(f"{tmp_path}/new/")
    assert not wants_directory(tmp_path / "new.conll")


def test_a_resumable_folder_continues_only_the_same_settings(tmp_path):
    import json

    from sciner.errors import ConfigError
    from sciner.data.resumable import refuse_other_settings

    record = tmp_path / "cache" / "meta.json"
    refuse_other_settings(record, {"per_part": 10}, ["per_part"], "a cache of", "raw_cache")  # nothing there yet
    record.parent.mkdir()
    record.write_text(json.dumps({"vocab_hash": "a", "per_part": 10}), encoding="utf-8")
    refuse_other_settings(record, {"vocab_hash": "a", "per_part": 10}, ["vocab_hash", "per_part"], "a cache of", "raw_cache")
    with pytest.raises(ConfigError, match=r"cache: a cache of another vocab_hash; choose another raw_cache folder$"):
        refuse_other_settings(record, {"vocab_hash": "b", "per_part": 10}, ["vocab_hash", "per_part"], "a cache of", "raw_cache")


def test_an_input_is_refused_as_a_target_under_any_name(tmp_path, monkeypatch):
    from sciner.errors import OutputError
    from sciner.outputs import Outputs

    paper = tmp_path / "paper.txt"
    paper.write_text("We use BERT .\n", encoding="utf-8")
    (tmp_path / "alias.txt").symlink_to(paper)
    os.link(paper, tmp_path / "hard.txt")
    monkeypatch.chdir(tmp_path)
    outputs = Outputs([paper])
    for name in (paper, "paper.txt", "./sub/../paper.txt", tmp_path / "alias.txt", tmp_path / "hard.txt"):
        with pytest.raises(OutputError, match="is also an input of this run"):
            outputs.check(name)
    assert outputs.check(tmp_path / "paper.conll") == tmp_path / "paper.conll"


def test_planning_many_outputs_is_not_quadratic(tmp_path):
    """Regression: every target was checked against every input by path resolution and
    samefile: 24 s to plan 1,000 inputs into a folder (0.2 s for 3,000 now)."""
    import time

    from sciner.outputs import Outputs

    inputs = [tmp_path / "in" / f"p{i}.txt" for i in range(2000)]
    inputs[0].parent.mkdir()
    for path in inputs:
        path.write_text("x\n", encoding="utf-8")
    start = time.perf_counter()
    targets = Outputs(inputs).mirrored(tmp_path / "out", inputs, ".conll")
    assert len(set(targets)) == 2000
    assert time.perf_counter() - start < 5.0


# --- special files: written through, never replaced (issue 23) --------------------------------

def _null_device(folder: Path) -> Path:
    """A character device like /dev/null made with mknod (root only; skipped elsewhere)."""
    node = folder / "null"
    try:
        os.mknod(node, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except PermissionError:
        pytest.skip("mknod needs root")
    return node


def test_a_device_node_is_written_through_not_replaced(tmp_path: Path) -> None:
    node = _null_device(tmp_path)
    write_atomic(node, "We\tO\n")
    with atomic_target(node) as tmp:  # writers that need a path (torch.save, safetensors) too
        tmp.write_bytes(b"weights")
    assert stat.S_ISCHR(node.stat().st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["null"]  # no temporary left beside it


def test_a_named_pipe_receives_the_bytes(tmp_path: Path) -> None:
    import threading

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()))
    reader.start()
    write_atomic(fifo, "BERT\tB-MethodName\n")
    reader.join(timeout=10)
    assert received == [b"BERT\tB-MethodName\n"]
    assert stat.S_ISFIFO(fifo.stat().st_mode)


def test_which_targets_are_written_through(tmp_path: Path) -> None:
    from sciner.outputs import writes_through

    regular = tmp_path / "out.conll"
    regular.write_text("")
    assert not writes_through(regular) and not writes_through(tmp_path / "new.conll")
    assert not writes_through(tmp_path)
    assert writes_through("/dev/null")
    # /dev/stdout is a link into /proc, whatever standard output is (here a pipe or a file).
    assert writes_through("/dev/stdout")
    fd = os.open(regular, os.O_RDONLY)
    try:
        assert writes_through(f"/proc/self/fd/{fd}")  # a link into /proc to a regular file
    finally:
        os.close(fd)


def test_predict_onto_a_device_node_and_a_stdout_link_keeps_them(tmp_path: Path) -> None:
    """End to end through `sciner predict -o`. The link stands in for /dev/stdout (a link into
    /proc): a regression must break a file of this test, never the machine's /dev/stdout."""
    import subprocess
    import sys

    node = _null_device(tmp_path)
    stdout_link = tmp_path / "stdout"
    stdout_link.symlink_to("/proc/self/fd/1")
    (tmp_path / "in.txt").write_text("We fine - tune BERT .\n")
    out = tmp_path / "redirected.conll"
    for target in (node, stdout_link):
        with open(out, "w") as stdout:
            done = subprocess.run([sys.executable, "-m", "sciner", "predict", "in.txt", "-o", str(target), "-q"],
                                  cwd=tmp_path, stdout=stdout, stderr=subprocess.PIPE, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
    assert stat.S_ISCHR(node.stat().st_mode)
    assert stdout_link.is_symlink() and os.readlink(stdout_link) == "/proc/self/fd/1"
    assert out.read_text().splitlines()[4] == "BERT\tB-MethodName"  # what the link got: the redirected file
