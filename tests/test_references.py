"""Reference lists are recognised by their heading or by the density of their entries, not by one stray link."""

from kb.models import Chunk
from kb.references import is_reference_list

ENTRIES = (
    "[12] A. Author, B. Author. Deep things. In Proceedings of the Conference on Things, 2020. "
    "[13] C. Author. More things. arXiv preprint arXiv:2001.00001, 2020. "
    "[14] D. Author. Other things. Journal of Things, vol. 3, pp. 1-9, 2019."
)
FOOTNOTE_IN_PROSE = (
    "Large models store facts in their parameters, and we measure how often each fact appears in the training "
    "data. 1 University of Somewhere. Correspondence to: someone@example.org. Proceedings of the 40th "
    "International Conference on Learning, 2023. We find a strong correlation between how often a fact is seen "
    "and how well it is recalled, which holds across model sizes and training sets."
)


def test_a_reference_heading_marks_the_chunk_and_its_running_header_children():
    assert is_reference_list("8 Conclusion > References", "anything at all")
    assert is_reference_list("Bibliography", "anything at all")
    # A running header detected as a sub-heading of the list: one entry mark is enough.
    assert is_reference_list("References > Some Paper Title 10", "Smith, J. and Doe, A. A study. arXiv, 2021.")
    assert not is_reference_list("References > Some Paper Title 12", "Part I Appendix: the full prompts we used.")
    assert not is_reference_list("2 Related work", "We build on earlier work on references in prose.")


def test_entries_without_a_heading_are_recognised_but_a_footnote_in_prose_is_not():
    assert is_reference_list("", ENTRIES)
    assert is_reference_list("3 Results", ENTRIES)
    assert not is_reference_list("1 Introduction", FOOTNOTE_IN_PROSE)
    assert not is_reference_list("1 Introduction", "See https://example.org/code for the code and the data.")


def test_a_reference_chunk_is_embedded_by_its_heading_alone():
    def chunk(section: str, text: str) -> Chunk:
        return Chunk(chunk_id="d:1", doc_id="d", ordinal=1, start_page=9, end_page=9, section=section, text=text)

    assert chunk("7 Conclusion > References", ENTRIES).embed_text() == "7 Conclusion > References"
    assert chunk("", ENTRIES).embed_text() == " ".join(ENTRIES.split()[:16])  # no heading: its first words
    prose = chunk("1 Introduction", FOOTNOTE_IN_PROSE)
    assert prose.embed_text() == f"1 Introduction\n{FOOTNOTE_IN_PROSE}"
