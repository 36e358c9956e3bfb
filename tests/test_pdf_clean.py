"""Unit tests of PDF cleaning on hand-made pages: hyphenation, headers/footers, captions, references."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from sciner.pdf.clean import (
    WordCounts,
    caption_label,
    is_appendix_heading,
    is_caption,
    is_references_heading,
    join_lines,
    keep_hyphen,
    normalize_text,
    remove_headers_footers,
)
from sciner.pdf.extract import PdfLine, PdfPage
from sciner.pdf.pipeline import paragraphs_from_pages

# The extraction-quality measures are the benchmark's (benchmarks/extraction_quality.py), not the library's.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from extraction_quality import looks_like_reference_entry, ngram_coverage  # noqa: E402

# --- dehyphenation -------------------------------------------------------------------------


def test_line_break_hyphen_is_removed_when_the_paper_writes_the_word_whole():
    counts = WordCounts(["A good representation of words.", "This representation is learned."])
    assert not keep_hyphen("repre", "sentation", counts)
    assert join_lines([("a language repre-", True), ("sentation model", False)], counts) == "a language representation model"


def test_real_hyphen_is_kept_when_the_paper_writes_the_compound():
    counts = WordCounts(["We study pre-training.", "Pre-training helps; pre-training is cheap."])
    assert keep_hyphen("pre", "training", counts)
    assert join_lines([("during pre-", True), ("training we", False)], counts) == "during pre-training we"


def test_majority_spelling_wins_when_the_paper_uses_both():
    counts = WordCounts(["pretraining pretraining pre-training"])
    assert not keep_hyphen("pre", "training", counts)


def test_unseen_word_pieces_are_joined_and_unseen_compounds_of_words_kept():
    counts = WordCounts(["The task needs a specific model."])
    assert not keep_hyphen("archi", "tecture", counts)  # neither half is a word
    assert keep_hyphen("task", "specific", counts)  # both halves are words
    assert keep_hyphen("left-to", "right", counts)  # already a compound
    assert keep_hyphen("out", "of-vocabulary", counts)  # so is this
    # Short function words are a longer word's first syllable, not a compound's first half.
    counts = WordCounts(["Without more over the data, we do it today."])
    assert not keep_hyphen("with", "out", counts) and not keep_hyphen("More", "over", counts)
    assert not keep_hyphen("To", "day", counts)
    assert keep_hyphen("BERT", "Large", counts)  # a name


@pytest.mark.parametrize("head, tail", [
    ("in", "direct"), ("in", "directly"), ("inter", "section"), ("un", "frozen"), ("de", "code"),
    ("in", "formal"), ("sub", "components"),
])
def test_words_nlp_papers_write_whole_are_joined_when_the_paper_does_not_say(head, tail):
    """Regression: prefix + word was read as a compound ("in - direct", "un - frozen")."""
    counts = WordCounts(["The paper never writes the word elsewhere."])
    assert not keep_hyphen(head, tail, counts)
    assert join_lines([(f"an {head}-", True), (f"{tail} one", False)], counts) == f"an {head}{tail} one"


@pytest.mark.parametrize("head, tail", [("task", "specific"), ("two", "stage"), ("fine", "tuning"), ("cross", "lingual")])
def test_compounds_nlp_papers_hyphenate_keep_their_hyphen(head, tail):
    assert keep_hyphen(head, tail, WordCounts([""]))


def test_the_papers_own_spelling_wins_over_the_corpus():
    assert keep_hyphen("in", "direct", WordCounts(["an in-direct route"]))


def test_urls_do_not_count_as_words():
    counts = WordCounts(["see https://github.com/google-research/bert for code"])
    assert counts["com"] == 0
    assert counts["code"] == 1


def test_url_broken_across_lines_is_joined_without_space():
    counts = WordCounts([])
    text = join_lines([("at https://github.com/", False), ("google-research/bert.", False)], counts)
    assert text == "at https://github.com/google-research/bert."


def test_ligatures_and_spacing_accents_are_normalised():
    assert normalize_text("eﬃcient ﬁne-tuning ﬂows") == "efficient fine-tuning flows"
    assert normalize_text("J¨urgen and C´ıcero") == "Jürgen and Cícero"


# --- line-level predicates ---------------------------------------------------------------


@pytest.mark.parametrize("text", ["Figure 3: Overview of the model.", "Table 2. Results", "Fig. 1: x",
                                  "TABLE 4: scores", "Table D.1: Correlations of all metrics", "Table A1: Hyper-parameters"])
def test_captions_are_recognised(text):
    """An appendix's tables numbered with their letter too (CTC's "Table D.1": its rows were lost, a regression)."""
    assert is_caption(text)


@pytest.mark.parametrize(("text", "label"), [("Table D.1: Correlations", "table D.1"), ("Table A1: x", "table A1"),
                                             ("Figure 3.2: y", "figure 3.2"), ("In Table D.1 we", None)])
def test_a_caption_s_label_keeps_its_appendix_letter(text, label):
    assert caption_label(text) == label


@pytest.mark.parametrize("text", ["Figure 3 shows the model.", "Tables are dropped.", "In Table 2, we report"])
def test_sentences_mentioning_figures_are_not_captions(text):
    assert not is_caption(text)


def test_references_and_appendix_headings():
    assert is_references_heading("References") and is_references_heading("7 REFERENCES")
    assert not is_references_heading("References to prior work are in Section 2.")
    assert is_appendix_heading("A Additional Details for BERT")
    assert is_appendix_heading("Appendix for “BERT”") and is_appendix_heading("B.1 Datasets")
    assert not is_appendix_heading("Acknowledgments")


# --- hand-made pages ----------------------------------------------------------------------

WIDTH, HEIGHT, SIZE, PITCH = 612.0, 792.0, 10.0, 12.0
BODY_TEXT = (
    "Language model pre-training has been shown to be effective for improving many natural "
    "language processing tasks such as entailment and paraphrasing which aim to predict the "
    "relationships between sentences by analyzing them holistically as well as token level "
    "tasks such as named entity recognition and question answering where models are required "
    "to produce fine grained output at the token level and we study all of these settings here"
).split()


def line(text: str, page: int, top: float, *, x0: float = 72.0, x1: float | None = None,
         size: float = SIZE, bold: bool = False) -> PdfLine:
    width = x1 if x1 is not None else min(540.0, x0 + 5.2 * len(text))
    return PdfLine(text=text, page=page, x0=x0, x1=width, top=top, bottom=top + size, font_size=size,
                   bold_share=1.0 if bold else 0.0, hyphenated=text.endswith("-"))


def body_lines(page: int, top: float, n: int, start: int = 0) -> list[PdfLine]:
    """``n`` full-width body lines of ~12 words each, then the paragraph ends short."""
    lines = []
    for i in range(n):
        words = [BODY_TEXT[(start + i * 12 + k) % len(BODY_TEXT)] for k in range(12)]
        last = i == n - 1
        text = " ".join(words[:6]) + "." if last else " ".join(words)
        lines.append(line(text, page, top + i * PITCH, x0=84.0 if i == 0 else 72.0, x1=300.0 if last else 540.0))
    return lines


TITLE = line("A Study of Things", 0, 30.0, x0=250.0, x1=360.0, size=16.0, bold=True)


def page(number: int, lines: list[PdfLine]) -> PdfPage:
    return PdfPage(number=number, width=WIDTH, height=HEIGHT, lines=lines)


def texts(pages: list[PdfPage]) -> list[str]:
    return [paragraph.text for paragraph in paragraphs_from_pages(pages)]


def test_running_headers_footers_and_page_numbers_are_removed():
    pages = [
        page(n, [
            line("Under review as a conference paper at ICLR 2024", n, 30.0, size=8.0),
            *body_lines(n, 100.0, 8, start=n),
            line(str(n + 1), n, 750.0, x0=300.0, x1=306.0),
        ])
        for n in range(4)
    ]
    remove_headers_footers(pages)
    kept = [ln.text for p in pages for ln in p.lines]
    assert not any("Under review" in text for text in kept)
    assert not any(text.isdigit() for text in kept)
    assert len(kept) == 4 * 8


def test_header_repeated_across_pages_is_dropped_but_body_at_the_top_is_not():
    pages = [
        page(n, [line(f"Smith and Jones {n + 11}", n, 30.0, size=8.0), *body_lines(n, 60.0, 6, start=3 * n)])
        for n in range(5)
    ]
    remove_headers_footers(pages)
    for p in pages:
        assert not p.lines[0].text.startswith("Smith and Jones")
        assert len(p.lines) == 6


def test_caption_and_table_are_dropped_and_paragraphs_kept():
    lines = [
        TITLE,
        line("1 Introduction", 0, 60.0, size=12.0, bold=True),
        *body_lines(0, 80.0, 5),
        line("Model        F1      Acc", 0, 160.0, x0=150.0, x1=400.0, size=9.0),
        line("BERT         92.4    91.0", 0, 171.0, x0=150.0, x1=400.0, size=9.0),
        line("Table 1: Results of our models on the development set of the benchmark.", 0, 190.0, x1=450.0, size=9.0),
        *body_lines(0, 220.0, 4, start=7),
    ]
    # Give the table rows their cell gaps.
    lines[7].wide_gaps = lines[8].wide_gaps = 2
    out = texts([page(0, lines)])
    assert out[:2] == ["A Study of Things", "Introduction"]
    assert len(out) == 4, out
    assert not any("Table 1" in text or "92.4" in text or "Model" in text for text in out)
    assert out[2].startswith("Language model pre-training") and out[3].startswith("be effective")


def test_reference_list_is_dropped_and_the_appendix_after_it_kept():
    references = [
        "Jacob Devlin, Ming-Wei Chang, Kenton Lee, and Kristina Toutanova. 2019. BERT: Pre-training of",
        "deep bidirectional transformers. In Proceedings of NAACL, pages 4171-4186.",
        "Matthew Peters, Mark Neumann, and Luke Zettlemoyer. 2018. Deep contextualized word",
        "representations. In Proceedings of NAACL, pages 2227-2237.",
    ]
    lines = [
        TITLE,
        line("1 Introduction", 0, 60.0, size=12.0, bold=True),
        *body_lines(0, 80.0, 5),
        line("References", 0, 160.0, size=12.0, bold=True),
        *[line(text, 0, 180.0 + i * PITCH, x0=72.0 if i % 2 == 0 else 83.0, x1=540.0 if i % 2 == 0 else 400.0)
          for i, text in enumerate(references)],
        line("A Hyperparameters", 0, 250.0, size=12.0, bold=True),
        *body_lines(0, 270.0, 4, start=5),
    ]
    out = texts([page(0, lines)])
    assert "References" not in out
    assert not any("Toutanova" in text or "Zettlemoyer" in text for text in out)
    assert "A Hyperparameters" in out
    assert out.index("A Hyperparameters") == len(out) - 2


# --- the quality measures used by the real-PDF tests and the benchmark -------------------


def test_reference_entry_detector():
    assert looks_like_reference_entry(
        "Alan Akbik, Duncan Blythe, and Roland Vollgraf. 2018. Contextual string embeddings for "
        "sequence labeling. In Proceedings of COLING, pages 1638–1649."
    )
    assert looks_like_reference_entry("[12] J. Devlin and M. Chang. BERT. arXiv preprint arXiv:1810.04805, 2018.")
    assert not looks_like_reference_entry(
        "We compare with ELMo (Peters et al., 2018) and BERT (Devlin et al., 2019) on the CoNLL-2003 "
        "shared task, following the Proceedings of the workshop."
    )
    assert not looks_like_reference_entry("The CoNLL-2005 data (Carreras and Màrquez, 2005) is based on the Wall Street Journal.")


def test_ngram_coverage():
    reference = ["BERT uses masked language models to pre-train.", "It is simple."]
    assert ngram_coverage(reference, "BERT uses masked language models to pre-train.") == 1.0
    assert ngram_coverage(reference, "nothing of the kind here at all") == 0.0
    # Normalised: citations and in-word hyphens are ignored on both sides.
    ours = "BERT (Devlin et al., 2019) uses masked language models to pretrain."
    assert ngram_coverage(reference, ours) < 1.0
    assert ngram_coverage(reference, ours, normalize=True) == 1.0


# --- layout -------------------------------------------------------------------------------


def column_lines(page: int, top: float, n: int, *, x0: float, start: int = 0) -> list[PdfLine]:
    """A paragraph of ``n`` lines in a 220-pt column starting at ``x0``."""
    lines = []
    for i in range(n):
        words = [BODY_TEXT[(start + i * 6 + k) % len(BODY_TEXT)] for k in range(6)]
        last = i == n - 1
        lines.append(line(" ".join(words) + ("." if last else ""), page, top + i * PITCH,
                          x0=x0 + (11.0 if i == 0 else 0.0), x1=x0 + (150.0 if last else 220.0)))
    return lines


def test_page_with_only_the_left_column_under_a_wide_table_is_read_as_a_column():
    two_column = [
        page(n, [*column_lines(n, 80.0, 20, x0=72.0, start=n), *column_lines(n, 80.0, 20, x0=320.0, start=n + 3)])
        for n in range(3)
    ]
    wide_rows = [line(f"Example {k} shows the generated summary of the source document here", 3, 80.0 + k * PITCH,
                      x0=72.0, x1=540.0) for k in range(8)]
    last = page(3, [*wide_rows, line("A Domain Transfer Examples", 3, 200.0, size=12.0, bold=True),
                    *column_lines(3, 220.0, 6, x0=72.0, start=5)])
    out = paragraphs_from_pages([*two_column, last])
    appendix = [p for p in out if p.section == "A Domain Transfer Examples"]
    assert [p.kind for p in appendix] == ["header", "body"]
    assert appendix[1].text.startswith(" ".join(BODY_TEXT[5:11]))


def test_word_broken_before_a_line_of_inline_math_carries_on():
    left = column_lines(0, 80.0, 20, x0=72.0)
    left[-1] = line("sequence by modeling the probability of to-", 0, left[-1].top, x0=72.0, x1=292.0)
    math_line = line("ken t k given the history (t 1, ..., t k−1):", 0, 80.0, x0=320.0, x1=480.0)
    math_line.math_share = 0.35  # too much math to pass as prose on its own
    equation = line("p(t 1, t 2, . . . , t N) = p(t k | t 1, . . . , t k−1).", 0, 105.0, x0=340.0, x1=520.0)
    equation.math_share = 0.8
    right = column_lines(0, 130.0, 19, x0=320.0, start=7)
    pages = [page(0, [TITLE, *left, math_line, equation, *right])]
    text = "\n".join(texts(pages))
    assert "probability of token t k given the history" in text
    assert "p(t 1, t 2" not in text


def mono(text: str, page: int, top: float, *, size: float = 8.0, x0: float = 80.0) -> PdfLine:
    code = line(text, page, top, x0=x0, x1=x0 + 4.5 * len(text), size=size)
    code.mono_share = 1.0
    return code


def test_code_listing_is_a_paragraph_of_its_own_even_at_the_foot_of_a_column():
    listing = ["1 >>> import papermage as pm", "2 >>> parser = pm.PDF2TextParser()", "3 >>> doc = parser.parse(path)"]
    lines = [TITLE, line("1 Introduction", 0, 60.0, size=12.0, bold=True), *body_lines(0, 80.0, 6)]
    lines += [mono(text, 0, 700.0 + 10.0 * i) for i, text in enumerate(listing)]
    out = paragraphs_from_pages([page(0, lines)])
    code = [p for p in out if "papermage" in p.text]
    assert len(code) == 1 and code[0].kind == "body"
    assert code[0].text == ">>> import papermage as pm >>> parser = pm.PDF2TextParser() >>> doc = parser.parse(path)"


def test_monospace_lines_of_a_figure_are_not_a_listing():
    lines = [TITLE, line("1 Introduction", 0, 60.0, size=12.0, bold=True), *body_lines(0, 80.0, 6)]
    lines += [mono("SELECT COUNT(*) FROM cars", 0, 200.0, size=9.0), mono("WHERE cylinders > 4", 0, 211.0, size=9.0)]
    lines += [line("Figure 3: SQL query examples in 4 hardness levels.", 0, 230.0, x1=400.0, size=9.0)]
    lines += body_lines(0, 260.0, 4, start=7)
    assert not any("SELECT" in text for text in texts([page(0, lines)]))


def test_body_text_set_right_under_a_body_size_caption_is_kept():
    caption = [
        line("Table 2: Results on the TACRED dataset. Model with * indicates that the results are", 0, 150.0, x1=540.0),
        line("reported in Zhang et al. (2017).", 0, 150.0 + PITCH, x1=250.0),
    ]
    lines = [TITLE, line("1 Introduction", 0, 60.0, size=12.0, bold=True), *body_lines(0, 80.0, 4),
             *caption, *body_lines(0, 150.0 + 2 * PITCH, 4, start=7)]
    out = texts([page(0, lines)])
    assert not any("TACRED" in text for text in out)
    assert any(text.startswith(" ".join(BODY_TEXT[7:13])) for text in out), out


def test_justified_line_stretched_around_a_citation_is_prose_and_a_table_header_is_not():
    lines = [TITLE, line("1 Introduction", 0, 60.0, size=12.0, bold=True), *body_lines(0, 80.0, 6)]
    stretched = lines[4]  # a full-width line of the paragraph
    stretched.wide_gaps, stretched.evenly_spread = 3, True
    header = line("Brown Test P R F1", 0, 200.0, x0=90.0, x1=260.0)
    header.wide_gaps, header.evenly_spread = 3, True
    rows = [line(f"Model {k} 74.2 73.1 73.7", 0, 200.0 + (k + 1) * PITCH, x0=90.0, x1=265.0) for k in range(3)]
    for row in rows:
        row.wide_gaps = 3
    out = texts([page(0, [*lines, header, *rows, *body_lines(0, 300.0, 4, start=7)])])
    assert out[1] == "Introduction" and stretched.text in out[2]
    assert not any("Brown Test" in text or "74.2" in text for text in out)


def test_curly_quotes_do_not_hide_the_words_of_a_compound():
    counts = WordCounts(["Each employee has a manager."])
    assert keep_hyphen("“employee", "manager”", counts)
    assert join_lines([("an “employee-", True), ("manager” relation", False)], counts) == "an “employee-manager” relation"
    # A range of numbers keeps its dash even when the paper has the joined number elsewhere.
    assert keep_hyphen("“[1,3", "5]”", WordCounts(["page 35"]))


def test_table_row_does_not_split_a_word_broken_at_a_column_end():
    left = column_lines(0, 80.0, 20, x0=72.0)
    left[-1] = line("the model uses the augmented con-", 0, left[-1].top, x0=72.0, x1=292.0)
    left[-2] = line("the same context as the baseline and", 0, left[-2].top, x0=72.0, x1=292.0)
    row = line("ESIM+TreeLSTM (Chen et al., 2017) 88.6", 0, 80.0, x0=320.0, x1=500.0)
    rest = column_lines(0, 110.0, 19, x0=320.0, start=7)
    rest[0] = line("text of the encoder and we study all of", 0, 110.0, x0=320.0, x1=540.0)
    text = "\n".join(texts([page(0, [TITLE, *left, row, *rest])]))
    assert "the augmented context of the encoder" in text
    assert "con-ESIM" not in text and "conESIM" not in text


def test_sentences_about_copyright_and_licences_at_a_page_edge_are_kept():
    sentences = [
        "fair-use of copyrighted work (Harvard, 2016; UMGC, 2020).",
        "Given that we released the dataset under the Creative Commons (CC BY-NC) license, others",
    ]
    pages = [page(n, [*body_lines(n, 60.0, 8, start=n), line(sentences[n], n, 760.0, x1=500.0)]) for n in range(2)]
    pages.append(page(2, [line("Copyright 2023 by the authors.", 2, 760.0, size=8.0), *body_lines(2, 60.0, 8)]))
    remove_headers_footers(pages)
    kept = [ln.text for p in pages for ln in p.lines]
    assert all(sentence in kept for sentence in sentences)
    assert "Copyright 2023 by the authors." not in kept


def test_appendix_set_a_point_larger_than_the_body_is_kept():
    pages = [page(n, [*body_lines(n, 60.0, 40, start=n)]) for n in range(3)]
    larger = [line(ln.text, 3, ln.top, x0=ln.x0, x1=ln.x1, size=SIZE + 1.0) for ln in body_lines(3, 100.0, 6, start=5)]
    question = line("Who created the dataset?", 3, 80.0, size=SIZE + 1.0, bold=True)
    answer = line("Zejiang Shen is supporting the dataset.", 3, 200.0, x1=300.0, size=SIZE + 1.0)
    out = paragraphs_from_pages([*pages, page(3, [question, *larger, answer, *body_lines(3, 230.0, 3)])])
    assert any(p.text.startswith(larger[0].text) and p.kind == "body" for p in out)
    assert [p.text for p in out if p.kind == "header"] == ["Who created the dataset?"]


def test_list_of_short_items_is_body_text():
    items = ["3. We keep the metadata for each case, including but not limited to:", "a. The author(s) of the summaries",
             "b. Case type", "c. Case name", "d. Filing year", "e. Court and judge"]
    lines = [TITLE, line("1 Introduction", 0, 60.0, size=12.0, bold=True), *body_lines(0, 80.0, 4)]
    lines += [line(text, 0, 140.0 + i * PITCH, x0=90.0 if i else 72.0, x1=(520.0 if i == 0 else 90.0 + 5.2 * len(text)))
              for i, text in enumerate(items)]
    text = "\n".join(texts([page(0, [*lines, *body_lines(0, 230.0, 4, start=7)])]))
    assert "b. Case type" in text and "e. Court and judge" in text


def test_numbered_heading_over_a_table_is_a_header_and_a_bold_table_cell_is_not():
    table = [line(f"Model {k}   88.{k}   91.{k}", 0, 200.0 + k * PITCH, x0=150.0, x1=400.0, size=9.0) for k in range(3)]
    for row in table:
        row.wide_gaps = 2
    lines = [TITLE, line("1 Introduction", 0, 60.0, size=12.0, bold=True), *body_lines(0, 80.0, 4),
             line("E Training corpus sizes", 0, 170.0, size=12.0, bold=True),
             line("Model", 0, 186.0, x0=150.0, x1=180.0, size=9.0, bold=True), *table,
             line("Table 9: Corpus sizes.", 0, 250.0, x1=200.0, size=9.0), *body_lines(0, 280.0, 4, start=7)]
    out = paragraphs_from_pages([page(0, lines)])
    assert [p.text for p in out if p.kind == "header"] == ["Introduction", "E Training corpus sizes"]


def test_caption_whose_label_line_is_set_smaller_is_dropped_whole():
    caption = [line("Figure 2: Syntactically-informed self-attention for the", 0, 150.0, x1=540.0, size=9.0),
               line("query word sloth. Attention weights heavily weight the token's syntactic governor.", 0, 150.0 + PITCH, x1=540.0),
               line("The other heads act as usual.", 0, 150.0 + 2 * PITCH, x1=250.0)]
    lines = [TITLE, line("1 Introduction", 0, 60.0, size=12.0, bold=True), *body_lines(0, 80.0, 4),
             *caption, *body_lines(0, 200.0, 4, start=7)]
    out = texts([page(0, lines)])
    assert not any("sloth" in text or "other heads" in text for text in out), out


def test_small_label_straddling_the_gutter_does_not_cut_the_columns():
    left = column_lines(0, 80.0, 20, x0=72.0)
    left[9] = line("tasks in natural language processing. It re-", 0, left[9].top, x0=72.0, x1=292.0)
    left[10] = line("quires both understanding the meaning of", 0, left[10].top, x0=72.0, x1=292.0)
    right = column_lines(0, 80.0, 20, x0=320.0, start=9)
    label = line("Final Review and Processing", 0, left[9].top + 6.0, x0=240.0, x1=358.0, size=8.5)
    text = "\n".join(texts([page(0, [TITLE, *left, *right, label])]))
    assert "It requires both understanding" in text


def test_line_of_inline_math_right_below_its_paragraph_stays_in_it():
    lines = [TITLE, line("1 Introduction", 0, 60.0, size=12.0, bold=True), *body_lines(0, 80.0, 3)]
    lines[-1] = line("we project the input into key, query and value matrices K, V", 0, lines[-1].top, x1=540.0)
    # Sub- and superscripts push the line apart: a little more than ordinary spacing, a block of its own.
    math_line = line("and Q of dimensions T ×d k, T ×d q, and T ×d v,", 0, lines[-1].top + 14.8, x1=540.0)
    math_line.math_share = 0.4
    after = line("respectively, and multiply them to get the attention weights of each head.", 0, math_line.top + 14.8, x1=400.0)
    text = "\n".join(texts([page(0, [*lines, math_line, after, *body_lines(0, 200.0, 3, start=7)])]))
    assert "value matrices K, V and Q of dimensions" in text


def test_caption_goes_on_through_a_stretched_line_and_a_table_label_is_no_footnote():
    caption = [line("Table 12: Test set F1 for the CoNLL 2003 NER task. Mod-", 0, 150.0, x1=540.0, size=9.0),
               line("els with included gazetteers and those with used", 0, 150.0 + 11.0, x1=540.0, size=9.0),
               line("both the train and development splits for training.", 0, 150.0 + 22.0, x1=300.0, size=9.0)]
    caption[1].wide_gaps = 2  # stretched: looks like table cells
    label = line("Input type Output type", 0, 760.0, x0=150.0, x1=260.0, size=8.0)
    lines = [TITLE, line("1 Introduction", 0, 60.0, size=12.0, bold=True), *body_lines(0, 80.0, 4),
             *caption, *body_lines(0, 210.0, 4, start=7), label]
    out = texts([page(0, lines)])
    assert not any("development splits" in text or "Input type" in text for text in out), out


def test_enumerated_item_with_hanging_indent_is_one_paragraph():
    items = [("b. Short summaries have only one paragraph with a shorter description of the", 100.0, 540.0),
             ("background, parties involved, and the outcome of the case.", 118.0, 420.0),
             ("c. Tiny summaries are one-sentence summaries intended to appear on Twitter to", 100.0, 540.0),
             ("describe the case at a specific point in its history.", 118.0, 380.0)]
    lines = [TITLE, line("1 Introduction", 0, 60.0, size=12.0, bold=True), *body_lines(0, 80.0, 4)]
    lines += [line(text, 0, 140.0 + i * PITCH, x0=x0, x1=x1) for i, (text, x0, x1) in enumerate(items)]
    out = texts([page(0, [*lines, *body_lines(0, 200.0, 3, start=7)])])
    assert "b. Short summaries have only one paragraph with a shorter description of the background, " \
           "parties involved, and the outcome of the case." in out


def test_prose_like_table_row_right_above_its_caption_is_dropped():
    row = line("Bottom-Up Summarization with copy attention 47.38 31.23 41.81", 0, 160.0, x1=540.0)
    caption = line("Table 2: Results on the NYT corpus.", 0, 160.0 + 1.6 * SIZE + SIZE, x1=250.0)
    lines = [TITLE, line("1 Introduction", 0, 60.0, size=12.0, bold=True), *body_lines(0, 80.0, 4),
             row, caption, *body_lines(0, 220.0, 4, start=7)]
    out = texts([page(0, lines)])
    assert not any("47.38" in text for text in out), out


def test_prose_like_cell_right_above_a_full_width_caption_is_dropped():
    left = column_lines(0, 300.0, 20, x0=72.0)
    right = column_lines(0, 300.0, 20, x0=320.0, start=5)
    cell = line("they were actors who had been handed fat roles in a successful play", 0, 200.0, x0=320.0, x1=540.0)
    caption = line("Table 4: Nearest neighbors to play using GloVe and the context embeddings.", 0, 212.0 + SIZE,
                   x0=115.0, x1=500.0)
    text = "\n".join(texts([page(0, [TITLE, cell, caption, *left, *right])]))
    assert "fat roles" not in text


def test_abstract_heading_with_figure_labels_below_it_still_opens_the_abstract():
    lines = [TITLE, line("Abstract", 0, 60.0, x0=150.0, x1=200.0, size=12.0, bold=True),
             line("Table name", 0, 70.0, x0=40.0, x1=75.0, size=6.5),
             *body_lines(0, 80.0, 5), line("1 Introduction", 0, 160.0, size=12.0, bold=True), *body_lines(0, 180.0, 4)]
    out = paragraphs_from_pages([page(0, lines)])
    assert [p.section for p in out if p.kind == "body"][0] == "Abstract"


def test_an_abstract_set_smaller_than_the_body_is_read():
    """Regression (Mintz et al. 2009, ACL style): the abstract in 9 pt under an "Abstract"
    heading, the body in 11 pt, was dropped as too small for text, and its 67.6 % with it."""
    small = [line(ln.text, 0, 80.0 + 10.0 * i, x0=ln.x0, x1=ln.x1, size=8.0)
             for i, ln in enumerate(body_lines(0, 80.0, 5))]
    lines = [TITLE, line("Abstract", 0, 60.0, x0=150.0, x1=200.0, size=12.0, bold=True), *small,
             line("1 Introduction", 0, 160.0, size=12.0, bold=True), *body_lines(0, 180.0, 4)]
    out = paragraphs_from_pages([page(0, lines), page(1, body_lines(1, 60.0, 8))])
    abstract = [p for p in out if p.section == "Abstract" and p.kind == "body"]
    assert abstract and abstract[0].text.startswith(small[0].text.split()[0])


def test_a_title_its_running_headers_repeat_smaller_stays_the_title():
    """Regression (GPT-2, Paragraph Vector, ByteNet: ICML style): the title, repeated at the top of
    every later page in small type, was dropped from page 1 as a running header, and "Abstract"
    became the paper's title."""
    title = line("Neural Machine Translation in Linear Time", 0, 30.0, x0=150.0, x1=460.0, size=14.0, bold=True)
    first = page(0, [title, line("Abstract", 0, 60.0, x0=150.0, x1=200.0, size=12.0, bold=True),
                     *body_lines(0, 80.0, 5)])
    later = [page(n, [line("Neural Machine Translation in Linear Time", n, 30.0, x0=200.0, x1=420.0, size=9.0),
                      *body_lines(n, 60.0, 8, start=n)]) for n in range(1, 5)]
    out = paragraphs_from_pages([first, *later])
    assert out[0].kind == "title" and out[0].text == "Neural Machine Translation in Linear Time"
    assert not any("Linear Time" in p.text for p in out[1:])


