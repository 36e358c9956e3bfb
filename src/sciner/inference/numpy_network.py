"""The NumPy back end (:class:`sciner.inference.network.Network`): a model's tag log-probabilities
in NumPy, fp32 on the CPU, tagging without importing torch (importing it takes longer than the
fast model takes to tag a line: docs/benchmarks.md, "NumPy or torch").

A model on a plain BERT encoder (MiniLM) whose head's registered ``numpy_network`` is one of these
classes (the BIO head's :class:`NumpyNetwork`, the CNN head's :class:`NumpyCNN`) is computed here,
from the same weights and the same windows as the torch path (:class:`sciner.model.network.NERModel`),
in the calls :mod:`sciner.inference.choose` gives it (every call of a model of few transformer
layers, the small calls of a deeper one):

1. the windows of subwords (:func:`sciner.model.windows.window_rows`) through the encoder's
   embeddings (word, position and first token-type rows, LayerNorm) and its first layers
   (BERT's: self-attention over the window, then the feed-forward block, each with its
   residual LayerNorm; the last layer's queries and all after them only at the subwords the
   head reads); a word's vector is its first subword's, from the window that owns it. With
   ``limit_threads(N)`` the batches of windows are shared between N threads;
   with no layer (``num_layers = -1``) only the words' own rows are computed;
2. its shape embedding; for the CNN head the sums of its hash-table rows (:mod:`sciner.model.hashing`),
   one linear layer and ``depth`` residual convolutions over ``kernel`` words, ``dilation**k``
   apart in layer k (LayerNorm, GELU: a float32 fit within 1.2e-5 of the exact one);
3. the BIO layer, log-softmax.

Decoding (type biases, constrained Viterbi, the paper-level pass) is :mod:`sciner.model.paper_decoding`'s,
NumPy already. ``tests/test_numpy_network.py`` holds these log-probabilities to the torch path's.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
from safetensors import SafetensorError, safe_open
from threadpoolctl import threadpool_limits

from sciner.config import Config, ModelConfig
from sciner.document import Span
from sciner.errors import ModelError
from sciner.inference.network import Progress
from sciner.labels import BIO_TAGS
from sciner.model.batching import BATCH_SUBWORDS, length_batches
from sciner.model.encoder import encoder_folder, loading, plain_bert, read_json_object
from sciner.model.hashing import FEATURES, SEEDS, cached_rows
from sciner.model.paper_decoding import PaperLevel, decode_documents, scored_spans
from sciner.model.store import META, WEIGHTS, read_weights, unreadable, wrong_shape
from sciner.model.windows import bucket_length, featurize_many, window_rows
from sciner.model.wordpiece import WordPieceTokenizer

# nn.LayerNorm's default, which the CNN head's norms use.
HEAD_EPS = 1e-5


def bert_layers(encoder: str) -> bool:
    """Whether the encoder ``encoder`` (a name or folder) is the plain BERT computed here
    (MiniLM; not MPNet, whose attention adds relative-position biases, nor a folder whose
    weights are not safetensors): :func:`sciner.model.encoder.plain_bert`."""
    return plain_bert(encoder_folder(encoder))


def _layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray, eps: float) -> np.ndarray:
    """LayerNorm over the last axis of the float32 array ``x``, IN PLACE (every caller's ``x`` is
    a temporary); the variance as one dot product a row (einsum), with no squared copy: half the
    time of the form with copies (docs/fast.md, "GELU, attention and the CNN's convolutions")."""
    x -= x.mean(axis=-1, keepdims=True)
    var = np.einsum("...i,...i->...", x, x)[..., None]
    var *= np.float32(1 / x.shape[-1])
    var += np.float32(eps)
    np.sqrt(var, out=var)
    x /= var
    x *= weight
    x += bias
    return x


# GELU as x * sigmoid(2 p(x)) = 0.5 x (1 + tanh(p(x))), p an odd polynomial fitted so that
# tanh(p(x)) follows erf(x / sqrt 2) (fitted on [0, 6], degree 7): within 1.2e-5 of the exact GELU
# (torch's default, with erf) everywhere, where the usual tanh form (p = sqrt(2/pi) (x + 0.044715
# x^3)) is 4.7e-4 off. Twelve float32 passes, in place, against the twenty-odd of an erf series
# (Abramowitz and Stegun 7.1.26, used before, within 4e-7): 2 to 3 times faster (docs/fast.md,
# "GELU, attention and the CNN's convolutions"). The coefficients are -2 x those of p in x^2, so
# the one exp gives exp(-2 p(x)); x^2 is capped at 36 (|x| = 6, where the sigmoid is 1 or 0
# within 6e-8) because the fitted p turns back beyond |x| = 7.8.
_GELU_P = tuple(np.float32(-2 * c) for c in (7.97689304e-01, 3.67317534e-02, -2.55359096e-04, -8.58942754e-06))
_GELU_CAP = np.float32(36)

# GELU's passes run over blocks of this many numbers, which stay in the core's cache: much faster
# on a transformer layer's (subwords x 1536) activations than passes over all of them
# (docs/benchmarks.md, "NumPy or torch").
GELU_BLOCK = 1 << 15


def _gelu(x: np.ndarray) -> np.ndarray:
    """GELU, within 1.2e-5 of torch's default (exact, with erf), in float32, IN PLACE where ``x``
    is a contiguous float32 array (else on a float32 copy); returns the result."""
    x = np.ascontiguousarray(x, dtype=np.float32)
    flat = x.reshape(-1)
    u = np.empty(min(flat.size, GELU_BLOCK), dtype=np.float32)
    p = np.empty_like(u)
    with np.errstate(over="ignore"):  # |x| beyond 1e19: x^2 or exp(-2 p) is inf, and the result still exact
        for i in range(0, flat.size, GELU_BLOCK):
            v = flat[i:i + GELU_BLOCK]
            uu, pp = u[:v.size], p[:v.size]
            np.square(v, out=uu)
            np.minimum(uu, _GELU_CAP, out=uu)
            np.multiply(uu, _GELU_P[-1], out=pp)
            for c in _GELU_P[-2:0:-1]:
                pp += c
                pp *= uu
            pp += _GELU_P[0]
            pp *= v  # -2 p(x)
            np.exp(pp, out=pp)
            pp += np.float32(1)
            np.divide(v, pp, out=v)  # x / (1 + exp(-2 p(x)))
    return x


class NumpyNetwork:
    """A model's network as arrays (read at its first call): the NumPy back end
    (:class:`sciner.inference.network.Network`), fp32 on the CPU; :meth:`log_probs` is
    :func:`sciner.inference.batch.predict_log_probs`."""

    precision = "fp32"
    device = "cpu"

    def __init__(self, cfg: Config, directory: Path, type_bias: dict[str, float] | None = None) -> None:
        self.cfg: ModelConfig = cfg.model
        self.type_bias = dict(type_bias or {})  # the model's, as its torch head holds it
        self.path = directory / WEIGHTS
        self.folder = encoder_folder(cfg.model.encoder)
        encoder_config = read_json_object(self.folder / "config.json")
        self.eps = float(encoder_config.get("layer_norm_eps", 1e-12))
        self.attention_heads = int(encoder_config["num_attention_heads"])
        self.hidden = int(encoder_config["hidden_size"])
        self._arrays_checked = False
        self.threads = 1  # the threads that share the encoder's batches (limit_threads)

    @classmethod
    def load(cls, cfg: Config, directory: Path, type_bias: dict[str, float] | None = None) -> NumpyNetwork:
        """The network of the model in ``directory`` (config ``cfg``, type biases ``type_bias``),
        its weights file checked (:meth:`check`); the arrays are read at the first call, which a
        deep model's large calls never make (they run in torch)."""
        network = cls(cfg, directory, type_bias)
        network.check()
        return network

    def head_width(self) -> int:
        """The BIO layer's inputs: the encoder's state and the word-shape embedding."""
        return self.hidden + self.cfg.shape_dim

    def check(self) -> None:
        """Refuse, in one line, a weights file that safetensors cannot read or whose weights do
        not fit the config (a shape other than the encoder package's or the BIO layer's), from
        the files' headers: no array is read."""
        try:
            with safe_open(str(self.path), framework="numpy") as f:
                shapes = {k: list(f.get_slice(k).get_shape()) for k in f.keys()}
        except (SafetensorError, OSError) as err:
            raise unreadable(self.path, err) from None
        with loading(self.cfg.encoder, self.folder), \
                safe_open(str(self.folder / "model.safetensors"), framework="numpy") as f:
            package = {k.removeprefix("bert."): list(f.get_slice(k).get_shape()) for k in f.keys()}
        needs = {"encoder." + k: v for k, v in package.items()}
        needs.update({"head.out.weight": [len(BIO_TAGS), self.head_width()], "head.out.bias": [len(BIO_TAGS)]})
        for key, shape in shapes.items():
            if key in needs and shape != needs[key]:
                raise wrong_shape(self.path, key, shape, needs[key])

    @functools.cached_property
    def w(self) -> dict[str, np.ndarray]:
        """The model's weights, fp32 (read at the first call)."""
        return {k: v.astype(np.float32, copy=False) for k, v in read_weights(self.path).items()}

    def _check_arrays(self) -> None:
        """One word through the network before the first call's: a misfit that the headers did not
        show (a missing weight) is a one-line error, not a traceback halfway through an input."""
        if self._arrays_checked:
            return
        try:
            self.forward(*self.word_vectors([["a"]]))
        except KeyError as err:
            raise ModelError(f"{self.path}: weights do not match the model of {META} (missing {err})") from None
        except (ValueError, IndexError) as err:
            raise ModelError(f"{self.path}: weights do not match the model of {META} "
                             f"({str(err).splitlines()[0][:160]})") from None
        self._arrays_checked = True

    @functools.cached_property
    def word_table(self) -> np.ndarray:
        """The word embeddings: the model's own, or where frozen the encoder package's, read alone
        (most of the package is layers this model drops)."""
        own = self.w.get("encoder.embeddings.word_embeddings.weight")
        if own is not None:
            return own
        with loading(self.cfg.encoder, self.folder), \
                safe_open(str(self.folder / "model.safetensors"), framework="numpy") as f:
            key = next(k for k in f.keys() if k.removeprefix("bert.") == "embeddings.word_embeddings.weight")
            return f.get_tensor(key).astype(np.float32)

    @functools.cached_property
    def tokenizer(self) -> WordPieceTokenizer:
        return WordPieceTokenizer(self.folder)

    @functools.cached_property
    def layers(self) -> list[dict[str, np.ndarray]]:
        return [self._layer(self.w, f"encoder.encoder.layer.{i}.") for i in range(self._count_layers(self.w))]

    @staticmethod
    def _count_layers(w: dict[str, np.ndarray]) -> int:
        return len({k.split(".")[3] for k in w if k.startswith("encoder.encoder.layer.")})

    @staticmethod
    def _layer(w: dict[str, np.ndarray], p: str) -> dict[str, np.ndarray]:
        """One BERT layer's weights, transposed for ``x @ W``, query/key/value side by side."""
        att = p + "attention."
        return {
            "qkv": np.concatenate([w[f"{att}self.{n}.weight"] for n in ("query", "key", "value")]).T.copy(),
            "qkv_b": np.concatenate([w[f"{att}self.{n}.bias"] for n in ("query", "key", "value")]),
            "out": w[f"{att}output.dense.weight"].T.copy(), "out_b": w[f"{att}output.dense.bias"],
            "ln1": w[f"{att}output.LayerNorm.weight"], "ln1_b": w[f"{att}output.LayerNorm.bias"],
            "up": w[p + "intermediate.dense.weight"].T.copy(), "up_b": w[p + "intermediate.dense.bias"],
            "down": w[p + "output.dense.weight"].T.copy(), "down_b": w[p + "output.dense.bias"],
            "ln2": w[p + "output.LayerNorm.weight"], "ln2_b": w[p + "output.LayerNorm.bias"],
        }

    def _embed(self, ids: np.ndarray, positions: np.ndarray) -> np.ndarray:
        w = self.w
        x = self.word_table[ids] + w["encoder.embeddings.position_embeddings.weight"][positions]
        x += w["encoder.embeddings.token_type_embeddings.weight"][0]
        return _layer_norm(x, w["encoder.embeddings.LayerNorm.weight"], w["encoder.embeddings.LayerNorm.bias"], self.eps)

    def _encode(self, ids: np.ndarray, mask: np.ndarray, wanted: np.ndarray) -> np.ndarray:
        """(P, H) the states at the flat positions ``wanted`` (row * L + position, ascending) of
        the windows ``ids`` (B, L) with real subwords where ``mask``. The last layer computes its
        queries, attention output and feed-forward block at those positions only (the words'
        first subwords, which the head reads; keys and values at every position): the same
        numbers on fewer rows."""
        b, n = ids.shape
        hidden = self.hidden
        x = self._embed(ids, np.arange(n)[None, :]).reshape(b * n, hidden)
        blocked = np.where(mask, np.float32(0), np.float32(-1e30))[:, None, None, :]  # padding gets no attention
        for layer in self.layers[:-1]:
            qkv = x @ layer["qkv"]
            qkv += layer["qkv_b"]
            q, k, v = (self._split_heads(part, b) for part in np.split(qkv, 3, axis=1))
            x = self._after_attention(self._attention(q, k, v, blocked).reshape(b * n, hidden), x, layer)
        last = self.layers[-1]
        kv = x @ last["qkv"][:, hidden:]
        kv += last["qkv_b"][hidden:]
        k, v = (self._split_heads(part, b) for part in np.split(kv, 2, axis=1))
        # Each row's wanted positions in slots of their own (the rows' counts differ; the spare
        # slots' zero queries attend harmlessly and are never read).
        row = wanted // n
        counts = np.bincount(row, minlength=b)
        width = int(counts.max(initial=0))
        slots = row * width + np.arange(len(wanted)) - np.repeat(np.cumsum(counts) - counts, counts)
        x = x[wanted]
        queries = x @ last["qkv"][:, :hidden]
        queries += last["qkv_b"][:hidden]
        q = np.zeros((b * width, hidden), dtype=np.float32)
        q[slots] = queries
        context = self._attention(self._split_heads(q, b), k, v, blocked).reshape(b * width, hidden)[slots]
        return self._after_attention(context, x, last)

    def _split_heads(self, x: np.ndarray, b: int) -> np.ndarray:
        """(B, heads, L, d) the heads of ``x`` (B * L, H), contiguous: NumPy's stacked matmul calls
        BLAS only on contiguous matrices."""
        return np.ascontiguousarray(x.reshape(b, -1, self.attention_heads, self.hidden // self.attention_heads)
                                    .transpose(0, 2, 1, 3))

    @staticmethod
    def _attention(q: np.ndarray, k: np.ndarray, v: np.ndarray, blocked: np.ndarray) -> np.ndarray:
        """(B, Q, H) scaled dot-product attention of the queries ``q`` (B, heads, Q, d) over the
        keys ``k`` and values ``v`` (B, heads, L, d), ``blocked`` (B, 1, 1, L) added to the scores."""
        d = q.shape[-1]
        q *= np.float32(1 / math.sqrt(d))  # on (Q x d), not on the (Q x L) scores: d < L
        scores = q @ k.transpose(0, 1, 3, 2)
        scores += blocked
        scores -= scores.max(axis=-1, keepdims=True)
        np.exp(scores, out=scores)
        # The softmax's division on the (Q x d) context, not on the (Q x L) weights.
        context = scores @ v
        context /= scores.sum(axis=-1, keepdims=True)
        b, heads, queries, _ = context.shape
        return context.transpose(0, 2, 1, 3).reshape(b, queries, heads * d)

    def _after_attention(self, context: np.ndarray, x: np.ndarray, layer: dict[str, np.ndarray]) -> np.ndarray:
        """The layer's output from its attention's ``context`` (N, H) at the rows ``x`` (N, H):
        the output projection, residual and LayerNorm, then the feed-forward block's."""
        out = context @ layer["out"]
        out += layer["out_b"]
        out += x
        x = _layer_norm(out, layer["ln1"], layer["ln1_b"], self.eps)
        return _layer_norm(self._feed_forward(x, layer), layer["ln2"], layer["ln2_b"], self.eps)

    @staticmethod
    def _feed_forward(x: np.ndarray, layer: dict[str, np.ndarray]) -> np.ndarray:
        """``x`` + the feed-forward block of ``x`` (the input of the layer's second LayerNorm),
        the biases and residual added in place. (Blocks of 256 rows kept in the cache from the
        up-projection to the down-projection were no faster: docs/fast.md, "GELU, attention and
        the CNN's convolutions".)"""
        up = x @ layer["up"]
        up += layer["up_b"]
        out = _gelu(up) @ layer["down"]
        out += layer["down_b"]
        out += x
        return out

    def _states(self, rows: list[list[int]], owners: list[tuple[int, int, int, int]],
                batch_subwords: int) -> np.ndarray:
        """(W, H) each owned word's vector: its first subword's state in its window."""
        at_row = np.fromiter((r for _, _, r, _ in owners), dtype=np.int64, count=len(owners))
        at_pos = np.fromiter((pos for *_, pos in owners), dtype=np.int64, count=len(owners))
        if not self.layers:  # the embeddings only: just the owned subwords' rows
            ids = np.fromiter((rows[r][pos] for _, _, r, pos in owners), dtype=np.int64, count=len(owners))
            return self._embed(ids, at_pos)
        out = np.zeros((len(owners), self.hidden), dtype=np.float32)
        order = np.argsort(at_row, kind="stable")
        first = np.searchsorted(at_row[order], np.arange(len(rows) + 1))
        padded = [bucket_length(len(row), self.cfg.window) for row in rows]
        # The torch path's exact batches (sciner.model.network.gather_rows): rows of one padded length.
        batches = length_batches(padded, batch_subwords, same_length=True)

        def encode(batch: list[int]) -> tuple[np.ndarray, np.ndarray]:
            """(the batch's owned words, their states)."""
            length = padded[batch[0]]
            ids = np.full((len(batch), length), self.tokenizer.pad_token_id, dtype=np.int64)
            mask = np.zeros((len(batch), length), dtype=bool)
            words = [order[first[r]:first[r + 1]] for r in batch]
            for j, r in enumerate(batch):
                ids[j, :len(rows[r])] = rows[r]
                mask[j, :len(rows[r])] = True
            wanted = np.concatenate([j * length + at_pos[w] for j, w in enumerate(words)])
            return np.concatenate(words), self._encode(ids, mask, wanted)

        for words, states in self._each(encode, batches):
            out[words] = states
        return out

    def _each(self, encode: Callable[[list[int]], tuple[np.ndarray, np.ndarray]],
              batches: list[list[int]]) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """``encode`` of each batch, in order: with more than one thread, the batches are shared
        out between ``threads`` Python threads, each with one BLAS thread, so that the layer's
        element-wise passes (LayerNorm, GELU, the softmax) run on every core too, not only its
        matrix products; and no BLAS thread spins waiting for another on a busy machine
        (docs/fast.md, "Queries at the wanted positions, and the batches on every core")."""
        if self.threads <= 1 or len(batches) <= 1:
            yield from map(encode, batches)
            return
        with threadpool_limits(1), ThreadPoolExecutor(self.threads) as pool:
            yield from pool.map(encode, batches)

    def word_vectors(self, tokens: list[list[str]],
                     batch_subwords: int = BATCH_SUBWORDS) -> tuple[np.ndarray, list[int]]:
        """(W, D) the head's inputs of every word of the non-empty paragraphs ``tokens``, in
        order (the mask channel left out), and each paragraph's word count; the windows go
        through the encoder ``batch_subwords`` subwords a batch."""
        feats = featurize_many(self.tokenizer, tokens, self.cfg)  # the torch path's subwords and shapes
        rows, owners = window_rows([f.pieces for f in feats], self.tokenizer.cls_token_id,
                                   self.tokenizer.sep_token_id, self.cfg.window, self.cfg.window_overlap)
        parts = [self._states(rows, owners, batch_subwords)]
        w = self.w
        if self.cfg.shape_dim > 0:
            parts.append(w["shape.weight"][np.array([s for f in feats for s in f.shapes], dtype=np.int64)])
        parts.extend(self.head_inputs(tokens))
        return np.concatenate(parts, axis=1).astype(np.float32, copy=False), [len(p) for p in tokens]

    def forward(self, inputs: np.ndarray, counts: list[int]) -> np.ndarray:
        """(W, T) tag log-probabilities of the words ``inputs`` (paragraphs of ``counts`` words, in order)."""
        x = self.head_states(inputs, counts)
        logits = x @ self.w["head.out.weight"].T + self.w["head.out.bias"]
        shifted = logits - logits.max(axis=1, keepdims=True)
        return (shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))).astype(np.float32)

    def head_inputs(self, tokens: list[list[str]]) -> list[np.ndarray]:
        """What the head adds to each word's vector and shape (the BIO head: nothing)."""
        return []

    def head_states(self, inputs: np.ndarray, counts: list[int]) -> np.ndarray:
        """(W, D) what the BIO layer reads, from the words ``inputs`` (paragraphs of ``counts``
        words, in order); the BIO head reads them as they are."""
        return inputs

    def log_probs(self, paragraphs: Sequence[Sequence[str]], *, batch_subwords: int,
                  progress: Progress = None, chunk_words: int = 20000) -> list[np.ndarray]:
        """Each paragraph's (n_words, T) BIO log-probabilities, as the torch path computes them
        (its windows batched as it batches them, ``batch_subwords`` a batch)."""
        self._check_arrays()

        out = [np.zeros((0, len(BIO_TAGS)), dtype=np.float32) for _ in paragraphs]
        chunk: list[int] = []
        words = 0

        def run(indices: list[int]) -> None:
            if not indices:
                return
            inputs, counts = self.word_vectors([list(paragraphs[i]) for i in indices], batch_subwords)
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

    def spans(self, paragraphs: Sequence[Sequence[str]], *, batch_subwords: int,
              progress: Progress = None) -> list[list[Span]]:
        """Each paragraph's spans, decoded alone with the model's type biases: the paper-level
        decoding with no paper-level step, as the torch BIO head decodes."""
        tokens = [list(p) for p in paragraphs]
        log_probs = self.log_probs(tokens, batch_subwords=batch_subwords, progress=progress)
        tags = decode_documents(tokens, log_probs, [[i] for i in range(len(tokens))], self.type_bias, PaperLevel())
        return [scored_spans(t, lp) for t, lp in zip(tags, log_probs)]

    def limit_threads(self, threads: int) -> None:
        """Bound BLAS's threads, which run NumPy's matrix products (torch's setting does not reach
        them), and share the encoder's batches between ``threads`` threads (:meth:`_each`)."""
        threadpool_limits(threads)
        self.threads = threads


