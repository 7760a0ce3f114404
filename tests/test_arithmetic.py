from __future__ import annotations

from agent.arithmetic import computed, figures, in_scale, label_share, missing_operands, number, stated_scale
from agent.extractive import compose
from agent.settings import AnswerSettings
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


def test_the_rows_a_stated_ratio_lacks_for_its_year_are_what_to_search_for() -> None:
    question = (
        "What is the FY2016 current ratio? Define it as total current assets divided by total current liabilities."
    )
    liabilities = {"key": "c3", "text": "Total current liabilities | 2016: 500.75 | 2015: 480.0"}
    assert missing_operands(question, [liabilities]) == ["total current assets 2016"]
    assert missing_operands(question, []) == ["total current assets 2016", "total current liabilities 2016"]
    assert missing_operands(question, [BALANCE]) == []  # both rows at hand
    assert missing_operands("What is the current ratio in 2016?", []) == []  # no formula stated
    two_years = "What is the ratio of total current assets to total current liabilities in 2016 and 2017?"
    assert missing_operands(two_years, []) == []  # a ratio is computed for one year


def test_label_share_is_how_much_of_a_rows_label_the_question_holds() -> None:
    question = "What is the year end FY2018 amount of accounts payable?"
    assert label_share("Accounts payable | 2018: 303", question) == 1.0
    assert label_share("Total stockholders' equity | 2018: 6,512", question) == 0.0
    assert label_share("Accounts receivable | 2018: 12", question) == 0.5


def test_no_figure_is_computed_from_a_loose_label_or_a_formula_with_arithmetic_of_its_own() -> None:
    # "sales" alone is half of "Unearned sales": not enough to take that row for the asked figure.
    assert computed("What is the change in sales from 2016 to 2017 in percent?", [STATEMENT]) is None
    question = "What is the ratio? It is defined as: 365 * (total current assets) / (total current liabilities)."
    assert computed(question, [BALANCE]) is None
    assert computed("What were total net sales in 2017?", [STATEMENT]) is None  # nothing to compute


def test_verification_checks_the_inputs_and_sets_the_computed_clause_aside() -> None:
    sentence = computed("What is the change in total net sales from FY2016 to FY2017 in percent?", [STATEMENT])
    record = check_citations(sentence, [STATEMENT], 0.9, computed=True)
    assert record["refusal_reason"] is None and record["sentences"][0]["support"] == 1.0
    # Only the clause as the extractive answer writes it is set aside, and only when asked (never for an LLM).
    assert check_citations(sentence, [STATEMENT], 0.9)["refusal_reason"] == "unsupported_answer"
    made_up = "Total net sales were 135,987 in 2016; so the firm tripled its staff (computed). [c1]"
    assert check_citations(made_up, [STATEMENT], 0.9, computed=True)["refusal_reason"] == "unsupported_answer"


def test_a_row_is_taken_only_when_its_label_and_the_asked_phrase_name_the_same_thing() -> None:
    revenue = {"key": "c1", "text": "Revenue | 2019: 1,200 | 2018: 1,000"}
    assert computed("What is the change in cost of revenue from 2018 to 2019 in percent?", [revenue]) is None
    totals = {"key": "c1", "text": "Total assets | 2019: 10 | 2018: 9\nTotal liabilities | 2019: 5 | 2018: 4"}
    question = "In 2019, what is the ratio of total current assets to total current liabilities?"
    assert computed(question, [totals]) is None


def test_a_change_is_read_within_one_row_of_whole_year_columns_in_the_order_asked() -> None:
    split = [
        {"key": "c1", "text": "Net sales | 2019: 12,000 | 2018: 11,000"},
        {"key": "c2", "text": "Net sales | 2017: 10.5 | 2016: 9.8"},
    ]
    assert computed("What is the change in net sales from 2016 to 2019 in percent?", split) is None
    parts = {"key": "c1", "text": "Revenue | Q4 2019: 300 | FY 2019: 1,200 | Q4 2018: 280 | FY 2018: 1,000"}
    answer = computed("What is the change in revenue from 2018 to 2019 in percent?", [parts])
    assert answer is not None and "change +20.0%" in answer  # the full years, not the fourth quarters
    shares = {"key": "c1", "text": "Revenue | % of total 2019: 45% | 2019: 1,200 | 2018: 1,000"}
    assert "change +20.0%" in (computed("What is the change in revenue from 2018 to 2019 in percent?", [shares]) or "")
    falling = computed("What is the change in revenue from 2019 to 2018 in percent?", [shares])
    assert falling is not None and "2019 1,200, 2018 1,000; change -16.7%" in falling


def test_a_number_that_is_not_a_year_asks_no_change() -> None:
    rows = {"key": "c1", "text": "Revenue | 2020: 150 | 2019: 100"}
    assert computed("What is the percent change in revenue of the 20 largest customers?", [rows]) is None


