"""History page: past runs with their outcomes, aggregate charts, and a replay of any run from its record."""

from __future__ import annotations

import time

import streamlit as st

from agent.runs import list_runs, load_run
from agent.settings import AgentSettings
from ui import charts
from ui.evidence import answer_view, escape_md, replay_rounds
from ui.resources import document_sources


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
        rows, hide_index=True, width="stretch", on_select="rerun", selection_mode="single-row", key="history_table"
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
    replay_rounds(record.state)
    if record.outcome == "paused":
        st.caption("This run is waiting for approval.")
        return
    answer_view(record.state, document_sources(), f"history-{run_id}")
    cols = st.columns(2)
    for i, fig in enumerate(charts.run_figures(record.state)):
        cols[i % 2].plotly_chart(fig, key=f"history-{run_id}-{i}")
