"""The n-gram dictionary of span fine-tuning: counting, thresholds, greedy segmentation, storage."""

from __future__ import annotations

import gzip
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from sciner.cli.app import app
from sciner.errors import InputFormatError
from sciner.data.ngrams import (
    NgramDictionary,
    count_ngrams,
    count_ngrams_in_texts,
    dictionary_stats,
    load_dictionary,
    raw_paragraphs,
    save_dictionary,
    segment,
    split_sentences,
)



def brute_force(sentences, min_count, max_n=5):
    counts = Counter(
        " ".join(t.lower() for t in s[i : i + n])
        for s in sentences
        for n in range(2, max_n + 1)
        for i in range(len(s) - n + 1)
    )
    return {g: c for g, c in counts.items() if c > min_count}


def test_counting_matches_brute_force_on_random_text():
    # A small alphabet makes long repeated n-grams common, so every apriori level is exercised.
    rng = np.random.default_rng(0)
    alphabet = ["a", "b", "c", "A", "d"]
    sentences = [list(rng.choice(alphabet, size=int(rng.integers(1, 12)))) for _ in range(400)]
    for min_count in (0, 1, 3, 10):
        assert count_ngrams(sentences, min_count).counts == brute_force(sentences, min_count)
    assert count_ngrams(sentences, 2, max_n=3).counts == brute_force(sentences, 2, max_n=3)


def test_threshold_is_strictly_more_than_and_matching_is_lower_cased():
    sentences = [["Machine", "Translation", "is", "hard"]] * 3 + [["machine", "translation", "works"]] * 2
    counted = count_ngrams(sentences, min_count=4)
    assert counted.counts == {"machine translation": 5}
    assert count_ngrams(sentences, min_count=5).counts == {}
    assert "machine translation is" in count_ngrams(sentences, min_count=2)


def test_no_ngram_crosses_a_sentence():
    paragraph = "we train . we test . we train . we test .".split()
    sentences = split_sentences(paragraph)
    assert sentences[0] == ["we", "train", "."]
    counted = count_ngrams(sentences, min_count=0)
    assert ". we" not in counted and "train . we" not in counted
    assert counted.counts["we train ."] == 2


def test_greedy_longest_match_from_the_start():
    dictionary = {"natural language", "natural language processing", "language processing tasks", "of the"}
    tokens = "Natural Language Processing tasks of the year".split()
    # Longest match at the start wins, even though "language processing tasks" is also in the dictionary.
    assert segment(tokens, dictionary) == [(0, 3), (3, 4), (4, 6), (6, 7)]
    # Greedy, not optimal: starting at "a", "a b" is taken and "b c d" can no longer match.
    assert segment(list("abcd"), {"a b", "b c d"}) == [(0, 2), (2, 3), (3, 4)]
    assert segment(list("abcd"), {"a b c"}, max_n=2) == [(0, 1), (1, 2), (2, 3), (3, 4)]


def test_unmatched_tokens_are_single_spans_and_spans_cover_every_token():
    tokens = "We propose a new model".split()
    assert segment(tokens, set()) == [(i, i + 1) for i in range(5)]
    assert segment([], {"a b"}) == []
    rng = np.random.default_rng(1)
    dictionary = count_ngrams([list(rng.choice(list("abc"), size=8)) for _ in range(50)], 2)
    for _ in range(50):
        sent = list(rng.choice(list("abc"), size=int(rng.integers(1, 15))))
        spans = segment(sent, dictionary)
        assert [s for s, _ in spans] == [0] + [e for _, e in spans[:-1]]
        assert spans[-1][1] == len(sent)
        assert all(e - s == 1 or " ".join(sent[s:e]) in dictionary for s, e in spans)


def test_round_trip_of_the_stored_dictionary(tmp_path):
    dictionary = count_ngrams(
        [["state", "of", "the", "art", "results"]] * 6 + [["of", "the", "model"]] * 2 + [["#", "of", "layers"]] * 4, 3
    )
    assert "# of" in dictionary  # looks like a comment line once stored
    path = tmp_path / "dict.txt.gz"
    save_dictionary(dictionary, path, comment="source: a test")
    loaded = load_dictionary(path)
    assert loaded.counts == dictionary.counts and loaded.min_count == 3 and loaded.max_n == 5
    lines = gzip.open(path, "rt", encoding="utf-8").read().splitlines()
    assert lines[0].startswith("# sciner n-gram dictionary") and lines[1] == "# source: a test"
    assert lines[2:] == sorted(lines[2:])
    assert "of the\t8" in lines
    # A higher threshold on load gives the smaller dictionary.
    assert set(load_dictionary(path, min_count=6).counts) == {"of the"}
    with pytest.raises(ValueError):
        loaded.restrict(1)
    # Same content, same bytes (no timestamp in the gzip header).
    save_dictionary(dictionary, tmp_path / "again.txt.gz", comment="source: a test")
    assert path.read_bytes() == (tmp_path / "again.txt.gz").read_bytes()


