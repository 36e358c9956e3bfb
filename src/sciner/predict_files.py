"""Tagging whole files: read each input, tag with one progress bar, render the chosen format."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from sciner.document import Paragraph
from sciner.errors import ScinerError
from sciner.tagger import Tagger


def tag_files(
    tagger: Tagger,
    paths: list[Path],
    reader: Callable[[Path], list[Paragraph]],
    *,
    batch_subwords: int,
    show_progress: bool,
    on_error: Callable[[Path, ScinerError], object],
) -> list[tuple[Path, list[Paragraph]]]:
    """Tagged paragraphs of each readable file, in input order; unreadable files go to ``on_error``."""
    from tqdm import tqdm

    read: list[tuple[Path, list[Paragraph]]] = []
    for path in tqdm(paths, desc="reading", unit="file", disable=not show_progress or len(paths) < 2, file=sys.stderr):
        try:
            read.append((path, reader(path)))
        except ScinerError as err:
            on_error(path, err)
    everything = [p for _, ps in read for p in ps]
    total = sum(len(p.tokens) for p in everything)
    with tqdm(total=total, desc="tagging", unit="tok", unit_scale=True, disable=not show_progress,
              file=sys.stderr) as bar:
        tagged = tagger.tag(everything, batch_subwords=batch_subwords, progress=bar.update)
    out, k = [], 0
    for path, ps in read:
        out.append((path, tagged[k : k + len(ps)]))
        k += len(ps)
    return out


def render(paragraphs: list[Paragraph], fmt: str, title: str) -> str:
    """The text of ``paragraphs`` in format ``conll``, ``jsonl`` or ``html``."""
    if fmt == "conll":
        from sciner.formats.conll import format_conll

        return format_conll(paragraphs)
    if fmt == "jsonl":
        from sciner.formats.jsonl import format_jsonl

        return format_jsonl(paragraphs)
    from sciner.view.html import render_entities

    return render_entities(paragraphs, title=title)
