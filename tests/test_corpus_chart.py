"""The leaderboards of /corpus drawn as score by year (issue 48): one point per paper linked to
its paragraph, a step line of the best so far in the metric's direction, the results of no
known year counted under the chart, no chart where no year is known; the year in the JSON rows,
with or without a ``papers.year`` column in the index."""

from __future__ import annotations

import re
import shutil
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
from fastapi import FastAPI  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402

import sciner  # noqa: E402
from sciner.serve.chart import nice_ticks, records, Point  # noqa: E402
from sciner.serve.corpus import corpus_router  # noqa: E402

from helpers.browser import CHROMIUM, chromium, served  # noqa: E402
from helpers.papers import indexed_corpus, with_years  # noqa: E402

# SQuAD F1: alpha (2018) 90.9, beta (2019) 92.1, gamma (no year) 85.0; PTB perplexity: alpha 35.1, beta 29.4.
YEARS = {"alpha": 2018, "beta": 2019}


@pytest.fixture(scope="module")
def plain(tmp_path_factory) -> Path:
    return indexed_corpus(tmp_path_factory.mktemp("papers"), "plain.sqlite")


@pytest.fixture(scope="module")
def dated(plain: Path) -> Path:
    return with_years(Path(shutil.copy(plain, plain.parent / "dated.sqlite")), YEARS)


def client(db: Path) -> TestClient:
    app = FastAPI()
    app.include_router(corpus_router(db))
    return TestClient(app)


def chart(page: str, title: str) -> str:
    """The chart whose SVG title is ``title`` (with what is under it), or fails."""
    found = re.search(r'<div class="chart" id="[^"]+"><svg[^>]*><title[^>]*>' + re.escape(title)
                      + r": score by year</title>.*?</div>", page)
    assert found, page
    return found.group(0)


def test_each_board_is_drawn_by_year_each_point_a_link_to_its_paragraph(dated: Path) -> None:
    web = client(dated)
    page = web.get("/corpus").text
    squad = chart(page, "SQuAD · F1")
    points = re.findall(r'<a href="(/corpus/paragraphs/\d+)" class="point"><circle[^>]*><title>([^<]+)</title>', squad)
    assert [tip for _, tip in points] == ["XLNet · beta · 92.1 (2019)", "BERT-base · alpha · 90.9 (2018)"]
    for href, tip in points:  # each point opens the paragraph its number was read from
        assert tip.split(" · ")[2].split()[0] in web.get(href).text
    assert '<p class="undated">1 result has no year: not drawn.</p>' in squad  # gamma's 85.0
    assert '<desc id="chart-0-desc">2 paper(s) from 2018 to 2019, higher is better; best so far: 92.1' in squad
    # The chart stands over the board's table, which still lists every result, gamma's too.
    table = page[page.index(squad) + len(squad):].split("</table>")[0]
    assert table.startswith('<table class="leaderboard">') and "<td>gamma</td>" in table


def test_the_best_so_far_steps_follow_the_metric_s_direction(dated: Path) -> None:
    page = client(dated).get("/corpus").text
    squad, ptb = chart(page, "SQuAD · F1"), chart(page, "PTB · perplexity")
    assert "F1 (higher is better)" in squad and "perplexity (lower is better)" in ptb

    def steps(svg: str) -> list[float]:
        return [float(v) for v in re.findall(r"V([\d.]+)", re.search(r'class="best" d="([^"]+)"', svg).group(1))]

    def height(svg: str, value: str) -> float:
        return float(re.search(r'cy="([\d.]+)" r="4.5"[^>]*><title>[^<]*· ' + value, svg).group(1))

    # Each later paper beats the earlier one in its metric: the line steps to it (SVG y grows downwards).
    assert steps(squad) == [height(squad, "92.1")] and height(squad, "92.1") < height(squad, "90.9")
    assert steps(ptb) == [height(ptb, "29.4")] and height(ptb, "29.4") > height(ptb, "35.1")


def test_the_step_line_turns_only_at_records() -> None:
    def point(year: int, score: float) -> Point:
        return Point(year, score, None)  # type: ignore[arg-type]

    rising = [point(2017, 80.0), point(2018, 85.0), point(2018, 83.0), point(2019, 84.0), point(2020, 90.0)]
    assert [(p.year, p.score) for p in records(rising, lower_is_better=False)] == [(2017, 80.0), (2018, 85.0),
                                                                                   (2020, 90.0)]
    assert [(p.year, p.score) for p in records(rising, lower_is_better=True)] == [(2017, 80.0)]
    assert nice_ticks(90.9, 92.1) == [90.5, 91.0, 91.5, 92.0, 92.5]


def test_without_any_year_the_board_says_why_and_draws_nothing(plain: Path) -> None:
    page = client(plain).get("/corpus").text
    assert "<svg" not in page
    assert ('<p class="no-chart">No chart: none of these 3 result(s) comes from a paper whose year the index '
            "knows.</p>") in page
    assert 'class="leaderboard"' in page


def test_a_board_asked_for_is_drawn_too(dated: Path) -> None:
    page = client(dated).get("/corpus", params={"dataset": "squad", "metric": "f1"}).text
    asked = page.split("<h2>Leaderboard: squad · f1</h2>")[1].split('<div id="asked">')[0]
    assert 'id="asked-chart-0"' in asked and asked.count('class="point"') == 2


def test_each_json_row_carries_its_paper_s_year(plain: Path, dated: Path) -> None:
    rows = client(dated).get("/v1/corpus/results", params={"dataset": "squad", "metric": "F1"}).json()
    assert [(r["paper"], r["year"]) for r in rows] == [("beta", 2019), ("alpha", 2018), ("gamma", None)]
    assert {r["year"] for r in client(plain).get("/v1/corpus/results").json()} == {None}  # no paper gives a year
    with sciner.Index(dated) as corpus:
        assert [r.lower_is_better for r in corpus.results(dataset="PTB")] == [True, True]


@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium")
def test_the_chart_in_a_browser(dated: Path, tmp_path: Path) -> None:
    with served(dated) as url, chromium() as browse:
        dom = browse("--dump-dom", url + "/corpus")
        png = tmp_path / "chart.png"
        browse(f"--screenshot={png}", "--window-size=1200,1400", url + "/corpus")
        svg = re.search(r'<div class="chart" id="chart-0"><svg .*?</svg>', dom, re.S)
        assert svg, dom
        links = re.findall(r'<a href="(/corpus/paragraphs/\d+)" class="point"><circle', svg.group(0))
        assert len(links) == 2
        for link in links:  # each point opens its paragraph's page
            with urllib.request.urlopen(url + link, timeout=10) as answer:
                assert '<blockquote id="paragraph">' in answer.read().decode()
    assert 'role="img"' in svg.group(0) and "<script" not in dom
    assert png.stat().st_size > 5000
