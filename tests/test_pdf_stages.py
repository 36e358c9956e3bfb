"""The PDF stages one at a time, on small hand-made pages: layout (body size, columns, reading
order), blocks (where a block ends, what kind it is) and paragraphs (joining, deferring,
sections). Each test builds the stage's own input -- ``PdfPage``/``PdfLine`` for the layout,
``OrderedLine`` for the blocks, blocks with their kinds for the paragraphs -- so a broken rule
shows in the stage that holds it. (Whole pages through every stage: tests/test_pdf_clean.py;
real PDFs: tests/test_pdf_extract.py.)

The pages are US Letter (612 x 792 pt) with 10 pt body text on a 12 pt line pitch, set in two
220 pt columns with a 28 pt gutter, as ACL papers are.
"""

from __future__ import annotations

import pytest

from sciner.pdf.blocks import Block, BlockClassifier, is_display_math, is_prose_line, is_table_row, split_blocks
from sciner.formats.kinds import Kind
from sciner.pdf.clean import WordCounts
from sciner.pdf.extract import PdfLine, PdfPage
from sciner.pdf.front_matter import find_title, front_matter_end
from sciner.pdf.layout import LEFT, RIGHT, SPANNING, ColumnBox, OrderedLine, body_font_size, is_two_column, order_page
from sciner.pdf.paragraphs import ParagraphBuilder

from helpers.pdf_pages import BODY, BOXES, HEIGHT, PITCH, WIDTH, line, paragraph, pdf_line, words


def column(side: int, top: float, n: int, *, page: int = 0, start: int = 0) -> list[PdfLine]:
    """A paragraph of ``n`` full lines in column ``side``, the last one short."""
    box = BOXES[side]
    return [pdf_line(words(7, start + 7 * i), top + i * PITCH, box.x0, box.x1 if i < n - 1 else box.x0 + 120.0,
                     page=page) for i in range(n)]


def texts(lines: list[PdfLine] | list[OrderedLine]) -> list[str]:
    return [ln.text for ln in lines]


def kinds(lines: list[OrderedLine]) -> list[tuple[str, Kind]]:
    """Each block's first words and kind, as the classifier sees the page."""
    blocks = split_blocks(lines)
    return [(" ".join(b.text.split()[:2]), kind) for b, kind in zip(blocks, BlockClassifier(blocks, BODY).classify())]


# --- layout: body size ------------------------------------------------------------------------


def test_the_body_size_is_the_size_of_most_characters_not_of_most_lines():
    page = PdfPage(0, WIDTH, HEIGHT, [
        *column(LEFT, 100.0, 4),  # four long lines in 10 pt
        *(pdf_line(f"{k}", 400.0 + k * PITCH, 72.0, 80.0, size=12.2) for k in range(9)),  # nine digits in 12 pt
    ])
    assert body_font_size([page]) == BODY
    assert body_font_size([PdfPage(0, WIDTH, HEIGHT, [pdf_line(words(9), 100.0, 72.0, 292.0, size=9.8)])]) == 10.0
    assert body_font_size([PdfPage(0, WIDTH, HEIGHT)]) == 10.0  # nothing to go by


# --- layout: columns --------------------------------------------------------------------------


def two_column_page(number: int = 0) -> PdfPage:
    return PdfPage(number, WIDTH, HEIGHT, [*column(LEFT, 100.0, 5, page=number), *column(RIGHT, 100.0, 5, page=number)])


def test_a_paper_is_two_column_when_most_pages_with_text_have_a_gutter():
    one_column = PdfPage(2, WIDTH, HEIGHT, [pdf_line(words(14), 100.0 + i * PITCH, 72.0, 540.0, page=2)
                                           for i in range(8)])
    blank = [PdfPage(n, WIDTH, HEIGHT) for n in range(3, 9)]
    assert is_two_column([two_column_page(0), two_column_page(1), one_column, *blank], BODY)
    assert not is_two_column([two_column_page(0), one_column, one_column], BODY)
    left_only = PdfPage(0, WIDTH, HEIGHT, column(LEFT, 100.0, 8))
    assert not is_two_column([left_only], BODY)  # a gutter has text on both sides
    assert not is_two_column(blank, BODY)


