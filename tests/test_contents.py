"""Contents, index and list-of-tables pages are recognised, and never give headings."""

from pathlib import Path

from kb.contents import mark_contents_pages
from kb.parse import parse_pdf
from kb.parsed import Line, Page
from tests import layouts


def _page(texts: list[str], number: int = 1) -> Page:
    return Page(number, 600, 800, [Line(t, 72, 50 + 15 * i, 400, 60 + 15 * i, size=10) for i, t in enumerate(texts)])


def test_a_contents_page_is_marked_and_gives_no_headings(tmp_path: Path):
    doc = parse_pdf(layouts.contents_pdf(tmp_path / "guide.pdf"), "guide", 10)
    assert [p.kind for p in doc.pages] == ["body", "contents", "body", "body", "body"]
    assert not [ln for ln in doc.pages[1].lines if ln.kind == "heading"]
    headings = [ln.text for p in doc.pages for ln in p.lines if ln.kind == "heading"]
    assert headings == ["1 Scope", "2 Inspection routine", "3 Load limits"]


def test_an_index_page_is_marked():
    index = _page(
        [
            "Index",
            "anchor winch, 12, 48",
            "boom angle, 7",
            "brake test, 31-33",
            "cable wear, 9, 14",
            "load chart, 22",
            "outreach, 5, 22, 40",
            "spreader, 18",
        ]
    )
    assert mark_contents_pages([index] * 1 + [_page(["filler"] * 3, n) for n in range(2, 60)]) == 1
    assert index.kind == "contents"


def test_table_rows_and_prose_are_not_contents():
    statement = _page(
        [
            "Inventories (509) (387) 57",
            "Accounts payable 408 24 148",
            "Other — net 120 256 76",
            "Accrued income taxes 134 967 101",
            "Deferred income taxes (57) 107 7",
            "Total 96 11 5",
        ]
    )
    prose = _page(
        [
            "The crane was inspected in 2019 and again in 2021.",
            "Its boom carries 40 tonnes.",
            "Wind limits apply above 20 metres per second.",
            "The spreader weighs 12",
        ]
    )
    assert mark_contents_pages([statement, prose]) == 0
