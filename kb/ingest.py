"""Ingestion: validate, parse in worker processes, chunk, embed, and store with a commit marker."""

from __future__ import annotations

import hashlib
import multiprocessing
import time
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from kb.chunk import chunk_document
from kb.lexical import chunk_terms
from kb.models import Chunk, DocumentRecord, FileOutcome, IngestSummary, Progress
from kb.parse import ParsedDocument, ParseError, parse_pdf

if TYPE_CHECKING:
    from kb.base import KnowledgeBase

ProgressFn = Callable[[Progress], None]


def doc_id_for(path: Path) -> str:
    return path.stem if path.suffix.lower() == ".pdf" else path.name


def collect(paths: list[Path]) -> tuple[list[Path], list[FileOutcome]]:
    """Files to ingest (folders expanded to their PDFs, sorted) and failures for paths that are unusable."""
    files: list[Path] = []
    failed: list[FileOutcome] = []
    for path in paths:
        if path.is_dir():
            files += sorted(p for p in path.rglob("*") if p.is_file() and p.suffix.lower() == ".pdf")
        elif path.is_file():
            files.append(path)
        else:
            failed.append(_fail(path, "no such file or folder"))
    seen: dict[str, Path] = {}
    unique: list[Path] = []
    for path in files:
        doc_id = doc_id_for(path)
        if doc_id in seen and seen[doc_id].resolve() != path.resolve():
            failed.append(_fail(path, f"another file in this batch has the same document name ({seen[doc_id]})"))
        elif doc_id not in seen:
            seen[doc_id] = path
            unique.append(path)
    return unique, failed


def _fail(path: Path, reason: str) -> FileOutcome:
    return FileOutcome(path=str(path), doc_id=doc_id_for(path), status="failed", error=f"{path.name}: {reason}")


def file_hash(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _parse_job(path: str, doc_id: str, max_mb: float) -> ParsedDocument | str:
    """Runs in a worker: the parsed document, or the one-line reason it failed."""
    try:
        return parse_pdf(Path(path), doc_id, max_mb)
    except ParseError as exc:
        return str(exc)
    except Exception as exc:  # noqa: BLE001 - any parser crash is that file's failure, not the batch's
        return f"cannot be parsed ({type(exc).__name__}: {exc})"


def _result(job: Future) -> ParsedDocument | str:
    try:
        return job.result()
    except BrokenProcessPool:
        return "the parser process crashed on this file"


def ingest_paths(kb: KnowledgeBase, paths: list[Path], progress: ProgressFn | None = None) -> IngestSummary:
    started = time.perf_counter()
    files, failures = collect(paths)
    summary = IngestSummary(files=list(failures))
    total = len(files)
    report = progress or (lambda event: None)
    for outcome in failures:
        report(
            Progress(path=outcome.path, stage="failed", file_index=0, files_total=total, message=outcome.error or "")
        )
    kb.repair()
    catalogue = {d.doc_id: d for d in kb.store.documents()}
    queue: list[tuple[int, Path, str]] = []
    for index, path in enumerate(files):
        try:
            digest = file_hash(path)
        except OSError as exc:
            summary.files.append(_fail(path, f"cannot be read ({exc.strerror or exc})"))
            continue
        known = catalogue.get(doc_id_for(path))
        if known and known.status == "committed" and known.content_hash == digest:
            summary.files.append(
                FileOutcome(
                    path=str(path), doc_id=known.doc_id, status="unchanged", pages=known.pages, chunks=known.chunks
                )
            )
            report(Progress(path=str(path), stage="unchanged", file_index=index, files_total=total))
            continue
        queue.append((index, path, digest))
        report(Progress(path=str(path), stage="queued", file_index=index, files_total=total))

    max_mb = kb.settings.max_file_mb
    workers = min(kb.settings.parse_workers, len(queue))
    pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) if workers > 1 else None
    # Chroma writes run on a thread of their own, overlapping the next document's chunking and embedding;
    # documents are still written one at a time and in order.
    writer = ThreadPoolExecutor(1, thread_name_prefix="kb-store")
    writes: list[tuple[Future, int, Path, ParsedDocument, int]] = []

    def finish() -> None:
        """Wait for the writes under way, and report them."""
        while writes:
            job, index, path, parsed, chunks = writes.pop(0)
            job.result()  # a store failure is not a file's failure: it ends the run, as before
            summary.files.append(
                FileOutcome(
                    path=str(path), doc_id=parsed.doc_id, status="ingested", pages=len(parsed.pages), chunks=chunks
                )
            )
            summary.pages += len(parsed.pages)
            summary.chunks += chunks
            report(
                Progress(path=str(path), stage="stored", file_index=index, files_total=total, done=chunks, total=chunks)
            )

    try:
        jobs: list[Future | None] = [
            pool.submit(_parse_job, str(path), doc_id_for(path), max_mb) if pool else None for _, path, _ in queue
        ]
        if queue:
            kb.embedder  # noqa: B018 - load the model while the parser processes start up
        for (index, path, digest), job in zip(queue, jobs):
            t0 = time.perf_counter()
            parsed = _result(job) if job is not None else _parse_job(str(path), doc_id_for(path), max_mb)
            prepared = parsed if isinstance(parsed, str) else _prepare(kb, path, parsed, index, total, report)
            finish()  # the previous document's write overlapped this one's chunking and embedding
            if isinstance(prepared, str) or isinstance(parsed, str):
                outcome = _fail(path, str(prepared))
                summary.files.append(outcome)
                report(
                    Progress(
                        path=str(path), stage="failed", file_index=index, files_total=total, message=outcome.error or ""
                    )
                )
                continue
            chunks, vectors = prepared
            job = writer.submit(_write, kb, path, digest, parsed, chunks, vectors, t0)
            writes.append((job, index, path, parsed, len(chunks)))
        finish()
    finally:
        writer.shutdown(wait=True)  # an interrupted run still completes the write under way (or leaves it pending)
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
    summary.seconds = time.perf_counter() - started
    return summary


