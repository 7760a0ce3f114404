"""The scoreboard as Markdown: one headline row per corpus, then detail tables, one row per corpus (and mode)."""

from __future__ import annotations

from typing import Any

from bench.measure import KS, MODES

DEPTH = max(KS)
# Retrieval metrics per kind of gold, in column order: (metric prefix, column label).
METRICS = {
    "document": [("doc_hit", "hit"), ("answer_support", "support")],
    "page": [("recall", "R"), ("mrr", "MRR"), ("ndcg", "nDCG")],
}
HEADLINE = {
    "document": [("doc_hit@1", "hit@1"), ("doc_hit@5", "hit@5"), (f"answer_support@{DEPTH}", f"support@{DEPTH}")],
    "page": [(f"recall@{DEPTH}", f"R@{DEPTH}"), (f"mrr@{DEPTH}", f"MRR@{DEPTH}"), (f"ndcg@{DEPTH}", f"nDCG@{DEPTH}")],
}


def _f(value: Any, digits: int = 3) -> str:
    if value is None:
        return "–"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return lines + ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in rows]


def _store(r: dict[str, Any]) -> str:
    s = r["store"]
    return f"reused, built {s['built']}" if s["reused"] else "built now"


def _retrieval_cell(r: dict[str, Any]) -> str:
    if not r.get("retrieval"):
        return "skipped"
    metrics = r["retrieval"]["hybrid"]["metrics"]
    return " · ".join(f"{label} {_f(metrics.get(key))}" for key, label in HEADLINE[r["gold"]])


def _agent_cell(r: dict[str, Any]) -> str:
    if not r.get("agent"):
        return "skipped"
    c = r["agent"]["counts"]
    refused = f"{c['unanswerable_refused']}/{c['unanswerable']}" if c["unanswerable"] else "–"
    gold = r["agent"]["metrics"]["cites_gold_of_answered"]
    recall = r["agent"]["metrics"].get("answer_recall")
    probe = r.get("made_up")
    made_up = f" · made-up names refused {probe['refused']}/{probe['questions']}" if probe else ""
    return f"unanswerable refused {refused} · false refusals {c['false_refusals']}/{c['answerable']} · " + (
        f"cites gold {_f(gold)} of answered · answer recall {_f(recall)}{made_up}"
    )


def _quality_cell(r: dict[str, Any]) -> str:
    targets = r["quality"]["targets"]
    missed = [f"{t['name']} {t['value']}" for t in targets if not t["met"]]
    met = f"{len(targets) - len(missed)}/{len(targets)} targets met"
    return f"{met} (not: {'; '.join(missed)})" if missed else met


def scoreboard(results: list[dict[str, Any]], header: list[str]) -> str:
    """The whole report: headline table, then ingestion, retrieval, agent and parse-quality details."""
    ok = [r for r in results if r["ok"]]
    lines = [*header, ""]
    lines += _table(
        [
            "corpus",
            "gold",
            "docs",
            "pages",
            "chunks",
            "ingest pages/s (cold)",
            "peak MB",
            "store",
            "retrieval (hybrid)",
            "agent (extractive, balanced)",
            "parse quality",
        ],
        [
            [
                r["name"],
                r["gold"],
                str(r["store"]["documents"]),
                str(r["store"]["pages"]),
                str(r["store"]["chunks"]),
                f"{r['store']['pages_per_second']:.1f} ({r['store']['seconds']:.1f} s)",
                f"{r['store']['peak_mb']:.0f}",
                _store(r),
                _retrieval_cell(r),
                _agent_cell(r),
                _quality_cell(r),
            ]
            for r in ok
        ],
    )
    for r in results:
        if not r["ok"]:
            lines.append(f"\n**{r['name']}: failed**: {r['error']}")
    if ok:
        lines += ["", *_ingestion(ok), *_retrieval(ok), *_agent(ok), *_quality(ok)]
    return "\n".join(lines) + "\n"


