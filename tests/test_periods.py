"""Periods as questions and tables write them: years, fiscal years, the years a text names and its ranges."""

from __future__ import annotations

from kb.periods import is_period, join_periods, period_year, years_named, years_spanned


def test_period_year_reads_plain_and_fiscal_years() -> None:
    assert [period_year(t) for t in ("2019", "FY2019", "FY19", "fy'19", "fiscal", "20191", "FY123")] == [
        "2019",
        "2019",
        "2019",
        "2019",
        "",
        "",
        "",
    ]


def test_periods_are_read_by_their_year() -> None:
    assert join_periods("revenue in FY 2023 and FY 21, not FY 123") == "revenue in FY2023 and FY21, not FY 123"
    assert all(is_period(t) for t in ("2023", "FY2023", "fy23", "FY2023Q1", "2023Q2", "Q2", "H1", "FY"))
    assert not any(is_period(t) for t in ("GPT-3", "Q5", "FY2023X", "EBITDA", ""))
    assert [period_year(t) for t in ("FY2023Q1", "FY19", "Q2", "2021")] == ["2023", "2019", "", "2021"]


def test_years_named_are_in_the_order_the_text_names_them() -> None:
    assert years_named("the FY2020 - FY 2019 change, not the 20 largest, in 2020") == ["2020", "2019"]


def test_years_spanned_fill_in_a_range_but_not_two_years_named_apart() -> None:
    assert years_spanned("the three year average from FY2016 to FY2018") == ["2016", "2018", "2017"]
    assert years_spanned("the FY2019 - FY 2021 average") == ["2019", "2021", "2020"]
    assert years_spanned("FY2018-FY2020") == ["2018", "2019", "2020"]
    assert years_spanned("FY2017-18") == ["2017", "2018"]
    assert years_spanned("2018-2019-2020") == ["2018", "2019", "2020"]
    assert years_spanned("FY2018-FY2016") == ["2016", "2017", "2018"]  # however the range runs
    assert years_spanned("the three-year average between 2016 and 2018") == ["2016", "2018", "2017"]
    # Two years compared, not a range: "between ... and" or "to" without an average or a span of years.
    assert years_spanned("the difference in sales between 2016 and 2018") == ["2016", "2018"]
    assert years_spanned("compare sales in FY2016 to FY2018") == ["2016", "2018"]
    assert years_spanned("sales in 2016 and 2018") == ["2016", "2018"]
    assert years_spanned("pages 10-12") == []
    assert years_spanned("from 1990 to 2020") == ["1990", "2020"]  # wider than a table's run of columns
