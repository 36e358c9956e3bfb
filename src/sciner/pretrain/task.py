"""Continued pretraining as a task of :mod:`sciner.training.loop`: span-masked segments of raw
text, the masked-LM plus span boundary loss, and the final encoder saved for ``sciner train``.

Output folder (besides the loop's ``checkpoint.pt`` and ``loss.tsv``, whose rows carry the
``mlm`` and ``sbo`` parts of the loss):

- ``config.json``: the config of the run (with the encoder learning rate it chose);
- ``encoder/``: the final encoder and tokenizer (``save_pretrained``), usable as the
  ``model.encoder`` of ``sciner train``, with ``sciner_pretrain.json`` saying how it was made.

Each step's masking uses its own generator seeded by ``(train.seed, step)``, and the data
stream resumes from a saved :class:`~sciner.pretrain.corpus.StreamPosition`, so a resumed run
sees exactly the batches an uninterrupted one would have.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import torch

from sciner.config import Config
from sciner.outputs import write_atomic
from sciner.training.loop import Progress, Schedule, read_ahead, training_steps

# The folder `sciner pretrain` writes to when neither -o nor an older config file names one.
DEFAULT_OUTPUT = "runs/pretrain-minilm"
# Fields that define the model or the data stream: a resumed run must keep them.
RESUME_FIXED = (
    "model.encoder", "model.freeze_word_embeddings", "train.seed", "pretrain.raw_data", "pretrain.raw_cache",
    "pretrain.seq_len", "pretrain.batch_size", "pretrain.min_segment_words", "pretrain.pool_batches",
    "pretrain.sbo_position_dim",
)


def raw_folder(cfg: Config) -> Path:
    """The raw-text folder: ``pretrain.raw_data``, else the data folder's ``raw/``."""
    return Path(cfg.pretrain.raw_data) if cfg.pretrain.raw_data else cfg.data.root() / "raw"


class PretrainTask:
    """Span masking + SBO on raw text (see :class:`~sciner.training.loop.Task`): one epoch of
    ``pretrain.steps`` steps, no evaluation."""

    verb = "pretrain"
    resume_fixed = RESUME_FIXED
    loss_parts = ("mlm", "sbo")
    patience = None

    def __init__(self, cfg: Config) -> None:
        cfg.validate()
        self.cfg = cfg
        self.epochs = 1
        self.saved_to: Path | None = None  # the final encoder's folder, once finish() wrote it

    def prepare(self, device: torch.device) -> tuple[torch.nn.Module, Schedule]:
        from sciner.model.encoder import encoder_folder, load_encoder
        from sciner.pretrain.objectives import SpanBertPretrainer

        pc = self.cfg.pretrain
        # sciner's one encoder loader: offline, no custom code, no bars of transformers' own.
        encoder, self.tokenizer = load_encoder(str(encoder_folder(self.cfg.model.encoder)))
        torch.manual_seed(self.cfg.train.seed)  # the heads start from the seed, whatever loading drew
        model = SpanBertPretrainer(encoder, pc.seq_len, pc.sbo_position_dim)
        if self.cfg.model.freeze_word_embeddings:
            model.encoder.get_input_embeddings().weight.requires_grad_(False)
        self.model = model.to(device)
        self.device = device
        # config.json and the checkpoints say which learning rate lr = 0 chose.
        self.cfg = dataclasses.replace(self.cfg, pretrain=dataclasses.replace(
            pc, lr=pc.encoder_lr(model.encoder.config.hidden_size)))
        pc = self.cfg.pretrain
        return model, Schedule(lr=pc.lr, head_lr=pc.head_lr, weight_decay=pc.weight_decay,
                               warmup=pc.warmup_steps, total=pc.steps)

    def steps_per_epoch(self) -> int:
        return self.cfg.pretrain.steps

    def summary(self, device: torch.device) -> str:
        pc, tc = self.cfg.pretrain, self.cfg.train
        source = pc.raw_cache or raw_folder(self.cfg)
        return "\n".join([
            f"data     {source}: segments of {pc.seq_len} subwords, {pc.batch_size} a step",
            f"model    encoder {self.cfg.model.encoder}, span masking {pc.mask_ratio:g} + SBO",
            f"train    {pc.steps} steps, lr {pc.lr:g} (heads {pc.head_lr:g}), seed {tc.seed}",
            f"compute  {device}, {tc.threads} threads",
        ])

    def batches(self, at: Progress) -> Iterator[tuple[Any, dict[str, Any]]]:
        from sciner.pretrain.batch import mask_batch, random_token_ids
        from sciner.pretrain.corpus import SegmentStream, StreamPosition
        from sciner.pretrain.masking import MaskingConfig

        pc, seed = self.cfg.pretrain, self.cfg.train.seed
        tokenizer = self.tokenizer
        masking = MaskingConfig(mask_ratio=pc.mask_ratio, geometric_p=pc.geometric_p, max_span_words=pc.max_span_words)
        replacement_ids = random_token_ids(tokenizer)
        index = open_corpus(self.cfg, tokenizer)

        def masked() -> Iterator[tuple[Any, dict[str, Any]]]:
            stream = SegmentStream(index, tokenizer, pc.seq_len, pc.batch_size, seed, pc.min_segment_words,
                                   pc.pool_batches).batches(StreamPosition(**at.position))
            for step in range(at.step, pc.steps):
                segments, position = next(stream)
                yield (mask_batch(segments, np.random.default_rng([seed, step]), masking, tokenizer.mask_token_id,
                                  tokenizer.pad_token_id, replacement_ids), dataclasses.asdict(position))

        batches = read_ahead(masked())  # masking on the CPU while the step runs (on a GPU, half a step's time)
        try:
            for batch, position in batches:
                yield _to_device(batch, self.device), position
        finally:
            batches.close()
            index.close()

    def loss(self, batch: Any, step: int) -> dict[str, torch.Tensor]:
        loss = self.model(batch)
        return {"loss": loss.total, "mlm": loss.mlm, "sbo": loss.sbo}

    def evaluate(self) -> None:
        return None

    def save_best(self, output: Path, at: Progress, scores: dict[str, Any]) -> None:
        """Never called: pretraining does not evaluate."""

    def finish(self, output: Path, at: Progress) -> None:
        """Save the encoder so that it loads like any HF folder, with a note of how it was made."""
        from sciner.model.device import hardware

        folder = output / "encoder"
        folder.mkdir(parents=True, exist_ok=True)
        self.model.encoder.save_pretrained(folder)
        self.tokenizer.save_pretrained(folder)
        note = {"made_by": "sciner pretrain", "steps": at.step, "config": self.cfg.to_dict(),
                "hardware": hardware(self.device)}
        write_atomic(folder / "sciner_pretrain.json", json.dumps(note, indent=2) + "\n")
        self.saved_to = folder


