"""PDF extraction on the 25 real papers in shared/data/pdfs, and on broken files.

Coverage is measured against GROBID's text of 16 of the papers (``reference_grobid_text``):
the share of the reference's word 4-grams found in our output. GROBID drops in-text
citations and joins every line-break hyphen ("taskspecific"), and keeps figure and table
captions, which we drop; the normalised measure compares content with those conventions
removed on both sides, the raw one is the plain share (see ``benchmarks/extraction_quality.py``).
"""

from __future__ import annotations

import csv
from pathlib import Path

import json
import sys

import pytest

from sciner.errors import PDFError
from sciner.pdf import extract_pdf, read_pdf_paragraphs
from sciner.pdf.extract import _Glyph, _LineBuilder

# The extraction-quality measures are the benchmark's (benchmarks/extraction_quality.py), not the library's.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from extraction_quality import looks_like_reference_entry, ngram_coverage  # noqa: E402


@pytest.fixture(scope="module")
def papers(pdfs: Path):
    """Every listed PDF extracted once: {file name: paragraphs}."""
    with open(pdfs / "PDF_LIST.tsv", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    return {row["file"]: (row, extract_pdf(pdfs / row["file"])) for row in rows}


@pytest.mark.slow
def test_all_papers_extract(papers):
    assert len(papers) == 25
    for name, (_, paragraphs) in papers.items():
        kinds = {p.kind for p in paragraphs}
        assert {"title", "header", "body"} <= kinds, name
        assert sum(len(p.tokens) for p in paragraphs) > 2000, name
        assert all(p.tokens and all(t.strip() for t in p.tokens) for p in paragraphs), name


@pytest.mark.slow
def test_titles_match_the_list(papers):
    """The first paragraph is the title (PDF_LIST.tsv's titles, ignoring case, small caps and notes)."""
    def squash(text: str) -> str:
        return "".join(c for c in text.lower() if c.isalnum())

    for name, (row, paragraphs) in papers.items():
        title = row["title"].split(" (")[0]
        assert paragraphs[0].kind == "title", name
        assert squash(title)[:30] in squash(paragraphs[0].text), (name, paragraphs[0].text)


@pytest.mark.slow
def test_coverage_of_grobid_reference_text(papers, pdfs):
    raw, normalised = {}, {}
    for name, (row, paragraphs) in papers.items():
        if not row["reference_text"]:
            continue
        reference = (pdfs / row["reference_text"]).read_text(encoding="utf-8").splitlines()
        ours = "\n".join(p.text for p in paragraphs)
        raw[name] = ngram_coverage(reference, ours)
        normalised[name] = ngram_coverage(reference, ours, normalize=True)
    assert len(raw) == 16
    report = {name: (round(raw[name], 3), round(normalised[name], 3)) for name in raw}
    # Issue 15's floor for the lowest paper (0.83) holds for the normalised measure.
    assert sum(normalised.values()) / 16 >= 0.91, report
    assert min(normalised.values()) >= 0.83, report
    assert sum(raw.values()) / 16 >= 0.875, report
    assert min(raw.values()) >= 0.79, report


@pytest.mark.slow
def test_reference_list_is_left_out(papers):
    total = sum(len(paragraphs) for _, paragraphs in papers.values())
    entries = [
        (name, p.text[:80]) for name, (_, paragraphs) in papers.items() for p in paragraphs
        if looks_like_reference_entry(p.text)
    ]
    assert len(entries) / total <= 0.005, entries  # issue 15: at most 0.5%


@pytest.mark.slow
def test_no_caption_or_table_row_is_left_as_a_paragraph(papers):
    from extraction_quality import residue_kind

    residue = [(name, p.text[:80]) for name, (_, paragraphs) in papers.items() for p in paragraphs if residue_kind(p.text)]
    assert residue == []


@pytest.mark.slow
def test_appendix_after_references_is_kept(papers):
    _, bert = papers["arxiv_1810.04805_bert_naacl2019.pdf"]
    headers = [p.text for p in bert if p.kind == "header"]
    assert "A Additional Details for BERT" in headers
    assert "C.2 Ablation for Different Masking Procedures" in headers
    assert "References" not in headers


@pytest.mark.slow
def test_two_column_reading_order_and_dehyphenation(papers):
    _, bert = papers["arxiv_1810.04805_bert_naacl2019.pdf"]
    text = "\n".join(p.text for p in bert)
    # The introduction's first paragraph runs on in the same column; the second starts the right column.
    intro = [p.text for p in bert if p.section == "Introduction" and p.kind == "body"]
    assert intro[0].startswith("Language model pre-training has been shown")
    assert intro[1].startswith("There are two existing strategies")
    assert "language representation model called BERT" in text  # "representa-" + "tion"
    assert "task-specific" in text and "taskspecific" not in text
    assert "Figure 1:" not in text and "Table 1:" not in text


@pytest.mark.slow
def test_losses_found_against_grobid_stay_fixed(papers):
    """Text that used to be lost: a last page with one column of text, a justified line
    stretched around a citation, code listings (once kept as footnotes or dropped), a
    datasheet appendix set a point larger than the body, lists of settings set smaller, and
    settings written out in a sentence ("vector_size=300,")."""
    _, bunescu = papers["acl2007_bunescu_relation_extraction.pdf"]
    assert {"Conclusion", "Acknowledgments"} <= {p.text for p in bunescu if p.kind == "header"}
    _, scibert = papers["arxiv_1903.10676_scibert_emnlp2019.pdf"]
    assert any("As shown through ELMo (Peters et al., 2018)" in p.text for p in scibert)
    _, papermage = papers["emnlp2023demo_papermage.pdf"]
    listings = [p for p in papermage if ">>> import papermage as pm" in p.text]
    assert listings and all(p.kind == "body" for p in listings)
    _, lexsum = papers["arxiv_2206.10883_multi_lexsum.pdf"]
    assert any(p.text.startswith("The Multi-LexSum dataset was curated") for p in lexsum)
    _, blanks = papers["arxiv_1906.03158_matching_the_blanks_acl2019.pdf"]
    assert {"• Batch Size (supervised): 64", "• Learning rate: 3e-5 with Adam"} <= {p.text for p in blanks}
    _, specter = papers["acl_2020.acl-main.207_specter.pdf"]
    assert any("set as follows: vector_size=300, min_count=3, alpha=0.025, min_alpha=0.0001" in p.text for p in specter)


def test_read_pdf_paragraphs_for_tagging(pdfs):
    path = pdfs / "arxiv_1903.10676_scibert_emnlp2019.pdf"
    paragraphs = read_pdf_paragraphs(path)
    assert paragraphs[0].source == str(path)
    assert [p.line for p in paragraphs] == list(range(len(paragraphs)))
    assert paragraphs[0].tags is None


# --- lines from glyphs (synthetic) -------------------------------------------------------
# Coordinates are top-down: a smaller ``baseline`` is higher on the page.

SIZE = 10.0


def glyph(char: str, x0: float, *, baseline: float = 100.0, size: float = SIZE, math: bool = False) -> _Glyph:
    width = 0.5 * size
    return _Glyph(char, x0, x0 + width, baseline - 0.7 * size, baseline, baseline, size, False, math)


def word(text: str, x0: float, **kwargs) -> list[_Glyph]:
    return [glyph(char, x0 + 5.0 * i * kwargs.get("size", SIZE) / SIZE, **kwargs) for i, char in enumerate(text)]


def build(items: list[tuple[_Glyph, bool, bool]]) -> str:
    """Feed (glyph, space before, line break before) to a line builder, as the page reader does."""
    builder = _LineBuilder()
    carried = False  # a space before a skipped glyph belongs to the next one
    for g, space, after_break in items:
        if builder.is_over_accent(g):
            carried = carried or space
            continue
        assert builder.accepts(g, 4.0), g
        builder.add(g, space or carried, after_break)
        carried = False
    line = builder.finish(0)
    assert line is not None
    return line.text


def test_space_after_a_footnote_marker_where_pdfium_writes_a_line_break():
    # "order³ since": PDFium puts "\r\n" (not a space) between the raised 3 and "since".
    items = [(g, False, False) for g in word("order", 10.0)]
    items.append((glyph("3", 35.5, baseline=96.0, size=7.0), False, False))
    items += [(g, False, i == 0) for i, g in enumerate(word("since", 44.0))]
    assert build(items) == "order since"
    # A subscript after a break, right against its letter, gets no space of its own.
    items = [(g, False, False) for g in word("x", 10.0)] + [(glyph("i", 15.0, baseline=103.0, size=7.0), False, True)]
    assert build(items) == "x i"  # the script boundary still separates the tokens


def test_raised_digits_after_math_are_exponents_not_markers():
    big_o = [glyph("O", 10.0, math=True), glyph("(", 15.0), glyph("n", 20.0, math=True),
             glyph("2", 25.0, baseline=96.0, size=7.0), glyph(")", 29.0)]
    assert build([(g, False, False) for g in big_o]) == "O(n 2)"
    # After an ordinary word, the same raised digit is a footnote marker and goes.
    marked = word("BERT", 10.0) + [glyph("2", 30.0, baseline=96.0, size=7.0)]
    assert build([(g, False, False) for g in marked]) == "BERT"
    # After a number it is an exponent; after a name ending in a digit, a marker (S2ORC, page 3:
    # "SCIENCEPARSE v3.0.0⁹ and GROBID v0.5.5¹⁰" was read "v3.0.0 9 and GROBID v0.5.5 10").
    power = word("10", 10.0) + [glyph("5", 21.0, baseline=96.0, size=7.0)]
    assert build([(g, False, False) for g in power]) == "10 5"
    version = word("v3.0.0", 10.0) + [glyph("9", 41.0, baseline=96.0, size=7.0)]
    assert build([(g, False, False) for g in version]) == "v3.0.0"


def test_subscript_under_a_superscript_stays_on_the_line():
    # W with (n) above and Q below: the Q goes back left, under the (n).
    items = [glyph("W", 10.0, math=True)] + word("(n)", 16.0, baseline=96.0, size=7.0)
    items += [glyph("Q", 16.0, baseline=103.0, size=7.0, math=True), glyph(",", 28.0)]
    assert build([(g, False, False) for g in items]) == "W(n) Q,"


def test_vector_arrow_over_a_letter_is_not_text():
    items = [(g, False, False) for g in word("the", 10.0)]
    items.append((glyph("→", 26.0, baseline=93.0, math=True), True, False))
    items += [(glyph("h", 26.0, math=True), False, False), (glyph("k", 31.0, baseline=103.0, size=7.0), False, False)]
    assert build(items) == "the h k"


# --- broken files -----------------------------------------------------------------------


def _minimal_pdf(trailer_extra: bytes = b"", extra_objects: tuple[bytes, ...] = ()) -> bytes:
    """A one-page PDF with no text, written by hand so that an /Encrypt entry can be added."""
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>",
        *extra_objects,
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R " % (len(objects) + 1) + trailer_extra + b">>\n"
    out += b"startxref\n%d\n%%%%EOF\n" % xref
    return bytes(out)


def _encrypted_pdf() -> bytes:
    """Standard security handler with a user password (random /O and /U: "" does not open it)."""
    file_id = b"<00112233445566778899aabbccddeeff>"
    encrypt = b"<< /Filter /Standard /V 1 /R 2 /O <" + b"41" * 32 + b"> /U <" + b"42" * 32 + b"> /P -4 >>"
    return _minimal_pdf(b"/Encrypt 4 0 R /ID [" + file_id + b" " + file_id + b"] ", (encrypt,))


def _blank_pdf(path: Path) -> None:
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument.new()
    document.new_page(612, 792)
    document.new_page(612, 792)
    document.save(str(path))
    document.close()


@pytest.fixture()
def bad_files(tmp_path) -> dict[str, Path]:
    files = {
        "not a PDF": tmp_path / "notes.pdf",
        "empty": tmp_path / "empty.pdf",
        "encrypted": tmp_path / "locked.pdf",
        "no text layer": tmp_path / "scanned.pdf",
    }
    files["not a PDF"].write_text("These are my notes, not a PDF.\n", encoding="utf-8")
    files["empty"].write_bytes(b"")
    files["encrypted"].write_bytes(_encrypted_pdf())
    _blank_pdf(files["no text layer"])
    return files


@pytest.mark.parametrize(
    "case, words",
    [("not a PDF", "not a PDF"), ("empty", "empty"), ("encrypted", "encrypted"), ("no text layer", "no text layer")],
)
def test_bad_files_raise_pdf_error_naming_the_file(bad_files, case, words):
    path = bad_files[case]
    with pytest.raises(PDFError) as caught:
        extract_pdf(path)
    message = str(caught.value)
    assert str(path) in message and words in message
    assert "\n" not in message


def test_cli_reports_a_bad_file_in_one_line(cli, bad_files):
    result = cli("extract", bad_files["encrypted"])
    assert result.returncode == PDFError.exit_code
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error[E006]:") and "locked.pdf" in lines[0]


def test_cli_writes_paragraph_lines_and_json(cli, tmp_path, pdfs):
    path = pdfs / "arxiv_1908.09091_bert_for_coref_emnlp2019.pdf"
    out = tmp_path / "paper.txt"
    assert cli("extract", path, "-o", out).returncode == 0
    lines = out.read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("BERT for Coreference Resolution")
    assert all(line and "  " not in line for line in lines)
    result = cli("extract", path, "--json")
    assert result.returncode == 0, result.stderr
    import json

    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [" ".join(r["tokens"]) for r in records] == lines
    assert {"tokens", "text", "section", "page", "kind"} <= set(records[0])
    assert records[0]["section"] == "Title" and records[0]["page"] == 1


def test_evenly_stretched_gaps_are_told_from_table_cells():
    from sciner.pdf.extract import _count_wide_gaps, _evenly_spread

    def spaced(words_and_gaps: list[tuple[str, float]]) -> list[_Glyph]:
        glyphs, x = [], 10.0
        for text, gap in words_and_gaps:
            glyphs += word(text, x)
            x += 5.0 * len(text) + gap
        return glyphs

    # "As   shown   through   ELMo   (Peters et al.,": the citation keeps its narrow spaces.
    stretched = spaced([("As", 13.0), ("shown", 13.2), ("through", 12.9), ("ELMo", 13.1), ("(Peters", 3.4), ("et", 3.3), ("al.,", 0)])
    assert _count_wide_gaps(stretched, SIZE) >= 2 and _evenly_spread(stretched, SIZE)
    # A table row: cell gaps of different widths.
    row = spaced([("BERT", 3.0), ("Large", 25.0), ("92.4", 14.0), ("91.0", 30.0), ("88.7", 0)])
    assert _count_wide_gaps(row, SIZE) >= 2 and not _evenly_spread(row, SIZE)
    # A table's header row, every gap wide ("Lang.   Back-   Synth.   Total", Tilde, page 3):
    # before, the narrowest gap was the yardstick and no gap counted, so the row was prose.
    header = spaced([("Lang.", 24.0), ("Back-", 27.0), ("Synth.", 30.0), ("Total", 0)])
    assert _count_wide_gaps(header, SIZE) == 3


def test_word_gap_without_a_space_character_is_a_space():
    # "Will" + a 3-pt gap + "the", with no space from PDFium; letters sit 0.5 pt apart.
    will = [glyph(c, 10.0 + 5.5 * i) for i, c in enumerate("Will")]
    the = [glyph(c, will[-1].x1 + 3.0 + 5.5 * i) for i, c in enumerate("the")]
    assert build([(g, False, False) for g in will + the]) == "Will the"
    # A monospace font's glyphs are narrower than their cells: the same gap is no space.
    code = [glyph(c, 10.0 + 8.0 * i) for i, c in enumerate("object")]
    for g in code:
        g.mono = True
    assert build([(g, False, False) for g in code]) == "object"


def _with_blank_pages(src: Path, target: Path, blank: int) -> Path:
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(src))
    width, height = document[0].get_size()
    for _ in range(blank):
        document.new_page(width, height)
    document.save(str(target))
    document.close()
    return target


