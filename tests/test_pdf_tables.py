"""Tables read from page geometry (issue 24: results read off tables): cells cut in a line,
rows and columns found from a caption, rows written beside the body with their cells."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from sciner.document import Paragraph
from sciner.errors import InputFormatError
from sciner.formats.registry import read_file, render
from sciner.pdf.blocks import Block
from sciner.formats.kinds import Kind
from sciner.pdf.clean import WordCounts
from sciner.pdf.extract import CELL_GAP, _Glyph, _LineBuilder
from sciner.pdf.layout import LEFT, RIGHT, SPANNING, OrderedLine
from sciner.pdf.paragraphs import ParagraphBuilder
from sciner.pdf.tables import Cell, find_tables, is_number

from helpers.pdf_pages import BODY, BOXES, HEIGHT, paragraph, pdf_line

SMALL = 9.0  # tables are set smaller than body text


def row_line(cells: list[tuple[float, str]], top: float, *, side: int = LEFT, size: float = SMALL) -> OrderedLine:
    """One line of a table row: its cells at their x positions (5 points a character)."""
    pieces = tuple((x, x + 5.0 * len(text), text) for x, text in cells)
    raw = pdf_line(" ".join(text for _, _, text in pieces), top, pieces[0][0], pieces[-1][1], size=size,
                   pieces=pieces if len(pieces) > 1 else ())
    return OrderedLine(raw, side, BOXES[side], HEIGHT)


def caption_lines(text: str, top: float, *, side: int = LEFT, lines: int = 1) -> list[OrderedLine]:
    box = BOXES[side]
    raw = [pdf_line(text if i == 0 else "a caption that goes on for a while", top + i * 11.0, box.x0, box.x1,
                    size=BODY - 1) for i in range(lines)]
    return [OrderedLine(line, side, box, HEIGHT) for line in raw]


def squad_table(top: float, *, side: int = LEFT) -> list[OrderedLine]:
    """A results table: a spanning header row ("Dev" over "EM F1", "Test" over the other two),
    a label row of its own, and rows whose label and numbers are separate lines."""
    x = BOXES[side].x0
    rows = [row_line([(x + 10, "System")], top, side=side),
            row_line([(x + 118, "Dev"), (x + 175, "Test")], top, side=side),  # centred over two columns each
            row_line([(x + 100, "EM"), (x + 130, "F1"), (x + 160, "EM"), (x + 190, "F1")], top + 10, side=side),
            row_line([(x + 10, "Published")], top + 20, side=side)]
    for k, (name, numbers) in enumerate([("BiDAF+ELMo", ["-", "85.6", "-", "85.8"]),
                                         ("BERT LARGE", ["84.1", "90.9", "85.0", "91.8"])]):
        rows.append(row_line([(x + 10, name)], top + 30 + 10 * k, side=side))
        rows.append(row_line([(x + 100 + 30 * i, n) for i, n in enumerate(numbers)], top + 30.3 + 10 * k, side=side))
    return rows


def cells_of(table) -> list[list[tuple[str, int, int]]]:
    return [[(c.text, c.first, c.last) for c in row] for row in table.rows]


def test_a_line_is_cut_into_cells_at_wide_gaps_and_between_two_numbers() -> None:
    builder = _LineBuilder()

    def put(text: str, x: float, space: bool) -> float:
        for i, char in enumerate(text):
            builder.add(_Glyph(char, x, x + 4.5, 93.0, 100.0, 100.0, 10.0, False, False), space and i == 0)
            x += 5.0
        return x

    x = put("BERT", 10.0, False)
    x = put("LARGE", x + 3.0, True)  # a word space: one cell
    x = put("86.6", x + CELL_GAP * 10.0 + 1.0, True)  # a wide gap: a new cell
    put("86.3", x + 3.0, True)  # a word space between two numbers: a new cell too
    line = builder.finish(0, cells=True)
    assert line is not None and line.text == "BERT LARGE 86.6 86.3"
    assert [text for _, _, text in line.cells()] == ["BERT LARGE", "86.6", "86.3"]
    assert line.cells()[0][:2] == (10.0, line.cells()[0][1]) and line.cells()[1][0] > line.cells()[0][1]
    cited = _LineBuilder()
    x = 10.0
    for word in ("(Tai,", "2015)*", "66.0"):  # a citation's mark, then a number: two cells
        for i, char in enumerate(word):
            cited.add(_Glyph(char, x, x + 4.5, 93.0, 100.0, 100.0, 10.0, False, False), i == 0 and x > 10.0)
            x += 5.0
        x += 3.0
    cited_line = cited.finish(0, cells=True)
    assert cited_line is not None and [text for _, _, text in cited_line.cells()] == ["(Tai, 2015)*", "66.0"]
    one = _LineBuilder()
    for i, char in enumerate("word"):
        one.add(_Glyph(char, 5.0 * i, 5.0 * i + 4.5, 93.0, 100.0, 100.0, 10.0, False, False), False)
    single = one.finish(0, cells=True)
    assert single is not None and single.pieces == () and single.cells() == [(0.0, 19.5, "word")]


@pytest.mark.parametrize("text,expected", [("92.8", True), ("-0.5", True), ("80.6/80.1", True), ("95.4 %", True),
                                           ("92.22 ± 0.10", True), ("86.2*", True), ("392k", False), ("-", False),
                                           ("BERT", False), ("12 layers", False), (".58", True), (".17/.16", True),
                                           ("65.5 (64.4)", True), ("83.1 (±0.3)", True), ("(a)", False),
                                           ("- / -", False), ("0.31,0.59", True),  # a list of decimals
                                           ("0.98(1),0.08(5.5),0.13(20.5)", True), ("A,N", False),
                                           ("0.31,", False)])
def test_a_number_is_what_tables_print_as_one(text: str, expected: bool) -> None:
    assert is_number(text) is expected


def test_a_table_is_read_above_its_caption_with_spanning_heads_and_rows_from_separate_lines() -> None:
    body = paragraph(20.0, 3)  # text above the float ends the table
    page = [*body, *squad_table(70.0), *caption_lines("Table 2: SQuAD 1.1 results.", 140.0, lines=2)]
    (table,) = find_tables(page, BODY)
    assert table.label == "table 2" and table.page == 1 and table.caption.startswith("Table 2: SQuAD 1.1 results.")
    assert cells_of(table) == [
        [("System", 0, 0), ("Dev", 1, 2), ("Test", 3, 4)],
        [("EM", 1, 1), ("F1", 2, 2), ("EM", 3, 3), ("F1", 4, 4)],
        [("Published", 0, 0)],
        [("BiDAF+ELMo", 0, 0), ("-", 1, 1), ("85.6", 2, 2), ("-", 3, 3), ("85.8", 4, 4)],
        [("BERT LARGE", 0, 0), ("84.1", 1, 1), ("90.9", 2, 2), ("85.0", 3, 3), ("91.8", 4, 4)],
    ]


def test_a_table_of_bracketed_and_leading_dot_numbers_is_read() -> None:
    x = BOXES[LEFT].x0
    rows = [row_line([(x + 10, "Model"), (x + 100, "EM"), (x + 160, "F1")], 70.0),
            row_line([(x + 10, "BERT"), (x + 100, "65.5 (64.4)"), (x + 160, "84.5 (84.0)")], 80.0),
            row_line([(x + 10, "SAE"), (x + 100, ".17/.16"), (x + 160, ".52/.54")], 90.0)]
    (table,) = find_tables([*rows, *caption_lines("Table 3: Results.", 110.0)], BODY)
    assert [c.text for c in table.rows[1]] == ["BERT", "65.5 (64.4)", "84.5 (84.0)"]
    assert [c.text for c in table.rows[2]] == ["SAE", ".17/.16", ".52/.54"]


def test_a_table_whose_cells_list_decimals_is_read() -> None:
    """The phrase-generation paper's Table 6 ("0.31,0.59": an adjective's and a noun's accuracy in
    one cell): its rows were no table, and the text layer's numbers were lost (a regression)."""
    x = BOXES[LEFT].x0
    rows = [row_line([(x + 10, "Input"), (x + 60, "Output"), (x + 110, "cbow"), (x + 160, "count")], 70.0),
            row_line([(x + 10, "AN(En)"), (x + 60, "A,N(It)"), (x + 110, "0.31,0.59"), (x + 160, "0.24,0.54")], 80.0),
            row_line([(x + 10, "AN(It)"), (x + 60, "A,N(En)"), (x + 110, "0.50,0.62"), (x + 160, "0.28,0.48")], 90.0)]
    (table,) = find_tables([*rows, *caption_lines("Table 6: Accuracy of phrase translation.", 110.0)], BODY)
    assert [c.text for c in table.rows[1]] == ["AN(En)", "A,N(It)", "0.31,0.59", "0.24,0.54"]


