"""PDF extraction quality and speed on the shared papers (``shared/data/pdfs``).

For every paper: seconds to extract (PDF to tokenized paragraphs), the number of
paragraphs, the share of paragraphs that look like bibliography entries (the reference
list should be gone), and, for the 16 papers with GROBID text, the share of GROBID's word
4-grams found in our output — raw, and normalised (citations and in-word hyphens removed
on both sides, since GROBID drops the one and joins the other; see sciner.pdf.quality).

If a tagger loads (``sciner.load()`` or ``--model DIR``), it also times extraction plus
tagging per paper; otherwise it says that it measured extraction only.

    python benchmarks/pdf_extraction.py [--data ../shared/data] [--model DIR] [--threads 2]
"""

from __future__ import annotations

import argparse
import csv
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--model", default=None, help="Model directory for the tagging timing (default: sciner.load()).")
    parser.add_argument("--threads", type=int, default=2, help="torch threads for tagging.")
    args = parser.parse_args()

    from sciner.pdf import extract_pdf
    from sciner.pdf.quality import looks_like_reference_entry, ngram_coverage
    from sciner.tokenize import tokenize

    pdfs = args.data / "pdfs"
    with open(pdfs / "PDF_LIST.tsv", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    tokenize("warm up")  # spaCy's one-off load is not a per-paper cost
    tagger = _load_tagger(args.model, args.threads)

    print(f"{'paper':<48} {'pages':>5} {'sec':>5} {'+tag':>5} {'paras':>5} {'refs%':>6} {'4g raw':>7} {'4g norm':>7}")
    totals = {"pages": 0, "seconds": 0.0, "tag_seconds": 0.0, "paragraphs": 0, "references": 0}
    raw_cov, norm_cov = [], []
    for row in rows:
        start = time.perf_counter()
        paragraphs = extract_pdf(pdfs / row["file"])
        seconds = time.perf_counter() - start
        tag_seconds = float("nan")
        if tagger is not None:
            start = time.perf_counter()
            tagger.tag([p.tokens for p in paragraphs])
            tag_seconds = seconds + time.perf_counter() - start
            totals["tag_seconds"] += tag_seconds
        references = sum(looks_like_reference_entry(p.text) for p in paragraphs)
        raw = norm = float("nan")
        if row["reference_text"]:
            reference = (pdfs / row["reference_text"]).read_text(encoding="utf-8").splitlines()
            ours = "\n".join(p.text for p in paragraphs)
            raw, norm = ngram_coverage(reference, ours), ngram_coverage(reference, ours, normalize=True)
            raw_cov.append(raw)
            norm_cov.append(norm)
        totals["pages"] += int(row["pages"])
        totals["seconds"] += seconds
        totals["paragraphs"] += len(paragraphs)
        totals["references"] += references
        share = 100 * references / max(1, len(paragraphs))
        print(
            f"{row['file'][:48]:<48} {row['pages']:>5} {seconds:5.2f} {tag_seconds:5.2f} {len(paragraphs):5d} "
            f"{share:6.2f} {raw:7.3f} {norm:7.3f}"
        )

    n = len(rows)
    print()
    print(f"papers: {n}, pages: {totals['pages']}, paragraphs: {totals['paragraphs']}")
    print(f"extraction: {totals['seconds'] / n:.2f} s per paper (max target 2 s), {totals['seconds'] / totals['pages']:.3f} s per page")
    if tagger is not None:
        print(f"extraction + tagging: {totals['tag_seconds'] / n:.2f} s per paper ({args.threads} threads)")
    else:
        print("extraction + tagging: not measured (no tagger loads yet) -- these timings are extraction only")
    print(f"reference-entry paragraphs: {totals['references']} of {totals['paragraphs']} "
          f"({100 * totals['references'] / max(1, totals['paragraphs']):.2f}%, target < 2%)")
    if raw_cov:
        print(f"4-gram coverage of GROBID text ({len(raw_cov)} papers): raw mean {sum(raw_cov) / len(raw_cov):.3f} "
              f"min {min(raw_cov):.3f}; normalised mean {sum(norm_cov) / len(norm_cov):.3f} min {min(norm_cov):.3f} "
              f"(targets: mean >= 0.90, min >= 0.75)")


def _load_tagger(model: str | None, threads: int):
    """The tagger, or None (with a note) when no trained model is available."""
    try:
        import torch

        torch.set_num_threads(threads)
        import sciner

        return sciner.load(model)
    except Exception as exc:  # noqa: BLE001 - any failure means: time extraction only
        print(f"note: no tagger ({str(exc).splitlines()[0][:120]}); timing extraction only")
        return None


if __name__ == "__main__":
    main()
