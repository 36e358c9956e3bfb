"""The whole tagger as one ONNX graph, and tagging with it through onnxruntime.

``sciner export MODEL -o model.onnx`` writes one graph: the encoder over a batch of windows,
the gather of each word's first-subword state, the word-shape embedding and the BIO layer,
giving each word's tag log-probabilities. What is not a tensor computation stays in Python and
is the torch path's own code: tokenization, cutting paragraphs into windows and batching them
(:func:`sciner.model.network.gather_rows`), and the constrained Viterbi decoding with the
model's type biases (:meth:`BIOHead.decode_log_probs`). The model's ``model.json`` travels in
the graph's metadata; the tokenizer comes from the encoder package it names.

``sciner predict --model model.onnx`` (or ``sciner.load("model.onnx")``) tags with it on the
CPU, in fp32 (:mod:`sciner.inference.onnx_network`); it needs the optional extra
``pip install 'sciner[onnx]'``.
"""

from __future__ import annotations

import importlib
import json
import warnings
from pathlib import Path
from typing import Any

import torch
from torch import nn

from sciner.errors import MissingExtraError, ModelError
from sciner.model.fast_bert import FastBert
from sciner.model.heads import head_spec
from sciner.model.info import meta_info
from sciner.model.store import load_model
from sciner.outputs import atomic_target

# The metadata key holding the model's model.json in the exported graph.
META_KEY = "sciner_model_json"
# ONNX operator set: scaled dot-product attention and LayerNorm export as plain ops from 17 on.
OPSET = 17
INPUTS = ("input_ids", "attention_mask", "positions", "shapes")


class TaggerGraph(nn.Module):
    """What is exported: windows -> the tag log-probabilities of the words at ``positions``.

    ``positions`` index the batch's (rows x length) encoder states (each word's first subword
    in the window that supplies it); ``shapes`` are those words' shape ids. The attention mask
    is always applied (the torch path skips an all-ones mask, which adds nothing).
    """

    def __init__(self, model: Any) -> None:
        super().__init__()
        self.embeddings = model.encoder.embeddings
        self.layers = model.encoder.encoder.layer
        self.shape = model.shape
        self.out = model.head.out

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor, positions: torch.Tensor,
                shapes: torch.Tensor) -> torch.Tensor:
        x = self.embeddings(input_ids)
        mask = torch.zeros(attention_mask.shape, dtype=x.dtype).masked_fill(attention_mask == 0, float("-inf"))
        mask = mask[:, None, None, :]
        for layer in self.layers:
            x = layer(x, mask)
        words = x.reshape(-1, x.shape[-1])[positions]
        if self.shape is not None:
            words = torch.cat([words, self.shape(shapes)], dim=-1)
        return torch.log_softmax(self.out(words), dim=-1)


def export_onnx(model: str | Path | None, output: str | Path) -> Path:
    """Write the tagger of the model folder ``model`` (None: the shipped model) to ``output``
    as one ONNX graph with its ``model.json`` in the metadata; returns ``output``."""
    onnx = require_extra("onnx")
    network, meta, path = load_model(model)  # fp32, on the CPU, as it was saved
    if not isinstance(network.encoder, FastBert):
        raise ModelError(f"{path}: export supports BERT encoders (the shipped model's kind), "
                         f"not {network.cfg.encoder!r}")
    spec = head_spec(network.cfg.head)
    if not spec.scores_tags or spec.needs_subword_states:
        raise ModelError(f"{path}: export needs a head that scores tags from word vectors, "
                         f"not {network.cfg.head!r}")
    network.encoder.fuse_qkv()  # one matrix for query, key and value, as tagging runs it
    graph = TaggerGraph(network).eval()
    ids = torch.tensor([[101, 2057, 2224, 102, 0], [101, 14324, 2006, 7020, 102]])
    example = (ids, (ids != 0).long(), torch.tensor([1, 2, 6, 7, 8]), torch.tensor([1, 2, 3, 1, 2]))
    rows, positions = {0: "rows", 1: "length"}, {0: "words"}
    with atomic_target(output) as tmp, warnings.catch_warnings(), torch.no_grad():
        warnings.simplefilter("ignore")  # the exporter's notes on tracing are not the user's business
        torch.onnx.export(graph, example, str(tmp), input_names=list(INPUTS), output_names=["log_probs"],
                          dynamic_axes={"input_ids": rows, "attention_mask": rows, "positions": positions,
                                        "shapes": positions, "log_probs": positions},
                          opset_version=OPSET, dynamo=False)
        exported = onnx.load(str(tmp))
        entry = exported.metadata_props.add()
        entry.key, entry.value = META_KEY, json.dumps(meta)
        onnx.save(exported, str(tmp))
    return Path(output)


def exported_meta(path: str | Path) -> dict[str, Any]:
    """The ``model.json`` an exported graph carries (read without starting a session), or a one-line
    :class:`ModelError` for a file that is none of ours."""
    onnx = require_extra("onnx")
    path = Path(path)
    if not path.is_file():
        raise ModelError(f"{path}: no such ONNX file")
    try:
        graph = onnx.load(str(path), load_external_data=False)
        meta = json.loads({p.key: p.value for p in graph.metadata_props}[META_KEY])
    except Exception as err:  # onnx's own kinds for a file that is no graph; a KeyError for one not ours
        reason = str(err).strip().splitlines()[0][:200] if str(err).strip() else type(err).__name__
        raise ModelError(f"{path}: not a tagger written by `sciner export` ({reason})") from None
    if not isinstance(meta, dict) or "config" not in meta or "labels" not in meta:
        raise ModelError(f"{path}: {META_KEY}: not a model.json")
    return meta


def exported_info(path: str | Path) -> dict[str, Any]:
    """What ``sciner info model.onnx`` shows: :func:`sciner.model.info.model_info`'s facts, read
    from the ``model.json`` the graph carries."""
    path = Path(path)
    return meta_info(exported_meta(path), path, {path.name: path.stat().st_size})


def require_extra(module: str) -> Any:
    """``module`` of the optional extra ``sciner[onnx]``, or a one-line error saying how to get it."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise MissingExtraError(f"ONNX needs the {module} package: pip install 'sciner[onnx]'") from None