def _ingestion(ok: list[dict[str, Any]]) -> list[str]:
    rows = []
    for r in ok:
        s = r["store"]
        rows.append(
            [
                r["name"],
                _store(r),
                s["key"],
                f"{s['seconds']:.1f}",
                f"{s['pages_per_second']:.1f}",
                f"{s['chunks'] / s['seconds']:.1f}" if s["seconds"] else "–",
                f"{s['peak_mb']:.0f}",
                f"{s['failed_files']}" + (f" ({'; '.join(s['errors'][:3])})" if s["errors"] else ""),
            ]
        )
    header = ["corpus", "store", "key", "seconds", "pages/s", "chunks/s", "peak MB", "failed files"]
    return [
        "## Ingestion (cold: its own process, from start to exit)",
        "",
        *_table(header, rows),
        "",
        "Peak MB is the largest resident set of a single process of the ingestion (its main process or a parser "
        "process), as wait4 reports it. A reused store reports the figures measured when it was built.",
        "",
    ]


def _retrieval(ok: list[dict[str, Any]]) -> list[str]:
    lines: list[str] = []
    for gold, metrics in METRICS.items():
        group = [r for r in ok if r.get("retrieval") and r["gold"] == gold]
        if not group:
            continue
        columns = [(f"{prefix}@{k}", f"{label}@{k}") for prefix, label in metrics for k in KS]
        present = [
            (key, label) for key, label in columns if any(key in r["retrieval"]["hybrid"]["metrics"] for r in group)
        ]
        rows = []
        for r in group:
            for mode, name in MODES.items():
                m = r["retrieval"][mode]["metrics"]
                timing = f"{_f(m.get('latency_p50_ms'), 1)} / {_f(m.get('latency_p95_ms'), 1)}"
                rows.append([r["name"], name, str(m.get("questions", 0)), *(_f(m.get(k)) for k, _ in present), timing])
        header = ["corpus", "mode", "questions", *(label for _, label in present), "ms p50 / p95"]
        lines += [f"## Retrieval, {gold} gold", "", *_table(header, rows), ""]
    return lines


def _agent(ok: list[dict[str, Any]]) -> list[str]:
    group = [r for r in ok if r.get("agent")]
    if not group:
        return []
    rows = []
    for r in group:
        m, c = r["agent"]["metrics"], r["agent"]["counts"]
        refused = f"{c['unanswerable_refused']}/{c['unanswerable']} ({_f(m['refusal_accuracy_unanswerable'])})"
        rows.append(
            [
                r["name"],
                str(m["questions"]),
                refused if c["unanswerable"] else "–",
                f"{c['false_refusals']}/{c['answerable']} ({_f(m['false_refusal_rate_answerable'])})",
                _f(m["citation_validity"]),
                _f(m["cites_gold_of_answerable"]),
                f"{_f(m['cites_gold_of_answered'])} ({c['answered_citing_gold']}/{c['answered']})",
                _f(m["gold_share_of_citations"]),
                _f(m.get("answer_recall")),
                _f(m["rounds_per_question"], 2),
                f"{_f(m['seconds_per_question'], 2)} / {_f(m['seconds_p95'], 2)}",
            ]
        )
    header = [
        "corpus",
        "questions",
        "unanswerable refused",
        "false refusals",
        "citation validity",
        "cites gold (answerable)",
        "cites gold (answered)",
        "gold share of citations",
        "answer recall",
        "rounds",
        "s/question mean / p95",
    ]
    notes = [
        f"- {r['name']}: made-up names (bench.probe: each question naming its document asked again with that name "
        f"made up; all unanswerable) refused {r['made_up']['refused']}/{r['made_up']['questions']}"
        + (f"; answered e.g. “{r['made_up']['answered'][0]}”" if r["made_up"]["answered"] else "")
        for r in group
        if r.get("made_up")
    ]
    return ["## Agent (extractive mode, balanced preset)", "", *_table(header, rows), "", *notes, ""]


def _quality(ok: list[dict[str, Any]]) -> list[str]:
    names = [t["name"] for t in ok[0]["quality"]["targets"]]
    goals = {t["name"]: t["target"] for t in ok[0]["quality"]["targets"]}
    rows, notes = [], []
    for r in ok:
        q = r["quality"]
        cells = {t["name"]: f"{t['value']} {'met' if t['met'] else '**not met**'}" for t in q["targets"]}
        rows.append(
            [
                r["name"],
                *(cells.get(n, "–") for n in names),
                _f(q["unlabelled_share"]),
                str(q["contents_chunks"]),
                f"{q['organisation_docs']} / {q['period_docs']} of {q['documents']}",
            ]
        )
        notes += _quality_notes(r["name"], q)
    header = [
        "corpus",
        *(f"{n} ({goals[n]})" for n in names),
        "unlabelled chunks",
        "contents chunks",
        "cards org / period",
    ]
    return ["## Parse quality", "", *_table(header, rows), "", *notes]


