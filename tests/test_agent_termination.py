"""Property: for any retrieval outcome, budgets and human decisions, a run ends within its budgets, and the answer
LLM is only ever called on sufficient evidence."""

from __future__ import annotations

from typing import Any, ClassVar

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agent.llm import LLMError, LLMStatus
from agent.runner import Agent
from agent.settings import AgentSettings
from tests.agent_fakes import chunk, mini_deps

WORDS = ["valve", "pump", "QX-7", "ZR9", "seal", "torque", "RPM", "gasket", "filter", "bronze", "LTE", "cabinet"]


class CountingLLM:
    """Records every call; answers cite the first passage, structured calls fail as malformed."""

    log: ClassVar[list[dict[str, Any]]] = []

    def __init__(self, s: AgentSettings):
        self.calls: list[dict[str, Any]] = []

    def stream(self, purpose: str, messages: Any, on_token: Any, answer_tokens: int = 768) -> str:
        CountingLLM.log.append({"purpose": purpose})
        return "The valve seal holds [c1]."

    def structured(self, purpose: str, messages: Any, schema: Any) -> Any:
        CountingLLM.log.append({"purpose": purpose})
        raise LLMError("malformed", "malformed structured output")


def usable(s: AgentSettings) -> LLMStatus:
    return LLMStatus(url=s.base_url, reachable=True, models=[s.model], model=s.model, model_pulled=True)


corpus_strategy = st.lists(
    st.lists(st.sampled_from(WORDS), min_size=1, max_size=8).map(" ".join), min_size=0, max_size=8
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    texts=corpus_strategy,
    question=st.lists(st.sampled_from(WORDS), min_size=1, max_size=5).map(lambda w: "What about " + " ".join(w)),
    max_rounds=st.integers(1, 6),
    max_tool_calls=st.integers(1, 12),
    max_steps=st.integers(6, 30),
    min_hits=st.integers(1, 5),
    k=st.integers(1, 6),
    approval=st.booleans(),
    decisions=st.lists(st.sampled_from(["approve", "edit", "reject"]), min_size=1, max_size=8),
    grader=st.booleans(),
)
def test_runs_terminate_within_budgets(
    texts: list[str],
    question: str,
    max_rounds: int,
    max_tool_calls: int,
    max_steps: int,
    min_hits: int,
    k: int,
    approval: bool,
    decisions: list[str],
    grader: bool,
) -> None:
    corpus = [chunk(f"d{i % 3}", i, f"The {t} is described here in detail.", page=1 + i) for i, t in enumerate(texts)]
    deps, _ = mini_deps(corpus, probe=usable, make_llm=CountingLLM)
    s = AgentSettings(
        mode="auto",
        max_rounds=max_rounds,
        max_tool_calls=max_tool_calls,
        max_steps=max_steps,
        min_hits=min_hits,
        k=k,
        approval=approval,
        llm_grader=grader,
        llm_rewrite=grader,
    )
    agent = Agent(deps=deps, settings=s, save_runs=False)
    CountingLLM.log = []
    events = list(agent.ask(question, s, run_id="prop"))
    for decision in decisions:
        if events[-1].kind != "paused":
            break
        events = list(agent.resume("prop", {"action": decision, "query": "edited valve"}))
    while events[-1].kind == "paused":  # more pauses than scripted decisions: keep approving
        events = list(agent.resume("prop", {"action": "approve"}))
    assert events[-1].kind == "done", events[-1]
    state = events[-1].record.state
    c = state["counters"]
    assert c["rounds"] <= max_rounds and c["tool_calls"] <= max_tool_calls and c["steps"] <= max_steps
    assert state["stop_reason"]
    answered = [e for e in CountingLLM.log if e["purpose"] == "answer"]
    if answered:
        assert state["evidence_sufficient"]
    if state["refused"]:
        assert state["refusal_reason"] and not state["citations"]
    else:
        assert state["citations"] and state["evidence_sufficient"]
