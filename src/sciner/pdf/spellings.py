"""How NLP papers spell words: joined ("indirect") or hyphenated ("task-specific"), counted on raw/.

A hyphen at a line end is either the typesetter's (the word is one word) or the author's
(a compound). The paper itself is asked first (:class:`sciner.pdf.clean.WordCounts`); when
it never spells the word elsewhere, these counts over 30M tokens of NLP papers decide.

The shipped list (``resources/spellings.tsv.gz``) was made with::

    python -m sciner.pdf.spellings ../shared/data/raw -o src/sciner/resources/spellings.tsv.gz
"""

from __future__ import annotations

import argparse
import gzip
import re
from collections import Counter
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path

SHIPPED = Path(__file__).resolve().parents[1] / "resources" / "spellings.tsv.gz"
_WORD_RE = re.compile(r"[a-z]+(?:-[a-z]+)*")
# Rarer spellings are noise (typos, extraction errors) and only make the file larger.
MIN_JOINED = 3
MIN_HYPHENATED = 2


def count_spellings(texts: Iterable[str]) -> Counter[str]:
    """Counts of lower-cased words of at least four letters and of two-part hyphenated words."""
    counts: Counter[str] = Counter()
    for text in texts:
        counts.update(_WORD_RE.findall(text.lower()))
    return Counter({
        w: c for w, c in counts.items()
        if (w.count("-") == 1 and c >= MIN_HYPHENATED) or ("-" not in w and len(w) >= 4 and c >= MIN_JOINED)
    })


def save_spellings(counts: Counter[str], path: str | Path) -> None:
    from sciner.outputs import write_atomic

    lines = "".join(f"{w}\t{c}\n" for w, c in sorted(counts.items()))
    write_atomic(path, gzip.compress(lines.encode("utf-8"), mtime=0))


@lru_cache(maxsize=1)
def shipped_spellings() -> dict[str, int]:
    """The shipped counts (empty if the file is missing: the paper's own spelling still decides)."""
    if not SHIPPED.exists():
        return {}
    out = {}
    for line in gzip.decompress(SHIPPED.read_bytes()).decode("utf-8").splitlines():
        word, _, count = line.partition("\t")
        out[word] = int(count)
    return out


def prefers_hyphen(head: str, tail: str) -> bool | None:
    """Whether NLP papers write ``head`` + ``tail`` with a hyphen: True, False, or None when
    they write it neither way. A line-break hyphen is the typesetter's more often than not,
    so the hyphenated spelling must be twice as common as the joined one to win."""
    spellings = shipped_spellings()
    joined = spellings.get(f"{head}{tail}".lower(), 0)
    hyphenated = spellings.get(f"{head}-{tail}".lower(), 0)
    if not joined and not hyphenated:
        return None
    return hyphenated >= 2 * joined


def main() -> None:
    parser = argparse.ArgumentParser(description="Count joined and hyphenated spellings in raw text.")
    parser.add_argument("raw", type=Path, help="Folder of *.txt files (one paragraph per line).")
    parser.add_argument("-o", "--output", type=Path, default=SHIPPED)
    args = parser.parse_args()

    def lines() -> Iterable[str]:
        for path in sorted(args.raw.glob("*.txt")):
            with open(path, encoding="utf-8", errors="replace") as handle:
                yield from handle

    counts = count_spellings(lines())
    save_spellings(counts, args.output)
    print(f"wrote {len(counts)} spellings to {args.output}")


if __name__ == "__main__":
    main()
