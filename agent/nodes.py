"""The graph's retrieval-loop nodes, plain functions of the state and the run context (`Deps`). Each returns a partial
state update; `node` times it, records a `NodeEvent` in the trace and streams it."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import Any

from langgraph.runtime import Runtime
from langgraph.types import interrupt

from agent.assess import assess as assess_evidence
from agent.assess import topic_hits
from agent.events import NodeEvent
from agent.evidence import is_evidence
from agent.followup import resolve
from agent.gather import Readers, entry_rests, merged, operand_probes, with_page_chunks
from agent.intent import plan_for, read_question, terms_of
from agent.llm import Grade, LLMError, LLMStatus, OllamaLLM, Rewrite
from agent.prompts import grader_messages, rewrite_messages
from agent.refine import SearchFn, propose
from agent.settings import AgentSettings
from agent.types import Approval, ApprovalRequest, Proposal, Round, dump
from kb.query import SearchQuery


@dataclass
class Deps:
    """What the nodes need from outside: the knowledge base's search, its catalogue, and the LLM."""

    search: SearchFn  # (query, k=, docs=, mode=) -> list of hit dicts
    documents: Callable[[], list[str]]  # committed document ids
    probe: Callable[[AgentSettings], LLMStatus]
    make_llm: Callable[[AgentSettings], OllamaLLM] = OllamaLLM
    embed: Callable[[list[str]], Any] | None = None  # normalised sentence vectors, for ranking answer sentences
    # What search makes of a query: its information need (instructions left out) and where it says to look.
    read_query: Callable[[str], SearchQuery] = lambda query: SearchQuery(question=query, need=query)
    chunk: Callable[[str], dict[str, Any] | None] = lambda chunk_id: None  # a chunk by id, as a hit-shaped dict
    following: Callable[[str], dict[str, Any] | None] = lambda chunk_id: None  # the chunk after it, hit-shaped


def node(name: str):
    """Count the step, time the node, and record what it did as a NodeEvent in the trace and on the event stream."""

    def wrap(fn: Callable[[dict[str, Any], Runtime[Deps]], dict[str, Any]]):
        @wraps(fn)
        def run(state: dict[str, Any], runtime: Runtime[Deps]) -> dict[str, Any]:
            started = time.time()
            t0 = time.perf_counter()
            update = fn(state, runtime)
            counters = dict(update.get("counters") or state["counters"])
            counters["steps"] += 1
            event = NodeEvent(
                node=name,
                started=round(started, 3),
                seconds=round(time.perf_counter() - t0, 4),
                summary=update.pop("_summary", ""),
                **update.pop("_event", {}),
            )
            runtime.stream_writer(event)
            return {**update, "counters": counters, "trace": [event.trace()]}

        return run

    return wrap


def bump(state: dict[str, Any], **add: int) -> dict[str, int]:
    counters = dict(state["counters"])
    for key, value in add.items():
        counters[key] += value
    return counters


def context_of(state: dict[str, Any], size: int | None = None) -> list[dict[str, Any]]:
    """The best evidence, numbered c1..cN: best ranks of every round first, so each round contributes; the subject's
    documents first when the assessment knows them (the answer is drawn from them alone, and another document's
    passages ranking higher would leave it only a heading). Reference lists and contents pages are never offered
    for citation."""
    usable = [hit for hit in state.get("evidence", []) if is_evidence(hit)]
    subjects = set((state.get("assessment") or {}).get("subject_docs") or [])
    ranked = sorted(
        enumerate(usable),
        key=lambda e: (bool(subjects) and e[1]["doc_id"] not in subjects, e[1]["rank"], e[1]["round"], e[0]),
    )
    size = size or AgentSettings.of(state).answer.context_size
    return [{**hit, "key": f"c{i}"} for i, (_, hit) in enumerate(ranked[:size], 1)]


