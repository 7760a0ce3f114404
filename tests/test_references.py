"""Reference lists are recognised by their heading or by the density of their entries, not by one stray link; a
citation line by a venue or a link."""

from kb import lexical
from kb.lexical import LexicalIndex
from kb.models import Chunk
from kb.references import LABEL, is_citation, is_reference_list

ENTRIES = (
    "[12] A. Author, B. Author. Deep things. In Proceedings of the Conference on Things, 2020. "
    "[13] C. Author. More things. arXiv preprint arXiv:2001.00001, 2020. "
    "[14] D. Author. Other things. Journal of Things, vol. 3, pp. 1-9, 2019."
)
APA = (
    "Smith, J., & Doe, A. (2019). Deep things. Journal of Things, 3, 1-9. "
    "Brown, K. (2020). More things. In Proceedings of the Workshop on Things (pp. 4-7). "
    "Green, L. (2021). Other things. Transactions on Things, 12, 88-99."
)
# Numbered entries closing "..., 2022, pp. 1-9." and an author list running on from the previous chunk.
NUMBERED = (
    '[57] A. Zeng, X. Liu, Z. Du, Z. Wang, H. Lai et al., "A model of things," arXiv preprint arXiv:2210.00001, 2022. '
    "[58] (2022) Things are being tested. [Online]. Available: https://example.org/things "
    '[59] T. Mihaylov, P. Clark, and A. Sabharwal, "Can armour conduct?" in Proceedings of the Conference on '
    "Things, 2018, pp. 2381-2391."
)
AUTHORS = (
    "X. Garcia, V. Misra, K. Robinson, L. Fedus, D. Zhou, D. Ippolito, D. Luan, H. Lim, B. Zoph, A. Spiridonov, "
    "R. Sepassi, D. Dohan, S. Agrawal, M. Omernick, A. M. Dai, T. S. Pillai, M. Pellat, A. Lewkowycz, E. Moreira"
)
SIGNATURES = "/s/ JOHN W. ROGERS, JR. John W. Rogers, Jr. Director July 23, 2019 /s/ A. B. Smith, Director"
FOOTNOTE_IN_PROSE = (
    "Large models store facts in their parameters, and we measure how often each fact appears in the training "
    "data. 1 University of Somewhere. Correspondence to: someone@example.org. Proceedings of the 40th "
    "International Conference on Learning, 2023. We find a strong correlation between how often a fact is seen "
    "and how well it is recalled, which holds across model sizes and training sets."
)


def test_under_a_reference_heading_one_entry_mark_is_enough():
    assert is_reference_list("8 Conclusion > References", ENTRIES)
    assert is_reference_list("Bibliography", "Doe, A., and Roe, B. Counting sheep.")  # initials: an author list
    # A running header detected as a sub-heading of the list.
    assert is_reference_list("References > Some Paper Title 10", "Smith, J. and Doe, A. A study. arXiv, 2021.")
    # An appendix the parser filed under the list, with no entry marks, is not one.
    assert not is_reference_list("References > Some Paper Title 12", "Part I Appendix: the full prompts we used.")
    assert not is_reference_list("2 Related work", "We build on earlier work on references in prose.")


def test_entries_without_a_heading_are_recognised_but_a_footnote_in_prose_is_not():
    assert is_reference_list("", ENTRIES)
    assert is_reference_list("3 Results", ENTRIES)
    assert is_reference_list("", APA)
    assert not is_reference_list("1 Introduction", FOOTNOTE_IN_PROSE)
    assert not is_reference_list("1 Introduction", "See https://example.org/code for the code and the data.")


def test_numbered_entries_and_author_runs_are_recognised_but_a_signature_block_is_not():
    assert is_reference_list("0-shot results", NUMBERED)  # a heading the parser took from a table
    assert is_reference_list("0-shot results", AUTHORS)  # no venue, no year: a run of names
    assert not is_reference_list("Signatures", SIGNATURES)
    assert not is_reference_list("2 Method", "We follow A. Smith, who extends the work of B. Jones, closely.")


def test_a_reference_chunk_is_embedded_as_its_label():
    def chunk(section: str, text: str) -> Chunk:
        return Chunk(chunk_id="d:1", doc_id="d", ordinal=1, start_page=9, end_page=9, section=section, text=text)

    assert chunk("7 Conclusion > References", ENTRIES).embed_text() == "7 Conclusion > References"
    assert chunk("7 Conclusion > References > Running Header 9", ENTRIES).embed_text() == "7 Conclusion > References"
    # Found by density under another heading: neither that heading nor the entries, a plain label.
    assert chunk("3 Results", ENTRIES).embed_text() == chunk("", ENTRIES).embed_text() == LABEL
    prose = chunk("1 Introduction", FOOTNOTE_IN_PROSE)
    assert prose.embed_text() == f"1 Introduction\n{FOOTNOTE_IN_PROSE}"


def test_the_lexical_index_lists_its_reference_chunks_and_keeps_the_list_when_saved(tmp_path, monkeypatch):
    def record(n: int, section: str, text: str) -> dict:
        return {"chunk_id": f"d:{n}", "doc_id": "d", "ordinal": n, "title": "", "section": section, "text": text}

    def unread(*_: object) -> bool:
        raise AssertionError("the saved list is read, not found again")

    records = [record(1, "1 Introduction", FOOTNOTE_IN_PROSE), record(2, "References", ENTRIES), record(3, "", APA)]
    LexicalIndex(records, "fp").save(tmp_path / "lexical")
    listed = tmp_path / "lexical" / "references.json"
    with monkeypatch.context() as patched:
        patched.setattr(lexical, "is_reference_list", unread)
        assert LexicalIndex.load(tmp_path / "lexical").references == {"d:2", "d:3"}
    listed.unlink()  # an index saved before the list was kept: found on first use, then kept
    assert LexicalIndex.load(tmp_path / "lexical").references == {"d:2", "d:3"}
    with monkeypatch.context() as patched:
        patched.setattr(lexical, "is_reference_list", unread)
        assert LexicalIndex.load(tmp_path / "lexical").references == {"d:2", "d:3"}
    # A list left by another index (another set of documents) is not read.
    LexicalIndex(records[:2], "other").save(tmp_path / "other")
    (tmp_path / "lexical" / "references.json").write_text((tmp_path / "other" / "references.json").read_text())
    assert LexicalIndex.load(tmp_path / "lexical").references == {"d:2", "d:3"}


def test_a_citation_line_names_a_venue_or_a_link_and_a_sentence_about_urls_is_none() -> None:
    """A bibliography line is a citation; a short sentence of a page about URLs saying "URL" is a statement."""
    assert is_citation("Qz, A. and Zorb, B. Gates at scale. In Proceedings of the Harbour Conference, 2021.")
    assert is_citation("Gate tables are listed at https://qz.example.org/gates.")
    assert not is_citation("auth {boolean} true if the serialized URL string should include the password.")
    assert not is_citation("A URL string is a structured string containing several parts.")
