"""Ask page: a conversation of questions, each round streamed live, approvals that wait across reloads and
restarts, the cited answer, its export and the run's charts.

The conversation is named in the URL (`?c=...`), so a reload or a bookmark reopens it. Finished runs are read
from their records once per session; earlier turns show their answer and citations, their evidence and charts
on request, and a question reruns only the chat area, so the tenth answer comes as fast as the first.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import streamlit as st

from agent.conversations import Conversation, new_conversation_id, valid_conversation_id
from agent.events import EndEvent, ErrorEvent, Event, NodeEvent, StartEvent, TokenEvent
from agent.export import conversation_markdown
from agent.followup import Turn, turn_of
from agent.runs import load_run
from agent.settings import AgentSettings
from ui import charts
from ui.approval import approval_controls, confirm_new_question
from ui.evidence import (
    answer_view,
    approval_note,
    download_buttons,
    escape_md,
    evidence_panel,
    intent_line,
    refinement,
    replay_rounds,
    searched_note,
    verdict,
)
from ui.resources import agent, conversations, document_sources

_FINISHED = "_finished_runs"  # session cache: run id -> final state (a finished run never changes)


def one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) < 200 else text[:200] + " …"


def live(events: Iterator[Event], conversation_id: str, sources: dict[str, Path]) -> EndEvent | None:
    """Draw each event as it arrives; returns the final (done/paused) event."""
    status = None
    tokens, token_area = "", None
    for ev in events:
        if isinstance(ev, StartEvent):  # listed in the conversation even if the run is cut short
            conversations().add_run(conversation_id, ev.run_id, ev.question)
        elif isinstance(ev, NodeEvent):
            status = _node(ev, status)
        elif isinstance(ev, TokenEvent):
            if token_area is None:
                token_area = st.empty()
            tokens += ev.text
            token_area.markdown(escape_md(tokens))
        elif isinstance(ev, ErrorEvent):
            st.session_state["ask_error"] = f"The run stopped: {ev.message}"  # shown after the rerun
            st.error(st.session_state["ask_error"])
        elif isinstance(ev, EndEvent):
            if ev.kind == "done":  # shown at once; the rerun that follows draws the same from the record
                if token_area is not None:
                    token_area.empty()
                answer_view(ev.record.state, sources, f"live-{ev.run_id}")
            return ev
    return None


def _node(ev: NodeEvent, status: Any) -> Any:
    """Draw one node's event; returns the status box of the current round."""
    if ev.node == "route":
        intent_line(ev.model_dump())
        if ev.warning:
            st.warning(ev.warning)
    elif ev.node == "retrieve":
        if status is not None:
            status.update(expanded=False)
        status = st.status(f"Round {ev.round} · {ev.strategy} · {ev.query}", expanded=True)
        with status:
            searched_note(ev.searched or [])
            evidence_panel(ev.hits or [], ev.query or "")
    elif ev.node == "assess" and status is not None:
        with status:
            verdict(ev.model_dump(mode="json"))
        status.update(state="complete" if ev.verdict == "sufficient" else "error")
    elif ev.node == "refine" and status is not None:
        with status:
            if ev.refinement:
                refinement(ev.refinement.model_dump())
            if ev.warning:
                st.caption(ev.warning)
    elif ev.node == "approve" and status is not None and ev.approval:
        with status:
            approval_note(ev.approval.model_dump())
    elif ev.node in ("answer", "refuse", "verify"):
        if status is not None:
            status.update(expanded=False)
        if ev.warning:
            st.warning(ev.warning)
        if ev.node == "answer":
            st.caption(f"Answering ({ev.mode}) …")
    return status


def run_state(run_id: str, settings: AgentSettings) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """A run's state and, when it waits for approval, its request. Finished runs are read once per session."""
    cache = st.session_state.setdefault(_FINISHED, {})
    if run_id in cache:
        return cache[run_id], None
    pending = agent().pending(run_id)
    if pending is None:
        record = load_run(settings.runs_dir, run_id)
        if record is not None and record.outcome != "paused":
            cache[run_id] = record.state
            return record.state, None
    return agent().state(run_id), pending


