"""Run records: one JSON file per run under data/runs, listed newest first for the history page."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

_SAFE_ID = re.compile(r"^[A-Za-z0-9_-]{1,80}$")


class RunSummary(BaseModel):
    """One line of the run history."""

    run_id: str = Field(description="Identifier of the run (also its checkpoint thread id).")
    question: str = Field(description="The question asked.")
    outcome: Literal["answered", "refused", "paused"] = Field(description="How the run ended (or that it waits).")
    refusal_reason: str | None = Field(None, description="Why it refused, when it did.")
    stop_reason: str | None = Field(None, description="Why the retrieval loop stopped.")
    mode: str = Field("", description="ollama or extractive: what produced the answer.")
    model: str | None = Field(None, description="The Ollama model, in ollama mode.")
    rounds: int = Field(0, description="Retrieval rounds.")
    llm_calls: int = Field(0, description="LLM calls made.")
    seconds: float = Field(0.0, description="Wall time of the run, pauses excluded.")
    started_at: float = Field(description="Unix time the run started.")


class RunRecord(RunSummary):
    """Everything about a run: settings, full final state (trace, rounds, evidence, LLM calls, answer, citations)."""

    settings: dict[str, Any] = Field(default_factory=dict, description="The settings the run used.")
    state: dict[str, Any] = Field(default_factory=dict, description="The graph's final (or paused) state.")
    node_seconds: dict[str, float] = Field(default_factory=dict, description="Total time spent in each node.")


def record_from_state(
    run_id: str, state: dict[str, Any], started_at: float, seconds: float, paused: bool = False
) -> RunRecord:
    outcome = "paused" if paused else ("refused" if state.get("refused") else "answered")
    node_seconds: dict[str, float] = {}
    for event in state.get("trace", []):
        node_seconds[event["node"]] = round(node_seconds.get(event["node"], 0.0) + event.get("seconds", 0.0), 4)
    counters = state.get("counters", {})
    settings = state.get("settings", {})
    return RunRecord(
        run_id=run_id,
        question=state.get("asked") or state.get("question", ""),
        outcome=outcome,
        refusal_reason=state.get("refusal_reason") if outcome == "refused" else None,
        stop_reason=state.get("stop_reason"),
        mode=state.get("mode", ""),
        model=settings.get("model") if state.get("mode") == "ollama" else None,
        rounds=counters.get("rounds", 0),
        llm_calls=counters.get("llm_calls", 0),
        seconds=round(seconds, 3),
        started_at=started_at,
        settings=settings,
        state=state,
        node_seconds=node_seconds,
    )


def save_run(runs_dir: Path, record: RunRecord) -> Path:
    runs_dir.mkdir(parents=True, exist_ok=True)
    path = runs_dir / f"{record.run_id}.json"
    tmp = path.with_suffix(f".tmp-{os.getpid()}")
    tmp.write_text(record.model_dump_json(indent=1), encoding="utf-8")
    tmp.replace(path)  # atomic: a reader never sees half a record
    return path


def list_runs(runs_dir: Path, limit: int | None = None) -> list[RunSummary]:
    """Saved runs, newest first; unreadable files are skipped."""
    out: list[RunSummary] = []
    for path in runs_dir.glob("*.json") if runs_dir.is_dir() else []:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            out.append(RunSummary.model_validate({k: v for k, v in data.items() if k in RunSummary.model_fields}))
        except (OSError, ValueError):
            continue
    out.sort(key=lambda r: (-r.started_at, r.run_id))
    return out[:limit] if limit else out


def load_run(runs_dir: Path, run_id: str) -> RunRecord | None:
    if not _SAFE_ID.match(run_id):
        return None
    path = runs_dir / f"{run_id}.json"
    try:
        return RunRecord.model_validate_json(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