@pytest.mark.parametrize("blank", [24, 2000])
def test_blank_pages_change_nothing(tmp_path, pdfs, blank):
    """Regression: blank pages outvoted the two-column pages (Conclusion and Acknowledgments
    were lost with 24 appended), and 2,000 of them made the paper 'a PDF without a text layer'."""
    src = pdfs / "acl2007_bunescu_relation_extraction.pdf"
    padded = _with_blank_pages(src, tmp_path / "padded.pdf", blank)
    assert [p.text for p in extract_pdf(padded)] == [p.text for p in extract_pdf(src)]


def test_only_blank_pages_is_no_text_layer(tmp_path, pdfs):
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument.new()
    for _ in range(3):
        document.new_page(612, 792)
    document.save(str(tmp_path / "blank.pdf"))
    with pytest.raises(PDFError, match="no text layer"):
        extract_pdf(tmp_path / "blank.pdf")


@pytest.mark.slow
def test_a_sentence_starting_table_2_is_body_and_table_rows_stay_out(papers):
    """Regression (AGGCN, page 7): "Table 2. We compare our model ..." was taken for a second
    caption of Table 2 and dropped, and Table 3's rows were glued to the sentence it continues."""
    _, paragraphs = papers["arxiv_1906.07510_aggcn_relation_extraction_acl2019.pdf"]
    text = "\n".join(p.text for p in paragraphs)
    assert "extraction task in Table 2. We compare our model against two kinds of models" in text
    assert "Harabagiu, 2010) 82.2" not in text
    assert "84.8" not in [p.text for p in paragraphs]


