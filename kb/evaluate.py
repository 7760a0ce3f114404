"""Retrieval evaluation over page-level gold or document-level gold with reference answers."""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field, ValidationError

from kb.models import Hit
from kb.text import STOPWORDS, tokenize


class GoldSpan(BaseModel):
    """A page range of a document that answers the question."""

    doc_id: str = Field(description="Document holding the answer.")
    start_page: int = Field(description="First 1-based page of the span.")
    end_page: int = Field(description="Last 1-based page of the span.")


class Question(BaseModel):
    """One evaluation question, in either accepted format."""

    qid: str = Field(description="Question identifier.")
    question: str = Field(description="The question text.")
    answerable: bool = Field(True, description="False when the corpus does not hold the answer.")
    gold: list[GoldSpan] = Field(default_factory=list, description="Page-level gold spans.")
    doc_id: str | None = Field(None, description="Document-level gold.")
    answer: str | None = Field(None, description="Reference answer, for answer support.")


def load_questions(path: Path) -> list[Question]:
    """Parse a JSONL file; a bad line raises ValueError naming the file, line and field."""
    questions: list[Question] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
            if "end_page" not in data and isinstance(data.get("gold"), list):
                for span in data["gold"]:
                    span.setdefault("end_page", span.get("start_page"))
            questions.append(Question(**data))
        except (json.JSONDecodeError, ValidationError, TypeError) as exc:
            first = exc.errors()[0] if isinstance(exc, ValidationError) else None
            where = f" field '{'.'.join(str(x) for x in first['loc'])}': {first['msg']}" if first else f" {exc}"
            raise ValueError(f"{path.name} line {number}:{where}") from None
    return questions


def _overlaps(hit: Hit | dict, span: GoldSpan) -> bool:
    h = hit if isinstance(hit, dict) else hit.model_dump()
    return h["doc_id"] == span.doc_id and h["start_page"] <= span.end_page and h["end_page"] >= span.start_page


def page_metrics(hits: list[Hit | dict], gold: list[GoldSpan], k: int) -> dict[str, float]:
    """Recall@k, MRR@k and nDCG@k where each gold span counts once."""
    matched: set[int] = set()
    gains: list[float] = []
    first: int | None = None
    for rank, hit in enumerate(hits[:k], 1):
        new = [i for i, span in enumerate(gold) if i not in matched and _overlaps(hit, span)]
        relevant = any(_overlaps(hit, span) for span in gold)
        if relevant and first is None:
            first = rank
        if new:
            matched.add(new[0])
        gains.append(1.0 if new else 0.0)
    dcg = sum(g / math.log2(i + 2) for i, g in enumerate(gains))
    ideal = sum(1 / math.log2(i + 2) for i in range(min(len(gold), k)))
    return {
        "recall": len(matched) / len(gold) if gold else 0.0,
        "mrr": 1.0 / first if first else 0.0,
        "ndcg": dcg / ideal if ideal else 0.0,
    }


def content_words(text: str) -> set[str]:
    return {t for t in tokenize(text) if t not in STOPWORDS and len(t) > 1}


def doc_metrics(hits: list[Hit | dict], doc_id: str, answer: str | None, k: int) -> dict[str, float]:
    """Document hit at k, and the share of the reference answer's content words found in the top k."""
    top = [h if isinstance(h, dict) else h.model_dump() for h in hits[:k]]
    out = {"doc_hit": 1.0 if any(h["doc_id"] == doc_id for h in top) else 0.0}
    if answer:
        words = content_words(answer)
        found = set().union(*(content_words(h["text"]) for h in top)) if top else set()
        out["answer_support"] = len(words & found) / len(words) if words else 0.0
    return out


def evaluate(questions: list[Question], search: Callable[[str, int], list[Hit]], ks: list[int]) -> dict[str, Any]:
    """Run every answerable question once at max(k) and aggregate metrics at each k."""
    depth = max(ks)
    per_question: list[dict[str, Any]] = []
    sums: dict[str, list[float]] = {}
    latencies: list[float] = []
    for q in questions:
        if not q.answerable:
            continue
        t0 = time.perf_counter()
        hits = search(q.question, depth)
        latencies.append(time.perf_counter() - t0)
        row: dict[str, Any] = {
            "qid": q.qid,
            "question": q.question,
            "hits": [
                {"doc_id": h.doc_id, "start_page": h.start_page, "end_page": h.end_page, "chunk_id": h.chunk_id}
                for h in hits
            ],
            "texts": [h.text for h in hits],
        }
        for k in ks:
            scores = page_metrics(hits, q.gold, k) if q.gold else doc_metrics(hits, q.doc_id or "", q.answer, k)
            for name, value in scores.items():
                sums.setdefault(f"{name}@{k}", []).append(value)
                row[f"{name}@{k}"] = value
        row["gold"] = [s.model_dump() for s in q.gold] if q.gold else q.doc_id
        per_question.append(row)
    metrics = {name: round(sum(v) / len(v), 4) for name, v in sorted(sums.items())}
    latencies.sort()
    metrics["questions"] = len(per_question)
    metrics["unanswerable_skipped"] = sum(1 for q in questions if not q.answerable)
    if latencies:
        metrics["latency_p50_ms"] = round(1000 * latencies[len(latencies) // 2], 1)
        metrics["latency_p95_ms"] = round(1000 * latencies[min(len(latencies) - 1, int(len(latencies) * 0.95))], 1)
    return {"metrics": metrics, "questions": per_question}


def report_markdown(result: dict[str, Any], ks: list[int]) -> str:
    """Metrics table, then each question whose gold was missed in the top max(k), with its top hits."""
    depth = max(ks)
    lines = ["# Retrieval evaluation", "", "| metric | value |", "|---|---|"]
    lines += [f"| {name} | {value} |" for name, value in result["metrics"].items()]
    missed = [q for q in result["questions"] if q.get(f"recall@{depth}", q.get(f"doc_hit@{depth}", 1.0)) < 1.0]
    lines += ["", f"## Questions whose gold was missed in the top {depth} ({len(missed)})", ""]
    for q in missed:
        lines += [f"### {q['qid']}: {q['question']}", "", f"Gold: `{json.dumps(q['gold'])}`", ""]
        for rank, (hit, text) in enumerate(zip(q["hits"], q["texts"]), 1):
            excerpt = " ".join(text.split())[:160].replace("|", "\\|")
            lines.append(f"{rank}. {hit['doc_id']} p.{hit['start_page']}-{hit['end_page']}: {excerpt}")
        lines.append("")
    return "\n".join(lines)
