"""The document index: normalised years and identifiers, naming words, and documents preferred by search."""

import pytest

from kb.base import KnowledgeBase
from kb.documents import DocumentIndex, document_terms, naming_words, own_name, own_name_terms
from kb.models import DocumentRecord
from kb.settings import KBSettings
from tests.layouts import annual_filing_pdf


def test_years_and_identifiers_match_however_written():
    assert "2019" in document_terms("FY2019") and "2019" in document_terms("fiscal 2019")
    assert "2019" in document_terms("FY19")
    assert {"ab123"} <= document_terms("AB 12-3") & document_terms("AB12-3") & document_terms("AB 12.3")


def test_naming_words_are_capitalised_past_the_first_or_hold_a_digit():
    assert naming_words("What did Harbour Ferries carry in FY2020?") == "| | Harbour Ferries | | FY2020?"


def _record(doc_id: str, title: str, period: str = "") -> DocumentRecord:
    return DocumentRecord(
        doc_id=doc_id, content_hash="x", status="committed", source="", title=title, period=period, ingested_at=0.0
    )


def test_a_document_named_by_its_organisation_and_year_ranks_first_and_says_why():
    docs = [
        _record("a20", "Harbour Ferries Annual Filing", "year ended December 31, 2020"),
        _record("a21", "Harbour Ferries Annual Filing", "year ended December 31, 2021"),
        _record("b21", "Upland Rail Annual Filing", "year ended December 31, 2021"),
        _record("c19", "Canal Barges Annual Filing", "year ended December 31, 2019"),
        _record("d18", "Valley Trams Annual Filing", "year ended December 31, 2018"),
    ]
    index = DocumentIndex(docs, {"b21": "Upland Rail runs the valley line."}, 0.3, 0.5, 0.5, 4)
    matches = index.match("How many crossings did Harbour Ferries make in FY2021?", 4)
    assert matches[0].doc_id == "a21" and matches[0].score == 1.0
    assert set(matches[0].terms) == {"harbour", "ferri", "2021"}
    assert matches[1].doc_id == "a20" and matches[1].score < 0.8  # the organisation, not the year
    assert index.match("how many crossings were made?", 4) == []  # words of no card name no document
    assert index.match("Which filing covers the Valley line?", 4)[0].doc_id == "d18"  # its card beats a first page
    assert [m.doc_id for m in index.match("Which rail line runs on Upland?", 4)] == ["b21"]  # a first page names it


def test_a_word_written_twice_names_a_document_once():
    docs = [_record("qz", "qzsh command shell"), _record("src", "sources.list data sources")]
    index = DocumentIndex(docs, {}, 0.3, 0.5, 0.5, 4)
    once = index.match("Does a list of commands run in a subshell?", 4)[0].strength
    assert index.match("(list) or { list; }: which one runs in a subshell?", 4)[0].strength == once


def test_a_title_opening_with_a_short_name_makes_it_the_documents_own():
    assert own_name("QUILL: Fast Ledgers for Small Ports", 4) == "QUILL"
    assert own_name("Inkwell, a lighter version of QUILL: smaller and cheaper", 4) == "Inkwell"
    assert own_name("Harbour Ferries Annual Filing", 4) == ""  # no name before a colon or comma
    assert own_name("A study of ledgers kept at the ports: methods", 4) == ""  # too long to be a name
    docs = [
        _record("quill", "QUILL: Fast Ledgers for Small Ports"),
        _record("inkwell", "Inkwell, a lighter version of QUILL"),
        _record("ledger", "Ledgers at Scale: Lessons from QUILL"),
        _record("tides", "Tide Tables of the Eastern Coast"),
    ]
    index = DocumentIndex(docs, {}, 0.3, 0.5, 0.5, 4)
    first, *others = index.match("Which sizes does QUILL report?", 4)
    assert first.doc_id == "quill" and all(m.score < 0.85 for m in others)  # the others only mention it
    plain = DocumentIndex(docs, {}, 0.3, 0.5, 0.5, 0)  # turned off: every title holding the word ties
    assert [m.score for m in plain.match("Which sizes does QUILL report?", 4)] == [1.0, 1.0, 1.0]
    both = index.match("How does Inkwell differ from QUILL?", 4)
    assert {m.doc_id for m in both[:2]} == {"quill", "inkwell"}
    filing = _record("hf20", "Harbour Ferries, Annual Filing, year ended 2020").model_copy(
        update={"organisation": "Harbour Ferries"}
    )
    assert own_name_terms(filing, 4) == set()  # who filed it names all their filings alike


