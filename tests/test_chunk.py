"""Chunk boundaries follow the page's structure; every chunk has a highlight region; contents chunks are marked."""

from pathlib import Path

import pytest

from kb.chunk import chunk_document
from kb.parse import parse_pdf
from kb.parsed import Line, Page, ParsedDocument
from tests import layouts, table_layouts


def _words(texts: list[str]) -> list[int]:
    return [len(t.split()) for t in texts]


def test_a_statement_after_a_page_break_starts_its_own_chunk(tmp_path: Path):
    doc = parse_pdf(table_layouts.statement_pdf(tmp_path / "statement.pdf"), "statement", 10)
    chunks = chunk_document(doc, _words, target=400, limit=500)
    assert [c.start_page for c in chunks] == [1, 2]
    assert chunks[1].text.startswith("Consolidated Statement of Cash Flows")


def test_a_sentence_running_over_a_page_break_stays_in_one_chunk():
    def page(number: int, texts: list[str]) -> Page:
        return Page(number, 600, 800, [Line(t, 72, 60 + 14 * i, 400, 70 + 14 * i) for i, t in enumerate(texts)])

    doc = ParsedDocument(
        "doc", "", [page(1, ["The bench is calibrated every", "week by the"]), page(2, ["duty engineer."])]
    )
    (chunk,) = chunk_document(doc, _words, target=400, limit=500)
    assert chunk.text == "The bench is calibrated every week by the duty engineer." and chunk.end_page == 2


def test_contents_chunks_are_marked_and_label_no_body_chunk(tmp_path: Path):
    doc = parse_pdf(layouts.contents_pdf(tmp_path / "guide.pdf"), "guide", 10)
    chunks = chunk_document(doc, _words, target=400, limit=500)
    kinds = {c.start_page: c.kind for c in chunks}
    assert kinds == {1: "body", 2: "contents", 3: "body", 4: "body", 5: "body"}
    assert all(c.start_page == c.end_page for c in chunks)  # no chunk straddles the contents page
    assert [c.section for c in chunks if c.start_page >= 3] == ["1 Scope", "2 Inspection routine", "3 Load limits"]


@pytest.mark.parametrize(
    "make",
    [
        layouts.draft_pdf,
        layouts.contents_pdf,
        table_layouts.statement_pdf,
        layouts.hyphenation_pdf,
        layouts.form_cover_pdf,
        layouts.paper_cover_pdf,
        layouts.symbols_pdf,
    ],
)
def test_every_chunk_has_a_highlight_region_on_its_pages(tmp_path: Path, make):
    doc = parse_pdf(make(tmp_path / "doc.pdf"), "doc", 10)
    chunks = chunk_document(doc, _words, target=60, limit=80)
    assert chunks
    for c in chunks:
        assert c.regions, c.text
        assert {r.page for r in c.regions} <= set(range(c.start_page, c.end_page + 1))
        for r in c.regions:
            assert 0 <= r.x0 < r.x1 <= r.width and 0 <= r.top < r.bottom <= r.height


def test_a_chunk_opening_with_a_run_of_headings_is_labelled_by_the_last():
    lines = [
        Line("Harbour Ferries and Subsidiaries", 72, 60, 300, 72, 12, True, "heading", 2),
        Line("Consolidated Balance Sheet", 72, 76, 300, 88, 12, True, "heading", 2),
        Line("Cash and equivalents | 2021: 1,200 | 2020: 1,050", 72, 100, 500, 110, 10, False, "table"),
    ]
    doc = ParsedDocument("d", "Title", [Page(1, 612, 792, lines)])
    (chunk,) = chunk_document(doc, _words)
    assert chunk.section == "Consolidated Balance Sheet"


def test_a_heading_under_a_pages_title_like_opening_labels_the_chunk():
    # The company's name (set like text) over the statement's title: the chunk is the statement's, not the section
    # in force before the page.
    def line(text: str, top: int, kind: str = "text", level: int = 0) -> Line:
        return Line(text, 72, top, 400, top + 10, 10, kind == "heading", kind, level)

    earlier = [line("Statements of Cash Flows", 60, "heading", 1)] + [
        line(f"Cash paid for item {i} | 2021: {i} | 2020: {i}", 80 + 14 * i, "table") for i in range(8)
    ]
    page = [
        line("Harbour Ferries Inc.", 60),
        line("Statements of Operations", 76, "heading", 1),
        line("Ticket sales | 2021: 1,200 | 2020: 1,050", 100, "table"),
        line("Fuel costs | 2021: 400 | 2020: 380", 114, "table"),
    ]
    doc = ParsedDocument("d", "Title", [Page(1, 612, 792, earlier), Page(2, 612, 792, page)])
    chunks = chunk_document(doc, _words, target=150, limit=200, min_tokens=12)
    labels = [(c.start_page, c.section) for c in chunks]
    assert labels == [(1, "Statements of Cash Flows"), (2, "Statements of Operations")]
    # Under running text a heading closes the chunk instead, and the text before it keeps its own section.
    sentence = "Harbour Ferries carried {} thousand people on the river this year."
    long_opening = [line(sentence.format(i), 60 + 14 * i) for i in range(3)]
    doc = ParsedDocument("d", "Title", [Page(1, 612, 792, earlier[:1] + long_opening + page[1:])])
    chunks = chunk_document(doc, _words, target=200, limit=300, min_tokens=12)
    assert [c.section for c in chunks] == ["Statements of Cash Flows", "Statements of Operations"]


def test_a_chunk_opening_inside_a_table_carries_its_title_units_and_column_headers(tmp_path: Path):
    doc = parse_pdf(table_layouts.statement_pdf(tmp_path / "statement.pdf"), "statement", 10)
    table = [c for c in chunk_document(doc, _words, target=12, limit=30) if c.start_page == 2]
    assert len(table) > 2
    # The chunk holding the title and the column headers carries nothing; the later ones carry exactly the head:
    # the title, the units, the column headers; not the group label "Operating Activities" that heads only
    # the rows below it.
    assert table[0].head == "" and table[0].text.startswith("Consolidated Statement of Cash Flows")
    head = "Consolidated Statement of Cash Flows\n(in millions)\nYear Ended December 31,\n2017 | 2016 | 2015"
    assert all(c.head == head for c in table[1:])
    assert all(c.head == "" for c in chunk_document(doc, _words, target=12, limit=30) if c.start_page == 1)
