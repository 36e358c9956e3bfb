"""Readers and writers of the task's file formats, and BIO <-> span conversion.

- :mod:`~sciner.formats.registry`: THE format registry (names, suffixes, sniffing, read/render/write).
- :mod:`~sciner.formats.tokens`: which tokens each format can carry; refusals before writing.
- :mod:`~sciner.formats.paragraphs`: paragraph text (``.txt``), one paragraph per line.
- :mod:`~sciner.formats.conll`: CoNLL, ``token<TAB>tag``.
- :mod:`~sciner.formats.jsonl`: sciner JSONL, tokens and entity spans with scores.
- :mod:`~sciner.formats.doccano`: doccano JSONL; :mod:`~sciner.formats.labelstudio`: Label Studio tasks/exports.
- :mod:`~sciner.formats.charspans`: character-offset entities <-> token spans (doccano, Label Studio).
- :mod:`~sciner.formats.jsonfields`: the JSON readers' parsing and field checks (one-line errors naming the field).
- :mod:`~sciner.formats.docbin`: spaCy DocBin (``.spacy``).
- :mod:`~sciner.formats.textfile`: strict UTF-8 reading shared by the text formats.
- :mod:`~sciner.formats.spans`: BIO validation and repair.
- :mod:`~sciner.formats.convert`: convert a file from one format to another.
"""
