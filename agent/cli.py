"""Command line: python -m agent [--store DIR] {ask,eval,runs}."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from agent.events import EndEvent, ErrorEvent, Event, NodeEvent
from agent.settings import AgentSettings
from agent.types import ApprovalRequest


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m agent", description="Bounded research agent over the library.")
    parser.add_argument("--store", type=Path, help="store directory (default data/store, or KB_STORE_DIR)")
    sub = parser.add_subparsers(dest="command", required=True)

    def common(p: argparse.ArgumentParser) -> None:
        p.add_argument("--preset", choices=["quick", "balanced", "thorough"], default="balanced")
        p.add_argument("--mode", choices=["auto", "ollama", "extractive"], default=None)
        p.add_argument("--model", help="Ollama model (default llama3.2, or AGENT_MODEL)")
        p.add_argument("--ollama-url", help="Ollama base URL (default http://localhost:11434, or OLLAMA_HOST)")
        p.add_argument("-k", type=int, help="hits per query")
        p.add_argument("--doc", action="append", help="restrict to this document (repeatable)")
        p.add_argument("--json", action="store_true")

    p = sub.add_parser("ask", help="answer one question with cited evidence")
    p.add_argument("question")
    p.add_argument("--approve", choices=["auto", "ask"], default="auto", help="ask: confirm each refined query")
    p.add_argument(
        "--after", metavar="RUN_ID", help="a follow-up of this saved run: it may lean on its question and documents"
    )
    common(p)
    p = sub.add_parser("eval", help="run the agent over a questions file and score it")
    p.add_argument("questions", type=Path)
    p.add_argument("--out", type=Path, help="write a Markdown report")
    common(p)
    p = sub.add_parser("runs", help="list saved runs")
    p.add_argument("--json", action="store_true")
    p.add_argument("-n", type=int, default=20)
    return parser


def _settings(args: argparse.Namespace, approval: bool = False) -> AgentSettings:
    return AgentSettings.for_preset(
        args.preset,
        mode=args.mode,
        model=args.model,
        ollama_url=args.ollama_url,
        k=args.k,
        docs=args.doc,
        approval=approval,
    )


def _kb(args: argparse.Namespace):
    from kb.base import KnowledgeBase
    from kb.settings import KBSettings

    return KnowledgeBase(KBSettings(store_dir=args.store) if args.store else KBSettings())


def _print_event(event: Event) -> None:
    if isinstance(event, NodeEvent):
        line = f"[{event.node:>8}] {event.summary}  ({event.seconds * 1000:.0f} ms)"
        print(line, flush=True)
        if event.warning:
            print(f"           ! {event.warning}", flush=True)
        for hit in (event.hits or [])[:5]:
            mark = "*" if hit.get("new") else " "
            pages = (
                hit["start_page"]
                if hit["start_page"] == hit["end_page"]
                else (f"{hit['start_page']}-{hit['end_page']}")
            )
            print(f"           {mark} {hit['doc_id']} p.{pages}  {' '.join(hit['text'].split())[:90]}", flush=True)
    elif isinstance(event, ErrorEvent):
        print(f"error: {event.message}", file=sys.stderr, flush=True)
    # A TokenEvent is not printed: the verified answer is printed at the end, raw tokens would show unverified text.


def _ask_terminal(payload: ApprovalRequest) -> dict[str, Any]:
    print(f"\nRefinement ({payload.strategy}): {payload.previous!r} -> {payload.proposed!r}")
    for reason in payload.reasons:
        print(f"  because: {reason}")
    while True:
        choice = input("[a]pprove, [e]dit, [r]eject? ").strip().lower()
        if choice in ("a", "approve", ""):
            return {"action": "approve"}
        if choice in ("r", "reject"):
            return {"action": "reject"}
        if choice in ("e", "edit"):
            query = input("new query: ").strip()
            if query:
                return {"action": "edit", "query": query}


def cmd_ask(args: argparse.Namespace) -> int:
    from agent.runner import Agent

    settings = _settings(args, approval=args.approve == "ask")
    history = []
    if args.after:
        from agent.followup import turn_of
        from agent.runs import load_run

        previous = load_run(settings.runs_dir, args.after)
        if previous is None:
            print(f"error: --after {args.after}: no saved run with that id in {settings.runs_dir}", file=sys.stderr)
            return 2
        history = [turn_of(previous.state)]
    agent = Agent.persistent(_kb(args), settings) if settings.approval else Agent(_kb(args), settings)
    events = agent.ask(args.question, history=history)
    result = None
    while events is not None:
        stream, events = events, None
        for event in stream:
            if not args.json:
                _print_event(event)
            if isinstance(event, ErrorEvent):
                if args.json:
                    print(f"error: {event.message}", file=sys.stderr)
                return 1
            if isinstance(event, EndEvent) and event.kind == "paused":
                request = ApprovalRequest.model_validate(agent.pending(event.run_id))
                events = agent.resume(event.run_id, _ask_terminal(request))
            elif isinstance(event, EndEvent):
                result = event.result
    if result is None:
        return 1
    if args.json:
        print(json.dumps(result, indent=2, ensure_ascii=False))
        return 0
    label = f"ollama ({result['model']})" if result["mode"] == "ollama" else "extractive"
    print(f"\n{'REFUSED' if result['refused'] else 'ANSWER'} [{label}]: {result['answer']}")
    for c in result["citations"]:
        pages = c["start_page"] if c["start_page"] == c["end_page"] else f"{c['start_page']}-{c['end_page']}"
        print(f"  [{c['key']}] {c['doc_id']} p.{pages}  ({c['chunk_id']})")
    if result["refused"]:
        print(f"  refusal_reason={result['refusal_reason']}  stop_reason={result['stop_reason']}")
    print(f"  {result['rounds']} round(s), {result['llm_calls']} LLM call(s), {result['seconds']:.2f} s")
    return 0


def cmd_eval(args: argparse.Namespace) -> int:
    from agent.evaluate import evaluate, report_markdown
    from kb.evaluate import load_questions

    try:
        questions = load_questions(args.questions)
    except OSError as exc:
        print(f"error: {args.questions}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    except ValueError as exc:  # already names the file, line and field
        print(f"error: {exc}", file=sys.stderr)
        return 1
    result = evaluate(
        _kb(args),
        _settings(args),
        questions,
        progress=None if args.json else lambda i, n, q: print(f"\r{i}/{n} {q}", end="", flush=True),
    )
    if args.out:
        args.out.write_text(report_markdown(result), encoding="utf-8")
    if args.json:
        print(json.dumps(result, indent=2, ensure_ascii=False))
    else:
        print()
        for key, value in result["metrics"].items():
            print(f"{key:>34}: {value}")
    return 0


def cmd_runs(args: argparse.Namespace) -> int:
    from agent.runs import list_runs

    runs = list_runs(AgentSettings().runs_dir, args.n)
    if args.json:
        print(json.dumps([r.model_dump() for r in runs], indent=2))
        return 0
    for r in runs:
        outcome = r.outcome if r.outcome != "refused" else f"refused ({r.refusal_reason})"
        print(f"{r.run_id}  {outcome:<32} {r.rounds} rnd  {r.mode:<10} {r.seconds:6.2f}s  {r.question[:60]}")
    return 0


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        return {"ask": cmd_ask, "eval": cmd_eval, "runs": cmd_runs}[args.command](args)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except (OSError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
