"""What `--include tables,captions,footnotes` adds to the shared PDFs: paragraphs and tagged
entities per kind, MetricValue above all (the results tables hold most of a paper's numbers).

Each PDF is read with every kind included and tagged with the shipped model as one paper (as
`sciner predict --include ... paper.pdf` tags it); entities are counted by the kind of the
paragraph they are in ("body" counts the title, headers, body text and the footnotes the body
keeps anyway). The model tags few numbers in table rows, which are not sentences; the last
lines count the values `sciner summarize` reads off the tables' cells (each number under a
metric or hyperparameter head: :mod:`sciner.summary.tables`), with the gazetteers of the
shared data.

    python benchmarks/include_kinds.py [--pdfs ../shared/data/pdfs]
"""

from __future__ import annotations

import argparse
import subprocess
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pdfs", type=Path, default=ROOT.parent / "shared" / "data" / "pdfs")
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()

    import torch

    from sciner.inference.tagger import Tagger
    from sciner.labels import ENTITY_TYPES
    from sciner.pdf import INCLUDE, extract_pdf, read_pdf_paragraphs

    torch.set_num_threads(args.threads)
    cpu = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
    name = next((line.split(":", 1)[1].strip() for line in cpu.splitlines() if line.startswith("Model name")), "?")
    print(f"CPU: {name}, torch threads {args.threads}")
    from sciner.summary.assemble import summarize_paper
    from sciner.summary.names import Gazetteer

    gazetteer = Gazetteer(args.pdfs.parent / "gazetteers")
    tagger = Tagger.load()
    paragraphs: Counter[str] = Counter()
    entities: Counter[tuple[str, str]] = Counter()
    from_tables: Counter[str] = Counter()
    start = time.perf_counter()
    pdfs = sorted(args.pdfs.glob("*.pdf"))
    for pdf in pdfs:
        body = {" ".join(p.tokens) for p in extract_pdf(pdf)}
        tagged = tagger.tag(read_pdf_paragraphs(pdf, include=INCLUDE))
        summary = summarize_paper(pdf.stem, tagged, gazetteer)
        from_tables.update(v.type for v in summary.values if tagged[v.place[0]].meta.get("cells"))
        from_tables["results"] += sum(bool(tagged[r.place[0]].meta.get("cells")) for r in summary.results)
        for p in tagged:
            kind = p.meta["kind"]
            kind = "body" if kind not in ("table", "caption", "footnote") or " ".join(p.tokens) in body else kind
            paragraphs[kind] += 1
            for span in p.spans or []:
                entities[(kind, span.label)] += 1
    seconds = time.perf_counter() - start
    kinds = ["body", "table", "caption", "footnote"]
    print(f"{len(pdfs)} PDFs read and tagged in {seconds:.0f} s\n")
    print(f"{'':22}" + "".join(f"{k:>10}" for k in kinds) + f"{'added':>10}")
    print(f"{'paragraphs':22}" + "".join(f"{paragraphs[k]:>10}" for k in kinds)
          + f"{sum(paragraphs[k] for k in kinds[1:]):>10}")
    for label in ENTITY_TYPES:
        counts = [entities[(k, label)] for k in kinds]
        print(f"{label:22}" + "".join(f"{c:>10}" for c in counts) + f"{sum(counts[1:]):>10}")
    print("\nread off the tables' cells by sciner summarize:")
    for kind in ("MetricValue", "HyperparameterValue", "results"):
        print(f"  {kind:20}{from_tables[kind]:>8}")


if __name__ == "__main__":
    main()
