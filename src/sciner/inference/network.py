"""What a back end of the tagger does (:class:`Network`): turn tokenized paragraphs into their tag
log-probabilities, and decode a paragraph alone with its head; :class:`~sciner.inference.tagger.Tagger`
decodes the rest (type biases, the paper-level pass). There are three, one module each:

- :mod:`sciner.inference.torch_network`: the model's torch network, every precision and device;
- :mod:`sciner.inference.numpy_network`: the same numbers in NumPy, fp32 on the CPU, for a plain
  BERT encoder whose head has a NumPy network: no torch imported;
- :mod:`sciner.inference.onnx_network`: a graph written by ``sciner export``, through onnxruntime.

:mod:`sciner.inference.choose` chooses which runs a call.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Optional, Protocol

import numpy as np

from sciner.config import ModelConfig
from sciner.document import Span

# What receives the token counts of a call as they finish.
Progress = Optional[Callable[[int], None]]


class Network(Protocol):
    """A back end: a model's numbers for tokenized paragraphs, in one precision on one device."""

    precision: str  # fp32, bf16 or int8
    device: str  # cpu or cuda

    @property
    def cfg(self) -> ModelConfig:
        """The model's config (``model.json``'s ``config.model``)."""
        ...

    def log_probs(self, paragraphs: Sequence[Sequence[str]], *, batch_subwords: int,
                  progress: Progress = None) -> list[np.ndarray]:
        """Each paragraph's (n_words, T) BIO log-probabilities before any type bias (heads that
        score tags); ``progress`` receives token counts as they finish."""
        ...

    def spans(self, paragraphs: Sequence[Sequence[str]], *, batch_subwords: int,
              progress: Progress = None) -> list[list[Span]]:
        """Each paragraph's entity spans, decoded alone by the model's head with its type biases."""
        ...

    def limit_threads(self, threads: int) -> None:
        """Compute on at most ``threads`` CPU threads."""
        ...
