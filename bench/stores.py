"""Stores cached per corpus and recipe under data/bench/<corpus>-<key>/, ingested cold in a process of their own.

The key covers what decides a store's content: the recipe (chunk sizes, title weight), the embedding model and its
precision, and the source of every kb module that runs at ingestion (not the query-time ones). A store is complete
once its `bench.json` is written, after a successful ingestion; that file keeps the figures measured at build time,
which a reuse reports.
"""

from __future__ import annotations

import codecs
import contextlib
import datetime
import fcntl
import hashlib
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from pydantic import BaseModel, Field, ValidationError

from bench.corpora import BenchError, Corpus

# kb modules that only run at query time: a change there reuses the stores.
QUERY_ONLY = frozenset(
    {
        "search.py",
        "query.py",
        "documents.py",
        "page_units.py",
        "definitions.py",
        "table_rows.py",
        "hints.py",
        "search_settings.py",
        "lexical.py",
        "evaluate.py",
        "cli.py",
        "quality.py",
        "benchmark.py",
        "page_proxy.py",
        "render.py",
        "sentences.py",  # the answer's sentences and run-on: read by the agent only
        "__main__.py",
    }
)
MARK = "bench.json"
LOCK = "bench.lock"


class Ingestion(BaseModel):
    """How a cached store was built, as recorded in its bench.json."""

    corpus: str = Field(description="Corpus name.")
    key: str = Field(description="Short sha1 of the recipe, model, precision and ingestion code.")
    key_inputs: dict[str, str] = Field(description="What the key was made of.")
    lexical_hash: str = Field("", description="sha1 of kb/lexical.py when the BM25 index was built.")
    built_at: float = Field(description="Unix time the ingestion finished.")
    seconds: float = Field(description="Wall time of the ingestion process, from its start to its exit (cold).")
    peak_mb: float = Field(
        description="Largest resident set of a single process of the ingestion (its main process or one of its "
        "parser processes, as wait4 reports it), in MB."
    )
    documents: int = Field(description="Committed documents.")
    pages: int = Field(description="Pages of the committed documents.")
    chunks: int = Field(description="Chunks of the committed documents.")
    exit_code: int = Field(description="Exit code of the ingestion process.")
    failed_files: int = Field(0, description="Files that could not be ingested.")
    errors: list[str] = Field(default_factory=list, description="The ingestion's error lines (one per failed file).")
    summary: str = Field("", description="The last line the ingestion printed.")

    @property
    def pages_per_second(self) -> float:
        return self.pages / self.seconds if self.seconds else 0.0

    @property
    def built(self) -> str:
        return datetime.datetime.fromtimestamp(self.built_at).strftime("%Y-%m-%d %H:%M")


def _sha1(*parts: bytes) -> str:
    digest = hashlib.sha1()
    for part in parts:
        digest.update(part)
        digest.update(b"\0")
    return digest.hexdigest()


def code_hash(kb_dir: Path) -> str:
    """sha1 over the ingestion-time kb modules, by file name then content, sorted by name."""
    files = sorted(p for p in kb_dir.glob("*.py") if p.name not in QUERY_ONLY)
    return _sha1(*(part for p in files for part in (p.name.encode(), p.read_bytes())))


def store_key(settings: Any, kb_dir: Path) -> tuple[str, dict[str, str]]:
    """The short key of a store made by these settings and this kb source, and what it was made of."""
    inputs = {
        "recipe": settings.recipe,
        "embed_model": settings.embed_model,
        "embed_dtype": settings.embed_dtype,
        "code": code_hash(kb_dir),
    }
    return _sha1(*(f"{k}={v}".encode() for k, v in inputs.items()))[:12], inputs


def _lexical_hash(kb_dir: Path) -> str:
    path = kb_dir / "lexical.py"
    return _sha1(path.read_bytes()) if path.is_file() else ""