# --- issue 15: debris between and inside paragraphs -------------------------------------


def test_url_at_a_sentence_end_is_followed_by_a_space():
    """Regression (BERT, appendix A): "...language-unsupervised." + "The GLUE" lost its space."""
    counts = WordCounts([])
    lines = [("from https://blog.", False), ("openai.com/language-unsupervised.", False), ("The GLUE benchmark", False)]
    assert join_lines(lines, counts) == "from https://blog.openai.com/language-unsupervised. The GLUE benchmark"


def test_line_stretched_around_a_url_is_prose_not_a_table_row():
    """Regression (BERT, appendix A): "leaderboard   and   https://blog." was read as table
    cells and dropped, gluing the URL's halves into "https://gluebenchmark.com/openai.com/..."."""
    lines = [TITLE, line("1 Introduction", 0, 60.0, size=12.0, bold=True), *body_lines(0, 80.0, 3)]
    lines[-1] = line("Our results are obtained from https://gluebenchmark.com/", 0, lines[-1].top, x1=540.0)
    stretched = line("leaderboard and https://blog.", 0, lines[-1].top + PITCH, x1=540.0)
    stretched.wide_gaps = 2  # its gaps are stretched unevenly: the URL cannot be broken
    after = line("openai.com/language-unsupervised. The benchmark holds nine tasks.", 0, stretched.top + PITCH, x1=400.0)
    text = "\n".join(texts([page(0, [*lines, stretched, after, *body_lines(0, 200.0, 3, start=7)])]))
    assert "https://gluebenchmark.com/leaderboard and https://blog.openai.com/language-unsupervised. The" in text


