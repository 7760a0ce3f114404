"""Plotly figures for one run (evidence map, node timeline) and for the run history.

Every figure carries its own title, grows in height with its number of rows and uses automargin on its axes, so
labels are never clipped and callers only need `st.plotly_chart(fig, key=...)`.
"""

from __future__ import annotations

import math
from collections import Counter
from datetime import datetime
from typing import Any

import plotly.graph_objects as go

from agent.runs import RunSummary

ROW_PX, MIN_HEIGHT, MAX_HEIGHT = 28, 240, 900
_CHROME_PX = 170  # title, subtitle, legend and x axis around the rows
_BLUE, _GREY = "#2f81f7", "#8c959f"
_COLOURS = {"new": _BLUE, "carried over": _GREY, "answered": "#2da44e", "refused": "#d4a72c", "paused": _GREY}
_BUDGETS = [("rounds", "max_rounds"), ("tool_calls", "max_tool_calls"), ("steps", "max_steps")]


def _short(text: str, limit: int = 22) -> str:
    """Middle ellipsis: keeps both ends, so ids with a shared prefix or suffix stay distinguishable."""
    if len(text) <= limit:
        return text
    head = (limit - 1) // 2
    return f"{text[:head]}…{text[-(limit - 1 - head) :]}"


def height_for(rows: int) -> int:
    return max(MIN_HEIGHT, min(MAX_HEIGHT, _CHROME_PX + ROW_PX * rows))


def _finish(fig: go.Figure, title: str, rows: int, subtitle: str = "") -> go.Figure:
    fig.update_layout(xaxis_automargin=True, yaxis_automargin=True)
    if not fig.data:  # an empty chart says so instead of showing bare axes
        fig.add_annotation(text="Nothing to show yet", showarrow=False, xref="paper", yref="paper", x=0.5, y=0.5)
        fig.update_layout(xaxis_visible=False, yaxis_visible=False)
    return fig.update_layout(
        title={"text": title, "subtitle": {"text": subtitle}, "x": 0, "xanchor": "left"},
        height=height_for(rows),
        # The legend sits at the figure's bottom edge, in its own margin, so it never covers an axis title.
        margin={"l": 10, "r": 10, "t": 80, "b": 40 if fig.data else 10},
        legend={"orientation": "h", "yref": "container", "y": 0, "yanchor": "bottom", "xref": "container", "x": 0},
        legend_traceorder="normal",
        hoverlabel={"align": "left"},
    )


def _pages(hit: dict[str, Any]) -> range:
    start = int(hit.get("start_page") or 0)
    return range(start, max(start, int(hit.get("end_page") or start)) + 1)


