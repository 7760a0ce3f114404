"""Ingestion: validate, parse in worker processes, chunk, embed, and store with a commit marker."""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from kb.cards import distinct_title
from kb.chunk import chunk_document
from kb.files import collect, doc_id_for, failure, file_hash
from kb.lexical import chunk_terms
from kb.models import Chunk, DocumentRecord, FileOutcome, IngestSummary, Progress
from kb.ocr import page_ranges
from kb.parse import ParsedDocument
from kb.parse_pool import ParsePool
from kb.tokens import Tokenized

if TYPE_CHECKING:
    from kb.embed import Embedder
    from kb.settings import KBSettings
    from kb.store import Store

ProgressFn = Callable[[Progress], None]
Prepared = tuple[ParsedDocument | str, tuple[list[Chunk], Tokenized] | str]


class Ingestion:
    """Ingests files into one store. `embedder` loads the model on first call (then returns the same one): the
    model is loaded while the parser processes start up, not before."""

    def __init__(self, store: Store, embedder: Callable[[], Embedder], settings: KBSettings):
        self.store = store
        self.settings = settings
        self._embedder = embedder
        self._titles: dict[str, str] = {}  # casefolded title -> the document that has it

    @property
    def embedder(self) -> Embedder:
        return self._embedder()

    def repair(self) -> list[str]:
        """Drop documents whose ingestion was abandoned (pending past the lease); returns their ids."""
        now = time.time()
        stale = [
            d.doc_id
            for d in self.store.documents()
            if d.status == "pending" and now - d.ingested_at > self.settings.pending_lease_seconds
        ]
        for doc_id in stale:
            self.store.delete_document(doc_id)
        return stale

    def run(
        self, paths: Sequence[Path], progress: ProgressFn | None = None, parsers: ParsePool | None = None
    ) -> IngestSummary:
        """Ingest files and folders. `parsers`: parser processes started early (see ParsePool.early), closed by the
        caller; without them, this call starts and closes its own."""
        started = time.perf_counter()
        files, failures = collect(list(paths))
        summary = IngestSummary(files=list(failures))
        total = len(files)
        report = progress or (lambda event: None)
        for outcome in failures:
            report(
                Progress(
                    path=outcome.path, stage="failed", file_index=0, files_total=total, message=outcome.error or ""
                )
            )
        self.repair()
        catalogue = {d.doc_id: d for d in self.store.documents()}
        self._titles = {d.title.casefold(): d.doc_id for d in catalogue.values() if d.title}
        queue: list[tuple[int, Path, str]] = []
        recipe = self.settings.recipe
        for index, path in enumerate(files):
            try:
                # An early parse read the content hashed just before it: that hash is the one stored with it.
                digest = (parsers.digest(path) if parsers else None) or file_hash(path)
            except OSError as exc:
                summary.files.append(failure(path, f"cannot be read ({exc.strerror or exc})"))
                continue
            known = catalogue.get(doc_id_for(path))
            # A file is unchanged when its bytes are, and its chunks were made the way they would be made now.
            if known and known.status == "committed" and (known.content_hash, known.recipe) == (digest, recipe):
                summary.files.append(
                    FileOutcome(
                        path=str(path), doc_id=known.doc_id, status="unchanged", pages=known.pages, chunks=known.chunks
                    )
                )
                report(Progress(path=str(path), stage="unchanged", file_index=index, files_total=total))
                continue
            queue.append((index, path, digest))
            report(Progress(path=str(path), stage="queued", file_index=index, files_total=total))

        if parsers is not None:
            return self._run(parsers, queue, summary, total, report, started)
        workers = self.settings.parse_workers
        own = ParsePool(min(workers, len(queue)), self.settings.max_file_mb, self.settings.ocr, processes=workers > 1)
        try:
            return self._run(own, queue, summary, total, report, started)
        finally:
            own.close()

    def _run(
        self,
        parsers: ParsePool,
        queue: list[tuple[int, Path, str]],
        summary: IngestSummary,
        total: int,
        report: ProgressFn,
        started: float,
    ) -> IngestSummary:
        """Parse, chunk, embed and store the queued files, each stage overlapping the next."""
        parsers.keep_only({path for _, path, _ in queue})
        for _, path, _ in queue:
            parsers.submit(path)
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
                        path=str(path),
                        doc_id=parsed.doc_id,
                        status="ingested",
                        pages=len(parsed.pages),
                        chunks=chunks,
                        ocr_pages=sum(1 for page in parsed.pages if page.ocr),
                        notes=[f"{path.name}: {note}" for note in parsed.notes],
                    )
                )
                summary.pages += len(parsed.pages)
                summary.chunks += chunks
                report(
                    Progress(
                        path=str(path), stage="stored", file_index=index, files_total=total, done=chunks, total=chunks
                    )
                )

        # Chunking and tokenizing run one document ahead on a thread of their own, so the embedding never waits.
        chunker = ThreadPoolExecutor(1, thread_name_prefix="kb-chunk")
        positions = {str(path): index for index, path, _ in queue}  # OCR progress names its file by path
        ahead: list[Future[Prepared]] = []
        try:
            with _short_gil_handover():
                if queue:
                    self.embedder  # noqa: B018 - load the model while the parser processes start up
                    ahead.append(chunker.submit(self._chunk, queue[0][1], parsers))
                for position, (index, path, digest) in enumerate(queue):
                    t0 = time.perf_counter()
                    job = ahead.pop(0)
                    if position + 1 < len(queue):
                        ahead.append(chunker.submit(self._chunk, queue[position + 1][1], parsers))
                    parsed, prepared = _wait(job, parsers, report, positions, total)
                    if not isinstance(parsed, str):
                        report(
                            Progress(
                                path=str(path),
                                stage="parsed",
                                file_index=index,
                                files_total=total,
                                total=len(parsed.pages),
                            )
                        )
                    vectors = None if isinstance(prepared, str) else self._embed(path, prepared, index, total, report)
                    finish()  # the previous document's write overlapped this one's embedding
                    if isinstance(prepared, str) or isinstance(parsed, str) or vectors is None:
                        outcome = failure(path, str(prepared))
                        summary.files.append(outcome)
                        report(
                            Progress(
                                path=str(path),
                                stage="failed",
                                file_index=index,
                                files_total=total,
                                message=outcome.error or "",
                            )
                        )
                        continue
                    stored = writer.submit(self._write, path, digest, parsed, prepared[0], vectors, t0)
                    writes.append((stored, index, path, parsed, len(prepared[0])))
                finish()
        finally:
            chunker.shutdown(wait=False, cancel_futures=True)
            writer.shutdown(wait=True)  # an interrupted run still completes the write under way (or leaves it pending)
        summary.seconds = time.perf_counter() - started
        return summary

    def _chunk(self, path: Path, parsers: ParsePool) -> Prepared:
        """The parsed document, and its chunks with their token windows (or the reason there are none)."""
        parsed = parsers.result(path)
        if isinstance(parsed, str):
            return parsed, parsed
        taken = {title for title, doc_id in self._titles.items() if doc_id != parsed.doc_id}
        parsed.title = parsed.card.title = distinct_title(parsed.card, taken)
        self._titles[parsed.title.casefold()] = parsed.doc_id
        settings = self.settings
        embedder = self.embedder
        room = embedder.max_tokens - 2 - 24  # special tokens, and room for the section path's header
        limit = max(32, min(settings.chunk_max_tokens, room))
        chunks = chunk_document(
            parsed, embedder.count_tokens, min(settings.chunk_target_tokens, limit), limit, settings.chunk_min_tokens
        )
        if not chunks:
            return parsed, "no extractable text (scanned image?)"
        return parsed, (chunks, embedder.tokenize([c.embed_text() for c in chunks]))

    def _embed(
        self, path: Path, prepared: tuple[list[Chunk], Tokenized], index: int, total: int, report: ProgressFn
    ) -> np.ndarray:
        chunks, tokenized = prepared

        def tick(done: int, of: int) -> None:
            report(
                Progress(path=str(path), stage="embedding", file_index=index, files_total=total, done=done, total=of)
            )

        embedder = self.embedder
        vectors = embedder.encode_tokenized(tokenized, len(chunks), tick, self.settings.embed_batch_size)
        return embedder.with_title(vectors, chunks[0].title, self.settings.title_weight)

    def _write(
        self,
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
            organisation=parsed.card.organisation,
            period=parsed.card.period,
            name=parsed.card.name,
            pages=len(parsed.pages),
            chunks=len(chunks),
            tables=parsed.tables,
            ocr_pages=page_ranges([page.number for page in parsed.pages if page.ocr]),
            notes="; ".join(parsed.notes),
            ingested_at=time.time(),
            recipe=self.settings.recipe,
        )
        # Pending first, then replace chunks, then commit: an interruption anywhere leaves the document
        # invisible to search, and the next run (or repair) finishes or removes it.
        self.store.put_document(record)
        self.store.delete_chunks(parsed.doc_id)
        self.store.add_chunks(chunks, vectors, digest)
        record.status = "committed"
        record.seconds = round(time.perf_counter() - started, 3)
        record.ingested_at = time.time()
        self.store.put_document(record)
        for c in chunks:  # the BM25 terms, ready for the index rebuilt when the ingestion ends
            chunk_terms(c.title, c.section, c.text, c.head)


