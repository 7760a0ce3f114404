"""History page: past runs with their outcomes, aggregate charts, and a replay of any run from its record."""

from __future__ import annotations

import time

import streamlit as st

from agent.conversations import new_conversation_id
from agent.runs import list_runs, load_run
from agent.settings import AgentSettings
from ui import charts
from ui.evidence import answer_view, escape_md, intent_line, replay_rounds
from ui.resources import agent, conversations, document_sources


def resume_in_conversation(run_id: str, question: str) -> None:
    """Open the run's conversation on the Ask page, where its proposal and buttons wait."""
    store = conversations()
    conversation = store.of_run(run_id) or store.add_run(new_conversation_id(), run_id, question)
    st.switch_page("views/ask.py", query_params={"c": conversation.conversation_id})


def page(settings: AgentSettings) -> None:
    st.title("History")
    runs = list_runs(settings.runs_dir)
    if not runs:
        st.info("No runs yet: ask a question on the Ask page.")
        return
    cols = st.columns(3)
    for col, fig, key in zip(
        cols,
        [charts.outcomes(runs), charts.rounds_histogram(runs), charts.latency(runs)],
        ["outcomes", "rounds", "latency"],
        strict=True,
    ):
        col.plotly_chart(fig, key=f"history-{key}")
    rows = [
        {
            "time": time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(r.started_at)),
            "question": r.question,
            "outcome": r.outcome if r.outcome != "refused" else f"refused ({r.refusal_reason})",
            "rounds": r.rounds,
            "mode": r.mode + (f" ({r.model})" if r.model else ""),
            "seconds": r.seconds,
            "run": r.run_id,
        }
        for r in runs
    ]
    st.caption("Select a run to replay it from its record (nothing is re-run).")
    picked = st.dataframe(
        rows,
        hide_index=True,
        width="stretch",
        on_select="rerun",
        selection_mode="single-row",
        key="history_table",
        # The question takes the room left; the narrow columns keep their width, so none is cut off.
        column_config={
            "time": st.column_config.TextColumn(width="small"),
            "question": st.column_config.TextColumn(width="large"),
            "outcome": st.column_config.TextColumn(width="medium"),
            "rounds": st.column_config.NumberColumn(width="small"),
            "mode": st.column_config.TextColumn(width="small"),
            "seconds": st.column_config.NumberColumn(width="small", format="%.2f"),
            "run": st.column_config.TextColumn(width="small"),
        },
    )
    selected = picked.selection.rows if picked and picked.selection else []
    run_id = rows[selected[0]]["run"] if selected else st.session_state.get("history_run")
    if not run_id:
        return
    record = load_run(settings.runs_dir, run_id)
    if record is None:
        st.error(f"Run {run_id} could not be read.")
        return
    st.subheader("Replay")
    st.markdown(f"**Question:** {escape_md(record.question)}")
    st.caption(
        f"{record.outcome} · stop reason {record.stop_reason} · {record.rounds} round(s) · "
        f"{record.llm_calls} LLM call(s) · {record.seconds:.2f} s · preset {record.settings.get('preset')}"
    )
    intent_line(record.state)
    replay_rounds(record.state)
    if record.outcome == "paused":
        if agent().pending(run_id) is None:
            st.caption("This run waited for approval; it has been decided since (or its checkpoint is gone).")
            return
        st.info("This run is waiting for your approval of a refined query.", icon=":material/pan_tool:")
        if st.button("Resume", type="primary", icon=":material/play_arrow:"):
            resume_in_conversation(run_id, record.question)
        return
    answer_view(record.state, document_sources(), f"history-{run_id}")
    cols = st.columns(2)
    for i, fig in enumerate(charts.run_figures(record.state)):
        cols[i % 2].plotly_chart(fig, key=f"history-{run_id}-{i}")
