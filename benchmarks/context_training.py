"""Neighbouring context in training (issue 21 item 3), at a CPU budget: a paired comparison.

FLERT (Schweter & Akbik 2020) encodes each sentence with the sentences around it as context
that is not tagged, in training and in tagging. A full training run takes about 1.5 hours on
a 2-core CPU, so this compares two continuations of the shipped model instead, identical but
for the context: the same batches of the same training paragraphs in the same order (batched
by their own subwords), the same seed, schedule and number of steps. One sees each paragraph
alone; the other sees up to N words of the paragraph before and after it in its file (their
tags ignored by the loss). Each is then scored on the dev groups the way it was trained (with
or without context), cross-fitted, paragraph by paragraph and with the paper-level pass
(as `benchmarks/accuracy.py --steps`), with a paired bootstrap of context against none.

    python benchmarks/context_training.py [--words 16] [--steps 150] [--lr 3e-5] [--out runs/context]

About 10 minutes per 150 steps without context on 2 cores, more with it.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

IGNORED = "X"  # the tag of a context word: no loss


def continue_training(words: int, steps: int, lr: float, out: Path) -> float:
    """Continue the shipped model for ``steps`` batches (with ``words`` of context, or none);
    the model is saved to ``out``; returns the seconds it took."""
    from accuracy import with_context_words

    from sciner.config import load_config
    from sciner.inference.tagger import Tagger
    from sciner.model.heads import bio
    from sciner.model.windows import featurize_many
    from sciner.training.loop import run
    from sciner.training.ner import NerTask

    bio.TAG_INDEX.setdefault(IGNORED, -100)
    cfg = load_config(ROOT / "configs" / "default.toml", [
        "train.epochs=1", f"train.max_batches_per_epoch={steps}", f"train.lr={lr}", f"train.head_lr={10 * lr}",
        "train.checkpoint_every_steps=0",
        "train.max_dev_paragraphs=200"])
    shipped = Tagger.load(None, precision="fp32", device="cpu").model.state_dict()

    class Continued(NerTask):
        def prepare(self, device: Any):  # type: ignore[no-untyped-def]
            model, schedule = super().prepare(device)
            model.load_state_dict(shipped)
            own = [f.n_subwords + 2 for f in self.feats]  # batches by the paragraphs' own subwords
            if words:
                paras = self.train_paras
                extended, starts = with_context_words([p.tokens for p in paras], [p.source for p in paras], words)
                tags = [[IGNORED] * s + list(p.tags or []) + [IGNORED] * (len(e) - s - len(p.tokens))
                        for p, e, s in zip(paras, extended, starts)]
                self.feats = featurize_many(self.model.tokenizer, extended, self.cfg.model, tags)
            self.lengths = own
            return model, schedule

    start = time.perf_counter()
    run(Continued(cfg), out, show_progress=True)
    return time.perf_counter() - start


def score(out: Path, words: int, dev: list[Any]) -> tuple[list[Any], float]:
    """Log-probs of the ``dev`` paragraphs by the model in ``out``, with the context it was
    trained with, and the words encoded per word tagged."""
    from accuracy import with_context

    from sciner.inference.tagger import Tagger

    tagger = Tagger.load(out)
    tokens = [p.tokens for p in dev]
    if words:
        return with_context(tagger, tokens, [p.source for p in dev], words)
    return tagger.log_probs(tokens), 1.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--words", type=int, default=16, help="Context words on each side.")
    parser.add_argument("--steps", type=int, default=150)
    parser.add_argument("--lr", type=float, default=3e-5)
    parser.add_argument("--out", type=Path, default=ROOT / "runs" / "context")
    args = parser.parse_args()

    from sciner.config import load_config
    from sciner.data.assemble import assemble
    from sciner.evaluate.bootstrap import paired_bootstrap
    from sciner.evaluate.metrics import classification_report
    from sciner.inference.calibrate import DEFAULT, cross_fitted_paper_tags, cross_fitted_tags

    cfg = load_config(ROOT / "configs" / "default.toml", [])
    corpus = assemble(cfg.data, seed=cfg.train.seed)
    tokens, gold = [p.tokens for p in corpus.dev], [p.tags or [] for p in corpus.dev]
    groups, docs = corpus.dev_group_of, [p.source for p in corpus.dev]
    runs = {"no context": 0, f"context {args.words}": args.words}
    tags: dict[str, dict[str, list[list[str]]]] = {}
    seconds: dict[str, float] = {}
    cost = 1.0
    for name, words in runs.items():
        out = args.out / ("none" if not words else f"words-{words}")
        if not (out / "model.json").is_file():
            seconds[name] = continue_training(words, args.steps, args.lr, out)
        log_probs, run_cost = score(out, words, corpus.dev)
        cost = max(cost, run_cost)
        local, biases = cross_fitted_tags(log_probs, gold, groups, DEFAULT)
        paper, _ = cross_fitted_paper_tags(tokens, log_probs, gold, groups, docs, biases)
        tags[name] = {"paragraph by paragraph": local, "paper-level": paper}
    base, ctx = list(runs)
    print(f"continued training of the shipped model: {args.steps} steps, lr {args.lr:g}, same batches; "
          f"context: up to {args.words} words each side ({cost:.2f} words encoded per word tagged on dev)")
    if seconds:
        print("training seconds: " + ", ".join(f"{k} {v:.0f}" for k, v in seconds.items()))
    for decoding in ("paragraph by paragraph", "paper-level"):
        reports = {n: classification_report(gold, tags[n][decoding]).to_dict() for n in runs}
        boot = paired_bootstrap(gold, tags[ctx][decoding], tags[base][decoding]).to_dict()
        print(f"\n{decoding} (cross-fitted)          {base:>12} {ctx:>12}")
        for t in reports[base]["per_type"]:
            print(f"  {t:<30}" + "".join(f"{reports[n]['per_type'][t]['f1']:>13.4f}" for n in runs))
        print(f"  {'micro':<30}" + "".join(f"{reports[n]['micro']['f1']:>13.4f}" for n in runs))
        print(f"  context - none: {boot['delta']:+.4f}, bootstrap p = {boot['p_value']:.3f}")
    print(json.dumps({"seconds": seconds}))


if __name__ == "__main__":
    main()
