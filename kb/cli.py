"""Command line: python -m kb [--store DIR] {ingest,docs,remove,search,eval}."""

from __future__ import annotations

import argparse
import functools
import json
import resource
import signal
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from kb.models import Hit, Progress

if TYPE_CHECKING:
    from kb.base import KnowledgeBase
    from kb.evaluate import Question
    from kb.parse_pool import ParsePool
    from kb.settings import KBSettings


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m kb", description="Page-accurate PDF knowledge base.")
    parser.add_argument("--store", type=Path, help="store directory (default data/store, or KB_STORE_DIR)")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("ingest", help="ingest PDF files or folders")
    p.add_argument("paths", nargs="+", type=Path)
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p = sub.add_parser("docs", help="list documents")
    p.add_argument("--json", action="store_true")
    p = sub.add_parser("remove", help="remove a document from every index")
    p.add_argument("doc_id")
    p = sub.add_parser("search", help="hybrid search")
    p.add_argument("query")
    p.add_argument("-k", type=int, default=8)
    p.add_argument("--doc", action="append", help="restrict to this document (repeatable)")
    p.add_argument("--variant", action="append", help="another phrasing to fuse in (repeatable)")
    p.add_argument("--neighbours", type=int, default=0, help="add N chunks on each side of every hit")
    p.add_argument("--mode", choices=["hybrid", "dense", "lexical"], default="hybrid")
    p.add_argument("--json", action="store_true")
    p = sub.add_parser("eval", help="evaluate retrieval on a questions file")
    p.add_argument("questions", type=Path)
    p.add_argument("-k", default="1,3,5,8", help="comma-separated cut-offs")
    p.add_argument("--mode", choices=["hybrid", "dense", "lexical"], default="hybrid")
    p.add_argument("--json", action="store_true")
    p.add_argument("--out", type=Path, help="write a Markdown report of the misses")
    p = sub.add_parser("page-proxy", help="rough page gold from document-level gold with reference answers")
    p.add_argument("questions", type=Path, help="JSONL with doc_id and answer per question")
    p.add_argument("corpus", type=Path, help="folder holding DOC_ID.pdf for every gold document")
    p.add_argument("--out", type=Path, required=True, help="where to write the page-gold JSONL")
    p.add_argument("--min-share", type=float, default=0.6, help="least share of answer words on the best page")
    p.add_argument("--margin", type=float, default=0.1, help="pages this close to the best also count")
    return parser


def _settings(args: argparse.Namespace) -> KBSettings:
    from kb.settings import KBSettings

    return KBSettings(store_dir=args.store) if args.store else KBSettings()


def _open(args: argparse.Namespace, settings: KBSettings | None = None) -> KnowledgeBase:
    from kb.base import KnowledgeBase

    return KnowledgeBase(settings or _settings(args))


def _peak_mb() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return (own + kids) / 1024


def cmd_ingest(args: argparse.Namespace) -> int:
    from kb.parse_pool import ParsePool

    started = time.perf_counter()
    # `kill` stops an ingestion as Ctrl-C does, closing the parser pool: by default SIGTERM would end this process
    # alone, and its parser processes would wait for work forever.
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    settings = _settings(args)
    parsers: ParsePool | None = None
    try:
        with _interrupts_deferred():
            # Parsing starts before the store and the model are opened, which takes seconds of imports on one core.
            parsers = ParsePool.early(
                args.paths, settings.store_dir, settings.parse_workers, settings.max_file_mb, settings.ocr
            )
            kb = _open(args, settings)
            if parsers is not None:
                kb.embedder  # noqa: B018 - the model loads while the parser processes work
        return _ingest(args, kb, parsers, started)
    except KeyboardInterrupt:
        print(_INTERRUPTED, file=sys.stderr)
        return 130
    finally:
        if parsers is not None:
            parsers.close()  # also when the store cannot be opened: queued parses are dropped, not finished


