"""The extractive composer ranks evidence sentences against the question's information need. Examples are
invented."""

from agent.extractive import compose
from agent.settings import AnswerSettings
from kb.query import read_query

CONTEXT = [
    {
        "key": "c1",
        "chunk_id": "f:1",
        "doc_id": "f",
        "text": "Net cash flow per the annual statement table | 2018: 9,999",
    },
    {"key": "c2", "chunk_id": "f:2", "doc_id": "f", "text": "Purchases of pump equipment | 2018: 1,577"},
]
QUESTION = (
    "Answer the following question using only the cash flow statement of the annual table: "
    "what were the 2018 purchases of pump equipment?"
)


def test_sentences_are_ranked_against_the_need_not_the_instructions_around_it() -> None:
    settings = AnswerSettings(sentences=1)
    need = read_query(QUESTION).need
    assert need == "what were the 2018 purchases of pump equipment?"
    assert compose(QUESTION, "general", [], CONTEXT, settings, need=need).startswith(
        "Purchases of pump equipment | 2018: 1,577. [c2]"
    )
    # Ranked against the whole question, the instruction's words pick the other row.
    assert compose(QUESTION, "general", [], CONTEXT, settings).startswith("Net cash flow")
