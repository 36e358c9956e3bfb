"""PDF extraction quality and speed on the shared papers (``shared/data/pdfs``), sciner and
pdftext side by side.

For every paper and extractor: seconds to extract, the number of paragraphs, the share of
paragraphs that look like bibliography entries (the reference list should be gone), the
paragraphs left over from floats (captions, table rows: ``extraction_quality.residue_kind``),
and, for the 16 papers with GROBID text, the share of GROBID's word 4-grams found in the
output, three ways:

- raw;
- citation-normalised: citations and in-word hyphens removed on both sides, since GROBID
  drops the one and joins the other ("taskspecific"; see ``extraction_quality.py``);
- body: citation-normalised, counted over the extractor's body paragraphs only, that is
  without its captions, table rows and bibliography entries (``extraction_quality.debris_kind``).
  GROBID merges captions and table cells into its paragraphs, so the first two measures
  credit an extractor for the debris the task's inputs leave out; this one does not.

The same measures are applied to both extractors; pdftext's paragraphs are its blocks.
``--gap`` adds where the difference comes from: the GROBID 4-grams one extractor finds and
the other does not, by the kind of paragraph they were found in, in points of coverage.

pdftext is a benchmark-only dependency, never sciner's. It pins another pypdfium2 than
sciner's, so it lives in a virtual environment of its own and runs in a subprocess:

    python -m venv /tmp/pdftext-venv && /tmp/pdftext-venv/bin/pip install pdftext==0.7.1
    python benchmarks/pdf_extraction.py [--data ../shared/data] [--pdftext-python /tmp/pdftext-venv/bin/python] [--gap]

Without that interpreter the pdftext columns are skipped, with a note. ``--model DIR`` (or
the shipped model) also times extraction plus tagging per paper.
"""

from __future__ import annotations

import argparse
import csv
import json
import subprocess
import time
from collections import Counter
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
    coverage: dict[str, list[float]] = field(default_factory=lambda: {measure: [] for measure in MEASURES})
    # Points of coverage (summed over papers) of the GROBID 4-grams only this extractor finds, by paragraph kind.
    only: Counter = field(default_factory=Counter)
    # (points, paper, text) of the body paragraphs behind ``only["body"]``, for reading.
    only_body: list[tuple[float, str, str]] = field(default_factory=list)


# The coverage measures: (all paragraphs or body only, citation-normalised or raw).
MEASURES = {"raw": (False, False), "normalised": (False, True), "body": (True, True)}
TARGET_MIN = 0.83  # issue 15: the lowest paper's coverage
TARGET_REFERENCES = 0.5  # % of paragraphs
TARGET_SECONDS = 0.5  # per paper
GAP_EXAMPLES = 15


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--pdftext-python", type=Path, default=DEFAULT_PDFTEXT_PYTHON,
                        help=f"Python of a virtual environment holding pdftext=={PDFTEXT_VERSION}.")
    parser.add_argument("--model", default=None, help="Model directory for the tagging timing (default: sciner.load()).")
    parser.add_argument("--threads", type=int, default=2, help="torch threads for tagging.")
    parser.add_argument("--no-tagging", action="store_true", help="Time extraction only.")
    parser.add_argument("--gap", action="store_true",
                        help="Break the coverage difference down by the kind of paragraph it comes from.")
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
    header = f"{'sec':>5} {'paras':>5} {'refs%':>5} {'resid':>5} {'raw':>5} {'norm':>5} {'body':>5}"
    print(f"{'paper':<40} {header} | {header}  (sciner | pdftext; 4-gram coverage: raw, normalised, body)")
    for row in rows:
        start = time.perf_counter()
        paragraphs = extract_pdf(pdfs / row["file"])
        seconds = time.perf_counter() - start
        if tagger is not None:
            start = time.perf_counter()
            tagger.tag([p.tokens for p in paragraphs])
            tag_seconds += seconds + time.perf_counter() - start
        reference = _reference(pdfs, row)
        texts = [p.text for p in paragraphs]
        cells = _measure(ours, texts, seconds, reference)
        other = pdftext.get(str(pdfs / row["file"]))
        cells += " | " + (_measure(theirs, other[1], other[0], reference) if other else "  (not run)")
        if other and reference is not None and args.gap:
            _attribute_gap(row["file"], reference, ours, texts, theirs, other[1])
        print(f"{row['file'][:40]:<40} {cells}")

    print()
    for totals in (ours, theirs):
        _summary(totals)
    if tagger is not None:
        print(f"sciner extraction + tagging: {tag_seconds / len(rows):.2f} s per paper ({args.threads} threads)")
    if theirs.papers:
        _targets(ours, theirs)
        if args.gap:
            _gap(ours, theirs)


def _reference(pdfs: Path, row: dict[str, str]) -> list[str] | None:
    """GROBID's paragraphs of the paper, when there are any."""
    if not row["reference_text"]:
        return None
    return (pdfs / row["reference_text"]).read_text(encoding="utf-8").splitlines()