def test_row_label_beside_its_table_cells_is_not_body_text():
    """Regression (AGGCN, page 6): in a table spanning both columns, "SPTree (Miwa and Bansal,
    2016)" and "GS GLSTM (Song et al., 2018b)", first cells of rows whose numbers were read
    apart, made a body paragraph."""
    rows = []
    for k, (label, cells) in enumerate([
        ("Feature-Based (Quirk and Poon, 2017)", "74.7 77.7 73.9 75.2"), ("SPTree (Miwa and Bansal, 2016)", None),
        ("Graph LSTM (Peng et al., 2017)", "76.5 80.6 74.3 76.5"), ("GS GLSTM (Song et al., 2018b)", None),
        ("GCN (Zhang et al., 2018)", "84.3 84.8 84.2 83.6"),
    ]):
        top = 400.0 + k * PITCH
        if cells:  # a whole row, its cells far apart
            rows.append(line(f"{label} {cells}", 0, top, x0=110.0, x1=480.0))
            rows[-1].wide_gaps = 5
        else:  # a row read as two lines: its label, then its cells
            rows += [line(label, 0, top, x0=110.0, x1=240.0), line("- - 75.9 75.9", 0, top, x0=330.0, x1=480.0)]
    columns = [*column_lines(0, 80.0, 20, x0=72.0), *column_lines(0, 80.0, 20, x0=320.0, start=7)]
    below = [*column_lines(0, 480.0, 10, x0=72.0, start=3), *column_lines(0, 480.0, 10, x0=320.0, start=9)]
    out = texts([page(0, [TITLE, *columns, *rows, *below])])
    assert not any("SPTree" in text or "GLSTM" in text for text in out), out


