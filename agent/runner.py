"""Running the graph: start, stream events, pause for approval, resume (even after a restart), save the record."""

from __future__ import annotations

import sqlite3
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.checkpoint.sqlite import SqliteSaver
from langgraph.errors import GraphRecursionError
from langgraph.types import Command

from agent.events import EndEvent, ErrorEvent, Event, InterruptEvent, StartEvent
from agent.followup import Turn
from agent.graph import build_graph, recursion_limit
from agent.knowledge import Knowledge
from agent.llm import probe
from agent.nodes import Deps
from agent.runs import RunRecord, record_from_state, save_run
from agent.settings import AgentSettings
from agent.state import new_counters
from kb.models import Chunk


def kb_deps(kb: Knowledge) -> Deps:
    """Deps backed by a kb.KnowledgeBase, through its public search and catalogue only."""

    def search(query: str, k: int = 8, docs: list[str] | None = None, mode: str = "hybrid") -> list[dict[str, Any]]:
        return [hit.model_dump(mode="json") for hit in kb.search(query, k=k, docs=docs, mode=mode)]

    return Deps(
        search=search,
        documents=lambda: sorted(kb.committed()),
        probe=probe,
        embed=kb.embed,
        read_query=kb.read_query,
        chunk=lambda chunk_id: _as_hit(kb.chunk(chunk_id)),
        following=lambda chunk_id: _as_hit(kb.following(chunk_id)),
    )


def _as_hit(chunk: Chunk | None) -> dict[str, Any] | None:
    """A chunk as a hit-shaped dict (no scores: it was not ranked on its own)."""
    if chunk is None:
        return None
    return {**chunk.model_dump(mode="json"), "fused_score": None, "dense_score": None, "lexical_score": None}


def sqlite_checkpointer(path: Path) -> SqliteSaver:
    path.parent.mkdir(parents=True, exist_ok=True)
    saver = SqliteSaver(sqlite3.connect(str(path), check_same_thread=False))
    saver.setup()
    return saver


def result_of(state: dict[str, Any], run_id: str) -> dict[str, Any]:
    """The compact outcome of a run (what `agent ask --json` prints)."""
    counters = state.get("counters", {})
    return {
        "run_id": run_id,
        "question": state.get("asked") or state.get("question", ""),
        "searched_as": state.get("question", "") if state.get("follow_up") else None,
        "answer": state.get("answer", ""),
        "refused": bool(state.get("refused")),
        "refusal_reason": state.get("refusal_reason") if state.get("refused") else None,
        "stop_reason": state.get("stop_reason"),
        "mode": state.get("mode", ""),
        "model": state.get("settings", {}).get("model") if state.get("mode") == "ollama" else None,
        "citations": [
            {k: c.get(k) for k in ("key", "chunk_id", "doc_id", "start_page", "end_page")}
            for c in state.get("citations", [])
        ],
        "rounds": counters.get("rounds", 0),
        "llm_calls": counters.get("llm_calls", 0),
        "seconds": round(sum(e.get("seconds", 0.0) for e in state.get("trace", [])), 3),
    }


