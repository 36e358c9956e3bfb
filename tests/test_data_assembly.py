"""Training-data assembly: sentence splitting, dedup and conflict resolution, leave-groups-out split."""

from __future__ import annotations

from pathlib import Path

from sciner.config import DataConfig
from sciner.data.assemble import assemble, looks_like_reference
from sciner.data.sentences import hard_split, pack_sentences, sentence_key, split_sentences
from sciner.document import Paragraph


def para(text: str, tags: str) -> Paragraph:
    return Paragraph(text.split(), tags.split())


def test_split_sentences_never_cuts_an_entity():
    p = para("We use BERT . It works . The F1 . score is good .",
             "O O B-MethodName O O O O O B-MetricName I-MetricName I-MetricName O O O")
    parts = split_sentences(p)
    assert [" ".join(s.tokens) for s in parts] == ["We use BERT .", "It works .", "The F1 . score is good ."]
    assert sum(len(s.tokens) for s in parts) == len(p.tokens)


def test_hard_split_and_pack_keep_every_token():
    p = para(" ".join(f"w{i}" for i in range(10)), "O O O B-TaskName I-TaskName I-TaskName O O O O")
    pieces = hard_split(p, 4)
    assert all(len(x.tokens) <= 4 for x in pieces)
    assert [t for x in pieces for t in x.tokens] == p.tokens
    assert not pieces[1].tags[0].startswith("I-")  # the cut moved back before the entity
    packed = pack_sentences(pieces, 8)
    assert [t for x in packed for t in x.tokens] == p.tokens
    assert all(len(x.tokens) <= 8 for x in packed)


def test_sentence_key_ignores_tokenization_and_case():
    assert sentence_key(["BERT", "(", "Devlin", "et", "al.", ")"]) == sentence_key(["bert", "(Devlin", "et", "al.)"])


def test_reference_detector():
    assert looks_like_reference("Jacob Devlin , Ming-Wei Chang , Kenton Lee , and Kristina Toutanova . 2019 . BERT . In Proceedings of NAACL .".split())
    assert not looks_like_reference("We fine-tune BERT on SQuAD and report F1 .".split())


def write_group(root: Path, name: str, sentences: list[tuple[str, str]]) -> None:
    folder = root / "annotated" / name
    folder.mkdir(parents=True)
    body = "\n\n".join("\n".join(f"{t}\t{g}" for t, g in zip(s.split(), tags.split())) for s, tags in sentences)
    (folder / "a.conll").write_text(body + "\n", encoding="utf-8")


def test_dedup_majority_and_dev_decontamination(tmp_path):
    s = "We fine-tune the BERT model on the SQuAD benchmark ."
    tags_a = "O O O B-MethodName O O O B-DatasetName O O"
    tags_b = "O O O B-MethodName I-MethodName O O B-DatasetName O O"
    dev_sentence = "The RoBERTa results on GLUE are strong ."
    write_group(tmp_path, "g1", [(s, tags_a), (dev_sentence, "O B-MethodName O O B-DatasetName O O O")])
    write_group(tmp_path, "g2", [(s, tags_a)])
    write_group(tmp_path, "g3", [(s, tags_b)])
    write_group(tmp_path, "dev", [(dev_sentence, "O B-MethodName O O B-DatasetName O O O")])
    corpus = assemble(DataConfig(data_dir=str(tmp_path), dev_groups=["dev"], exclude_groups=[],
                                 max_block_tokens=64, drop_references=True, keep_empty_fraction=1.0), seed=13)
    texts = [" ".join(p.tokens) for p in corpus.train]
    assert texts == [s]  # one copy kept; the dev sentence removed from training
    assert corpus.train[0].tags == tags_a.split()  # two groups against one
    assert corpus.dropped_duplicates == 2 and corpus.dropped_conflicts_resolved == 1
    assert corpus.dropped_dev_overlap == 1
    assert [" ".join(p.tokens) for p in corpus.dev] == [dev_sentence]
    assert corpus.train_groups == ["g1", "g2", "g3"]


def test_real_split_is_whole_groups_and_about_ten_percent(shared_data):
    cfg = DataConfig(data_dir=str(shared_data))
    corpus = assemble(cfg, seed=13)
    assert len(set(corpus.dev_group_of)) >= 3
    assert not set(corpus.dev_group_of) & set(corpus.train_group_of)
    dev = sum(len(p.tokens) for p in corpus.dev)
    train = sum(len(p.tokens) for p in corpus.train)
    assert 0.08 < dev / (dev + train) < 0.13
    assert max(len(p.tokens) for p in corpus.train) <= cfg.max_block_tokens