def test_table_rows_read_apart_into_one_line_blocks_are_not_body_text():
    """Regression (ELMo, page 13; self-attentive parser, page 6): a row's label and score
    ("ESIM+TreeLSTM (Chen et al., 2017) 88.6"), read as a one-line block of its own right
    above the next row's cells ("88.7 ± 0.17"), made a body paragraph."""
    label = line("ESIM+TreeLSTM (Chen et al., 2017) 88.6", 0, 160.0, x0=110.0, x1=330.0)
    cells = line("ESIM+ELMo 88.7 ± 0.17", 0, 160.0 + PITCH, x0=110.0, x1=340.0)
    cells.wide_gaps = 2
    lines = [TITLE, line("1 Introduction", 0, 60.0, size=12.0, bold=True), *body_lines(0, 80.0, 4),
             label, cells, *body_lines(0, 220.0, 4, start=7)]
    out = texts([page(0, lines)])
    assert not any("88.6" in text for text in out), out
    assert len([text for text in out if text.startswith(("Language", "be effective"))]) == 2, out


def test_a_line_of_text_ending_in_a_number_above_a_list_item_is_kept():
    """Only table rows stack: a short line ending in a number over a list item is text."""
    short = line("We train the model with a batch size of 32", 0, 140.0, x1=300.0)
    item = line("• Learning rate: 2", 0, 140.0 + PITCH, x1=200.0)
    item.wide_gaps = 2
    lines = [TITLE, line("1 Introduction", 0, 60.0, size=12.0, bold=True), *body_lines(0, 80.0, 4),
             short, item, *body_lines(0, 220.0, 4, start=7)]
    assert any("batch size of 32" in text for text in texts([page(0, lines)]))