def test_row_labels_in_the_body_font_beside_number_lines_are_table_rows_not_prose() -> None:
    # A table set in the body's size whose labels are lines of their own, long enough to pass
    # for text: the numbers level with each label keep it in the table.
    x = BOXES[SPANNING].x0
    labels = ["Human Performance (Rajpurkar et al., 2016)", "Match LSTM with Answer Pointer (Wang, 2016)"]
    page = [*paragraph(20.0, 3), row_line([(x + 330, "EM / F1"), (x + 400, "EM / F1")], 60.0, side=SPANNING, size=BODY)]
    for k, label in enumerate(labels):
        page.append(row_line([(x + 10, label)], 72.0 + 12 * k, side=SPANNING, size=BODY))
        page.append(row_line([(x + 330, "- / -"), (x + 400, f"8{k}.3 / 91.2")], 72.0 + 12 * k, side=SPANNING,
                             size=BODY))
    (table,) = find_tables([*page, *caption_lines("Table 2: SQuAD.", 110.0, side=SPANNING)], BODY)
    assert [[c.text for c in row] for row in table.rows] == [
        ["EM / F1", "EM / F1"], [labels[0], "- / -", "80.3 / 91.2"], [labels[1], "- / -", "81.3 / 91.2"]]


def test_rows_whose_scores_are_missing_or_set_in_one_run_with_their_label_stay_in_the_table() -> None:
    # The AS Reader's Table 2: labels in the body's size beside "63.4 66.8 NA NA", and a row
    # whose label and numbers the PDF sets as one run of text; both are rows, not prose that
    # ends the table (a regression: the table was read from the first row after them on).
    x = BOXES[SPANNING].x0
    labels = ["MemNNs trained as one single model (ensemble)",
              "Dynamic Entity Representation (max-pool) ] 71.2 70.7 NA NA"]
    page = [*paragraph(20.0, 3), row_line([(x + 330, "CNN"), (x + 400, "Daily Mail")], 60.0, side=SPANNING, size=BODY),
            row_line([(x + 10, labels[0])], 72.0, side=SPANNING, size=BODY),
            row_line([(x + 330, "63.4"), (x + 360, "66.8"), (x + 400, "NA"), (x + 430, "NA")], 72.0, side=SPANNING,
                     size=BODY),
            row_line([(x + 10, labels[1])], 84.0, side=SPANNING, size=BODY),
            row_line([(x + 10, "AS Reader"), (x + 330, "68.6"), (x + 360, "69.5"), (x + 400, "75.0"),
                      (x + 430, "73.9")], 96.0, side=SPANNING)]
    (table,) = find_tables([*page, *caption_lines("Table 2: Results on CNN and Daily Mail.", 120.0, side=SPANNING)],
                           BODY)
    assert [row[0].text for row in table.rows][:3] == ["CNN", labels[0], labels[1]]


