"""Charts for one run (evidence map, node timeline) and for the run history, built from hand-made states."""

from __future__ import annotations

from typing import Any

import plotly.graph_objects as go

from agent.runs import RunSummary
from ui import charts

LONG = "a-very-long-document-identifier-for-the-annual-report-2023"


def _hit(chunk_id: str, doc_id: str, start: int, end: int | None = None) -> dict[str, Any]:
    return {"chunk_id": chunk_id, "doc_id": doc_id, "start_page": start, "end_page": end or start, "section": "Intro"}


def _round(number: int, *chunk_ids: str) -> dict[str, Any]:
    scores = [{"chunk_id": c, "rank": i + 1} for i, c in enumerate(chunk_ids)]
    return {"round": number, "scores": scores, "new": len(chunk_ids), "total": len(chunk_ids)}


def _points(fig: go.Figure, name: str) -> list[tuple[str, str]]:
    """(x, y) of every point in the trace called name; none when the trace is absent."""
    return [(x, y) for t in fig.data if t.name == name for x, y in zip(t.x, t.y, strict=True)]


def _map_points(fig: go.Figure) -> list[tuple[str, str]]:
    return _points(fig, "new") + _points(fig, "carried over")


def test_one_round_map_has_one_point_per_distinct_page_and_several_labels() -> None:
    # Two chunks on alpha p.1, one on alpha p.2, one on beta p.5: three distinct pages.
    evidence = [_hit("a1", "alpha", 1), _hit("a1b", "alpha", 1), _hit("a2", "alpha", 2), _hit("b5", "beta", 5)]
    fig = charts.evidence_map({"rounds": [_round(1, "a1", "a1b", "a2", "b5")], "evidence": evidence})
    points = _map_points(fig)
    assert sorted(points) == [("round 1", "alpha p.1"), ("round 1", "alpha p.2"), ("round 1", "beta p.5")]
    assert list(fig.layout.yaxis.ticktext) == ["alpha p.1", "alpha p.2", "beta p.5"]
    assert fig.layout.title.text


def test_one_round_map_reports_the_best_rank_per_page() -> None:
    evidence = [_hit("a1", "alpha", 1), _hit("a1b", "alpha", 1)]
    # Scores out of rank order (as with several queries per round): the page still shows its best rank.
    scores = [{"chunk_id": "a1b", "rank": 4}, {"chunk_id": "a1", "rank": 1}]
    fig = charts.evidence_map({"rounds": [{"round": 1, "scores": scores}], "evidence": evidence})
    (trace,) = [t for t in fig.data if t.name == "new"]
    assert list(trace.text) == ["1"]


def test_multi_page_hit_counts_for_each_of_its_pages() -> None:
    fig = charts.evidence_map({"rounds": [_round(1, "x")], "evidence": [_hit("x", "alpha", 3, 4)]})
    assert sorted(y for _, y in _map_points(fig)) == ["alpha p.3", "alpha p.4"]


def test_pages_from_round_one_are_carried_over_in_round_two_and_unseen_pages_are_new() -> None:
    evidence = [_hit("a1", "alpha", 1), _hit("a2", "alpha", 2), _hit("a1-other", "alpha", 1), _hit("b3", "beta", 3)]
    # Round 2 finds alpha p.1 again through a different chunk: the page, not the chunk, is carried over.
    rounds = [_round(1, "a1", "a2"), _round(2, "a1-other", "b3")]
    fig = charts.evidence_map({"rounds": rounds, "evidence": evidence})
    assert _points(fig, "carried over") == [("round 2", "alpha p.1")]
    assert sorted(_points(fig, "new")) == [("round 1", "alpha p.1"), ("round 1", "alpha p.2"), ("round 2", "beta p.3")]
    assert list(fig.layout.xaxis.categoryarray) == ["round 1", "round 2"]


def test_cited_pages_are_marked() -> None:
    evidence = [_hit("a1", "alpha", 1), _hit("a2", "alpha", 2)]
    state = {
        "rounds": [_round(1, "a1", "a2")],
        "evidence": evidence,
        "citations": [{"doc_id": "alpha", "start_page": 2, "end_page": 2}],
    }
    fig = charts.evidence_map(state)
    assert _points(fig, "cited in the answer") == [("round 1", "alpha p.2")]
    assert list(fig.layout.yaxis.ticktext) == ["alpha p.1", "alpha p.2 ✓"]
    uncited = charts.evidence_map({**state, "citations": []})
    assert _points(uncited, "cited in the answer") == []