def _paragraph_then_small_list(last_line: str) -> list[str]:
    """Body text whose last line is ``last_line``, then a bulleted list set in 8 pt right below it."""
    lines = [TITLE, line("1 Introduction", 0, 60.0, size=12.0, bold=True), *body_lines(0, 80.0, 3)]
    lines[-1] = line(last_line, 0, lines[-1].top, x1=300.0)
    items = ["• Learning rate: 3e-5 with Adam", "• Batch size: 2,048", "• Number of steps: 1 million"]
    lines += [line(item, 0, lines[-1].top + PITCH + k * 9.0, x0=84.0, x1=250.0, size=8.0) for k, item in enumerate(items)]
    return texts([page(0, [*lines, *body_lines(0, 200.0, 4, start=7)])])


def test_list_set_smaller_right_below_the_text_announcing_it_is_body_text():
    """Regression (Matching the Blanks, pages 5 and 7): "...use the following parameters:" then
    "• Learning rate: 3e-5 with Adam", "• Batch size: 2,048" in a smaller font were dropped."""
    out = _paragraph_then_small_list("and use the following parameters:")
    assert "• Learning rate: 3e-5 with Adam" in out and "• Batch size: 2,048" in out, out


def test_small_bulleted_list_not_announced_by_the_text_stays_out():
    out = _paragraph_then_small_list("and we study all of these settings here.")
    assert not any("Batch size" in text for text in out), out


