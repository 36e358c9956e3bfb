"""The annotated groups in ``<data>/annotated``: discovery, reading, and what we know of each.

Each sub-folder ``OWNER__REPO`` is one independent group of annotators.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from sciner.document import Paragraph
from sciner.errors import InputNotFoundError
from sciner.formats.conll import read_conll

# Cross-group exact-span agreement F1 from annotated/MANIFEST-collected.md; used only to
# break ties when groups label the same sentence differently (higher agrees more with others).
AGREEMENT_F1: dict[str, float] = {
    "neubig__nlp-from-scratch-assignment-2022": 0.73,
    "momogasuki__scentific-entity-recognition": 0.72,
    "BalasubramanyamEvani__Scientific-Named-Entity-Recognition": 0.62,
    "parthmehta15__Scientific-Entity-Recognition": 0.60,
    "DivyanshuSheth__scientific-entity-recognition-anlp": 0.59,
    "haotianteng__11711Assignment2": 0.56,
    "sherryzyh__End-to-End-Scientific-Entity-Recognition": 0.54,
    "lwaekfjlk__NER4NLPPaper": 0.52,
    "Nikhil-Kandukuri__SciBERT_Scientific-Entity-Recognition": 0.51,
    "realzza__711-project2": 0.49,
    "franklinlyj24__nlp-from-scratch-assignment-2023": 0.49,
    "SandyLuXY__11711-hw": 0.48,
    "vursekar__scientific-ner": 0.37,
    "thebharathsk__scientific_entity_recognition": 0.33,
}

# Groups whose tokens are whitespace-split (punctuation glued to words), per their SOURCE.md.
WHITESPACE_TOKENIZED: frozenset[str] = frozenset(
    {
        "BalasubramanyamEvani__Scientific-Named-Entity-Recognition",
        "haotianteng__11711Assignment2",
        "lwaekfjlk__NER4NLPPaper",
    }
)

# Groups whose text is lower-cased.
LOWERCASED: frozenset[str] = frozenset({"Jadenyifanhe__ANLP_HW2"})


@dataclass
class Group:
    """One annotating group: its name and its paragraphs (blocks) as written."""

    name: str
    paragraphs: list[Paragraph]

    @property
    def n_tokens(self) -> int:
        return sum(len(p.tokens) for p in self.paragraphs)


def list_groups(data_dir: str | Path) -> list[str]:
    """Names of the group folders under ``<data_dir>/annotated``, sorted."""
    root = Path(data_dir) / "annotated"
    if not root.is_dir():
        raise InputNotFoundError(f"{root}: no annotated/ folder; pass --data pointing at the shared data directory")
    return sorted(d.name for d in root.iterdir() if d.is_dir() and any(d.glob("*.conll")))


def read_group(data_dir: str | Path, name: str) -> Group:
    """Read every ``*.conll`` file of one group, in file-name order."""
    folder = Path(data_dir) / "annotated" / name
    paragraphs: list[Paragraph] = []
    for path in sorted(folder.glob("*.conll")):
        paragraphs.extend(read_conll(path))
    return Group(name=name, paragraphs=paragraphs)
