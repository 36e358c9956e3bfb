"""PDF extraction quality and speed on the shared papers (``shared/data/pdfs``), sciner and
pdftext side by side.

For every paper and extractor: seconds to extract, the number of paragraphs, the share of
paragraphs that look like bibliography entries (the reference list should be gone), the
paragraphs left over from floats (captions, table rows: ``sciner.pdf.quality.residue_kind``),
and, for the 16 papers with GROBID text, the share of GROBID's word 4-grams found in the
output -- raw, and normalised (citations and in-word hyphens removed on both sides, since
GROBID drops the one and joins the other; see ``sciner.pdf.quality``). The same measures
are applied to both extractors; pdftext's paragraphs are its blocks.

pdftext is a benchmark-only dependency, never sciner's. It pins another pypdfium2 than
sciner's, so it lives in a virtual environment of its own and runs in a subprocess:

    python -m venv /tmp/pdftext-venv && /tmp/pdftext-venv/bin/pip install pdftext==0.7.1
    python benchmarks/pdf_extraction.py [--data ../shared/data] [--pdftext-python /tmp/pdftext-venv/bin/python]

Without that interpreter the pdftext columns are skipped, with a note. ``--model DIR`` (or
the shipped model) also times extraction plus tagging per paper.
"""

from __future__ import annotations

import argparse
import csv
import json
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PDFTEXT_VERSION = "0.7.1"
DEFAULT_PDFTEXT_PYTHON = Path("/tmp/pdftext-venv/bin/python")
# Run inside pdftext's environment: {file: [seconds, [paragraph, ...]]} as JSON on stdout.
_PDFTEXT_WORKER = """
import json, re, sys, time
from pdftext.extraction import plain_text_output
plain_text_output(sys.argv[1])  # the first call loads PDFium: not a per-paper cost
out = {}
for path in sys.argv[1:]:
    start = time.perf_counter()
    text = plain_text_output(path)
    seconds = time.perf_counter() - start
    blocks = [" ".join(block.split()) for block in re.split(r"\\n\\s*\\n", text)]
    out[path] = [seconds, [block for block in blocks if block]]
print(json.dumps(out))
"""