def test_settings_written_out_in_a_paragraph_are_text():
    """Regression (SPECTER, appendix): "...were set as follows: vector_size=300, min_count=3,
    alpha=0.025, ..." read as too few letters to be prose and was dropped; and a justified line
    cut at its stretched gap ("min_count=3," ... "alpha=0.025,") started a new paragraph."""
    pieces = [("for a total of 27 models. The other parameters", 0, 72.0, 540.0),
              ("were set as follows: vector_size=300,", 1, 72.0, 540.0),
              ("min_count=3,", 2, 72.0, 140.0), ("alpha=0.025,", 2, 480.0, 540.0),  # one row, cut apart
              ("min_alpha=0.0001, negative=5, dm=0,", 3, 72.0, 540.0), ("dbow=1, dbow_words=0.", 4, 72.0, 200.0)]
    settings = [line(text, 0, 140.0 + row * PITCH, x0=x0, x1=x1) for text, row, x0, x1 in pieces]
    lines = [TITLE, line("1 Introduction", 0, 60.0, size=12.0, bold=True), *body_lines(0, 80.0, 4), *settings,
             *body_lines(0, 240.0, 4, start=7)]
    out = texts([page(0, lines)])
    assert ("for a total of 27 models. The other parameters were set as follows: vector_size=300, "
            "min_count=3, alpha=0.025, min_alpha=0.0001, negative=5, dm=0, dbow=1, dbow_words=0.") in out, out


def test_lines_of_a_formula_inside_a_paragraph_are_dropped():
    """Regression (BERT, page 6; SPECTER, page 3): the lower half of an inline fraction ("j e S·Tj .")
    and a displayed norm ("d(P A,P B) = kv A − v B k 2,") were kept as text."""
    lines = [TITLE, line("1 Introduction", 0, 60.0, size=12.0, bold=True), *body_lines(0, 80.0, 3)]
    lines[-1] = line("a softmax over all of the words in the paragraph: P i = eS·Ti", 0, lines[-1].top, x1=500.0)
    fraction = line("j e S·Tj .", 0, lines[-1].top + PITCH, x0=460.0, x1=540.0)
    display = line("d(P A,P B) = kv A − v B k 2,", 0, fraction.top + PITCH, x0=200.0, x1=330.0)
    fraction.math_share, display.math_share = 0.86, 0.61
    after = line("The analogous formula is used for the end of the answer span.", 0, display.top + PITCH, x1=400.0)
    text = "\n".join(texts([page(0, [*lines, fraction, display, after, *body_lines(0, 250.0, 3, start=7)])]))
    assert "The analogous formula" in text
    assert "S·Tj" not in text and "kv A" not in text


@pytest.mark.parametrize("text, kind", [
    ("Table 3: Results on TACRED.", "caption"),
    ("84.8", "table"),
    ("SVM (Rink and Harabagiu, 2010) 82.2 SDP-LSTM (Xu et al., 2015c) 83.7", "table"),
    ("- - 75.9 75.9 - -", "table"),
    ("our AGGCN model achieves accuracies of 87.1 and 87.0 on instances within single sentences", None),
    ("• Number of epochs: 2, 3, 4", None),
    # pdftext glues the page number to the caption under it (Tilde, page 476).
    ("476 Figure 1: NMT system training progress (BLEU scores on the validation set)", "caption"),
    ("3 Table 2 shows that the model wins on every task.", None),
])
def test_residue_of_floats_is_told_from_text(text, kind):
    from extraction_quality import residue_kind

    assert residue_kind(text) == kind


def test_body_coverage_gives_no_credit_for_debris():
    """Coverage over body paragraphs: captions, table rows and bibliography entries do not count."""
    from extraction_quality import body_paragraphs, debris_kind

    reference = ["We train BERT on the new corpus for three epochs.",
                 "Table 2: Results of BERT on the new corpus for three epochs."]
    body = "We train BERT on the new corpus for three epochs."
    caption = "Table 2: Results of BERT on the new corpus for three epochs."
    bibliography = "Jacob Devlin and Ming-Wei Chang. 2019. BERT: Pre-training. In Proceedings of NAACL, pages 4171-4186."
    assert [debris_kind(text) for text in (body, caption, "84.8 86.1", bibliography)] == [
        None, "caption", "table", "bibliography"]
    assert body_paragraphs([body, caption, bibliography]) == [body]
    with_debris = ngram_coverage(reference, "\n".join([body, caption]), normalize=True)
    without = ngram_coverage(reference, "\n".join(body_paragraphs([body, caption])), normalize=True)
    assert with_debris == 1.0 > without


