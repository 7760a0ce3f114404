"""Command line: python -m bench [--corpus NAME ...] [--rebuild] [--skip-retrieval] [--skip-agent] [--scale CHUNKS]
[--ocr PAGES] [--json] [--out FILE]."""

from __future__ import annotations

import argparse
import datetime
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from bench import measure
from bench.corpora import ROOT, BenchError, default_path, load_entries, resolve
from bench.report import ocr_markdown, scale_markdown, scoreboard


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bench",
        description="One bench over every corpus of corpora.json: cold ingestion (cached per corpus and recipe), "
        "retrieval in every mode, the agent (extractive, balanced) and parse quality, as one scoreboard.",
    )
    parser.add_argument(
        "--corpora", type=Path, help="corpora list (default ../shared/corpora/corpora.json, or BENCH_CORPORA)"
    )
    parser.add_argument("--corpus", action="append", help="only this corpus (repeatable; default all)")
    parser.add_argument(
        "--cache", type=Path, help="where the stores are cached (default data/bench, or BENCH_CACHE_DIR)"
    )
    parser.add_argument("--rebuild", action="store_true", help="ingest again even when a cached store is complete")
    parser.add_argument("--skip-retrieval", action="store_true", help="no retrieval evaluation")
    parser.add_argument("--skip-agent", action="store_true", help="no agent evaluation")
    parser.add_argument(
        "--scale",
        type=int,
        default=0,
        metavar="CHUNKS",
        help="also copy the corpora's stores into one of about CHUNKS chunks and time warm search on it",
    )
    parser.add_argument(
        "--ocr",
        type=int,
        default=8,
        metavar="PAGES",
        help="OCR figures: word recall and speed on this many pages per corpus rendered to images, and retrieval on "
        "an image-only copy of one document (default 8; 0: none)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object with everything instead")
    parser.add_argument("--out", type=Path, help="also write the Markdown scoreboard to this file")
    return parser


def run_corpus(entry: dict[str, Any], base: Path, cache: Path, args: argparse.Namespace) -> dict[str, Any]:
    """Every figure of one corpus; BenchError (or any other exception) when it cannot be measured."""
    from bench.stores import corpus_store
    from kb.evaluate import load_questions

    corpus = resolve(entry, base)
    started = time.perf_counter()
    questions = None
    if not (args.skip_retrieval and args.skip_agent):  # read before a long ingestion, so a bad file fails early
        if corpus.questions is None:
            raise BenchError("no questions file in corpora.json (or use --skip-retrieval --skip-agent)")
        try:
            questions = load_questions(corpus.questions)
        except OSError as exc:
            raise BenchError(f"{corpus.questions}: cannot be read ({exc.strerror or exc})") from None
        except ValueError as exc:
            raise BenchError(str(exc)) from None
        if not questions:
            raise BenchError(f"{corpus.questions}: no questions")
    result: dict[str, Any] = {
        **corpus.model_dump(mode="json"),
        "ok": True,
        "error": None,
        "questions_count": len(questions or []),
    }
    with corpus_store(corpus, cache, args.rebuild) as (kb, ingestion, reused):
        result["store"] = {
            **ingestion.model_dump(),
            "dir": str(kb.settings.store_dir),
            "reused": reused,
            "built": ingestion.built,
            "pages_per_second": round(ingestion.pages_per_second, 2),
        }
        if reused:
            print(f"bench: {corpus.name}: store reused, built {ingestion.built}", file=sys.stderr)
        result["retrieval"] = None if args.skip_retrieval else measure.retrieval(kb, questions, corpus.name)
        result["agent"] = None if args.skip_agent else measure.agent(kb, questions, corpus.name)
        result["made_up"] = None if args.skip_agent else measure.made_up(kb, questions, corpus.name)
        result["quality"] = measure.quality(kb, corpus.pdfs, corpus.name)
    if args.ocr > 0:
        from bench.ocr import measure_corpus

        try:
            result["ocr"] = measure_corpus(corpus, questions, args.ocr)
        except Exception as exc:  # noqa: BLE001 - the corpus's other figures stand; one line, never a traceback
            print(f"error: {corpus.name}: OCR figures: {_one_line(exc)}", file=sys.stderr)
            result["ocr"] = {"error": _one_line(exc)}
    result["seconds"] = round(time.perf_counter() - started, 1)
    return result