def _prepare(
    kb: KnowledgeBase, path: Path, parsed: ParsedDocument, index: int, total: int, report: ProgressFn
) -> tuple[list[Chunk], np.ndarray] | str:
    """Chunks and their vectors, or the reason the document has none."""
    settings = kb.settings
    embedder = kb.embedder
    report(Progress(path=str(path), stage="parsed", file_index=index, files_total=total, total=len(parsed.pages)))
    room = embedder.max_tokens - 2 - max(embedder.count_tokens([f"{parsed.title} | "]) or [0]) - 24
    limit = max(32, min(settings.chunk_max_tokens, room))
    chunks = chunk_document(
        parsed, embedder.count_tokens, min(settings.chunk_target_tokens, limit), limit, settings.chunk_min_tokens
    )
    if not chunks:
        return "no extractable text (scanned image?)"

    def tick(done: int, of: int) -> None:
        report(Progress(path=str(path), stage="embedding", file_index=index, files_total=total, done=done, total=of))

    vectors = embedder.encode([c.embed_text() for c in chunks], progress=tick, batch_size=settings.embed_batch_size)
    return chunks, vectors


def _write(
    kb: KnowledgeBase,
    path: Path,
    digest: str,
    parsed: ParsedDocument,
    chunks: list[Chunk],
    vectors: np.ndarray,
    started: float,
) -> None:
    record = DocumentRecord(
        doc_id=parsed.doc_id,
        content_hash=digest,
        status="pending",
        source=str(path),
        title=parsed.title,
        pages=len(parsed.pages),
        chunks=len(chunks),
        tables=parsed.tables,
        ingested_at=time.time(),
    )
    # Pending first, then replace chunks, then commit: an interruption anywhere leaves the document
    # invisible to search, and the next run (or repair) finishes or removes it.
    kb.store.put_document(record)
    kb.store.delete_chunks(parsed.doc_id)
    kb.store.add_chunks(chunks, vectors, digest)
    record.status = "committed"
    record.seconds = round(time.perf_counter() - started, 3)
    record.ingested_at = time.time()
    kb.store.put_document(record)
    for c in chunks:  # the BM25 terms, ready for the index rebuilt when the ingestion ends
        chunk_terms(c.title, c.section, c.text)