# --- issue 15: debris found reading all 25 papers side by side with pdftext ---------------


@pytest.mark.parametrize("items, last", [
    # A bullet item whose last line, lower-case letters only, sits a little lower than line spacing.
    ([("• Domain: the pretraining corpus consists of a more balanced distribution of", 72.0, 540.0, 0.0),
      ("papers across disciplines, such that biomedical and computer science papers only", 84.0, 540.0, 0.0),
      ("make up (42.7% and 7.2% of it) and thus comprise half the", 84.0, 540.0, 0.0),
      ("corpus.", 84.0, 120.0, 4.5),
      ("• Preprocessing: we exclude captions, table text, headers, footers and footnotes.", 72.0, 500.0, 0.0)],
     "thus comprise half the corpus."),
    # Numbered items inside a paragraph that began before the list.
    ([("We describe our pipeline for the corpus in four separate steps listed right here, namely", 72.0, 540.0, 0.0),
      ("3) Filter paper clusters with insufficient metadata or with too little content, and", 80.0, 540.0, 0.0),
      ("4) Resolve the bibliography links between each paper and all the other paper", 80.0, 540.0, 0.0),
      ("clusters in the corpus.", 94.0, 200.0, 0.0),
      ("Details for these steps are provided below, and an overview is shown in the figure.", 72.0, 500.0, 0.0)],
     "links between each paper and all the other paper clusters in the corpus."),
])
def test_hanging_lines_of_a_list_item_stay_in_it(items, last):
    """Regression (S2ORC, pages 3 and 6; Multi-LexSum, page 33): the last line of an item
    ("clusters in the corpus.", "corpus.", "granularities."), indented under the item's
    text, was read as a paragraph's indented first line and cut off."""
    lines = [TITLE, line("1 Introduction", 0, 60.0, size=12.0, bold=True), *body_lines(0, 80.0, 4)]
    top = 140.0
    for text, x0, x1, extra in items:
        top += extra
        lines.append(line(text, 0, top, x0=x0, x1=x1))
        top += PITCH
    out = texts([page(0, [*lines, *body_lines(0, 240.0, 3, start=7)])])
    assert any(text.endswith(last) for text in out), out
    assert not any(text.startswith(("corpus.", "clusters in")) for text in out), out


def test_a_table_header_row_is_neither_text_nor_a_section_header():
    """Regression (Tilde, pages 3 and 7): a table's header row ("Lang.   Back-   Synth.
    Total", "System   Configuration   BLEU" in bold) was read as body text glued to the
    paragraph above, or as a section header."""
    header = line("System Configuration BLEU", 0, 160.0, x0=101.0, x1=283.0, bold=True)
    header.wide_gaps = 2
    group = line("English-Estonian", 0, 160.0 + PITCH, x0=79.0, x1=158.0, bold=True)
    lines = [TITLE, line("1 Introduction", 0, 60.0, size=12.0, bold=True), *body_lines(0, 80.0, 4),
             header, group, *body_lines(0, 220.0, 4, start=7)]
    out = paragraphs_from_pages([page(0, lines)])
    assert not any("Configuration" in p.text for p in out), [p.text for p in out]


def test_a_short_piece_with_a_cell_gap_does_not_carry_a_paragraph_on():
    """Regression (Tilde, page 3): "sent.   sent.", the last line of a table's header in
    the next column, was glued to the paragraph left open at the foot of the column."""
    left = [line("1 Introduction", 0, 60.0, size=12.0, bold=True), *column_lines(0, 80.0, 20, x0=72.0)]
    left[-1] = line("word alignments for each sentence pair in", 0, left[-1].top, x0=72.0, x1=292.0)
    piece = line("sent. sent.", 0, 80.0, x0=390.0, x1=460.0)
    piece.wide_gaps = 1
    right = column_lines(0, 200.0, 20, x0=320.0, start=5)
    right[0] = line("the parallel corpora and randomly replaced one to", 0, 200.0, x0=320.0, x1=540.0)
    text = "\n".join(texts([page(0, [TITLE, *left, piece, *right])]))
    assert "sent. sent." not in text and "sentence pair in the parallel corpora" in text


def test_a_table_row_label_in_small_type_at_the_foot_of_a_column_is_no_footnote():
    """Regression (Matching the Blanks, page 3): "Zhang and Wang (2015)*", the first cell
    of a table row set in 9 pt low on the page, beside its cells ("– 79.6 – 58.8 – –"),
    was taken for a footnote."""
    lines = [TITLE, line("1 Introduction", 0, 60.0, size=12.0, bold=True), *body_lines(0, 80.0, 20)]
    dash = line("–", 0, 634.0, x0=489.0, x1=493.0, size=8.0)  # the cell above, read into the label's block
    label = line("Zhang and Wang (2015)*", 0, 640.0, x0=107.0, x1=198.0, size=8.0)
    cells = line("– 79.6 – 58.8 – –", 0, 640.0, x0=244.0, x1=445.0, size=8.0)
    cells.wide_gaps = 5
    out = paragraphs_from_pages([page(0, [*lines, dash, label, cells])])
    assert not any("Zhang and Wang" in p.text for p in out), [(p.kind, p.text) for p in out]


def test_everything_above_a_full_width_caption_at_the_top_of_a_page_is_the_float():
    """Regression (ELMo, page 7; Bottom-Up, page 6; ULMFiT, page 6): the cells of a table set
    across both columns at the top of a page ("playing, game, games, played, players", a
    list of model names) read like prose and were glued into the paragraph left open at
    the end of the previous page."""
    first = [page(0, [TITLE, *column_lines(0, 80.0, 30, x0=72.0), *column_lines(0, 80.0, 30, x0=320.0, start=3)])]
    first[0].lines[-1] = line("allows the model to attend directly. In the SRL case,", 0, first[0].lines[-1].top,
                              x0=320.0, x1=540.0)
    cells = [line("playing, game, games, played, players, plays, player, Play, football, multiplayer", 1,
                  70.0 + i * PITCH, x0=320.0, x1=540.0) for i in range(3)]
    caption = line("Table 4: Nearest neighbors to play using GloVe and the context embeddings from a biLM.", 1,
                   140.0, x0=115.0, x1=500.0)
    below = [*column_lines(1, 160.0, 20, x0=72.0, start=5), *column_lines(1, 160.0, 20, x0=320.0, start=9)]
    below[0] = line("the task-specific context representations are likely more important than", 1, 160.0,
                    x0=72.0, x1=292.0)
    text = "\n".join(texts([*first, page(1, [*cells, caption, *below])]))
    assert "playing, game" not in text
    assert "In the SRL case, the task-specific context" in text


