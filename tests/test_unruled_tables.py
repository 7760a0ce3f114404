"""Tables without ruling lines become rows that read on their own, each figure named by its column's header."""

from pathlib import Path

from kb.parse import parse_pdf
from kb.table_heads import table_heads
from tests import layouts, table_layouts


def _rows(tmp_path: Path) -> list[str]:
    doc = parse_pdf(table_layouts.statement_pdf(tmp_path / "statement.pdf"), "statement", 10)
    return [ln.text for ln in doc.pages[1].lines if ln.kind == "table"]


def _table_lines(pdf: Path) -> list[str]:
    doc = parse_pdf(pdf, pdf.stem, 10)
    return [ln.text for ln in doc.pages[0].lines if ln.kind == "table"]


def test_each_row_names_its_figures_by_their_column_headers(tmp_path: Path):
    rows = _rows(tmp_path)
    assert "Net cash provided by operating activities | 2017: 2,912.9 | 2016: 2,199.7 | 2015: 1,469.5" in rows
    assert "Net income | 2017: 1,210.4 | 2016: 1,003.7 | 2015: 877.5" in rows  # currency signs left out
    assert "Changes in accounts receivable | 2017: (35.6) | 2016: (12.1) | 2015: 4.8" in rows


def test_a_header_set_just_left_of_its_figures_names_them(tmp_path: Path):
    # Years centred over "$ 2,912.9" with the sign far left end before the figures begin: still their columns.
    doc = parse_pdf(table_layouts.statement_pdf(tmp_path / "shifted.pdf", header_shift=34), "shifted", 10)
    rows = [ln.text for ln in doc.pages[1].lines if ln.kind == "table"]
    assert "Net cash provided by operating activities | 2017: 2,912.9 | 2016: 2,199.7 | 2015: 1,469.5" in rows


def test_header_section_and_wrapped_labels_stay_in_the_table(tmp_path: Path):
    rows = _rows(tmp_path)
    assert rows[:3] == ["Year Ended December 31,", "2017 | 2016 | 2015", "Operating Activities"]
    assert rows[-1] == (
        "Proceeds from the sale of businesses, net of cash sold and of transaction costs"
        " | 2017: 846.0 | 2016: 1,065.0 | 2015: 142.0"
    )


def test_the_title_above_the_table_stays_text(tmp_path: Path):
    doc = parse_pdf(table_layouts.statement_pdf(tmp_path / "statement.pdf"), "statement", 10)
    kinds = {ln.text: ln.kind for ln in doc.pages[1].lines}
    assert kinds["(in millions)"] == "text"
    assert kinds["Consolidated Statement of Cash Flows"] != "table"


def test_prose_with_figures_is_not_a_table(tmp_path: Path):
    doc = parse_pdf(layouts.draft_pdf(tmp_path / "draft.pdf"), "draft", 10)
    assert not [ln for p in doc.pages for ln in p.lines if ln.kind == "table"]


def test_column_names_set_close_together_each_name_their_own_column(tmp_path: Path):
    doc = parse_pdf(table_layouts.results_table_pdf(tmp_path / "results.pdf"), "results", 10)
    rows = [ln.text for ln in doc.pages[0].lines if ln.kind == "table"]
    assert "Lattice small | Tide: 84/83 | Surge: 71.2 | Wave: 8.5k | Mean: 79.6" in rows


def test_a_wide_tables_header_names_its_columns_once(tmp_path: Path):
    doc = parse_pdf(table_layouts.results_table_pdf(tmp_path / "wide.pdf", wide=True), "wide", 10)
    rows = [ln.text for ln in doc.pages[0].lines if ln.kind == "table"]
    assert "Lattice small | 84/83 | 71.2 | 8.5k | 79.6 | 1.1 | 2.2 | 3.3" in rows
    assert any("Tide" in row and "Fog" in row for row in rows)  # the header line, kept above the rows


def test_headers_above_group_labels_name_the_rows_and_the_table_keeps_its_head(tmp_path: Path):
    doc = parse_pdf(table_layouts.balance_sheet_pdf(tmp_path / "balance.pdf"), "balance", 10)
    lines = {ln.text: ln.kind for ln in doc.pages[0].lines}
    assert lines["Total current assets | May 31, 2020: 5,121.3 | May 26, 2019: 4,186.5"] == "table"
    assert lines["Cash and cash equivalents | May 31, 2020: 1,677.8 | May 26, 2019: 450.0"] == "table"
    # The group labels belong to the table, so a row read on its own still carries the statement's units.
    assert lines["ASSETS"] == "table" and lines["Current assets:"] == "table"
    heads = table_heads(doc.pages)
    row = next(ln for ln in doc.pages[0].lines if ln.text.startswith("Total current assets"))
    assert "(In Millions)" in [ln.text for ln in heads[id(row)]]


