"""End-to-end agent evaluation: refusals, citation validity, gold among the citations, rounds, LLM calls, latency."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import numpy as np

from agent.events import EndEvent
from agent.knowledge import Knowledge
from agent.runner import Agent, result_of
from agent.settings import AgentSettings
from kb.evaluate import Question
from kb.text import tokenize


def _valid(citation: dict[str, Any], kb: Knowledge) -> bool:
    """A citation is valid when its chunk exists in the store with the same document and pages."""
    chunk = kb.chunk(citation["chunk_id"])
    return chunk is not None and all(getattr(chunk, f) == citation[f] for f in ("doc_id", "start_page", "end_page"))


def _gold(citation: dict[str, Any], q: Question) -> bool:
    if q.gold:
        return any(
            span.doc_id == citation["doc_id"]
            and citation["start_page"] <= span.end_page
            and citation["end_page"] >= span.start_page
            for span in q.gold
        )
    return q.doc_id is not None and citation["doc_id"] == q.doc_id


_NUMBER = re.compile(r"(?<![\w.])[-+]?\d[\d,]*(?:\.\d+)?")


def _numbers(text: str) -> set[float]:
    out = set()
    for match in _NUMBER.finditer(text):
        try:
            out.add(round(float(match.group().replace(",", "")), 6))
        except ValueError:
            continue
    return out


def answer_recall(reference: str, answer: str) -> float | None:
    """Share of the reference answer's content words (stemmed, stop words dropped) and numbers (1,577 = 1577.00)
    found in the answer; None without a reference. Citation markers are not words of the answer."""
    answer = re.sub(r"\[c\d+\]", " ", answer)
    ref_numbers, ans_numbers = _numbers(reference), _numbers(answer)
    ref_words = {t for t in tokenize(reference) if not any(c.isdigit() for c in t)}
    ans_words = set(tokenize(answer))
    total = len(ref_words) + len(ref_numbers)
    if not total:
        return None
    return (len(ref_words & ans_words) + len(ref_numbers & ans_numbers)) / total


def _mean(values: list[float]) -> float | None:
    return round(float(np.mean(values)), 3) if values else None


def evaluate(
    kb: Knowledge,
    settings: AgentSettings,
    questions: list[Question],
    progress: Callable[[int, int, str], None] | None = None,
) -> dict[str, Any]:
    agent = Agent(kb, settings, save_runs=False)
    rows: list[dict[str, Any]] = []
    for i, q in enumerate(questions, 1):
        if progress:
            progress(i, len(questions), q.qid)
        state: dict[str, Any] = {}
        run_id = f"eval-{q.qid}"
        for event in agent.ask(q.question, run_id=run_id):
            if isinstance(event, EndEvent):
                state = event.record.state
        result = (
            result_of(state, run_id)
            if state
            else {
                "refused": True,
                "refusal_reason": "error",
                "citations": [],
                "rounds": 0,
                "llm_calls": 0,
                "seconds": 0.0,
            }
        )
        cites = result["citations"]
        rows.append(
            {
                "qid": q.qid,
                "question": q.question,
                "answerable": q.answerable,
                **{
                    k: result.get(k)
                    for k in (
                        "answer",
                        "refused",
                        "refusal_reason",
                        "stop_reason",
                        "mode",
                        "rounds",
                        "llm_calls",
                        "seconds",
                    )
                },
                "citations": cites,
                "citations_valid": all(_valid(c, kb) for c in cites),
                "cites_gold": any(_gold(c, q) for c in cites),
                "gold_share": sum(_gold(c, q) for c in cites) / len(cites) if cites else None,
                # A refusal holds none of the reference answer.
                "answer_recall": None
                if not q.answer
                else (0.0 if result["refused"] else answer_recall(q.answer, result.get("answer") or "")),
            }
        )
    answerable = [r for r in rows if r["answerable"]]
    unanswerable = [r for r in rows if not r["answerable"]]
    answered = [r for r in rows if not r["refused"]]
    all_cites = [(c, r) for r in answered for c in r["citations"]]
    metrics = {
        "questions": len(rows),
        "answerable": len(answerable),
        "unanswerable": len(unanswerable),
        "refusal_accuracy_unanswerable": _mean([float(r["refused"]) for r in unanswerable]),
        "false_refusal_rate_answerable": _mean([float(r["refused"]) for r in answerable]),
        "citation_validity": _mean([float(_valid(c, kb)) for c, _ in all_cites]),
        "cites_gold_of_answerable": _mean([float(r["cites_gold"]) for r in answerable]),
        "cites_gold_of_answered": _mean([float(r["cites_gold"]) for r in answered if r["answerable"]]),
        "answer_recall": _mean([r["answer_recall"] for r in answerable if r["answer_recall"] is not None]),
        "gold_share_of_citations": _mean(
            [r["gold_share"] for r in answered if r["answerable"] and r["gold_share"] is not None]
        ),
        "rounds_per_question": _mean([r["rounds"] for r in rows]),
        "llm_calls_per_question": _mean([r["llm_calls"] for r in rows]),
        "seconds_per_question": _mean([r["seconds"] for r in rows]),
        "seconds_p95": round(float(np.percentile([r["seconds"] for r in rows], 95)), 3) if rows else None,
        "modes": {m: sum(r["mode"] == m for r in rows) for m in sorted({r["mode"] or "" for r in rows})},
        "preset": settings.preset,
    }
    return {"metrics": metrics, "questions": rows}


def report_markdown(result: dict[str, Any]) -> str:
    lines = ["# Agent evaluation", "", "| metric | value |", "|---|---|"]
    lines += [f"| {k} | {v} |" for k, v in result["metrics"].items()]
    wrong = [
        r
        for r in result["questions"]
        if r["refused"] == r["answerable"] or (r["answerable"] and not r["refused"] and not r["cites_gold"])
    ]
    lines += ["", f"## Questions to look at ({len(wrong)})", ""]
    for r in wrong:
        what = f"refused ({r['refusal_reason']}, stop {r['stop_reason']})" if r["refused"] else "answered"
        lines.append(
            f"- **{r['qid']}** ({'answerable' if r['answerable'] else 'unanswerable'}, {what}): {r['question']}"
        )
        if not r["refused"]:
            cited = ", ".join(f"{c['doc_id']} p.{c['start_page']}" for c in r["citations"])
            lines.append(f"  - cited: {cited}")
    return "\n".join(lines) + "\n"