def test_two_columns_are_read_whole_left_then_whole_right_whatever_the_stream_order():
    page = two_column_page()
    page.lines = page.lines[::-1]  # content streams come in any order
    ordered = order_page(page, BODY)
    assert texts(ordered) == texts(column(LEFT, 100.0, 5)) + texts(column(RIGHT, 100.0, 5))
    assert [ln.column for ln in ordered] == [LEFT] * 5 + [RIGHT] * 5
    assert ordered[0].box == ColumnBox(72.0, 292.0) and ordered[-1].box == ColumnBox(320.0, 540.0)


def test_a_line_across_both_columns_cuts_the_page_into_bands():
    """Title and a wide figure's caption span the page: each column is read down to it, not past it."""
    title = pdf_line("A Study of Things", 50.0, 220.0, 392.0, size=16.0, bold=True)
    caption = [pdf_line("Figure 1: " + words(14), 200.0, 72.0, 540.0, size=9.0),
               pdf_line("of the model.", 211.0, 72.0, 150.0, size=9.0)]  # short, yet part of the wide caption
    above = [*column(LEFT, 100.0, 6), *column(RIGHT, 100.0, 6)]
    below = [*column(LEFT, 240.0, 4, start=3), *column(RIGHT, 240.0, 4, start=5)]
    ordered = order_page(PdfPage(0, WIDTH, HEIGHT, [*below, *caption, *above, title]), BODY)
    assert texts(ordered) == [title.text, *texts(above), *texts(caption), *texts(below)]
    assert [ln.column for ln in ordered if ln.line in caption] == [SPANNING, SPANNING]
    assert ordered[0].column == SPANNING and ordered[0].box == ColumnBox(72.0, 540.0)


def test_a_small_label_straddling_the_gutter_stays_in_a_column():
    label = pdf_line("Final Review and Processing", 160.0, 250.0, 380.0, size=7.0)
    ordered = order_page(PdfPage(0, WIDTH, HEIGHT, [*two_column_page().lines, label]), BODY)
    placed = next(ln for ln in ordered if ln.line is label)
    assert placed.column == RIGHT  # its middle (315) is right of the gutter's (306)
    assert [ln.column for ln in ordered] == [LEFT] * 5 + [RIGHT] * 6  # the columns are not cut in bands
    wide = pdf_line("Final Review and Processing", 160.0, 250.0, 380.0, size=BODY)
    spanning = order_page(PdfPage(0, WIDTH, HEIGHT, [*two_column_page().lines, wide]), BODY)
    assert next(ln for ln in spanning if ln.line is wide).column == SPANNING  # body-size text that wide spans


def test_a_column_page_of_a_two_column_paper_is_read_as_columns_though_one_column_is_empty():
    """Under a wide table only the left column holds text: too few lines for a gutter, but
    three half-page lines in a row are a column's, never a one-column page's."""
    table = [pdf_line(words(12), 80.0 + k * PITCH, 72.0, 540.0, size=8.0) for k in range(4)]
    page = PdfPage(3, WIDTH, HEIGHT, [*table, *column(LEFT, 200.0, 4, page=3)])
    as_columns = order_page(page, BODY, two_column=True)
    assert [ln.column for ln in as_columns] == [SPANNING] * 4 + [LEFT] * 4
    assert as_columns[0].box == ColumnBox(72.0, 540.0)  # the empty right column mirrors the left one
    assert {ln.box for ln in as_columns if ln.column == LEFT} == {ColumnBox(72.0, 292.0)}
    assert [ln.column for ln in order_page(page, BODY)] == [LEFT] * 8  # alone, it is a one-column page
    two = PdfPage(3, WIDTH, HEIGHT, [*table, *column(LEFT, 200.0, 3, page=3)[:2]])  # two lines in a half make no run
    assert [ln.column for ln in order_page(two, BODY, two_column=True)] == [LEFT] * 6


