"""The bounded controller, wired in one place:

route -> retrieve -> assess -> answer -> verify -> END
                        |-> refine -> [approve] -> retrieve        (while budgets allow)
                        |-> refuse -> END                            (budget spent, nothing new to try, rejected)
"""

from __future__ import annotations

from typing import Any, Literal

from langgraph.graph import END, START, StateGraph
from langgraph.types import Checkpointer

from agent.conclude import answer, refuse, verify
from agent.nodes import Deps, approve, assess, budget_stop, node, refine, retrieve, route
from agent.state import AgentState


def after_route(state: dict[str, Any]) -> Literal["retrieve", "refuse"]:
    return "refuse" if state.get("refusal_reason") else "retrieve"


def after_assess(state: dict[str, Any]) -> Literal["answer", "refine", "refuse"]:
    if state.get("evidence_sufficient"):
        return "answer"
    if budget_stop(state) is not None:
        return "refuse"  # a spent budget never reaches the answer LLM
    return "refine"


def after_refine(state: dict[str, Any]) -> Literal["approve", "retrieve", "refuse"]:
    proposal = state.get("proposal")
    if proposal is None or budget_stop(state, max(1, len(proposal.get("queries") or [])), steps_needed=6):
        return "refuse"
    return "approve" if state["settings"].get("approval") else "retrieve"


def after_approve(state: dict[str, Any]) -> Literal["retrieve", "answer", "refuse"]:
    if state.get("refinement_rejected"):
        return "answer" if state.get("evidence_sufficient") else "refuse"
    if budget_stop(state, max(1, len(state.get("queries") or [])), steps_needed=5):
        return "refuse"  # an edited or approved query still has to fit the budget
    return "retrieve"


def after_verify(state: dict[str, Any]) -> Literal["refuse", "__end__"]:
    return "refuse" if state.get("refusal_reason") else END


def build_graph(checkpointer: Checkpointer = None):
    """The graph; every run passes its `Deps` (knowledge base, LLM) as the run context."""
    g = StateGraph(AgentState, context_schema=Deps)
    g.add_node("route", node("route")(route))
    g.add_node("retrieve", node("retrieve")(retrieve))
    g.add_node("assess", node("assess")(assess))
    g.add_node("refine", node("refine")(refine))
    g.add_node("approve", node("approve")(approve))
    g.add_node("answer", node("answer")(answer))
    g.add_node("verify", node("verify")(verify))
    g.add_node("refuse", node("refuse")(refuse))

    g.add_edge(START, "route")
    g.add_conditional_edges("route", after_route)
    g.add_edge("retrieve", "assess")
    g.add_conditional_edges("assess", after_assess)
    g.add_conditional_edges("refine", after_refine)
    g.add_conditional_edges("approve", after_approve)
    g.add_edge("answer", "verify")
    g.add_conditional_edges("verify", after_verify)
    g.add_edge("refuse", END)
    return g.compile(checkpointer=checkpointer)


def recursion_limit(settings: dict[str, Any]) -> int:
    """A backstop above the step budget; the budgets in state are the real bound."""
    return int(settings["max_steps"]) + 10
