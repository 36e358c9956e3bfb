"""The paper's own method: the names it proposes, the names it cites as prior work, and which
results are its own; and the patterns of a citation, for here and for the table reader.

* :func:`proposed_methods`: the MethodNames of the title before a colon, and those after
  "we propose", "we introduce", "called" ... in the abstract or introduction;
* :func:`cited_names`: the proposed names the paper also cites ("BERT ( Devlin et al . , 2019 )");
* :func:`mark_ours`: each result whose model is a proposed name or a variant of one.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence

from sciner.data.sentences import sentence_ranges
from sciner.document import Paragraph, Span
from sciner.summary.names import fold, mention_text
from sciner.summary.values import Result

# --- citations --------------------------------------------------------------------------------

# A year as papers print it in a citation or a name ("2019", "2016a").
YEAR = r"(?:19|20)\d\d[a-z]?"
# A citation in parentheses within a text, cut from a table's row label: "GCN ( Zhang et al . ,
# 2018 )", "BC5CDR ( Li et al . , 2016 )" (any four digits: "( 2016a )").
CITATION = re.compile(r"\(\s?[^()]*(?:et al|\d{4}[a-z]?)[^()]*\)")
# A text that cites prior work ("et al", "( 2018 )", ", 2018 )"): a row labelled so is a baseline.
CITED = re.compile(rf"\bet al\b|\(\s?{YEAR}\s?\)|,\s?{YEAR}\s?\)")
# A citation right after a name: "BERT ( Devlin et al . , 2019 )", "LSTM ( Hochreiter and
# Schmidhuber , 1997 )", "[ 12 ]".
_CITATION_AFTER = re.compile(rf"^\s*(?:\(\s?[^()]*(?:et al|{YEAR})[^()]*\)|\[\s?\d+(?:\s?,\s?\d+)*\s?\])")

# --- the paper's own method -------------------------------------------------------------------

# Words that introduce the paper's own method in its abstract or introduction.
_PROPOSE = re.compile(r"\b(?:we|this paper|this work)\s+(?:propose|proposes|introduce|introduces|present|presents|"
                      r"develop|develops|call|term|describe|describes)\b|\b(?:called|named|dubbed|our (?:model|method|"
                      r"approach|system|framework|parser|architecture))\b")
# What a model adds to a name and still is that name: its size, the paper's spelling of it.
_SIZES = re.compile(r"\b(?:base|large|small|tiny|medium|xl|xxl|uncased|cased)\b")


def proposed_methods(paragraphs: Sequence[Paragraph], name_of: Callable[[Paragraph, Span], str | None]) -> list[str]:
    """The names of the methods the paper proposes: the MethodNames its title names before a
    colon ("BERT: Pre-training of ..."), and the first two after "we propose", "we introduce",
    "called" ... in a sentence of its abstract or introduction."""
    found: list[str] = []
    for p in paragraphs:
        kind, section = p.meta.get("kind"), str(p.meta.get("section") or "")
        if kind == "title":
            colon = p.tokens.index(":") if ":" in p.tokens else len(p.tokens)
            found += [n for s in p.spans or [] if s.label == "MethodName" and s.end <= colon and (n := name_of(p, s))]
            continue
        if kind not in (None, "body", "abstract") or not re.match(r"(?:abstract|(?:1\.?\s+)?introduction)\b",
                                                                 section.lower().lstrip("1. ")):
            continue
        for start, end in sentence_ranges(p.tokens, p.tags or []):
            text = " ".join(w.lower() for w in p.tokens[start:end])
            match = _PROPOSE.search(text)
            if match is None:
                continue
            at = start + len(text[:match.start()].split())
            after = [s for s in p.spans or [] if s.label == "MethodName" and at <= s.start and s.end <= end][:2]
            found += [n for s in after if (n := name_of(p, s))]
    names = [n for n in dict.fromkeys(found) if len(fold(n)) >= 3 and n != n.lower()]  # not "fine-tuning"
    # A part of another proposed name ("GCN" of "AGGCN", "Multi" of "Multi-LexSum") is not one.
    return [n for n in names if not any(fold(n) != fold(m) and fold(n) in fold(m) for m in names)]


def cited_names(paragraphs: Sequence[Paragraph], names: Sequence[str]) -> set[str]:
    """The names among ``names`` the paper cites as prior work somewhere: a mention right
    followed by a citation ("BERT ( Devlin et al . , 2019 )"): the paper builds on them."""
    keys = {fold(n): n for n in names}
    found: set[str] = set()
    for p in paragraphs:
        for s in p.spans or []:
            name = keys.get(fold(mention_text(p, s)))
            if name is not None and name not in found and _CITATION_AFTER.match(" ".join(p.tokens[s.end:s.end + 12])):
                found.add(name)
    return found


def mark_ours(results: Sequence[Result], ours: Sequence[str], cited: Iterable[str] = ()) -> None:
    """Mark each result whose model is the paper's own: a row labelled "Ours" (set when read),
    or a model that is a proposed name or a variant of one ("BERT LARGE", "X + Y"). A proposed
    name the paper also cites as prior work ("BERT" in a paper proposing a post-training of it)
    is not its own in a table that lists its variants beside it ("BERT" beside "BERT - PT" and
    "BERT - DK": the baseline the variants improve on)."""
    keys = [fold(n) for n in ours]
    built_on = {fold(n) for n in cited}

    def bare(model: str) -> str:  # "BERT Large ( single )" -> "bert"
        return fold(_SIZES.sub(" ", re.sub(r"\([^()]*\)", " ", model.lower())))

    variants = {(r.table, k) for r in results if r.table and r.model for k in built_on
                if fold(r.model).startswith(k) and bare(r.model) != k}
    for r in results:
        model = fold(r.model or "")
        if not model or CITED.search(r.model or ""):
            continue
        for k in keys:
            if model.startswith(k) or (len(k) >= 4 and k in model):
                if (r.table, k) in variants and bare(r.model or "") == k:
                    continue
                r.ours = True