def test_caption_label_names_the_float():
    from sciner.pdf.clean import caption_label

    assert caption_label("Table 2: Results on TACRED") == "table 2"
    assert caption_label("Fig. 3. The model") == "figure 3"
    assert caption_label("We compare") is None


# --- issue 15: underscores, progress, footnotes, and the real-PDF regressions -----------


def test_rule_drawn_in_a_word_gap_is_an_underscore():
    """Regression (Spider, page 4): LaTeX draws "\\_" as a rule, so "employee_id" read as
    "employee id" (and spaCy splits "id" into "i d")."""
    employee = word("employee", 10.0)
    gap_start, gap_end = employee[-1].x1, employee[-1].x1 + 6.0
    builder = _LineBuilder()
    for g in employee:
        builder.add(g, False)
    following = word("id", gap_end)
    rule = (gap_start + 0.5, gap_end - 0.5, 100.5)  # at the baseline, filling the gap
    assert builder.fill_gap(following[0], [rule])
    for g in following:
        builder.add(g, False)
    assert builder.finish(0).text == "employee_id"


def test_a_rule_away_from_the_baseline_or_the_gap_is_no_underscore():
    from sciner.pdf.extract import _in_a_dashed_line

    builder = _LineBuilder()
    for g in word("ABC", 10.0):
        builder.add(g, False)
    nxt = glyph("(", builder.x_end + 6.0)
    assert not builder.fill_gap(nxt, [(builder.x_end + 0.5, nxt.x0 - 0.5, 96.0)])  # a fraction bar, above
    assert not builder.fill_gap(nxt, [(builder.x_end + 2.5, builder.x_end + 3.5, 100.5)])  # a dot of a rule
    # The dashes of a dashed underline ("ABC (2019)" underlined in S2ORC) come in a row.
    dashes = [(10.0 + 6.1 * k, 14.1 + 6.1 * k, 101.0) for k in range(5)]
    assert all(_in_a_dashed_line(dash, dashes) for dash in dashes)
    assert not _in_a_dashed_line((50.0, 54.0, 101.0), [(50.0, 54.0, 101.0), (70.0, 74.0, 101.0)])


