"""Contents, index and list-of-tables pages are recognised, and never give headings."""

from pathlib import Path

from kb.contents import mark_contents_pages
from kb.parse import parse_pdf
from kb.parsed import Line, Page
from tests import layouts
from tests.searching import pages_by_setting


def _line(text: str, top: float, gap: float = 3.0) -> Line:
    """A line of 10 pt words, its last word `gap` points after the one before."""
    words, x = [], 72.0
    parts = text.split()
    for n, part in enumerate(parts):
        if n == len(parts) - 1:
            x += gap - 3.0
        words.append((x, top, x + 6.0 * len(part), top + 10, part))
        x += 6.0 * len(part) + 3.0
    return Line(text, words[0][0], top, words[-1][2], top + 10, size=10, words=words)


def _page(texts: list[str], number: int = 1, gap: float = 3.0) -> Page:
    return Page(number, 600, 800, [_line(t, 50 + 15 * i, gap) for i, t in enumerate(texts)])


def _document(page: Page, pages: int = 200) -> list[Page]:
    """The page in a long document, so page numbers up to a few hundred are plausible."""
    return [page] + [
        _page([f"Filler text of page {n}.", "More filler text.", "Last filler line."], n) for n in range(2, pages)
    ]


def test_a_contents_page_is_marked_and_gives_no_headings(tmp_path: Path):
    doc = parse_pdf(layouts.contents_pdf(tmp_path / "guide.pdf"), "guide", 10)
    assert [p.kind for p in doc.pages] == ["body", "contents", "body", "body", "body"]
    assert not [ln for ln in doc.pages[1].lines if ln.kind == "heading"]
    headings = [ln.text for p in doc.pages for ln in p.lines if ln.kind == "heading"]
    assert headings == ["1 Scope", "2 Inspection routine", "3 Load limits"]


def test_entries_with_page_numbers_in_a_column_of_their_own_make_a_contents_page():
    entries = ["Scope 3", "Inspection routine 4", "Daily checks 4", "Load limits 9", "Wind limits 12", "Index 30"]
    assert mark_contents_pages(_document(_page(entries, gap=120))) == 1
    assert mark_contents_pages(_document(_page(entries, gap=3))) == 0  # the same words run on: prose


def test_an_index_page_is_marked():
    index = _page(
        [
            "Index",
            "anchor winch, 12, 48",
            "boom angle, 7, 9",
            "brake test, 31-33",
            "cable wear, 9, 14",
            "load chart, 22, 40",
            "outreach, 5, 22, 40",
            "spreader, 18, 19",
        ]
    )
    assert mark_contents_pages(_document(index)) == 1 and index.kind == "contents"


def test_table_rows_and_prose_are_not_contents():
    statement = _page(
        [
            "Inventories (509) (387) 5",
            "Accounts payable 408 24 7",
            "Other — net 120 256 9",
            "Accrued income taxes 134 967 12",
            "Deferred income taxes (57) 107 15",
            "Total 96 11 20",
        ],
        gap=40,
    )
    assert mark_contents_pages(_document(statement)) == 0  # numbers in order in a column, but after figures
    prose = _page(
        [
            "The tide rose by 2",
            "and again by 3",
            "Readings at station 4",
            "Station 5",
            "Station 6",
            "The civil works end in April",
        ]
    )
    assert mark_contents_pages(_document(prose)) == 0


def test_an_index_titled_with_a_qualifier_or_continued_without_title_is_marked():
    names = ["anchor winch", "boom angle", "brake test", "cable wear", "jib length", "load chart", "outreach"]
    pages = [30, 7, 31, 9, 14, 22, 5]  # an index lists its entries alphabetically, not by page
    entries = [f"{name} . . . . . . . . . . {page}" for name, page in zip([*names, "spreader"], [*pages, 18])]
    titled = _page(["Concept Index", *entries[:6]])
    assert mark_contents_pages(_document(titled)) == 1 and titled.kind == "contents"
    continued = _page(entries)  # no title, eight entries with leaders in alphabetical order
    assert mark_contents_pages(_document(continued)) == 1 and continued.kind == "contents"


def test_a_statement_with_leader_dots_is_not_an_index():
    rows = ["Net sales", "Cost of sales", "Gross profit", "Selling expenses", "Operating profit", "Interest", "Taxes"]
    figures = [41, 12, 29, 8, 33, 17, 25, 6]  # rows in the statement's order: neither alphabetical nor by page
    statement = _page([f"{row} . . . . . . . . . . {n}" for row, n in zip([*rows, "Net profit"], figures)])
    assert mark_contents_pages(_document(statement, pages=20)) == 0


def test_a_contents_page_stays_searchable_but_ranks_below_the_page_it_points_to(tmp_path: Path):
    guide = layouts.contents_pdf(tmp_path / "guide.pdf")
    pages = pages_by_setting(tmp_path, guide, "daily checks inspection routine", 4, "contents_factor", (1.0, 0.5))
    assert 2 in pages[0.5] and pages[0.5].index(4) < pages[0.5].index(2)
    assert pages[1.0].index(2) < pages[1.0].index(4)  # as found, the contents page led
