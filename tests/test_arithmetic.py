from __future__ import annotations

from agent.arithmetic import computed, figures, number
from agent.verify import check_citations

STATEMENT = {
    "key": "c1",
    "text": "Total net sales | 2017: 177,866 | 2016: 135,987\nUnearned sales | 2017: 738 | 2016: 1,955\n"
    "Net income | 2017: 3,033 | 2016: (2,371)",
}
BALANCE = {"key": "c2", "text": "Total current assets | 2016: 1,001.5\nTotal current liabilities | 2016: 500.75"}


def test_printed_figures_read_as_numbers() -> None:
    assert [number(t) for t in ("1,577", "(1,577)", "$ 2,912.9", "12.5%", "—", "n/a")] == [
        1577,
        -1577,
        2912.9,
        12.5,
        None,
        None,
    ]
    assert [(f.label, f.year, f.value) for f in figures([BALANCE])] == [
        ("Total current assets", "2016", 1001.5),
        ("Total current liabilities", "2016", 500.75),
    ]


def test_a_change_in_percent_between_two_years_of_one_row() -> None:
    sentence = computed("What is the change in total net sales from FY2016 to FY2017 in percent?", [STATEMENT])
    assert sentence == "Total net sales: 2016 135,987, 2017 177,866; change +30.8% (computed). [c1]"
    yoy = computed("What was the year-over-year growth rate of net income in 2017?", [STATEMENT])
    assert yoy is not None and "change +227.9% (computed)" in yoy  # from a loss of 2,371 to 3,033


def test_a_ratio_the_question_defines_from_two_rows_of_the_year() -> None:
    question = (
        "What is the FY2016 current ratio? Define it as total current assets divided by total current liabilities."
    )
    assert computed(question, [BALANCE]) == (
        "Total current assets 2016: 1,001.5; Total current liabilities 2016: 500.75; "
        "Total current assets / Total current liabilities = 2.00 (computed). [c2]"
    )


def test_no_figure_is_computed_from_a_loose_label_or_a_formula_with_arithmetic_of_its_own() -> None:
    # "sales" alone is half of "Unearned sales": not enough to take that row for the asked figure.
    assert computed("What is the change in sales from 2016 to 2017 in percent?", [STATEMENT]) is None
    question = "What is the ratio? It is defined as: 365 * (total current assets) / (total current liabilities)."
    assert computed(question, [BALANCE]) is None
    assert computed("What were total net sales in 2017?", [STATEMENT]) is None  # nothing to compute


def test_verification_checks_the_inputs_and_sets_the_computed_clause_aside() -> None:
    sentence = computed("What is the change in total net sales from FY2016 to FY2017 in percent?", [STATEMENT])
    record = check_citations(sentence, [STATEMENT], 0.9)
    assert record["refusal_reason"] is None and record["sentences"][0]["support"] == 1.0