def test_progress_is_reported_after_every_page(pdfs):
    calls = []
    extract_pdf(pdfs / "acl2007_bunescu_relation_extraction.pdf", progress=lambda done, total: calls.append((done, total)))
    total = calls[-1][1]
    assert total == 8 and calls == [(done, total) for done in range(1, total + 1)]


def test_author_notes_are_no_paragraph_but_footnote_sentences_are_tagged(pdfs):
    """Regressions: (AGGCN, page 1) the author note "Equally Contributed." was tagged as a
    paragraph; (BERT, issue 23) `sciner predict paper.pdf` dropped every footnote that
    `sciner extract` kept, among them a HyperparameterValue ("... 4H, i.e., 3072")."""
    aggcn = [" ".join(p.tokens) for p in extract_pdf(pdfs / "arxiv_1906.07510_aggcn_relation_extraction_acl2019.pdf")]
    assert "Equally Contributed ." not in aggcn
    bert = pdfs / "arxiv_1810.04805_bert_naacl2019.pdf"
    extracted = extract_pdf(bert)
    footnotes = [" ".join(p.tokens) for p in extracted if p.kind == "footnote"]
    assert any("feed - forward / filter size to be 4H , i.e. , 3072" in f for f in footnotes)
    assert not any(f.startswith("See ( 10 ) in") for f in footnotes)
    assert [p.tokens for p in read_pdf_paragraphs(bert)] == [p.tokens for p in extracted]


