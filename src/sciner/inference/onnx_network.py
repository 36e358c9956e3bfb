"""The ONNX back end (:class:`sciner.inference.network.Network`): a tagger written by ``sciner
export`` (:mod:`sciner.inference.onnx`), run through onnxruntime on the CPU, in fp32.

The graph computes the tensors; the features, windows, batching and decoding are the torch path's
own (:mod:`sciner.inference.batch`), :class:`OnnxNetwork` standing in for its network.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import torch

from sciner.config import Config, ModelConfig
from sciner.document import Span
from sciner.errors import ModelError
from sciner.inference.batch import predict_log_probs, predict_spans
from sciner.inference.network import Progress
from sciner.inference.onnx import INPUTS, META_KEY, require_extra
from sciner.model.encoder import encoder_folder
from sciner.model.heads import build_head
from sciner.model.network import Encoded, gather_rows, pad
from sciner.model.windows import Features, window_rows
from sciner.model.wordpiece import WordPieceTokenizer

ort = require_extra("onnxruntime")


class OnnxNetwork:
    """An exported tagger that :func:`sciner.inference.batch.predict_spans` runs like the torch
    network: the same features, windows, batching and decoding, the graph doing the tensors."""

    precision = "fp32"
    device = "cpu"
    training = False
    gives_log_probs = True  # head_inputs are the graph's tag log-probabilities, not word vectors

    def __init__(self, path: Path, threads: int) -> None:
        self.path = path
        try:
            self.session = self._session(threads)
            self.meta = json.loads(self.session.get_modelmeta().custom_metadata_map[META_KEY])
            self.cfg: ModelConfig = Config.from_dict(self.meta["config"], source=f"{path}: {META_KEY}").model
        except ModelError:
            raise
        except Exception as err:  # onnxruntime's own kinds for a file that is no ONNX graph, or not ours
            reason = str(err).strip().splitlines()[0][:200] if str(err).strip() else type(err).__name__
            raise ModelError(f"{path}: not a tagger written by `sciner export` ({reason})") from None
        self.tokenizer = WordPieceTokenizer(encoder_folder(self.cfg.encoder))
        # The model's own head decodes; the graph gives it log-probabilities, not word vectors.
        self.head = build_head(self.cfg, 1)
        if self.meta.get("type_bias"):
            self.head.set_type_bias(self.meta["type_bias"])
        self.head.decode = self.head.decode_log_probs

    @classmethod
    def load(cls, path: str | Path, precision: str = "auto",
             device: str = "auto") -> tuple["OnnxNetwork", dict[str, Any], Path]:
        """The exported tagger at ``path``, its ``model.json`` and path, as
        :func:`sciner.model.store.load_model` gives a folder's; it runs in fp32 on the CPU only."""
        if precision not in ("auto", "fp32") or device == "cuda":
            raise ModelError(f"{path}: an ONNX tagger runs in fp32 on the CPU (--precision fp32, --device cpu)")
        path = Path(path)
        if not path.is_file():
            raise ModelError(f"{path}: no such ONNX file")
        network = cls(path, torch.get_num_threads())
        return network, network.meta, path

    def _session(self, threads: int) -> Any:
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.log_severity_level = 3  # warnings only on failure
        return ort.InferenceSession(str(self.path), options, providers=["CPUExecutionProvider"])

    def log_probs(self, paragraphs: Sequence[Sequence[str]], *, batch_subwords: int,
                  progress: Progress = None) -> list[np.ndarray]:
        return predict_log_probs(self, [list(p) for p in paragraphs], batch_subwords=batch_subwords,
                                 progress=progress)

    def spans(self, paragraphs: Sequence[Sequence[str]], *, batch_subwords: int,
              progress: Progress = None) -> list[list[Span]]:
        return predict_spans(self, [list(p) for p in paragraphs], batch_subwords=batch_subwords, progress=progress)

    def limit_threads(self, threads: int) -> None:
        """Bound torch's threads (windows, decoding) and the graph's: a new session on ``threads``
        threads, since onnxruntime sets a session's threads when it starts it."""
        torch.set_num_threads(threads)
        if self.session.get_session_options().intra_op_num_threads != threads:
            self.session = self._session(threads)

    def eval(self) -> "OnnxNetwork":
        return self

    def train(self, mode: bool = True) -> "OnnxNetwork":
        return self

    def encode(self, feats: list[Features], batch_subwords: int) -> Encoded:
        """Each paragraph's (n_words, T) tag log-probabilities, from windows batched as the torch path batches them."""
        rows, owners = window_rows([f.pieces for f in feats], self.tokenizer.cls_token_id,
                                   self.tokenizer.sep_token_id, self.cfg.window, self.cfg.window_overlap)
        o = torch.tensor(owners, dtype=torch.long).reshape(-1, 4)
        shapes = torch.tensor([feats[b].shapes[j] for b, j in o[:, :2].tolist()], dtype=torch.long)

        def run(input_ids: torch.Tensor, attention: torch.Tensor, flat: torch.Tensor, sel: torch.Tensor) -> torch.Tensor:
            feeds = dict(zip(INPUTS, (input_ids.numpy(), attention.numpy(), flat.numpy(), shapes[sel].numpy())))
            return torch.from_numpy(self.session.run(None, feeds)[0])

        log_probs = gather_rows(rows, o[:, 2], o[:, 3], batch_subwords, run, window=self.cfg.window,
                                pad_id=self.tokenizer.pad_token_id, exact=True)
        return Encoded(list(log_probs.split([len(f.tokens) for f in feats])))

    def head_inputs(self, feats: list[Features], encoded: Encoded) -> tuple[torch.Tensor, torch.Tensor]:
        return pad(encoded.words)
