"""sciner: find scientific entities (methods, datasets, tasks, metrics, hyperparameters) in NLP papers.

Quick start::

    import sciner
    tagger = sciner.load()                     # the shipped default model
    for para in tagger.tag([["We", "fine-tune", "BERT", "on", "SQuAD", "."]]):
        for span in para.spans:
            print(span.label, span.start, span.end, span.score)

Everything the command line does has a Python function, importable from here (loaded on
first use, so ``import sciner`` stays fast):

=====================  ==========================================================
``sciner extract``     :func:`extract` (files); :func:`extract_pdf`, :func:`render_extracted` (one paper)
``sciner predict``     :func:`tag_files`; ``--workers``/``--resume``/``--ray``: its ``engine=Engine(...)``;
                       :func:`load` then :meth:`Tagger.tag` (:meth:`Tagger.tag_text` for raw text);
                       :func:`read_pdf_paragraphs`
``sciner evaluate``    :func:`evaluate_files`; :func:`classification_report` on tag lists
``sciner compare``     :func:`compare_files`; :func:`paired_bootstrap` on tag lists
``sciner train``       :func:`load_config` then :func:`train` (:func:`training_steps` yields each step)
``sciner calibrate``   :func:`calibrate`; :meth:`Tagger.log_probs` then :func:`fit_bias`, :func:`cross_fitted_tags`
``sciner pretrain``    :func:`load_config` then :func:`pretrain`
``sciner distill``     :func:`teacher_config` then :func:`train`; :func:`label`; :func:`train` with
                       ``distill.soft_labels`` set
``sciner ngrams``      :func:`build_dictionary`; :func:`count_ngrams_in_texts`, :func:`load_dictionary`,
                       :func:`segment`
``sciner data``        :func:`load_config` then :func:`corpus_stats`; :func:`assemble`
``sciner show``        :func:`show`; :func:`render_entities`, :func:`render_diff`
``sciner summarize``   :func:`summarize`; :func:`summarize_paper` (one tagged paper), :func:`find_abbreviations`
``sciner index``       :func:`index_files`
``sciner query``       :class:`Index` (``Index("corpus.sqlite").results(dataset="SQuAD")``)
``sciner convert``     :func:`convert`, :func:`read_file`, :func:`write_file`
``sciner report``      :func:`report`; :func:`build_report`, :func:`write_report`
``sciner info``        :func:`model_info`, :func:`format_info`
spaCy                  ``spacy.blank("en").add_pipe("sciner")`` (:mod:`sciner.spacy_component`)
formats                :func:`read_conll`, :func:`write_conll`, :func:`read_paragraphs`, :func:`read_jsonl`,
                       :func:`write_jsonl`, :func:`bio_to_spans`, :func:`spans_to_bio`, :func:`repair_bio`
=====================  ==========================================================

Each verb's function takes the verb's options with the verb's defaults, grouped as the
command line groups them: :class:`TagOptions` (``--model``, ``--precision``, ``--device``:
``auto``, cuda where available, else cpu, as in :func:`load` and the spaCy component;
``--threads``, ...), :class:`Reading` (``--from``, ``--tokenize``, ``--include``) and
:class:`Engine` (``--workers``, ``--resume``, ``--ray``)::

    sciner.tag_files(["papers/"], "tags/", tagging=sciner.TagOptions(model="fast"),
                     reading=sciner.Reading.of(include=("tables",)), engine=sciner.Engine(workers=2))
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from sciner.version import __version__

if TYPE_CHECKING:  # pragma: no cover
    from sciner.inference.tagger import Tagger

# public name -> module that defines it
_API: dict[str, str] = {
    "Tagger": "sciner.inference.tagger",
    "Paragraph": "sciner.document",
    "Span": "sciner.document",
    "read_pdf_paragraphs": "sciner.pdf",
    "extract_pdf": "sciner.pdf",
    "extract": "sciner.pdf.files",
    "render_extracted": "sciner.pdf.files",
    "tag_files": "sciner.inference.predict",
    "TagOptions": "sciner.inference.predict",
    "Reading": "sciner.files.inputs",
    "Engine": "sciner.files.run",
    "calibrate": "sciner.inference.calibrate",
    "evaluate_files": "sciner.evaluate",
    "compare_files": "sciner.evaluate",
    "classification_report": "sciner.evaluate.metrics",
    "paired_bootstrap": "sciner.evaluate.bootstrap",
    "load_config": "sciner.config",
    "train": "sciner.training.train",
    "training_steps": "sciner.training.loop",
    "fit_bias": "sciner.inference.calibrate",
    "cross_fitted_tags": "sciner.inference.calibrate",
    "decode_with_bias": "sciner.inference.calibrate",
    "teacher_config": "sciner.distill.teacher",
    "label": "sciner.distill.label",
    "model_info": "sciner.model.info",
    "format_info": "sciner.model.info",
    "build_dictionary": "sciner.data.ngrams",
    "corpus_stats": "sciner.data.stats",
    "show": "sciner.view.show",
    "summarize": "sciner.summary.files",
    "summarize_paper": "sciner.summary.assemble",
    "index_files": "sciner.index.run",
    "Index": "sciner.index.query",
    "find_abbreviations": "sciner.summary.names",
    "report": "sciner.view.report_output",
    "pretrain": "sciner.pretrain.task",
    "count_ngrams_in_texts": "sciner.data.ngrams",
    "load_dictionary": "sciner.data.ngrams",
    "segment": "sciner.data.ngrams",
    "assemble": "sciner.data.assemble",
    "render_entities": "sciner.formats.html",
    "render_diff": "sciner.view.diff",
    "convert": "sciner.formats.convert",
    "read_file": "sciner.formats.registry",
    "write_file": "sciner.formats.registry",
    "build_report": "sciner.view.report",
    "write_report": "sciner.view.report_output",
    "read_conll": "sciner.formats.conll",
    "write_conll": "sciner.formats.conll",
    "read_paragraphs": "sciner.formats.paragraphs",
    "read_jsonl": "sciner.formats.jsonl",
    "write_jsonl": "sciner.formats.jsonl",
    "bio_to_spans": "sciner.document",
    "spans_to_bio": "sciner.document",
    "repair_bio": "sciner.formats.spans",
}


def load(path: str | None = None, *, precision: str = "auto", device: str = "auto") -> "Tagger":
    """Load a trained tagger: the shipped default model, or the model directory at ``path``.

    ``precision`` is ``auto`` (bfloat16 where the CPU has it natively, else fp32), ``fp32``,
    ``bf16`` or ``int8``; ``device`` is ``auto`` (cuda if available, else cpu: the default of
    ``sciner predict`` and the spaCy component too), ``cpu`` or ``cuda``; see :meth:`Tagger.load`.
    """
    from sciner.inference.tagger import Tagger

    return Tagger.load(path, precision=precision, device=device)


def __getattr__(name: str) -> Any:
    if name in _API:
        return getattr(importlib.import_module(_API[name]), name)
    raise AttributeError(f"module 'sciner' has no attribute {name!r}")


__all__ = ["load", "__version__", *_API]
