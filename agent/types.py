"""The agent's domain records. Graph state holds their JSON dumps (checkpoints and run records stay plain data);
every node builds them through these models, so a field is declared once, with what it means."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from kb.models import Hit

CheckName = Literal[
    "identifiers_covered",
    "key_terms_covered",
    "terms_together",
    "relevant_hits",
    "value_stated",
    "default_stated",
    "recommendation_stated",
    "topics_covered",
    "topic_diversity",
]
Strategy = str  # initial, add_terms, split_topics, expand_acronym, contract_acronym, broaden, llm_rewrite, "+edited"


def dump(model: BaseModel) -> dict[str, Any]:
    """The JSON-like form graph state keeps."""
    return model.model_dump(mode="json")


class Evidence(Hit):
    """A retrieved passage as the agent keeps it: the knowledge base's hit, the query that found it and the round."""

    fused_score: float | None = Field(  # type: ignore[assignment]
        None,
        description="Fused score (see kb.search); None for a chunk taken beside its page's best one.",
    )
    query: str = Field(description="The query whose search returned this passage.")
    round: int = Field(0, description="The retrieval round that first found it (0 in a round's own hit list).")
    runs_on: str = Field(
        "",
        description="The words that finish the sentence the chunk stops in, from the chunk after it (a chunk may "
        "close mid-sentence); '' when it ends a sentence.",
    )
    next_opening: str = Field(
        "",
        description="The first whole sentence of the chunk after it in its document: whether an entry the chunk ends "
        "in goes on there or another one opens; '' at the document's end.",
    )


class Check(BaseModel):
    """One deterministic check of the evidence, with the reason a person can read."""

    check: CheckName = Field(description="Which check.")
    ok: bool = Field(description="Whether it passed.")
    detail: str = Field(description="What was found or what is missing, in words.")


class Assessment(BaseModel):
    """The verdict on the evidence gathered so far."""

    sufficient: bool = Field(description="Every check passed: the answer step may run.")
    failing: CheckName | None = Field(None, description="The first failing check; it picks the refinement.")
    reasons: list[Check] = Field(default_factory=list, description="Every check's outcome, in report order.")
    missing_identifiers: list[str] = Field(
        default_factory=list, description="Identifiers no passage anchors (names dropped only in passing)."
    )
    missing_terms: list[str] = Field(
        default_factory=list, description="Key terms not found where the subject is discussed."
    )
    relevant_hits: int = Field(0, description="Passages judged relevant on the subject's documents.")
    subject_docs: list[str] = Field(
        default_factory=list, description="Documents that anchor the question's identifiers (its subject)."
    )
    llm_grade: dict[str, Any] | None = Field(
        None, description="The LLM grader's opinion ({sufficient, reason} or {error}); never the gate."
    )


class Proposal(BaseModel):
    """A refined query, as run at once or put to the person for approval."""

    previous: str = Field(description="The query it replaces.")
    query: str = Field(description="The refined query (per-topic queries joined by ' || ').")
    queries: list[str] = Field(default_factory=list, description="Per-topic queries when a comparison is split.")
    strategy: Strategy = Field(description="How it was made: add_terms, split_topics, expand_acronym, broaden, ...")
    reasons: list[str] = Field(default_factory=list, description="The failing checks' details that motivated it.")
    alias: dict[str, str] = Field(
        default_factory=dict, description="An acronym and the long form found for it, learned while refining."
    )
    tool_calls: int = Field(0, description="Knowledge-base lookups spent making it (acronym probes).")


class Approval(BaseModel):
    """The person's decision on a proposal."""

    action: Literal["approve", "edit", "reject"] = Field(description="What they chose.")
    proposed: str = Field(description="The query that was proposed.")
    query: str | None = Field(None, description="Their edited query, for an edit.")


class ApprovalRequest(BaseModel):
    """What a paused run shows the person."""

    previous: str = Field(description="The query of the round just assessed.")
    proposed: str = Field(description="The refined query awaiting a decision.")
    strategy: Strategy = Field(description="How the refinement was made.")
    reasons: list[str] = Field(default_factory=list, description="Why the evidence was insufficient.")
    round: int = Field(description="Rounds run so far.")


class HitScore(BaseModel):
    """One hit's ranks and scores in a round."""

    chunk_id: str = Field(description="The hit's chunk.")
    rank: int = Field(description="Its rank in its query's results.")
    fused_score: float | None = Field(None, description="Fused score of the hit (see kb.search).")
    dense_score: float | None = Field(None, description="Cosine similarity to the query.")
    lexical_score: float | None = Field(None, description="BM25 score.")
    new: bool = Field(description="First found in this round.")


class Round(BaseModel):
    """One retrieval round and what came of it."""

    round: int = Field(description="1-based round number.")
    query: str = Field(description="The query as shown (per-topic queries joined by ' || ').")
    queries: list[str] = Field(
        description="The queries searched, then any search for a row a formula in the question needs."
    )
    searched: list[str] = Field(
        default_factory=list, description="What search made of each query when it kept instructions out."
    )
    strategy: Strategy = Field(description="How the query came about.")
    hit_ids: list[str] = Field(default_factory=list, description="Chunks returned, in order.")
    scores: list[HitScore] = Field(default_factory=list, description="Each hit's ranks and scores.")
    new: int = Field(0, description="Hits not seen in earlier rounds.")
    total: int = Field(0, description="Evidence passages after this round.")
    seconds: float = Field(0.0, description="Time the searches took.")
    verdict: Literal["sufficient", "insufficient"] | None = Field(None, description="The assessment of this round.")
    reasons: list[Check] = Field(default_factory=list, description="The checks behind the verdict.")
    llm_grade: dict[str, Any] | None = Field(None, description="The LLM grader's opinion, when asked.")
    refinement: dict[str, str] | None = Field(
        None, description="The proposal that followed: previous, query, strategy."
    )
    approval: Approval | None = Field(None, description="The person's decision on that proposal.")


class EvidenceExcerpt(BaseModel):
    """A passage shown with a refusal: where it is and how it starts."""

    doc_id: str = Field(description="Its document.")
    start_page: int = Field(description="First page.")
    end_page: int = Field(description="Last page.")
    chunk_id: str = Field(description="Its chunk.")
    excerpt: str = Field(description="Its first 240 characters.")


class Refusal(BaseModel):
    """Why the agent did not answer, and what it tried."""

    reason: str = Field(description="insufficient_evidence, refinement_rejected, unsupported_answer, ...")
    stop_reason: str = Field(description="Why the retrieval loop stopped (a budget, sufficiency, no refinement).")
    failing_checks: list[str] = Field(default_factory=list, description="Details of the checks that failed.")
    queries: list[str] = Field(default_factory=list, description="Every query tried.")
    documents: list[str] | str = Field(description="The documents searched ('all documents' when not restricted).")
    best_evidence: list[EvidenceExcerpt] = Field(default_factory=list, description="The best passages found.")