def test_prose_beside_a_line_of_words_still_ends_a_table() -> None:
    x = BOXES[SPANNING].x0
    text = row_line([(x + 10, "the results we report here are taken from the")], 60.0, side=SPANNING, size=BODY)
    beside = row_line([(x + 330, "see 2 more")], 60.0, side=SPANNING, size=BODY)
    rows = [row_line([(x + 10, "BERT"), (x + 330, "84.1"), (x + 400, "90.9")], 72.0 + 10 * k, side=SPANNING)
            for k in range(2)]
    (table,) = find_tables([text, beside, *rows, *caption_lines("Table 2: Results.", 100.0, side=SPANNING)], BODY)
    assert len(table.rows) == 2


def test_a_caption_set_beside_its_table_reads_the_table_level_with_it() -> None:
    box = BOXES[SPANNING]
    caption = [OrderedLine(pdf_line(text, 50.0 + 11.0 * i, 300.0, 500.0, size=BODY), SPANNING, box, HEIGHT)
               for i, text in enumerate(["Table 1: BLEU scores of the models on the", "test set, with and without",
                                         "unknown words."])]
    rows = [row_line([(90.0, "Model"), (150.0, "All"), (200.0, "No UNK")], 52.0, side=SPANNING),
            row_line([(90.0, "RNNsearch"), (150.0, "26.75"), (200.0, "34.16")], 64.0, side=SPANNING),
            row_line([(90.0, "Moses"), (150.0, "33.30"), (200.0, "35.63")], 76.0, side=SPANNING)]
    below = [row_line([(90.0, "5.2"), (120.0, "QUALITATIVE ANALYSIS")], 110.0 + 12 * k, side=SPANNING)
             for k in range(2)]
    (table,) = find_tables([*caption, *rows, *below], BODY)
    assert [[c.text for c in row] for row in table.rows] == [
        ["Model", "All", "No UNK"], ["RNNsearch", "26.75", "34.16"], ["Moses", "33.30", "35.63"]]


