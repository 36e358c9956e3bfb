"""sciner: find scientific entities (methods, datasets, tasks, metrics, hyperparameters) in NLP papers.

Quick start::

    import sciner
    tagger = sciner.load()                     # the shipped default model
    for para in tagger.tag([["We", "fine-tune", "BERT", "on", "SQuAD", "."]]):
        for span in para.spans:
            print(span.label, span.text, span.score)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

__version__ = "0.1.0"

if TYPE_CHECKING:  # pragma: no cover
    from sciner.tagger import Tagger


def load(path: str | None = None) -> "Tagger":
    """Load a trained tagger: the shipped default model, or the model directory at ``path``."""
    from sciner.tagger import Tagger

    return Tagger.load(path)


__all__ = ["load", "__version__"]