def test_a_one_column_page_is_read_row_by_row_and_a_rows_cells_left_to_right():
    cells = [pdf_line("92.4", 130.4, 400.0, 430.0), pdf_line("BERT", 130.0, 72.0, 110.0),
             pdf_line("91.0", 129.7, 460.0, 490.0)]  # one row, baselines a little apart, in stream order
    lines = [pdf_line(words(14), 100.0, 72.0, 540.0), *cells, pdf_line(words(14, 3), 160.0, 72.0, 540.0)]
    ordered = order_page(PdfPage(0, WIDTH, HEIGHT, lines[::-1]), BODY)
    assert texts(ordered) == [lines[0].text, "BERT", "92.4", "91.0", lines[-1].text]
    assert all(ln.column == LEFT for ln in ordered)


# --- blocks: where one ends ---------------------------------------------------------------------


def block_texts(lines: list[OrderedLine]) -> list[list[str]]:
    return [texts(block.lines) for block in split_blocks(lines)]


def test_a_block_ends_where_the_column_the_font_size_or_the_line_spacing_changes():
    first = paragraph(100.0, 3)
    gap = line(words(7), first[-1].top + 1.5 * BODY + 1.0)  # more than a line's space below
    smaller = line(words(7), gap.top + PITCH, size=8.0)
    other_column = line(words(7), 100.0, side=RIGHT)
    assert [len(b) for b in block_texts([*first, gap, smaller, other_column])] == [3, 1, 1, 1]
    close = line(words(7), first[-1].top + 1.4 * BODY)  # still the line pitch
    assert [len(b) for b in block_texts([*first, close])] == [4]


def test_a_bold_heading_right_above_its_text_is_a_block_of_its_own():
    heading = line("2 Method", 88.0, x1=130.0, bold=True)  # body size: only the weight tells
    blocks = block_texts([heading, *paragraph(100.0, 3)])
    assert blocks[0] == ["2 Method"] and len(blocks[1]) == 3
    run_in = line("Method", 88.0, bold=True)  # a bold full line is no heading above a paragraph
    assert len(block_texts([run_in, *paragraph(100.0, 3)])) == 1


def test_a_table_row_is_cut_from_the_prose_above_it():
    rows = [line("BERT   92.4   91.0", 136.0 + k * PITCH, wide_gaps=2) for k in range(2)]
    assert [len(b) for b in block_texts([*paragraph(100.0, 3), *rows])] == [3, 2]


def test_cells_make_a_table_row_but_a_justified_line_stretched_around_a_url_is_prose():
    row = line("Model   F1   Accuracy   Speed", 100.0, x1=200.0, wide_gaps=3)
    assert is_table_row(row) and not is_prose_line(row)
    stretched = line("leaderboard   and   https://example.org/data", 100.0, wide_gaps=2)
    assert not is_table_row(stretched) and is_prose_line(stretched)
    justified = line("the   first   three   words   spread", 100.0, wide_gaps=4, evenly_spread=True)
    assert not is_table_row(justified)
    assert is_table_row(line("the   first   three   words", 100.0, x1=200.0, wide_gaps=3, evenly_spread=True))


def test_prose_is_mostly_letters_and_little_math():
    assert is_prose_line(line(words(8), 100.0))
    assert not is_prose_line(line("92.4 91.0 88.7 ± 0.17 (3)", 100.0))
    assert not is_prose_line(line(words(8), 100.0, math_share=0.4))
    assert is_prose_line(line("min_alpha=0.0001, eps=1e-08, decay=0.01", 100.0))  # settings are words, digits and all
    assert not is_prose_line(line("min alpha 0.0001, eps 1e-08, decay 0.01", 100.0))


def test_a_caption_ends_at_its_short_sentence_final_line_even_with_text_right_below():
    caption = [line("Table 1: " + words(6), 100.0), line(words(4) + ".", 112.0, x1=180.0)]
    text_below = paragraph(124.0, 3, start=4)  # same size, same pitch: only the caption's end cuts
    assert [len(b) for b in block_texts([*caption, *text_below])] == [2, 3]
    not_a_caption = [line("The table " + words(6), 100.0), line(words(4) + ".", 112.0, x1=180.0)]
    assert len(block_texts([*not_a_caption, *text_below])) == 1