def test_numbered_headings_below_a_caption_make_no_table() -> None:
    headings = [row_line([(82.0, "5.2"), (110.0, "QUALITATIVE ANALYSIS")], 80.0),
                row_line([(82.0, "5.2.1"), (115.0, "ALIGNMENT")], 95.0)]
    assert find_tables([*caption_lines("Table 1: Results.", 50.0), *headings], BODY) == []


def test_a_caption_set_above_its_table_reads_the_table_below() -> None:
    page = [*caption_lines("Table 1: Results.", 50.0, lines=2), *squad_table(80.0), *paragraph(200.0, 2)]
    (table,) = find_tables(page, BODY)
    assert [c.text for c in table.rows[-1]] == ["BERT LARGE", "84.1", "90.9", "85.0", "91.8"]
    assert all(c.text != "we" for row in table.rows for c in row)


def test_a_figure_caption_or_a_table_without_numbers_makes_no_table() -> None:
    assert find_tables([*squad_table(70.0), *caption_lines("Figure 2: The model.", 140.0)], BODY) == []
    words = [row_line([(82.0, "Dataset"), (150.0, "Type")], 70.0), row_line([(82.0, "IMDb"), (150.0, "Sentiment")], 80.0)]
    assert find_tables([*words, *caption_lines("Table 1: Datasets.", 100.0)], BODY) == []


def test_tables_side_by_side_keep_their_rows_from_a_full_width_caption_below_them() -> None:
    left, right = squad_table(70.0, side=LEFT), squad_table(70.0, side=RIGHT)
    page = [*left, *caption_lines("Table 4: Left results.", 140.0, side=LEFT),
            *right, *caption_lines("Table 5: Right results.", 140.0, side=RIGHT),
            *caption_lines("Table 6: Something drawn below both.", 170.0, side=SPANNING)]
    tables = find_tables(page, BODY)
    assert [t.label for t in tables] == ["table 4", "table 5"]
    assert cells_of(tables[0]) == cells_of(tables[1])


def test_on_request_each_table_row_is_a_paragraph_after_its_caption_with_its_cells() -> None:
    body = paragraph(20.0, 3)
    table = squad_table(70.0)
    caption = caption_lines("Table 2: SQuAD 1.1 results.", 140.0)
    after = paragraph(170.0, 2, start=3)
    found = find_tables([*body, *table, *caption, *after], BODY)

    def build(include: frozenset[str]):
        builder = ParagraphBuilder(body_size=BODY, counts=WordCounts([""]), include=include)
        builder.tables = list(found) if "tables" in include else []
        for lines, kind in ((body, Kind.BODY), (table, Kind.DROP), (caption, Kind.CAPTION), (after, Kind.BODY)):
            builder.add_block(Block(lines), kind)
        return builder.finish()

    plain = build(frozenset())
    both = build(frozenset({"captions", "tables"}))
    assert [p.kind for p in plain] == ["body", "body"]
    assert [p.kind for p in both] == ["body", "caption", *["table"] * 5, "body"]
    assert [(p.text, p.kind) for p in both if p.kind == "body"] == [(p.text, p.kind) for p in plain]
    last = both[-2]
    assert last.text == "BERT LARGE 84.1 90.9 85.0 91.8" and last.table == "table 2"
    assert last.cells[0] == Cell("BERT LARGE", 0, 0) and last.cells[-1] == Cell("91.8", 4, 4)
    assert [p.kind for p in build(frozenset({"tables"}))] == ["body", *["table"] * 5, "body"]


