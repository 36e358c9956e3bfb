"""Assemble training and dev data from the annotated groups.

Steps, in order:
1. read every group; the dev groups (whole groups, never a random split) become dev;
2. split every block into sentences (never inside an entity);
3. drop all-O sentences that look like reference-list entries;
4. deduplicate: sentences are keyed by their lower-cased alphanumerics, so the same
   sentence tokenized differently by two groups is one sentence. Among the copies, the
   tag sequence most copies agree on wins; a tie goes to the copy from the group with
   the higher cross-group agreement (``groups.AGREEMENT_F1``), then to the one with more
   entities. Training sentences whose key occurs in dev are dropped (no dev leak);
5. pack consecutive sentences of a block back into paragraphs of at most
   ``max_block_tokens`` tokens.
"""

from __future__ import annotations

import random
import re
from collections import Counter, defaultdict
from dataclasses import dataclass

from sciner.config import DataConfig
from sciner.data.groups import AGREEMENT_F1, list_groups, read_group
from sciner.data.papers import MIN_DEV_PAPERS, read_annotated_papers, split_papers
from sciner.data.sentences import hard_split, pack_sentences, sentence_key, split_sentences
from sciner.document import Paragraph
from sciner.errors import ConfigError

_REFERENCE_RE = re.compile(
    r"(\bProceedings\b|\bProc\.|arXiv preprint|\bpp\.\s*\d|\bvol\.\s*\d|\bIn\s+[A-Z]{2,}\s*\d{4})"
)


def looks_like_reference(tokens: list[str]) -> bool:
    """True for a sentence that reads like a bibliography entry."""
    text = " ".join(tokens)
    years = len(re.findall(r"\b(19|20)\d\d[a-z]?\b", text))
    return bool(_REFERENCE_RE.search(text)) or (years >= 1 and text.count(",") >= 4 and "et al" not in text)


@dataclass
class Sentence:
    group: str
    block: int  # index of the block within its group, to pack neighbours back together
    para: Paragraph


@dataclass
class Corpus:
    """Training and dev paragraphs plus the bookkeeping ``sciner data stats`` prints."""

    train: list[Paragraph]
    dev: list[Paragraph]
    train_groups: list[str]
    dev_groups: list[str]
    dropped_duplicates: int
    dropped_conflicts_resolved: int
    dropped_references: int
    dropped_dev_overlap: int
    train_group_of: list[str]
    dev_group_of: list[str]


def _sentences(group_name: str, paragraphs: list[Paragraph], max_tokens: int) -> list[Sentence]:
    out = []
    for b, p in enumerate(paragraphs):
        for s in split_sentences(p):
            for piece in hard_split(s, max_tokens):
                out.append(Sentence(group_name, b, piece))
    return out


def _n_entities(tags: list[str]) -> int:
    return sum(t.startswith("B-") for t in tags)


def _resolve(copies: list[Sentence]) -> Sentence:
    """The copy to keep among sentences with the same key (rule in the module docstring)."""
    votes = Counter(tuple(c.para.tags or []) for c in copies)

    def rank(c: Sentence) -> tuple[int, float, int]:
        tags = c.para.tags or []
        return (votes[tuple(tags)], AGREEMENT_F1.get(c.group, 0.45), _n_entities(tags))

    return max(copies, key=rank)


def _pack(sentences: list[Sentence], max_tokens: int) -> tuple[list[Paragraph], list[str]]:
    by_block: dict[tuple[str, int], list[Paragraph]] = defaultdict(list)
    for s in sentences:
        by_block[(s.group, s.block)].append(s.para)
    paras, groups = [], []
    for (group, _), sents in by_block.items():
        for p in pack_sentences(sents, max_tokens):
            paras.append(p)
            groups.append(group)
    return paras, groups