def pretrain(cfg: Config, output: str | Path = DEFAULT_OUTPUT, *, resume: bool = False, progress: bool = True,
             stop_after: int | None = None, resume_command: str | None = None) -> Path | None:
    """Run (or resume) continued pretraining as ``cfg`` says into ``output``; return the
    folder of the final encoder.

    ``stop_after`` ends this invocation after that many steps with a checkpoint (and returns
    None), as an interruption would: the run goes on later with ``resume=True``. Ctrl-C or
    SIGTERM saves a checkpoint after the current step.
    """
    output = Path(output)
    task = PretrainTask(cfg)
    at = None
    for step in training_steps(task, output, resume=resume, show_progress=progress, resume_command=resume_command,
                               stop_after=stop_after):
        if at is None:  # the run's config, with the learning rate it chose, once the checkpoint is read
            write_atomic(output / "config.json", json.dumps(task.cfg.to_dict(), indent=2) + "\n")
        at = step.progress
    return task.saved_to  # None until the run is finished: its steps done, or train.max_minutes reached


def open_corpus(cfg: Config, tokenizer: Any) -> Any:
    """The paragraphs to pretrain on: the cache ``pretrain.raw_cache`` (made first when it is
    not there yet) or, without one, the raw folder, tokenized as it is read."""
    from sciner.pretrain.cache import META, CachedParagraphs, build_cache
    from sciner.pretrain.corpus import ParagraphIndex, raw_files

    cache = cfg.pretrain.raw_cache
    if not cache:
        return ParagraphIndex(raw_files(raw_folder(cfg)))
    if not (Path(cache) / META).exists():
        build_cache(raw_folder(cfg), tokenizer, Path(cache))
    return CachedParagraphs(cache, tokenizer)


def _to_device(batch: Any, device: torch.device) -> Any:
    """The masked batch with its tensors on ``device``."""
    return dataclasses.replace(batch, **{f.name: getattr(batch, f.name).to(device)
                                         for f in dataclasses.fields(batch)})


__all__ = ["PretrainTask", "pretrain", "raw_folder"]
