"""NER training as a task of :mod:`sciner.training.loop`: batches by length, the model's tag
loss, dev F1 after each epoch, the best epoch saved as a model folder. The loop brings the
rest (schedule, checkpoints, resume, early stopping, interrupts); the same seed gives the
same model. A student learning from soft labels is this task with another loss
(:mod:`sciner.training.soft`); :func:`sciner.training.train.train` picks one and runs it."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from sciner.version import __version__
from sciner.model.batching import length_batches
from sciner.config import Config
from sciner.data.assemble import Corpus, assemble, check_dev_split
from sciner.document import Paragraph
from sciner.labels import BIO_TAGS
from sciner.provenance import git_commit
from sciner.training.loop import Progress, Schedule


def evaluate_model(model: Any, paragraphs: list[Paragraph], batch_subwords: int) -> dict[str, Any]:
    """Exact-span scores of ``model`` on tagged ``paragraphs`` (the ``sciner evaluate --json`` shape)."""
    from sciner.evaluate.metrics import classification_report
    from sciner.document import spans_to_bio
    from sciner.inference.batch import predict_spans

    spans = predict_spans(model, [p.tokens for p in paragraphs], batch_subwords=batch_subwords)
    pred = [spans_to_bio(s, len(p.tokens)) for s, p in zip(spans, paragraphs)]
    return classification_report([p.tags or [] for p in paragraphs], pred).to_dict()


# What a resumed run must keep: everything that shapes the data, the model, the batches and
# the schedule. Threads, device and patience may change.
# train.epochs may grow: a finished run kept with --keep-checkpoint is extended by --resume.
RESUME_FIXED = (
    "data.dev_groups", "data.exclude_groups", "data.max_block_tokens", "data.drop_references",
    "data.keep_empty_fraction", "data.files", "data.dev_files", "data.dev_share", "data.with_shared",
    "model", "train.init", "train.seed", "train.batch_subwords", "train.lr",
    "train.head_lr", "train.weight_decay", "train.warmup_ratio", "train.max_batches_per_epoch",
    "train.max_dev_paragraphs", "train.max_train_paragraphs",
)


def summary(cfg: Config, corpus: Corpus, train_paras: list[Paragraph], dev_paras: list[Paragraph],
            batches_per_epoch: int, device: Any) -> str:
    """What a run is about to do, printed before its first step: a wrong data folder, a
    forgotten override or a CPU run meant for a GPU shows at once, not after an epoch."""
    tc = cfg.train
    every = f"every {tc.checkpoint_every_steps} batches and " if tc.checkpoint_every_steps else ""
    source = "your papers" + (" and the shared groups" if cfg.data.with_shared else "") if cfg.data.files \
        else str(cfg.data.root())
    units = "papers" if cfg.data.files else "groups"
    return "\n".join([
        f"data     {source}: train {len(train_paras)} paragraphs, {_tokens(train_paras)} tokens "
        f"of {len(corpus.train_groups)} {units}; dev {len(dev_paras)} paragraphs, {_tokens(dev_paras)} tokens "
        f"of {len(corpus.dev_groups)} {units} ({', '.join(corpus.dev_groups)})",
        f"model    encoder {cfg.model.encoder}, head {cfg.model.head}"
        + (f", trained on from {cfg.train.init}" if cfg.train.init else ""),
        f"train    {tc.epochs} epochs of {batches_per_epoch} batches ({tc.batch_subwords} subwords), "
        f"lr {tc.lr:g} (heads {tc.head_lr:g}), seed {tc.seed}, patience {tc.patience}",
        f"compute  {device}, {tc.threads} threads; checkpoint {every}after each epoch",
    ])


def _tokens(paragraphs: list[Paragraph]) -> int:
    return sum(len(p.tokens) for p in paragraphs)


class NerTask:
    """Train a tagger on gold tags (see :class:`~sciner.training.loop.Task`)."""

    verb = "train"
    resume_fixed = RESUME_FIXED
    loss_parts: tuple[str, ...] = ()

    def __init__(self, cfg: Config, corpus: Corpus | None = None) -> None:
        cfg.validate()  # a config built in code gets the checks a config file gets
        self.cfg = cfg
        self.corpus = corpus
        self.epochs = cfg.train.epochs
        self.patience: int | None = cfg.train.patience
        # A model trained on is scored before its first step, and kept unless an epoch beats it.
        self.evaluate_first = bool(cfg.train.init)

    def prepare(self, device: Any) -> tuple[Any, Schedule]:
        from sciner.model.windows import featurize_many
        from sciner.model.store import build_model

        tc = self.cfg.train
        self.device = device
        corpus = self.corpus = self.corpus or assemble(self.cfg.data, seed=tc.seed)
        check_dev_split(corpus, self.cfg.data)
        train_paras = [p for p in corpus.train if p.tokens]
        if tc.max_train_paragraphs:
            train_paras = random.Random(tc.seed).sample(train_paras, min(tc.max_train_paragraphs, len(train_paras)))
        self.train_paras = train_paras
        self.dev_paras = corpus.dev[: tc.max_dev_paragraphs] if tc.max_dev_paragraphs else corpus.dev
        self.model = build_model(self.cfg.model)
        if tc.init:
            from sciner.model.store import load_weights

            load_weights(self.model, tc.init)
        self.model = self.model.to(device)
        self.feats = featurize_many(self.model.tokenizer, [p.tokens for p in train_paras], self.cfg.model,
                                    [p.tags for p in train_paras])
        self.lengths = [f.n_subwords + 2 for f in self.feats]
        per_epoch = len(length_batches(self.lengths, tc.batch_subwords, seed=tc.seed))
        self.per_epoch = min(per_epoch, tc.max_batches_per_epoch) if tc.max_batches_per_epoch else per_epoch
        total = max(1, self.per_epoch * tc.epochs)
        return self.model, Schedule(lr=tc.lr, head_lr=tc.head_lr, weight_decay=tc.weight_decay,
                                    warmup=max(1, int(tc.warmup_ratio * total)), total=total)

    def steps_per_epoch(self) -> int:
        return self.per_epoch

    def summary(self, device: Any) -> str:
        return summary(self.cfg, self.corpus, self.train_paras, self.dev_paras, self.per_epoch, device)

    def batches(self, at: Progress) -> Iterator[tuple[list[Any], dict[str, Any]]]:
        tc = self.cfg.train
        batches = length_batches(self.lengths, tc.batch_subwords, seed=tc.seed * 1000 + at.epoch)[: self.per_epoch]
        for batch in batches[at.batch:]:
            yield [self.feats[i] for i in batch], {}

    def loss(self, batch: list[Any], step: int) -> dict[str, Any]:
        return {"loss": self.model.loss(batch, self.cfg.train.batch_subwords)}

    def evaluate(self) -> dict[str, Any]:
        return evaluate_model(self.model, self.dev_paras, self.cfg.train.batch_subwords * 2)

    def meta(self) -> dict[str, Any]:
        """What ``model.json`` records of the run, besides the epoch and its scores."""
        from sciner.model.device import hardware

        return {**self.carried(),
            "labels": list(BIO_TAGS),
            "encoder": self.cfg.model.encoder,
            "config": self.cfg.to_dict(),
            "git_commit": git_commit(),
            "sciner_version": __version__,
            "data_dir": str(self.cfg.data.root()),
            "seed": self.cfg.train.seed,
            "train_paragraphs": len(self.train_paras),
            "train_tokens": _tokens(self.train_paras),
            "dev_groups": self.corpus.dev_groups,
            "dev_paragraphs": len(self.dev_paras),
            "hardware": hardware(self.device),
        }

    def carried(self) -> dict[str, Any]:
        """What a model trained on (``train.init``) passes on: its decoding settings fit by
        ``sciner calibrate`` (type biases, the paper-level pass), and where it came from."""
        if not self.cfg.train.init:
            return {}
        from sciner.model.store import load_model_meta

        meta = load_model_meta(self.cfg.train.init)[1]
        keep = {k: meta[k] for k in ("type_bias", "paper_level") if k in meta}
        return {**keep, "init": {"model": self.cfg.train.init, "dev_groups": meta.get("dev_groups"),
                                 "note": "type_bias and paper_level are the init model's; refit with sciner calibrate"}}

    def save_best(self, output: Path, at: Progress, scores: dict[str, Any]) -> None:
        from sciner.model.store import save_model

        save_model(self.model, output, {**self.meta(), "epoch": at.best_epoch + 1, "dev_scores": scores,
                                        "history": at.history})

    def finish(self, output: Path, at: Progress) -> None:
        """Nothing more: the best epoch's model was saved when it was evaluated."""
