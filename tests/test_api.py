"""Every public name of the Python API resolves, is documented, and the help of every verb has an example."""

from __future__ import annotations

import subprocess
import sys

import pytest

import sciner


@pytest.mark.parametrize("name", sciner.__all__)
def test_public_name_resolves_and_has_a_docstring(name):
    obj = getattr(sciner, name)
    if callable(obj):
        assert obj.__doc__ and obj.__doc__.strip(), f"{name} has no docstring"


VERBS = ["predict", "extract", "evaluate", "compare", "train", "pretrain", "ngrams", "show", "convert", "report"]


@pytest.mark.parametrize("verb", VERBS)
def test_every_verb_help_shows_an_example(verb):
    out = subprocess.run([sys.executable, "-m", "sciner", verb, "--help"], capture_output=True, text=True)
    assert out.returncode == 0
    assert "Example: sciner " + verb in " ".join(out.stdout.split())


def test_data_stats_help_and_top_level_help():
    for args in (["data", "stats", "--help"], ["--help"]):
        out = subprocess.run([sys.executable, "-m", "sciner", *args], capture_output=True, text=True)
        assert out.returncode == 0 and "Example: sciner" in out.stdout
