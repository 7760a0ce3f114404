"""The worker processes that parse PDFs, one job per file.

They can start before the store and the embedding model are opened (about two seconds of imports and loading on
one core), parsing the files the store is not known to hold while those load. They import only the parser
(kb.parse): the spawned processes unpickle `parse_or_reason` and nothing else of this package.
No process outlives the pool: closing it stops a parse still running, and the spawn context's resource tracker
is reaped before the interpreter exits.
"""

from __future__ import annotations

import multiprocessing
import queue
import signal
import threading
from collections.abc import Iterator
from concurrent.futures import CancelledError, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from multiprocessing import resource_tracker, util
from multiprocessing.queues import SimpleQueue
from pathlib import Path

from kb.files import doc_id_for, file_hash, known_hashes, pdf_files
from kb.ocr_settings import OcrSettings
from kb.parse import ParsedDocument, parse_or_reason, start_worker

OcrEvent = tuple[str, int, int]  # (path, pages OCR'd, pages to OCR)


class ParsePool:
    """Parser worker processes with their jobs, one per file; without workers, files are parsed on the spot."""

    def __init__(self, workers: int, max_mb: float, ocr: OcrSettings | None = None, processes: bool | None = None):
        """`workers` processes, or none (files parsed on the spot) when `processes` is False; by default processes
        when there are two workers or more. One process for one file keeps pdfium and OCR off the caller's threads
        (pdfium is not thread-safe; a page of the workbench renders with it)."""
        self.max_mb = max_mb
        self._closed = threading.Event()  # stops a parse on the spot at its next OCR'd page
        self.ocr = ocr or OcrSettings()
        self._pool: ProcessPoolExecutor | None = None
        # OCR progress: from the parser processes, or from a parse on the spot (on the caller's thread).
        self._local: queue.SimpleQueue[OcrEvent] = queue.SimpleQueue()
        self._remote: SimpleQueue | None = None
        if workers >= 1 and (workers > 1 if processes is None else processes):
            _reap_resource_tracker_at_exit()
            context = multiprocessing.get_context("spawn")  # no fork of a process holding threads and a model
            # Written straight to its pipe (no feeder thread): a file's last OCR report is there before its result.
            self._remote = context.SimpleQueue()
            self._pool = ProcessPoolExecutor(
                workers, mp_context=context, initializer=start_worker, initargs=(self._remote,)
            )
        self._jobs: dict[Path, Future] = {}
        self._digests: dict[Path, str] = {}  # content hash taken just before an early parse was submitted
        self._dropped: list[Future] = []

    @classmethod
    def early(
        cls, paths: list[Path], store_dir: Path, workers: int, max_mb: float, ocr: OcrSettings | None = None
    ) -> ParsePool | None:
        """Start parsing the files under `paths` whose content the store is not known to hold; None if there are
        fewer than two (one file is parsed on the spot anyway) or no worker processes are configured."""
        known = known_hashes(store_dir)
        todo: list[tuple[Path, str]] = []
        for path in (f for p in paths for f in pdf_files(p)):
            try:
                digest = file_hash(path)
            except OSError:
                continue  # the ingestion itself reports the unreadable file
            if known.get(doc_id_for(path)) != digest:
                todo.append((path, digest))
        if len(todo) < 2 or workers < 2:
            return None
        pool = cls(min(workers, len(todo)), max_mb, ocr)
        for path, digest in todo:
            pool._digests[path] = digest
            pool.submit(path)
        return pool

    @property
    def planned(self) -> list[Path]:
        """The files with a parse job, in the order submitted."""
        return list(self._jobs)

    def digest(self, path: Path) -> str | None:
        """The content hash taken before the file's early parse (the content that parse read), if any."""
        return self._digests.get(path)

    def submit(self, path: Path) -> None:
        if self._pool is None or path in self._jobs:
            return
        try:
            with _spawning():
                job = self._pool.submit(parse_or_reason, str(path), doc_id_for(path), self.max_mb, self.ocr)
            self._jobs[path] = job
        except BrokenProcessPool:  # an earlier file crashed a parser process: this file fails alone
            failed: Future = Future()
            failed.set_exception(BrokenProcessPool())
            self._jobs[path] = failed

    def keep_only(self, paths: set[Path]) -> None:
        """Drop the jobs of files that need no parse after all (one already running is stopped by close)."""
        for path in [p for p in self._jobs if p not in paths]:
            job = self._jobs.pop(path)
            if not job.cancel():
                self._dropped.append(job)

    def result(self, path: Path) -> ParsedDocument | str:
        """The parsed document, or the one-line reason it failed (the job is forgotten: memory is freed)."""
        job = self._jobs.pop(path, None)
        if job is None:

            def progress(done: int, total: int) -> None:
                if self._closed.is_set():
                    raise InterruptedError("ingestion was interrupted")
                self._local.put((str(path), done, total))

            return parse_or_reason(str(path), doc_id_for(path), self.max_mb, self.ocr, progress)
        try:
            return job.result()
        except BrokenProcessPool:
            return "the parser process crashed on this file"
        except CancelledError:
            return "ingestion was interrupted"

    def ocr_progress(self) -> list[OcrEvent]:
        """The OCR progress reported since the last call, oldest first: (path, pages done, pages to OCR)."""
        events: list[OcrEvent] = []
        while True:
            try:
                events.append(self._local.get_nowait())
            except queue.Empty:
                break
        try:
            while self._remote is not None and not self._remote.empty():
                events.append(self._remote.get())
        except (OSError, ValueError):  # closed with the pool
            pass
        return events

    def close(self) -> None:
        """Cancel the queued parses and stop the workers, waiting until they have exited (so their resource use is
        accounted to this process). A parse still running is nobody's any more: its process is terminated rather
        than kept alive, which would hold the command up, or outlive it, for as long as the file takes."""
        self._closed.set()
        pool, self._pool = self._pool, None
        if pool is None:
            return
        if all(job.done() for job in [*self._jobs.values(), *self._dropped]):
            pool.shutdown(wait=True, cancel_futures=True)
        else:
            _terminate(pool)
        if self._remote is not None:
            self._remote.close()  # after the workers: none writes to it any more


