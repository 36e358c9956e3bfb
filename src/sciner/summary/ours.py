"""The paper's own method: the names it proposes, the names it cites as prior work, and which
results are its own; and the patterns of a citation, for here and for the table reader.

* :func:`proposed_methods`: the MethodNames of the title before a colon, and those after
  "we propose", "we introduce", "called" ... in the abstract or introduction;
* :func:`cited_names`: the proposed names the paper also cites ("BERT ( Devlin et al . , 2019 )");
* :func:`mark_ours`: each result whose model is a proposed name or a variant of one, whose row
  is labelled as the paper's own ("Ours", "our model", "this work") or is an ablation beside
  such a row ("w/o attention"), or whose sentence says it is the paper's ("our model achieves
  88.5 F1", "we obtain 71.3 F1");
* :func:`own_row_names`: the names of rows labelled as the paper's own ("Our X", "X ( ours )");
* :func:`mark_ablations`: the rows "M + X" under the paper's own row M, ablations of it;
* :func:`mark_variant_tables`: the rows of a table whose caption says it varies the paper's own
  method ("variations of our model", "ablation").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence

from sciner.data.sentences import sentence_ranges
from sciner.document import Paragraph, Span
from sciner.summary.names import best_long_form, find_abbreviations, fold, mention_text
from sciner.summary.provenance import is_ablated
from sciner.summary.values import YEAR, Result

# --- citations --------------------------------------------------------------------------------

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
# "Our largest model , GPT-2 , ..." and "This model , the deep averaging network ( DAN ) , ..." name
# it too: a word or two may stand between "our" and its noun, "this model" takes an apposition.
_PROPOSE = re.compile(r"\b(?:we|this paper|this work)\s+(?:propose|proposes|introduce|introduces|present|presents|"
                      r"develop|develops|call|term|describe|describes)\b|\b(?:called|named(?! entit)|dubbed|our (?:[\w-]+ ){0,2}"
                      r"(?:model|method|approach|system|framework|parser|architecture)s?|this (?:model|method|approach|"
                      r"network|architecture|system) ,)(?=\W|$)")  # (not the "named" of "named entity ...")
# Words after which the paper names a model of its own ("which we subsequently refer to as").
_REFER = re.compile(r"\brefer to (?:(?:this|these|it|them|the)(?: [\w-]+){0,3} )?as\b|\bwhich we (?:[\w-]+ )?"
                    r"(?:refer to as|call|denote as|name)\b|\bwe (?:[\w-]+ )?denote (?:this|it|these|them)(?: [\w-]+){0,2}"
                    r" as\b")
# Words after "our X" that make X another's ("our X baseline"), or no model of its own
# ("our CUDA kernel", "our ERNIE framework": a tool, or the frame of a name given elsewhere).
_NOT_OWN_AFTER = frozenset({"baseline", "baselines", "implementation", "reimplementation", "re-implementation",
                            "reproduction", "kernel", "kernels", "code", "library", "toolkit", "package",
                            "software", "framework", "frameworks"})
# Words that end a title's leading name ("Weighted Transformer Network for Machine Translation").
_TITLE_BREAK = frozenset({"for", "with", "via", "through", "in", "on", "using", "from", "to", "as", "by", "of", "and",
                          "is", "are", "the", "a", "an", "at"})
# What a model adds to a name and still is that name: its size, the paper's spelling of it.
_SIZES = re.compile(r"\b(?:base|large|small|tiny|medium|xl|xxl|uncased|cased)\b")


def _opening(p: Paragraph) -> bool:
    """Whether ``p`` is a paragraph of the paper's abstract or introduction (or of the text under
    its title before any heading: an abstract whose heading the layout did not set apart)."""
    section = str(p.meta.get("section") or "")
    return p.meta.get("kind") in (None, "body", "abstract") and bool(
        re.match(r"(?:abstract|title|(?:1\.?\s+)?introduction)\b", section.lower().lstrip("1. ")))


def coined(text: str) -> bool:
    """Whether words read as a coined name: a capital after a word's first letter ("CheckList",
    "Multi-LexSum", "Tree LSTM"), not title case alone ("Beyond Accuracy") nor a title
    set in capitals ("JOINTLY LEARNING")."""
    return not text.isupper() and any(any(c.isupper() for c in word[1:]) for word in re.split(r"[\s-]+", text))


def title_name(paragraphs: Sequence[Paragraph]) -> list[str]:
    """The title's leading words when they name a method, with the short form of their initials
    where the paper uses it: "Universal Sentence Encoder" (and "USE"), "Weighted Transformer
    Network for Machine Translation", "Skip - Thought Vectors"; not a task or data set the title
    names ("Neural Machine Translation with ..." tagged as a task), not an activity ("Constituency
    Parsing with ...", "Learning Structured ..."). The words are two to four, each capitalised,
    before a colon-less title's first small word ("for", "with", "are" ...), and the paper tags
    them (most of them, or their initials) as a method elsewhere."""
    title = next((p for p in paragraphs if p.meta.get("kind") == "title"), None)
    if title is None or ":" in title.tokens:
        return []
    end = next((k for k, w in enumerate(title.tokens) if w.lower() in _TITLE_BREAK), len(title.tokens))
    head = title.tokens[:end]
    words = [w for w in head if w != "-"]
    if not 2 <= len(words) <= 4 or not all(w[:1].isupper() for w in words) or words[0].lower().endswith("ing") \
            or words[-1].lower().endswith("ing") or title.tokens[end:end + 1] == ["-"]:
        return []
    if any(s.label != "MethodName" and s.start < end for s in title.spans or []):
        return []
    name = " ".join(head).replace(" - ", "-")
    key = fold(name)
    initials = "".join(w[0] for part in words for w in part.split("-")).upper()
    mentions = [(p, s) for p in paragraphs if p is not title for s in p.spans or [] if s.label == "MethodName"]
    named = any(key in m or (key.startswith(m) and 2 * len(m) > len(key))  # "Skip - thought" of "... Vectors"
                for m in (fold(mention_text(p, s)) for p, s in mentions))
    short = len(initials) >= 3 and any(re.match(rf"{initials}(?:$|[_-])", w) for p, s in mentions
                                       for w in p.tokens[s.start:s.end])  # "USE", "USE_T"
    return [name] * (named or short) + [initials] * short


def title_acronyms(paragraphs: Sequence[Paragraph]) -> list[str]:
    """The short forms the abstract or introduction defines for a phrase of the title
    ("Bi-Directional Attention Flow for Machine Comprehension" and "the Bi - Directional Attention
    Flow ( BIDAF ) network": BIDAF), unless the short form is tagged as a task, dataset or metric
    there ("Machine comprehension ( MC )")."""
    title = next((fold(" ".join(p.tokens)) for p in paragraphs if p.meta.get("kind") == "title"), "")
    found: list[str] = []
    for p in paragraphs:
        if not title or not _opening(p):
            continue
        for a in find_abbreviations(p.tokens):
            long = fold(a.long)
            other = any(s.label in ("TaskName", "DatasetName", "MetricName") and s.start < a.short_range[1]
                        and a.short_range[0] < s.end for s in p.spans or [])
            if len(long) >= 8 and long in title and not other and any(c.isupper() for c in a.short):
                found.append(a.short)
    return found


def proposed_methods(paragraphs: Sequence[Paragraph], name_of: Callable[[Paragraph, Span], str | None]) -> list[str]:
    """The names of the methods the paper proposes: the MethodNames its title names before a
    colon ("BERT: Pre-training of ...", or an untagged name of three words at most: "ELECTRA :
    ..."), the short forms its abstract or introduction defines for a phrase of its title
    (:func:`title_acronyms`), and the first two MethodNames after "we propose", "we introduce",
    "called" ... in a sentence of its abstract or introduction: not those the abstract or
    introduction cites as prior work (unless they are all it names), and, where the title names
    the method before a colon, only its variants ("ELECTRA-Large", not the "GAN" it is compared to)."""
    titled: list[str] = []  # the title's
    said: list[str] = []  # the abstract's and introduction's
    named = False  # whether the title names the method before a colon ("ELECTRA : ...")
    for p in paragraphs:
        if p.meta.get("kind") == "title":
            colon = p.tokens.index(":") if ":" in p.tokens else len(p.tokens)
            named = colon < len(p.tokens)
            titled += [n for s in p.spans or [] if s.label == "MethodName" and s.end <= colon and (n := name_of(p, s))]
            head = " ".join(p.tokens[:colon]).replace(" - ", "-")
            if 0 < colon <= 3 < len(p.tokens) and any(c.isupper() for c in head) and not any(
                    s.start < colon for s in p.spans or []) and (" " not in head or coined(head)):
                # "ELECTRA : Pre - training Text Encoders ...", untagged (not "Beyond Accuracy :
                # Behavioral Testing ...": words in title case describe, a coined name it is not)
                titled.append(head)
            continue
        if not _opening(p):
            continue
        for start, end in sentence_ranges(p.tokens, p.tags or []):
            text = " ".join(w.lower() for w in p.tokens[start:end])
            match = _PROPOSE.search(text)
            if match is None:
                continue
            at = start + len(text[:match.start()].split())
            after = [s for s in p.spans or [] if s.label == "MethodName" and at <= s.start and s.end <= end][:2]
            said += [n for s in after if (n := name_of(p, s))]
    if named and titled:
        said = [n for n in said if any(fold(t) in fold(n) for t in titled)]
    # Not what the opening cites ("... beats RoBERTa ( Liu et al . , 2019 )") unless the title names
    # it, or it is all the paper names ("a post-training approach on BERT": built on, see mark_ours).
    cited = cited_names([p for p in paragraphs if _opening(p)], said)
    own = [n for n in said if n not in cited or n in titled]
    found = titled + (own if own or titled else said) + title_acronyms(paragraphs)
    spelled: dict[str, str] = {}  # one spelling a name: the first, in mixed case where it has one
    for n in found:  # ("AGGCN", not "AGGCNs"; "TinyBERT", not the title's "TINYBERT")
        first = spelled.setdefault(fold(n), n)
        if first.isupper() and n.lower() == first.lower():
            spelled[fold(n)] = n
    names = [n for n in dict.fromkeys(spelled[fold(n)] for n in found)
             if len(fold(n)) >= 3 and n != n.lower()]  # not "fine-tuning"
    # A part of another proposed name ("GCN" of "AGGCN", "Multi" of "Multi-LexSum") is not one; a
    # name is not a part of its sized variant ("ELECTRA" of "ELECTRA-Large").
    names = [n for n in names if not any(fold(n) != fold(m) and fold(n) in fold(m) and not _SIZES.fullmatch(
        fold(m).removeprefix(fold(n))) for m in names)]
    # The title's name where none of those is part of it ("Weighted Transformer" keeps its spelling),
    # then the variants the body names as its own.
    names += [n for n in title_name(paragraphs) if not any(fold(m) in fold(n) for m in names)]
    names += [n for n in short_names(paragraphs, names) if fold(n) not in {fold(m) for m in names}]
    names += [n for n in own_variants(paragraphs, name_of) if fold(n) not in {fold(m) for m in names}]
    # Nor the tail of a coined word another names ("LSTM" of "MaLSTM": the architecture it adapts).
    return [n for n in names if not any(re.fullmatch(r"\w+", m) and fold(m).endswith(fold(n)) and fold(m) != fold(n)
                                        for m in names)]


def short_names(paragraphs: Sequence[Paragraph], proposed: Sequence[str]) -> list[str]:
    """The short forms of several words the paper defines for a proposed name ("Attention Sum
    Reader ( AS Reader )": "AS Reader"), its rows' spelling: the first word's letters are the
    initials of the name's first words, the others the name's last words."""
    keys = {fold(n): n for n in proposed}
    found: list[str] = []
    for p in paragraphs:
        tokens = p.tokens
        for open_at in (k for k, t in enumerate(tokens) if t == "(" and k + 2 < len(tokens)):
            close = next((j for j in range(open_at + 2, min(len(tokens), open_at + 5)) if tokens[j] == ")"), None)
            if close is None or close - open_at < 3:
                continue
            inside = list(tokens[open_at + 1:close])
            rest = len(inside) - 1
            for start in range(max(0, open_at - 8), open_at):
                words = list(tokens[start:open_at])
                if fold(" ".join(words)) in keys and len(words) > rest and words[len(words) - rest:] == inside[1:] \
                        and best_long_form(inside[0], " ".join(words[:len(words) - rest])) == " ".join(
                            words[:len(words) - rest]) and inside[0][:1].isupper():
                    found.append(" ".join(inside))
                    break
    return list(dict.fromkeys(found))


def own_variants(paragraphs: Sequence[Paragraph], name_of: Callable[[Paragraph, Span], str | None]) -> list[str]:
    """The names the paper's body gives its own models: the MethodName right after "we refer to
    this model as", "which we subsequently refer to as", "we denote it as" ("uni-skip",
    "combine-skip"), and a MethodName right after "our" ("Our BiLSTM-max trained on SNLI ..."),
    not in a sentence about a baseline, not "our implementation of X", and not a name the paper
    cites as prior work; not a tool or frame ("our CUDA kernel", "our ERNIE framework")."""
    found: list[str] = []
    for p in paragraphs:
        if p.meta.get("kind") not in (None, "body", "abstract"):
            continue
        spans = sorted((s for s in p.spans or [] if s.label == "MethodName"), key=lambda s: s.start)
        for start, end in sentence_ranges(p.tokens, p.tags or []):
            words = [w.lower() for w in p.tokens[start:end]]
            if "baseline" in words or "baselines" in words:
                continue
            text = " ".join(words)
            marks = [start + len(text[:m.end()].split()) for m in _REFER.finditer(text)]
            found += [n for at in marks for s in spans if at <= s.start <= at + 1 and (n := name_of(p, s))]
            found += [n for s in spans if start < s.start < end and p.tokens[s.start - 1].lower() == "our"
                      and (s.end >= end or p.tokens[s.end].lower() not in _NOT_OWN_AFTER)
                      and any(c.isupper() for c in mention_text(p, s)) and (n := name_of(p, s))]
    found = [n for n in dict.fromkeys(found) if len(fold(n)) >= 3 and (n != n.lower() or "-" in n)]
    cited = cited_names(paragraphs, found)
    return [n for n in found if n not in cited]


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


# A row label that says the row is the paper's own ("Ours", "our model + TF-IDF", "X ( this work )").
_OWN_LABEL = re.compile(r"\bours\b|\bour\b|\bthis (?:work|paper)\b|\bproposed\b", re.I)
# A caption that says its table is the paper's own ("results of our best model", "our approach").
_OUR_CAPTION = re.compile(r"\bour (?:[\w-]+ ){0,2}(?:model|method|approach|system|network|parser)s?\b")
# A caption of a table comparing the paper's own with others' ("Comparison of ... with ...").
_COMPARED = re.compile(r"\bcompar\w*|\bversus\b|\bvs\b|\bbaselines?\b|state - of - the - art|\bprevious\b|\bprior\b")
# Words of a sentence that say its value is the paper's own, before it ("our model achieves",
# "we obtain") or right after it ("4.6 for our method").
_WE = frozenset({"we", "our", "ours"})
_OURS_AFTER = re.compile(r"^(?:%\s)?(?:for|by|of|from|with) our\b|^(?:%\s)?\( ours \)")
# Words between such a "we" and the value that make the value another's: a comparison, prior
# work, a citation's "et al" or year ("better than the best published F1 score of 81.8").
_THEIRS = re.compile(rf"than|compared|comparison|vs\.?|versus|previous|previously|prior|published|baselines?|"
                     rf"humans?|close|outperform\w*|exceed\w*|surpass\w*|beat\w*|al|{YEAR}")


def said_ours(p: Paragraph, start: int, end: int) -> bool:
    """Whether the sentence of ``p`` holding the value at ``start``-``end`` says the value is the
    paper's own: "we" or "our" before it with no comparison, citation or other method named
    between ("our model scores 91.93 F1", "we achieve 71.3 F1", "our ESIM model achieves 88.0 %",
    not "... better than the 81.8 of X" nor "the DRecNN obtains 41.7 %"), or "for our method"
    right after it ("7.64 vs. 4.6 for our method")."""
    begin = next((a for a, b in sentence_ranges(p.tokens, p.tags or []) if a <= start < b), 0)
    if _OURS_AFTER.match(" ".join(p.tokens[end:end + 4]).lower()):
        return True
    methods = [s for s in p.spans or [] if s.label == "MethodName" and begin <= s.start and s.end <= start]
    for k in range(start - 1, begin - 1, -1):
        word = p.tokens[k].lower()
        if word in _WE:
            return True
        if _THEIRS.fullmatch(word) or (k == start - 1 and word == "from"):  # "from 90.87 % to": the old score
            return False
        method = next((s for s in methods if s.start <= k < s.end), None)
        if method is not None:  # another method's, unless "our" names it ("our ESIM model"), not "we fine-tune X"
            return any(w.lower() in ("our", "ours") for w in p.tokens[max(begin, method.start - 3):method.start])
    return False


def cites(result: Result) -> bool:
    """Whether a result's model is cited prior work: its row's label ends in a citation, kept
    apart, or its model still says one ("Lample et al . ( 2016 )"); or the heads over its column
    say so ("Baseline > LSTM > [ 22 ]")."""
    return bool(result.citation or CITED.search(result.model or "") or (result.table and _BASELINE_HEADS.search(
        result.header or "")))


# Heads over a column of another's scores: a "Baseline(s)" head over others (not the last line of
# "ELMO + > BASELINE"), a numbered citation ("[ 22 ]").
_BASELINE_HEADS = re.compile(r"^baselines?\s>|(?:^|>\s)\[\s?\d+(?:\s?,\s?\d+)*\s?\](?:\s>|$)", re.I)


def mark_ours(results: Sequence[Result], ours: Sequence[str], cited: Iterable[str] = (),
              paragraphs: Sequence[Paragraph] = ()) -> None:
    """Mark each result whose model is the paper's own: a row labelled "Ours" (set when read),
    "our model", "this work" ...; a row of an ablation ("w/o attention") in a table holding the
    paper's own rows; a result of a sentence (of ``paragraphs``) that says it is the paper's own
    (:func:`said_ours`); or a model that is a proposed name or a variant of one ("BERT LARGE",
    "X + Y"). A proposed name the paper also cites as prior work ("BERT" in a paper proposing a
    post-training of it) is not its own in a table that lists its variants beside it ("BERT"
    beside "BERT - PT" and "BERT - DK": the baseline the variants improve on)."""
    keys = [fold(n) for n in ours]
    built_on = {fold(n) for n in cited}
    # The first word of a proposed name of several ("lattice LSTM", "kNN-NER"): the paper's rows
    # name its method so, alone (five letters or more) or added to a model ("+kNN"; a coined
    # word only, not "+Lattice" of another's "Char+Lattice").
    firsts = [first for n in ours if (first := re.split(r"\s+|\s?[-–]\s?", n.strip())[0]) != n.strip()
              and len(fold(first)) >= 3 and fold(first) not in built_on]

    def bare(model: str) -> str:  # "BERT Large ( single )" -> "bert"
        return fold(_SIZES.sub(" ", re.sub(r"\([^()]*\)", " ", model.lower())))

    variants = {(r.table, k) for r in results if r.table and r.model for k in built_on
                if fold(r.model).startswith(k) and bare(r.model) != k}
    for r in results:
        if r.table and r.model and _OWN_LABEL.search(r.model) and not cites(r):
            r.ours = True
        elif r.table is None and paragraphs and said_ours(paragraphs[r.place[0]], r.place[1], r.place[2]):
            r.ours = True
        elif r.table and r.model and cites(r) and said_our_row(r):
            r.ours = True  # "R - NET ( Wang et al . , 2017 )" under "The performance of our R - NET and ...": a self-citation
        model = fold(r.model or "")
        if r.ours or not model or cites(r):
            continue
        for k in keys:
            if model.startswith(k) or (len(k) >= 4 and k in model):
                if (r.table, k) in variants and bare(r.model or "") == k:
                    continue
                r.ours = True
        if not r.ours and r.table and any((model == fold(first) and len(model) >= 5) or (
                re.search(r"[a-z][A-Z]|[A-Z]{2}", first) and re.search(rf"\+\s*{re.escape(first)}$", r.model or ""))
                for first in firsts):
            r.ours = True  # "Lattice" of "lattice LSTM", "BERT - Base+kNN" adding the "kNN" of "kNN-NER"
    # A table naming no model in any row is of the model its caption names ("... of our best
    # model", "Evaluation of T64 ..."); a result under a head naming a proposed name is its own
    # ("ERNIE 2.0 BASE > Dev").
    named_tables = {r.table for r in results if r.table and r.model}
    long_keys = [k for k in keys if len(k) >= 3]
    own_caption: dict[str, bool] = {}  # per table: its caption says its model-less rows are ours
    for r in results:
        if r.table and not r.model and not r.ours:
            if r.table not in own_caption:
                caption = (r.caption or "").lower()
                words = [fold(w) for w in caption.split()]
                own_caption[r.table] = r.table not in named_tables and _COMPARED.search(caption) is None and (
                    _OUR_CAPTION.search(caption) is not None or any(k in w for w in words for k in long_keys))
            head = fold((r.header or "").split(">")[0])
            r.ours = any(k in head for k in long_keys) or own_caption[r.table]
    mark_below_citing(results, paragraphs)
    own_tables = {r.table for r in results if r.table and r.ours}
    for r in results:  # a row taking a part away ("w/o attention") in a table of the paper's own rows
        if r.table in own_tables and r.model and is_ablated(r.model) and not cites(r):
            r.ours = True
    mark_variant_tables(results, ours, paragraphs)
    mark_theirs(results, paragraphs)


def mark_theirs(results: Sequence[Result], paragraphs: Sequence[Paragraph] = ()) -> None:
    """Of the results not marked the paper's own, mark another's (``ours`` False) each the paper
    says is prior work (:func:`_said_theirs`); the rest stay None: the paper does not say whose
    they are, and a reader is not told they are another's."""
    open_ = [r for r in results if not r.ours]
    citing = [r for r in results if r.table and r.model and cites(r)]
    theirs = {(r.table, fold(_first_word(r.model or ""))) for r in citing}
    named = {fold(r.model or "") for r in citing}  # a name a citing row of any table gives
    cited = {fold(n) for n in cited_names(paragraphs, list({n for r in open_ if r.model
                                                           for n in (r.model, _bare(r.model))}))}
    for r in open_:
        r.ours = False if _said_theirs(r, cited | named, theirs, paragraphs) else None


def _said_theirs(r: Result, cited: set[str], theirs: set[tuple[str | None, str]],
                 paragraphs: Sequence[Paragraph]) -> bool:
    """Whether the paper says a result is prior work: its row's label ends in a citation
    (:func:`cites`); its model, bare of its size ("BERT LARGE"), is one of the ``cited`` names (the
    text cites it, "BERT ( Devlin et al . , 2019 )", or a citing row of a table gives it, "BIAF (
    Dozat and Manning , 2017 )"); its model adds nothing to the first word of a citing row of its
    table (``theirs``: "BIAF re - impl" beside "BIAF ( Dozat and Manning , 2017 )"); or its
    sentence cites before the value ("the model of Lee et al . ( 2017 ) reaches 67.2")."""
    model = r.model or ""
    if cites(r) or (model and (fold(model) in cited or fold(_bare(model)) in cited)):
        return True
    if model and "+" not in model and (r.table, fold(_first_word(model))) in theirs:
        return True
    return r.table is None and bool(paragraphs) and _cites_before(paragraphs[r.place[0]], r.place[1])


def _bare(model: str) -> str:
    """A model's name without its size, the spaces of its words kept: "BERT LARGE" -> "BERT"."""
    return " ".join(_SIZES.sub(" ", model.lower()).split()) if _SIZES.search(model.lower()) else model


def _cites_before(p: Paragraph, start: int) -> bool:
    """Whether the sentence of ``p`` holding the value at ``start`` cites prior work before it."""
    begin = next((a for a, b in sentence_ranges(p.tokens, p.tags or []) if a <= start < b), 0)
    return CITED.search(" ".join(p.tokens[begin:start])) is not None


# A caption that says its table varies the paper's own method: "Parsing performance of different
# variations of our model ...", "Ablation study on ...", "Validation error rates for ULMFiT with
# different methods to fine-tune ..." (the proposed name before "with different": see
# :func:`mark_variant_tables`).
_VARIANT_CAPTION = re.compile(r"\bablat\w*|\b(?:variations?|variants?|versions?|configurations?) of (?:our|the "
                              r"proposed)\b|\bour (?:[\w-]+ ){0,2}(?:model|method|approach|system|network|parser)s? "
                              r"(?:with|under|using) (?:different|various)\b")


def mark_variant_tables(results: Sequence[Result], ours: Sequence[str], paragraphs: Sequence[Paragraph] = ()) -> None:
    """In a table whose caption says it varies the paper's own method (:data:`_VARIANT_CAPTION`,
    or a proposed name followed by "with different" ...), mark each row its own but a row citing
    prior work, a row whose name or first word the paper cites ("BERT BASE" in MobileBERT's
    ablation, "Lattice LSTM ( Zhang and Yang , 2018 )"), a row whose first word starts a citing row
    of its tables ("BIAF : re - impl" beside "BIAF : Dozat and Manning ( 2017 )") and a row the
    caption calls the baseline ("together with the BIAF parser as the baseline"): the rows vary
    that method (Stack-Pointer's "Basic", "+gpar", "Full" at two beam sizes; ULMFiT's "Freez",
    "Discr")."""
    proposed = [re.escape(n.lower()) for n in ours if len(fold(n)) >= 3]
    said = re.compile(rf"\b(?:{'|'.join(proposed)}) (?:with|under|using) (?:different|various)\b") if proposed else None
    tables = {r.table for r in results if r.table and r.caption and (
        _VARIANT_CAPTION.search(r.caption.lower()) or (said and said.search(r.caption.lower())))}
    if not tables:
        return
    rows = [r for r in results if r.table in tables and not r.ours and not cites(r)]
    cited = cited_names(paragraphs, list({n for r in rows if r.model for n in (r.model, _first_word(r.model))}))
    theirs = {fold(_first_word(r.model)) for r in results if r.table and r.model and cites(r)}
    for r in rows:
        caption = fold(r.caption or "")
        first = _first_word(r.model or "")
        if r.model and (r.model in cited or first in cited or fold(first) in theirs
                        or ("baseline" in caption and fold(first) in caption)):
            continue
        r.ours = True


def _first_word(model: str) -> str:
    """A row label's first word: "NeuralCRF ( Lample et al . )" -> "NeuralCRF"."""
    return re.split(r"[\s,(]+", model.strip())[0]


# "our" and the words after it in a caption ("our r - net and competing ...").
_OUR_NAME = re.compile(r"\bour ((?:\S+ ){0,4}\S+)")


def said_our_row(result: Result) -> bool:
    """Whether the caption of a result's table says "our" right before the name of its row, its
    citation left out ("The performance of our R - NET and competing approaches" over "R - NET (
    Wang et al . , 2017 )": the paper citing its own earlier report)."""
    name = fold(CITATION.sub(" ", result.model or ""))
    caption = (result.caption or "").lower()
    return len(name) >= 3 and any(fold(m.group(1)).startswith(name) for m in _OUR_NAME.finditer(caption))


def mark_below_citing(results: Sequence[Result], paragraphs: Sequence[Paragraph]) -> None:
    """In a table of two rows citing prior work or more, none of it marked the paper's own yet,
    mark the rows below every citing row that cite nothing: the paper's own, set under the work
    it compares with. Not a row whose model's first word a citing row of the table starts with
    ("NeuralCRF" under "NeuralCRF ( Lample et al . )") or the paper cites ("CoVe , First Layer",
    "CoVe ( McCann et al . , 2017 )" in the prose)."""
    by_table: dict[str, list[Result]] = {}
    for r in results:
        if r.table and r.model:
            by_table.setdefault(r.table, []).append(r)

    below: list[Result] = []
    for rows in by_table.values():
        citing = [r for r in rows if cites(r)]
        if len({r.place[0] for r in citing}) < 2 or any(r.ours for r in rows):
            continue
        last = max(r.place[0] for r in citing)
        theirs = {fold(_first_word(r.model or "")) for r in citing}
        below += [r for r in rows
                  if r.place[0] > last and not cites(r) and fold(_first_word(r.model or "")) not in theirs]
    cited = cited_names(paragraphs, list({_first_word(r.model or "") for r in below})) if below else set()  # one pass
    for r in below:
        if _first_word(r.model or "") not in cited:
            r.ours = True


def own_row_names(results: Iterable[Result]) -> list[str]:
    """The names of the table rows labelled as the paper's own: "Our Shortcut - Stacked Encoder"
    -> "Shortcut-Stacked Encoder", "AGGCN ( ours )" -> "AGGCN"; not a label that names no
    method of its own ("Ours", "our model + TF - IDF")."""
    found: list[str] = []
    for r in results:
        if not r.table or not r.model or not r.ours or cites(r):
            continue
        own = re.sub(r"\(\s?(?:ours|this work|this paper)\s?\)|^\s*(?:ours|our)\b", " ", r.model, flags=re.I)
        name = " ".join(own.split()).replace(" - ", "-")
        if name != " ".join(r.model.split()).replace(" - ", "-") and name[:1].isupper() and len(fold(name)) >= 3 \
                and not re.search(r"[()+]|\bours?\b", name, re.I):
            found.append(name)
    return list(dict.fromkeys(found))


def mark_ablations(results: Sequence[Result]) -> None:
    """A table row "M + X" whose base M is the paper's own in the same table is an ablation of it
    (the reader names a "+ X" row under M "M + X")."""
    own = {(r.table, r.model) for r in results if r.table and r.model and r.ours}
    for r in results:
        if r.table and r.model and not r.ablation and " + " in r.model \
                and (r.table, r.model.split(" + ")[0]) in own:
            r.ablation = True