def test_a_table_caption_whose_rows_the_text_layer_lost_says_its_body_is_missing(tmp_path: Path) -> None:
    """A "Table N" caption with no rows of cells next to it (the table an image) was written as
    any caption: a reader of the JSONL could not tell a lost table from none; a table read, or
    a figure's caption, says nothing."""
    body = paragraph(20.0, 3)
    lost = caption_lines("Table 3: Results drawn as an image.", 80.0)
    figure = caption_lines("Figure 1: The model.", 110.0)
    table = squad_table(140.0)
    read = caption_lines("Table 2: SQuAD 1.1 results.", 210.0)
    found = find_tables([*body, *lost, *figure, *table, *read], BODY)
    builder = ParagraphBuilder(body_size=BODY, counts=WordCounts([""]), include=frozenset({"captions", "tables"}))
    builder.tables = list(found)
    for lines, kind in ((body, Kind.BODY), (lost, Kind.CAPTION), (figure, Kind.CAPTION), (table, Kind.DROP),
                        (read, Kind.CAPTION)):
        builder.add_block(Block(lines), kind)
    captions = [(p.text.split(":")[0], p.table_body) for p in builder.finish() if p.kind == "caption"]
    assert captions == [("Table 3", "missing"), ("Figure 1", ""), ("Table 2", "")]
    meta = {"page": 7, "kind": "caption", "table_body": "missing"}
    saved = tmp_path / "caption.jsonl"
    saved.write_text(render([Paragraph(["Table", "3", ":"], meta=meta)], "jsonl"), encoding="utf-8")  # type: ignore[arg-type]
    (back,) = read_file(saved)
    assert back.meta == meta  # through JSONL


def test_table_rows_carry_table_and_cells_through_jsonl_and_bad_cells_are_refused(tmp_path: Path) -> None:
    meta = {"page": 7, "kind": "table", "table": "table 2", "cells": [[0, 2, 0, 0], [2, 3, 1, 2]]}
    p = Paragraph(["BERT", "LARGE", "84.1"], meta=meta)
    saved = tmp_path / "rows.jsonl"
    saved.write_text(render([p], "jsonl"), encoding="utf-8")  # type: ignore[arg-type]
    (back,) = read_file(saved)
    assert back.meta == meta
    for cells, shown in [([[0, 2, 0]], "cells[0]"), ([[0, "two", 0, 0]], "cells[0]"), ("0-2", "cells")]:
        saved.write_text(json.dumps({"tokens": ["x"], "cells": cells}) + "\n", encoding="utf-8")
        with pytest.raises(InputFormatError, match=re.escape(f"rows.jsonl:1: field '{shown}' must be")):
            read_file(saved)


@pytest.mark.slow
def test_a_real_papers_tables_come_with_their_rows_and_columns(pdfs) -> None:  # noqa: F811
    """BERT's Table 7 (CoNLL-2003), a results table in the right column of page 9."""
    from sciner.pdf import extract_pdf

    rows = [p for p in extract_pdf(pdfs / "arxiv_1810.04805_bert_naacl2019.pdf", include=["tables"])
            if p.table == "table 7"]
    texts = [" ".join(p.tokens) for p in rows]
    # "System" heads the tables at the top of three pages: read as a running header, it is gone.
    assert texts[0] == "Dev F1 Test F1" and "BERT LARGE 96.6 92.8" in texts
    large = rows[texts.index("BERT LARGE 96.6 92.8")]
    assert large.cells == [[0, 2, 0, 0], [2, 3, 1, 1], [3, 4, 2, 2]] and large.page == 9
    assert all(p.kind == "table" for p in rows)


def test_tight_heads_a_heading_below_and_tight_numbers_keep_their_columns() -> None:
    """Multi-LexSum Table 3: its heads "R-1 f1 R-2 f1 ..." set as one run (the "f1"
    subscripts alike), "4.1 Experimental Setup" caught below the table (one number beside a
    wide cell: it must not join the columns under it), and "7.50 -5.43" set as one cell."""
    x = BOXES[LEFT].x0
    heads = row_line([(x + 10, "Models"), (x + 100, "R-1 f1 R-2 f1 R-3 f1")], 80.0)
    heads.line.pieces = ((x + 10, x + 40, "Models"), (x + 100, x + 205, "R-1 f1 R-2 f1 R-3 f1"))
    rows = [heads]
    for k, (label, a, b) in enumerate([("First k Sent", "130.415", "7.50"), ("PRIMERA", "153.731", "2.73"),
                                       ("BART", "148.792", "3.78")]):
        rows.append(row_line([(x + 10, label), (x + 100, a), (x + 150, b), (x + 180, "-5.43")], 90.0 + 10 * k))
    tight = row_line([(x + 10, "LED"), (x + 100, "149.075")], 120.0)
    tight.line.pieces = (*tight.line.pieces, (x + 150, x + 200, "7.50 -5.43"))
    heading = row_line([(x + 10, "4.1"), (x + 30, "Experimental Setup")], 130.0)
    page = [*caption_lines("Table 3: Results.", 50.0, lines=2), *rows, tight, heading, *paragraph(200.0, 2)]
    (table,) = find_tables(page, BODY)
    got = cells_of(table)
    assert got[0] == [("Models", 0, 0), ("R-1 f1", 1, 1), ("R-2 f1", 2, 2), ("R-3 f1", 3, 3)]
    assert got[1] == [("First k Sent", 0, 0), ("130.415", 1, 1), ("7.50", 2, 2), ("-5.43", 3, 3)]
    assert got[4] == [("LED", 0, 0), ("149.075", 1, 1), ("7.50", 2, 2), ("-5.43", 3, 3)]


