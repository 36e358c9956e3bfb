"""Convert tagged paragraphs between every format sciner reads and writes (see
:mod:`sciner.formats.registry` for the formats and how a file's format is decided).

Tokens are not changed: every format keeps them, or (text, doccano made by doccano) is
split on single spaces, the task's own tokenization; only ``--retokenize`` cuts them again
with the task's tokenizer, moving each entity onto the new tokens by character offsets. A token the target format cannot carry
(see :mod:`sciner.formats.tokens`) is refused before anything is written.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from sciner.document import Paragraph, Span
from sciner.errors import OutputError
from sciner.formats.registry import input_format, output_format, refuse_binary, render
from sciner.outputs import Outputs
from sciner.stdio import is_stdio, readable, write_stdout


@dataclass(frozen=True)
class Conversion:
    """What :func:`convert` did: formats, paragraph and entity counts, the labeling config written."""

    source_format: str
    target_format: str
    paragraphs: int
    entities: int
    label_config: Path | None = None
    # Entities read but not written: the target format holds tokens only (paragraph text).
    not_written: int = 0
    # With ``retokenize``: tokens before and after, and entities no new token boundary fits.
    tokens_before: int = 0
    tokens_after: int = 0
    not_placed: int = 0


def convert(src: str | Path, dst: str | Path, *, from_format: str | None = None, to_format: str | None = None,
            label_config: str | Path | None = None, retokenize: bool = False) -> Conversion:
    """Read ``src`` (``-``: standard input) and write the same paragraphs, tokens and entities
    to ``dst`` (``-``: standard output, for text formats); with ``label_config``, also write
    the Label Studio labeling config (XML) for them there. Every output is checked before
    anything is written: none may be ``src``, and ``label_config`` is not ``dst``. With
    ``retokenize``, the tokens are cut again by the task's tokenizer (see :func:`retokenize`)."""
    outputs = Outputs([src])
    config = None if label_config is None else outputs.check(label_config)
    if config is not None and not is_stdio(dst) and config.resolve() == Path(dst).resolve():
        raise OutputError(f"{config}: --label-config and OUT name the same file")
    with readable(src) as local:
        source = input_format(local, from_format)
        target = output_format(None if is_stdio(dst) else dst, to_format)
        if is_stdio(dst):
            refuse_binary(target)
        else:
            outputs.check(dst)
        paragraphs = source.read(local)  # type: ignore[misc]
        before = sum(len(p.tokens) for p in paragraphs)
        not_placed = 0
        if retokenize:
            paragraphs, not_placed = retokenized(paragraphs)
        content = render(paragraphs, target, title=local.name)
    if is_stdio(dst):
        write_stdout(content)
    else:
        outputs.write(dst, content)
    if config is not None:
        from sciner.formats.labelstudio import label_config as labelstudio_config

        outputs.write(config, labelstudio_config())
    entities = sum(len(p.spans or []) for p in paragraphs)
    return Conversion(source.name, target.name, len(paragraphs), entities, config,
                      not_written=0 if target.carries_entities else entities, tokens_before=before,
                      tokens_after=sum(len(p.tokens) for p in paragraphs), not_placed=not_placed)


def retokenized(paragraphs: list[Paragraph]) -> tuple[list[Paragraph], int]:
    """Each paragraph's text (its tokens joined by spaces) cut by the task's tokenizer
    (:mod:`sciner.tokenize`; "performance," becomes "performance" ","), each entity moved onto
    the new tokens that cover the same characters, less punctuation cut off at its edges
    (:func:`_trimmed`); returns the paragraphs and the number of
    entities whose first or last character is not a new token's (left out, to be counted)."""
    from sciner.formats.charspans import token_offsets_in_text
    from sciner.tokenize import tokenize_paragraphs

    texts = [p.text for p in paragraphs]
    out, not_placed = [], 0
    for p, text, new_tokens in zip(paragraphs, texts, tokenize_paragraphs(texts)):
        # The tokenizer keeps every character: each new token is found in order.
        offsets = token_offsets_in_text(new_tokens, text, f"{p.source}:{p.line}")
        first = {start: i for i, (start, _) in enumerate(offsets)}
        last = {end: i for i, (_, end) in enumerate(offsets)}
        old = p.token_offsets()
        spans = None
        if p.spans is not None:
            spans = []
            for s in p.spans:
                begin, end = old[s.start][0], old[s.end - 1][1]
                if begin in first and end in last:
                    spans.append(Span(s.label, *_trimmed(new_tokens, first[begin], last[end] + 1), s.score))
                else:
                    not_placed += 1
        out.append(Paragraph(new_tokens, source=p.source, line=p.line, spans=spans, meta=p.meta))
    return out, not_placed


# Punctuation an annotator could not leave out of a token ("performance," "(BERT"): once cut
# off, it is left out of the entity, as the annotation standard has it; "%" and "-" stay in.
_EDGE_PUNCTUATION = set(",.;:!?\"'()[]{}")


def _trimmed(tokens: list[str], start: int, end: int) -> tuple[int, int]:
    """``start, end`` without punctuation-only tokens at either edge (never empty)."""
    while end - start > 1 and set(tokens[end - 1]) <= _EDGE_PUNCTUATION:
        end -= 1
    while end - start > 1 and set(tokens[start]) <= _EDGE_PUNCTUATION:
        start += 1
    return start, end
