"""Headings: bold by the font's name, and no sections from a cover (a title's lines, a form's fields)."""

from pathlib import Path

from kb.headings import heading_shape
from kb.parse import parse_pdf
from tests import layouts, table_layouts


def _headings(doc) -> list[tuple[int, str]]:
    return [(p.number, ln.text) for p in doc.pages for ln in p.lines if ln.kind == "heading"]


def test_a_forms_cover_gives_no_sections(tmp_path: Path):
    doc = parse_pdf(layouts.form_cover_pdf(tmp_path / "form.pdf"), "form", 10)
    assert doc.card.form_cover == 1
    assert [h for h in _headings(doc) if h[0] == 1] == []


def test_the_title_lines_are_not_sections(tmp_path: Path):
    doc = parse_pdf(layouts.paper_cover_pdf(tmp_path / "paper.pdf"), "paper", 10)
    assert not [h for h in _headings(doc) if h[1] in doc.title]


def test_bold_headings_are_found_by_the_fonts_name(tmp_path: Path):
    doc = parse_pdf(layouts.contents_pdf(tmp_path / "guide.pdf"), "guide", 10)  # Helvetica-Bold headings
    assert (3, "1 Scope") in _headings(doc)


def test_heading_shape_rejects_rows_addresses_and_separators():
    assert heading_shape("2.1 Daily checks") and heading_shape("Results for 2019")
    assert not heading_shape("Net sales 14,544")  # a label and its figure
    assert not heading_shape("OR") and not heading_shape("N/A")
    assert not heading_shape("The crane was inspected before the shift.")


def test_a_title_over_a_tables_unit_note_is_a_heading(tmp_path: Path):
    doc = parse_pdf(table_layouts.statement_pdf(tmp_path / "statement.pdf"), "statement", 10)
    assert (2, "Consolidated Statement of Cash Flows") in _headings(doc)  # "(in millions)" is no form caption


def test_a_statements_title_over_the_companys_name_is_the_heading(tmp_path: Path):
    doc = parse_pdf(layouts.named_statements_pdf(tmp_path / "filing.pdf"), "filing", 10)
    assert doc.card.organisation == "Harbour Ferries Inc."
    headings = _headings(doc)
    assert (2, "Consolidated Balance Sheets") in headings and (3, "Consolidated Statements of Cash Flows") in headings
    assert (4, "Consolidated Statements of Income") in headings  # cut from the name on its line
    assert not [h for h in headings if h[1].startswith("Harbour Ferries")]  # the name labels nothing
    assert not [h for h in headings if h[0] == 5]  # "1.5 Company means Harbour Ferries Inc." is no title