@pytest.mark.parametrize("label, fill, gaps", [
    ("Input Output cbow count", 250.0, 0), ("Rarely to Never Include", 210.0, 0),
    ("Classifier fine-tuning IMDb TREC-6 AG", 540.0, 1),  # as wide as a line of text, but with a cell gap
])
def test_a_tables_header_or_group_label_between_its_rows_is_not_text(label, fill, gaps):
    """Regression (P14-1059, pages 5 and 7; self-attentive parser, pages 8 and 12; Multi-LexSum,
    page 17; Tilde, page 7): a table's header row or a group label, a line of a few words
    right above the table's rows, was kept as a paragraph or glued into the paragraph the
    table interrupts ("the nature of the Input Output cbow count paraphrase-by-generation")."""
    lines = [TITLE, line("1 Introduction", 0, 60.0, size=12.0, bold=True), *body_lines(0, 80.0, 4)]
    lines[-1] = line("It is worth stressing the nature of the", 0, lines[-1].top, x1=540.0)
    header = line(label, 0, 150.0, x0=72.0 if gaps else 107.0, x1=fill)
    header.wide_gaps = gaps
    rows = [line(f"A{k} N, P 0.{k}6,0.61 0.20,0.4{k}", 0, 150.0 + (k + 1) * PITCH, x0=107.0, x1=400.0) for k in range(3)]
    for row in rows:
        row.wide_gaps = 3
    caption = line("Table 2: Accuracy of generation models at retrieving the constituent words.", 0, 210.0, x1=450.0)
    after = line("paraphrase-by-generation task we tackle here and in the next experiments below.", 0, 240.0, x1=500.0)
    text = "\n".join(texts([page(0, [*lines, header, *rows, caption, after, *body_lines(0, 270.0, 3, start=7)])]))
    assert label not in text
    assert "the nature of the paraphrase-by-generation task" in text


def test_a_line_of_text_above_a_formula_is_kept():
    """The float-label rule leaves sentences alone: "we define its score to be" sits right
    above a dropped formula, like a header above its rows, but it goes on a sentence."""
    lines = [TITLE, line("1 Introduction", 0, 60.0, size=12.0, bold=True), *body_lines(0, 80.0, 4)]
    lines[-1] = line("For a sequence of predictions", 0, lines[-1].top, x1=540.0)
    words = line("we define its score to be", 0, 160.0, x0=72.0, x1=200.0)
    formula = line("s(X, y) = Σ A y i ,y i+1 + Σ P i,y i", 0, 160.0 + 1.6 * PITCH, x0=150.0, x1=330.0)
    formula.math_share = 0.8
    after = line("where A is a matrix of transition scores such that each entry scores a transition.", 0, 200.0, x1=500.0)
    text = "\n".join(texts([page(0, [*lines, words, formula, after, *body_lines(0, 240.0, 3, start=7)])]))
    assert "For a sequence of predictions we define its score to be" in text


def test_numbered_pseudo_code_under_an_algorithm_caption_is_dropped():
    """Regression (BERT post-training, page 6): the later lines of "Algorithm 1" ("6 ∇Θ L ←
    ∇Θ L + BackProp(L partial)", "7 end" read as a header, "8 Θ ← ParameterUpdates(∇Θ L)")
    were glued to the paragraph the algorithm interrupts."""
    left = [line("4 Post-training", 0, 60.0, size=12.0, bold=True), *column_lines(0, 80.0, 20, x0=72.0)]
    left[-1] = line("where the data of each iteration are supposed", 0, left[-1].top, x0=72.0, x1=292.0)
    caption = [line("Algorithm 1: Post-training Algorithm", 0, 80.0, x0=320.0, x1=500.0),
               line("Input: D DK: one batch of DK data;", 0, 80.0 + PITCH, x0=320.0, x1=480.0)]
    steps = [line(text, 0, 120.0 + k * 16.0, x0=320.0, x1=x1, bold=text.endswith("end"))
             for k, (text, x1) in enumerate([("1 ∇Θ L ← 0", 380.0), ("2 for i ∈ {1, . . . , u} do", 430.0),
                                             ("3 ∇Θ L ← ∇Θ L + BackProp(L partial)", 500.0), ("4 end", 350.0),
                                             ("5 Θ ← ParameterUpdates(∇Θ L)", 480.0)])]
    right = column_lines(0, 230.0, 20, x0=320.0, start=5)
    right[0] = line("to be able to fit into GPU memory. In line 5, the", 0, 230.0, x0=320.0, x1=540.0)
    out = texts([page(0, [TITLE, *left, *caption, *steps, *right])])
    text = "\n".join(out)
    assert "BackProp" not in text and "ParameterUpdates" not in text and "end" not in out
    assert "are supposed to be able to fit into GPU memory" in text


def test_a_table_head_row_at_the_top_of_several_pages_is_kept_when_reading_tables():
    """Bottom-Up Summarization: "R-1 R-2 R-L" heads tables set at the top of three pages; it
    recurs at the pages' edge like a running header, but a line cut into cells is a table's row
    when the pages are read for tables (and dropped, as before, when they are not)."""
    def pages() -> list[PdfPage]:
        made = []
        for n in range(4):
            heads = line("R-1 R-2 R-L", n, 30.0, x0=190.0, x1=280.0)
            heads.pieces = ((190.0, 210.0, "R-1"), (230.0, 250.0, "R-2"), (260.0, 280.0, "R-L"))
            made.append(page(n, [heads, *body_lines(n, 100.0, 6, start=n)]))
        return made
    kept = remove_headers_footers(pages(), keep_rows=True)
    assert all(p.lines[0].text == "R-1 R-2 R-L" for p in kept)
    assert not any(p.lines[0].text == "R-1 R-2 R-L" for p in remove_headers_footers(pages()))


def test_page_one_s_author_block_and_rotated_stamp_are_carried_by_the_first_paragraph_as_front():
    """Regression: the author block, the running header and the arXiv stamp of page 1 were
    dropped, so nothing downstream (the index's papers.year, venue, authors) could read them."""
    lines = [line("Published as a conference paper at ICLR 2020", 0, 12.0, x0=200.0, x1=420.0, size=8.0), TITLE,
             line("Ann Lee, Bo Chan", 0, 55.0, x0=250.0, x1=360.0), line("Abstract", 0, 80.0, size=12.0, bold=True),
             *body_lines(0, 100.0, 4)]
    first = page(0, lines)
    first.rotated = "arXiv:2001.00001v1 [cs.CL] 1 Jan 2020"
    out = paragraphs_from_pages([first, page(1, body_lines(1, 60.0, 3))])
    assert out[0].front.splitlines() == ["Published as a conference paper at ICLR 2020", "Ann Lee, Bo Chan",
                                         "arXiv:2001.00001v1 [cs.CL] 1 Jan 2020"]
    assert all(not p.front for p in out[1:]) and not any("Ann Lee" in p.text for p in out)