def _ids(ids: list[str], most: int = 8) -> str:
    more = f" and {len(ids) - most} more" if len(ids) > most else ""
    return ", ".join(ids[:most]) + more


def _quality_notes(name: str, q: dict[str, Any]) -> list[str]:
    notes = []
    if q["top_leaked_lines"]:
        leaks = ", ".join(f"`{x['line']}` ({x['chunks']})" for x in q["top_leaked_lines"])
        notes.append(f"- {name}: leaked running lines: {leaks} ({q['running_line_docs']} documents have running lines)")
    for field, label in (
        ("untitled_docs", "untitled"),
        ("duplicate_title_docs", "duplicate titles"),
        ("dominant_section_docs", "one section on over half the chunks"),
        ("line_number_run_ids", "line-number runs in"),
        ("unread_docs", "PDF not found or unreadable (no running-line check)"),
    ):
        if q[field]:
            notes.append(f"- {name}: {label}: {_ids(q[field])}")
    return notes


def scale_markdown(scale: dict[str, Any] | None) -> str:
    """The large store's section (empty without --scale)."""
    if scale is None:
        return ""
    lines = ["", "## Search at scale", ""]
    if not scale["ok"]:
        return "\n".join([*lines, f"Not measured: {scale['error']}", ""])
    build = "reused" if scale["reused"] else f"built in {scale['build_seconds']:.0f} s"
    lines += _table(
        ["chunks", "documents", "searches", "open + first search", "p50", "p95", "peak memory"],
        [
            [
                f"{scale['chunks']:,}",
                f"{scale['documents']:,}",
                str(scale["questions"]),
                f"{scale['open_seconds']:.1f} s",
                f"{scale['p50_ms']:.1f} ms",
                f"{scale['p95_ms']:.1f} ms",
                f"{scale['peak_mb']:,.0f} MB",
            ]
        ],
    )
    note = f"The corpora's stores copied under other document names ({build}); hybrid, k = 8."
    return "\n".join([*lines, "", note, ""])


def ocr_markdown(generated: dict[str, Any] | None, results: list[dict[str, Any]]) -> str:
    """The OCR section (empty with --ocr 0): word recall and speed per kind of page, and retrieval on an image-only
    copy of a document against its text version."""
    if generated is None:
        return ""
    rows = []
    if generated["ok"]:
        rows.append(["generated", *_recall_cells(generated)])
    else:
        rows.append(["generated", f"not measured: {generated['error']}", "", "", ""])
    copies = []
    for r in results:
        ocr = r.get("ocr") if r["ok"] else None
        if not ocr:
            continue
        if ocr.get("error"):
            rows.append([r["name"], f"not measured: {ocr['error']}", "", "", ""])
            continue
        rows.append([r["name"], *_recall_cells(ocr["recall"])])
        c = ocr["copy"]
        if c:
            pairs = ", ".join(f"{k} {c['text'][k]:.3f} → {c['image'].get(k, 0):.3f}" for k in c["text"])
            copies.append([r["name"], c["doc_id"], str(c["pages"]), str(c["questions"]), pairs])
    lines = ["", "## OCR", "", *_table(["pages", "OCR'd", "word recall", "lowest page", "pages/s"], rows)]
    note = "Pages rendered at 150 dpi into image-only PDFs; recall of their text layer's words, as printed."
    lines += ["", note]
    if copies:
        lines += ["", *_table(["corpus", "image-only copy of", "pages", "questions", "text → image"], copies)]
    return "\n".join([*lines, ""])


def _recall_cells(f: dict[str, Any]) -> list[str]:
    return [str(f["pages"]), f"{f['word_recall']:.3f}", f["worst_page"], f"{f['pages_per_second']:.2f}"]