def budget_stop(state: dict[str, Any], calls_needed: int = 1, steps_needed: int = 7) -> str | None:
    """Which budget (if any) forbids another cycle; the default steps are refine, approve, retrieve, assess and the
    worst ending (answer, verify, refuse)."""
    s, c = state["settings"], state["counters"]
    if c["rounds"] >= s["max_rounds"]:
        return "max_rounds"
    if c["tool_calls"] + calls_needed > s["max_tool_calls"]:
        return "max_tool_calls"
    if c["steps"] + steps_needed > s["max_steps"]:
        return "max_steps"
    return None


# route -----------------------------------------------------------------------------------------
def route(state: dict[str, Any], runtime: Runtime[Deps]) -> dict[str, Any]:
    s = AgentSettings.of(state)
    if s.mode == "extractive":
        mode, llm_status, note = "extractive", {}, "extractive mode (chosen)"
    else:
        status = runtime.context.probe(s)
        mode, llm_status = ("ollama" if status.usable else "extractive"), status.model_dump()
        note = f"Ollama model {s.model}" if status.usable else status.message
    # A follow-up is rewritten into a question that stands alone before anything else reads it.
    follow, llm_update = resolve(state, (lambda: runtime.context.make_llm(s)) if mode == "ollama" else None)
    question = follow.question
    own = s.checks.story_own_terms
    reading = read_question(question, own_terms=own)
    need = " ".join(runtime.context.read_query(question).need.split())
    if need and need != " ".join(question.split()):
        # Persona, format instructions and supplied definitions are not what the evidence must hold, nor what the
        # question asks for ("Answer briefly: what does X stand for?" asks for a definition). A need that reads as
        # no comparison keeps the whole question's (its topics may sit in a sentence the need left out).
        focus = read_question(need, whole=question, own_terms=own)
        update = terms_of(focus)
        if reading.intent != "compare" or focus.intent == "compare":
            update.update(intent=focus.intent, topics=focus.topics, error=focus.error)
        reading = reading.model_copy(update=update)
    out: dict[str, Any] = {
        "question": question,
        "need": need or " ".join(question.split()),
        "follow_up": dump(follow) if follow.rewritten else None,
        "intent": reading.intent,
        "topics": reading.topics,
        **terms_of(reading),
        "plan": plan_for(reading),
        "query": question,
        "queries": [],
        "strategy": "initial",
        "mode": mode,
        "llm_status": llm_status,
        **{k: v for k, v in llm_update.items() if not k.startswith("_")},
    }
    if reading.error:
        return {
            **out,
            "stop_reason": "invalid_question",
            "refusal_reason": "invalid_question",
            "_summary": reading.error,
        }
    available = runtime.context.documents()
    scope = [d for d in available if s.docs is None or d in s.docs]
    if not scope:
        why = "the library is empty" if not available else "none of the selected documents is in the library"
        return {**out, "stop_reason": "no_documents", "refusal_reason": "no_documents", "_summary": why}
    calls = 0
    homes: dict[str, list[str]] = {}
    # One lexical probe per topic finds its home document, within the tool budget (a call is left for retrieval):
    # a topic past it has no home, and its evidence may come from any document.
    probed = reading.topics[: max(0, s.max_tool_calls - 1)] if reading.intent == "compare" else []
    for topic in probed:
        hits = topic_hits(
            topic,
            runtime.context.search(topic, k=s.checks.topic_probe_k, docs=s.docs, mode="lexical"),
            s.checks.topic_term_share,
        )
        calls += 1
        homes[topic] = [hits[0]["doc_id"]] if hits else []
    out.update(topic_homes=homes, counters=bump({**state, **out}, tool_calls=calls))
    summary = (
        (f"read as {question!r} ({follow.how}); " if follow.rewritten else "")
        + f"intent {reading.intent}"
        + (f" ({' vs '.join(map(repr, reading.topics))})" if reading.topics else "")
        + f"; {note}"
    )
    warnings = [note] if not (mode == s.mode or (s.mode == "auto" and mode == "ollama")) else []
    warnings += [llm_update["_warning"]] if llm_update.get("_warning") else []
    return {
        **out,
        "_summary": summary,
        "_event": {
            "intent": reading.intent,
            "topics": reading.topics,
            "mode": mode,
            "key_terms": reading.key_terms,
            "standalone": question if follow.rewritten else None,
            "follow_up": dump(follow) if follow.rewritten else None,
            "warning": "; ".join(warnings),
        },
    }


