"""Fetch the development set's PDFs that are not in ../shared/data/pdfs.

Each row of ``papers.tsv`` with a ``repo`` names a public GitHub repository, the commit and the
path of the PDF in it, and the file's SHA-256. This writes ``DIR/<paper>.pdf`` for each (from
raw.githubusercontent.com, or from a local clone of the repository with ``--clones DIR``, which
holds ``owner+name`` folders) and checks each file against its SHA-256.

    python benchmarks/results_dev/fetch_pdfs.py DIR [--clones DIR]
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import subprocess
import sys
import urllib.parse
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="where the PDFs go")
    parser.add_argument("--clones", type=Path, default=None, help="a folder of git clones named owner+name")
    args = parser.parse_args(argv)
    args.folder.mkdir(parents=True, exist_ok=True)
    with open(HERE / "papers.tsv", encoding="utf-8", newline="") as handle:
        rows = [r for r in csv.DictReader((line for line in handle if not line.startswith("#")), delimiter="\t")
                if r["repo"]]
    bad = 0
    for row in rows:
        target = args.folder / f"{row['paper']}.pdf"
        if not (target.is_file() and hashlib.sha256(target.read_bytes()).hexdigest() == row["sha256"]):
            if args.clones:
                git = args.clones / row["repo"].replace("/", "+")
                git = git / "repo" if (git / "repo").exists() else git
                data = subprocess.run(["git", "-C", str(git), "show", f"{row['commit']}:{row['path']}"],
                                      capture_output=True, check=True).stdout
            else:
                url = (f"https://raw.githubusercontent.com/{row['repo']}/{row['commit']}/"
                       f"{urllib.parse.quote(row['path'])}")
                with urllib.request.urlopen(url, timeout=60) as response:
                    data = response.read()
            target.write_bytes(data)
        if hashlib.sha256(target.read_bytes()).hexdigest() != row["sha256"]:
            print(f"{target}: SHA-256 differs from papers.tsv's", file=sys.stderr)
            bad += 1
    print(f"{len(rows) - bad} of {len(rows)} PDFs in {args.folder}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
