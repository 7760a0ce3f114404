"""Plotly figures for one run (evidence, scores, budgets, timeline) and for the run history."""

from __future__ import annotations

from collections import Counter
from typing import Any

import plotly.graph_objects as go

from agent.runs import RunSummary

_LAYOUT = {"height": 280, "margin": {"l": 40, "r": 10, "t": 40, "b": 40}, "legend": {"orientation": "h"}}


def evidence_per_round(state: dict[str, Any]) -> go.Figure:
    rounds = state.get("rounds", [])
    names = [f"round {r['round']}" for r in rounds]
    new = [r["new"] for r in rounds]
    carried = [r["total"] - r["new"] for r in rounds]
    fig = go.Figure([go.Bar(name="carried over", x=names, y=carried), go.Bar(name="new", x=names, y=new)])
    return fig.update_layout(barmode="stack", title="Evidence per round", yaxis_title="hits", **_LAYOUT)


def scores_per_round(state: dict[str, Any]) -> go.Figure:
    fig = go.Figure()
    for r in state.get("rounds", []):
        dense = [s["dense_score"] for s in r.get("scores", []) if s.get("dense_score") is not None]
        fused = [s["fused_score"] for s in r.get("scores", []) if s.get("fused_score") is not None]
        fig.add_trace(go.Box(y=dense or fused, name=f"round {r['round']}", boxpoints="all"))
    return fig.update_layout(title="Score distribution per round (dense similarity, else fused)", **_LAYOUT)


def budget_usage(state: dict[str, Any]) -> go.Figure:
    s, c = state.get("settings", {}), state.get("counters", {})
    pairs = [("rounds", "max_rounds"), ("tool_calls", "max_tool_calls"), ("steps", "max_steps")]
    names = [used for used, _ in pairs]
    used = [c.get(u, 0) for u, _ in pairs]
    limit = [s.get(m, 0) for _, m in pairs]
    fig = go.Figure(
        [
            go.Bar(name="budget", x=names, y=limit, marker_color="#d0d7de"),
            go.Bar(name="used", x=names, y=used, marker_color="#2f81f7"),
        ]
    )
    fig.add_annotation(
        text=f"LLM calls: {c.get('llm_calls', 0)}", xref="paper", yref="paper", x=1, y=1.12, showarrow=False
    )
    return fig.update_layout(barmode="overlay", title="Budget usage", **_LAYOUT)


def node_timeline(state: dict[str, Any]) -> go.Figure:
    trace = state.get("trace", [])
    t0 = min((e["started"] for e in trace), default=0.0)
    fig = go.Figure(
        go.Bar(
            y=[f"{i + 1}. {e['node']}" for i, e in enumerate(trace)],
            x=[max(e["seconds"] * 1000, 0.5) for e in trace],
            base=[(e["started"] - t0) * 1000 for e in trace],
            orientation="h",
            hovertext=[e.get("summary", "") for e in trace],
        )
    )
    fig.update_yaxes(autorange="reversed")
    return fig.update_layout(title="Node timeline (ms since start; pauses included)", xaxis_title="ms", **_LAYOUT)


def run_figures(state: dict[str, Any]) -> list[go.Figure]:
    return [evidence_per_round(state), scores_per_round(state), budget_usage(state), node_timeline(state)]


def outcomes(runs: list[RunSummary]) -> go.Figure:
    counts = Counter(r.outcome if r.outcome != "refused" else f"refused: {r.refusal_reason}" for r in runs)
    labels = sorted(counts)
    fig = go.Figure(go.Bar(x=labels, y=[counts[k] for k in labels]))
    return fig.update_layout(title="Outcomes and refusal reasons", yaxis_title="runs", **_LAYOUT)


def rounds_histogram(runs: list[RunSummary]) -> go.Figure:
    fig = go.Figure(go.Histogram(x=[r.rounds for r in runs], xbins={"size": 1}))
    return fig.update_layout(title="Rounds per question", xaxis_title="rounds", yaxis_title="runs", **_LAYOUT)


def latency(runs: list[RunSummary]) -> go.Figure:
    fig = go.Figure()
    for mode in sorted({r.mode for r in runs}):
        fig.add_trace(go.Box(y=[r.seconds for r in runs if r.mode == mode], name=mode or "unknown", boxpoints="all"))
    return fig.update_layout(title="Latency per run (s)", yaxis_title="seconds", **_LAYOUT)