class NumpyCNN(NumpyNetwork):
    """The CNN head's network (:class:`sciner.model.heads.cnn.CNNHead`) on the same encoder path:
    each word's hash embeddings join its vector, then a projection and the convolutions."""

    def __init__(self, cfg: Config, directory: Path, type_bias: dict[str, float] | None = None) -> None:
        super().__init__(cfg, directory, type_bias)
        settings = cfg.model.head_settings
        self.hash_rows, self.depth = settings.hash_rows, settings.depth
        self.kernel, self.dilation = settings.kernel, settings.dilation
        self.width = settings.width
        self._rows: dict[str, tuple[int, ...]] = {}

    def head_width(self) -> int:
        """The BIO layer's inputs: the convolutions' channels."""
        return self.width

    def head_inputs(self, tokens: list[list[str]]) -> list[np.ndarray]:
        """Each word's hash embeddings: the sums of its rows of each feature's table."""
        words = [t for p in tokens for t in p]
        table_rows = np.array(cached_rows(self._rows, words, self.hash_rows), dtype=np.int64)
        hashed = self.w["head.hashes.weight"][table_rows]  # (W, F*S, dim)
        return [hashed.reshape(len(words), len(FEATURES), len(SEEDS), -1).sum(axis=2).reshape(len(words), -1)]

    @functools.cached_property
    def conv_matrices(self) -> list[np.ndarray]:
        """Each convolution's weights (out, in, kernel) as one (kernel*in, out) matrix, the rows
        of the kernel's first place first, as the words beside each other are laid out."""
        weights = [self.w[f"head.convs.{k}.weight"] for k in range(self.depth)]
        return [np.ascontiguousarray(w.transpose(2, 1, 0).reshape(-1, w.shape[0])) for w in weights]

    def head_states(self, inputs: np.ndarray, counts: list[int]) -> np.ndarray:
        """The words after the projection and the convolutions: they see zeros beyond a
        paragraph's ends, as its padding."""
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
        shifted = np.zeros((total, self.kernel, width), dtype=np.float32)  # each word beside its neighbours
        for k in range(self.depth):
            # One matrix product a layer: (words x kernel*width) @ (kernel*width x width).
            for j in range(self.kernel):
                shift = (j - self.kernel // 2) * self.dilation**k
                lo, hi = max(0, -shift), total - max(0, shift)
                shifted[lo:hi, j] = x[lo + shift:hi + shift]
                shifted[:lo, j] = 0
                shifted[hi:, j] = 0
            step = shifted.reshape(total, -1) @ self.conv_matrices[k]
            step += w[f"head.convs.{k}.bias"]
            normed = _gelu(_layer_norm(step, w[f"head.norms.{k}.weight"], w[f"head.norms.{k}.bias"], HEAD_EPS))
            normed *= keep
            x += normed
        return x[where]
