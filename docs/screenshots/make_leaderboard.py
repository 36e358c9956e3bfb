"""Remake docs/screenshots/leaderboard.png: the RTE accuracy board of /corpus with its chart of
score by year, over an index of the tagged papers.

    python docs/screenshots/make_leaderboard.py --tagged /work/devpdfs/tagged

The papers' years are set here (the year of each paper's first arXiv version) where the index
was made from tagged JSONL, which carries no front matter to read a year from; AMBERT is left
without one, to show the line under the chart. Needs Debian's chromium at /usr/bin/chromium.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
# The tests' helpers: the corpus routes served on a free port, Chromium, years set in an index.
sys.path.insert(0, str(HERE.parents[1] / "tests"))
from helpers.browser import chromium, served  # noqa: E402
from helpers.papers import with_years  # noqa: E402

YEARS = {"DataXujing__GPT": 2018, "arxiv_1810.04805_bert_naacl2019": 2018, "DataXujing__ERNIE": 2019,
         "DataXujing__ERNIE2_baidu": 2019, "DataXujing__XLNet": 2019, "DataXujing__ALBERT": 2019,
         "DataXujing__T5": 2019, "DataXujing__Huawei_tinyBERT": 2019, "DataXujing__MobileBERT": 2020,
         "DataXujing__electra": 2020, "DataXujing__DeBerta": 2020}
PAGE = "/corpus?dataset=RTE&metric=Acc"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tagged", type=Path, required=True, help="folder of tagged JSONL papers")
    parser.add_argument("--out", type=Path, default=HERE / "leaderboard.png")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "corpus.sqlite"
        subprocess.run([sys.executable, "-m", "sciner", "index", *map(str, sorted(args.tagged.glob("*.jsonl"))),
                        "-o", str(db)], check=True)
        with served(with_years(db, YEARS)) as url, chromium() as browse:
            browse(f"--screenshot={args.out.resolve()}", "--window-size=1200,1100", url + PAGE)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