_INTERRUPTED = "interrupted: the store is consistent; run ingest again to finish"


@contextmanager
def _interrupts_deferred() -> Iterator[None]:
    """Ctrl-C or `kill` during the block takes effect when it ends. Interrupted half way, a native library's import
    (Chroma, ONNX Runtime) or the parser processes' start leave them unusable for the rest of the run: the command
    then hung, or died without closing its parser processes."""
    pending: list[int] = []
    kept = {sig: signal.signal(sig, lambda signum, frame: pending.append(signum)) for sig in _STOPS}
    try:
        yield
    finally:
        for sig, handler in kept.items():
            signal.signal(sig, handler)
    if pending:
        raise KeyboardInterrupt


_STOPS = (signal.SIGINT, signal.SIGTERM)


def _ingest(args: argparse.Namespace, kb: KnowledgeBase, parsers: ParsePool | None, started: float) -> int:
    from tqdm import tqdm

    bar = None if args.quiet else tqdm(total=0, unit="file", file=sys.stderr, dynamic_ncols=True)

    def progress(event: Progress) -> None:
        if event.stage == "failed":
            (bar.write if bar else print)(f"error: {event.message}", file=sys.stderr)
        if bar is None:
            return
        bar.total = event.files_total
        name = Path(event.path).name
        if event.stage == "ocr":
            bar.set_postfix_str(f"{name}: OCR page {event.done}/{event.total}")
        elif event.stage == "embedding":
            bar.set_postfix_str(f"{name}: embedding {event.done}/{event.total}")
        elif event.stage in ("stored", "unchanged", "failed"):
            bar.set_postfix_str(f"{name}: {event.stage}")
            bar.update(1)
        bar.refresh()

    try:
        summary = kb.ingest(args.paths, progress, parsers)
    except KeyboardInterrupt:
        if bar:
            bar.close()
        print(_INTERRUPTED, file=sys.stderr)
        return 130
    if bar:
        bar.close()
    for outcome in summary.files:
        for note in outcome.notes:
            print(f"note: {note}", file=sys.stderr)
    done = [f for f in summary.files if f.status == "ingested"]
    same = [f for f in summary.files if f.status == "unchanged"]
    secs = max(time.perf_counter() - started, 1e-9)  # from the first parse, which starts before the store opens
    print(
        f"ingested {len(done)} file(s), {summary.pages} pages, {summary.chunks} chunks in {secs:.1f} s "
        f"({summary.pages / secs:.1f} pages/s, {summary.chunks / secs:.1f} chunks/s); "
        f"{len(same)} unchanged, {len(summary.failed)} failed; peak memory {_peak_mb():.0f} MB"
    )
    return 1 if summary.failed else 0


def cmd_docs(args: argparse.Namespace) -> int:
    base = _open(args)
    docs = base.documents()
    if args.json:
        print(json.dumps([d.model_dump() for d in docs], indent=2))
        return 0
    if not docs:
        print("no documents")
        return 0
    print(f"{'doc_id':32} {'pages':>5} {'chunks':>6} {'status':9} {'ingested':16} title")
    stale = 0
    for d in docs:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(d.ingested_at)) if d.ingested_at else "-"
        mark = "" if d.recipe == base.settings.recipe else "*"
        stale += bool(mark)
        read = f" [OCR pages {d.ocr_pages}]" if d.ocr_pages else ""
        print(f"{d.doc_id[:32]:32} {d.pages:5d} {d.chunks:6d} {d.status + mark:9} {when:16} {d.title[:90]}{read}")
    if stale:
        print(f"* {stale} document(s) chunked or embedded by an older recipe: ingest their files again to refresh them")
    return 0


def cmd_remove(args: argparse.Namespace) -> int:
    if _open(args).remove(args.doc_id):
        print(f"removed {args.doc_id}")
        return 0
    print(f"error: {args.doc_id}: no such document", file=sys.stderr)
    return 1


