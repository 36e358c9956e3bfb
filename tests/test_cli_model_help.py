"""Issue 48: ``--model``'s help called the fast model "several times faster, less accurate",
where README measures it about twice as fast on a CPU with a dev F1 a little below the default's."""

from __future__ import annotations

from typer.testing import CliRunner

from sciner.cli.app import app


def test_every_verb_s_model_help_says_what_readme_says_of_the_fast_model():
    runner = CliRunner()
    for verb in ("predict", "summarize", "index", "serve"):
        result = runner.invoke(app, [verb, "--help"], env={"COLUMNS": "400", "TERMINAL_WIDTH": "400"})
        assert result.exit_code == 0, result.output
        text = " ".join(result.output.split())
        assert "several times" not in text
        assert "faster on a CPU" in text and "a little less accurate" in text