def test_which_footnotes_are_running_text():
    from sciner.pdf import is_running_text

    assert is_running_text("The final model achieves 97 % -98 % accuracy on NSP .".split())
    for note in ("Equal contribution", "denotes equal contribution", "word2vec/", "As of November 17 , 2017 .",
                 "See ( 10 ) in https://gluebenchmark.com/faq .", "Corpus sources : http://a.it , http://b.uk"):
        assert not is_running_text(note.split()), note


@pytest.mark.slow
def test_debris_found_side_by_side_with_pdftext_stays_out(papers):
    """Regressions of issue 15 on the real papers: a table's row labels, a URL broken across
    lines, formula lines, and underscores drawn as rules."""
    def text_of(name: str) -> str:
        return "\n".join(p.text for p in papers[name][1])

    aggcn = text_of("arxiv_1906.07510_aggcn_relation_extraction_acl2019.pdf")
    assert "SPTree (Miwa and Bansal, 2016) GS GLSTM" not in aggcn
    bert = text_of("arxiv_1810.04805_bert_naacl2019.pdf")
    assert "from https://gluebenchmark.com/leaderboard and https://blog.openai.com/language-unsupervised. The GLUE" in bert
    assert "j e S·Tj" not in bert and "The analogous formula is used for the end of the answer span" in bert
    specter = text_of("acl_2020.acl-main.207_specter.pdf")
    assert "kv A − v B k 2" not in specter and "\no where d is" not in "\n" + specter
    assert "where d is a distance function" in specter
    spider = text_of("arxiv_1809.08887_spider_emnlp2018.pdf")
    assert "SELECT employee_id FROM employees WHERE manager_id" in spider and "“stu_id”" in spider
    s2orc = text_of("acl_2020.acl-main.447_s2orc.pdf")
    assert "ABC (2019) or (XYZ, 2019)" in s2orc  # dashed underlines are no underscores
    # Table rows read apart into one-line blocks, each above the next row's cells.
    assert "ESIM+TreeLSTM (Chen et al., 2017) 88.6" not in text_of("arxiv_1802.05365_elmo_naacl2018.pdf")
    assert "All 8 layers All 8 layers 93.15" not in text_of("arxiv_1805.01052_self_attentive_parser_acl2018.pdf")
    assert "(Pasunuru and Bansal, 2018) 40.43" not in text_of("arxiv_1808.10792_bottom_up_summarization_emnlp2018.pdf")