def _measure(totals: Totals, texts: list[str], seconds: float, reference: list[str] | None) -> str:
    """Add one paper's measures to ``totals``; returns its table cells."""
    from extraction_quality import body_paragraphs, looks_like_reference_entry, ngram_coverage, residue_kind

    references = sum(looks_like_reference_entry(text) for text in texts)
    residue = [kind for kind in map(residue_kind, texts) if kind]
    cells = {measure: float("nan") for measure in MEASURES}
    if reference is not None:
        body = body_paragraphs(texts)
        for measure, (body_only, normalize) in MEASURES.items():
            cells[measure] = ngram_coverage(reference, "\n".join(body if body_only else texts), normalize=normalize)
            totals.coverage[measure].append(cells[measure])
    totals.papers += 1
    totals.seconds += seconds
    totals.paragraphs += len(texts)
    totals.references += references
    totals.captions += residue.count("caption")
    totals.table_rows += residue.count("table")
    share = 100 * references / max(1, len(texts))
    coverage = " ".join(f"{cells[measure]:5.3f}" for measure in MEASURES)
    return f"{seconds:5.2f} {len(texts):5d} {share:5.1f} {len(residue):5d} {coverage}"


def _summary(totals: Totals) -> None:
    if not totals.papers:
        print(f"{totals.name}: not run")
        return
    paragraphs = max(1, totals.paragraphs)
    print(f"{totals.name}: {totals.papers} papers, {totals.paragraphs} paragraphs, "
          f"{totals.seconds / totals.papers:.2f} s per paper")
    if totals.coverage["raw"]:
        cells = "; ".join(f"{measure} mean {_mean(values):.3f} min {min(values):.3f}"
                          for measure, values in totals.coverage.items())
        print(f"  4-gram coverage of GROBID text ({len(totals.coverage['raw'])} papers): {cells}")
    print(f"  bibliography-like paragraphs: {totals.references} ({100 * totals.references / paragraphs:.2f}%); "
          f"residue: {totals.captions} caption and {totals.table_rows} table-row paragraphs")


def _targets(ours: Totals, theirs: Totals) -> None:
    """Issue 15's targets, each with its measured value and whether it is met."""
    print("\ntargets (issue 15):")
    for measure, values in ours.coverage.items():
        if values:
            mine, best = _mean(values), _mean(theirs.coverage[measure])
            print(f"  {measure:<10} coverage: mean {mine:.3f} >= pdftext's {best:.3f}: {_met(mine >= best)}; "
                  f"min {min(values):.3f} >= {TARGET_MIN}: {_met(min(values) >= TARGET_MIN)}")
    share = 100 * ours.references / max(1, ours.paragraphs)
    print(f"  bibliography-like paragraphs {share:.2f}% <= {TARGET_REFERENCES}%: {_met(share <= TARGET_REFERENCES)}")
    residue = ours.captions + ours.table_rows
    print(f"  caption and table-row residue {residue} = 0: {_met(residue == 0)}")
    seconds = ours.seconds / max(1, ours.papers)
    print(f"  extraction {seconds:.2f} s per paper <= {TARGET_SECONDS}: {_met(seconds <= TARGET_SECONDS)}")


def _attribute_gap(paper: str, reference: list[str], ours: Totals, our_texts: list[str],
                   theirs: Totals, their_texts: list[str]) -> None:
    """Add to each extractor's ``only`` the normalised GROBID 4-grams the other lacks, by paragraph kind."""
    from extraction_quality import debris_kind, word_ngrams

    grams: set[tuple[str, ...]] = set()
    for paragraph in reference:
        grams |= word_ngrams(paragraph, 4, normalize=True)
    if not grams:
        return
    found = [word_ngrams("\n".join(texts), 4, normalize=True) & grams for texts in (our_texts, their_texts)]
    for totals, texts, others in ((ours, our_texts, found[1]), (theirs, their_texts, found[0])):
        counted: set[tuple[str, ...]] = set()
        for text in texts:
            new = (word_ngrams(text, 4, normalize=True) & grams) - others - counted
            counted |= new
            kind = debris_kind(text) or "body"
            totals.only[kind] += len(new) / len(grams)
            if kind == "body" and new:
                totals.only_body.append((len(new) / len(grams), paper, text))


def _gap(ours: Totals, theirs: Totals) -> None:
    papers = max(1, len(ours.coverage["normalised"]))
    print(f"\nnormalised GROBID 4-grams one extractor finds and the other does not, by the kind of paragraph "
          f"they are in (points of coverage, mean over {papers} papers):")
    for totals in (ours, theirs):
        kinds = ", ".join(f"{kind} {100 * totals.only[kind] / papers:.2f}"
                          for kind in ("body", "caption", "table", "bibliography"))
        print(f"  only {totals.name}: {100 * sum(totals.only.values()) / papers:.2f} ({kinds})")
    for totals in (ours, theirs):
        print(f"the {GAP_EXAMPLES} body paragraphs of {totals.name} that add the most of its own "
              f"(points of that paper's coverage):")
        for points, paper, text in sorted(totals.only_body, reverse=True)[:GAP_EXAMPLES]:
            print(f"  {100 * points:5.2f} {paper[:24]:<24} {' '.join(text.split())[:110]}")


def _mean(values: list[float]) -> float:
    return sum(values) / max(1, len(values))


def _met(ok: bool) -> str:
    return "met" if ok else "NOT MET"


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
