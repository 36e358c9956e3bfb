"""Per-group and per-type counts of what training will see (``sciner data stats``)."""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import TYPE_CHECKING

from sciner.data.assemble import Corpus
from sciner.document import bio_to_spans
from sciner.labels import ENTITY_TYPES

if TYPE_CHECKING:  # pragma: no cover
    from sciner.config import Config


def corpus_stats(cfg: "Config") -> tuple[list[dict[str, object]], Corpus]:
    """The corpus training with ``cfg`` sees (its ``[data]`` and training seed) and its
    :func:`corpus_table`."""
    from sciner.data.assemble import assemble

    corpus = assemble(cfg.data, seed=cfg.train.seed)
    return corpus_table(corpus), corpus


def corpus_table(corpus: Corpus) -> list[dict[str, object]]:
    """One row per (split, group): paragraphs, tokens, and entities per type."""
    rows: dict[tuple[str, str], dict[str, object]] = {}
    counts: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    for split, paras, groups in (("train", corpus.train, corpus.train_group_of), ("dev", corpus.dev, corpus.dev_group_of)):
        for p, g in zip(paras, groups):
            key = (split, g)
            row = rows.setdefault(key, {"split": split, "group": g, "paragraphs": 0, "tokens": 0})
            row["paragraphs"] = int(row["paragraphs"]) + 1  # type: ignore[call-overload]
            row["tokens"] = int(row["tokens"]) + len(p.tokens)  # type: ignore[call-overload]
            counts[key].update(s.label for s in bio_to_spans(p.tags or []))
    out = []
    for key in sorted(rows, key=lambda k: (k[0] != "train", k[1])):
        row = rows[key]
        for t in ENTITY_TYPES:
            row[t] = counts[key][t]
        out.append(row)
    return out


def format_table(rows: list[dict[str, object]], corpus: Corpus) -> str:
    """A fixed-width text table with totals per split and the assembly bookkeeping."""
    short = {t: t.replace("Hyperparameter", "HP").replace("Name", "N").replace("Value", "V") for t in ENTITY_TYPES}
    cols = ["split", "group", "paragraphs", "tokens"] + list(ENTITY_TYPES)
    header = ["split", "group", "paras", "tokens"] + [short[t] for t in ENTITY_TYPES]
    lines = [rows_fmt(header)]
    for split in ("train", "dev"):
        sub = [r for r in rows if r["split"] == split]
        for r in sub:
            lines.append(rows_fmt([str(r[c]) for c in cols]))
        total = ["", f"TOTAL {split}"] + [str(sum(int(r[c]) for r in sub)) for c in cols[2:]]  # type: ignore[call-overload]
        lines.append(rows_fmt(total))
    all_tokens = sum(int(r["tokens"]) for r in rows)  # type: ignore[call-overload]
    dev_tokens = sum(int(r["tokens"]) for r in rows if r["split"] == "dev")  # type: ignore[call-overload]
    lines.append("")
    lines.append(f"dev share of tokens: {dev_tokens / max(all_tokens, 1):.1%} ({len(corpus.dev_groups)} held-out groups)")
    lines.append(f"duplicate sentences dropped: {corpus.dropped_duplicates} "
                 f"(of which {corpus.dropped_conflicts_resolved} labelled differently, resolved by majority/agreement rank)")
    lines.append(f"training sentences also in dev, dropped: {corpus.dropped_dev_overlap}")
    lines.append(f"reference-list sentences dropped: {corpus.dropped_references}")
    return "\n".join(lines)


def rows_fmt(cells: list[str]) -> str:
    return f"{cells[0]:<6}{cells[1][:44]:<45}" + "".join(f"{c:>8}" for c in cells[2:])
