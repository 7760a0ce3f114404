"""The events a run streams to the UI and the CLI: declared types, read by attribute, never raw state keys.

A run yields `StartEvent`, then a `NodeEvent` per node (and `TokenEvent`s while an LLM writes), and ends with an
`EndEvent` (done or paused), an `InterruptEvent` before a pause, or an `ErrorEvent`.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from agent.runs import RunRecord
from agent.types import Approval, ApprovalRequest, Check, Proposal, Refusal

NodeName = Literal["route", "retrieve", "assess", "refine", "approve", "answer", "verify", "refuse"]


class NodeEvent(BaseModel):
    """One node's step: its timing and summary, and what it found for the fields that concern it. The graph's trace
    keeps the same record (without run_id)."""

    kind: Literal["node"] = Field("node", description="Event type.")
    run_id: str = Field("", description="The run (empty inside the graph's trace).")
    node: NodeName = Field(description="The node that ran.")
    started: float = Field(description="Unix time it started.")
    seconds: float = Field(description="How long it took.")
    summary: str = Field("", description="One line on what it did.")
    # route
    intent: str | None = Field(None, description="route: compare, definition, procedure or general.")
    topics: list[str] | None = Field(None, description="route: the topics of a comparison (two or more).")
    key_terms: list[str] | None = Field(None, description="route: the question's content terms.")
    mode: str | None = Field(None, description="route, answer, verify: ollama or extractive.")
    standalone: str | None = Field(None, description="route: the follow-up rewritten to stand alone, when it was.")
    follow_up: dict[str, Any] | None = Field(
        None, description="route: how the follow-up was read (agent.followup.FollowUp dump), when it was rewritten."
    )
    warning: str | None = Field(None, description="Something the person should know (a fallback, a failure).")
    # retrieve / assess
    round: int | None = Field(None, description="retrieve, assess: the round number.")
    query: str | None = Field(None, description="retrieve: the query run.")
    searched: list[str] | None = Field(None, description="retrieve: what search made of the queries.")
    strategy: str | None = Field(None, description="retrieve: how the query came about.")
    hits: list[dict[str, Any]] | None = Field(None, description="retrieve: the hits (Evidence dumps with `new`).")
    verdict: str | None = Field(None, description="assess: sufficient or insufficient.")
    reasons: list[Check] | None = Field(None, description="assess: the checks behind the verdict.")
    llm_grade: dict[str, Any] | None = Field(None, description="assess: the LLM grader's opinion, when asked.")
    # refine / approve
    refinement: Proposal | None = Field(None, description="refine: the proposed query.")
    approval: Approval | None = Field(None, description="approve: the person's decision.")
    # answer / verify / refuse
    draft: str | None = Field(None, description="answer: the draft before verification.")
    answer: str | None = Field(None, description="verify, refuse: the answer (or refusal) shown.")
    citations: list[dict[str, Any]] | None = Field(None, description="verify: the cited passages.")
    refusal: Refusal | None = Field(None, description="refuse: why, and what was tried.")

    def trace(self) -> dict[str, Any]:
        """The form kept in the graph's trace: only the fields this node set."""
        return self.model_dump(mode="json", exclude_none=True, exclude={"kind", "run_id"})


class StartEvent(BaseModel):
    kind: Literal["start"] = Field("start", description="Event type.")
    run_id: str = Field(description="The run.")
    question: str = Field(description="The question, whitespace normalised.")
    settings: dict[str, Any] = Field(description="The settings the run uses.")


class TokenEvent(BaseModel):
    kind: Literal["token"] = Field("token", description="Event type.")
    run_id: str = Field("", description="The run.")
    text: str = Field(description="Text the LLM just wrote.")


class InterruptEvent(BaseModel):
    kind: Literal["interrupt"] = Field("interrupt", description="Event type.")
    run_id: str = Field(description="The run.")
    payload: ApprovalRequest = Field(description="What the person is asked to decide.")


class EndEvent(BaseModel):
    model_config = ConfigDict(arbitrary_types_allowed=True)

    kind: Literal["done", "paused"] = Field(description="done: the run ended; paused: it waits for approval.")
    run_id: str = Field(description="The run.")
    result: dict[str, Any] = Field(description="The compact outcome (what `agent ask --json` prints).")
    record: RunRecord = Field(description="The full run record, as saved.")


class ErrorEvent(BaseModel):
    kind: Literal["error"] = Field("error", description="Event type.")
    run_id: str = Field(description="The run.")
    message: str = Field(description="One line on what went wrong.")


Event = Annotated[
    StartEvent | NodeEvent | TokenEvent | InterruptEvent | EndEvent | ErrorEvent, Field(discriminator="kind")
]