@contextmanager
def _spawning() -> Iterator[None]:
    """Around a submit, which spawns the pool's workers as it needs them: a worker starts with Ctrl-C ignored (an
    ignored signal stays ignored across exec), so one still importing when Ctrl-C reaches the process group prints
    no traceback before its initializer takes over. Only the main thread may set a handler; a Ctrl-C within these
    few milliseconds is not seen."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _terminate(pool: ProcessPoolExecutor) -> None:
    """Stop a pool whose workers may be busy: ProcessPoolExecutor itself (before 3.14) only waits for running calls.
    It reads private fields of the executor, present since Python 3.9."""
    workers = list((pool._processes or {}).values())
    results = pool._result_queue
    manager = pool._executor_manager_thread
    # Shut down first, so the manager thread drops the cancelled jobs before it finds its workers gone.
    pool.shutdown(wait=False, cancel_futures=True)
    for process in workers:
        process.terminate()
    for process in workers:
        process.join()
    if results is not None:
        # A worker stopped in the middle of sending a result leaves the manager thread reading the rest of it;
        # with every writer closed, that read ends.
        results._writer.close()
    if manager is not None:
        manager.join()
    if results is not None:
        results.close()


_reaper_registered = False


def _reap_resource_tracker_at_exit() -> None:
    """The spawn context starts a resource tracker process that exits only once this process has exited, and then
    lingers unreaped. Stop and reap it at exit, after multiprocessing's own finalizers (the last to use it)."""
    global _reaper_registered
    if not _reaper_registered:
        _reaper_registered = True
        util.Finalize(None, _stop_resource_tracker, exitpriority=-100)


def _stop_resource_tracker() -> None:
    stop = getattr(resource_tracker._resource_tracker, "_stop", None)  # private; without it the tracker is left as is
    if stop is not None:
        stop()
