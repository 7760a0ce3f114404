from __future__ import annotations

from pathlib import Path

from agent.followup import Turn, follow_up, subject_of, turn_of
from agent.runner import Agent
from agent.settings import AgentSettings
from tests.agent_fakes import ACRONYM_CORPUS, mini_deps

FIRST = Turn(question="What is the ZX-9 valve?", subject="ZX-9", docs=["valves"])
FIGURE = Turn(
    question="What was the FY2020 revenue of Acme?", subject=subject_of("What was the FY2020 revenue of Acme?")
)


def test_a_pronoun_that_is_the_only_subject_becomes_the_previous_subject() -> None:
    read = follow_up("and what are its parameter sets?", [FIRST])
    assert read.rewritten and read.question == "What are ZX-9's parameter sets?"
    assert follow_up("How is it serviced?", [FIRST]).question == "How is ZX-9 serviced?"
    assert follow_up("and the key sizes?", [FIRST]).question == "What about the key sizes of ZX-9?"


def test_what_about_replaces_the_period_or_the_subject() -> None:
    assert FIGURE.subject == "Acme"
    assert follow_up("what about 2021?", [FIGURE]).question == "What was the 2021 revenue of Acme?"
    assert follow_up("What about fiscal 2021?", [FIGURE]).question == "What was the fiscal 2021 revenue of Acme?"
    assert follow_up("What about the QR-7?", [FIRST]).question == "What is the QR-7 valve?"
    assert follow_up("What about its weight?", [FIRST]).question == "What about ZX-9's weight?"
    no_period = Turn(question="What was Acme's revenue?", subject="Acme")
    assert follow_up("What about 2021?", [no_period]).question == "What was Acme's revenue in 2021?"


def test_what_about_leaves_an_unclear_replacement_as_asked() -> None:
    span = Turn(question="What was the revenue from 2018 to 2019?", subject="revenue")
    assert not follow_up("What about 2020?", [span]).rewritten  # which year 2020 replaces is unclear
    paper = Turn(question="What is the main contribution of the ZX-9 paper?", subject="ZX-9")
    assert not follow_up("What about 12 layers?", [paper]).rewritten  # not a name


def test_a_question_that_stands_alone_is_left_as_asked() -> None:
    assert not follow_up("What is the QR-7 pump made of?", [FIRST]).rewritten  # it names its own subject
    for question in (
        "How do diffusion models generate images and what limits their speed?",  # a subject of its own
        "Is it true that pumps are slow?",  # "it" refers back to nothing
        "Also, how are valves trained?",
        "Now explain retrieval augmented generation.",
    ):
        assert not follow_up(question, [FIRST]).rewritten, question
    assert not follow_up("and what are its parameter sets?", []).rewritten  # a new chat starts clean


def test_turn_of_a_run_keeps_its_question_subject_and_cited_documents() -> None:
    state = {"question": "What is the ZX-9 valve?", "citations": [{"doc_id": "valves"}, {"doc_id": "valves"}]}
    assert turn_of(state) == FIRST


def test_a_follow_up_run_searches_and_records_its_standalone_question(tmp_path: Path) -> None:
    settings = AgentSettings.for_preset("balanced", mode="extractive", k=2, min_hits=1, runs_dir=tmp_path / "runs")
    deps, search = mini_deps(ACRONYM_CORPUS)
    history = [Turn(question="What is the thermal drift compensator?", subject="thermal drift compensator")]
    events = list(
        Agent(deps=deps, settings=settings).ask("and how often is it recalibrated?", settings, history=history)
    )
    state = events[-1].record.state
    assert state["asked"] == "and how often is it recalibrated?"
    assert state["question"] == "How often is thermal drift compensator recalibrated?"
    assert search.calls[0]["query"] == state["question"]
    route = next(e for e in events if e.kind == "node" and e.node == "route")
    assert route.standalone == state["question"] and "thermal drift compensator" in route.follow_up["how"]
    assert "90 days" in state["answer"] and events[-1].record.question == "and how often is it recalibrated?"