def show_run(run_id: str, sources: dict[str, Path], settings: AgentSettings, latest: bool, busy: bool) -> bool:
    """Draw one turn; True when it waits for approval."""
    state, pending = run_state(run_id, settings)
    if not state:
        return False
    with st.chat_message("user"):
        st.text(state.get("asked") or state.get("question", ""))
    with st.chat_message("assistant"):
        intent_line(state)
        if state.get("follow_up") and latest and not busy and pending is None:
            _edit_standalone(run_id, state["question"])
        # Earlier turns keep their evidence behind a switch: drawn on every rerun, it made each question slower.
        rounds = state.get("rounds", [])
        shown = latest or pending is not None
        label = f"Evidence and assessment ({len(rounds)} round{'s' if len(rounds) != 1 else ''})"
        if rounds and (shown or st.toggle(label, value=False, key=f"evidence-{run_id}")):
            replay_rounds(state)
        if pending is not None:
            if busy:
                st.caption("Waiting for approval.")
            else:
                approval_controls(pending, run_id)
            return True
        if "answer" not in state:
            st.caption("This run did not finish.")
            return False
        answer_view(state, sources, run_id)
        # Charts cost a redraw per turn: the latest run shows them, earlier ones on request.
        if st.toggle("Charts for this run", value=latest, key=f"charts-{run_id}-{latest}"):
            cols = st.columns(2)
            for i, fig in enumerate(charts.run_figures(state)):
                cols[i % 2].plotly_chart(fig, key=f"{run_id}-chart-{i}")
    return False


def _edit_standalone(run_id: str, standalone: str) -> None:
    """The follow-up was read as `standalone`; the person may correct that reading and ask it as written."""
    with st.popover("Edit what was searched"), st.form(f"standalone-{run_id}", border=False):
        text = st.text_input("Ask instead", value=standalone, key=f"standalone-text-{run_id}")
        if st.form_submit_button("Ask this instead") and " ".join(text.split()):
            ss = st.session_state
            ss["pending_question"], ss["pending_standalone"] = " ".join(text.split()), True
            st.rerun(scope="app")


def history_of(conversation_id: str, settings: AgentSettings) -> list[Turn]:
    """The finished turns of the conversation, oldest first, for a follow-up to lean on."""
    conversation = conversations().get(conversation_id)
    turns = []
    for run_id in conversation.run_ids if conversation else []:
        state, pending = run_state(run_id, settings)
        if state.get("question") and pending is None:
            turns.append(turn_of(state))
    return turns


def _submitted() -> None:
    """The chat input's callback: ask, or first confirm when a run of this conversation waits."""
    ss = st.session_state
    prompt = " ".join(str(ss.get("ask_prompt") or "").split())
    if not prompt:
        return
    if ss.get("_waiting_run"):
        ss["confirm_question"] = {"run_id": ss["_waiting_run"], "question": prompt}
        return
    ss["pending_question"] = prompt
    if not valid_conversation_id(st.query_params.get("c")):
        st.query_params["c"] = new_conversation_id()


def _open(conversation_id: str | None) -> None:
    st.session_state.pop("confirm_question", None)
    if conversation_id:
        st.query_params["c"] = conversation_id
    else:
        st.query_params.pop("c", None)


def conversations_sidebar(current: str | None) -> None:
    with st.sidebar:
        st.subheader("Conversations")
        st.button("New chat", icon=":material/add_comment:", on_click=_open, args=(None,), width="stretch")
        for c in conversations().listing(limit=12):
            title = c.title if len(c.title) <= 48 else c.title[:47] + "…"
            here = c.conversation_id == current
            st.button(
                title,
                key=f"conv-{c.conversation_id}",
                type="secondary" if here else "tertiary",
                disabled=here,
                on_click=_open,
                args=(c.conversation_id,),
                help=f"{len(c.run_ids)} question(s)",
            )


def export_conversation(conversation: Conversation, settings: AgentSettings) -> None:
    states = [run_state(run_id, settings)[0] for run_id in conversation.run_ids]
    text = conversation_markdown([s for s in states if s], conversation.title)
    with st.container(horizontal=True, vertical_alignment="center"):
        st.caption("Export this conversation:")
        download_buttons(text, f"conversation-{conversation.conversation_id}", "conversation")


