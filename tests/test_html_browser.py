"""The HTML pages opened in a real headless browser (Debian's chromium): entities in the DOM, and a screenshot."""

from __future__ import annotations

import html
import re
import subprocess
import tempfile
from pathlib import Path

import pytest

from sciner.document import Paragraph
from sciner.formats.conll import read_conll, write_conll
from sciner.document import bio_to_spans
from sciner.view import render_diff, render_entities

CHROMIUM = Path("/usr/bin/chromium")

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium (apt-get install -y chromium)"
)

FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

MARK = re.compile(r'<mark class="([^"]*)" data-type="([^"]*)"[^>]*>(.*?)<span class="ent-label">', re.S)


def _chromium(page: Path, *args: str) -> subprocess.CompletedProcess:
    with tempfile.TemporaryDirectory() as profile:
        return subprocess.run(
            [str(CHROMIUM), *FLAGS, f"--user-data-dir={profile}", *args, page.resolve().as_uri()],
            capture_output=True, text=True, timeout=120, check=True,
        )


def dump_dom(page: Path) -> str:
    """The DOM after the browser has parsed and laid out the page."""
    return _chromium(page, "--dump-dom").stdout


def screenshot(page: Path, png: Path) -> None:
    _chromium(page, f"--screenshot={png}", "--window-size=1200,900")


def marks(dom: str) -> list[tuple[set[str], str, str]]:
    """(CSS classes, data-type, text) of every highlighted entity in the DOM."""
    return [(set(c.split()), t, html.unescape(text).strip()) for c, t, text in MARK.findall(dom)]


def assert_real_screenshot(png: Path) -> None:
    from PIL import Image

    assert png.exists() and png.stat().st_size > 10_000
    with Image.open(png) as image:
        assert image.size == (1200, 900)
        colours = image.convert("RGB").getcolors(maxcolors=1_000_000)
    # A blank or error page has a handful of colours; text plus coloured marks have hundreds.
    assert len(colours) > 200


def test_entity_view_shows_every_entity_with_its_type(shared_data: Path, tmp_path: Path) -> None:
    src = shared_data / "annotated" / "BalasubramanyamEvani__Scientific-Named-Entity-Recognition" / "data__conll__BERT.conll"
    paragraphs = read_conll(src)[:3]
    paragraphs.append(Paragraph(["<script>alert(1)</script>", "uses", "A&B"], ["O", "O", "B-MethodName"]))
    page = tmp_path / "view.html"
    page.write_text(render_entities(paragraphs, "BERT <excerpt>"), encoding="utf-8")

    dom = dump_dom(page)
    expected = [(s.label, " ".join(p.tokens[s.start : s.end])) for p in paragraphs for s in bio_to_spans(p.tags)]
    found = [(t, text) for classes, t, text in marks(dom) if f"ent-{t}" in classes]
    assert found == expected
    assert len(found) > 20
    # The input's markup is text, not elements: no script ran or was created.
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in dom and "<script>" not in dom
    assert "<title>BERT &lt;excerpt&gt;</title>" in dom
    legend_counts = dict(re.findall(r'legend-item" data-type="(\w+)">.*?<span class="count">(\d+)</span>', dom))
    assert int(legend_counts["MethodName"]) == sum(1 for t, _ in expected if t == "MethodName")

    png = tmp_path / "view.png"
    screenshot(page, png)
    assert_real_screenshot(png)


def test_diff_view_marks_correct_missed_and_spurious(tmp_path: Path) -> None:
    tokens = ["We", "fine-tune", "BERT", "on", "SQuAD", "v1.1", "with", "a", "learning", "rate", "of", "3e-5", "."]
    gold = Paragraph(tokens, ["O", "O", "B-MethodName", "O", "B-DatasetName", "I-DatasetName", "O", "O",
                              "B-HyperparameterName", "I-HyperparameterName", "O", "B-HyperparameterValue", "O"])
    pred = Paragraph(tokens, ["O", "B-MethodName", "B-MethodName", "O", "B-DatasetName", "O", "O", "O",
                              "B-HyperparameterName", "I-HyperparameterName", "O", "O", "O"])
    page = tmp_path / "diff.html"
    page.write_text(render_diff([gold], [pred], "diff"), encoding="utf-8")

    found = {(outcome, t, text) for classes, t, text in marks(dump_dom(page))
             for outcome in ("correct", "missed", "spurious") if f"diff-{outcome}" in classes}
    assert found == {
        ("correct", "MethodName", "BERT"),
        ("correct", "HyperparameterName", "learning rate"),
        ("spurious", "MethodName", "fine-tune"),
        ("missed", "DatasetName", "SQuAD v1.1"),  # wrong boundary: shown as gold above prediction
        ("spurious", "DatasetName", "SQuAD"),
        ("missed", "HyperparameterValue", "3e-5"),
    }
    png = tmp_path / "diff.png"
    screenshot(page, png)
    assert_real_screenshot(png)


def test_report_on_two_systems_renders(shared_data: Path, tmp_path: Path) -> None:
    from sciner.view.report import build_report
    from sciner.view.report_output import write_report

    src = shared_data / "annotated" / "BalasubramanyamEvani__Scientific-Named-Entity-Recognition" / "data__conll__BERT.conll"
    gold = read_conll(src)[:12]
    write_conll(gold, tmp_path / "gold.conll")
    # Two "systems": one forgets every DatasetName, the other calls every MethodName a TaskName.
    forget = [Paragraph(p.tokens, [t if "DatasetName" not in t else "O" for t in p.tags]) for p in gold]
    confuse = [Paragraph(p.tokens, [t.replace("MethodName", "TaskName") for t in p.tags]) for p in gold]
    write_conll(forget, tmp_path / "forget.conll")
    write_conll(confuse, tmp_path / "confuse.conll")
    report = build_report(tmp_path / "gold.conll", [tmp_path / "forget.conll", tmp_path / "confuse.conll"], samples=200)
    page = tmp_path / "report.html"
    write_report(report, page)

    dom = dump_dom(page)
    assert dom.count('src="data:image/png;base64,') == 5  # per type, length, casing, two confusion heatmaps
    for heading in ("Scores", "Per entity type", "Significance (paired bootstrap)", "F1 by entity length",
                    "F1 by casing", "Type confusion", "Examples where the systems differ"):
        assert f"<h2>{heading}</h2>" in dom
    assert re.search(r'<td class="txt">forget</td><td class="txt">confuse</td>', dom) or re.search(
        r'<td class="txt">confuse</td><td class="txt">forget</td>', dom
    )
    example_marks = marks(dom)
    assert any("diff-missed" in c and t == "DatasetName" for c, t, _ in example_marks)
    assert any("diff-spurious" in c and t == "TaskName" for c, t, _ in example_marks)
    png = tmp_path / "report.png"
    screenshot(page, png)
    assert_real_screenshot(png)


def test_show_command_writes_a_page_the_browser_reads(shared_data: Path, tmp_path: Path) -> None:
    import sys

    src = shared_data / "annotated" / "BalasubramanyamEvani__Scientific-Named-Entity-Recognition" / "data__conll__BERT.conll"
    out = tmp_path / "shown.html"
    run = subprocess.run([sys.executable, "-m", "sciner", "show", str(src), "-o", str(out), "--limit", "2"],
                         capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr
    expected = sum(len(bio_to_spans(p.tags)) for p in read_conll(src)[:2])
    assert len(marks(dump_dom(out))) == expected

