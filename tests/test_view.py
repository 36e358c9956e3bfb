"""The HTML views and the report without a browser: counts, escaping, confusion table, Markdown output, CLI."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from sciner.document import Paragraph, Span
from sciner.errors import TokenMismatchError
from sciner.formats.conll import write_conll
from sciner.view import render_diff, render_entities
from sciner.view.confusion import MISSED, SPURIOUS, paragraph_confusion
from sciner.view.diff import overlap_groups
from sciner.view.report import build_report, system_names
from sciner.view.report_output import write_report

TOKENS = ["BERT", "beats", "ELMo", "on", "SQuAD", "by", "2", "F1", "."]
GOLD = Paragraph(TOKENS, ["B-MethodName", "O", "B-MethodName", "O", "B-DatasetName", "O", "B-MetricValue", "B-MetricName", "O"])
SYS_A = Paragraph(TOKENS, ["B-MethodName", "O", "B-MethodName", "O", "B-TaskName", "O", "O", "B-MetricName", "O"])
SYS_B = Paragraph(TOKENS, ["B-MethodName", "O", "O", "O", "B-DatasetName", "O", "B-MetricValue", "I-MetricValue", "B-TaskName"])


def test_entity_page_counts_types_and_shows_scores() -> None:
    p = Paragraph(["We", "use", "BERT", "and", "GPT", "."], spans=[Span("MethodName", 2, 3, 0.91), Span("MethodName", 4, 5, 0.5)])
    page = render_entities([p], "t")
    assert page.count('class="ent ent-MethodName"') == 2
    assert 'data-type="MethodName"><span class="swatch ent-MethodName"></span>MethodName <span class="count">2</span>' in page
    assert "0.91" in page and "<link" not in page and "<script" not in page


def test_diff_counts_and_refuses_different_tokens() -> None:
    page = render_diff([GOLD], [SYS_A])
    # correct: BERT, ELMo, F1; missed: SQuAD (as DatasetName), 2; spurious: SQuAD (as TaskName)
    assert 'correct ✓</span> <span class="count">3</span>' in page
    assert 'missed</span> <span class="count">2</span>' in page
    assert 'spurious</span> <span class="count">1</span>' in page
    other = Paragraph(TOKENS[:-1] + ["!"], ["O"] * len(TOKENS))
    with pytest.raises(TokenMismatchError, match="token 8"):
        render_diff([GOLD], [other])


def test_overlapping_gold_and_predicted_spans_are_grouped() -> None:
    gold = [Span("DatasetName", 4, 6), Span("MethodName", 0, 1)]
    pred = [Span("DatasetName", 4, 5), Span("TaskName", 5, 7), Span("MethodName", 0, 1)]
    groups = overlap_groups(gold, pred)
    assert [(len(g), len(p)) for g, p in groups] == [(1, 1), (1, 2)]


def test_confusion_pairs_each_gold_entity_with_its_largest_overlap() -> None:
    gold = [Span("DatasetName", 0, 3), Span("MethodName", 5, 6), Span("TaskName", 8, 9)]
    pred = [Span("MethodName", 0, 1), Span("DatasetName", 1, 3), Span("MethodName", 5, 6), Span("MetricName", 10, 11)]
    assert paragraph_confusion(gold, pred) == {
        ("DatasetName", "DatasetName"): 1,
        ("MethodName", "MethodName"): 1,
        ("TaskName", MISSED): 1,
        (SPURIOUS, "MetricName"): 1,
    }


def test_system_names_are_short_but_unique() -> None:
    assert system_names(["runs/a/pred.conll", "runs/b/pred.conll"]) == ["a/pred", "b/pred"]
    assert system_names(["crf.conll", "bert.jsonl"]) == ["crf", "bert"]


@pytest.fixture
def three_files(tmp_path: Path) -> tuple[Path, Path, Path]:
    paths = tmp_path / "gold.conll", tmp_path / "a.conll", tmp_path / "b.conll"
    for path, p in zip(paths, (GOLD, SYS_A, SYS_B)):
        write_conll([p, Paragraph(["Nothing", "."], ["O", "O"])], path)
    return paths


def test_report_numbers_come_from_the_evaluation(three_files: tuple[Path, Path, Path]) -> None:
    gold, a, b = three_files
    report = build_report(gold, [a, b], samples=100)
    scores = {s.name: s.evaluation.report.micro for s in report.systems}
    assert scores["a"].precision == pytest.approx(3 / 4) and scores["a"].recall == pytest.approx(3 / 5)
    assert scores["b"].precision == pytest.approx(2 / 4) and scores["b"].recall == pytest.approx(2 / 5)
    (comparison,) = report.comparisons
    assert (comparison.a, comparison.b) == ("a", "b")  # the better system first
    assert [e.paragraph for e in report.examples] == [0]  # the all-O paragraph has nothing to show
    conf_b = report.systems[1].confusion.counts
    assert conf_b[("MetricValue", "MetricValue")] == 1 and conf_b[("MetricName", "MetricValue")] == 1
    assert conf_b[("MethodName", MISSED)] == 1 and conf_b[(SPURIOUS, "TaskName")] == 1


def test_markdown_report_writes_its_plots_beside_it(three_files: tuple[Path, Path, Path], tmp_path: Path) -> None:
    gold, a, b = three_files
    out = tmp_path / "out" / "report.md"
    out.parent.mkdir()
    written = write_report(build_report(gold, [a, b], samples=50), out)
    pngs = sorted(p.name for p in written if p.suffix == ".png")
    assert pngs == ["report-confusion-1.png", "report-confusion-2.png", "report-f1-by-casing.png",
                    "report-f1-by-length.png", "report-per-type-f1.png"]
    assert all((out.parent / n).read_bytes().startswith(b"\x89PNG") for n in pngs)
    text = out.read_text(encoding="utf-8")
    assert "![F1 per entity type](report-per-type-f1.png)" in text
    assert "| a | b | 0.667 | 0.444 |" in text  # F1(A), F1(B) of the significance table
    assert "[SQuAD]{TaskName ✗}" in text and "missed: SQuAD (DatasetName)" in text


def test_report_and_show_cli(three_files: tuple[Path, Path, Path], tmp_path: Path) -> None:
    gold, a, b = three_files
    run = subprocess.run([sys.executable, "-m", "sciner", "report", str(gold), str(a), str(b), "--name", "crf",
                          "--name", "bert", "--samples", "50", "-o", str(tmp_path / "r.html")],
                         capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr
    assert "<h3>crf</h3>" in (tmp_path / "r.html").read_text(encoding="utf-8")
    write_conll([Paragraph(["Other", "tokens"], ["O", "O"])], tmp_path / "short.conll")
    bad = subprocess.run([sys.executable, "-m", "sciner", "show", str(tmp_path / "short.conll"), "--gold", str(gold),
                          "-o", str(tmp_path / "d.html")], capture_output=True, text=True, check=False)
    assert bad.returncode == 4 and bad.stderr.startswith("error[E002]")


def test_show_refuses_a_file_without_entities_in_one_line(cli, tmp_path):
    """Issue 23: `sciner show paper.pdf -o x.html` wrote a page with no entity."""
    (tmp_path / "paper.txt").write_text("We fine - tune BERT .\n")
    (tmp_path / "paper.pdf").write_bytes(b"%PDF-1.4\n")
    for name in ("paper.txt", "paper.pdf"):
        result = cli("show", str(tmp_path / name), "-o", str(tmp_path / "x.html"))
        assert result.returncode == 3 and result.stderr.count("\n") == 1
        assert "has no tags (tag it first: sciner predict" in result.stderr
    assert not (tmp_path / "x.html").exists()


@pytest.mark.parametrize("name", ["$x^2$", "$\\frac{$", "a$^$b"])
def test_system_names_are_text_not_tex(three_files: tuple[Path, Path, Path], tmp_path: Path, name: str) -> None:
    """Issue 23: a system named ``$x^2$`` crashed matplotlib's mathtext (or was typeset); names
    reach the legend and the confusion heatmaps' titles as plain text."""
    from matplotlib import rcParams

    gold, a, _ = three_files
    written = write_report(build_report(gold, [a], names=[name], samples=10), tmp_path / "report.md")
    assert sum(p.suffix == ".png" for p in written) == 4
    assert name in (tmp_path / "report.md").read_text(encoding="utf-8")
    assert rcParams["text.parse_math"]  # only the report's own figures are drawn without mathtext


def test_report_figures_never_call_mathtext(monkeypatch: pytest.MonkeyPatch) -> None:
    """``$x^2$`` is valid TeX, so it did not crash: it was typeset as x². No text of the
    report's figures may reach matplotlib's TeX parser at all."""
    from matplotlib.mathtext import MathTextParser

    from sciner.view.plots import grouped_bars, heatmap

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a system name was parsed as TeX")

    monkeypatch.setattr(MathTextParser, "parse", refuse)
    assert grouped_bars(["TaskName"], {"$x^2$": [0.5]}, title="$x^2$").startswith(b"\x89PNG")
    assert heatmap([[1]], ["$x^2$"], ["$y$"], title="Type confusion: $x^2$").startswith(b"\x89PNG")
