"""README's examples run as written (issue 33 item 11): every ```bash and ```python block, in
order, in a fresh folder laid out like a checkout beside ../shared/data (so nothing lands in
the repository), with this checkout's sciner. A block preceded by ``<!-- readme-test: skip
REASON -->`` is skipped, for one of the reasons below; nothing in a block is substituted."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
README = REPO / "README.md"
# Why a block may be skipped: it installs packages, runs the test suite, starts a server, needs
# Ray, or tags the whole shared corpus (minutes).
SKIP_REASONS = {"installs", "tests", "server", "ray", "long"}
# Folders of the checkout that running the examples may change without writing into it: git's,
# Python's byte code (the examples import this checkout's sciner) and the test runners' caches.
NOT_WRITTEN = {".git", "__pycache__", ".pytest_cache", ".hypothesis", ".benchmarks"}
BLOCK = re.compile(r"(?:<!-- readme-test: skip (?P<skip>\w+) -->\n)?```(?P<lang>bash|python)\n(?P<code>.*?)```", re.S)


def blocks(text: str | None = None) -> list[tuple[str, str, str | None]]:
    """(language, code, skip reason or None) of each shell and Python block of ``text`` (README), in order."""
    text = README.read_text(encoding="utf-8") if text is None else text
    return [(m["lang"], m["code"], m["skip"]) for m in BLOCK.finditer(text)]


def checkout_files(root: Path) -> dict[str, int]:
    """Each file under ``root`` that git does not track (path relative to it -> modification
    time in ns), the folders of :data:`NOT_WRITTEN` left out: what README's examples must leave
    as it was. (A tracked file changed meanwhile is someone's edit, and git shows it.)"""
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=root, capture_output=True, text=True)
    tracked = set(listed.stdout.split("\0")) if listed.returncode == 0 else set()
    found = {}
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d not in NOT_WRITTEN]
        for name in files:
            path = Path(folder, name)
            relative = path.relative_to(root).as_posix()
            if relative not in tracked:
                found[relative] = path.lstat().st_mtime_ns
    return found


def written_into(before: dict[str, int], after: dict[str, int]) -> list[str]:
    """The files of ``after`` (:func:`checkout_files`) new or changed since ``before``."""
    return sorted(path for path, mtime in after.items() if before.get(path) != mtime)


def test_the_checkout_s_own_out_folder_is_not_blamed_and_an_example_writing_into_it_is(tmp_path):
    """README's first command writes out/scibert.conll into the checkout; its second then failed
    this module ("README's examples wrote into the checkout"), as the check looked for that file.
    The check is now what the examples change: nothing when they write in their own folder."""
    checkout = tmp_path / "sciner"
    (checkout / "src" / "__pycache__").mkdir(parents=True)
    (checkout / "README.md").write_text("# sciner\n")
    subprocess.run(["git", "init", "-q"], cwd=checkout, check=True)
    subprocess.run(["git", "add", "README.md"], cwd=checkout, check=True)
    (checkout / "out").mkdir()
    (checkout / "out" / "scibert.conll").write_text("-DOCSTART- -X- O O\n")  # README's first command
    before = checkout_files(checkout)
    assert "out/scibert.conll" in before and "README.md" not in before
    (checkout / "src" / "__pycache__" / "x.cpython-311.pyc").write_bytes(b"")  # an import, no write
    (checkout / "README.md").write_text("# sciner, edited meanwhile\n")  # tracked: git shows it
    assert written_into(before, checkout_files(checkout)) == []
    (checkout / "out" / "scibert-summary.csv").write_text("kind,name\n")  # an example writing into it
    assert written_into(before, checkout_files(checkout)) == ["out/scibert-summary.csv"]
    os.utime(checkout / "out" / "scibert.conll", ns=(0, 0))  # or over the user's own file
    assert written_into(before, checkout_files(checkout)) == ["out/scibert-summary.csv", "out/scibert.conll"]


def test_every_skip_names_a_reason_and_most_blocks_run():
    found = blocks()
    assert {skip for _, _, skip in found if skip} <= SKIP_REASONS
    assert sum(1 for _, _, skip in found if skip is None) >= 5
    # The two fresh-machine commands stay two: install and tag a paper; install and run the tests.
    fresh = README.read_text(encoding="utf-8").split("## Two commands for a fresh machine")[1].split("\n## ")[0]
    commands = [code.strip() for lang, code, _ in blocks(fresh)]
    assert len(commands) == 2 and all(c.count("\n") == 0 for c in commands)
    assert commands[0].startswith("pip install -e . && sciner predict ") and "-o out/" in commands[0]
    assert commands[1] == "pip install -e '.[test]' && python -m pytest -q"


@pytest.mark.slow
def test_readme_examples_run_as_written(shared_data, tmp_path):
    checkout = tmp_path / "sciner"
    checkout.mkdir()
    (tmp_path / "shared").symlink_to(shared_data.parent, target_is_directory=True)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO / "src"), os.environ.get("PYTHONPATH")]))}
    env.pop("SCINER_DATA", None)  # README's paths are ../shared/data, from the checkout
    bin_dir = tmp_path / "bin"  # `sciner` and `python` as a user of this checkout has them
    bin_dir.mkdir()
    (bin_dir / "sciner").write_text(f'#!/bin/sh\nexec "{sys.executable}" -m sciner "$@"\n')
    (bin_dir / "sciner").chmod(0o755)
    (bin_dir / "python").symlink_to(sys.executable)
    env["PATH"] = f"{bin_dir}{os.pathsep}{env['PATH']}"
    printed = []
    before = checkout_files(REPO)  # README's first command may have left out/ there: the user's, not the examples'
    for lang, code, skip in blocks():
        if skip:
            continue
        command = ["bash", "-euo", "pipefail", "-c", code] if lang == "bash" else [sys.executable, "-c", code]
        done = subprocess.run(command, cwd=checkout, env=env, capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, f"README block failed:\n{code}\nstderr:\n{done.stderr[-3000:]}"
        printed.append(done.stdout)
    assert len(printed) >= 5
    # What the examples promise: the summary has results, the spaCy example tags something.
    assert any("('learning rate', 'HyperparameterName'" in out for out in printed)
    assert (checkout / "out" / "scibert-summary.csv").read_text(encoding="utf-8").count("\nresult,") > 0
    assert not written_into(before, checkout_files(REPO)), "README's examples wrote into the checkout"
