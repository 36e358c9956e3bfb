"""The fast model's tag log-probabilities in NumPy: tagging a line without importing torch.

Importing torch takes 1.5 s of the 1.9 s that ``sciner predict --model fast`` spent on one line
(AMD EPYC Zen 4, 2 cores, docs/fast.md). The fast model (the CNN head, registered with this
class as its ``numpy_network``, on ``num_layers = -1``) has no transformer layer, so its forward
pass is a few array operations, computed here in fp32 from the same weights and the same windows
as the torch path (:class:`sciner.model.network.NERModel` with
:class:`sciner.model.heads.cnn.CNNHead`):

1. each word's vector is its first subword's embedding row plus the position row of its place
   in its window (:func:`sciner.model.windows.window_rows`) and the first token-type row,
   through the embeddings' LayerNorm;
2. its shape embedding, and the sums of its hash-table rows (:mod:`sciner.model.hashing`);
3. one linear layer, ``depth`` residual convolutions over ``kernel`` words, ``dilation**k`` apart
   in layer k (LayerNorm, exact GELU), the
   BIO layer, log-softmax.

Decoding (type biases, constrained Viterbi, the paper-level pass) is :mod:`sciner.model.paper_decoding`'s,
NumPy already. ``tests/test_numpy_cnn.py`` holds these log-probabilities to the torch path's.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from sciner.config import Config
from sciner.model.hashing import FEATURES, SEEDS, cached_rows
from sciner.model.windows import featurize_many, window_rows

# nn.LayerNorm's default, which the CNN head's norms use.
HEAD_EPS = 1e-5


def _layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray, eps: float) -> np.ndarray:
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * weight + bias


# Abramowitz and Stegun 7.1.26: erf(z) = 1 - poly(t) exp(-z^2), t = 1 / (1 + P z), for z >= 0,
# within 1.5e-7 of erf; computed in float32 (float64 doubled the fast model's GELU time).
_AS_P = np.float32(0.3275911)
_AS_A = [np.float32(a) for a in (1.061405429, -1.453152027, 1.421413741, -0.284496736, 0.254829592)]


def _gelu(x: np.ndarray) -> np.ndarray:
    """GELU as torch computes it by default (with erf, not the tanh approximation), in float32."""
    z = np.abs(x, dtype=np.float32) * np.float32(1 / math.sqrt(2.0))
    t = 1.0 / (1.0 + _AS_P * z)
    poly = np.full_like(t, _AS_A[0])
    for a in _AS_A[1:]:
        poly *= t
        poly += a
    poly *= t
    np.square(z, out=z)
    np.negative(z, out=z)
    np.exp(z, out=z)
    poly *= z  # 1 - erf(|x| / sqrt 2)
    # 0.5 x (1 + erf(x / sqrt 2)): for x >= 0, x (1 - poly / 2); for x < 0, x poly / 2
    poly *= np.float32(0.5)
    return (x * np.where(x >= 0, np.float32(1) - poly, poly)).astype(np.float32, copy=False)


class NumpyCNN:
    """A fast model's network as arrays, with the attributes a :class:`~sciner.inference.tagger.Tagger`
    reads (``cfg``, ``tokenizer``); :meth:`log_probs` is :func:`sciner.inference.batch.predict_log_probs`."""

    def __init__(self, cfg: Config, directory: Path) -> None:
        from safetensors import safe_open
        from safetensors.numpy import load_file

        from sciner.model.encoder import encoder_folder
        from sciner.model.store import WEIGHTS, from_int8_rows
        from sciner.model.wordpiece import WordPieceTokenizer

        self.cfg = cfg.model
        w = {k: v.astype(np.float32, copy=False) for k, v in from_int8_rows(load_file(str(directory / WEIGHTS))).items()}
        folder = encoder_folder(cfg.model.encoder)
        if "encoder.embeddings.word_embeddings.weight" in w:  # not frozen: the model's own
            self.word_table = w["encoder.embeddings.word_embeddings.weight"]
        else:  # frozen: the encoder package's, read alone (most of the package is layers this model drops)
            with safe_open(str(folder / "model.safetensors"), framework="numpy") as f:
                key = next(k for k in f.keys() if k.removeprefix("bert.") == "embeddings.word_embeddings.weight")
                self.word_table = f.get_tensor(key).astype(np.float32)
        encoder_config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
        self.eps = float(encoder_config.get("layer_norm_eps", 1e-12))
        self.tokenizer = WordPieceTokenizer(folder)
        self.w = w
        self.hash_rows = cfg.model.head_settings.hash_rows
        self.depth = cfg.model.head_settings.depth
        self.kernel = cfg.model.head_settings.kernel
        self.dilation = cfg.model.head_settings.dilation
        self._rows: dict[str, tuple[int, ...]] = {}

    def word_vectors(self, tokens: list[list[str]]) -> tuple[np.ndarray, list[int]]:
        """(W, D) the head's inputs of every word of the non-empty paragraphs ``tokens``, in
        order (the mask channel left out), and each paragraph's word count."""
        feats = featurize_many(self.tokenizer, tokens, self.cfg)  # the torch path's subwords and shapes
        rows, owners = window_rows([f.pieces for f in feats], self.tokenizer.cls_token_id,
                                   self.tokenizer.sep_token_id, self.cfg.window, self.cfg.window_overlap)
        ids = np.fromiter((rows[r][pos] for _, _, r, pos in owners), dtype=np.int64, count=len(owners))
        positions = np.fromiter((pos for *_, pos in owners), dtype=np.int64, count=len(owners))
        w = self.w
        x = (self.word_table[ids] + w["encoder.embeddings.position_embeddings.weight"][positions]
             + w["encoder.embeddings.token_type_embeddings.weight"][0])
        x = _layer_norm(x, w["encoder.embeddings.LayerNorm.weight"], w["encoder.embeddings.LayerNorm.bias"], self.eps)
        words = [t for p in tokens for t in p]
        parts = [x]
        if self.cfg.shape_dim > 0:
            parts.append(w["shape.weight"][np.array([s for f in feats for s in f.shapes], dtype=np.int64)])
        table_rows = np.array(cached_rows(self._rows, words, self.hash_rows), dtype=np.int64)
        hashed = w["head.hashes.weight"][table_rows]  # (W, F*S, dim)
        parts.append(hashed.reshape(len(words), len(FEATURES), len(SEEDS), -1).sum(axis=2).reshape(len(words), -1))
        return np.concatenate(parts, axis=1).astype(np.float32, copy=False), [len(p) for p in tokens]

    def forward(self, inputs: np.ndarray, counts: list[int]) -> np.ndarray:
        """(W, T) tag log-probabilities of the words ``inputs`` (paragraphs of ``counts`` words,
        in order): the convolutions see zeros beyond a paragraph's ends, as its padding."""
        w = self.w
        half = self.kernel // 2 * self.dilation ** max(self.depth - 1, 0)  # the widest layer's reach
        width = w["head.project.bias"].shape[0]
        # Paragraphs laid end to end with `half` zero rows between and around them: a paragraph's
        # words never see another's, exactly as the padded batch of the torch path.
        starts = np.cumsum([0, *[n + half for n in counts]])[:-1] + half
        total = int(starts[-1] + counts[-1] + half) if counts else 0
        keep = np.zeros((total, 1), dtype=np.float32)
        where = np.concatenate([np.arange(s, s + n) for s, n in zip(starts, counts)])
        keep[where] = 1.0
        x = np.zeros((total, width), dtype=np.float32)
        x[where] = inputs @ w["head.project.weight"].T + w["head.project.bias"]
        for k in range(self.depth):
            weight = w[f"head.convs.{k}.weight"]  # (out, in, kernel)
            step = np.zeros_like(x)
            step += w[f"head.convs.{k}.bias"]
            for j in range(self.kernel):
                shift = (j - self.kernel // 2) * self.dilation**k
                lo, hi = max(0, -shift), total - max(0, shift)
                step[lo:hi] += x[lo + shift:hi + shift] @ weight[:, :, j].T
            normed = _layer_norm(step, w[f"head.norms.{k}.weight"], w[f"head.norms.{k}.bias"], HEAD_EPS)
            x = x + _gelu(normed) * keep
        logits = x[where] @ w["head.out.weight"].T + w["head.out.bias"]
        shifted = logits - logits.max(axis=1, keepdims=True)
        return (shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))).astype(np.float32)

    def log_probs(self, paragraphs: Sequence[Sequence[str]], *,
                  progress: Callable[[int], None] | None = None, chunk_words: int = 20000) -> list[np.ndarray]:
        """Each paragraph's (n_words, T) BIO log-probabilities, as the torch path computes them."""
        from sciner.labels import BIO_TAGS

        out = [np.zeros((0, len(BIO_TAGS)), dtype=np.float32) for _ in paragraphs]
        chunk: list[int] = []
        words = 0

        def run(indices: list[int]) -> None:
            if not indices:
                return
            inputs, counts = self.word_vectors([list(paragraphs[i]) for i in indices])
            scores = self.forward(inputs, counts)
            for i, part in zip(indices, np.split(scores, np.cumsum(counts)[:-1])):
                out[i] = part
            if progress is not None:
                progress(sum(counts))

        for i, p in enumerate(paragraphs):
            if not p:
                continue
            chunk.append(i)
            words += len(p)
            if words >= chunk_words:
                run(chunk)
                chunk, words = [], 0
        run(chunk)
        return out

