"""Remake docs/screenshots/{view,diff,report}.png from real annotated data.

    python docs/screenshots/make_screenshots.py --data ../shared/data --model runs/bio-default

- view.png: the first paragraphs of one group's annotation of the BERT paper (``sciner show``).
- diff.png: the same paragraphs tagged by the model, against that annotation (``sciner show --gold``).
- report.png: the sentences of the BERT paper that three groups annotated with identical
  tokens; one group is gold, the model and the two other groups are the "systems"
  (``sciner report``). It shows how far the model is from a second human annotator.

Needs Debian's chromium at /usr/bin/chromium.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

from sciner.document import Paragraph
from sciner.formats.conll import read_conll, write_conll

HERE = Path(__file__).resolve().parent
VIEW_FILE = "BalasubramanyamEvani__Scientific-Named-Entity-Recognition/data__conll__BERT.conll"
# Three groups that annotated sentences of the BERT paper with the same tokens.
GROUPS = {
    "sherryzyh": "sherryzyh__End-to-End-Scientific-Entity-Recognition",
    "parthmehta15": "parthmehta15__Scientific-Entity-Recognition",
    "prasoonvarshney": "prasoonvarshney__scientific-entity-recognition",
}


def sentences(folder: Path) -> dict[tuple[str, ...], list[str]]:
    """Every sentence (split after '.') of a group's files, tokens -> tags; first occurrence wins."""
    out: dict[tuple[str, ...], list[str]] = {}
    for path in sorted(folder.glob("*.conll")):
        for p in read_conll(path):
            start = 0
            for i, tok in enumerate(p.tokens):
                if tok == "." or i == len(p.tokens) - 1:
                    end = i + 1
                    cut_inside = p.tags[start].startswith("I-") or (end < len(p.tags) and p.tags[end].startswith("I-"))
                    if end - start >= 12 and not cut_inside:
                        out.setdefault(tuple(p.tokens[start:end]), p.tags[start:end])
                    start = end
    return out


def shared_sentences(annotated: Path, work: Path) -> dict[str, Path]:
    """One CoNLL file per group with the sentences all three annotated, in the same order."""
    per_group = {name: sentences(annotated / folder) for name, folder in GROUPS.items()}
    common = sorted(set.intersection(*(set(s) for s in per_group.values())))
    files = {}
    for name, sents in per_group.items():
        files[name] = work / f"{name}.conll"
        write_conll([Paragraph(list(k), sents[k]) for k in common], files[name])
    return files


def sciner(work: Path, *args: str) -> None:
    # Run inside the work folder with relative names, so the pages show short file names.
    subprocess.run([sys.executable, "-m", "sciner", *args], check=True, cwd=work)


def screenshot(page: Path, png: Path, height: int) -> None:
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run(
            ["/usr/bin/chromium", "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             f"--user-data-dir={profile}", f"--screenshot={png}", f"--window-size=1200,{height}", page.as_uri()],
            check=True, capture_output=True,
        )
    print(f"wrote {png}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=Path("../shared/data"))
    parser.add_argument("--model", type=Path, required=True, help="model directory used for the predictions")
    parser.add_argument("--out", type=Path, default=HERE)
    args = parser.parse_args()
    annotated = args.data / "annotated"
    out = args.out.resolve()
    model = str(args.model.resolve())
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        write_conll(read_conll(annotated / VIEW_FILE)[:3], work / "bert-excerpt.conll")
        sciner(work, "show", "bert-excerpt.conll", "-o", "view.html", "--title", "BERT paper, annotated by a 2022 group")
        screenshot(work / "view.html", out / "view.png", 900)

        sciner(work, "predict", "bert-excerpt.conll", "-m", model, "-o", "model-excerpt.conll", "-q")
        sciner(work, "show", "model-excerpt.conll", "--gold", "bert-excerpt.conll", "-o", "diff.html",
               "--title", "Model vs human annotation (BERT paper)")
        screenshot(work / "diff.html", out / "diff.png", 900)

        files = shared_sentences(annotated, work)
        sciner(work, "predict", files["sherryzyh"].name, "-m", model, "-o", "model.conll", "-q")
        sciner(work, "report", files["sherryzyh"].name, "model.conll", files["parthmehta15"].name,
               files["prasoonvarshney"].name, "-o", "report.html")
        screenshot(work / "report.html", out / "report.png", 1800)

if __name__ == "__main__":
    main()
