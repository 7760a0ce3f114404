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


def test_the_sentence_after_the_best_one_continues_it_and_reads_right_after_it() -> None:
    context = [
        {
            "key": "c1",
            "chunk_id": "p:1",
            "doc_id": "p",
            "text": "The harbour pumps are tuned with the following pump settings: intake pressure of 4 bar. "
            "We also fix a flow of 30 litres and a filter mesh of 2 mm. Crews repaint the hulls every spring.",
        },
        {
            "key": "c2",
            "chunk_id": "p:2",
            "doc_id": "p",
            "text": "Pump settings are logged by the harbour office each week for the records.",
        },
    ]
    question = "What are the settings of the harbour pumps?"
    answer = compose(question, "general", [], context, AnswerSettings(sentences=3))
    tuned, fixed = answer.index("tuned with"), answer.index("filter mesh")
    assert tuned < fixed and answer[tuned:fixed].count("[c") == 1  # next to each other
    assert "repaint" not in answer
    without = compose(question, "general", [], context, AnswerSettings(sentences=3, continuation_share=0))
    assert "filter mesh" not in without


def test_the_row_whose_label_the_question_names_leads_a_figure_answer() -> None:
    context = [
        {
            "key": "c1",
            "chunk_id": "h:1",
            "doc_id": "h",
            "text": "Total Harbour Works stockholders' equity | 2018: 6,512\nPayables to pilots | 2018: 77",
        },
        {"key": "c2", "chunk_id": "h:2", "doc_id": "h", "text": "Accounts payable | 2018: 303 | 2017: 255"},
    ]
    question = "What is the year end FY2018 amount of accounts payable for Harbour Works?"
    answer = compose(question, "general", [], context, AnswerSettings(sentences=3))
    assert answer.startswith("Accounts payable | 2018: 303. [c2]")
