"""The graph's state: a TypedDict of plain JSON-like values, so checkpoints and run records round-trip cleanly."""

from __future__ import annotations

import operator
from typing import Annotated, Any, TypedDict


class AgentState(TypedDict, total=False):
    question: str  # the question searched and answered (its standalone form when it was a follow-up)
    asked: str  # the question as the person typed it
    history: list[dict[str, Any]]  # earlier turns of the conversation (agent.followup.Turn dumps), oldest first
    follow_up: dict[str, Any] | None  # how the question was read against them (agent.followup.FollowUp dump)
    started_at: float
    settings: dict[str, Any]  # AgentSettings.model_dump(mode="json"); budgets travel with the run
    intent: str  # compare | definition | procedure | general
    topics: list[str]  # the topics of a compare question (two or more)
    topic_homes: dict[str, list[str]]  # topic -> documents where a lexical probe finds it
    need: str  # the question's information need (kb.query.read_query: its instructions left out), read once
    key_terms: list[str]  # the question's content terms, identifiers first
    identifiers: list[str]  # technical identifiers and acronyms the evidence must contain
    names: list[str]  # capitalised names (not identifiers) that some evidence passage must hold
    story: list[str]  # words of a situation told before the question: they anchor, but need no cover
    written: list[str]  # code the question writes as typed ("--qz-errors", "glue()"): held as written
    aliases: dict[str, list[str]]  # identifier -> long forms found in the store (acronym expansions)
    plan: list[str]  # human-readable plan steps
    query: str  # the query the next retrieval runs
    queries: list[str]  # per-topic queries when a compare question is split (empty otherwise)
    strategy: str  # how the current query came about: initial, add_terms, split_topics, ...
    queries_tried: list[str]
    rounds: list[dict[str, Any]]  # per round: query, strategy, new/total hits, timings, verdict and reasons
    evidence: list[dict[str, Any]]  # merged hits, unique by chunk_id, in first-found order, with `round`
    evidence_sufficient: bool
    assessment: dict[str, Any]  # latest verdict: sufficient, reasons, missing terms, failing check
    proposal: dict[str, Any] | None  # refinement awaiting approval: previous, query, strategy, reasons
    approval: dict[str, Any] | None  # the last human decision
    refinement_rejected: bool
    mode: str  # ollama | extractive: what produced (or will produce) the answer
    llm_status: dict[str, Any]
    draft: str
    answer: str
    citations: list[dict[str, Any]]
    verification: dict[str, Any]
    refused: bool
    stop_reason: str | None
    refusal_reason: str | None
    refusal: dict[str, Any] | None  # what was tried: queries, documents, best evidence
    counters: dict[str, int]  # steps, tool_calls, rounds, llm_calls
    llm_calls: list[dict[str, Any]]
    trace: Annotated[list[dict[str, Any]], operator.add]  # events with timings, appended by every node


def new_counters() -> dict[str, int]:
    return {"steps": 0, "tool_calls": 0, "rounds": 0, "llm_calls": 0}
