"""Table rows matched by their label and column (invented figures)."""

from kb.table_rows import row_match, row_rank
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
