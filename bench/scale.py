"""A large store for search latency: the corpora's stores copied under other document names until it holds about
the asked number of chunks, then searched warm, in a process of its own, with every corpus's questions.

Copies keep their chunks' vectors (nothing is embedded again), so a 100,000-chunk store is built in minutes; each
copy is a document of its own (its own id and title), so search, filters and the BM25 index see that many documents.
The store is cached under data/bench/scale-<key>/, keyed by the source stores and the size.
"""

from __future__ import annotations

import hashlib
import json
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from bench.corpora import ROOT, BenchError

MARK = "scale.json"


class ScaleFigures(BaseModel):
    """Warm search on the large store, as its own process measured it."""

    chunks: int = Field(description="Chunks in the store.")
    documents: int = Field(description="Documents in the store (the copies included).")
    questions: int = Field(description="Searches timed (every corpus's answerable questions).")
    open_seconds: float = Field(description="Opening the store and the first search (model and indexes loaded).")
    p50_ms: float = Field(description="Median warm search latency, hybrid, k = 8.")
    p95_ms: float = Field(description="95th percentile warm search latency.")
    peak_mb: float = Field(description="Largest resident set of the searching process, in MB.")
    build_seconds: float = Field(0.0, description="Time to build the store (0 when a cached one was reused).")
    reused: bool = Field(False, description="Whether a cached store was reused rather than built.")


def _copy(sources: list[Path], directory: Path, target: int) -> None:
    """Copy every committed document of the sources, round after round, until the store holds `target` chunks."""
    from kb.base import KnowledgeBase
    from kb.settings import KBSettings

    out = KnowledgeBase(KBSettings(store_dir=directory))
    total = 0
    taken: set[str] = set()
    bases = [KnowledgeBase(KBSettings(store_dir=source)) for source in sources]
    documents = [(kb, record) for kb in bases for record in kb.documents() if record.status == "committed"]
    read: dict[int, Any] = {}  # each document's chunks, read once for every copy
    while total < target:
        for position, (kb, record) in enumerate(documents):
            if total >= target:
                break
            if position not in read:
                read[position] = kb.store.chunks.get(
                    where={"doc_id": record.doc_id}, include=["embeddings", "metadatas"]
                )
            got = read[position]
            doc_id, copy = record.doc_id, 0
            while doc_id in taken:  # sources may share document names
                copy += 1
                doc_id = f"{record.doc_id}~{copy}"
            taken.add(doc_id)
            metas = [{**meta, "doc_id": doc_id} for meta in got["metadatas"]]
            ids = [f"{doc_id}{cid[len(record.doc_id) :]}" for cid in got["ids"]]  # "<doc>:<ordinal>:<hash>"
            for start in range(0, len(ids), out.store.batch):
                end = start + out.store.batch
                out.store.chunks.upsert(
                    ids=ids[start:end], embeddings=got["embeddings"][start:end], metadatas=metas[start:end]
                )
            title = record.title if copy == 0 else f"{record.title} (copy {copy})"
            out.store.put_document(record.model_copy(update={"doc_id": doc_id, "title": title}))
            total += len(ids)
        if total == 0:
            raise BenchError("the source stores hold no chunks to copy")
    out.search("warm-up", k=1)  # builds and saves the BM25 index, so the measuring process only loads it


def scale_store(sources: list[Path], cache: Path, target: int) -> tuple[Path, float]:
    """The cached large store for these sources and size (built when missing): (its directory, build seconds, 0
    when reused)."""
    marks = [(source / "bench.json").read_bytes() if (source / "bench.json").is_file() else b"" for source in sources]
    key = hashlib.sha1(b"\0".join([str(target).encode(), *(str(s).encode() for s in sources), *marks])).hexdigest()
    key = key[:12]
    directory = cache / f"scale-{key}"
    if (directory / MARK).is_file():
        return directory, 0.0
    for old in cache.glob("scale-*"):
        shutil.rmtree(old, ignore_errors=True)  # one large store at a time: they are big
    directory.mkdir(parents=True)
    started = time.perf_counter()
    print(f"bench: scale: copying the corpora's stores into {directory} ({target:,} chunks)", file=sys.stderr)
    _copy(sources, directory, target)
    (directory / MARK).write_text(json.dumps({"sources": [str(s) for s in sources], "target": target}))
    return directory, time.perf_counter() - started


def measure_scale(directory: Path, questions: list[Path], build_seconds: float) -> ScaleFigures:
    """Search the store warm with the questions, in a fresh process (its peak memory is the search's)."""
    command = [sys.executable, "-m", "bench.scale", str(directory), *map(str, questions)]
    run = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    if run.returncode != 0:
        last = (run.stderr.strip().splitlines() or ["no output"])[-1]
        raise BenchError(f"scale: the search process failed: {last}")
    figures = ScaleFigures.model_validate_json(run.stdout.strip().splitlines()[-1])
    figures.build_seconds, figures.reused = round(build_seconds, 1), build_seconds == 0
    return figures


def _search_process(directory: Path, question_files: list[Path]) -> dict[str, Any]:
    from kb.base import KnowledgeBase
    from kb.evaluate import load_questions
    from kb.settings import KBSettings

    texts = [q.question for path in question_files for q in load_questions(path) if q.answerable]
    if not texts:
        raise SystemExit("error: no answerable question to search with")
    started = time.perf_counter()
    kb = KnowledgeBase(KBSettings(store_dir=directory))
    kb.search("warm-up", k=8)
    opened = time.perf_counter() - started
    latencies = []
    for text in texts:
        begin = time.perf_counter()
        kb.search(text, k=8)
        latencies.append(1000 * (time.perf_counter() - begin))
    latencies.sort()
    return ScaleFigures(
        chunks=kb.store.chunk_count(),
        documents=len(kb.documents()),
        questions=len(texts),
        open_seconds=round(opened, 1),
        p50_ms=round(latencies[len(latencies) // 2], 1),
        p95_ms=round(latencies[min(len(latencies) - 1, int(len(latencies) * 0.95))], 1),
        peak_mb=round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),  # Linux reports KiB
    ).model_dump()


if __name__ == "__main__":  # the measuring process: python -m bench.scale STORE QUESTIONS...
    print(json.dumps(_search_process(Path(sys.argv[1]), [Path(p) for p in sys.argv[2:]])))
