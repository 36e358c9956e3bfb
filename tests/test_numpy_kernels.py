"""The NumPy network's kernels (sciner.inference.numpy_network) against plain float64 references
on random inputs: GELU, the feed-forward block, and a BERT layer's attention as
``_encode`` computes it (scale on the queries, the softmax's division on the context)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from sciner.inference import numpy_network
from sciner.inference.numpy_network import GELU_BLOCK, NumpyNetwork, _gelu, _layer_norm

_erf = np.vectorize(math.erf)


def exact_gelu(x: np.ndarray) -> np.ndarray:
    x = x.astype(np.float64)
    return 0.5 * x * (1 + _erf(x / math.sqrt(2)))


def test_gelu_is_within_its_bound_of_the_exact_gelu_everywhere():
    x = np.concatenate([np.linspace(-40, 40, 200001), [-1e30, -80, 80, 1e30, 0]]).astype(np.float32)
    got = _gelu(x.copy())
    assert got.dtype == np.float32 and np.isfinite(got).all()
    assert np.abs(got - exact_gelu(x)).max() < 1.5e-5
    small = np.abs(x) < 1e-3  # near 0 GELU is x / 2: held relatively, not only absolutely
    assert np.allclose(got[small], x[small] / 2, rtol=1e-3, atol=0)


def test_gelu_works_in_place_across_blocks_and_on_other_inputs():
    rng = np.random.default_rng(1)
    x = (rng.standard_normal((GELU_BLOCK // 100 + 7, 100)) * 3).astype(np.float32)  # not a whole number of blocks
    want = exact_gelu(x)
    got = _gelu(x)
    assert got is x  # a contiguous float32 array is overwritten: no copy of the layer's activations
    assert np.abs(got - want).max() < 1.5e-5
    strided = np.asfortranarray(rng.standard_normal((40, 30))).astype(np.float64)
    out = _gelu(strided)  # any other array: a float32 copy, the input left alone
    assert out.dtype == np.float32 and out is not strided
    assert np.abs(out - exact_gelu(strided)).max() < 1.5e-5


@pytest.fixture
def layer() -> dict[str, np.ndarray]:
    """One BERT layer's weights as NumpyNetwork._layer lays them out, random, 4 heads of 8."""
    rng = np.random.default_rng(2)
    h, f = 32, 128

    def r(*shape: int, scale: float = 0.2) -> np.ndarray:
        return (rng.standard_normal(shape) * scale).astype(np.float32)

    return {"qkv": r(h, 3 * h), "qkv_b": r(3 * h), "out": r(h, h), "out_b": r(h), "ln1": 1 + r(h), "ln1_b": r(h),
            "up": r(h, f), "up_b": r(f), "down": r(f, h), "down_b": r(h), "ln2": 1 + r(h), "ln2_b": r(h)}


@pytest.mark.parametrize("rows", [1, 300])
def test_the_feed_forward_block_is_the_plain_one(layer, rows):
    x = np.random.default_rng(rows).standard_normal((rows, 32)).astype(np.float32)
    x64 = x.astype(np.float64)
    want = x64 + exact_gelu(x64 @ layer["up"] + layer["up_b"]) @ layer["down"] + layer["down_b"]
    got = NumpyNetwork._feed_forward(x, layer)
    assert got.dtype == np.float32 and got.shape == x.shape
    assert np.abs(got - want).max() < 1e-4