def test_a_header_line_opening_with_the_unit_note_names_the_columns(tmp_path: Path):
    rows = _table_lines(table_layouts.unit_note_header_pdf(tmp_path / "summary.pdf"))
    assert (
        "Revenues | FISCAL 2021: 52,310 | FISCAL 2020: 47,905 | % CHANGE: 9 % | FISCAL 2019: 45,118 | % CHANGE: 6 %"
        in rows
    )


def test_a_long_line_of_prose_over_the_columns_ends_the_header(tmp_path: Path):
    note = "Figures below are restated for the change in how the harbour segments are reported"
    doc = parse_pdf(table_layouts.unit_note_header_pdf(tmp_path / "note.pdf", note_over=note), "note", 10)
    rows = [ln.text for ln in doc.pages[0].lines if ln.kind == "table"]
    text = [ln.text for ln in doc.pages[0].lines if ln.kind == "text"]
    assert note in text and "Unaudited" in text  # the 14-word note is prose: the header ends below it
    named = "Revenues | FISCAL 2021: 52,310 | FISCAL 2020: 47,905 | % CHANGE: 9 % | FISCAL 2019: 45,118 | % CHANGE: 6 %"
    assert named in rows


def test_a_long_line_of_prose_over_the_columns_names_nothing(tmp_path: Path):
    prose = "Revenues rose in every region as the wholesale and direct businesses both grew over the year"
    doc = parse_pdf(table_layouts.unit_note_header_pdf(tmp_path / "prose.pdf", prose), "prose", 10)
    lines = [ln.text for ln in doc.pages[0].lines]
    assert prose in lines
    assert "Revenues | 52,310 | 47,905 | 9 % | 45,118 | 6 %" in lines


def test_names_set_close_together_part_at_their_wide_gap_and_a_title_names_nothing(tmp_path: Path):
    rows = _table_lines(table_layouts.results_summary_pdf(tmp_path / "summary.pdf"))
    assert (
        "Campaign expense | FISCAL 2021: 2,406 | FISCAL 2020: 2,870 | % CHANGE: -16 % | FISCAL 2019: 2,655 "
        "| % CHANGE: 8 %" in rows
    )


def test_a_statement_going_on_below_a_subtitle_keeps_the_column_names_above(tmp_path: Path):
    rows = _table_lines(table_layouts.results_summary_pdf(tmp_path / "summary.pdf"))
    assert (
        "Restructuring charges | FISCAL 2021: (120) | FISCAL 2020: (95) | % CHANGE: 26 % | FISCAL 2019: (80) "
        "| % CHANGE: 19 %" in rows
    )
    other = _table_lines(table_layouts.results_summary_pdf(tmp_path / "other.pdf", other_columns=True))
    assert "Restructuring charges | (120) | (95) | 26 %" in other  # other columns: no names to go on with


def test_a_caption_over_several_columns_is_not_cut_into_column_names(tmp_path: Path):
    rows = _table_lines(table_layouts.commitments_pdf(tmp_path / "commitments.pdf"))
    assert (
        "Performance bonds and guarantees | Total: 215 | Under 1 year: 41 | 1 to 3 years: 77 | 3 to 5 years: 3 "
        "| After 5 years: 94" in rows
    )


def test_evenly_spaced_words_over_several_columns_are_their_caption_not_their_names(tmp_path: Path):
    rows = _table_lines(table_layouts.commitments_pdf(tmp_path / "caption.pdf", total_named=False))
    row = next(r for r in rows if r.startswith("Performance bonds"))
    assert "Under 1 year: 41 | 1 to 3 years: 77 | 3 to 5 years: 3 | After 5 years: 94" in row
    assert "Amount" not in row and "commitment" not in row


def test_a_row_of_ratios_is_a_row_of_figures_not_the_names_of_the_columns_below(tmp_path: Path):
    rows = _table_lines(table_layouts.key_measures_pdf(tmp_path / "measures.pdf"))
    assert "Current ratio | 2020: 2.1:1 | 2019: 2.1:1" in rows
    assert "Days payable outstanding | 2020: 44 | 2019: 48" in rows