def test_a_caption_goes_on_though_its_label_line_is_set_smaller():
    caption = [line("Figure 2: Syntactically-informed self-attention for", 100.0, size=9.0),
               line("the query word sloth.", 111.0, x1=180.0, size=BODY)]
    assert block_texts(caption) == [texts(caption)]
    sentence = [line("Syntactically-informed self-attention for", 100.0, size=9.0), caption[1]]
    assert len(block_texts(sentence)) == 2


# --- blocks: what kind ----------------------------------------------------------------------------


def test_a_column_of_a_paper_is_told_apart_block_by_block():
    page = [
        line("1 Introduction", 80.0, x1=170.0, size=12.0, bold=True),
        *paragraph(100.0, 4),
        *(line(row, 160.0 + k * 10.0, x0=100.0, x1=260.0, size=8.0, wide_gaps=2)
          for k, row in enumerate(["Model   F1   Acc", "BERT   92.4   91.0", "ELMo   89.1   88.0"])),
        line("Table 1: Results on the development set.", 200.0, x1=260.0, size=9.0),
        *paragraph(230.0, 4, start=5),
        *(line(f"{k} >>> x = load({k})", 290.0 + k * 10.0, x0=80.0, x1=200.0, size=8.0, mono_share=1.0)
          for k in (1, 2)),
        *paragraph(330.0, 3, start=9),
        line("References", 400.0, x1=140.0, size=12.0, bold=True),
        line("1 The code and the data are at our website, with the scripts.", 700.0, x1=290.0, size=8.0,
             marker_start=True),
    ]
    assert kinds(page) == [
        ("1 Introduction", Kind.HEADER), ("we train", Kind.BODY), ("Model F1", Kind.DROP),
        ("Table 1:", Kind.CAPTION), (words(2, 5), Kind.BODY), ("1 >>>", Kind.CODE),
        (words(2, 9), Kind.BODY), ("References", Kind.REFERENCES), ("1 The", Kind.FOOTNOTE),
    ]


def test_a_footnote_is_small_prose_below_all_of_its_columns_body_text():
    note = line("1 The code and the data are at our website, with the scripts.", 700.0, x1=290.0, size=8.0,
                marker_start=True)
    assert kinds([*paragraph(100.0, 4), note])[-1][1] is Kind.FOOTNOTE
    text_below = paragraph(720.0, 2, start=3)
    assert kinds([*paragraph(100.0, 4), *text_below, note])[-1][1] is not Kind.FOOTNOTE
    high = line(note.text, 300.0, x1=290.0, size=8.0, marker_start=True)  # well above the page's foot
    assert kinds([*paragraph(100.0, 4), high])[-1][1] is not Kind.FOOTNOTE
    label = line("Input type Output type", 700.0, x1=150.0, size=8.0)  # one short line, no marker: a label
    assert kinds([*paragraph(100.0, 4), label])[-1][1] is not Kind.FOOTNOTE


def test_a_header_is_set_bold_or_well_larger_and_heads_text():
    def kind_of(heading: OrderedLine) -> Kind:
        return kinds([heading, *paragraph(100.0, 4)])[0][1]

    assert kind_of(line("3.1 Pre-training BERT", 84.0, x1=200.0, size=BODY, bold=True)) is Kind.HEADER
    assert kind_of(line("Pre-training BERT", 82.0, x1=200.0, size=12.0)) is Kind.HEADER
    assert kind_of(line("Pre-training BERT", 84.0, x1=200.0, size=10.8)) is not Kind.HEADER  # a point larger is not
    assert kind_of(line("Pre-training BERT,", 84.0, x1=200.0, bold=True)) is not Kind.HEADER  # a phrase going on
    assert kind_of(line("Model   F1   Acc", 84.0, x1=200.0, bold=True, wide_gaps=2)) is not Kind.HEADER  # a table's


def test_the_caption_of_a_label_is_the_block_set_smaller_than_the_text():
    """Regression shape: a sentence that begins with "Table 2." at a line start is not the
    caption; the block set smaller than body text is."""
    sentence = [line("Table 2. " + words(8), 100.0), *paragraph(112.0, 2, start=3)]
    caption = line("Table 2: Scores of every system on the test set.", 300.0, x1=260.0, size=9.0)
    found = kinds([*sentence, *paragraph(200.0, 3, start=6), caption])
    assert found[0] == ("Table 2.", Kind.BODY) and found[-1] == ("Table 2:", Kind.CAPTION)