def _one_line(exc: BaseException) -> str:
    text = str(exc) if isinstance(exc, BenchError) else f"{type(exc).__name__}: {exc}"
    return " ".join(text.split())[:400]


def _header(corpora: Path) -> list[str]:
    from kb.settings import KBSettings

    s = KBSettings()
    when = datetime.datetime.now().strftime("%Y-%m-%d %H:%M")
    return [
        f"# Bench, {when}",
        "",
        f"Corpora: `{corpora}`. Recipe `{s.recipe}`, embedding `{s.embed_model}` ({s.embed_dtype}), "
        f"{os.cpu_count()} cores. Retrieval at k = {', '.join(map(str, measure.KS))} over answerable questions.",
    ]


def _scale(results: list[dict[str, Any]], cache: Path, target: int) -> dict[str, Any]:
    """The large store's figures, from the stores of the corpora measured: {ok, error, figures}."""
    from bench.scale import measure_scale, scale_store

    done = [r for r in results if r["ok"]]
    try:
        if not done:
            raise BenchError("no corpus store to copy")
        directory, seconds = scale_store([Path(r["store"]["dir"]) for r in done], cache, target)
        questions = [Path(r["questions"]) for r in done if r.get("questions")]
        figures = measure_scale(directory, questions, seconds)
        return {"ok": True, "error": None, "dir": str(directory), **figures.model_dump()}
    except Exception as exc:  # noqa: BLE001 - one line, never a traceback
        print(f"error: scale: {_one_line(exc)}", file=sys.stderr)
        return {"ok": False, "error": _one_line(exc)}


def _generated() -> dict[str, Any]:
    """The OCR figures of generated pages: {ok, error, figures}."""
    from bench.ocr import measure_generated

    try:
        return {"ok": True, "error": None, **measure_generated()}
    except Exception as exc:  # noqa: BLE001 - one line, never a traceback
        print(f"error: OCR of generated pages: {_one_line(exc)}", file=sys.stderr)
        return {"ok": False, "error": _one_line(exc)}


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        return _run(args)
    except BenchError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


def _run(args: argparse.Namespace) -> int:
    path = (args.corpora or default_path()).resolve()
    entries = load_entries(path)
    known = [e["name"] for e in entries]
    unknown = [name for name in args.corpus or [] if name not in known]
    if unknown:
        raise BenchError(f"unknown corpus {', '.join(unknown)} (known: {', '.join(known) or 'none'})")
    chosen = [e for e in entries if not args.corpus or e["name"] in args.corpus]
    cache = (args.cache or Path(os.environ.get("BENCH_CACHE_DIR") or ROOT / "data" / "bench")).resolve()
    results = []
    for entry in chosen:
        try:
            results.append(run_corpus(entry, path.parent, cache, args))
        except Exception as exc:  # noqa: BLE001 - one line per failed corpus, never a traceback; the others go on
            print(f"error: {entry['name']}: {_one_line(exc)}", file=sys.stderr)
            results.append({"name": entry["name"], "ok": False, "error": _one_line(exc)})
    scale = _scale(results, cache, args.scale) if args.scale > 0 else None
    generated = _generated() if args.ocr > 0 else None
    markdown = scoreboard(results, _header(path)) + scale_markdown(scale) + ocr_markdown(generated, results)
    if args.json:
        everything = {"corpora_file": str(path), "corpora": results, "scale": scale, "ocr_generated": generated}
        print(json.dumps(everything, ensure_ascii=False, default=str))
    else:
        print(markdown, end="")
    code = 0 if all(r["ok"] for r in results) and (scale is None or scale["ok"]) else 1
    if args.out:
        try:
            args.out.write_text(markdown, encoding="utf-8")
        except OSError as exc:
            print(f"error: {args.out}: cannot be written ({exc.strerror or exc})", file=sys.stderr)
            code = 1
    return code