def test_malformed_dictionary_file_is_a_user_error(tmp_path):
    path = tmp_path / "bad.txt.gz"
    with gzip.open(path, "wt", encoding="utf-8") as handle:
        handle.write("of the 12\n")
    with pytest.raises(InputFormatError):
        load_dictionary(path)


def test_dictionary_stats_trade_size_against_spans():
    sentences = [["we", "use", "the", "bert", "base", "model", "."]] * 20 + [["the", "bert", "base"]] * 10
    dictionary = NgramDictionary(
        {"the bert base": 30, "bert base": 30, "the bert": 30, "use the bert base model": 20, "we use": 20}, 5
    )
    rows = dictionary_stats(sentences, dictionary, [5, 25, 100, 1])
    assert [r.min_count for r in rows] == [5, 25, 100]  # below the stored threshold: skipped
    assert [r.size for r in rows] == [5, 3, 0]
    # Larger dictionary, fewer spans; an empty one leaves every token a span.
    assert rows[0].spans_per_sentence < rows[1].spans_per_sentence < rows[2].spans_per_sentence
    assert rows[2].spans_per_sentence == pytest.approx(rows[2].tokens_per_sentence)
    assert rows[2].tokens_in_multiword_spans == 0


def test_counting_raw_text_uses_the_task_tokenizer():
    texts = ["We fine-tune BERT-base on SQuAD. We fine-tune BERT-base on MNLI."] * 3
    counted = count_ngrams_in_texts(texts, min_count=5)
    assert counted.counts["we fine - tune bert"] == 6
    assert "squad . we" not in counted


def test_cli_writes_a_dictionary_and_prints_stats(tmp_path):
    raw = tmp_path / "raw"
    raw.mkdir()
    (raw / "a.txt").write_text("We use machine translation data. Machine translation is hard.\n" * 4, encoding="utf-8")
    stats_file = tmp_path / "dev.txt"
    stats_file.write_text("Machine translation helps .\n", encoding="utf-8")
    out = tmp_path / "d.txt.gz"
    result = CliRunner().invoke(
        app, ["ngrams", "--data", str(raw), "--min-count", "5", "-o", str(out), "--stats", str(stats_file),
              "--thresholds", "1,5,10"],
    )
    assert result.exit_code == 0, result.output
    assert "machine translation" in load_dictionary(out)
    assert "wrote 1 n-grams" in result.output
    table = [line.split("\t") for line in result.output.splitlines() if "\t" in line and line[:1].isdigit()]
    assert [row[0] for row in table] == ["1", "5", "10"]
    assert table[0][2] == "3.00"  # "machine translation" | "helps" | "."
    assert table[2][2] == "4.00"  # nothing occurs more than 10 times: every token a span


def test_sampling_the_real_raw_corpus_is_seeded(shared_data):
    first, source = raw_paragraphs(shared_data / "raw", max_lines=20, seed=3)
    again, _ = raw_paragraphs(shared_data / "raw", max_lines=20, seed=3)
    texts = list(first)
    assert texts == list(again) and len(texts) == 20 and all(texts)
    assert source.startswith("20 of ")


def test_shipped_dictionary_loads():
    dictionary = load_dictionary()
    assert len(dictionary) > 10_000
    assert "natural language processing" in dictionary and "named entity recognition" in dictionary
    assert dictionary.min_count == 10 and "of - the - art" in dictionary  # 7-token "state - of - the - art" is too long
    assert segment("We study natural language processing".split(), dictionary)[-1] == (2, 5)


def test_a_dictionary_stored_above_the_configured_threshold_loads_as_it_is(tmp_path):
    import gzip

    from sciner.data.ngrams import load_dictionary

    path = tmp_path / "high.txt.gz"
    with gzip.open(path, "wt", encoding="utf-8") as handle:
        handle.write("# n-grams, n <= 5, count > 20\nlanguage model\t40\nmachine translation\t25\n")
    loaded = load_dictionary(path, min_count=10)
    assert loaded.min_count == 20 and "language model" in loaded and len(loaded) == 2