def test_a_caption_set_on_top_ends_at_its_short_last_line_so_the_table_below_in_the_same_font_is_read() -> None:
    # SLCVAE's Table 1: a two-line caption in the body's font, the table right under it at the
    # caption's own line pitch; the caption's lines used to run on into the rows (regression:
    # the table was lost, and the next one's head rows were read as its caption).
    box = BOXES[LEFT]
    caption = [OrderedLine(pdf_line(text, 50.0 + 11.0 * i, box.x0, x1, size=BODY), LEFT, box, HEIGHT)
               for i, (text, x1) in enumerate([("Table 1: Results on Daily Dialog (DD). The bottom 3 lines", box.x1),
                                                ("are CVAE based methods.", box.x0 + 100.0)])]
    x = box.x0
    rows = [row_line([(x + 5, "Methods"), (x + 100, "BLEU-prec"), (x + 160, "distinct-1")], 73.0, size=BODY),
            row_line([(x + 5, "SEQ2SEQ+BS"), (x + 100, "0.164"), (x + 160, "0.002")], 86.0, size=BODY),
            row_line([(x + 5, "KLA+WD+SL"), (x + 100, "0.214"), (x + 160, "0.014")], 97.0, size=BODY)]
    (table,) = find_tables([*caption, *rows, *paragraph(140.0, 2)], BODY)
    assert table.caption == "Table 1: Results on Daily Dialog (DD). The bottom 3 lines are CVAE based methods."
    assert [[c.text for c in row] for row in table.rows] == [
        ["Methods", "BLEU-prec", "distinct-1"], ["SEQ2SEQ+BS", "0.164", "0.002"], ["KLA+WD+SL", "0.214", "0.014"]]


def test_a_breve_between_numbers_from_a_misencoded_font_is_a_plus_minus_sign() -> None:
    # CheckList's Table 4 prints "5.8 ± 1.1" in a font whose ± reads back as a breve "˘": the
    # cells were no numbers and the table was lost (regression).
    builder = _LineBuilder()
    x = 10.0
    for k, word in enumerate(["#Tests", "5.8", "˘", "1.1", "10.2", "˘", "1.8"]):
        gap = CELL_GAP * 10.0 + 1.0 if word in ("5.8", "10.2") else 3.0
        x += gap if k else 0.0
        for i, char in enumerate(word):
            builder.add(_Glyph(char, x, x + 4.5, 93.0, 100.0, 100.0, 10.0, False, False), i == 0 and k > 0)
            x += 5.0
    line = builder.finish(0, cells=True)
    assert line is not None and line.text == "#Tests 5.8 ± 1.1 10.2 ± 1.8"
    assert [text for _, _, text in line.cells()] == ["#Tests", "5.8 ± 1.1", "10.2 ± 1.8"]
    assert all(is_number(text) for _, _, text in line.cells()[1:])
    word = _LineBuilder()
    for i, char in enumerate("a˘b"):
        word.add(_Glyph(char, 5.0 * i, 5.0 * i + 4.5, 93.0, 100.0, 100.0, 10.0, False, False), False)
    assert (done := word.finish(0)) is not None and done.text == "a˘b"  # a breve elsewhere stays