def test_a_question_naming_two_years_prefers_the_period_ending_in_the_later():
    docs = [
        _record("a20", "Harbour Ferries Annual Filing", "year ended December 31, 2020"),
        _record("a21", "Harbour Ferries Annual Filing", "year ended December 31, 2021"),
        _record("b19", "Upland Rail Annual Filing", "year ended December 31, 2019"),
    ]
    # the earlier filing prints the later year on its first page (it was filed then)
    index = DocumentIndex(docs, {"a20": "Filed with the registry in March 2021."}, 0.3, 0.5, 0.5, 4)
    for question in [
        "How did Harbour Ferries' crossings change between FY2020 and FY2021?",
        "How did Harbour Ferries' crossings change between FY2021 and FY2020?",
    ]:
        first, second = index.match(question, 3)[:2]
        assert (first.doc_id, second.doc_id) == ("a21", "a20") and second.score < 0.85
        assert "2021" in first.terms and "2020" in second.terms
    even = DocumentIndex(docs, {"a20": "Filed with the registry in March 2021."}, 0.3, 0.5, 1.0, 4)
    assert even.match("Harbour Ferries crossings in FY2020 and FY2021?", 2)[1].score == 1.0  # the knob decides


def test_a_quarter_and_a_year_named_apart_match_a_quarter_named_in_a_file_name():
    docs = [
        _record("HF_2021Q2_REPORT", "Harbour Ferries Quarterly Report", "quarter ended June 30, 2021"),
        _record("HF_2021Q3_REPORT", "Harbour Ferries Quarterly Report", "quarter ended September 30, 2021"),
        _record("HF_2020Q3_REPORT", "Harbour Ferries Quarterly Report", "quarter ended September 30, 2020"),
    ]
    index = DocumentIndex(docs, {}, 0.3, 0.5, 0.5, 4)
    first = index.match("What did Harbour Ferries carry in Q3 of FY2021?", 3)[0]
    assert first.doc_id == "HF_2021Q3_REPORT" and "2021q3" in first.terms


@pytest.fixture(scope="module")
def filings(tmp_path_factory: pytest.TempPathFactory) -> KnowledgeBase:
    root = tmp_path_factory.mktemp("filings")
    folder = root / "docs"
    folder.mkdir()
    for name, organisation, year in [
        ("ferries_2020", "Harbour Ferries", 2020),
        ("ferries_2021", "Harbour Ferries", 2021),
        ("barges_2021", "Canal Barges", 2021),
    ]:
        annual_filing_pdf(folder / f"{name}.pdf", organisation, year)
    kb = KnowledgeBase(KBSettings(store_dir=root / "store", parse_workers=1))
    assert not kb.ingest([folder]).failed
    return kb


def _statement(kb: KnowledgeBase, year: int):
    """The first statement page (page 3, identical in every filing) among the hits for a question naming a year."""
    hits = kb.search(f"How many passenger crossings did Harbour Ferries complete in FY{year}?", k=6)
    return next(h for h in hits if h.start_page == 3)


@pytest.mark.parametrize("year", [2020, 2021])
def test_search_prefers_the_filing_of_the_year_the_question_names(filings: KnowledgeBase, year: int):
    hit = _statement(filings, year)
    assert hit.doc_id == f"ferries_{year}"
    assert hit.document_score == 1.0 and str(year) in hit.document_terms  # why, for the evidence panel


def test_without_document_preference_the_two_years_rank_alike_by_rank_but_not_by_score(filings: KnowledgeBase):
    def plain(fusion: str) -> KnowledgeBase:
        search = filings.settings.search.model_copy(update={"document_weight": 0.0, "fusion": fusion})
        return KnowledgeBase(filings.settings.model_copy(update={"search": search}))

    # Fused by rank, the identical statement pages read alike; fused by score, the year in each chunk's title
    # header lifts its BM25 score by a margin ranks hide.
    assert len({_statement(plain("ranks"), year).doc_id for year in (2020, 2021)}) == 1
    assert {year: _statement(plain("scores"), year).doc_id for year in (2020, 2021)} == {
        2020: "ferries_2020",
        2021: "ferries_2021",
    }
    assert all(h.document_score is None for h in plain("scores").search("Harbour Ferries crossings in FY2020", k=3))


def test_an_instruction_wrapped_question_finds_what_the_plain_one_finds(filings: KnowledgeBase):
    wrapped = filings.search(
        "Assume you are a transport analyst. Answer the question by relying on the details shown in the statement "
        "of ferry operations: how many passenger crossings did Canal Barges complete? Round to a whole number.",
        k=1,
    )[0]
    assert (wrapped.doc_id, wrapped.start_page) == ("barges_2021", 3)
    reading = filings.read_query("Please tell me, what is the fleet size? Answer in one word.")
    assert reading.need == "tell me, what is the fleet size?"
