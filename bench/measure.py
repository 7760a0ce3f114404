"""The figures of one corpus's store: retrieval in every mode, the agent, and parse quality, with progress bars."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

from tqdm import tqdm

KS = [1, 3, 5, 8]
MODES = {"hybrid": "hybrid", "dense": "dense", "lexical": "BM25"}


def _bar(total: int, desc: str, unit: str) -> tqdm:
    return tqdm(total=total, desc=desc, unit=unit, file=sys.stderr, dynamic_ncols=True)


def _percentile(values: list[float], share: float) -> float | None:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(len(ordered) * share))], 1) if ordered else None


def retrieval(kb: Any, questions: list[Any], label: str) -> dict[str, Any]:
    """kb.evaluate over the answerable questions at k = 1, 3, 5, 8, per mode: {mode: {metrics, questions}}.
    Latencies are the searches' own (the progress bar is ticked outside the timed call)."""
    from kb.evaluate import evaluate

    kb.search("warm-up", k=1)  # loads the embedding model and the BM25 index
    answerable = sum(q.answerable for q in questions)
    out: dict[str, Any] = {}
    for mode, name in MODES.items():
        latencies: list[float] = []
        with _bar(answerable, f"{label}: retrieval {name}", "question") as bar:

            def search(text: str, k: int, mode: str = mode, bar: tqdm = bar, latencies: list[float] = latencies):
                started = time.perf_counter()
                hits = kb.search(text, k=k, mode=mode)
                latencies.append(1000 * (time.perf_counter() - started))
                bar.update(1)
                return hits

            result = evaluate(questions, search, KS)
        metrics = dict(result["metrics"])
        metrics["latency_p50_ms"] = _percentile(latencies, 0.5)
        metrics["latency_p95_ms"] = _percentile(latencies, 0.95)
        rows = [{k: v for k, v in row.items() if k not in ("texts", "question")} for row in result["questions"]]
        out[mode] = {"metrics": metrics, "questions": rows}
    return out


def agent(kb: Any, questions: list[Any], label: str) -> dict[str, Any]:
    """agent.evaluate in extractive mode with the balanced preset (as `agent eval --mode extractive --preset
    balanced` builds its settings): {settings, metrics, counts, questions}."""
    from agent.evaluate import evaluate
    from agent.settings import AgentSettings

    settings = AgentSettings.for_preset("balanced", mode="extractive")
    with _bar(len(questions), f"{label}: agent", "question") as bar:

        def progress(i: int, n: int, qid: str) -> None:
            bar.n = i - 1
            bar.set_postfix_str(qid, refresh=True)

        result = evaluate(kb, settings, questions, progress)
        bar.n = len(questions)
        bar.refresh()
    rows = result["questions"]
    answerable = [r for r in rows if r["answerable"]]
    answered = [r for r in answerable if not r["refused"]]
    counts = {
        "unanswerable": len(rows) - len(answerable),
        "unanswerable_refused": sum(bool(r["refused"]) for r in rows if not r["answerable"]),
        "answerable": len(answerable),
        "false_refusals": len(answerable) - len(answered),
        "answered": len(answered),
        "answered_citing_gold": sum(bool(r["cites_gold"]) for r in answered),
    }
    return {"settings": {"mode": "extractive", "preset": "balanced"}, **result, "counts": counts}


def made_up(kb: Any, questions: list[Any], label: str) -> dict[str, Any]:
    """The agent on unanswerable variants of the questions (bench.probe: the name of each question's document made
    up): {questions, refused, answered} where answered lists the variants it answered."""
    from agent.evaluate import evaluate
    from agent.settings import AgentSettings
    from bench.probe import cards_of, variants

    probes = variants(questions, cards_of(kb))
    settings = AgentSettings.for_preset("balanced", mode="extractive")
    with _bar(len(probes), f"{label}: made-up names", "question") as bar:
        result = evaluate(kb, settings, probes, lambda i, n, qid: bar.update(1))
    answered = [r["question"] for r in result["questions"] if not r["refused"]]
    return {"questions": len(probes), "refused": len(probes) - len(answered), "answered": answered}


def quality(kb: Any, pdfs: Path, label: str) -> dict[str, Any]:
    """kb.quality figures of the store (PDFs read from their catalogued source, else from `pdfs`), with targets."""
    from kb.quality import measure

    committed = sum(d.status == "committed" for d in kb.documents())
    with _bar(committed, f"{label}: parse quality", "doc") as bar:
        figures = measure(kb, pdfs, lambda doc_id: bar.update(1))
    return {**figures.model_dump(), "targets": [t.model_dump() for t in figures.targets()]}
