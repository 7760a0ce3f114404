"""Table rows matched by their label and column, and counted by the years their columns state (invented
figures)."""

from pathlib import Path

from kb.base import KnowledgeBase
from kb.settings import KBSettings
from kb.table_rows import asks_reason_or_name, row_match, row_rank, year_rank, year_rows
from kb.text import tokenize

STATEMENT = "\n".join(
    [
        "Statement of Harbour Dues",
        "Dues collected from moored vessels | 2021: 412.5 | 2020: 398.0",
        "Total | 2021: 530.1 | 2020: 515.2",
    ]
)
PROSE = "Dues collected from moored vessels rose in 2021 as more vessels moored for the winter."


def test_a_row_named_by_label_and_column_scores_above_its_label_alone():
    terms = set(tokenize("What dues were collected from moored vessels in 2021?"))
    assert row_match(STATEMENT, terms) == 2.0  # the whole label, and the 2021 column
    assert row_match(STATEMENT, set(tokenize("dues collected from moored vessels"))) == 1.0
    assert row_match(PROSE, terms) == 0.0  # prose has no rows, however many words it shares


def test_a_one_word_label_or_a_single_shared_word_singles_out_no_row():
    assert row_match(STATEMENT, set(tokenize("total 2021"))) == 1.0 + 1.0  # "Total" is its whole label...
    assert row_match("Total | 2021: 530.1", set(tokenize("dues 2021"))) == 0.0  # ...but shares nothing here
    assert row_match(STATEMENT, set(tokenize("vessels 2021"))) == 0.0  # one word of a four-word label


def test_rows_rank_records_best_first_above_the_threshold():
    records = [{"chunk_id": "prose", "text": PROSE}, {"chunk_id": "table", "text": STATEMENT}]
    ranked = row_rank(records, "How much in dues was collected from moored vessels in 2021?", 1.5)
    assert [(r["chunk_id"], score) for r, score in ranked] == [("table", 2.0)]


def test_year_rows_count_rows_stating_a_figure_under_a_column_headed_by_the_year():
    assert year_rows(STATEMENT, ["2021"]) == 2 and year_rows(STATEMENT, ["2019"]) == 0
    dated = "Cash | May 31, 2020: 1,677.8 | May 26, 2019: 450.0\nReceivables | May 31, 2020: 1,615.1"
    assert year_rows(dated, ["2020"]) == 2 and year_rows(dated, ["2019"]) == 1
    assert year_rows("Revenue | FY2020: 5 | FY2019: 4\nCost | FY2020: 3", ["2020"]) == 2
    assert year_rows("Units | 120200: 5 | 20201: 4", ["2020"]) == 0  # inside longer numbers
    # A year in a row's label, an empty cell, or prose naming the year: no figure stated for it.
    assert year_rows("Balance at May 31, 2020 | Total: 12\nOther | 2020: —", ["2020"]) == 0
    assert year_rows(PROSE, ["2021"]) == 0 and year_rows(STATEMENT, []) == 0


def test_year_rank_keeps_records_with_enough_rows_most_first():
    records = [
        {"chunk_id": "prose", "text": PROSE},
        {"chunk_id": "short", "text": "Total | 2021: 530.1"},
        {"chunk_id": "table", "text": STATEMENT},
    ]
    assert [(r["chunk_id"], n) for r, n in year_rank(records, ["2021"], 1)] == [("table", 2), ("short", 1)]
    assert [r["chunk_id"] for r, _ in year_rank(records, ["2021"], 2)] == ["table"]
    assert year_rank(records, [], 1) == []


def test_a_question_naming_a_year_finds_the_table_stating_it_over_prose_sharing_its_words(tmp_path: Path):
    from tests.table_layouts import balance_sheet_pdf

    folder = tmp_path / "docs"
    folder.mkdir()
    prose = [
        "Harbour Works reviews its working capital each year. The board discussed the 2020 working capital",
        "plan and the positive outlook for the harbour, and approved the working capital policy.",
    ]
    balance_sheet_pdf(folder / "harbour.pdf", prose)
    kb = KnowledgeBase(KBSettings(store_dir=tmp_path / "store", parse_workers=1))
    assert not kb.ingest([folder]).failed
    question = "Does Harbour Works have positive working capital based on FY2020 data?"
    top = kb.search(question, k=2)[0]
    assert top.start_page == 2 and top.year_rows >= 2  # the balance sheet, and why (shown in the evidence panel)
    search = kb.settings.search.model_copy(update={"year_rows_weight": 0.0})
    plain = KnowledgeBase(kb.settings.model_copy(update={"search": search}))
    assert plain.search(question, k=2)[0].start_page == 1  # without the ranking, the prose sharing its words
    why = kb.search("Why did the board of Harbour Works approve its FY2020 working capital policy?", k=2)
    assert why[0].start_page == 1 and all(h.year_rows == 0 for h in why)  # asks for a reason: prose answers


def test_reasons_and_names_are_no_call_for_a_years_rows():
    assert asks_reason_or_name("As of FY2023Q1, why did Harbour Works raise its guidance?")
    assert asks_reason_or_name("Who are the primary customers of Harbour Works as of FY2022?")
    assert not asks_reason_or_name("What were the FY2022 dues collected from moored vessels?")
    assert asks_reason_or_name("What did the board decide in FY2022, and why?")
    assert not asks_reason_or_name("What revenue came from customers who renewed in FY2022?")  # a relative "who"
    assert not asks_reason_or_name("What did the WHO grant the harbour in FY2022?")  # an acronym


def test_a_year_counts_rows_only_in_the_documents_the_question_names(tmp_path: Path):
    from tests.table_layouts import balance_sheet_pdf

    folder = tmp_path / "docs"
    folder.mkdir()
    for name, owner in [("harbour.pdf", "Harbour Works"), ("quarry.pdf", "Quarry Lines")]:
        balance_sheet_pdf(folder / name, [f"{owner} annual report. {owner} operates across the region."])
    kb = KnowledgeBase(KBSettings(store_dir=tmp_path / "store", parse_workers=1))
    assert not kb.ingest([folder]).failed
    hits = kb.search("Does Quarry Lines have positive working capital based on FY2020 data?", k=4)
    assert hits[0].doc_id == "quarry" and hits[0].year_rows >= 2
    assert all(h.year_rows == 0 for h in hits if h.doc_id == "harbour")  # the other's FY2020 is not the one asked