def test_timeline_has_one_bar_per_trace_step_in_order() -> None:
    t0 = 1_700_000_000.0
    trace = [
        {"node": "route", "started": t0, "seconds": 0.01, "summary": "intent general"},
        {"node": "retrieve", "started": t0 + 0.02, "seconds": 0.3, "summary": "round 1: 8 hits"},
        {"node": "assess", "started": t0 + 0.33, "seconds": 0.005, "summary": "sufficient"},
        {"node": "retrieve", "started": t0 + 0.34, "seconds": 0.2, "summary": "round 2: 4 hits"},
    ]
    fig = charts.node_timeline({"trace": trace})
    (bars,) = fig.data
    assert list(bars.y) == ["1. route", "2. retrieve", "3. assess", "4. retrieve"]
    assert [round(b) for b in bars.base] == [0, 20, 330, 340]  # ms since the first step
    assert bars.orientation == "h"
    assert fig.layout.yaxis.autorange == "reversed"  # first step on top


def test_long_document_ids_are_shortened_in_ticks_but_full_in_hover() -> None:
    fig = charts.evidence_map(
        {"rounds": [_round(1, "l1", "l2")], "evidence": [_hit("l1", LONG, 1), _hit("l2", LONG, 2)]}
    )
    ticks = list(fig.layout.yaxis.ticktext)
    assert len(ticks) == 2
    assert all(LONG not in t and t.endswith(f"p.{p}") for t, p in zip(ticks, (1, 2), strict=True))
    assert all(len(t) < len(LONG) for t in ticks)
    hover_docs = {row[0] for t in fig.data for row in t.customdata}
    assert hover_docs == {LONG}


def test_figure_height_grows_with_label_count() -> None:
    def height(pages: int) -> int:
        evidence = [_hit(f"c{p}", "alpha", p) for p in range(1, pages + 1)]
        state = {"rounds": [_round(1, *(h["chunk_id"] for h in evidence))], "evidence": evidence}
        return charts.evidence_map(state).layout.height

    assert charts.MIN_HEIGHT <= height(2) < height(12) < height(20)
    assert height(200) == charts.MAX_HEIGHT


def test_empty_state_gives_titled_figures() -> None:
    figures = charts.run_figures({})
    assert len(figures) == 2
    for fig in figures:
        assert isinstance(fig, go.Figure) and fig.layout.title.text
        fig.to_json()  # serialisable, as st.plotly_chart needs


def _runs() -> list[RunSummary]:
    rows = [("answered", None, 1, "extractive"), ("refused", "no_evidence", 3, "ollama"), ("paused", None, 1, "ollama")]
    return [
        RunSummary(
            run_id=f"r{i}",
            question="What is the effect of model size?",
            outcome=o,
            refusal_reason=reason,
            rounds=n,
            mode=mode,
            seconds=1.5 * (i + 1),
            started_at=1_700_000_000.0 + 60 * i,
        )
        for i, (o, reason, n, mode) in enumerate(rows)
    ]


def test_history_charts_accept_an_empty_list() -> None:
    for fig in (charts.outcomes([]), charts.rounds_histogram([]), charts.latency([])):
        assert isinstance(fig, go.Figure) and fig.layout.title.text
        fig.to_json()


def test_history_charts_accept_run_summaries() -> None:
    runs = _runs()
    outcome = charts.outcomes(runs)
    (bars,) = outcome.data
    assert bars.orientation == "h"
    assert sorted(bars.y) == ["answered", "paused", "refused: no_evidence"]
    assert outcome.layout.yaxis.automargin
    rounds = charts.rounds_histogram(runs)
    assert {t.name: sum(t.y) for t in rounds.data} == {"answered": 1, "refused": 1, "paused": 1}
    latency = charts.latency(runs)
    assert sorted(t.name for t in latency.data) == ["extractive", "ollama"]
    for fig in (outcome, rounds, latency):
        assert fig.layout.title.text
        fig.to_json()


def test_rounds_histogram_of_one_round_runs_keeps_an_integer_axis_beyond_one() -> None:
    fig = charts.rounds_histogram(_runs()[:1])
    (bars,) = fig.data
    assert list(bars.x) == [1, 2, 3]
    assert list(bars.y) == [1, 0, 0]
    assert fig.layout.xaxis.dtick == 1