def test_a_group_label_across_both_columns_between_rows_in_the_body_font_does_not_end_the_table() -> None:
    # A wide table in the body's font whose groups of rows are headed by labels as long as a
    # line of text ("Models distilled using more unsupervised sentences (100k sentences)"): on a
    # page set in two columns such a line across the gutter is the table's, not prose
    # (regression: the table was read from its last group on, its head rows lost).
    x = BOXES[SPANNING].x0
    page = [*paragraph(20.0, 2, side=LEFT), *paragraph(20.0, 2, side=RIGHT),
            row_line([(x + 150, "SST-2"), (x + 220, "CR"), (x + 290, "Avg")], 60.0, side=SPANNING, size=BODY)]
    for k, label in enumerate(["Models distilled using the same number of sentences as in the train set",
                               "Models distilled using more unsupervised sentences (100k sentences)"]):
        top = 75.0 + 40.0 * k
        page.append(row_line([(x + 10, label)], top, side=SPANNING, size=BODY))
        page.append(row_line([(x + 10, f"RoBERTa {k}"), (x + 150, "92.5"), (x + 220, "92.4"), (x + 290, "82.1")],
                             top + 13.0, side=SPANNING, size=BODY))
    (table,) = find_tables([*page, *caption_lines("Table 4: Results of distillation.", 150.0, side=SPANNING)], BODY)
    assert [row[0].text for row in table.rows] == [
        "SST-2", "Models distilled using the same number of sentences as in the train set", "RoBERTa 0",
        "Models distilled using more unsupervised sentences (100k sentences)", "RoBERTa 1"]
    assert len(table.rows[1]) == 1  # a label whose words repeat ("the") is one cell, not a run of heads
    # On a page in one column the same line is the text's: the table above the caption ends there.
    one = [OrderedLine(line.line, LEFT, BOXES[SPANNING], HEIGHT) for line in page[4:]]
    one.append(OrderedLine(row_line([(x + 10, "RoBERTa 2"), (x + 150, "90.1"), (x + 220, "90.2"), (x + 290, "80.3")],
                                    140.0, side=SPANNING, size=BODY).line, LEFT, BOXES[SPANNING], HEIGHT))
    caption = [OrderedLine(c.line, LEFT, BOXES[SPANNING], HEIGHT)
               for c in caption_lines("Table 4: Results.", 160.0, side=SPANNING)]
    (single,) = find_tables([*one, *caption], BODY)
    assert [row[0].text for row in single.rows] == ["RoBERTa 1", "RoBERTa 2"]


def test_a_label_ending_in_an_abbreviation_beside_times_and_marks_is_a_row_not_prose() -> None:
    # T2R Table 2: "ELU + Random Init." beside "64 64 28.4 * 23.4 120h" (a "*" for a run that
    # diverged, a time in hours) ended the table as a sentence of prose (regression: its head
    # rows and first rows were lost).
    x = BOXES[SPANNING].x0
    page = [*paragraph(20.0, 2, side=LEFT), *paragraph(20.0, 2, side=RIGHT),
            row_line([(x + 150, "EN-DE"), (x + 200, "EN-FR"), (x + 250, "Time")], 60.0, side=SPANNING, size=BODY)]
    for k, (label, cells) in enumerate([("ELU + Random Init.", ["28.4", "*", "120h"]),
                                        ("RFA + Random Init.", ["28.1", "41.7", "135h"])]):
        page.append(row_line([(x + 10, label)], 72.0 + 12 * k, side=LEFT, size=BODY))
        page.append(row_line([(x + 150 + 50 * i, c) for i, c in enumerate(cells)], 72.0 + 12 * k, side=SPANNING,
                             size=BODY))
    (table,) = find_tables([*page, *caption_lines("Table 2: Translation.", 110.0, side=SPANNING)], BODY)
    assert [row[0].text for row in table.rows] == ["EN-DE", "ELU + Random Init.", "RFA + Random Init."]


def test_a_group_label_amid_the_rows_set_over_three_columns_is_one_cell_not_three_heads() -> None:
    # AAAI 4802 Table 1: "Single Granularity CNNs" centred over three columns between groups of
    # rows was cut into a head per column (a regression: it replaced the "DBQA KBRE" heads, and
    # every score became DBQA's).
    x = BOXES[LEFT].x0
    rows = [row_line([(x + 10, "Model"), (x + 80, "MAP"), (x + 120, "MRR"), (x + 160, "P@1")], 60.0),
            row_line([(x + 10, "Arc1"), (x + 80, ".4006"), (x + 120, ".4011"), (x + 160, "22.39")], 70.0),
            row_line([(x + 80, "Single Granularity CNNs")], 80.0),
            row_line([(x + 10, "CNN-PKU"), (x + 80, ".8339"), (x + 120, ".8343"), (x + 160, "76.00")], 90.0)]
    (table,) = find_tables([*caption_lines("Table 1: Results.", 40.0), *rows, *paragraph(120.0, 2)], BODY)
    assert [[c.text for c in row] for row in table.rows][2] == ["Single Granularity CNNs"]