@pytest.mark.slow
def test_table_cells_and_cut_list_items_found_reading_all_papers_stay_fixed(papers):
    """Regressions found reading all 25 papers' paragraphs: list items cut at a hanging
    line, and table cells (header rows, prose-like cells of full-width tables, row labels
    in small type) glued into paragraphs or kept as paragraphs of their own."""
    def paragraphs(name: str) -> list[str]:
        return [p.text for p in papers[name][1]]

    s2orc = paragraphs("acl_2020.acl-main.447_s2orc.pdf")
    assert any(text.endswith("4) Resolve bibliography links between paper clusters in the corpus.") for text in s2orc)
    assert any(text.endswith("papers only comprise half the corpus.") for text in s2orc)
    assert "corpus." not in s2orc
    assert any("using SCIENCEPARSE v3.0.0 and GROBID v0.5.5 (Lopez, 2009)" in text for text in s2orc)
    lexsum = paragraphs("arxiv_2206.10883_multi_lexsum.pdf")
    assert any(text.endswith("can produce summaries of different granularities.") for text in lexsum)
    tilde = "\n".join(paragraphs("acl_W18-6423_tilde_mt_wmt2018.pdf"))
    assert "sentence pair in the parallel corpora" in tilde and "Synth. Total" not in tilde
    assert "System Configuration BLEU" not in tilde
    elmo = "\n".join(paragraphs("arxiv_1802.05365_elmo_naacl2018.pdf"))
    assert "In the SRL case, the task-specific context representations" in elmo and "multiplayer" not in elmo
    assert "TASK PREVIOUS SOTA" not in elmo
    bottom_up = "\n".join(paragraphs("arxiv_1808.10792_bottom_up_summarization_emnlp2018.pdf"))
    assert "Pointer-Generator + Coverage Penalty CopyTransformer" not in bottom_up
    ulmfit = "\n".join(paragraphs("arxiv_1801.06146_ulmfit_acl2018.pdf"))
    assert "AG DBpedia Yelp-bi" not in ulmfit and "learning rates of 0.001 and 0.0001 for the last" in ulmfit
    assert "P R F1 P R F1" not in "\n".join(paragraphs("arxiv_1804.08199_lisa_srl_emnlp2018.pdf"))
    assert "Stack t+1 Buffer" not in "\n".join(paragraphs("arxiv_1603.01360_neural_architectures_ner_naacl2016.pdf"))
    blanks = "\n".join(paragraphs("arxiv_1906.03158_matching_the_blanks_acl2019.pdf"))
    assert "Zhang and Wang (2015)*" not in blanks
    p14 = paragraphs("acl_P14-1059_phrase_generation_distributional.pdf")
    assert "Input Output cbow count" not in "\n".join(p14)
    assert any("It is worth stressing the nature of the paraphrase-by-generation task" in text for text in p14)
    parser = paragraphs("arxiv_1805.01052_self_attentive_parser_acl2018.pdf")
    assert not {"Single model, WSJ only", "Language Base Learning Rate"} & set(parser)
    assert "Rarely to Never Include" not in paragraphs("arxiv_2206.10883_multi_lexsum.pdf")
    assert "System BLEU DA Cluster" not in tilde
    ner = "\n".join(paragraphs("arxiv_1603.01360_neural_architectures_ner_naacl2016.pdf"))
    assert "For a sequence of predictions we define its score to be" in ner
    absa = "\n".join(paragraphs("arxiv_1904.02232_bert_post_training_absa_naacl2019.pdf"))
    assert "are supposed to be able to fit into GPU memory" in absa and "ParameterUpdates" not in absa


