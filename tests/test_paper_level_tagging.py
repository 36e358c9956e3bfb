"""Paper-level decoding wired into tagging: ``Tagger.tag(paper_level=...)`` and ``sciner predict
--paragraph-local``. Off means exactly the paragraph-by-paragraph tags of before."""

from __future__ import annotations

import pytest

from sciner.document import Paragraph
from sciner.inference.tagger import Tagger

PAPER = [
    "We fine - tune BERT on SQuAD and report F1 .".split(),
    "BERT uses a learning rate of 5e-5 .".split(),
    "Our model outperforms OpenAI GPT on GLUE .".split(),
]
OTHER = ["ELMo is evaluated on CoNLL-2003 NER ."]


def with_meta(tagger: Tagger, **meta) -> Tagger:
    """The session's tagger with other model.json entries (the shared one is left as it is)."""
    return Tagger(tagger.networks, {**tagger.meta, **meta}, tagger.path)


STRONG = {"bonus": 4.0, "min_tagged": 1, "outside_bonus": 1.0, "touch_penalty": {"MethodName": 2.0}}


@pytest.fixture
def plain(shipped_tagger) -> Tagger:
    meta = {k: v for k, v in shipped_tagger.meta.items() if k != "paper_level"}
    return Tagger(shipped_tagger.networks, meta, shipped_tagger.path)


def spans(paragraphs: list[Paragraph]) -> list[list[tuple]]:
    return [[(s.label, s.start, s.end, s.score) for s in p.spans or []] for p in paragraphs]


def test_switched_off_the_tags_are_those_of_a_model_without_paper_level(plain):
    tagger = with_meta(plain, paper_level=STRONG)
    assert tagger.paper_level is not None and plain.paper_level is None
    assert spans(tagger.tag(PAPER, paper_level=False)) == spans(plain.tag(PAPER))


def test_the_paper_pass_decodes_as_the_head_does_when_the_votes_are_negligible(plain):
    tagger = with_meta(plain, paper_level={"bonus": 1e-6, "min_tagged": 1})
    ours, theirs = tagger.tag(PAPER), plain.tag(PAPER)
    assert [p.tags for p in ours] == [p.tags for p in theirs]
    for a, b in zip(spans(ours), spans(theirs)):
        assert [s[:3] for s in a] == [s[:3] for s in b]
        assert [s[3] for s in a] == pytest.approx([s[3] for s in b], abs=1e-5)


def test_each_document_is_decoded_on_its_own(plain):
    tagger = with_meta(plain, paper_level=STRONG)
    other = [s.split() for s in OTHER]
    together = tagger.tag(PAPER + other, documents=["a"] * len(PAPER) + ["b"] * len(other))
    alone = tagger.tag(PAPER) + tagger.tag(other)
    assert [p.tags for p in together] == [p.tags for p in alone]
    assert [p.tokens for p in together] == PAPER + other
    assert all(len(p.tags) == len(p.tokens) for p in together)


def test_predict_paragraph_local_matches_tagging_each_paragraph_alone(cli, loaded_once, tmp_path):
    src = tmp_path / "paper.txt"
    src.write_text("".join(" ".join(p) + "\n" for p in PAPER), encoding="utf-8")
    lines = PAPER
    local, paper = tmp_path / "local.conll", tmp_path / "paper.conll"
    assert cli("predict", src, "-o", local, "--paragraph-local", "-q").returncode == 0
    assert cli("predict", src, "-o", paper, "-q").returncode == 0
    expected = loaded_once.tag(lines, paper_level=False)
    blocks = local.read_text(encoding="utf-8").strip("\n").split("\n\n")
    assert [[row.split("\t")[1] for row in b.splitlines()] for b in blocks] == [p.tags for p in expected]
    tagged = paper.read_text(encoding="utf-8").strip("\n").split("\n\n")
    assert [[row.split("\t")[0] for row in b.splitlines()] for b in tagged] == lines


def test_docstart_blocks_of_one_input_are_papers_of_their_own(cli, loaded_once, tmp_path):
    """Issue 21 item 1: a -DOCSTART- block is a document to the paper-level pass, as a file is."""
    two = tmp_path / "two.conll"
    other = [s.split() for s in OTHER]
    two.write_text("-DOCSTART-\n\n" + "\n".join("\n".join(p) + "\n" for p in PAPER) + "\n-DOCSTART-\n\n"
                   + "\n".join("\n".join(p) + "\n" for p in other), encoding="utf-8")
    out = tmp_path / "two.out.conll"
    assert cli("predict", two, "-o", out, "-q").returncode == 0
    blocks = [b for b in out.read_text(encoding="utf-8").strip("\n").split("\n\n") if b != "-DOCSTART-"]
    expected = loaded_once.tag(PAPER) + loaded_once.tag(other)
    assert [[row.split("\t")[1] for row in b.splitlines()] for b in blocks] == [p.tags for p in expected]
    assert out.read_text(encoding="utf-8").count("-DOCSTART-") == 2


def test_inputs_are_tagged_and_written_a_chunk_of_whole_papers_at_a_time(loaded_once, monkeypatch, tmp_path):
    """With one output per input, each chunk of whole inputs is written before the next is
    read: memory is bounded by a chunk, and the outputs are those of one big batch."""
    import sciner
    from sciner.files import run as files

    paths = []
    for name, paras in (("a", PAPER), ("b", PAPER[::-1]), ("c", [o.split() for o in OTHER])):
        paths.append(tmp_path / f"{name}.txt")
        paths[-1].write_text("\n".join(" ".join(p) for p in paras) + "\n", encoding="utf-8")
    one = sciner.tag_files(paths, f"{tmp_path}/one/", show_progress=False)

    seen: list[tuple[int, list[str]]] = []
    real = Tagger.tag

    def spy(self, paragraphs, **kwargs):
        papers = {k for k, _ in kwargs["documents"]}
        seen.append((len(papers), sorted(p.name for p in (tmp_path / "many").glob("*"))))
        return real(self, paragraphs, **kwargs)

    monkeypatch.setattr(Tagger, "tag", spy)
    monkeypatch.setattr(files, "CHUNK_TOKENS", 1)  # every input a chunk of its own
    many = sciner.tag_files(paths, f"{tmp_path}/many/", show_progress=False, keep=False)
    assert seen == [(1, []), (1, ["a.conll"]), (1, ["a.conll", "b.conll"])]
    for name in ("a", "b", "c"):
        assert (tmp_path / "many" / f"{name}.conll").read_bytes() == (tmp_path / "one" / f"{name}.conll").read_bytes()
    assert many.done == [] and len(one.done) == 3
    assert many.summary() == one.summary() and many.inputs == 3 and many.tokens == sum(map(len, PAPER)) * 2 + 7
