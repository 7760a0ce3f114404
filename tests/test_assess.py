"""The evidence check for questions asking for a count or a value: some passage must name the subject beside a
value, or the question is refused with the subject named."""

import pytest

from agent.assess import assess, stated_values
from agent.intent import asks_value
from tests.test_agent_units import assess_state, hit

QUESTION = "What numeric value is QZ_MAX_DEPTH defined to in the qzlib library?"


def _state(evidence: list[dict]) -> dict:
    manual = [{**h, "title": "The qzlib library manual"} for h in evidence]
    return {**assess_state(QUESTION, manual), "question": QUESTION}


@pytest.mark.parametrize(
    "question, expected",
    [
        (QUESTION, True),
        ("How many parameter sets does the scheme define?", True),
        ("By how much did revenue grow in 2021?", True),
        ("What is the number of rounds?", True),
        ("What does QZ_MAX_DEPTH control?", False),
        ("What is the revenue amount for 2021?", False),  # a row answers it beside a label worded otherwise
    ],
)
def test_questions_asking_for_a_count_or_a_value(question: str, expected: bool) -> None:
    assert asks_value(question) is expected


def test_values_are_figures_standing_on_their_own_or_small_counts_in_words() -> None:
    assert stated_values("The limit is 64 bytes, up from 1.5%, in three steps.") == {"64", "1.5%", "three"}
    assert stated_values("See ASN.1 and x86 support in qz2 since 2nd release.") == set()


def test_a_subject_never_named_beside_a_value_is_refused_with_its_name() -> None:
    mention = hit("manual", "QZ_MAX_DEPTH is the deepest nesting defined. Release 3.7 added streaming.")
    verdict = assess(_state([mention]))
    assert verdict.failing == "value_stated"
    assert verdict.reasons[-1].detail == "no passage states a value for QZ_MAX_DEPTH"


def test_a_passage_naming_the_subject_beside_a_value_is_enough() -> None:
    value = hit("manual", "QZ_MAX_DEPTH is the deepest nesting the parser accepts; it is defined to 64.", 2)
    assert assess(_state([value])).sufficient


def test_a_value_the_question_already_gives_is_no_answer() -> None:
    question = "How many levels beyond 8 does QZ_MAX_DEPTH allow in the qzlib library?"
    echo = hit("manual", "QZ_MAX_DEPTH allows nesting beyond 8 levels in the qzlib library.")
    verdict = assess({**assess_state(question, [echo]), "question": question})
    assert verdict.failing == "value_stated"


def test_a_document_titled_with_the_subject_states_its_values_in_any_sentence() -> None:
    question = "How many plants did ZX-9 Corp operate in 2021?"
    row = {**hit("zx", "Plants in operation | 2021: 14 | 2020: 12"), "title": "ZX-9 Corp Annual Report 2021"}
    verdict = assess({**assess_state(question, [row]), "question": question})
    assert "value_stated" not in {r.check for r in verdict.reasons if not r.ok}