class Agent:
    """The bounded controller over one knowledge base. `ask` and `resume` yield the declared events of
    agent.events: start, node, token, interrupt, paused or done, error."""

    def __init__(
        self,
        kb: Knowledge | None = None,
        settings: AgentSettings | None = None,
        checkpointer: Any = None,
        deps: Deps | None = None,
        save_runs: bool = True,
    ):
        if deps is None and kb is None:
            raise ValueError("Agent needs a knowledge base or explicit deps")
        self.settings = settings or AgentSettings()
        self.deps = deps or kb_deps(kb)
        self.checkpointer = checkpointer if checkpointer is not None else InMemorySaver()
        self.graph = build_graph(self.checkpointer)
        self.save_runs = save_runs

    @classmethod
    def persistent(cls, kb: Knowledge, settings: AgentSettings | None = None, **kw: Any) -> Agent:
        """An agent whose paused runs survive a restart (SQLite checkpointer under data/)."""
        settings = settings or AgentSettings()
        return cls(kb, settings, checkpointer=sqlite_checkpointer(settings.checkpoint_path), **kw)

    def _config(self, run_id: str, settings: dict[str, Any]) -> dict[str, Any]:
        return {"configurable": {"thread_id": run_id}, "recursion_limit": recursion_limit(settings)}

    def ask(
        self,
        question: str,
        settings: AgentSettings | None = None,
        run_id: str | None = None,
        history: list[Turn] | None = None,
    ) -> Iterator[Event]:
        """Run a question; `history` (earlier turns of its conversation, oldest first) lets a follow-up lean on
        them. A new conversation passes none and starts clean."""
        settings = settings or self.settings
        if run_id and self.graph.get_state({"configurable": {"thread_id": run_id}}).values:
            # The checkpointer would merge the new run into the old one's state (its refusal, its answer).
            yield ErrorEvent(run_id=run_id, message=f"run {run_id} already exists: a new question needs a new run id")
            return
        run_id = run_id or f"{time.strftime('%Y%m%d-%H%M%S')}-{uuid.uuid4().hex[:8]}"
        values = settings.model_dump(mode="json")
        state = {
            "question": " ".join(question.split()),
            "asked": " ".join(question.split()),
            "history": [t.model_dump(mode="json") for t in history or []],
            "follow_up": None,
            "settings": values,
            "counters": new_counters(),
            "started_at": time.time(),
            "trace": [],
            "evidence": [],
            "rounds": [],
            "queries_tried": [],
            "llm_calls": [],
            "citations": [],
            "refused": False,
            "stop_reason": None,
            "refusal_reason": None,
            "evidence_sufficient": False,
            "refinement_rejected": False,
            "proposal": None,
        }
        yield StartEvent(run_id=run_id, question=state["question"], settings=values)
        yield from self._drive(state, run_id, values)

    def resume(self, run_id: str, decision: dict[str, Any] | str) -> Iterator[Event]:
        """Continue a paused run with {"action": "approve" | "edit" | "reject", "query": ...}."""
        snapshot = self.graph.get_state({"configurable": {"thread_id": run_id}})
        if not snapshot.interrupts:
            yield ErrorEvent(run_id=run_id, message=f"run {run_id} is not waiting for approval")
            return
        yield from self._drive(Command(resume=decision), run_id, snapshot.values["settings"])

    def pending(self, run_id: str) -> dict[str, Any] | None:
        """The approval request a paused run waits on, or None."""
        snapshot = self.graph.get_state({"configurable": {"thread_id": run_id}})
        return snapshot.interrupts[0].value if snapshot.interrupts else None

    def state(self, run_id: str) -> dict[str, Any]:
        return dict(self.graph.get_state({"configurable": {"thread_id": run_id}}).values)

    def _drive(self, inp: Any, run_id: str, settings: dict[str, Any]) -> Iterator[Event]:
        config = self._config(run_id, settings)
        try:
            stream = self.graph.stream(inp, config, stream_mode=["updates", "custom"], context=self.deps)
            for mode, data in stream:
                if mode == "custom":  # a NodeEvent or TokenEvent written by a node
                    yield data.model_copy(update={"run_id": run_id})
                elif "__interrupt__" in data:
                    yield InterruptEvent(run_id=run_id, payload=data["__interrupt__"][0].value)
        except GraphRecursionError:
            yield ErrorEvent(run_id=run_id, message="the run exceeded its recursion limit and was stopped")
            return
        snapshot = self.graph.get_state(config)
        state = dict(snapshot.values)
        paused = bool(snapshot.interrupts)
        record = self.record(run_id, state, paused)
        if self.save_runs:
            save_run(AgentSettings.model_validate(settings).runs_dir, record)
        yield EndEvent(
            kind="paused" if paused else "done", run_id=run_id, result=result_of(state, run_id), record=record
        )

    @staticmethod
    def record(run_id: str, state: dict[str, Any], paused: bool = False) -> RunRecord:
        seconds = sum(e.get("seconds", 0.0) for e in state.get("trace", []))
        return record_from_state(run_id, state, state.get("started_at", time.time()), seconds, paused)
