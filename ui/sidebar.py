"""Sidebar settings: answer mode (with Ollama's status), preset and budgets, approval, k and a document filter.

Each widget's value is kept under a shadow key (`_cfg_*`) and written back to the widget before it is drawn, so
the browser is always told the value: a page switch or an interrupted rerun can otherwise leave the browser
holding a widget's default (the first option) and sending it back as if the person had chosen it. The kept values
are also saved to a small file under data/, so a reload or a restart starts from them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import streamlit as st

from agent.settings import PRESETS, AgentSettings
from ui.resources import base_agent_settings, knowledge_base, ollama_status

BUDGETS = ("max_rounds", "max_tool_calls", "max_steps", "min_hits", "k")
LIMITS = {"max_rounds": (1, 20), "max_tool_calls": (1, 60), "max_steps": (6, 120), "min_hits": (1, 20), "k": (1, 30)}


def settings_file() -> Path:
    """The sidebar's values, kept beside the run records so they survive reloads and restarts."""
    return base_agent_settings().runs_dir.parent / "workbench-settings.json"


def _valid(key: str, value: Any) -> bool:
    name = key.removeprefix("cfg_")
    if name in LIMITS:
        low, high = LIMITS[name]
        return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high
    if name == "preset":
        return value in PRESETS
    if name == "approval":
        return isinstance(value, bool)
    if name == "docs":
        return isinstance(value, list) and all(isinstance(v, str) for v in value)
    return name in ("url", "mode") and isinstance(value, str)


def _load_saved() -> None:
    """Once per session: the values saved by an earlier session become the widgets' starting values."""
    ss = st.session_state
    if ss.get("_settings_loaded"):
        return
    ss["_settings_loaded"] = True
    try:
        saved = json.loads(settings_file().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return  # none yet, or damaged: the configured defaults apply
    for key, value in saved.items() if isinstance(saved, dict) else []:
        if key.startswith("cfg_") and _valid(key, value):
            ss.setdefault(f"_{key}", value)


def _save() -> None:
    values = {k[1:]: v for k, v in st.session_state.items() if k.startswith("_cfg_")}
    path = settings_file()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(values, indent=1, sort_keys=True), encoding="utf-8")
        tmp.replace(path)
    except OSError:
        pass  # a read-only data folder: the values still hold for this session


def _keep(key: str) -> None:
    st.session_state[f"_{key}"] = st.session_state[key]
    _save()


def _restore(key: str, default: Any) -> dict[str, Any]:
    """Write the kept value into the widget's key; returns the widget arguments that keep it afterwards."""
    ss = st.session_state
    ss[key] = ss.setdefault(f"_{key}", default)
    return {"key": key, "on_change": _keep, "args": (key,)}


def _apply_preset() -> None:
    _keep("cfg_preset")
    for name, value in PRESETS[st.session_state["cfg_preset"]].items():
        st.session_state[f"_cfg_{name}"] = value
    _save()


def settings_sidebar(disabled: bool = False) -> AgentSettings:
    base = base_agent_settings()
    _load_saved()
    side = st.sidebar
    side.header("Settings")
    url = side.text_input("Ollama URL", disabled=disabled, **_restore("cfg_url", base.ollama_url))
    status = ollama_status(url, base.model)
    models = status["models"]
    choices = ["auto", "extractive", *[f"ollama: {m}" for m in models]]
    if st.session_state.get("_cfg_mode") not in choices:
        st.session_state["_cfg_mode"] = "auto"  # a model that vanished from the server
    mode = side.selectbox(
        "Answer mode",
        choices,
        disabled=disabled,
        **_restore("cfg_mode", "auto"),
        help="auto uses Ollama when the model is pulled, otherwise the extractive mode (no LLM).",
    )
    if status["reachable"]:
        side.badge(f"Ollama reachable · {len(models)} model(s)", icon=":material/check_circle:", color="green")
    else:
        side.badge("Ollama not reachable", icon=":material/cloud_off:", color="orange")
        side.caption(f"Start it with `ollama serve` at {url}. Answers use the extractive mode meanwhile.")
    model = base.model
    pulled = False
    if mode.startswith("ollama: "):
        model = mode.removeprefix("ollama: ")
    elif mode == "auto":
        pulled = status["reachable"] and any(m.split(":")[0] == base.model.split(":")[0] for m in models)
        side.caption(
            f"auto: {'Ollama ' + base.model if pulled else 'extractive'}"
            + ("" if pulled or not status["reachable"] else f" (run `ollama pull {base.model}`)")
        )

    # A run that writes with the LLM takes long: the Ask page then runs it in a full page run (inputs disabled).
    st.session_state["_llm_expected"] = mode.startswith("ollama: ") or pulled
    preset = _restore("cfg_preset", base.preset) | {"on_change": _apply_preset, "args": ()}
    side.selectbox("Preset", list(PRESETS), disabled=disabled, **preset)
    defaults = PRESETS[st.session_state["cfg_preset"]]
    with side.expander("Budgets", expanded=False):
        values = {
            name: st.number_input(
                name.replace("_", " "), *LIMITS[name], disabled=disabled, **_restore(f"cfg_{name}", defaults[name])
            )
            for name in BUDGETS
        }
    approval = side.toggle(
        "Ask me before running a refined query", disabled=disabled, **_restore("cfg_approval", base.approval)
    )
    docs = sorted(d.doc_id for d in knowledge_base().documents() if d.status == "committed")
    st.session_state["_cfg_docs"] = [d for d in st.session_state.get("_cfg_docs", []) if d in docs]
    chosen = side.multiselect(
        "Only these documents", docs, disabled=disabled, placeholder="all documents", **_restore("cfg_docs", [])
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
