"""The controller's behaviour over scripted knowledge bases: refinement rounds, compare gates, budgets, approvals."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from agent.events import ErrorEvent
from agent.runner import Agent, sqlite_checkpointer
from agent.runs import list_runs, load_run
from agent.settings import AgentSettings
from kb.query import SearchQuery
from tests.agent_fakes import ACRONYM_CORPUS, COMPARE_CORPUS, chunk, mini_deps


def run(agent: Agent, question: str, settings: AgentSettings, run_id: str | None = None) -> list[dict[str, Any]]:
    return list(agent.ask(question, settings, run_id=run_id))


def final(events: list[dict[str, Any]]) -> dict[str, Any]:
    return events[-1].record.state


@pytest.fixture
def agent_settings(tmp_path: Path) -> AgentSettings:
    return AgentSettings.for_preset(
        "balanced", mode="extractive", runs_dir=tmp_path / "runs", checkpoint_path=tmp_path / "checkpoints.sqlite"
    )


def test_refine_then_answer_over_rounds(agent_settings: AgentSettings) -> None:
    deps, _ = mini_deps(ACRONYM_CORPUS)
    settings = agent_settings.model_copy(update={"k": 1, "min_hits": 1})
    events = run(Agent(deps=deps, settings=settings), "When is the TDC recalibrated?", settings)
    state = final(events)
    assert not state["refused"], state.get("refusal")
    assert state["stop_reason"] == "evidence_sufficient"
    strategies = [r["strategy"] for r in state["rounds"]]
    assert strategies[0] == "initial" and "expand_acronym" in strategies
    assert state["rounds"][0]["verdict"] == "insufficient"
    assert state["rounds"][0]["refinement"]["previous"] == "When is the TDC recalibrated?"
    assert "Thermal Drift Compensator" in state["rounds"][0]["refinement"]["query"]
    assert state["rounds"][-1]["verdict"] == "sufficient"
    assert [e["round"] for e in state["evidence"]] == [1, 2]  # each hit remembers the round that found it
    assert "90 days" in state["answer"] and state["citations"]
    assert {c["chunk_id"] for c in state["citations"]} <= {e["chunk_id"] for e in state["evidence"]}
    assert state["counters"]["rounds"] == len(state["rounds"]) == len(state["queries_tried"])
    nodes = [e.node for e in events if e.kind == "node"]
    assert nodes[:4] == ["route", "retrieve", "assess", "refine"] and nodes[-2:] == ["answer", "verify"]


def test_compare_diversity_gate_and_topic_quotas(agent_settings: AgentSettings) -> None:
    deps, _ = mini_deps(COMPARE_CORPUS)
    settings = agent_settings.model_copy(update={"k": 4, "min_hits": 2})
    state = final(run(Agent(deps=deps, settings=settings), "Compare the falcon pump and the heron valve", settings))
    assert state["intent"] == "compare" and state["topics"] == ["falcon pump", "heron valve"]
    assert state["topic_homes"] == {"falcon pump": ["alpha"], "heron valve": ["beta"]}
    first, second = state["rounds"][0], state["rounds"][1]
    assert {h.split(":")[0] for h in first["hit_ids"]} == {"alpha"}  # one document crowds the first round out
    failing = [r["check"] for r in first["reasons"] if not r["ok"]]
    assert failing == ["topic_diversity"]
    assert second["strategy"] == "split_topics" and second["queries"] == ["falcon pump", "heron valve"]
    per_doc = [h.split(":")[0] for h in second["hit_ids"]]
    assert per_doc.count("alpha") == 2 and per_doc.count("beta") == 2  # balanced quotas, k split per topic
    assert not state["refused"]
    assert {c["doc_id"] for c in state["citations"]} == {"alpha", "beta"}


def test_identical_compare_topics_are_rejected(agent_settings: AgentSettings) -> None:
    deps, search = mini_deps(COMPARE_CORPUS)
    state = final(
        run(Agent(deps=deps, settings=agent_settings), "Compare the heron valve with the heron valve", agent_settings)
    )
    assert state["refused"] and state["refusal_reason"] == "invalid_question"
    assert "two different topics" in state["answer"] and not search.calls


def test_budget_exhausted_refuses_with_what_was_tried(agent_settings: AgentSettings) -> None:
    deps, _ = mini_deps(ACRONYM_CORPUS)
    settings = AgentSettings.for_preset("quick", mode="extractive", runs_dir=agent_settings.runs_dir)
    state = final(run(Agent(deps=deps, settings=settings), "What does the QZ-9 gasket weigh?", settings))
    assert state["refused"] and state["refusal_reason"] == "insufficient_evidence"
    assert state["stop_reason"] == "max_rounds" and state["counters"]["rounds"] == 1
    assert state["refusal"]["queries"] == ["What does the QZ-9 gasket weigh?"]
    assert any("QZ-9" in f for f in state["refusal"]["failing_checks"])
    assert "draft" not in state  # the answer step never ran


def test_empty_library_refuses(agent_settings: AgentSettings) -> None:
    deps, _ = mini_deps([])
    state = final(run(Agent(deps=deps, settings=agent_settings), "What is anything?", agent_settings))
    assert state["refusal_reason"] == "no_documents" and state["stop_reason"] == "no_documents"


def _paused(tmp_path: Path, settings: AgentSettings) -> tuple[str, dict[str, Any]]:
    deps, _ = mini_deps(ACRONYM_CORPUS)
    agent = Agent(deps=deps, settings=settings, checkpointer=sqlite_checkpointer(settings.checkpoint_path))
    events = run(agent, "When is the TDC recalibrated?", settings, run_id="approval-run")
    assert events[-1].kind == "paused"
    interrupt = next(e for e in events if e.kind == "interrupt")
    return "approval-run", interrupt.payload.model_dump()


@pytest.mark.parametrize("action", ["approve", "edit", "reject"])
def test_approval_survives_a_restart(tmp_path: Path, agent_settings: AgentSettings, action: str) -> None:
    settings = agent_settings.model_copy(update={"k": 1, "min_hits": 1, "approval": True})
    run_id, payload = _paused(tmp_path, settings)
    assert payload["previous"] == "When is the TDC recalibrated?"
    assert payload["strategy"] == "expand_acronym" and "Thermal Drift Compensator" in payload["proposed"]
    assert payload["reasons"]
    assert load_run(settings.runs_dir, run_id).outcome == "paused"

    # A fresh graph on the same checkpoint file, as after an app restart.
    deps, search = mini_deps(ACRONYM_CORPUS)
    agent = Agent(deps=deps, settings=settings, checkpointer=sqlite_checkpointer(settings.checkpoint_path))
    assert agent.pending(run_id)["proposed"] == payload["proposed"]
    decision: dict[str, Any] = {"action": action}
    if action == "edit":
        decision["query"] = "thermal drift compensator recalibrated"
    events = list(agent.resume(run_id, decision))
    state = final(events)
    assert state["approval"]["action"] == action
    if action == "reject":
        assert state["refused"] and state["refusal_reason"] == "refinement_rejected"
        assert not search.calls  # nothing more was retrieved
    else:
        assert not state["refused"], state.get("refusal")
        expected = decision.get("query", payload["proposed"])
        assert state["queries_tried"][-1] == expected and search.calls[0]["query"] == expected
        assert state["rounds"][-1]["strategy"].startswith("expand_acronym")
    record = load_run(settings.runs_dir, run_id)
    assert record.outcome == ("refused" if action == "reject" else "answered")
    assert [r.run_id for r in list_runs(settings.runs_dir)] == [run_id]


def test_resume_of_a_finished_run_is_an_error(agent_settings: AgentSettings) -> None:
    deps, _ = mini_deps(ACRONYM_CORPUS)
    agent = Agent(deps=deps, settings=agent_settings)
    run(agent, "When is the TDC recalibrated?", agent_settings, run_id="done-run")
    events = list(agent.resume("done-run", {"action": "approve"}))
    assert events == [ErrorEvent(run_id="done-run", message="run done-run is not waiting for approval")]


def test_run_record_holds_trace_and_timings(agent_settings: AgentSettings) -> None:
    deps, _ = mini_deps(ACRONYM_CORPUS)
    events = run(Agent(deps=deps, settings=agent_settings), "When is the TDC recalibrated?", agent_settings)
    record = load_run(agent_settings.runs_dir, events[0].run_id)
    assert record is not None and record.question == "When is the TDC recalibrated?"
    assert record.settings["preset"] == "balanced" and record.mode == "extractive"
    assert record.state["trace"][0]["node"] == "route"
    assert set(record.node_seconds) >= {"route", "retrieve", "assess"}
    assert all("seconds" in e and "started" in e for e in record.state["trace"])
    retrieve = next(e for e in events if e.kind == "node" and e.node == "retrieve")
    assert retrieve.hits and all(
        {"doc_id", "start_page", "text", "new", "fused_score"} <= set(h) for h in retrieve.hits
    )


def test_the_checks_read_the_information_need_not_the_instructions(agent_settings: AgentSettings) -> None:
    need = "How often is the thermal drift compensator recalibrated?"
    question = f"Assume you are a plant analyst answering for auditors. {need}"
    deps, _ = mini_deps(ACRONYM_CORPUS, read_query=lambda q: SearchQuery(question=q, need=need if q == question else q))
    settings = agent_settings.model_copy(update={"k": 2, "min_hits": 1})
    state = final(run(Agent(deps=deps, settings=settings), question, settings))
    assert not {"analyst", "auditors", "Assume"} & set(state["key_terms"])
    assert state["need"] == need  # read once, by route; the answer step ranks its sentences against it
    assert not state["refused"], state.get("refusal")
    assert "90 days" in state["answer"]


def test_a_comparison_of_many_topics_keeps_to_the_tool_budget(agent_settings: AgentSettings) -> None:
    deps, _ = mini_deps(COMPARE_CORPUS)
    settings = agent_settings.model_copy(update={"max_tool_calls": 3, "max_rounds": 1})
    question = "Compare Falcon, Heron, Osprey and Kestrel"
    state = final(run(Agent(deps=deps, settings=settings), question, settings))
    assert state["topics"] == ["Falcon", "Heron", "Osprey", "Kestrel"]
    assert state["counters"]["tool_calls"] <= 3 and len(state["topic_homes"]) == 2  # a call is left to retrieve


def test_the_intent_is_read_from_the_need(agent_settings: AgentSettings) -> None:
    from kb.query import read_query

    question = "Answer briefly: what does TDC stand for?"
    deps, _ = mini_deps(ACRONYM_CORPUS, read_query=read_query)
    settings = agent_settings.model_copy(update={"k": 2, "min_hits": 1})
    state = final(run(Agent(deps=deps, settings=settings), question, settings))
    assert state["intent"] == "definition" and state["need"] == "what does TDC stand for?"
    assert state["key_terms"] == ["TDC"]  # neither the instruction's words nor "stand"


def test_a_row_the_stated_formula_needs_is_searched_for_and_its_ratio_computed(agent_settings: AgentSettings) -> None:
    # The search for the missing row finds its page through another row; the row itself is the second of the page's
    # other matching chunks, which the search names and the agent takes (all of them, for such a search).
    wanted = chunk("acme", 3, "Total current assets | 2016: 1,001.5 | 2015: 990.0", page=2)
    other = chunk("acme", 2, "Prepaid expenses and other current assets | 2016: 4 | 2015: 3", page=2)
    page = {c["chunk_id"]: c for c in (other, wanted)}
    corpus = [
        chunk(
            "acme",
            0,
            "The current ratio is watched by lenders and the current ratio rose.\n"
            "Total current liabilities | 2016: 500.75 | 2015: 480.0",
        ),
        {**chunk("acme", 1, "Other current assets | 2016: 12 | 2015: 10", page=2), "page_chunks": list(page)},
    ]
    deps, search = mini_deps(corpus, chunk=page.get)
    settings = agent_settings.model_copy(update={"k": 1, "min_hits": 1})
    question = (
        "What is the FY2016 current ratio? Define it as total current assets divided by total current liabilities."
    )
    state = final(run(Agent(deps=deps, settings=settings), question, settings))
    assert [c["query"] for c in search.calls] == [question, "total current assets 2016"]
    assert search.calls[1]["docs"] == ["acme"] and search.calls[1]["mode"] == "lexical"
    assert state["rounds"][0]["queries"] == [question, "total current assets 2016"]
    assert "Total current assets / Total current liabilities = 2.00 (computed)" in state["answer"]
    assert state["counters"]["tool_calls"] == 2


def test_a_sentence_cut_at_a_chunk_end_is_quoted_whole_and_checked_against_both_chunks(
    agent_settings: AgentSettings,
) -> None:
    cut = chunk("dock", 0, "Crane inspections happen monthly. The crane cable is replaced when its")
    rest = chunk("dock", 1, "strands show corrosion or wear. Paint is renewed yearly.")
    deps, _ = mini_deps([cut], following={cut["chunk_id"]: rest}.get)
    settings = agent_settings.model_copy(update={"min_hits": 1})
    state = final(run(Agent(deps=deps, settings=settings), "When is the crane cable replaced?", settings))
    assert state["evidence"][0]["runs_on"] == "strands show corrosion or wear."
    assert "replaced when its strands show corrosion or wear. [c1]" in state["answer"]
    assert "Paint" not in state["answer"]
    # The next chunk opens with a heading (the cut was at it): nothing carries over.
    heading = {**rest, "text": "2 Painting\nstrands of the old cable are painted red."}
    deps, _ = mini_deps([cut], following={cut["chunk_id"]: heading}.get)
    state = final(run(Agent(deps=deps, settings=settings), "When is the crane cable replaced?", settings))
    assert state["evidence"][0]["runs_on"] == ""


def test_a_chunk_two_searches_of_a_round_find_keeps_its_better_rank(agent_settings: AgentSettings) -> None:
    # The question's search finds the assets row last; the row search for the liabilities finds its page first,
    # with the assets row among the page's chunks. Kept at its first rank, the assets row would fall out of the
    # answer's three passages behind the row found for it.
    assets = chunk("acme", 3, "Total current assets | 2016: 1,001.5 | 2015: 990.0", page=2)
    liabilities = chunk("acme", 4, "Total current liabilities | 2016: 500.75 | 2015: 480.0", page=2)
    prose = [chunk("acme", i, f"The current ratio is watched by lenders, part {i}.") for i in (0, 1)]

    def search(query: str, k: int = 8, docs: list[str] | None = None, mode: str = "hybrid") -> list[dict[str, Any]]:
        found = [liabilities] if query.startswith("total current liabilities") else [*prose, assets]
        pages = {liabilities["chunk_id"]: [assets["chunk_id"]]}
        return [
            {**c, "rank": r, "fused_score": 1.0 / r, "page_chunks": pages.get(c["chunk_id"], [])}
            for r, c in enumerate(found[:k], 1)
        ]

    deps, _ = mini_deps([], chunk={assets["chunk_id"]: assets}.get)
    deps.search, deps.documents = search, lambda: ["acme"]
    settings = agent_settings.model_copy(update={"k": 3, "min_hits": 1})
    settings.answer.context_size = 3
    question = (
        "What is the FY2016 current ratio? Define it as total current assets divided by total current liabilities."
    )
    state = final(run(Agent(deps=deps, settings=settings), question, settings))
    ranks = {e["chunk_id"]: (e["rank"], e["query"]) for e in state["evidence"]}
    assert ranks[assets["chunk_id"]] == ranks[liabilities["chunk_id"]] == (1, "total current liabilities 2016")
    assert "Total current assets / Total current liabilities = 2.00 (computed)" in state["answer"]


def test_a_run_id_already_used_is_an_error_not_a_merge(agent_settings: AgentSettings) -> None:
    """Asked again under a finished run's id, the checkpointer would merge the new run into the old state."""
    deps, _ = mini_deps(ACRONYM_CORPUS)
    agent = Agent(deps=deps, settings=agent_settings)
    run(agent, "When is the TDC recalibrated?", agent_settings, run_id="used-run")
    events = run(agent, "What does TDC stand for?", agent_settings, run_id="used-run")
    assert events == [
        ErrorEvent(run_id="used-run", message="run used-run already exists: a new question needs a new run id")
    ]
    assert final(run(agent, "What does TDC stand for?", agent_settings))["question"] == "What does TDC stand for?"