def evidence_map(state: dict[str, Any]) -> go.Figure:
    """Which pages each round found: one point per (round, page), new vs carried over, cited pages ringed."""
    hits = {h["chunk_id"]: h for h in state.get("evidence", [])}
    cited = {(c["doc_id"], p) for c in state.get("citations", []) for p in _pages(c)}
    rounds = state.get("rounds", [])
    best: dict[tuple[int, tuple[str, int]], dict[str, Any]] = {}  # (round, page) -> best-ranked hit on that page
    for r in rounds:
        # Best rank first, so the first hit placed on a page is the one its point describes.
        for score in sorted(r.get("scores", []), key=lambda sc: sc.get("rank") or math.inf):
            hit = hits.get(score["chunk_id"])  # a hit missing from evidence has no page to place it on
            for page in _pages(hit) if hit else ():
                info = {"rank": score.get("rank") or "?", "section": hit.get("section") or ""}
                best.setdefault((r["round"], (hit["doc_id"], page)), info)
    first: dict[tuple[str, int], int] = {}
    for number, page in sorted(best):  # a page is new in the first round that found it, carried over after
        first.setdefault(page, number)
    points: dict[str, list[Any]] = {"new": [], "carried over": []}
    for (number, page), info in sorted(best.items()):
        points["new" if first[page] == number else "carried over"].append((number, page, info))
    pages = sorted(first)
    label = {p: f"{p[0]} p.{p[1]}" for p in pages}  # full id as category; shortened only in tick text

    def scatter(name: str, rows: list[Any], **marker: Any) -> go.Scatter:
        return go.Scatter(
            name=name,
            x=[f"round {n}" for n, _, _ in rows],
            y=[label[p] for _, p, _ in rows],
            mode="markers" if name == "cited in the answer" else "markers+text",
            text=[str(i["rank"]) for _, _, i in rows],
            textfont={"color": "white", "size": 10},
            customdata=[[p[0], p[1], i["rank"], _short(i["section"], 60)] for _, p, i in rows],
            hovertemplate="%{customdata[0]} p.%{customdata[1]}<br>%{x}, best rank %{customdata[2]}"
            f"<br>%{{customdata[3]}}<extra>{name}</extra>",
            marker=marker,
        )

    fig = go.Figure([scatter(kind, rows, size=20, color=_COLOURS[kind]) for kind, rows in points.items() if rows])
    ringed = [row for rows in points.values() for row in rows if row[1] in cited]
    if ringed:  # drawn on top of the dots as an open ring
        ring = {"size": 28, "symbol": "circle-open", "color": "#cf222e", "line": {"width": 2.5}}
        fig.add_trace(scatter("cited in the answer", ringed, **ring))
    # Round labels at the bottom: on top they met the subtitle.
    fig.update_xaxes(type="category", categoryarray=[f"round {r['round']}" for r in rounds])
    ticks = [f"{_short(p[0])} p.{p[1]}" + (" ✓" if p in cited else "") for p in pages]
    values = list(label.values())
    fig.update_yaxes(type="category", categoryarray=values, autorange="reversed", tickvals=values, ticktext=ticks)
    docs = len({d for d, _ in pages})
    subtitle = f"{len(pages)} page(s) in {docs} document(s); number = best rank; ✓ = cited" if pages else ""
    fig.update_layout(showlegend=bool(pages))  # even a lone "new" trace gets its key
    return _finish(fig, "Evidence map: pages found per round", len(pages), subtitle)


def node_timeline(state: dict[str, Any]) -> go.Figure:
    """One bar per graph step, placed at its start (ms since the run began); pauses show as gaps."""
    trace = state.get("trace", [])
    t0 = min((e["started"] for e in trace), default=0.0)
    ms = [e.get("seconds", 0.0) * 1000 for e in trace]
    end = max(((e["started"] - t0) * 1000 + m for e, m in zip(trace, ms)), default=1.0)
    fig = go.Figure()
    if trace:
        fig.add_trace(
            go.Bar(
                y=[f"{i + 1}. {e['node']}" for i, e in enumerate(trace)],
                x=[max(m, end / 300) for m in ms],  # very short steps stay visible as a sliver
                base=[(e["started"] - t0) * 1000 for e in trace],
                orientation="h",
                marker_color=_BLUE,
                text=[f"{m:,.0f} ms" for m in ms],
                textposition="outside",
                cliponaxis=False,
                customdata=[[m, _short(e.get("summary", ""), 120)] for e, m in zip(trace, ms)],
                hovertemplate="%{y}: %{customdata[0]:,.0f} ms from %{base:,.0f} ms<br>%{customdata[1]}<extra></extra>",
                showlegend=False,
            )
        )
    fig.update_yaxes(autorange="reversed", type="category")
    fig.update_xaxes(title="ms since start", range=[0, end * 1.15])  # room for the outside duration labels
    # Budget use fits in one line of text; a bar chart of three numbers told the reader less.
    c, s = state.get("counters", {}), state.get("settings", {})
    budgets = [f"{c.get(u, 0)}/{s[m]} {u.replace('_', ' ')}" for u, m in _BUDGETS if m in s]
    subtitle = " · ".join([*budgets, f"{c.get('llm_calls', 0)} LLM call(s)"]) if trace else ""
    return _finish(fig, "Node timeline", len(trace), subtitle)