def page(settings: AgentSettings) -> None:
    ss = st.session_state
    busy = ss.get("pending_question") is not None or ss.get("pending_decision") is not None
    current = st.query_params.get("c")
    conversation = conversations().get(current) if valid_conversation_id(current) else None
    if current and conversation is None and not busy:
        st.caption("That conversation is not saved (it had no question yet): a new one starts here.")
    conversations_sidebar(current)
    sources = document_sources()
    run_ids = conversation.run_ids if conversation else []
    if not run_ids and not busy:
        st.title("Ask")
        st.caption(
            f"{len(sources)} document(s) in the library · preset {settings.preset} · "
            f"approval {'on' if settings.approval else 'off'}. The agent retrieves, checks the evidence, refines "
            "its query when the evidence falls short, then answers with a page citation on every sentence, "
            "or refuses and says why."
        )
    if not sources:
        st.info("The library is empty: add PDFs on the Library page first.")
    if (error := ss.get("ask_error")) and not busy:
        st.error(error)
        ss.pop("ask_error")
    if conversation and not busy:
        export_conversation(conversation, settings)
    waiting = None
    for i, run_id in enumerate(run_ids):
        if show_run(run_id, sources, settings, latest=i == len(run_ids) - 1, busy=busy):
            waiting = run_id
    ss["_waiting_run"] = waiting
    ss["_page_drawn"] = True
    ask_area(settings, sources)


@st.fragment
def ask_area(settings: AgentSettings, sources: dict[str, Path]) -> None:
    """The chat input and the run it starts. A question reruns only this fragment, so the turns above are not
    sent to the browser again and the tenth question is as quick as the first; the page reruns once the
    answer is shown. A run that writes with the LLM takes the whole page run instead, so the sidebar stays
    disabled while it lasts (a settings change would otherwise stop it)."""
    ss = st.session_state
    in_page_run = ss.pop("_page_drawn", False)
    question, decision = ss.get("pending_question"), ss.get("pending_decision")
    busy = question is not None or decision is not None
    if busy and not in_page_run and ss.get("_llm_expected"):
        st.rerun(scope="app")
    waiting = ss.get("_waiting_run")
    if waiting and not busy:
        confirm_new_question(waiting)
    placeholder = (
        "A refined query waits for your approval above (approve, edit or reject it)"
        if waiting
        else "Ask a question about your documents"
    )
    with st.bottom:  # pinned below the conversation, and still part of this fragment
        st.chat_input(placeholder, key="ask_prompt", disabled=busy, on_submit=_submitted)
    if busy:
        _run(question, decision, settings, sources)


def _run(question: str | None, decision: dict[str, Any] | None, settings: AgentSettings, sources: dict) -> None:
    """The decision on a waiting run first (it then ends), then the new question; both drawn live."""
    ss = st.session_state
    conversation_id = st.query_params.get("c")
    if not valid_conversation_id(conversation_id):
        conversation_id = st.query_params["c"] = new_conversation_id()
    try:
        if decision is not None:
            with st.chat_message("assistant"):
                action = {k: v for k, v in decision.items() if k != "run_id"}
                live(agent().resume(decision["run_id"], action), conversation_id, sources)
            ss.get(_FINISHED, {}).pop(decision["run_id"], None)
        if question is not None:
            with st.chat_message("user"):
                st.text(question)
            # A question asked as written (an edited reading) does not lean on the conversation.
            history = [] if ss.pop("pending_standalone", False) else history_of(conversation_id, settings)
            with st.chat_message("assistant"):
                live(agent().ask(question, settings, history=history), conversation_id, sources)
    except Exception as exc:  # noqa: BLE001 - no traceback reaches the page
        ss["ask_error"] = f"The run failed: {one_line(exc)}. Check the library and settings, then ask again."
    finally:
        ss.pop("pending_question", None)
        ss.pop("pending_decision", None)
        ss.pop("pending_standalone", None)
    st.rerun(scope="app")  # the finished turn joins the conversation above
