"""A trained model you can tag with: ``sciner.load()`` returns a :class:`Tagger`.

The model directory is read by :mod:`sciner.model.store`; this module adds the inference
precision and the tagging entry points.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable, Hashable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sciner.document import Paragraph, Span
from sciner.errors import ModelError
from sciner.model.store import load_model

if TYPE_CHECKING:  # pragma: no cover
    from sciner.model.paper_decoding import PaperLevel

PRECISIONS = ("auto", "fp32", "bf16", "int8")

# A model deeper than NumPy runs in bulk (numpy_network.MAX_LAYERS; the default's six layers) runs
# calls of at most this many words in NumPy too, loaded for precision auto or fp32 on the CPU:
# importing torch and building its network takes longer than NumPy's six layers take on them. On
# AMD EPYC Zen 4 (2 cores), where torch runs bf16 natively and so gains most with size, whole
# `sciner predict` runs took 1.98 s in NumPy against 2.67 s in torch on 3,905 words, and 3.18 s
# against 2.89 s on 7,920 (`python benchmarks/first_tag.py`, docs/fast.md); without native bf16
# torch runs fp32 and NumPy stays ahead longer. A larger call loads the torch network.
SMALL_CALL_WORDS = 4000


def native_bf16() -> bool:
    """True when this CPU computes bfloat16 natively (AVX512-BF16 or AMX)."""
    import torch

    check = getattr(torch.cpu, "_is_avx512_bf16_supported", None)
    return bool(check and check())


class Tagger:
    """Tags tokenized paragraphs with a trained model."""

    def __init__(self, model: Any, meta: dict[str, Any], path: Path, precision: str = "fp32",
                 device: str = "cpu") -> None:
        self.model = model
        self.meta = meta
        self.path = path
        self.precision = precision
        self.device = device
        # A NumPy network that runs only small calls (SMALL_CALL_WORDS): what loads the torch tagger of
        # larger ones, and that tagger once loaded; the threads limit_threads set, for it too.
        self._load_bulk: Callable[[], Tagger] | None = None
        self._bulk: Tagger | None = None
        self._threads: int | None = None

    @classmethod
    def load(cls, path: str | Path | None = None, *, precision: str = "auto", device: str = "auto") -> "Tagger":
        """Load the model at ``path`` (default: the one shipped with sciner).

        ``precision``: ``fp32``; ``bf16`` (bfloat16 autocast: on the dev split, the same F1 as
        fp32 at about twice the speed on CPUs with native bfloat16); ``int8`` (dynamic
        quantization of the linear layers: faster, but it cost the shipped model 4 points of
        dev F1, and CPU only); ``auto`` = bf16 on CUDA and where the CPU has native bfloat16,
        else fp32. ``device``: ``cpu``, ``cuda``, or ``auto`` (cuda where available, else cpu:
        the default everywhere, in ``sciner predict``, ``sciner.load`` and the spaCy component).

        A model whose head has a NumPy network runs in NumPy, fp32, on the CPU
        (:mod:`sciner.inference.numpy_network`: no torch imported, a second and a half sooner)
        unless ``precision`` (bf16, int8) or ``device`` (cuda) asks for torch: a model of few
        transformer layers (``numpy_network.runs_in_numpy``: the fast model's one) always, a
        deeper one (the default's six) in calls of at most :data:`SMALL_CALL_WORDS` words; its
        first larger call loads it in torch (``precision`` and ``device`` as asked), which runs
        every larger call after it.
        """
        if precision not in PRECISIONS:
            raise ModelError(f"precision must be one of {', '.join(PRECISIONS)}, not {precision!r}")
        from sciner.model.store import is_onnx

        if not is_onnx(path) and precision in ("auto", "fp32") and device in ("auto", "cpu"):
            from sciner.model.heads import head_spec
            from sciner.model.store import load_model_meta

            cfg, meta, directory = load_model_meta(path)
            from sciner.inference.numpy_network import bert_layers, runs_in_numpy

            network = head_spec(cfg.model.head).numpy_class()
            if network is not None and bert_layers(cfg.model.encoder):
                tagger = cls(network.load(cfg, directory), meta, directory, "fp32", "cpu")
                if not runs_in_numpy(cfg.model.num_layers):
                    tagger._load_bulk = functools.partial(cls._load_torch, path, precision, device)
                return tagger
        return cls._load_torch(path, precision, device)

    @classmethod
    def _load_torch(cls, path: str | Path | None, precision: str, device: str) -> "Tagger":
        """The model at ``path`` in torch (or onnxruntime, for an exported one)."""
        import torch

        from sciner.inference.onnx import load_onnx
        from sciner.model.device import pick_device
        from sciner.model.store import is_onnx

        if is_onnx(path):  # an exported tagger: onnxruntime on the CPU, fp32
            if precision not in ("auto", "fp32") or device == "cuda":
                raise ModelError(f"{path}: an ONNX tagger runs in fp32 on the CPU (--precision fp32, --device cpu)")
            return cls(*load_onnx(path), precision="fp32", device="cpu")
        where = pick_device(device)
        if where.type == "cuda" and precision == "int8":
            raise ModelError("precision int8 (dynamic quantization) runs on the CPU only; use bf16 or fp32 on cuda")
        if precision == "auto":
            precision = "bf16" if where.type == "cuda" or native_bf16() else "fp32"
        elif precision == "bf16" and where.type == "cpu" and not native_bf16():
            print("warning: --precision bf16 on a CPU without native bfloat16 (AVX512-BF16 or AMX) is emulated "
                  "and slower than fp32; the default (auto) picks fp32 here", file=sys.stderr)
        model, meta, directory = load_model(path, encoder_dtype=torch.bfloat16 if precision == "bf16" else None)
        model.to(where)
        from sciner.model.fast_bert import FastBert

        if precision == "bf16":
            # bf16 weights, not just autocast: autocast alone re-casts every weight on every call.
            if isinstance(model.encoder, FastBert):
                model.encoder.to_bf16()
            else:
                model.encoder.to(torch.bfloat16)

        if isinstance(model.encoder, FastBert) and precision != "int8":
            model.encoder.fuse_qkv()
        if precision == "int8":
            import warnings

            with warnings.catch_warnings():  # torch marks eager dynamic quantization deprecated; it still works
                warnings.simplefilter("ignore")
                model = torch.ao.quantization.quantize_dynamic(model, {torch.nn.Linear}, dtype=torch.qint8)
        return cls(model, meta, directory, precision, where.type)

    def tag(
        self,
        paragraphs: Sequence[Sequence[str]] | Sequence[Paragraph],
        *,
        batch_subwords: int | None = None,
        progress: Callable[[int], None] | None = None,
        paper_level: bool = True,
        documents: Sequence[Hashable] | None = None,
    ) -> list[Paragraph]:
        """Tag tokenized paragraphs; returns paragraphs with ``spans`` (with scores) and ``tags``.

        Paragraphs are batched by length; every token gets exactly one tag. Text is refused
        (a string would be tagged character by character): :meth:`tag_text` tokenizes it.

        The paragraphs of one document (a paper) are decoded together, where the model has
        paper-level parameters (``paper_level`` in its ``model.json``; see
        :mod:`sciner.model.paper_decoding`): a name the paper tags is evidence at its other
        occurrences. ``documents`` names each paragraph's document; by default it is its
        ``meta["doc"]`` and the file it was read from (its ``source``), so lists of tokens given
        in one call are one document.
        ``paper_level=False`` tags each paragraph on its own, exactly as before.
        """
        from sciner.model.batching import BATCH_SUBWORDS

        items = [paragraphs] if isinstance(paragraphs, str) else list(paragraphs)
        if any(isinstance(p, str) for p in items):
            raise TypeError("Tagger.tag takes tokenized paragraphs (lists of tokens or Paragraphs), not text; "
                            "use Tagger.tag_text(texts) to tokenize and tag text")
        paras = [p if isinstance(p, Paragraph) else Paragraph(tokens=list(p)) for p in items]
        runner = self._runner(sum(len(p.tokens) for p in paras))
        if runner is not self:
            return runner.tag(paras, batch_subwords=batch_subwords, progress=progress, paper_level=paper_level,
                              documents=documents)
        params = self.paper_level if paper_level else None
        if params is None and not self.uses_torch:  # each paragraph alone: the same decoding with no paper-level step
            from sciner.model.paper_decoding import PaperLevel

            params = PaperLevel()
        with self._precision():
            if params is None:
                from sciner.inference.batch import predict_spans

                all_spans = predict_spans(self.model, [p.tokens for p in paras],
                                          batch_subwords=batch_subwords or BATCH_SUBWORDS,
                                          progress=progress)
            else:
                if documents is None:
                    documents = [(p.meta.get("doc"), p.source) for p in paras]
                elif len(documents) != len(paras):
                    raise ValueError(f"{len(paras)} paragraphs but {len(documents)} document ids")
                all_spans = self._tag_papers(paras, list(documents), params, batch_subwords or BATCH_SUBWORDS,
                                             progress)
        out = []
        for p, spans in zip(paras, all_spans):
            out.append(Paragraph(p.tokens, spans=spans, source=p.source, line=p.line, meta=p.meta))
        return out

    @property
    def paper_level(self) -> "PaperLevel | None":
        """The model's paper-level decoding parameters, None where it has none (or its head
        scores spans, not BIO tags)."""
        from sciner.model.paper_decoding import PaperLevel
        from sciner.model.heads import head_spec

        params = PaperLevel.from_meta(self.meta.get("paper_level"))
        if not (params.consistency or any(params.touch_penalty.values())):
            return None
        return params if head_spec(self.model.cfg.head).scores_tags else None

    def _tag_papers(self, paras: list[Paragraph], documents: list[Hashable], params: "PaperLevel",
                    batch_subwords: int, progress: Callable[[int], None] | None) -> list[list[Span]]:
        """Spans of ``paras``, decoded document by document (``documents``: one id each) with ``params``."""
        from sciner.model.paper_decoding import decode_documents, documents_of, scored_spans

        log_probs = self._log_probs([p.tokens for p in paras], batch_subwords, progress)
        tags = decode_documents([p.tokens for p in paras], log_probs, documents_of(documents),
                                self.meta.get("type_bias") or {}, params)
        return [scored_spans(t, lp) for t, lp in zip(tags, log_probs)]

    def tag_text(
        self,
        texts: str | Sequence[str],
        *,
        batch_subwords: int | None = None,
        progress: Callable[[int], None] | None = None,
        paper_level: bool = True,
    ) -> list[Paragraph]:
        """Tokenize untokenized text with the task's tokenizer (:mod:`sciner.tokenize`) and tag
        it: one paragraph per text, its tokens what the task's inputs would have been; the texts
        of one call are one document (``paper_level``: see :meth:`tag`).

        >>> sciner.load().tag_text("We fine-tune BERT on SQuAD v1.1.")[0].tokens  # doctest: +SKIP
        ['We', 'fine', '-', 'tune', 'BERT', 'on', 'SQuAD', 'v1.1', '.']
        """
        from sciner.tokenize import tokenize_paragraphs

        texts = [texts] if isinstance(texts, str) else list(texts)
        paragraphs = [Paragraph(tokens) for tokens in tokenize_paragraphs(texts)]
        return self.tag(paragraphs, batch_subwords=batch_subwords, progress=progress, paper_level=paper_level)

    def log_probs(self, paragraphs: Sequence[Sequence[str]], *,
                  progress: Callable[[int], None] | None = None) -> list[Any]:
        """Each paragraph's (n_words, T) BIO log-probabilities before any type bias (BIO head
        only), computed exactly as :meth:`tag` computes them; ``progress`` receives token counts."""
        from sciner.model.batching import BATCH_SUBWORDS

        paragraphs = [list(p) for p in paragraphs]
        runner = self._runner(sum(map(len, paragraphs)))
        if runner is not self:
            return runner.log_probs(paragraphs, progress=progress)
        with self._precision():
            return self._log_probs(paragraphs, BATCH_SUBWORDS, progress)

    def preload(self) -> "Tagger":
        """Load now what a large call would load at its first (a deep model's torch network), so
        that no call waits for it (a server's first large request); returns this tagger."""
        self._runner(SMALL_CALL_WORDS + 1)
        return self

    def precision_for(self, words: int) -> str:
        """The precision a call of ``words`` words runs in (``fp32`` in NumPy; a deeper model's
        larger calls in the precision its torch network was loaded with)."""
        return self._runner(words).precision

    def limit_threads(self, threads: int) -> None:
        """Compute on at most ``threads`` threads: torch's, or BLAS's for a NumPy network (and
        torch's once a large call loads a deeper model's torch network)."""
        self._threads = threads
        if self.uses_torch:
            import torch

            torch.set_num_threads(threads)
        else:  # NumPy's matrix products run on BLAS's threads, which torch's setting does not reach
            from threadpoolctl import threadpool_limits

            threadpool_limits(threads)
        if self._bulk is not None:
            self._bulk.limit_threads(threads)

    def _runner(self, words: int) -> "Tagger":
        """The tagger that runs a call of ``words`` words: this one, or for a large call of a deep
        model that NumPy runs only in small calls, its torch tagger (loaded at the first)."""
        if self._load_bulk is None or words <= SMALL_CALL_WORDS:
            return self
        if self._bulk is None:
            self._bulk = self._load_bulk()
            if self._threads is not None:
                self._bulk.limit_threads(self._threads)
        return self._bulk

    @functools.cached_property
    def uses_torch(self) -> bool:
        """False when the network is a head's NumPy one (:mod:`sciner.inference.numpy_network`); asked
        once, not on every tag call."""
        from sciner.model.heads import head_spec

        numpy_class = head_spec(self.model.cfg.head).numpy_class()
        return numpy_class is None or not isinstance(self.model, numpy_class)

    def _log_probs(self, paragraphs: list[list[str]], batch_subwords: int,
                   progress: Callable[[int], None] | None) -> list[Any]:
        if not self.uses_torch:
            return self.model.log_probs(paragraphs, progress=progress)
        from sciner.inference.batch import predict_log_probs

        return predict_log_probs(self.model, paragraphs, batch_subwords=batch_subwords, progress=progress)

    def _precision(self) -> Any:
        """The context ``tag`` runs in: bfloat16 autocast for ``bf16``, nothing otherwise."""
        import contextlib

        if self.precision == "bf16":
            import torch

            return torch.autocast(self.device, dtype=torch.bfloat16)
        return contextlib.nullcontext()
