"""spaCy's efficiency CNN NER, trained with spaCy's own CLI on the shipped model's gold: the peer
that `--model fast` is measured against (issue 34). It is kept out of the package (runs/).

    python benchmarks/spacy_peer.py build [--out runs/spacy-peer] [--max-steps 20000]
    python benchmarks/spacy_peer.py score [--out runs/spacy-peer] [--model PATH] [--json]
    python benchmarks/spacy_peer.py tag MODEL INPUT OUTPUT     # what benchmarks/speed.py times

``build`` assembles the corpus exactly as `sciner train` does (configs/default.toml: the training
groups, the four dev groups held out: momogasuki, parthmehta15, MarcoW311, prasoonvarshney),
writes it as spaCy DocBin files, makes the config with
``python -m spacy init config --pipeline ner --optimize efficiency`` and trains with
``python -m spacy train`` (its best checkpoint by dev F1 is model-best). ``score`` tags the dev
split with model-best (or ``--model``) and prints micro and per-type precision, recall and F1
with sciner's own scorer (sciner.evaluate.metrics), beside ``--fast``'s (a sciner model folder,
scored cross-fitted: its type biases and paper-level parameters refit with each dev group held out,
as benchmarks/accuracy.py does). Nothing in spaCy's model is fit on dev beyond choosing the best
checkpoint, so its plain dev score is the equivalent of a cross-fitted one.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"


def corpus(data: Path):
    from sciner.config import load_config
    from sciner.data.assemble import assemble

    cfg = load_config(ROOT / "configs" / "default.toml", [])
    cfg.data.data_dir = str(data)
    return assemble(cfg.data, seed=cfg.train.seed)


def write_docbin(paragraphs, path: Path) -> None:
    import spacy
    from spacy.tokens import Doc, DocBin

    vocab = spacy.blank("en").vocab
    db = DocBin(store_user_data=False)
    for p in paragraphs:
        if p.tokens:
            db.add(Doc(vocab, words=list(p.tokens), ents=list(p.tags or ["O"] * len(p.tokens))))
    db.to_disk(path)


def build(args: argparse.Namespace) -> None:
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    c = corpus(args.data)
    write_docbin(c.train, out / "train.spacy")
    write_docbin(c.dev, out / "dev.spacy")
    print(f"train {len(c.train)} paragraphs, dev {len(c.dev)} paragraphs ({', '.join(c.dev_groups)})", flush=True)
    py = sys.executable
    subprocess.run([py, "-m", "spacy", "init", "config", str(out / "config.cfg"), "--lang", "en",
                    "--pipeline", "ner", "--optimize", "efficiency", "--force"], check=True)
    start = time.perf_counter()
    subprocess.run([py, "-m", "spacy", "train", str(out / "config.cfg"), "--output", str(out),
                    "--paths.train", str(out / "train.spacy"), "--paths.dev", str(out / "dev.spacy"),
                    "--training.max_steps", str(args.max_steps), "--training.eval_frequency", str(args.eval_every),
                    "--system.seed", "13"], check=True)
    print(f"trained in {time.perf_counter() - start:.0f} s; model in {out / 'model-best'}")


def spacy_tags(nlp, paragraphs: list[list[str]]) -> list[list[str]]:
    """BIO tags of ``paragraphs`` (pre-tokenized) by the spaCy pipeline ``nlp``."""
    from spacy.tokens import Doc

    docs = (Doc(nlp.vocab, words=words) for words in paragraphs if words)
    tagged = iter(nlp.pipe(docs, batch_size=256))
    out = []
    for words in paragraphs:
        if not words:
            out.append([])
            continue
        doc = next(tagged)
        out.append([f"{t.ent_iob_}-{t.ent_type_}" if t.ent_iob_ in ("B", "I") else "O" for t in doc])
    return out


def score(args: argparse.Namespace) -> None:
    import spacy

    from sciner.evaluate.metrics import classification_report

    c = corpus(args.data)
    gold = [p.tags or [] for p in c.dev]
    tokens = [list(p.tokens) for p in c.dev]
    nlp = spacy.load(args.model or args.out / "model-best")
    reports = {"spaCy CNN": classification_report(gold, spacy_tags(nlp, tokens)).to_dict()}
    if args.fast:
        from sciner.inference.calibrate import DEFAULT, cross_fitted_paper_tags, cross_fitted_tags
        from sciner.inference.tagger import Tagger

        tagger = Tagger.load(args.fast)
        log_probs = tagger.log_probs(tokens)
        cross, biases = cross_fitted_tags(log_probs, gold, c.dev_group_of, DEFAULT)
        reports[f"{args.fast.name} (cross-fitted)"] = classification_report(gold, cross).to_dict()
        docs = [p.source for p in c.dev]
        paper, _ = cross_fitted_paper_tags(tokens, log_probs, gold, c.dev_group_of, docs, biases)
        reports[f"{args.fast.name} + paper-level (cross-fitted)"] = classification_report(gold, paper).to_dict()
    if args.json:
        json.dump(reports, sys.stdout, indent=2)
        print()
        return
    print(f"dev split: leave-groups-out, groups {', '.join(c.dev_groups)}; {len(c.dev)} paragraphs")
    names = list(reports)
    print(f"{'F1':<22}" + "".join(f"{n[:30]:>32}" for n in names))
    for t in reports[names[0]]["per_type"]:
        print(f"{t:<22}" + "".join(f"{reports[n]['per_type'][t]['f1']:>32.4f}" for n in names))
    for avg in ("micro", "macro"):
        print(f"{avg:<22}" + "".join(f"{reports[n][avg]['f1']:>32.4f}" for n in names))
    for key in ("precision", "recall"):
        print(f"{'micro ' + key:<22}" + "".join(f"{reports[n]['micro'][key]:>32.4f}" for n in names))


def tag(args: argparse.Namespace) -> None:
    """Tag INPUT (one pre-tokenized paragraph per line) as `sciner predict` writes it: a
    token<TAB>tag line per token, a blank line between paragraphs."""
    import spacy

    nlp = spacy.load(args.model_dir)
    lines = args.input.read_text(encoding="utf-8").splitlines()
    paragraphs = [line.split() for line in lines]
    with open(args.output, "w", encoding="utf-8") as f:
        for words, tags in zip(paragraphs, spacy_tags(nlp, paragraphs)):
            f.write("".join(f"{w}\t{t}\n" for w, t in zip(words, tags)) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="verb", required=True)
    b = sub.add_parser("build")
    b.add_argument("--out", type=Path, default=ROOT / "runs" / "spacy-peer")
    b.add_argument("--data", type=Path, default=DATA)
    b.add_argument("--max-steps", type=int, default=20000,
                   help="spaCy's own default; its patience (1600 steps without a better dev score) stops it earlier.")
    b.add_argument("--eval-every", type=int, default=200)
    s = sub.add_parser("score")
    s.add_argument("--out", type=Path, default=ROOT / "runs" / "spacy-peer")
    s.add_argument("--model", type=Path, default=None)
    s.add_argument("--fast", type=Path, default=None, help="A sciner model folder to score beside it.")
    s.add_argument("--data", type=Path, default=DATA)
    s.add_argument("--json", action="store_true")
    t = sub.add_parser("tag")
    t.add_argument("model_dir", type=Path)
    t.add_argument("input", type=Path)
    t.add_argument("output", type=Path)
    args = parser.parse_args()
    {"build": build, "score": score, "tag": tag}[args.verb](args)


if __name__ == "__main__":
    main()