def test_a_ratio_reads_its_terms_without_the_year_that_follows_them() -> None:
    question = "What is the ratio of total current assets to total current liabilities in 2016?"
    assert computed(question, [BALANCE]) is not None


CASH_FLOWS = {
    "key": "c1",
    "chunk_id": "s:1",
    "doc_id": "s",
    "text": "Cash flow activities (in thousands):\nYear Ended December 31, | 2020 | 2019\n"
    "Net cash provided by operating activities | 2020: 381,603 | 2019: 465,699\n"
    "Purchases of equipment | 2020: (4,625) | 2019: (4,240)",
}


def test_a_figure_is_given_in_the_scale_the_question_asks_for() -> None:
    row = "Net cash provided by operating activities | 2020: 381,603"
    asked = "How much cash did operating activities provide in FY2020? Answer in USD millions."
    assert in_scale(asked, row, CASH_FLOWS["text"]) == "; that is 382 million (computed)"
    assert (
        in_scale(asked.replace("millions", "billions"), row, CASH_FLOWS["text"]) == "; that is 0.38 billion (computed)"
    )
    outflow = "Purchases of equipment | 2020: (4,625)"
    assert in_scale("Equipment purchases in 2020, in millions?", outflow, CASH_FLOWS["text"]) == (
        "; that is (4.6) million (computed)"
    )
    # The same scale, no scale asked, a table whose scale is not in the passage, two figures: nothing converted.
    assert in_scale(asked.replace("millions", "thousands"), row, CASH_FLOWS["text"]) is None
    assert in_scale("How much cash did operating activities provide in FY2020?", row, CASH_FLOWS["text"]) is None
    assert in_scale(asked, row, CASH_FLOWS["text"].split("\n", 1)[1]) is None
    assert in_scale(asked, f"{row} | 2019: 465,699", CASH_FLOWS["text"]) is None


def test_the_answer_leads_with_the_row_in_the_scale_asked_and_verification_accepts_it() -> None:
    asked = "How much cash did operating activities provide in FY2020? Answer in USD millions."
    answer = compose(asked, "general", [], [CASH_FLOWS], AnswerSettings())
    assert answer.startswith(
        "Net cash provided by operating activities | 2020: 381,603; that is 382 million (computed). [c1]"
    )
    assert check_citations(answer, [CASH_FLOWS], 0.5, computed=True)["refusal_reason"] is None


def test_a_row_continued_below_its_tables_scale_is_converted_from_its_head() -> None:
    # A chunk that opens inside the table: its scale is in the head it carries, not in its text.
    head, rows = CASH_FLOWS["text"].split("\n", 1)
    continued = {**CASH_FLOWS, "text": rows, "head": head}
    asked = "How much cash did operating activities provide in FY2020? Answer in USD millions."
    assert "; that is 382 million (computed)" in compose(asked, "general", [], [continued], AnswerSettings())
    headless = {**continued, "head": ""}
    assert "(computed)" not in compose(asked, "general", [], [headless], AnswerSettings())


def test_a_row_leading_the_answer_says_the_scale_its_table_states() -> None:
    asked = "How much cash did operating activities provide in FY2020?"
    answer = compose(asked, "general", [], [CASH_FLOWS], AnswerSettings())
    assert answer.startswith("Net cash provided by operating activities | 2020: 381,603 (in thousands). [c1]")
    assert check_citations(answer, [CASH_FLOWS], 0.5, computed=True)["refusal_reason"] is None
    # A table without a stated scale gets no note.
    plain = {**CASH_FLOWS, "text": CASH_FLOWS["text"].replace(" (in thousands)", "")}
    assert "(in " not in compose(asked, "general", [], [plain], AnswerSettings())


def test_the_stated_scale_is_the_last_one_above_the_row() -> None:
    row = "Purchases of equipment | 2020: (4,625)"
    assert stated_scale(row, CASH_FLOWS["text"]) == "thousand"
    assert stated_scale(row, "(in millions)\n" + CASH_FLOWS["text"]) == "thousand"
    assert stated_scale(row, CASH_FLOWS["text"] + "\nOther (in millions) | 2020: 1") == "thousand"
    assert stated_scale(row, CASH_FLOWS["text"].split("\n", 1)[1]) == ""


def test_a_row_of_percentages_takes_no_scale_from_its_table() -> None:
    text = "(in thousands)\nRoom occupancy % | 2020: 84.5 % | 2019: 91.0 %\nRoom revenue | 2020: 1,204 | 2019: 1,377"
    assert stated_scale("Room occupancy % | 2020: 84.5 %", text) == ""
    assert stated_scale("Room revenue | 2020: 1,204", text) == "thousand"
    # A percentage in the label that names the row (a note's rate) is not a row of percentages.
    notes = "(in thousands)\n4.25% Harbour notes due 2029 | 2020: 750"
    assert stated_scale("4.25% Harbour notes due 2029 | 2020: 750", notes) == "thousand"