def _wait(
    job: Future[Prepared], parsers: ParsePool, report: ProgressFn, indices: dict[str, int], total: int
) -> Prepared:
    """The job's result; meanwhile the parsers' OCR progress is reported from this thread (a page's callback may
    only work on the thread that runs the ingestion, as Streamlit's do)."""
    while True:
        finished = job.done()  # then the file's last OCR report is already queued
        for path, done, of in parsers.ocr_progress():
            report(
                Progress(
                    path=path, stage="ocr", file_index=indices.get(path, 0), files_total=total, done=done, total=of
                )
            )
        if finished:
            return job.result()
        try:
            job.result(timeout=0.2)
        except TimeoutError:
            continue


_handover_lock = threading.Lock()
_handover_users = 0
_handover_default = 0.005


@contextmanager
def _short_gil_handover() -> Iterator[None]:
    """Hand the GIL over every 1 ms while any ingestion runs in this process (restored after the last one).

    Each embedding run needs the GIL for a moment before and after; with the default 5 ms hand-over, the
    chunking and store threads' Python work kept the cores waiting for it (measured: embedding 1.3x slower).
    """
    global _handover_users, _handover_default
    with _handover_lock:
        if _handover_users == 0:
            _handover_default = sys.getswitchinterval()
            sys.setswitchinterval(min(_handover_default, 0.001))
        _handover_users += 1
    try:
        yield
    finally:
        with _handover_lock:
            _handover_users -= 1
            if _handover_users == 0:
                sys.setswitchinterval(_handover_default)
