"""The command line as a whole: version, short help on every verb, an example in every help."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

import sciner
from sciner.cli import app

runner = CliRunner()
VERBS = [c.name or c.callback.__name__ for c in app.registered_commands]


def test_version() -> None:
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.stdout.strip() == f"sciner {sciner.__version__}"


@pytest.mark.parametrize("verb", VERBS + ["data stats"])
def test_every_verb_takes_h_and_its_help_ends_with_an_example(verb: str) -> None:
    result = runner.invoke(app, [*verb.split(), "-h"])
    assert result.exit_code == 0, result.output
    assert f"Example: sciner {verb}" in " ".join(result.stdout.split())


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
