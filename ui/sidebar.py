"""Sidebar settings: answer mode (with Ollama's status), preset and budgets, approval, k and a document filter.

The widgets are drawn on every page, so their values live for the whole session.
"""

from __future__ import annotations

import streamlit as st

from agent.settings import PRESETS, AgentSettings
from ui.resources import base_agent_settings, knowledge_base, ollama_status

BUDGETS = ("max_rounds", "max_tool_calls", "max_steps", "min_hits", "k")
LIMITS = {"max_rounds": (1, 20), "max_tool_calls": (1, 60), "max_steps": (6, 120), "min_hits": (1, 20), "k": (1, 30)}


def _apply_preset() -> None:
    for name, value in PRESETS[st.session_state["cfg_preset"]].items():
        st.session_state[f"cfg_{name}"] = value


def settings_sidebar(disabled: bool = False) -> AgentSettings:
    base = base_agent_settings()
    side = st.sidebar
    side.header("Settings")
    url = side.text_input("Ollama URL", value=base.ollama_url, key="cfg_url", disabled=disabled)
    status = ollama_status(url, base.model)
    models = status["models"]
    choices = ["auto", "extractive", *[f"ollama: {m}" for m in models]]
    mode = side.selectbox(
        "Answer mode",
        choices,
        key="cfg_mode",
        disabled=disabled,
        help="auto uses Ollama when the model is pulled, otherwise the extractive mode (no LLM).",
    )
    if status["reachable"]:
        side.badge(f"Ollama reachable · {len(models)} model(s)", icon=":material/check_circle:", color="green")
    else:
        side.badge("Ollama not reachable", icon=":material/cloud_off:", color="orange")
        side.caption(f"Start it with `ollama serve` at {url}. Answers use the extractive mode meanwhile.")
    model = base.model
    if mode.startswith("ollama: "):
        model = mode.removeprefix("ollama: ")
    elif mode == "auto":
        pulled = status["reachable"] and any(m.split(":")[0] == base.model.split(":")[0] for m in models)
        side.caption(
            f"auto: {'Ollama ' + base.model if pulled else 'extractive'}"
            + ("" if pulled or not status["reachable"] else f" (run `ollama pull {base.model}`)")
        )

    if "cfg_preset" not in st.session_state:
        st.session_state["cfg_preset"] = base.preset
        _apply_preset()
    side.selectbox("Preset", list(PRESETS), key="cfg_preset", on_change=_apply_preset, disabled=disabled)
    with side.expander("Budgets", expanded=False):
        values = {
            name: st.number_input(name.replace("_", " "), *LIMITS[name], key=f"cfg_{name}", disabled=disabled)
            for name in BUDGETS
        }
    st.session_state.setdefault("cfg_approval", base.approval)
    approval = side.toggle("Ask me before running a refined query", key="cfg_approval", disabled=disabled)
    docs = sorted(d.doc_id for d in knowledge_base().documents() if d.status == "committed")
    chosen = side.multiselect(
        "Only these documents", docs, key="cfg_docs", disabled=disabled, placeholder="all documents"
    )
    return base.model_copy(
        update={
            "preset": st.session_state["cfg_preset"],
            "mode": "ollama" if mode.startswith("ollama: ") else mode,
            "model": model,
            "ollama_url": url,
            "approval": approval,
            "docs": chosen or None,
            **{name: int(v) for name, v in values.items()},
        }
    )