def test_a_two_word_head_beside_another_spanning_head_is_one_name_not_a_head_per_column() -> None:
    # AS Reader Table 2: "CNN" and "Daily Mail" each over a "valid test" pair; "Daily Mail" set
    # so tightly that each word sat over a column was cut in two (a regression: dataset "Mail").
    x = BOXES[LEFT].x0
    heads = row_line([(x + 110, "CNN"), (x + 160, "Daily Mail")], 60.0)
    heads.line.pieces = ((x + 105, x + 145, "CNN"), (x + 160, x + 210, "Daily Mail"))
    rows = [heads, row_line([(x + 100 + 30 * i, t) for i, t in enumerate(["valid", "test", "valid", "test"])], 70.0)]
    rows += [row_line([(x + 10, m), *[(x + 100 + 30 * i, n) for i, n in enumerate(nums)]], 80.0 + 10 * k)
             for k, (m, nums) in enumerate([("AS Reader", ["68.6", "69.5", "75.0", "73.9"]),
                                            ("Attentive", ["61.6", "63.0", "70.5", "69.0"])])]
    (table,) = find_tables([*caption_lines("Table 2: Results.", 40.0), *rows, *paragraph(120.0, 2)], BODY)
    assert cells_of(table)[0] == [("CNN", 1, 2), ("Daily Mail", 3, 4)]
    # Two tight runs of heads each over three columns, every word over its column: six heads
    # (GloVe's Table 3, "Size WS353 MC" beside "RG SCWS RW").
    runs = row_line([(x + 10, "Model"), (x + 100, "Size WS353 MC"), (x + 190, "RG SCWS RW")], 60.0, side=SPANNING)
    runs.line.pieces = ((x + 10, x + 35, "Model"), (x + 100, x + 170, "Size WS353 MC"), (x + 190, x + 260, "RG SCWS RW"))
    body = [row_line([(x + 10, m), *[(x + 100 + 30 * i, f"{n + i}.5") for i in range(6)]], 70.0 + 10 * k,
                     side=SPANNING) for k, (m, n) in enumerate([("SVD", 30), ("GloVe", 60)])]
    (six,) = find_tables([*caption_lines("Table 3: Word similarity.", 40.0, side=SPANNING), runs, *body,
                          *paragraph(120.0, 2)], BODY)
    assert [c.text for c in six.rows[0]] == ["Model", "Size", "WS353", "MC", "RG", "SCWS", "RW"]


def test_with_tables_a_float_s_text_holding_numbers_no_row_holds_is_one_figure_paragraph() -> None:
    """A plot's labels ("47.38 31.23", "0.5 1.0" over its axis) set aside as float content: with
    tables asked for, one "figure" paragraph, so that its numbers are no lost text; not a table's
    body its rows hold, nor an equation's number "( 5 )"; nothing without tables."""
    body = paragraph(20.0, 3)
    table = squad_table(70.0)
    caption = caption_lines("Table 2: SQuAD 1.1 results.", 140.0)
    plot = [row_line([(82.0, "Bottom-Up"), (150.0, "47.38"), (200.0, "31.23")], 170.0),
            row_line([(82.0, "0.5"), (150.0, "1.0")], 180.0)]
    equation = [row_line([(82.0, "L = x + y"), (200.0, "( 5 )")], 200.0)]
    found = find_tables([*body, *table, *caption], BODY)

    def build(include: frozenset[str]):
        builder = ParagraphBuilder(body_size=BODY, counts=WordCounts([""]), include=include)
        builder.tables = list(found) if "tables" in include else []
        for lines, kind in ((body, Kind.BODY), (table, Kind.DROP), (caption, Kind.CAPTION), (plot[:1], Kind.DROP),
                            (plot[1:], Kind.DROP), (equation, Kind.DROP)):
            builder.add_block(Block(lines), kind)
        return builder.finish()

    assert [p.kind for p in build(frozenset({"captions"}))] == ["body", "caption"]
    both = build(frozenset({"captions", "tables"}))
    assert [p.kind for p in both] == ["body", "caption", *["table"] * 5, "figure"]
    assert both[-1].text == "Bottom-Up 47.38 31.23 0.5 1.0"