# retrieve --------------------------------------------------------------------------------------
def retrieve(state: dict[str, Any], runtime: Runtime[Deps]) -> dict[str, Any]:
    s = AgentSettings.of(state)
    number = state["counters"]["rounds"] + 1
    t0 = time.perf_counter()
    queries = state.get("queries") or [state["query"]]
    quota = math.ceil(s.k / len(queries))
    homes = state.get("topic_homes", {})
    readers = Readers(chunk=runtime.context.chunk, following=runtime.context.following)
    results: list[dict[str, Any]] = []
    for i, query in enumerate(queries):
        docs = s.docs
        if len(queries) > 1 and i < len(state.get("topics", [])):
            home = homes.get(state["topics"][i], [])
            docs = [d for d in home if s.docs is None or d in s.docs] or s.docs
        hits = runtime.context.search(query, k=quota if len(queries) > 1 else s.k, docs=docs)
        results += with_page_chunks(hits, query, readers, s.page_chunks)
    subject = [*state.get("identifiers", []), *(state.get("written") or [])]
    results += entry_rests(results, subject, state.get("aliases") or {}, readers, s.entry_rests)
    probes = operand_probes(state, results, runtime.context.search, s)
    for probe, hits in probes.items():
        # All of the page's matching chunks: the row sought may sit in any part of the statement's page.
        results += with_page_chunks(hits, probe, readers, None)
    queries = [*queries, *probes]
    evidence, hits = merged(state.get("evidence", []), results, number)
    searched = [runtime.context.read_query(q).text for q in queries]
    record = Round(
        round=number,
        query=state["query"],
        queries=queries,
        searched=searched if searched != queries else [],
        strategy=state["strategy"],
        hit_ids=[h["chunk_id"] for h in hits],
        scores=hits,  # each hit's ranks and scores
        new=sum(h["new"] for h in hits),
        total=len(evidence),
        seconds=round(time.perf_counter() - t0, 4),
    )
    return {
        "evidence": evidence,
        "rounds": [*state.get("rounds", []), dump(record)],
        "queries_tried": [*state.get("queries_tried", []), state["query"]],
        "counters": bump(state, tool_calls=len(queries), rounds=1),
        "_summary": f"round {number}: {len(hits)} hits, {record.new} new, {len(evidence)} in total",
        "_event": {
            "round": number,
            "query": state["query"],
            "searched": record.searched,
            "strategy": state["strategy"],
            "hits": hits,
        },
    }


# assess ----------------------------------------------------------------------------------------
def assess(state: dict[str, Any], runtime: Runtime[Deps]) -> dict[str, Any]:
    s = AgentSettings.of(state)
    verdict = assess_evidence(state)
    update: dict[str, Any] = {}
    if s.llm_grader and state.get("mode") == "ollama":
        llm = runtime.context.make_llm(s)
        try:
            grade = llm.structured("grade", grader_messages(state["question"], context_of(state)), Grade)
            verdict.llm_grade = {"sufficient": grade.sufficient, "reason": grade.reason}
        except LLMError as err:
            verdict.llm_grade = {"error": err.message}
        update.update(counters=bump(state, llm_calls=1), llm_calls=[*state.get("llm_calls", []), *llm.calls])
    last = Round.model_validate(state["rounds"][-1])
    last.verdict = "sufficient" if verdict.sufficient else "insufficient"
    last.reasons, last.llm_grade = verdict.reasons, verdict.llm_grade
    failing = [r.detail for r in verdict.reasons if not r.ok]
    return {
        **update,
        "assessment": dump(verdict),
        "evidence_sufficient": verdict.sufficient,
        "rounds": [*state["rounds"][:-1], dump(last)],
        "stop_reason": "evidence_sufficient" if verdict.sufficient else None,
        "_summary": "sufficient" if verdict.sufficient else "insufficient: " + "; ".join(failing),
        "_event": {
            "round": last.round,
            "verdict": last.verdict,
            "reasons": verdict.reasons,
            "llm_grade": verdict.llm_grade,
        },
    }


