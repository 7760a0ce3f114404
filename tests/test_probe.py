from __future__ import annotations

from bench.probe import MADE_UP, named_word, variants
from kb.evaluate import GoldSpan, Question

CARDS = {
    "acme_2019": "Acme Corp annual report 2019 ACME 2019 10K acme_2019",
    "zx9": "The ZX-9 valve: a field manual Valve Works zx9",
}


def test_the_name_of_the_question_s_document_is_found_in_its_card() -> None:
    assert named_word("What was Acme's 2019 revenue?", CARDS["acme_2019"]) == "Acme"
    assert named_word("How is the ZX-9 valve serviced?", CARDS["zx9"]) == "ZX-9"
    assert named_word("Annual revenue in 2019?", CARDS["acme_2019"]) is None  # "Annual" opens the question
    assert named_word("What was the revenue?", CARDS["acme_2019"]) is None


def test_variants_make_the_name_up_and_are_unanswerable() -> None:
    questions = [
        Question(
            qid="q1",
            question="What was Acme's 2019 revenue?",
            gold=[GoldSpan(doc_id="acme_2019", start_page=3, end_page=3)],
        ),
        Question(qid="q2", question="How is the ZX-9 valve serviced?", doc_id="zx9"),
        Question(qid="q3", question="What was the revenue?", doc_id="acme_2019"),
        Question(qid="q4", question="Is ZX-9 sold?", doc_id="zx9", answerable=False),
    ]
    made = variants(questions, CARDS)
    assert [(q.qid, q.question, q.answerable, q.gold) for q in made] == [
        ("q1-madeup", f"What was {MADE_UP}'s 2019 revenue?", False, []),
        ("q2-madeup", f"How is the {MADE_UP} valve serviced?", False, []),
    ]
