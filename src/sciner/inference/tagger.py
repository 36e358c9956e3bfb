"""A trained model you can tag with: ``sciner.load()`` returns a :class:`Tagger`.

A tagger holds its model's back ends (:mod:`sciner.inference.choose`: torch, NumPy or ONNX,
chosen by the model, the precision, the device and the size of a call), which give each paragraph's
tag log-probabilities; it decodes them: type biases, constrained Viterbi and the paper-level pass
(:mod:`sciner.model.paper_decoding`).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from pathlib import Path
from typing import Any

from sciner.document import Paragraph, Span
from sciner.inference.choose import SMALL_CALL_WORDS, Networks, load_networks
from sciner.inference.network import Network, Progress
from sciner.model.batching import BATCH_SUBWORDS
from sciner.model.heads import head_spec
from sciner.model.paper_decoding import PaperLevel, decode_documents, documents_of, scored_spans
from sciner.tokenize import tokenize_paragraphs



class Tagger:
    """Tags tokenized paragraphs with a trained model."""

    def __init__(self, networks: Networks, meta: dict[str, Any], path: Path) -> None:
        self.networks = networks
        self.meta = meta
        self.path = path

    @classmethod
    def load(cls, path: str | Path | None = None, *, precision: str = "auto", device: str = "auto") -> "Tagger":
        """Load the model at ``path`` (default: the one shipped with sciner).

        ``precision``: ``fp32``; ``bf16`` (bfloat16 autocast: on the dev split, the same F1 as
        fp32, faster on CPUs with native bfloat16: docs/benchmarks.md); ``int8`` (dynamic
        quantization of the linear layers: faster, but it cost the shipped model 4 points of
        dev F1, and CPU only); ``auto`` = bf16 on CUDA and where the CPU has native bfloat16,
        else fp32. ``device``: ``cpu``, ``cuda``, or ``auto`` (cuda where available, else cpu:
        the default everywhere, in ``sciner predict``, ``sciner.load`` and the spaCy component).

        Which back end runs a call is :func:`sciner.inference.choose.load_networks`'s choice: a
        model whose head has a NumPy network runs in NumPy (fp32, on the CPU, no torch imported)
        unless ``precision`` or ``device`` asks for torch, a deep one in small calls only.
        """
        return cls(*load_networks(path, precision, device))

    @property
    def network(self) -> Network:
        """The back end of this tagger's calls (of its small calls, where a large call loads another)."""
        return self.networks.first

    @property
    def precision(self) -> str:
        """The precision :attr:`network` computes in (see :meth:`precision_for`)."""
        return self.network.precision

    @property
    def device(self) -> str:
        """The device :attr:`network` computes on."""
        return self.network.device

    def tag(
        self,
        paragraphs: Sequence[Sequence[str]] | Sequence[Paragraph],
        *,
        batch_subwords: int | None = None,
        progress: Progress = None,
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
        items = [paragraphs] if isinstance(paragraphs, str) else list(paragraphs)
        if any(isinstance(p, str) for p in items):
            raise TypeError("Tagger.tag takes tokenized paragraphs (lists of tokens or Paragraphs), not text; "
                            "use Tagger.tag_text(texts) to tokenize and tag text")
        paras = [p if isinstance(p, Paragraph) else Paragraph(tokens=list(p)) for p in items]
        if documents is not None and len(documents) != len(paras):
            raise ValueError(f"{len(paras)} paragraphs but {len(documents)} document ids")
        tokens = [p.tokens for p in paras]
        network = self.networks.for_call(sum(map(len, tokens)))
        batch_subwords = batch_subwords or BATCH_SUBWORDS
        params = self.paper_level if paper_level else None
        if params is None:
            all_spans = network.spans(tokens, batch_subwords=batch_subwords, progress=progress)
        else:
            if documents is None:
                documents = [(p.meta.get("doc"), p.source) for p in paras]
            all_spans = self._tag_papers(network, tokens, list(documents), params, batch_subwords, progress)
        return [Paragraph(p.tokens, spans=spans, source=p.source, line=p.line, meta=p.meta)
                for p, spans in zip(paras, all_spans)]

    @property
    def paper_level(self) -> PaperLevel | None:
        """The model's paper-level decoding parameters, None where it has none (or its head
        scores spans, not BIO tags)."""
        params = PaperLevel.from_meta(self.meta.get("paper_level"))
        if not (params.consistency or any(params.touch_penalty.values())):
            return None
        return params if head_spec(self.network.cfg.head).scores_tags else None

    def _tag_papers(self, network: Network, tokens: list[list[str]], documents: list[Hashable], params: PaperLevel,
                    batch_subwords: int, progress: Progress) -> list[list[Span]]:
        """Spans of the paragraphs ``tokens``, decoded document by document (``documents``: one id
        each) with ``params``, from ``network``'s log-probabilities."""
        log_probs = network.log_probs(tokens, batch_subwords=batch_subwords, progress=progress)
        tags = decode_documents(tokens, log_probs, documents_of(documents), self.meta.get("type_bias") or {}, params)
        return [scored_spans(t, lp) for t, lp in zip(tags, log_probs)]

    def tag_text(
        self,
        texts: str | Sequence[str],
        *,
        batch_subwords: int | None = None,
        progress: Progress = None,
        paper_level: bool = True,
    ) -> list[Paragraph]:
        """Tokenize untokenized text with the task's tokenizer (:mod:`sciner.tokenize`) and tag
        it: one paragraph per text, its tokens what the task's inputs would have been; the texts
        of one call are one document (``paper_level``: see :meth:`tag`).

        >>> sciner.load().tag_text("We fine-tune BERT on SQuAD v1.1.")[0].tokens  # doctest: +SKIP
        ['We', 'fine', '-', 'tune', 'BERT', 'on', 'SQuAD', 'v1.1', '.']
        """
        texts = [texts] if isinstance(texts, str) else list(texts)
        paragraphs = [Paragraph(tokens) for tokens in tokenize_paragraphs(texts)]
        return self.tag(paragraphs, batch_subwords=batch_subwords, progress=progress, paper_level=paper_level)

    def log_probs(self, paragraphs: Sequence[Sequence[str]], *, progress: Progress = None) -> list[Any]:
        """Each paragraph's (n_words, T) BIO log-probabilities before any type bias (BIO head
        only), computed exactly as :meth:`tag` computes them; ``progress`` receives token counts."""
        paragraphs = [list(p) for p in paragraphs]
        network = self.networks.for_call(sum(map(len, paragraphs)))
        return network.log_probs(paragraphs, batch_subwords=BATCH_SUBWORDS, progress=progress)

    def preload(self) -> "Tagger":
        """Load now what a large call would load at its first (a deep model's torch network), so
        that no call waits for it (a server's first large request); returns this tagger."""
        self.networks.for_call(SMALL_CALL_WORDS + 1)
        return self

    def precision_for(self, words: int) -> str:
        """The precision a call of ``words`` words runs in (``fp32`` in NumPy; a deeper model's
        larger calls in the precision its torch network was loaded with)."""
        return self.networks.for_call(words).precision

    def limit_threads(self, threads: int) -> None:
        """Compute on at most ``threads`` threads: torch's, BLAS's for a NumPy network,
        onnxruntime's (and torch's once a large call loads a deeper model's torch network)."""
        self.networks.limit_threads(threads)
