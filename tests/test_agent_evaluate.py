from __future__ import annotations

from agent.evaluate import answer_recall


def test_answer_recall_counts_content_words_and_numbers_however_written() -> None:
    assert answer_recall("$1577.00", "Capital expenditure was 1,577 million [c1].") == 1.0
    # Words stemmed, stop words dropped: "masked", "sentence", "prediction" found; "next" and "lm" not.
    recall = answer_recall("Masked LM and next sentence prediction", "It predicts a masked sentence [c1].")
    assert recall is not None and abs(recall - 3 / 5) < 1e-9
    assert answer_recall("12.5%", "The margin was 12.4% [c2].") == 0.0  # another number is not the number
    assert answer_recall("", "anything") is None