def reference_layer(x: np.ndarray, mask: np.ndarray, w: dict[str, np.ndarray], heads: int, eps: float) -> np.ndarray:
    """BERT's layer, written plainly in float64: (B, L, H) -> (B, L, H)."""
    b, n, h = x.shape
    d = h // heads
    x = x.astype(np.float64)
    q, k, v = np.split(x @ w["qkv"] + w["qkv_b"], 3, axis=-1)
    split = lambda t: t.reshape(b, n, heads, d).transpose(0, 2, 1, 3)  # noqa: E731
    scores = split(q) @ split(k).transpose(0, 1, 3, 2) / math.sqrt(d) + np.where(mask, 0, -1e30)[:, None, None, :]
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)
    context = (weights @ split(v)).transpose(0, 2, 1, 3).reshape(b, n, h)

    def norm(t: np.ndarray, g: np.ndarray, beta: np.ndarray) -> np.ndarray:
        t = t - t.mean(axis=-1, keepdims=True)
        return t / np.sqrt(np.square(t).mean(axis=-1, keepdims=True) + eps) * g + beta

    x = norm(context @ w["out"] + w["out_b"] + x, w["ln1"], w["ln1_b"])
    return norm(exact_gelu(x @ w["up"] + w["up_b"]) @ w["down"] + w["down_b"] + x, w["ln2"], w["ln2_b"])


def test_a_layer_in_encode_is_the_plain_reference_at_the_wanted_positions(layer, monkeypatch):
    """Rows of different real lengths padded to one: the padding gets no attention, and the
    states at the wanted positions are the reference's."""
    rng = np.random.default_rng(3)
    b, n, h, eps = 3, 24, 32, 1e-12
    lengths = [24, 17, 5]
    mask = np.arange(n)[None, :] < np.array(lengths)[:, None]
    x = rng.standard_normal((b, n, h)).astype(np.float32)
    network = object.__new__(NumpyNetwork)
    network.hidden, network.attention_heads, network.eps, network.layers = h, 4, eps, [layer]
    monkeypatch.setattr(NumpyNetwork, "_embed", lambda self, ids, positions: x.copy())
    wanted = np.array([0, 3, 23, n + 0, n + 16, 2 * n + 1, 2 * n + 4])
    got = network._encode(np.zeros((b, n), dtype=np.int64), mask, wanted)
    want = reference_layer(x, mask, layer, 4, eps).reshape(b * n, h)[wanted]
    assert got.dtype == np.float32
    assert np.abs(got - want).max() < 1e-4


def test_layer_norm_is_the_plain_one():
    rng = np.random.default_rng(4)
    x = rng.standard_normal((50, 64)).astype(np.float32) * 5 + 3
    g, beta = rng.standard_normal(64).astype(np.float32), rng.standard_normal(64).astype(np.float32)
    x64 = x.astype(np.float64)
    want = (x64 - x64.mean(-1, keepdims=True)) / np.sqrt(x64.var(-1, keepdims=True) + 1e-5) * g + beta
    assert np.abs(_layer_norm(x.copy(), g, beta, 1e-5) - want).max() < 1e-4
    assert numpy_network.HEAD_EPS == 1e-5


def test_layers_in_encode_are_the_plain_reference_and_a_row_may_want_nothing(layer, monkeypatch):
    """Two layers: the first at every position, the last with its queries at the wanted
    positions only (rows wanting 3, none and 1 of them)."""
    rng = np.random.default_rng(5)
    b, n, h, eps = 3, 20, 32, 1e-12
    mask = np.arange(n)[None, :] < np.array([20, 9, 13])[:, None]
    x = rng.standard_normal((b, n, h)).astype(np.float32)
    second = {k: v[::-1].copy() if v.ndim == 1 else v for k, v in layer.items()}  # another layer's weights
    network = object.__new__(NumpyNetwork)
    network.hidden, network.attention_heads, network.eps, network.layers = h, 4, eps, [layer, second]
    monkeypatch.setattr(NumpyNetwork, "_embed", lambda self, ids, positions: x.copy())
    wanted = np.array([1, 2, 19, 2 * n + 12])
    got = network._encode(np.zeros((b, n), dtype=np.int64), mask, wanted)
    want = reference_layer(reference_layer(x, mask, layer, 4, eps), mask, second, 4, eps).reshape(b * n, h)[wanted]
    assert got.shape == (len(wanted), h)
    assert np.abs(got - want).max() < 1e-4