def _read_mark(directory: Path) -> Ingestion | None:
    try:
        return Ingestion.model_validate_json((directory / MARK).read_text(encoding="utf-8"))
    except (OSError, ValidationError):
        return None


def _write_mark(directory: Path, ingestion: Ingestion) -> None:
    tmp = directory / f"{MARK}.tmp"
    tmp.write_text(ingestion.model_dump_json(indent=2), encoding="utf-8")
    tmp.replace(directory / MARK)


def _clear(directory: Path) -> None:
    """Remove a store's content, keeping its lock file."""
    for child in directory.iterdir():
        if child.name == LOCK:
            continue
        if child.is_dir() and not child.is_symlink():
            shutil.rmtree(child)
        else:
            child.unlink()


def _relay(stream: IO[bytes], sink: list[str], echo: bool) -> None:
    """Read a child's stream to its end, keeping the text and echoing it (its progress bar) to our stderr."""
    decoder = codecs.getincrementaldecoder("utf-8")("replace")
    while chunk := os.read(stream.fileno(), 65536):
        text = decoder.decode(chunk)
        sink.append(text)
        if echo:
            sys.stderr.write(text)
            sys.stderr.flush()


def run_ingestion(kb_dir: Path, store: Path, pdfs: Path) -> tuple[int, float, float, str, str]:
    """Ingest `pdfs` into `store` in a fresh process: (exit code, seconds, peak MB, stdout, stderr).
    Its progress bar streams to our stderr."""
    command = [sys.executable, "-m", "kb", "--store", str(store), "ingest", str(pdfs)]
    out: list[str] = []
    err: list[str] = []
    started = time.perf_counter()
    proc = subprocess.Popen(command, cwd=kb_dir.parent, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    readers = [
        threading.Thread(target=_relay, args=(proc.stdout, out, False), daemon=True),
        threading.Thread(target=_relay, args=(proc.stderr, err, True), daemon=True),
    ]
    for reader in readers:
        reader.start()
    try:
        # wait4 gives this child's own usage, including its finished parser processes, whatever ran before.
        _, status, usage = os.wait4(proc.pid, 0)
    except BaseException:
        proc.kill()
        proc.wait()
        raise
    seconds = time.perf_counter() - started
    proc.returncode = os.waitstatus_to_exitcode(status)
    for reader in readers:
        reader.join()
    proc.stdout.close()
    proc.stderr.close()
    return proc.returncode, seconds, usage.ru_maxrss / 1024, "".join(out), "".join(err)


def error_lines(stderr: str) -> list[str]:
    """The ingestion's `error: ...` lines, also where one follows its progress bar on the same line."""
    return [line.strip() for line in re.findall(r"error: [^\r\n]*", stderr)]


def _flock(handle: IO[str], flags: int, name: str) -> None:
    """Take an flock on the store's lock file, saying so when another bench makes it wait."""
    try:
        fcntl.flock(handle, flags | fcntl.LOCK_NB)
    except BlockingIOError:
        print(f"bench: waiting for another bench using {name}", file=sys.stderr)
        fcntl.flock(handle, flags)


def _remove_older(cache: Path, corpus: str, keep: Path) -> list[str]:
    """Delete the corpus's stores made by other keys, unless another bench is using them."""
    pattern = re.compile(rf"{re.escape(corpus)}-[0-9a-f]{{12}}")
    removed = []
    for old in sorted(cache.glob(f"{corpus}-*")):
        if old == keep or not old.is_dir() or not pattern.fullmatch(old.name):
            continue
        with (old / LOCK).open("a") as handle:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                continue  # in use
            shutil.rmtree(old, ignore_errors=True)
        removed.append(old.name)
    return removed


def _ingest(corpus: Corpus, directory: Path, kb_dir: Path) -> dict[str, Any]:
    _clear(directory)
    print(f"bench: {corpus.name}: ingesting {corpus.pdfs} cold into {directory}", file=sys.stderr)
    code, seconds, peak, stdout, stderr = run_ingestion(kb_dir, directory, corpus.pdfs)
    summary = (stdout.strip().splitlines() or [""])[-1]
    errors = error_lines(stderr)
    failed = re.search(r"(\d+) failed", summary)
    last = (
        errors[-1].removeprefix("error:").strip() if errors else (stderr.strip().splitlines() or [f"exit {code}"])[-1]
    )
    return {
        "exit_code": code,
        "seconds": round(seconds, 2),
        "peak_mb": round(peak, 1),
        "summary": summary,
        "errors": errors,
        "failed_files": int(failed.group(1)) if failed else len(errors),
        "crashed": code != 0 and not (failed and int(failed.group(1))),  # not only files that failed
        "reason": last[:300],
    }


def _record(name: str, base: Any, run: dict[str, Any], key: str, inputs: dict[str, str], lexical: str) -> Ingestion:
    """The figures of a finished ingestion, read from the store's catalogue; BenchError when it is not usable."""
    docs = [d for d in base.documents() if d.status == "committed"]
    if not docs or run["crashed"]:
        # Nothing ingested, or a crash rather than files that failed: the store is not kept as complete.
        raise BenchError(f"ingestion failed (exit {run['exit_code']}, {len(docs)} document(s) stored): {run['reason']}")
    return Ingestion(
        corpus=name,
        key=key,
        key_inputs=inputs,
        lexical_hash=lexical,
        built_at=time.time(),
        documents=len(docs),
        pages=sum(d.pages for d in docs),
        chunks=sum(d.chunks for d in docs),
        **{k: run[k] for k in ("seconds", "peak_mb", "exit_code", "failed_files", "errors", "summary")},
    )


@contextlib.contextmanager
def corpus_store(corpus: Corpus, cache: Path, rebuild: bool = False) -> Iterator[tuple[Any, Ingestion, bool]]:
    """The corpus's store for the current recipe and code, built cold when missing, incomplete or `rebuild`:
    yields (KnowledgeBase, its ingestion figures, whether it was reused). Other benches may read it meanwhile."""
    import kb
    from kb.base import KnowledgeBase
    from kb.settings import KBSettings

    kb_dir = Path(kb.__file__).resolve().parent
    key, inputs = store_key(KBSettings(), kb_dir)
    directory = (cache / f"{corpus.name}-{key}").resolve()
    directory.mkdir(parents=True, exist_ok=True)
    lexical = _lexical_hash(kb_dir)
    handle = (directory / LOCK).open("a")
    try:
        # Shared while the store is only read; exclusive to build it or refresh its BM25 index.
        _flock(handle, fcntl.LOCK_SH, directory.name)
        ingestion = None if rebuild else _read_mark(directory)
        if ingestion is None or ingestion.lexical_hash != lexical:
            _flock(handle, fcntl.LOCK_EX, directory.name)
            ingestion = None if rebuild else _read_mark(directory)  # another bench may have built it meanwhile
        reused = ingestion is not None
        run = None if reused else _ingest(corpus, directory, kb_dir)
        base = KnowledgeBase(KBSettings(store_dir=directory))  # opened once the ingestion process has exited
        if ingestion is None:
            ingestion = _record(corpus.name, base, run, key, inputs, lexical)
            _write_mark(directory, ingestion)
            removed = _remove_older(cache, corpus.name, directory)
            if removed:
                print(f"bench: {corpus.name}: removed older store(s) {', '.join(removed)}", file=sys.stderr)
        elif ingestion.lexical_hash != lexical:
            # The BM25 index is persisted with the store and reloaded while the documents are the same: rebuild it
            # from the stored chunks with the current tokenizer.
            shutil.rmtree(KBSettings(store_dir=directory).bm25_dir, ignore_errors=True)
            ingestion.lexical_hash = lexical
            _write_mark(directory, ingestion)
        fcntl.flock(handle, fcntl.LOCK_SH)  # others may read it too, but not rebuild or delete it
        yield base, ingestion, reused
    finally:
        handle.close()