def _print_hits(hits: list[Hit]) -> None:
    if not hits:
        print("no hits")
    for h in hits:
        pages = f"p.{h.start_page}" if h.start_page == h.end_page else f"p.{h.start_page}-{h.end_page}"
        dense = "-" if h.dense_score is None else f"{h.dense_score:.3f}#{h.dense_rank}"
        lex = "-" if h.lexical_score is None else f"{h.lexical_score:.2f}#{h.lexical_rank}"
        tag = f" (beside {h.neighbour_of})" if h.neighbour_of else " (page listed above)" if h.repeats_page else ""
        print(f"{h.rank:2d}. {h.doc_id} {pages}  fused={h.fused_score:.4f} dense={dense} bm25={lex}{tag}")
        if h.section:
            print(f"    § {h.section}")
        print(f"    {' '.join(h.text.split())[:240]}")


def cmd_search(args: argparse.Namespace) -> int:
    kb = _open(args)
    unknown = sorted(set(args.doc or []) - set(kb.committed()))
    if unknown:
        print(f"error: --doc {', '.join(unknown)}: no such document", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    hits = kb.search(
        args.query, k=args.k, docs=args.doc, variants=args.variant, neighbours=args.neighbours, mode=args.mode
    )
    if args.json:
        print(json.dumps([h.model_dump() for h in hits], indent=2, ensure_ascii=False))
    else:
        _print_hits(hits)
        print(f"({1000 * (time.perf_counter() - t0):.0f} ms)", file=sys.stderr)
    return 0


def cmd_eval(args: argparse.Namespace) -> int:
    from kb.evaluate import evaluate, report_markdown

    try:
        ks = sorted({int(x) for x in args.k.split(",") if x.strip()})
        if not ks or min(ks) < 1:
            raise ValueError
    except ValueError:
        print(f"error: -k {args.k}: expected positive integers such as 1,3,5,8", file=sys.stderr)
        return 2
    questions = _questions(args.questions)
    if questions is None:
        return 2
    kb = _open(args)
    kb.search("warm-up", k=1, mode=args.mode)
    result = evaluate(questions, lambda q, k: kb.search(q, k=k, mode=args.mode), ks)
    if args.out:
        args.out.write_text(report_markdown(result, ks), encoding="utf-8")
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
    else:
        for name, value in result["metrics"].items():
            print(f"{name:22} {value}")
    return 0


def cmd_page_proxy(args: argparse.Namespace) -> int:
    from kb.page_proxy import build

    if not args.corpus.is_dir():
        print(f"error: {args.corpus}: no such folder", file=sys.stderr)
        return 2
    questions = _questions(args.questions)
    if questions is None:
        return 2
    warn = functools.partial(print, file=sys.stderr)
    settings = _settings(args)
    records = build(questions, args.corpus, args.min_share, args.margin, settings.max_file_mb, warn, settings.ocr)
    try:
        args.out.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    except OSError as exc:
        print(f"error: {args.out}: cannot be written ({exc.strerror or exc})", file=sys.stderr)
        return 2
    spans = sum(len(r["gold"]) for r in records)
    print(f"{len(records)} question(s) with page gold ({spans / max(1, len(records)):.1f} pages each) -> {args.out}")
    return 0


def _questions(path: Path) -> list[Question] | None:
    """The questions of a JSONL file, or None after printing the one-line reason they cannot be read."""
    from kb.evaluate import load_questions

    try:
        return load_questions(path)
    except (OSError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return None


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    handler = {
        "ingest": cmd_ingest,
        "docs": cmd_docs,
        "remove": cmd_remove,
        "search": cmd_search,
        "eval": cmd_eval,
        "page-proxy": cmd_page_proxy,
    }
    try:
        return handler[args.command](args)
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # noqa: BLE001 - one line, never a traceback, for the person at the terminal
        print(f"error: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