@dataclass
class Totals:
    """One extractor's measures summed over the papers."""

    name: str
    seconds: float = 0.0
    papers: int = 0
    paragraphs: int = 0
    references: int = 0
    captions: int = 0
    table_rows: int = 0
    raw: list[float] = field(default_factory=list)
    normalised: list[float] = field(default_factory=list)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--pdftext-python", type=Path, default=DEFAULT_PDFTEXT_PYTHON,
                        help=f"Python of a virtual environment holding pdftext=={PDFTEXT_VERSION}.")
    parser.add_argument("--model", default=None, help="Model directory for the tagging timing (default: sciner.load()).")
    parser.add_argument("--threads", type=int, default=2, help="torch threads for tagging.")
    parser.add_argument("--no-tagging", action="store_true", help="Time extraction only.")
    args = parser.parse_args()

    from sciner.pdf import extract_pdf
    from sciner.tokenize import tokenize

    pdfs = args.data / "pdfs"
    with open(pdfs / "PDF_LIST.tsv", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    tokenize("warm up")  # spaCy's one-off load is not a per-paper cost
    tagger = None if args.no_tagging else _load_tagger(args.model, args.threads)
    pdftext = _run_pdftext(args.pdftext_python, [pdfs / row["file"] for row in rows])

    ours, theirs = Totals("sciner"), Totals(f"pdftext {PDFTEXT_VERSION}")
    tag_seconds = 0.0
    print(f"{'paper':<44} {'sec':>5} {'paras':>5} {'refs%':>5} {'resid':>5} {'4g raw':>6} {'norm':>6}"
          f" | {'sec':>5} {'paras':>5} {'refs%':>5} {'resid':>5} {'4g raw':>6} {'norm':>6}  (sciner | pdftext)")
    for row in rows:
        start = time.perf_counter()
        paragraphs = extract_pdf(pdfs / row["file"])
        seconds = time.perf_counter() - start
        if tagger is not None:
            start = time.perf_counter()
            tagger.tag([p.tokens for p in paragraphs])
            tag_seconds += seconds + time.perf_counter() - start
        reference = _reference(pdfs, row)
        cells = _measure(ours, [p.text for p in paragraphs], seconds, reference)
        other = pdftext.get(str(pdfs / row["file"]))
        cells += " | " + (_measure(theirs, other[1], other[0], reference) if other else "  (not run)")
        print(f"{row['file'][:44]:<44} {cells}")

    print()
    for totals in (ours, theirs):
        _summary(totals)
    if tagger is not None:
        print(f"sciner extraction + tagging: {tag_seconds / len(rows):.2f} s per paper ({args.threads} threads)")


def _reference(pdfs: Path, row: dict[str, str]) -> list[str] | None:
    """GROBID's paragraphs of the paper, when there are any."""
    if not row["reference_text"]:
        return None
    return (pdfs / row["reference_text"]).read_text(encoding="utf-8").splitlines()


def _measure(totals: Totals, texts: list[str], seconds: float, reference: list[str] | None) -> str:
    """Add one paper's measures to ``totals``; returns its table cells."""
    from sciner.pdf.quality import looks_like_reference_entry, ngram_coverage, residue_kind

    references = sum(looks_like_reference_entry(text) for text in texts)
    residue = [kind for kind in map(residue_kind, texts) if kind]
    raw = norm = float("nan")
    if reference is not None:
        joined = "\n".join(texts)
        raw, norm = ngram_coverage(reference, joined), ngram_coverage(reference, joined, normalize=True)
        totals.raw.append(raw)
        totals.normalised.append(norm)
    totals.papers += 1
    totals.seconds += seconds
    totals.paragraphs += len(texts)
    totals.references += references
    totals.captions += residue.count("caption")
    totals.table_rows += residue.count("table")
    share = 100 * references / max(1, len(texts))
    return f"{seconds:5.2f} {len(texts):5d} {share:5.1f} {len(residue):5d} {raw:6.3f} {norm:6.3f}"


def _summary(totals: Totals) -> None:
    if not totals.papers:
        print(f"{totals.name}: not run")
        return
    n, paragraphs = len(totals.raw), max(1, totals.paragraphs)
    print(f"{totals.name}: {totals.papers} papers, {totals.paragraphs} paragraphs, "
          f"{totals.seconds / totals.papers:.2f} s per paper")
    if n:
        print(f"  4-gram coverage of GROBID text ({n} papers): raw mean {sum(totals.raw) / n:.3f} min {min(totals.raw):.3f}; "
              f"citation-normalised mean {sum(totals.normalised) / n:.3f} min {min(totals.normalised):.3f}")
    print(f"  bibliography-like paragraphs: {totals.references} ({100 * totals.references / paragraphs:.2f}%); "
          f"residue: {totals.captions} caption and {totals.table_rows} table-row paragraphs")


def _run_pdftext(python: Path, paths: list[Path]) -> dict[str, list]:
    """pdftext's paragraphs and seconds per paper, from its own environment; {} with a note if absent."""
    if not python.exists():
        print(f"note: no pdftext at {python} (install: python -m venv /tmp/pdftext-venv && "
              f"/tmp/pdftext-venv/bin/pip install pdftext=={PDFTEXT_VERSION}); pdftext columns skipped")
        return {}
    result = subprocess.run([str(python), "-c", _PDFTEXT_WORKER, *map(str, paths)],
                            capture_output=True, text=True, check=False)
    if result.returncode != 0:
        print(f"note: pdftext failed ({result.stderr.strip().splitlines()[-1:]}); pdftext columns skipped")
        return {}
    return json.loads(result.stdout)


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
