"""One vocabulary across the verbs: the same spelling for the same thing (--json, -q/--quiet,
--threads, --device, --precision), choices listed in help, $SCINER_DATA wherever data is
read, and the verbs listed in the order of a user's work."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sciner.cli import app
from sciner.cli.app import WORKFLOW
from sciner.config import DataConfig, data_root

runner = CliRunner()


def help_of(*verb: str) -> str:
    result = runner.invoke(app, [*verb, "-h"])
    assert result.exit_code == 0, result.output
    return " ".join(result.stdout.split())


def test_the_help_lists_the_verbs_in_workflow_order():
    lines = runner.invoke(app, ["-h"]).stdout.split("Commands:")[1].splitlines()
    listed = [line.split()[0] for line in lines if line.startswith("  ") and not line.startswith("   ")]
    assert listed == list(WORKFLOW)
    assert set(WORKFLOW) == {c.name or c.callback.__name__ for c in app.registered_commands} | {"data", "distill", "query"}


# The verbs of this list: every one takes -q; those that run torch also take --threads.
QUIET = ["train", "calibrate", "pretrain", "evaluate", "compare", "report", "show", "ngrams", "data stats", "convert",
         "info", "export", "distill teacher", "distill paragraphs", "distill label", "distill student",
         "distill pack-encoder", "distill unpack-encoder"]
THREADS = ["train", "calibrate", "pretrain"]


@pytest.mark.parametrize("verb", QUIET)
def test_every_verb_takes_quiet(verb):
    assert "-q, --quiet" in help_of(*verb.split())


@pytest.mark.parametrize("verb", THREADS)
def test_verbs_that_compute_take_threads(verb):
    assert "--threads" in help_of(verb)


@pytest.mark.parametrize("verb", ["evaluate", "compare", "data stats", "info"])
def test_json_output_is_spelled_json(verb):
    assert "--json Print the result as one JSON document" in help_of(*verb.split())


@pytest.mark.parametrize(("verb", "choices"), [
    ("train", "--device [auto|cpu|cuda]"),
    ("pretrain", "--device [auto|cpu|cuda]"),
    ("calibrate", "--precision [auto|fp32|bf16|int8]"),
    ("evaluate", "--format <table|conlleval>"),
    ("evaluate", "--from [text|conll|jsonl|doccano|labelstudio|spacy|pdf]"),
    ("show", "--from [text|conll"),
    ("report", "--from [text|conll"),
])
def test_options_with_a_fixed_set_list_it_in_help(verb, choices):
    assert choices in help_of(verb)


def test_a_value_outside_the_choices_is_a_one_line_error(cli, tmp_path):
    result = cli("calibrate", tmp_path, "--precision", "fp64")
    assert result.returncode == 6
    assert result.stderr == "error[E005]: precision must be one of auto, fp32, bf16, int8, not 'fp64'\n"


def test_quiet_silences_status_lines_but_never_results(cli, tmp_path, shared_reference):
    gold = shared_reference / "example-output.conll"
    loud = cli("show", gold, "-o", tmp_path / "a.html")
    quiet = cli("show", gold, "-o", tmp_path / "b.html", "-q")
    assert loud.stdout.startswith("wrote ") and quiet.stdout == ""
    assert (tmp_path / "b.html").read_bytes() == (tmp_path / "a.html").read_bytes()
    assert cli("evaluate", gold, gold, "--json", "-q").stdout == cli("evaluate", gold, gold, "--json").stdout


# --- $SCINER_DATA: an option or a config value wins, then the environment, then the default ---


def test_data_root_order(monkeypatch, tmp_path):
    monkeypatch.delenv("SCINER_DATA", raising=False)
    assert DataConfig().root() == Path("../shared/data")
    assert data_root(None, recorded="/trained/here") == Path("/trained/here")
    monkeypatch.setenv("SCINER_DATA", str(tmp_path))
    assert DataConfig().root() == tmp_path
    assert data_root(None, recorded="/trained/here") == tmp_path  # this machine knows better
    assert DataConfig(data_dir="/from/config").root() == Path("/from/config")
    assert data_root("/from/option", recorded="/trained/here") == Path("/from/option")


def _groups(result) -> set[str]:
    assert result.returncode == 0, result.stderr
    return {row["group"] for row in json.loads(result.stdout)}


def test_data_stats_reads_scinerdata_unless_told_otherwise(cli, monkeypatch, tiny_data, tmp_path):
    other = tmp_path / "other"
    (other / "annotated" / "group_z").mkdir(parents=True)
    (other / "annotated" / "group_z" / "z.conll").write_text("BERT\tB-MethodName\n\n", encoding="utf-8")
    dev = ["--set", 'data.dev_groups=["group_z"]']
    monkeypatch.setenv("SCINER_DATA", str(tiny_data))
    assert {"group_a", "group_c"} <= _groups(cli("data", "stats", "--json", "--set", 'data.dev_groups=["group_c"]'))
    assert "group_z" in _groups(cli("data", "stats", "--json", "--data", other, *dev))
    config = tmp_path / "c.toml"
    config.write_text(f'[data]\ndata_dir = "{other}"\ndev_groups = ["group_z"]\n', encoding="utf-8")
    assert "group_z" in _groups(cli("data", "stats", "--json", "-c", config))


def test_quiet_silences_convert_s_summary(cli, tmp_path):
    """Issue 23: convert had no -q; its summary is a status line, the converted file the result."""
    (tmp_path / "p.conll").write_text("We\tO\nuse\tO\nBERT\tB-MethodName\n\n")
    assert cli("convert", str(tmp_path / "p.conll"), str(tmp_path / "p.jsonl"), "-q") == (0, "", "")
    assert (tmp_path / "p.jsonl").read_text().count("MethodName") == 1
    assert cli("info", "-q").returncode == 0


def test_the_console_script_silences_transformers_own_bars(monkeypatch):
    """Issue 23: "Loading weights" / "Writing model shards" bars printed even with -q."""
    import os
    import sys

    from sciner.cli import QUIET_LIBRARIES, main

    for name in QUIET_LIBRARIES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(sys, "argv", ["sciner", "--version"])
    try:
        main()
    except SystemExit:
        pass
    assert {name: os.environ.get(name) for name in QUIET_LIBRARIES} == QUIET_LIBRARIES
