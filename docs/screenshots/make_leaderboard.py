"""Remake docs/screenshots/leaderboard.png: the RTE accuracy board of /corpus with its chart of
score by year, over an index of the tagged papers.

    python docs/screenshots/make_leaderboard.py --tagged /work/devpdfs/tagged

The papers' years are set here (the year of each paper's first arXiv version) where the index
was made from tagged JSONL, which carries no front matter to read a year from; AMBERT is left
without one, to show the line under the chart. Needs Debian's chromium at /usr/bin/chromium.
"""

from __future__ import annotations

import argparse
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
YEARS = {"DataXujing__GPT": 2018, "arxiv_1810.04805_bert_naacl2019": 2018, "DataXujing__ERNIE": 2019,
         "DataXujing__ERNIE2_baidu": 2019, "DataXujing__XLNet": 2019, "DataXujing__ALBERT": 2019,
         "DataXujing__T5": 2019, "DataXujing__Huawei_tinyBERT": 2019, "DataXujing__MobileBERT": 2020,
         "DataXujing__electra": 2020, "DataXujing__DeBerta": 2020}
PAGE = "/corpus?dataset=RTE&metric=Acc"
PORT = 8765


def set_years(db: Path) -> None:
    con = sqlite3.connect(db)
    if "year" not in {row[1] for row in con.execute("PRAGMA table_info(papers)")}:
        con.execute("ALTER TABLE papers ADD COLUMN year INTEGER")
    con.executemany("UPDATE papers SET year = ? WHERE doc = ? AND year IS NULL", [(y, d) for d, y in YEARS.items()])
    con.commit()
    con.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tagged", type=Path, required=True, help="folder of tagged JSONL papers")
    parser.add_argument("--out", type=Path, default=HERE / "leaderboard.png")
    args = parser.parse_args()
    import uvicorn
    from fastapi import FastAPI

    from sciner.serve.corpus import corpus_router

    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "corpus.sqlite"
        subprocess.run([sys.executable, "-m", "sciner", "index", *map(str, sorted(args.tagged.glob("*.jsonl"))),
                        "-o", str(db)], check=True)
        set_years(db)
        app = FastAPI()
        app.include_router(corpus_router(db))
        server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=PORT, log_level="error"))
        threading.Thread(target=server.run, daemon=True).start()
        url = f"http://127.0.0.1:{PORT}"
        for _ in range(200):
            try:
                urllib.request.urlopen(url + "/corpus", timeout=1).close()
                break
            except OSError:
                time.sleep(0.05)
        subprocess.run(["/usr/bin/chromium", "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                        "--disable-background-networking", "--disable-component-update", "--disable-sync",
                        f"--user-data-dir={tmp}/profile", f"--screenshot={args.out.resolve()}",
                        "--window-size=1200,1100", url + PAGE], check=True, capture_output=True)
        server.should_exit = True
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