def test_rows_ending_in_numbers_are_a_table_however_much_they_read_like_text():
    rows = [line(f"{words(5, k)} (Rink and Harabagiu, 2010) 8{k}.2", 100.0 + k * PITCH) for k in range(3)]
    assert kinds(rows)[0][1] is not Kind.BODY
    text = [line(f"{words(5, k)} (Rink and Harabagiu, 2010) said", 100.0 + k * PITCH) for k in range(3)]
    assert kinds(text)[0][1] is Kind.BODY


def test_a_row_label_beside_its_cells_is_no_text():
    label = line("SPTree (Miwa and Bansal, 2016)", 300.0, x1=200.0)
    cells = line("-   -   75.9   75.9", 300.0, x0=210.0, x1=290.0, wide_gaps=3)
    assert kinds([*paragraph(100.0, 4), label, cells])[1:] == [("SPTree (Miwa", Kind.DROP), ("- -", Kind.DROP)]
    assert kinds([*paragraph(100.0, 4), label])[1][1] is not Kind.DROP  # alone, it could be a paragraph's tail


def test_everything_above_a_full_width_caption_on_a_later_page_is_the_float():
    def float_page(page: int) -> list[Kind]:
        cells = paragraph(80.0, 2, page=page, end="")  # cells that read like prose ("playing, game, games")
        caption = line("Figure 3: " + words(12), 120.0, side=SPANNING, size=9.0, page=page)
        return [kind for _, kind in kinds([*cells, caption, *paragraph(150.0, 4, page=page, start=3)])]

    assert float_page(1) == [Kind.DROP, Kind.CAPTION, Kind.BODY]
    assert float_page(0)[0] is not Kind.DROP  # the title and authors span the first page too


def test_a_displayed_formula_is_indented_math_without_words():
    formula = line("p(t 1 , . . . , t N ) = Π p(t k | t <k )", 100.0, x0=120.0, x1=260.0, math_share=0.7)
    assert is_display_math(formula)
    assert not is_display_math(line(formula.text, 100.0, x1=260.0, math_share=0.7))  # at the column's start: text
    assert not is_display_math(line("given the history of tokens (t 1, ..., t k−1)", 100.0, x0=120.0, math_share=0.7))


def test_a_short_piece_of_body_text_is_a_fragment_and_clutter_is_dropped():
    assert kinds([line("els and data.", 100.0, x1=150.0)]) == [("els and", Kind.FRAGMENT)]
    assert kinds([line("+ 0.3 − 1.2 × 4", 100.0, x1=150.0)])[0][1] is Kind.DROP


# --- front matter ---------------------------------------------------------------------------------


def test_the_title_is_the_largest_text_near_the_top_and_the_authors_are_front_matter():
    title = [line("A Study of Things", 60.0, side=SPANNING, x0=220.0, x1=392.0, size=16.0),
             line("in Scientific Papers", 80.0, side=SPANNING, x0=230.0, x1=382.0, size=16.0)]
    authors = [line("Ada Lovelace and Alan Turing", 110.0, side=SPANNING, x0=230.0, x1=382.0, size=11.0),
               line("ada@example.org", 124.0, side=SPANNING, x0=260.0, x1=352.0)]
    abstract = line("Abstract", 160.0, x0=150.0, x1=200.0, size=12.0, bold=True)
    figure_label = line("Encoder Output Layer", 500.0, side=SPANNING, x0=200.0, x1=400.0, size=16.0)
    page = [*title, *authors, abstract, *paragraph(180.0, 4), figure_label]
    assert find_title(page, BODY) == title
    assert front_matter_end(page, title, BODY) == abstract.top - 1.0
    assert find_title([line("Plain Words", 60.0, size=11.0), *paragraph(100.0, 3)], BODY) == []  # not large enough


# --- paragraphs -------------------------------------------------------------------------------------


