"""A paper's metadata from its first page (sciner.pdf.metadata), and readable text from tokens
(sciner.tokenize.detokenize)."""

from __future__ import annotations

import pytest

from sciner.document import Paragraph
from sciner.pdf.metadata import PaperMetadata, authors, paper_metadata, read_metadata
from sciner.tokenize import detokenize, tokenize


@pytest.mark.parametrize("lines, year, venue", [
    (["Published as a conference paper at ICLR 2020"], 2020, "ICLR 2020"),
    (["31st Conference on Neural Information Processing Systems (NIPS 2017), Long Beach, CA, USA."], 2017, "NIPS 2017"),
    (["Proceedings of the 57th Annual Meeting of the Association for Computational Linguistics, pages 1441–1451",
      "Florence, Italy, July 28 - August 2, 2019."], 2019,
     "Proceedings of the 57th Annual Meeting of the Association for Computational Linguistics"),
    (["Proceedings of the 2014 Conference on Empirical Methods in Natural Language Processing (EMNLP), pages 2039–2048,"],
     2014, "Proceedings of the 2014 Conference on Empirical Methods in Natural Language Processing (EMNLP)"),
    (["Proceedings of the Thirty-First AAAI Conference on Artificial Intelligence (AAAI-17)"], 2017,
     "Proceedings of the Thirty-First AAAI Conference on Artificial Intelligence (AAAI-17)"),
    (["Proceedings of the 14th Conference of the European Chapter of the Association for Computational Linguistics, "
      "462–471,", "Gothenburg, Sweden, April 26-30 2014."], 2014,
     "Proceedings of the 14th Conference of the European Chapter of the Association for Computational Linguistics"),
    (["Copyright c 2018, Association for the Advancement of Artificial Intelligence (www.aaai.org)."], 2018, "AAAI"),
    (["Journal of Machine Learning Research 3 (2003) 1137–1155 Submitted 4/02; Published 2/03"], 2003,
     "Journal of Machine Learning Research"),
    (["arXiv:1810.04805v2 [cs.CL] 24 May 2019"], 2019, None),  # the version read
    (["arXiv:1502.01710"], 2015, None),  # no stamp date: the id's first version
    (["In Proceedings of the 2016 Conference of the North American Chapter of the ACL, 2016."], None, None),  # a citation
    (["Under review as a conference paper at ICLR 2017"], None, None),
    (["Some Person", "A University"], None, None),
])
def test_the_year_and_venue_of_a_first_page(lines: list[str], year: int | None, venue: str | None) -> None:
    found = read_metadata(lines)
    assert (found.year, found.venue) == (year, venue)


def test_arxiv_ids_and_dois_are_read_and_a_template_doi_is_not() -> None:
    assert read_metadata(["arXiv:1906.08237v2 [cs.CL] 2 Jan 2020"]).arxiv_id == "1906.08237v2"
    assert read_metadata(["arXiv:cs/0501001v1"]).arxiv_id == "cs/0501001v1"
    assert read_metadata(["https://doi.org/10.18653/v1/N19-1423."]).doi == "10.18653/v1/N19-1423"
    assert read_metadata(["DOI: 10.1145/nnnnnnn.nnnnnnn"]).doi is None


def test_authors_are_the_person_names_of_the_author_block() -> None:
    block = ["Jacob Devlin Ming-Wei Chang Kenton Lee Kristina Toutanova", "Google AI Language",
             "{jacobdevlin,mingweichang}@google.com", "Zhilin Yang∗1, Zihang Dai∗12, Yiming Yang1",
             "1Carnegie Mellon University, 2Google AI Brain Team", "Mountain View, CA", "Abstract", "Not A Name"]
    assert authors(block) == ["Zhilin Yang", "Zihang Dai", "Yiming Yang"]


def test_a_paper_s_metadata_reads_its_front_lines_and_its_first_page_s_short_paragraphs() -> None:
    first = Paragraph(["Title"], meta={"page": 1, "kind": "title", "front": "Ann Lee, Bo Chan\narXiv:2001.00001v1"})
    note = Paragraph(tokenize("Published as a conference paper at ICLR 2021"), meta={"page": 1, "kind": "body"})
    later = Paragraph(tokenize("Published as a conference paper at ICLR 2019"), meta={"page": 2, "kind": "body"})
    assert paper_metadata([first, note, later]) == PaperMetadata(("Ann Lee", "Bo Chan"), 2021, "ICLR 2021", "2001.00001v1")
    assert paper_metadata([Paragraph(["Text"])]).columns() == (None, None, None, None, None)


@pytest.mark.parametrize("text, readable", [
    ("Co-guiding Net: Achieving Mutual Reinforcements", "Co-guiding Net: Achieving Mutual Reinforcements"),
    ("It reaches 84.6% (on SQuAD), see [7, 22]; state-of-the-art.", "It reaches 84.6% (on SQuAD), see [7, 22]; state-of-the-art."),
    ("We don't use BERT's heads!", "We don't use BERT's heads!"),
])
def test_detokenize_undoes_the_task_s_tokenization_where_its_rules_can_tell(text: str, readable: str) -> None:
    assert detokenize(tokenize(text)) == readable


def test_detokenize_joins_no_hyphen_or_slash_that_stands_between_a_word_and_punctuation() -> None:
    assert detokenize(["a", "-", "(", "b", ")"]) == "a - (b)"
    assert detokenize(["P", "/", "R"]) == "P/R"
    assert detokenize([]) == ""