def test_include_adds_tables_captions_and_footnotes_beside_an_unchanged_body(pdfs, cli, loaded_once, tmp_path):
    """Issue 24 item 2: `--include` on extract and predict; the default body is what it was."""
    pdf = pdfs / "arxiv_1810.04805_bert_naacl2019.pdf"
    body, every = tmp_path / "body.jsonl", tmp_path / "every.jsonl"
    assert cli("extract", pdf, "-o", body, "-q").returncode == 0
    assert cli("extract", pdf, "--include", "tables,captions,footnotes", "-o", every, "-q").returncode == 0
    a = [json.loads(line) for line in body.read_text(encoding="utf-8").splitlines()]
    b = [json.loads(line) for line in every.read_text(encoding="utf-8").splitlines()]
    assert [p for p in b if p in a] == a  # the body, in its order, with the additions around it
    added = {p["kind"] for p in b if p not in a}
    assert {"table", "caption"} <= added <= {"table", "caption", "footnote"}
    assert any(p["kind"] == "table" and "SQuAD" not in p["text"] and "91.8" in p["text"] for p in b)
    assert any(p["kind"] == "caption" and p["text"].startswith("Table 1:") and p["page"] == 6 for p in b)
    tagged = tmp_path / "tagged.jsonl"
    assert cli("predict", pdf, "--include", "tables,captions", "-o", tagged, "-q").returncode == 0
    kinds = [json.loads(line).get("kind") for line in tagged.read_text(encoding="utf-8").splitlines()]
    assert "table" in kinds and "caption" in kinds and "body" in kinds
    # Results read off a table: Table 7's "BERT LARGE 96.6 92.8" under "Dev F1 Test F1", its
    # caption naming CoNLL-2003 (issue 24: results from tables), spelt as the gazetteer's
    # Papers with Code list does.
    summary = tmp_path / "summary.json"
    assert cli("summarize", tagged, "-o", summary, "-q").returncode == 0
    results = json.loads(summary.read_text(encoding="utf-8"))["papers"][0]["results"]
    found = {(r["dataset"], r["metric"], r["value"], r["model"]) for r in results}
    assert {("CoNLL 2003", "F1", "92.8", "BERT LARGE"), ("SQuAD1.1", "EM", "84.1", "BERT LARGE (Single)")} <= found
    refused = cli("extract", pdf, "--include", "tables,figures", "-o", tmp_path / "x.txt")
    assert refused.returncode != 0 and "--include: figures: not one of tables, captions, footnotes" in refused.stderr