def build(*blocks: tuple[list[OrderedLine], Kind], counts: str = "",
          include: frozenset[str] = frozenset()) -> list[tuple[str, str]]:
    """The paragraphs (kind, text) built from blocks of given kinds, the classifier left out."""
    builder = ParagraphBuilder(body_size=BODY, counts=WordCounts([counts]), include=include)
    for lines, kind in blocks:
        builder.add_block(Block(lines), kind)
    return [(p.kind, p.text) for p in builder.finish()]


def test_a_word_broken_at_a_column_end_is_joined_in_the_next_column():
    left = [*paragraph(100.0, 2, end=" on")[:-1], line("we build a language repre-", 112.0)]
    right = [line("sentation model for the task.", 100.0, side=RIGHT, x1=450.0)]
    ((kind, text),) = build((left, Kind.BODY), (right, Kind.BODY), counts="a representation of text")
    assert kind == "body" and text.endswith("we build a language representation model for the task.")
    compound = [line("training for the task.", 100.0, side=RIGHT, x1=450.0)]
    kept = build((left[:-1] + [line("we study pre-", 112.0)], Kind.BODY), (compound, Kind.BODY),
                 counts="pre-training and pre-training")
    assert kept[0][1].endswith("we study pre-training for the task.")  # the paper's own hyphen stays


def test_a_footnote_waits_until_the_paragraph_it_interrupts_is_finished():
    unfinished = paragraph(100.0, 3, end="")
    unfinished[-1] = line(words(7), 124.0)  # a full last line: the sentence goes on
    note = [line("1 Our code is public.", 700.0, x1=200.0, size=8.0, marker_start=True)]
    rest = [line("and the rest of the sentence.", 100.0, side=RIGHT, x1=450.0)]
    out = build((unfinished, Kind.BODY), (note, Kind.FOOTNOTE), (rest, Kind.BODY))
    assert [kind for kind, _ in out] == ["body", "footnote"]
    assert out[0][1].endswith("and the rest of the sentence.") and out[1][1] == "1 Our code is public."


def test_headers_name_the_sections_and_the_reference_list_is_dropped_up_to_the_appendix():
    builder = ParagraphBuilder(body_size=BODY, counts=WordCounts([""]))
    for lines, kind in [
        ([line("2 Related Work", 80.0, x1=170.0, bold=True)], Kind.HEADER),
        (paragraph(100.0, 2), Kind.BODY),
        ([line("References", 140.0, x1=140.0, bold=True)], Kind.REFERENCES),
        (paragraph(160.0, 2, start=3), Kind.BODY),  # an entry of the list
        ([line("A Additional Results", 300.0, x1=200.0, bold=True)], Kind.HEADER),
        (paragraph(320.0, 2, start=5), Kind.BODY),
    ]:
        builder.add_block(Block(lines), kind)
    out = builder.finish()
    assert [(p.kind, p.section) for p in out] == [("header", "Related Work"), ("body", "Related Work"),
                                                  ("header", "A Additional Results"), ("body", "A Additional Results")]


def test_an_indented_line_after_a_full_line_starts_a_paragraph_and_a_short_final_line_ends_one():
    first = paragraph(100.0, 3)
    first[-1] = line(words(7, 14) + ".", 124.0)  # a sentence ends at the column's edge
    second = paragraph(136.0, 3, start=4)
    indented = [line(second[0].text, second[0].top, x0=84.0), *second[1:]]
    assert len(build((first + indented, Kind.BODY))) == 2
    assert len(build((first + second, Kind.BODY))) == 1  # no indent, no short line: the paragraph goes on
    assert len(build((paragraph(100.0, 3) + second, Kind.BODY))) == 2  # a short line ending a sentence ends it
    unfinished = paragraph(100.0, 3, end="")  # short, but no sentence end: lower case goes on with it
    assert len(build((unfinished + indented, Kind.BODY))) == 1


@pytest.mark.parametrize("kind", [Kind.DROP, Kind.CAPTION])
def test_dropped_blocks_and_captions_make_no_paragraph(kind):
    assert build((paragraph(100.0, 2), kind)) == []
