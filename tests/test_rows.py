"""agent.rows: a table row's cells, the columns a question asks for, and whose entry a row is."""

from __future__ import annotations

from agent.rows import about_another_member, cell_parts, row_for_columns, row_for_periods
from kb.text import tokenize


def test_a_row_keeps_its_label_and_the_columns_of_the_years_asked() -> None:
    row = "Purchases of equipment | 2018: (1,577) | 2017: (1,373) | 2016: (1,420)"
    assert row_for_periods(row, ["2018"]) == "Purchases of equipment | 2018: (1,577)"
    assert row_for_periods(row, ["2015"]) == row  # no column of that year: the whole row
    assert row_for_periods("Total equity |  |  | 7,577", []) == "Total equity | 7,577"
    # A cell is named "header: value"; a ratio ("2.1:1") is a value, not a header "2.1" and a value "1".
    assert cell_parts("2019: 2.1:1") == ("2019", "2.1:1") and cell_parts("2.1:1") is None


SIZES = "ZX-9-768 | seal key: 1,184 | bore key: 2,400 | casing: 1,088 | spare key: 32"


def test_a_row_is_cut_to_the_columns_the_question_names() -> None:
    assert row_for_columns(SIZES, set(tokenize("What is the casing size of ZX-9-768?"))) == "ZX-9-768 | casing: 1,088"
    assert row_for_columns(SIZES, set(tokenize("What are the bore key and casing sizes?"))) == SIZES  # "key": all
    assert row_for_columns(SIZES, set(tokenize("How large is the ZX-9-768?"))) == SIZES  # no column named
    # The label's own words name no column: the word "casing" of the casing row does not cut it to one column.
    casing = "Casing | casing: 3 | seal: 4"
    assert row_for_columns(casing, set(tokenize("What are the casing figures?"))) == casing


def test_a_row_about_another_member_of_the_family_asked_about_answers_nothing() -> None:
    assert about_another_member("ZX-9-512 | casing: 768", ["ZX-9-768"])
    assert not about_another_member("ZX-9-768 | casing: 1,088", ["ZX-9-768"])
    assert not about_another_member("ZX-9-512 and ZX-9-768 | casing: 768", ["ZX-9-768"])  # names the one asked
    assert not about_another_member("QR-7-512 | casing: 768", ["ZX-9-768"])  # another family: not a sibling
    assert not about_another_member("Net sales | 2019: 1,577", ["ZX-9-768"])
    assert not about_another_member("ZX-9-512 | casing: 768", [])
    assert not about_another_member("ZX-9-512 | casing: 768", ["ZX-9-based"])  # "-based" names no member
    assert not about_another_member("| | |", ["ZX-9-768"])  # a row of empty cells
