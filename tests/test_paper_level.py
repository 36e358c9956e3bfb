"""Paper-level decoding on tiny hand-made log-probabilities: a paper's votes add or retype a
span only where the model's own margin is smaller than the vote; whole names; off = as today."""

from __future__ import annotations

import numpy as np

from sciner.inference.calibrate import TOUCH_GRID, fit_paper_level
from sciner.labels import BIO_TAGS
from sciner.model.paper_decoding import PaperLevel, decode_paper, occurrence_votes
from sciner.model.viterbi import viterbi_tags


def scores(*words: dict[str, float]) -> np.ndarray:
    """(n_words, T) log-probabilities: each word's logits 0 except the tags it names."""
    logits = np.zeros((len(words), len(BIO_TAGS)), dtype=np.float32)
    for i, word in enumerate(words):
        for tag, value in word.items():
            logits[i, BIO_TAGS.index(tag)] = value
    return logits - np.log(np.exp(logits).sum(axis=1, keepdims=True))


SURE = {"B-MethodName": 6.0}  # the model is sure "BERT" is a method here
UNSURE = {"O": 2.5, "B-MethodName": 2.0}  # ... leans to O here, by a little
NO = {"O": 8.0}  # ... is sure it is not
PLAIN = {"O": 5.0}  # an ordinary word


def paper(third: dict[str, float]) -> tuple[list[list[str]], list[np.ndarray]]:
    """Three paragraphs "we use BERT": BERT sure twice, then as ``third`` says."""
    tokens = [["we", "use", "BERT"]] * 3
    return tokens, [scores(PLAIN, PLAIN, SURE), scores(PLAIN, PLAIN, SURE), scores(PLAIN, PLAIN, third)]


def test_off_decodes_each_paragraph_as_today():
    tokens, log_probs = paper(UNSURE)
    bias = {"MethodName": 0.3}
    shift = np.array([0.0] + [0.3 if "MethodName" in t else 0.0 for t in BIO_TAGS[1:]], dtype=np.float32)
    today = viterbi_tags([lp + shift for lp in log_probs])
    assert decode_paper(tokens, log_probs, bias, PaperLevel()) == today
    assert today[2] == ["O", "O", "O"]


def test_a_name_the_paper_tagged_is_added_where_the_model_was_unsure():
    tokens, log_probs = paper(UNSURE)
    tags = decode_paper(tokens, log_probs, {}, PaperLevel(bonus=1.0, min_tagged=2))
    assert tags == [["O", "O", "B-MethodName"]] * 3


def test_nothing_is_added_where_the_model_is_sure_it_is_not_a_name():
    tokens, log_probs = paper(NO)
    tags = decode_paper(tokens, log_probs, {}, PaperLevel(bonus=1.0, min_tagged=2))
    assert tags[2] == ["O", "O", "O"]


def test_a_vote_needs_min_tagged_other_occurrences():
    tokens, log_probs = paper(UNSURE)
    assert decode_paper(tokens, log_probs, {}, PaperLevel(bonus=1.0, min_tagged=3))[2] == ["O", "O", "O"]


def test_a_weakly_typed_occurrence_takes_the_papers_type():
    tokens, log_probs = paper({"B-DatasetName": 2.5, "B-MethodName": 2.2})
    before = decode_paper(tokens, log_probs, {}, PaperLevel())
    after = decode_paper(tokens, log_probs, {}, PaperLevel(bonus=1.0, min_tagged=2))
    assert before[2][2] == "B-DatasetName" and after[2][2] == "B-MethodName"


def test_a_lone_weak_tag_the_paper_leaves_untagged_elsewhere_is_dropped():
    tokens = [["we", "use", "BERT"]] * 3
    log_probs = [scores(PLAIN, PLAIN, NO), scores(PLAIN, PLAIN, NO), scores(PLAIN, PLAIN, {"O": 2.0, "B-MethodName": 2.5})]
    assert decode_paper(tokens, log_probs, {}, PaperLevel())[2][2] == "B-MethodName"
    assert decode_paper(tokens, log_probs, {}, PaperLevel(outside_bonus=1.0))[2][2] == "O"


def test_touching_names_of_one_type_become_one_name_under_a_touch_penalty():
    tokens = [["OpenAI", "GPT", "works"]]
    log_probs = [scores({"B-MethodName": 5.0}, {"B-MethodName": 4.0, "I-MethodName": 3.5}, PLAIN)]
    assert decode_paper(tokens, log_probs, {}, PaperLevel())[0][:2] == ["B-MethodName", "B-MethodName"]
    joined = decode_paper(tokens, log_probs, {}, PaperLevel(touch_penalty={"MethodName": 1.0}))
    assert joined[0][:2] == ["B-MethodName", "I-MethodName"]
    # the penalty is per type: another type's leaves these alone
    other = decode_paper(tokens, log_probs, {}, PaperLevel(touch_penalty={"TaskName": 5.0}))
    assert other[0][:2] == ["B-MethodName", "B-MethodName"]


