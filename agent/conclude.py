"""The closing nodes, plain functions of the state and the run context: compose the answer (Ollama or extractive),
verify its citations, or refuse with reasons."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from agent import extractive
from agent.events import TokenEvent
from agent.evidence import named_documents
from agent.llm import LLMError
from agent.nodes import Deps, budget_stop, bump, context_of
from agent.prompts import answer_messages
from agent.settings import AgentSettings
from agent.types import EvidenceExcerpt, Refusal, dump
from agent.verify import check_citations, cited_keys, is_refusal, renumbered


# answer ----------------------------------------------------------------------------------------
def answer(state: dict[str, Any], runtime: Runtime[Deps]) -> dict[str, Any]:
    s = AgentSettings.of(state)
    context = context_of(state)
    # Both paths answer from the subject's documents only, when it is known: the documents its identifiers anchor,
    # else those the question names (unless it compares: each topic has its own). Another document's passages that
    # share the question's words are about something else; its figures would answer for another organisation or year.
    named = named_documents(context) if state.get("intent") != "compare" else set()
    subjects = set(state.get("assessment", {}).get("subject_docs") or []) or named
    context = [c for c in context if not subjects or c["doc_id"] in subjects]
    mode, warning, update = state.get("mode", "extractive"), "", {}
    draft = ""
    if mode == "ollama":
        llm = runtime.context.make_llm(s)
        try:
            draft = llm.stream(
                "answer",
                answer_messages(state["question"], context, s.answer.sentences),
                lambda text: runtime.stream_writer(TokenEvent(text=text)),
            )
        except LLMError as err:
            mode, warning = "extractive", f"{err.message}; answering in extractive mode"
        update.update(counters=bump(state, llm_calls=1), llm_calls=[*state.get("llm_calls", []), *llm.calls])
    if mode == "extractive":
        draft = extractive.compose(
            state["question"],
            state.get("intent", "general"),
            state.get("topics", []),
            context,
            s.answer,
            runtime.context.embed,
            state.get("aliases"),
            state.get("need") or state["question"],
        )
    return {
        **update,
        "draft": draft,
        "mode": mode,
        "_summary": f"{mode} draft, {len(cited_keys(draft))} passage(s) cited" + (f"; {warning}" if warning else ""),
        "_event": {"mode": mode, "draft": draft, "warning": warning},
    }


# verify ----------------------------------------------------------------------------------------
def verify(state: dict[str, Any], runtime: Runtime[Deps]) -> dict[str, Any]:
    s = AgentSettings.of(state)
    context = context_of(state)
    draft = state.get("draft", "")
    if state.get("mode") == "ollama" and is_refusal(draft):
        return {
            "refusal_reason": "model_refused",
            "verification": {"sentences": [], "model_refused": True},
            "_summary": "the model declined: the evidence does not support an answer",
        }
    record = (
        check_citations(draft, context, s.answer.support_threshold, computed=state.get("mode") == "extractive")
        if draft.strip()
        else {
            "sentences": [],
            "answer": "",
            "refusal_reason": "unsupported_answer",
            "threshold": s.answer.support_threshold,
        }
    )
    if record["refusal_reason"]:
        return {
            "refusal_reason": record["refusal_reason"],
            "verification": record,
            "_summary": f"answer rejected: {record['refusal_reason']}",
        }
    by_key = {c["key"]: c for c in context}
    # Citations are numbered as a reader meets them; each sentence's record keeps its new numbers too.
    answer, mapping = renumbered(record["answer"])
    record["answer"] = answer
    for entry in record["sentences"]:  # a removed sentence keeps only its evidence keys: its numbers would clash
        entry["evidence_keys"] = entry["keys"]
        entry["keys"] = [mapping[k] for k in entry["keys"]] if entry["kept"] else []
    citations = [
        {
            "key": new,
            "evidence_key": old,
            **{
                f: by_key[old].get(f)
                for f in (
                    "chunk_id",
                    "doc_id",
                    "start_page",
                    "end_page",
                    "section",
                    "head",
                    "text",
                    "runs_on",
                    "regions",
                )
            },
        }
        for old, new in mapping.items()
    ]
    removed = sum(not e["kept"] for e in record["sentences"])
    return {
        "answer": record["answer"],
        "citations": citations,
        "verification": record,
        "refused": False,
        "_summary": f"{len(record['sentences']) - removed} sentence(s) verified, {removed} removed",
        "_event": {"answer": record["answer"], "citations": citations, "mode": state.get("mode")},
    }


# refuse ----------------------------------------------------------------------------------------
def refuse(state: dict[str, Any], runtime: Runtime[Deps]) -> dict[str, Any]:
    stop = state.get("stop_reason") or budget_stop(state) or "no_refinement"
    if state.get("refinement_rejected") and not state.get("evidence_sufficient"):
        reason = "refinement_rejected"
    else:
        reason = state.get("refusal_reason") or "insufficient_evidence"
    failing = [r["detail"] for r in state.get("assessment", {}).get("reasons", []) if not r["ok"]]
    best = [EvidenceExcerpt(**h, excerpt=h["text"][:240]) for h in context_of(state)[:3]]
    refusal = Refusal(
        reason=reason,
        stop_reason=stop,
        failing_checks=failing,
        queries=state.get("queries_tried", []),
        documents=AgentSettings.of(state).docs or "all documents",
        best_evidence=best,
    )
    messages = {
        "insufficient_evidence": "The documents do not contain enough evidence to answer this question",
        "refinement_rejected": "Query refinement was rejected and the evidence found so far is not sufficient",
        "unsupported_answer": "No answer sentence could be verified against the cited evidence",
        "invalid_citation": "The answer cited evidence that does not exist",
        "model_refused": "The model found that the evidence does not support an answer",
        "no_documents": "There are no documents to search",
        "invalid_question": state["trace"][-1]["summary"] if state.get("trace") else "The question is invalid",
    }
    detail = f" ({'; '.join(failing)})" if failing and reason == "insufficient_evidence" else ""
    text = f"{messages.get(reason, reason)}{detail}."
    return {
        "refused": True,
        "answer": text,
        "citations": [],
        "refusal": dump(refusal),
        "refusal_reason": reason,
        "stop_reason": stop,
        "_summary": f"refused: {reason} (stop: {stop})",
        "_event": {"refusal": refusal, "answer": text},
    }
