"""The command line as a whole: version, help on every verb and subverb, and a runnable example
ending every help."""

from __future__ import annotations

import shlex
from collections.abc import Iterator
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

import sciner
from sciner.cli import app

runner = CliRunner()
ROOT = typer.main.get_command(app)  # the click command tree Typer builds from the app


def walk(command: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], Any]]:
    """The app and every verb and subverb registered on it, each with its path of names: a new
    verb, group or subverb is covered without naming it here."""
    yield path, command
    for name, sub in getattr(command, "commands", {}).items():  # groups have commands; verbs do not
        yield from walk(sub, (*path, name))


COMMANDS = dict(walk(ROOT))


def example(command: Any) -> str:
    """The last line of a command's help text, which must be its example."""
    lines = [line.strip() for line in (command.help or "").splitlines() if line.strip()]
    assert lines and lines[-1].startswith("Example: sciner"), f"the help does not end with an example: {lines[-1:]}"
    return lines[-1].removeprefix("Example: ")


def parse(argv: list[str]) -> tuple[tuple[str, ...], Any]:
    """Parse ``sciner ARGV`` as the app would, without running anything: the verb's path and its
    context. Unknown options, a missing argument, extra arguments or a bad choice raise the
    error the user would get (click's usage error, or sciner's one line)."""
    command, path, args = ROOT, (), list(argv)
    while getattr(command, "commands", None) and args:
        own = [a for a in args[: _arguments(command)] if a not in command.commands]  # a group's own (query INDEX)
        if len(args) <= len(own) or args[len(own)] not in command.commands:
            break
        name = args[len(own)]
        path, command, args = (*path, name), command.commands[name], args[len(own) + 1:]
    assert not getattr(command, "commands", None) or command.invoke_without_command, \
        f"sciner {' '.join(argv)}: names no verb"
    return path, command.make_context(" ".join(("sciner", *path)), args)


def _arguments(command: Any) -> int:
    """How many positional arguments a group takes before its subcommand's name."""
    return sum(1 for p in command.params if p.param_type_name == "argument")


def test_version() -> None:
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.stdout.strip() == f"sciner {sciner.__version__}"


def test_the_walk_finds_every_verb_and_subverb() -> None:
    some = {("predict",), ("info",), ("data", "stats"), ("distill", "label"), ("distill", "pack-encoder")}
    assert some < set(COMMANDS)
    assert len(COMMANDS) > 20


@pytest.mark.parametrize("path", list(COMMANDS), ids=lambda path: " ".join(("sciner", *path)))
def test_every_help_ends_with_a_runnable_example(path: tuple[str, ...]) -> None:
    """``sciner ... -h`` and ``--help`` exit 0 and show the example that ends the help text, and the
    example parses as the verb it names: every option exists and takes that value."""
    command = COMMANDS[path]
    line = example(command)
    for flag in ("-h", "--help"):
        result = runner.invoke(app, [*path, flag])
        assert result.exit_code == 0, result.output
        assert "".join(line.split()) in "".join(result.stdout.split())  # click wraps long lines, even at a hyphen
    argv = shlex.split(line)[1:]
    assert [a for a in argv if a in path][:len(path)] == list(path), \
        f"the example of sciner {' '.join(path)} runs another verb: {line}"
    named, _ = parse(argv)
    assert named[:len(path)] == path


def test_the_example_check_refuses_an_unknown_option_a_missing_argument_and_a_bad_choice() -> None:
    """The check above can fail: the parse is the app's own, not a lenient one."""
    path, context = parse(["info", "runs/bio", "--json"])
    assert path == ("info",) and True in context.params.values()  # --json was read
    for argv, message in ((["info", "runs/bio", "--no-such-option"], "No such option"),
                          (["evaluate", "gold.conll"], "Missing"),
                          (["predict", "paper.pdf", "--precision", "fp64"], "fp64"),
                          (["data", "no-such-verb"], "names no verb")):
        with pytest.raises(Exception, match=message):  # click's usage error, or sciner's one line
            parse(argv)


@pytest.mark.parametrize(("path", "usage"), [
    (("predict",), "sciner predict [OPTIONS] INPUTS..."),
    (("query",), "sciner query [OPTIONS] INDEX COMMAND [ARGS]..."),
    (("query", "results"), "sciner query INDEX results [OPTIONS]"),
    (("query", "search"), "sciner query INDEX search [OPTIONS] TEXT"),
    (("info",), "sciner info [OPTIONS] [MODEL]"),
])
def test_usage_lines_spell_arguments_as_click_does(path: tuple[str, ...], usage: str) -> None:
    """Regression: Typer's usage line wrote a required argument in braces and lower case
    (``{INDEX}``, ``{inputs}...``)."""
    first = runner.invoke(app, [*path, "-h"], prog_name="sciner").stdout.splitlines()[0]
    assert first == f"Usage: {usage}"


@pytest.mark.parametrize("path", list(COMMANDS), ids=lambda path: " ".join(("sciner", *path)))
def test_no_usage_line_has_braces(path: tuple[str, ...]) -> None:
    first = runner.invoke(app, [*path, "-h"], prog_name="sciner").stdout.splitlines()[0]
    assert first.startswith("Usage: sciner") and "{" not in first


def test_predict_takes_a_device_and_refuses_an_unknown_one(cli, loaded_once, tmp_path) -> None:
    text = tmp_path / "p.txt"
    text.write_text("We use BERT .\n", encoding="utf-8")
    assert cli("predict", text, "-q", "--device", "cpu", "--precision", "fp32").stdout.split("\n")[2] == "BERT\tB-MethodName"
    refused = cli("predict", text, "-q", "--device", "tpu")
    assert refused.returncode == 6 and refused.stderr.startswith("error[E005]: device must be one of auto, cpu, cuda")


def test_the_cli_starts_without_numpy_or_torch() -> None:
    """``sciner -h`` must stay fast: the verbs import their heavy libraries when they run."""
    import subprocess
    import sys

    code = "import sys, sciner.cli; print(sorted(m for m in ('numpy', 'torch', 'spacy', 'transformers') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_reading_a_calibrated_models_json_does_not_import_torch() -> None:
    """Regression: checking model.json's type_bias asked the heads' registry, importing torch
    (0.9 s) for ``sciner info`` and every other reader of the shipped model's metadata."""
    import subprocess
    import sys

    code = ("import sys; from sciner.model.store import load_model_meta; _, meta, _ = load_model_meta(None); "
            "assert meta.get('type_bias'); print('torch' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