def assemble(cfg: DataConfig, *, seed: int) -> Corpus:
    """Build the corpus described in the module docstring: from the shared groups (dev = the
    ``dev_groups``), or from the user's papers (``cfg.files``; dev = ``dev_files`` or a seeded
    share of the papers, see :mod:`sciner.data.papers`), with the shared groups as well under
    ``with_shared``.

    ``seed`` (the training seed, ``train.seed``) samples the kept all-O sentences and the dev
    papers; it has no default so that training, calibration, ``sciner data stats`` and the
    benchmarks, which all pass their config's seed, assemble the same corpus.
    """
    if cfg.files:
        papers = read_annotated_papers(cfg.files)
        dev = read_annotated_papers(cfg.dev_files) if cfg.dev_files else None
        train_papers, dev_papers = split_papers(papers, dev, cfg.dev_share, seed, others_to_train=cfg.with_shared)
        train_named = [(p.name, p.paragraphs) for p in train_papers]
        dev_named = [(p.name, p.paragraphs) for p in dev_papers]
        if cfg.with_shared:
            root = cfg.root()
            train_named += [(g, read_group(root, g).paragraphs) for g in list_groups(root) if g not in cfg.exclude_groups]
        return assemble_named(train_named, dev_named, cfg, seed=seed)
    root = cfg.root()  # the config's data_dir, else $SCINER_DATA, else ../shared/data
    names = list_groups(root)
    unknown = [g for g in cfg.dev_groups + cfg.exclude_groups if g not in names]
    if unknown:
        raise ConfigError(f"unknown group(s) {unknown}; known: {names}; "
                          "to train on your own files instead: sciner train FILES_OR_FOLDERS -o RUN")
    train_names = [g for g in names if g not in cfg.dev_groups and g not in cfg.exclude_groups]
    return assemble_named([(g, read_group(root, g).paragraphs) for g in train_names],
                          [(g, read_group(root, g).paragraphs) for g in cfg.dev_groups], cfg, seed=seed)


def check_dev_split(corpus: Corpus, cfg: DataConfig) -> None:
    """Refuse to train on a dev split that cannot choose an epoch: none, or one paper (its
    score follows that paper's quirks), with the fix in the message."""
    if not corpus.dev:
        raise ConfigError("no dev data (data.dev_groups is empty) to choose the best epoch on; name held-out "
                          "groups (--set 'data.dev_groups=[\"GROUP\"]', see sciner data stats), or train on your "
                          "own files, split by paper: sciner train FILES_OR_FOLDERS -o RUN")
    papers = {p.source for p in corpus.dev}  # files: sentence splitting keeps no -DOCSTART- document
    if len(papers) < MIN_DEV_PAPERS and not cfg.files:
        raise ConfigError(f"dev is {len(papers)} paper ({', '.join(corpus.dev_groups)}): choosing the epoch needs at "
                          f"least {MIN_DEV_PAPERS} dev papers (files); add a group to "
                          "data.dev_groups")


def assemble_named(train_named: list[tuple[str, list[Paragraph]]], dev_named: list[tuple[str, list[Paragraph]]],
                   cfg: DataConfig, *, seed: int) -> Corpus:
    """The corpus of named sources of paragraphs (groups, or papers): split into sentences,
    filtered, deduplicated (no dev leak) and packed as the module docstring says."""
    train_names = [name for name, _ in train_named]
    dev_sents: list[Sentence] = []
    for name, paragraphs in dev_named:
        dev_sents.extend(_sentences(name, paragraphs, cfg.max_block_tokens))
    train_sents: list[Sentence] = []
    for name, paragraphs in train_named:
        train_sents.extend(_sentences(name, paragraphs, cfg.max_block_tokens))

    dropped_refs = 0
    if cfg.drop_references:
        kept = []
        for s in train_sents:
            if _n_entities(s.para.tags or []) == 0 and looks_like_reference(s.para.tokens):
                dropped_refs += 1
            else:
                kept.append(s)
        train_sents = kept

    dev_keys = {sentence_key(s.para.tokens) for s in dev_sents}
    by_key: dict[str, list[Sentence]] = defaultdict(list)
    order: list[str] = []
    dropped_dev_overlap = 0
    for s in train_sents:
        key = sentence_key(s.para.tokens)
        if len(key) >= 20 and key in dev_keys:
            dropped_dev_overlap += 1
            continue
        if len(key) < 20:  # short headings like "Introduction": not worth merging across papers
            key = f"{key}#{len(order)}"
        if key not in by_key:
            order.append(key)
        by_key[key].append(s)

    kept_sents = []
    duplicates = conflicts = 0
    for key in order:
        copies = by_key[key]
        if len(copies) > 1:
            duplicates += len(copies) - 1
            if len({tuple(c.para.tags or []) for c in copies}) > 1:
                conflicts += 1
        kept_sents.append(_resolve(copies))

    if cfg.keep_empty_fraction < 1.0:
        rng = random.Random(seed)
        kept_sents = [
            s for s in kept_sents if _n_entities(s.para.tags or []) > 0 or rng.random() < cfg.keep_empty_fraction
        ]

    train, train_groups_of = _pack(kept_sents, cfg.max_block_tokens)
    dev, dev_groups_of = _pack(dev_sents, cfg.max_block_tokens)
    return Corpus(
        train=train,
        dev=dev,
        train_groups=train_names,
        dev_groups=[name for name, _ in dev_named],
        dropped_duplicates=duplicates,
        dropped_conflicts_resolved=conflicts,
        dropped_references=dropped_refs,
        dropped_dev_overlap=dropped_dev_overlap,
        train_group_of=train_groups_of,
        dev_group_of=dev_groups_of,
    )
