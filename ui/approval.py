"""Approving a refined query: Approve, Edit & run and Reject do what they say, and a question asked while a run
waits first asks whether to reject the waiting refinement.

Decisions are set by button callbacks, before the next script run starts, so that run already knows it is busy
(the sidebar and the chat input are disabled from its first element on).
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from ui.evidence import escape_md


def _decide(run_id: str, action: str, field: str | None = None) -> None:
    decision: dict[str, Any] = {"run_id": run_id, "action": action}
    if field is not None:
        query = " ".join(str(st.session_state.get(field, "")).split())
        decision = {**decision, "action": "edit", "query": query} if query else {**decision, "action": "approve"}
    st.session_state["pending_decision"] = decision


def approval_controls(payload: dict[str, Any], run_id: str) -> None:
    """The proposal with its reasons, the editable query (Enter runs it) and the Approve and Reject buttons."""
    st.info(
        f"Proposed refinement ({escape_md(payload['strategy'])}): {escape_md(payload['previous'])} → "
        f"**{escape_md(payload['proposed'])}**",
        icon=":material/pan_tool:",
    )
    for reason in payload.get("reasons", []):
        st.caption(f"because {escape_md(reason)}")
    step = f"{run_id}-{payload.get('round', 0)}"
    field = f"edit-{step}"
    # The field's form has a single submit button, so Enter in the field runs the text as edited.
    with st.form(f"form-{step}", border=False):
        c1, c2 = st.columns([4, 1], vertical_alignment="bottom")
        c1.text_input("Refined query", value=payload["proposed"], key=field)
        c2.form_submit_button("Edit & run", on_click=_decide, args=(run_id, "edit", field), icon=":material/edit:")
    c1, c2, _ = st.columns([1, 1, 3])
    c1.button("Approve", type="primary", key=f"approve-{step}", on_click=_decide, args=(run_id, "approve"))
    c2.button("Reject", key=f"reject-{step}", on_click=_decide, args=(run_id, "reject"))


def _reject_and_ask(run_id: str, question: str) -> None:
    ss = st.session_state
    ss["pending_decision"] = {"run_id": run_id, "action": "reject"}
    ss["pending_question"] = question
    ss.pop("confirm_question", None)


def _keep_waiting() -> None:
    st.session_state.pop("confirm_question", None)


def confirm_new_question(run_id: str) -> None:
    """Asked anyway while a run waits: reject its refinement first (it then ends), or keep waiting."""
    pending = st.session_state.get("confirm_question")
    if not pending or pending.get("run_id") != run_id:
        return  # nothing asked, or asked while another conversation's run waited
    question = pending["question"]
    with st.container(border=True):
        st.warning(
            f"A refined query is waiting for your approval above. Reject it (that run then ends with the evidence it "
            f"has) and ask “{escape_md(question)}”?"
        )
        c1, c2, _ = st.columns([1, 1, 2])
        c1.button("Reject it and ask", type="primary", on_click=_reject_and_ask, args=(run_id, question))
        c2.button("Keep waiting", on_click=_keep_waiting)
