"""Ask page: chat-style questions, each round streamed live, approvals, the cited answer and the run's charts."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import streamlit as st

from agent.runs import load_run
from agent.settings import AgentSettings
from ui import charts
from ui.evidence import (
    answer_view,
    approval_note,
    escape_md,
    evidence_panel,
    refinement,
    replay_rounds,
    searched_note,
    verdict,
)
from ui.resources import agent, document_sources


def one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) < 200 else text[:200] + " …"


def live(events: Iterator[dict[str, Any]]) -> dict[str, Any] | None:
    """Draw each event as it arrives; returns the final (done/paused) event."""
    status = None
    tokens, token_area = "", None
    for ev in events:
        kind = ev["kind"]
        if kind == "start":
            st.session_state["runs"].append(ev["run_id"])  # listed even if the run is cut short
        elif kind == "node":
            node = ev["node"]
            if node == "route":
                st.caption(
                    f"Intent: {ev.get('intent')} · mode: {ev.get('mode')}"
                    + (f" · topics: {' / '.join(ev['topics'])}" if ev.get("topics") else "")
                )
                if ev.get("warning"):
                    st.warning(ev["warning"])
            elif node == "retrieve":
                if status is not None:
                    status.update(expanded=False)
                label = f"Round {ev['round']} · {ev['strategy']} · {ev['query']}"
                status = st.status(label, expanded=True)
                with status:
                    searched_note(ev.get("searched", []))
                    evidence_panel(ev["hits"], ev["query"])
            elif node == "assess" and status is not None:
                with status:
                    verdict(ev)
                status.update(state="complete" if ev.get("verdict") == "sufficient" else "error")
            elif node == "refine" and status is not None:
                with status:
                    if ev.get("refinement"):
                        refinement(ev["refinement"])
                    if ev.get("warning"):
                        st.caption(ev["warning"])
            elif node == "approve" and status is not None:
                with status:
                    approval_note(ev["approval"])
            elif node in ("answer", "refuse", "verify"):
                if status is not None:
                    status.update(expanded=False)
                if ev.get("warning"):
                    st.warning(ev["warning"])
                if node == "answer":
                    st.caption(f"Answering ({ev.get('mode')}) …")
        elif kind == "token":
            if token_area is None:
                token_area = st.empty()
            tokens += ev["text"]
            token_area.markdown(escape_md(tokens))
        elif kind == "error":
            st.error(f"The run stopped: {ev['message']}")
        elif kind in ("done", "paused"):
            return ev
    return None


def approval_form(payload: dict[str, Any], run_id: str) -> None:
    st.info(
        f"Proposed refinement ({payload['strategy']}): {payload['previous']} → {payload['proposed']}",
        icon=":material/pan_tool:",
    )
    for reason in payload.get("reasons", []):
        st.caption(f"because {reason}")
    with st.form(f"approve-{run_id}-{payload.get('round', 0)}"):
        query = st.text_input("Refined query", value=payload["proposed"])
        c1, c2, c3 = st.columns(3)
        approve = c1.form_submit_button("Approve", type="primary")
        edit = c2.form_submit_button("Edit & run")
        reject = c3.form_submit_button("Reject")
    decision = None
    if approve:
        decision = {"action": "approve"}
    elif edit:
        decision = {"action": "edit", "query": query} if query.strip() else {"action": "approve"}
    elif reject:
        decision = {"action": "reject"}
    if decision:
        st.session_state["pending_decision"] = {"run_id": run_id, **decision}
        st.rerun()


def show_run(run_id: str, sources: dict[str, Path], settings: AgentSettings, interactive: bool) -> None:
    state = agent().state(run_id)
    if not state:
        record = load_run(settings.runs_dir, run_id)
        state = record.state if record else {}
    if not state:
        return
    with st.chat_message("user"):
        st.text(state.get("question", ""))
    with st.chat_message("assistant"):
        replay_rounds(state)
        payload = agent().pending(run_id)
        if payload is not None:
            if interactive:
                approval_form(payload, run_id)
            else:
                st.caption("Waiting for approval.")
            return
        if "answer" not in state:
            st.caption("This run did not finish.")
            return
        answer_view(state, sources, run_id)
        with st.expander("Charts for this run"):
            cols = st.columns(2)
            for i, fig in enumerate(charts.run_figures(state)):
                cols[i % 2].plotly_chart(fig, key=f"{run_id}-chart-{i}")


def page(settings: AgentSettings) -> None:
    ss = st.session_state
    ss.setdefault("runs", [])
    question, decision = ss.get("pending_question"), ss.get("pending_decision")
    busy = question is not None or decision is not None
    sources = document_sources()
    if not ss["runs"] and not busy:
        st.title("Ask")
        st.caption(
            f"{len(sources)} document(s) in the library · preset {settings.preset} · "
            f"approval {'on' if settings.approval else 'off'}. The agent retrieves, checks the evidence, refines "
            "its query when the evidence falls short, then answers with a page citation on every sentence, "
            "or refuses and says why."
        )
    if not sources:
        st.info("The library is empty: add PDFs on the Library page first.")
    for i, run_id in enumerate(ss["runs"]):
        show_run(run_id, sources, settings, interactive=not busy and i == len(ss["runs"]) - 1)
    prompt = st.chat_input("Ask a question about your documents", disabled=busy, submit_mode="disable")
    if prompt and not busy:
        ss["pending_question"] = prompt
        st.rerun()
    if not busy:
        return
    try:
        if question is not None:
            with st.chat_message("user"):
                st.text(question)
            with st.chat_message("assistant"):
                live(agent().ask(question, settings))
        else:
            with st.chat_message("assistant"):
                live(agent().resume(decision["run_id"], {k: v for k, v in decision.items() if k != "run_id"}))
    except Exception as exc:  # noqa: BLE001 - no traceback reaches the page
        st.error(f"The run failed: {one_line(exc)}. Check the library and settings, then ask again.")
        ss.pop("pending_question", None)
        ss.pop("pending_decision", None)
        return
    ss.pop("pending_question", None)
    ss.pop("pending_decision", None)
    st.rerun()