# refine ----------------------------------------------------------------------------------------
def refine(state: dict[str, Any], runtime: Runtime[Deps]) -> dict[str, Any]:
    s = AgentSettings.of(state)
    update: dict[str, Any] = {}
    proposal = None
    if s.llm_rewrite and state.get("mode") == "ollama":
        llm = runtime.context.make_llm(s)
        reasons = [r["detail"] for r in state["assessment"]["reasons"] if not r["ok"]]
        try:
            query = llm.structured(
                "rewrite", rewrite_messages(state["question"], state["query"], reasons), Rewrite
            ).query.strip()
            if query and query.lower() not in {q.lower() for q in state.get("queries_tried", [])}:
                proposal = Proposal(previous=state["query"], query=query, strategy="llm_rewrite", reasons=reasons)
        except LLMError as err:
            update["_event"] = {"warning": f"LLM rewrite failed ({err.message}); using rule-based refinement"}
        update.update(counters=bump(state, llm_calls=1), llm_calls=[*state.get("llm_calls", []), *llm.calls])
    counters = update.get("counters", state["counters"])
    if proposal is None:
        left = s.max_tool_calls - counters["tool_calls"] - 1
        proposal = propose(state, runtime.context.search, s.refine, probes=max(0, min(s.refine.probes, left - 1)))
    if proposal is None:
        return {**update, "proposal": None, "stop_reason": "no_refinement", "_summary": "no new query left to try"}
    counters = dict(counters)
    counters["tool_calls"] += proposal.tool_calls
    aliases = {k: list(v) for k, v in (state.get("aliases") or {}).items()}
    for name, alias in proposal.alias.items():
        aliases.setdefault(name, [])
        if alias not in aliases[name]:
            aliases[name].append(alias)
    last = Round.model_validate(state["rounds"][-1])
    last.refinement = {"previous": proposal.previous, "query": proposal.query, "strategy": proposal.strategy}
    out = {
        **update,
        "proposal": dump(proposal),
        "aliases": aliases,
        "rounds": [*state["rounds"][:-1], dump(last)],
        "counters": counters,
        "_summary": f"{proposal.strategy}: {proposal.previous!r} -> {proposal.query!r}",
        "_event": {**update.get("_event", {}), "refinement": proposal},
    }
    if not s.approval:
        out.update(query=proposal.query, queries=proposal.queries, strategy=proposal.strategy)
    return out


# approve ---------------------------------------------------------------------------------------
def approve(state: dict[str, Any], runtime: Runtime[Deps]) -> dict[str, Any]:
    proposal = Proposal.model_validate(state["proposal"])
    request = ApprovalRequest(
        previous=proposal.previous,
        proposed=proposal.query,
        strategy=proposal.strategy,
        reasons=proposal.reasons,
        round=state["counters"]["rounds"],
    )
    decision = interrupt(dump(request))
    if isinstance(decision, str):
        decision = {"action": decision}
    action = str((decision or {}).get("action", "approve")).lower()
    if action == "edit" and str(decision.get("query", "")).strip():
        query = " ".join(str(decision["query"]).split())
        approval = Approval(action="edit", query=query, proposed=proposal.query)
        # The person's query says what to look for: its terms replace the question's in the checks.
        edited = read_question(query)
        update = {
            "query": query,
            "queries": [],
            "strategy": f"{proposal.strategy}+edited",
            **terms_of(edited),
        }
    elif action == "reject":
        approval = Approval(action="reject", proposed=proposal.query)
        update = {"refinement_rejected": True, "stop_reason": "refinement_rejected"}
    else:
        approval = Approval(action="approve", proposed=proposal.query)
        update = {"query": proposal.query, "queries": proposal.queries, "strategy": proposal.strategy}
    last = Round.model_validate(state["rounds"][-1])
    last.approval = approval
    return {
        **update,
        "approval": dump(approval),
        "rounds": [*state["rounds"][:-1], dump(last)],
        "proposal": None,
        "_summary": f"human: {approval.action}" + (f" -> {approval.query!r}" if approval.action == "edit" else ""),
        "_event": {"approval": approval},
    }
