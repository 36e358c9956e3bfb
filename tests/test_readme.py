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
BLOCK = re.compile(r"(?:<!-- readme-test: skip (?P<skip>\w+) -->\n)?```(?P<lang>bash|python)\n(?P<code>.*?)```", re.S)


def blocks(text: str | None = None) -> list[tuple[str, str, str | None]]:
    """(language, code, skip reason or None) of each shell and Python block of ``text`` (README), in order."""
    text = README.read_text(encoding="utf-8") if text is None else text
    return [(m["lang"], m["code"], m["skip"]) for m in BLOCK.finditer(text)]


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
    assert not any(REPO.glob("out/scibert*")), "README's examples wrote into the checkout"