def test_values_do_not_vote():
    """A number the paper tagged twice as a metric value is no evidence at its third place."""
    tokens = [["F1", "of", "0.1"]] * 3
    sure, unsure = {"B-MetricValue": 6.0}, {"O": 2.5, "B-MetricValue": 2.0}
    log_probs = [scores(PLAIN, PLAIN, sure), scores(PLAIN, PLAIN, sure), scores(PLAIN, PLAIN, unsure)]
    assert occurrence_votes(tokens, [["O", "O", "B-MetricValue"]] * 3) == []
    assert decode_paper(tokens, log_probs, {}, PaperLevel(bonus=6.0, min_tagged=1))[2] == ["O", "O", "O"]


def test_fitting_prefers_whole_names_where_f1_cannot_tell_and_keeps_touching_names_the_gold_has():
    # one name the model splits in two (gold: one), and two values the gold keeps apart
    tokens = [["OpenAI", "GPT", "works"], ["48.1", "60.5", "on"]]
    split = scores({"B-MethodName": 5.0}, {"B-MethodName": 4.0, "I-MethodName": 3.5}, PLAIN)
    apart = scores({"B-MetricValue": 5.0}, {"B-MetricValue": 5.0, "I-MetricValue": 3.0}, PLAIN)
    gold = [["B-MethodName", "I-MethodName", "O"], ["B-MetricValue", "B-MetricValue", "O"]]
    params = fit_paper_level(tokens, [split, apart], gold, [[0, 1]], {}, consistency=False)
    assert params.touch_penalty["MethodName"] == max(TOUCH_GRID)  # every penalty > 0.5 joins it: the largest
    assert params.touch_penalty["MetricValue"] <= 2.0  # the model's margin: a larger penalty joins the values
    assert decode_paper(tokens, [split, apart], {}, params) == gold


def test_every_word_gets_exactly_one_valid_tag_whatever_the_votes():
    rng = np.random.default_rng(0)
    words = ["BERT", "on", "SQuAD", "F1", "is", "93.2", "."]
    tokens = [list(rng.choice(words, size=int(rng.integers(1, 12)))) for _ in range(20)]
    log_probs = [scores(*({t: float(v) for t, v in zip(BIO_TAGS, rng.normal(0, 2, len(BIO_TAGS)))} for _ in p))
                 for p in tokens]
    before = [list(p) for p in tokens]
    tags = decode_paper(tokens, log_probs, {}, PaperLevel(bonus=3.0, min_tagged=1, outside_bonus=2.0,
                                                          touch_penalty={"MethodName": 2.0}))
    assert tokens == before
    assert [len(t) for t in tags] == [len(p) for p in tokens]
    for para in tags:
        for prev, cur in zip(["O"] + para, para):
            assert cur in BIO_TAGS
            assert not cur.startswith("I-") or prev[2:] == cur[2:]


def test_votes_count_the_other_occurrences_only():
    tokens = [["BERT", "and", "BERT"], ["BERT"]]
    tags = [["B-MethodName", "O", "O"], ["B-TaskName"]]
    votes = {(p, s): dict(v) for p, s, _, v in occurrence_votes(tokens, tags)}
    assert votes[(0, 0)] == {"MethodName": 0, "O": 1, "TaskName": 1}
    assert votes[(0, 2)] == {"MethodName": 1, "O": 0, "TaskName": 1}


def test_parameters_round_trip_through_model_meta():
    params = PaperLevel(bonus=3.0, min_tagged=1, outside_bonus=0.5, touch_penalty={"MethodName": 2.0})
    assert PaperLevel.from_meta(params.to_meta()) == params
    assert PaperLevel.from_meta(None) == PaperLevel()


def test_fitting_chooses_a_bonus_when_the_paper_knows_better_than_the_paragraph():
    tokens, log_probs, gold = [], [], []
    for _ in range(4):  # four papers, each unsure of its name once
        t, lp = paper(UNSURE)
        tokens += t
        log_probs += lp
        gold += [["O", "O", "B-MethodName"]] * 3
    documents = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [9, 10, 11]]
    params = fit_paper_level(tokens, log_probs, gold, documents, {}, whole_names=False)
    assert params.bonus > 0