def run_figures(state: dict[str, Any]) -> list[go.Figure]:
    return [evidence_map(state), node_timeline(state)]


def _outcome_label(run: RunSummary) -> str:
    return run.outcome if run.outcome != "refused" else f"refused: {run.refusal_reason or 'unknown'}"


def _count_axis(most: int) -> dict[str, Any]:  # whole-number ticks only: fractional run counts mean nothing
    return {"rangemode": "tozero", "tick0": 0, "dtick": max(1, math.ceil(most / 6)), "title": "runs"}


def outcomes(runs: list[RunSummary]) -> go.Figure:
    counts = Counter(_outcome_label(r) for r in runs)
    labels = sorted(counts, key=lambda k: (-counts[k], k))
    fig = go.Figure()
    if runs:  # horizontal: long refusal reasons read as axis labels instead of being clipped under the bars
        fig.add_trace(
            go.Bar(
                y=labels,
                x=[counts[k] for k in labels],
                orientation="h",
                marker_color=[_COLOURS[k.split(":")[0]] for k in labels],
                text=[counts[k] for k in labels],
                hovertemplate="%{y}: %{x} run(s)<extra></extra>",
            )
        )
    ticks = {"tickmode": "array", "tickvals": labels, "ticktext": [_short(k, 30) for k in labels]}
    fig.update_yaxes(autorange="reversed", type="category", **ticks)
    fig.update_xaxes(**_count_axis(max(counts.values(), default=1)))
    return _finish(fig, "Outcomes", len(labels), f"{len(runs)} run(s)" if runs else "")


def rounds_histogram(runs: list[RunSummary]) -> go.Figure:
    # A fixed axis from 1 (0 if some run never retrieved) to at least 3, so one-round histories are not one bar.
    low, high = min([1, *(r.rounds for r in runs)]), max([3, *(r.rounds for r in runs)])
    xs = list(range(low, high + 1))
    fig = go.Figure()
    for outcome in ("answered", "refused", "paused"):
        counts = Counter(r.rounds for r in runs if r.outcome == outcome)
        if counts:
            fig.add_trace(go.Bar(name=outcome, x=xs, y=[counts[x] for x in xs], marker_color=_COLOURS[outcome]))
    most = max(Counter(r.rounds for r in runs).values(), default=1)
    fig.update_xaxes(title="rounds", tickmode="linear", tick0=low, dtick=1, range=[low - 0.5, high + 0.5])
    fig.update_yaxes(**_count_axis(most))
    fig.update_layout(barmode="stack")
    return _finish(fig, "Rounds per question", 4, "stacked by outcome" if runs else "")


def latency(runs: list[RunSummary]) -> go.Figure:
    # Every run as a point over time: readable with one run, shows drift and mode differences with many.
    fig = go.Figure()
    for mode in sorted({r.mode for r in runs}):
        mine = sorted((r for r in runs if r.mode == mode), key=lambda r: r.started_at)
        fig.add_trace(
            go.Scatter(
                name=mode or "unknown",
                x=[datetime.fromtimestamp(r.started_at) for r in mine],
                y=[r.seconds for r in mine],
                mode="markers",
                marker={"size": 10},
                customdata=[[_short(r.question, 80), _outcome_label(r)] for r in mine],
                hovertemplate="%{y:.2f} s · %{customdata[1]}<br>%{customdata[0]}<extra>%{fullData.name}</extra>",
            )
        )
    if runs:  # pad the time axis by at least half an hour: one run would otherwise zoom to milliseconds
        first, last = min(r.started_at for r in runs), max(r.started_at for r in runs)
        pad = max((last - first) * 0.05, 1800)
        fig.update_xaxes(range=[datetime.fromtimestamp(first - pad), datetime.fromtimestamp(last + pad)])
    fig.update_yaxes(title="seconds", rangemode="tozero")
    return _finish(fig, "Latency per run", 4, "by answer mode" if runs else "")
