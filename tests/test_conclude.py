"""The closing nodes: which documents the extractive answer draws on. Examples are invented."""

from __future__ import annotations

from pathlib import Path

from agent.evidence import named_documents
from agent.runner import Agent
from agent.settings import AgentSettings
from tests.agent_fakes import chunk, mini_deps


def test_the_documents_the_question_names_best_are_those_search_matched_fully() -> None:
    hits = [
        {"doc_id": "acme-2017", "document_score": 1.0},
        {"doc_id": "acme-2016", "document_score": 0.7},
        {"doc_id": "other", "document_score": None},
    ]
    assert named_documents(hits) == {"acme-2017"}
    assert named_documents([{"doc_id": "other"}]) == set()


def test_the_answer_leaves_out_the_figures_of_a_document_the_question_does_not_name(tmp_path: Path) -> None:
    # Search ranks the other organisation's row first (it repeats the question's words); only Acme's report is
    # named by the question.
    other = chunk("zenith", 0, "Revenues | 2017: 34,350 | 2016: 32,376\nRevenues grew in 2017 on revenues of stores.")
    named = {"document_score": 1.0, "title": "Acme annual report 2017"}
    acme = [
        {**chunk("acme", 0, "Net sales | 2017: 177,866 | 2016: 135,987"), **named},
        {**chunk("acme", 1, "Revenues from net sales rose in 2017 as stores opened.", page=2), **named},
    ]
    deps, _ = mini_deps([other, *acme])
    settings = AgentSettings.for_preset(
        "balanced", mode="extractive", runs_dir=tmp_path / "runs", checkpoint_path=tmp_path / "c.sqlite"
    ).model_copy(update={"k": 3, "min_hits": 1})
    events = list(Agent(deps=deps, settings=settings).ask("What were Acme's 2017 revenues?", settings))
    state = events[-1].record.state
    assert not state["refused"], state.get("refusal")
    assert "34,350" not in state["answer"] and "stores opened" in state["answer"]
    assert {c["doc_id"] for c in state["citations"]} == {"acme"}
