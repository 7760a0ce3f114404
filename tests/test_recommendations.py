"""The recommendation check of agent.recommendations: "which X does the manual recommend?" needs a sentence that
recommends something and names an X."""

from agent.assess import assess
from agent.recommendations import asked_kind, recommendation_missing
from tests.test_agent_units import assess_state, hit


def test_the_kind_a_question_asks_a_recommendation_of() -> None:
    assert asked_kind("Which seal grease does the qzlib manual recommend for cold pumps?") == "grease"
    assert asked_kind("I need a pump. Which pump does the guide recommend, and why?") == "pump"
    assert asked_kind("Why does the guide recommend greasing before winter?") == ""  # asks why, not which
    assert asked_kind("If unsure which flags to give qz_open, what does the manual recommend?") == ""


def test_a_recommendation_of_something_else_is_no_answer() -> None:
    question = "Which seal grease does the qzlib manual recommend for cold pumps?"
    other = hit("manual", "It is recommended that the pump expose its seal flag to the user in cold weather.")
    assert recommendation_missing(asked_kind(question), [other]) == "no passage recommends a particular grease"
    verdict = assess({**assess_state(question, [other]), "question": question})
    assert verdict.failing == "recommendation_stated"
    own = hit("manual", "For cold pumps the recommended seal grease is QZ-40, described below.", 2)
    assert recommendation_missing(asked_kind(question), [other, own]) == ""
