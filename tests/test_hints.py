"""Hints: a question saying where to look prefers the candidates titled that way."""

from kb.hints import hint_parts, hint_rank
from kb.text import tokenize


def _record(cid: str, section: str, text: str) -> dict:
    return {"chunk_id": cid, "section": section, "text": text}


def test_a_hint_naming_two_parts_is_two_parts():
    sheet, income = hint_parts(["balance sheet and the statement of income"])
    assert sheet == set(tokenize("balance sheet")) and income == set(tokenize("statement income"))
    assert hint_parts(["profit and loss statement"]) == [set(tokenize("profit loss statement"))]  # one part
    assert hint_parts([]) == []


def test_candidates_titled_as_the_hint_says_rank_first():
    records = [
        _record("prose", "Liquidity", "Cash flow from operations rose, as the statement of cash flows shows."),
        _record("table", "Notes", "Consolidated Statements of Cash Flows\nNet income | 2021: 5 | 2020: 4"),
        _record("label", "Consolidated Statement of Cash Flows", "Net income | 2021: 5 | 2020: 4"),
        _record("other", "Consolidated Balance Sheets", "Cash | 2021: 9 | 2020: 8"),
    ]
    ranked = hint_rank(records, ["cash flow statement"], 1.0)
    assert [r["chunk_id"] for r, _ in ranked] == ["table", "label"]  # titles, not a passing mention
    half = hint_rank(records, ["statement of income"], 0.5)
    assert {r["chunk_id"] for r, _ in half} == {"table", "label"} and all(s == 0.5 for _, s in half)
    either = hint_rank(records, ["the balance sheet or the cash flow statement"], 1.0)
    assert [r["chunk_id"] for r, _ in either] == ["table", "label", "other"]  # ties in the order given
