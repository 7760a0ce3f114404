"""Background ingestion: a persisted job queue with one worker thread, owned by the process that serves the app.

A page that submits files may be left, reloaded or closed: the work goes on, and each file's outcome is kept (on
disk, under the jobs directory) until a person has seen it. Jobs that were queued or running when the process
stopped are resumed when the queue is opened again. Files the queue owns (uploads) are deleted when their
ingestion fails or is cancelled, so nothing is left behind that is not in the library.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import threading
import time
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field

from kb.base import KnowledgeBase
from kb.models import Progress

FileStatus = Literal["queued", "running", "ingested", "unchanged", "failed", "cancelled"]
FINISHED: tuple[FileStatus, ...] = ("ingested", "unchanged", "failed", "cancelled")


class JobFile(BaseModel):
    """One file of an ingestion job, with its live progress and, once finished, its outcome."""

    path: str = Field(description="Where the file is read from.")
    name: str = Field(description="The file name shown to the person.")
    owned: bool = Field(False, description="The queue owns the file (an upload): it is deleted if ingestion fails.")
    status: FileStatus = Field("queued", description="Where the file stands.")
    stage: str = Field("", description="The current stage while running: parsing, OCR, embedding, storing.")
    done: int = Field(0, description="Units done in the current stage (OCR pages, embedded chunks).")
    total: int = Field(0, description="Units in the current stage.")
    doc_id: str | None = Field(None, description="The document the file became.")
    pages: int = Field(0, description="Pages ingested.")
    chunks: int = Field(0, description="Chunks stored.")
    ocr_pages: int = Field(0, description="Pages read by OCR.")
    notes: list[str] = Field(default_factory=list, description="Pages left out and why.")
    error: str | None = Field(None, description="One-line reason, naming the file, when it failed or was cancelled.")


class IngestJob(BaseModel):
    """Files submitted together; kept until their outcomes have been seen."""

    job_id: str = Field(description="Identifier, also the name of the job's file on disk.")
    created_at: float = Field(description="Unix time the job was submitted.")
    files: list[JobFile] = Field(description="The files, in the order they are ingested.")
    cancelled: bool = Field(False, description="The person cancelled the job; files not finished are skipped.")
    seen: bool = Field(False, description="The person has seen the outcomes (the job may be forgotten).")

    @property
    def finished(self) -> bool:
        return all(f.status in FINISHED for f in self.files)

    @property
    def current(self) -> tuple[int, JobFile] | None:
        """The file being ingested (or next to be), with its 0-based position."""
        for i, f in enumerate(self.files):
            if f.status in ("running", "queued"):
                return i, f
        return None


class Cancelled(Exception):
    """Raised from the progress callback to stop the ingestion of the current file."""


_STAGES = {"queued": "parsing", "ocr": "OCR", "parsed": "chunking", "embedding": "embedding", "stored": "storing"}


class IngestQueue:
    """The ingestion jobs of one knowledge base, run one file at a time on a worker thread."""

    def __init__(self, base: KnowledgeBase, jobs_dir: Path):
        self.base = base
        self.dir = jobs_dir
        self._lock = threading.RLock()
        self._wake = threading.Condition(self._lock)
        self._cancel = threading.Event()  # stop the current file (the person's cancel, or shutdown)
        self._closing = False
        self._jobs: list[IngestJob] = self._load()
        self._thread = threading.Thread(target=self._work, name="kb-ingest-jobs", daemon=True)
        self._thread.start()
        atexit.register(self.close)

    # the person's side -----------------------------------------------------------------------------
    def submit(self, paths: Sequence[str | Path], owned: bool = False) -> IngestJob:
        """Queue files for ingestion; returns the job (a copy)."""
        files = [JobFile(path=str(p), name=Path(p).name, owned=owned) for p in paths]
        job = IngestJob(
            job_id=f"{time.strftime('%Y%m%d-%H%M%S')}-{uuid.uuid4().hex[:6]}", created_at=time.time(), files=files
        )
        with self._lock:
            self._jobs.append(job)
            self._save(job)
            self._wake.notify_all()
            return job.model_copy(deep=True)

    def cancel(self, job_id: str) -> bool:
        """Cancel a job: the file under way stops at its next progress report, the others are skipped."""
        with self._lock:
            job = self._find(job_id)
            if job is None or job.finished:
                return False
            job.cancelled = True
            running = any(f.status == "running" for f in job.files)
            for f in job.files:
                if f.status == "queued":
                    self._finish_cancelled(f)
            if running:
                self._cancel.set()
            self._save(job)
            return True

    def jobs(self) -> list[IngestJob]:
        """Every job kept, oldest first (copies: the worker keeps changing the originals)."""
        with self._lock:
            return [j.model_copy(deep=True) for j in self._jobs]

    def active(self) -> IngestJob | None:
        """The job under way or next to run."""
        return next((j for j in self.jobs() if not j.finished), None)

    def unseen(self) -> list[IngestJob]:
        """Finished jobs whose outcomes the person has not seen yet."""
        return [j for j in self.jobs() if j.finished and not j.seen]

    def mark_seen(self, job_id: str) -> None:
        """The person has seen a finished job's outcomes: it is forgotten."""
        with self._lock:
            job = self._find(job_id)
            if job is None or not job.finished:
                return
            self._jobs.remove(job)
            (self.dir / f"{job.job_id}.json").unlink(missing_ok=True)

    def wait_idle(self, timeout: float) -> bool:
        """Wait until no job is left to run (for tests and scripts); False on timeout."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while any(not j.finished for j in self._jobs):
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._wake.wait(min(left, 0.2))
            return True

    def close(self, timeout: float = 30.0) -> None:
        """Stop the worker; the file under way is left queued and is ingested again when the queue reopens."""
        with self._lock:
            self._closing = True
            self._cancel.set()
            self._wake.notify_all()
        if self._thread.is_alive() and threading.current_thread() is not self._thread:
            self._thread.join(timeout)

    # the worker ------------------------------------------------------------------------------------
    def _work(self) -> None:
        while True:
            with self._lock:
                while not self._closing and self._next() is None:
                    self._wake.wait()
                if self._closing:
                    return
                job, f = self._next()  # type: ignore[misc]
                f.status, f.stage = "running", "parsing"
                self._cancel.clear()
                self._save(job)
            try:
                self._ingest(job, f)
            except Exception as exc:  # noqa: BLE001 - the only worker: it must outlive any one file
                with self._lock:
                    f.status, f.stage, f.error = "failed", "", f"{f.name}: ingestion failed ({type(exc).__name__})"
            with self._lock:
                # The outcome still shows in this process; a full disk must not stop the queue.
                with contextlib.suppress(OSError):
                    self._save(job)
                self._wake.notify_all()

    def _next(self) -> tuple[IngestJob, JobFile] | None:
        for job in self._jobs:
            current = None if job.cancelled else job.current
            if current is not None:
                return job, current[1]
        return None

    def _ingest(self, job: IngestJob, f: JobFile) -> None:
        def progress(event: Progress) -> None:
            if event.stage in ("stored", "unchanged", "failed"):
                return  # past the point of no return: the outcome is reported as it is
            if self._cancel.is_set():
                raise Cancelled
            with self._lock:
                f.stage = _STAGES.get(event.stage, event.stage)
                f.done, f.total = (event.done, event.total) if event.stage in ("ocr", "embedding") else (0, 0)

        try:
            summary = self.base.ingest([f.path], progress)
        except Cancelled:
            with self._lock:
                if self._closing and not job.cancelled:
                    f.status, f.stage = "queued", ""  # resumed when the queue reopens
                else:
                    self._finish_cancelled(f)
            return
        except Exception as exc:  # noqa: BLE001 - one file's failure is its outcome; the queue goes on
            with self._lock:
                self._finish_failed(f, f"{f.name}: ingestion failed ({type(exc).__name__}: {exc})")
            return
        outcome = summary.files[0]
        with self._lock:
            if outcome.status == "failed":
                self._finish_failed(f, outcome.error or f"{f.name}: failed")
                return
            f.status, f.stage = outcome.status, ""
            f.doc_id, f.pages, f.chunks = outcome.doc_id, outcome.pages, outcome.chunks
            f.ocr_pages, f.notes = outcome.ocr_pages, list(outcome.notes)

    def _finish_failed(self, f: JobFile, error: str) -> None:
        f.status, f.stage, f.error = "failed", "", " ".join(error.split())
        self._drop_owned(f)

    def _finish_cancelled(self, f: JobFile) -> None:
        f.status, f.stage, f.error = "cancelled", "", f"{f.name}: cancelled, not added to the library"
        self._drop_owned(f)

    def _drop_owned(self, f: JobFile) -> None:
        if f.owned:
            with contextlib.suppress(OSError):  # left behind, never fatal: the outcome is what matters
                Path(f.path).unlink(missing_ok=True)

    # persistence -----------------------------------------------------------------------------------
    def _find(self, job_id: str) -> IngestJob | None:
        return next((j for j in self._jobs if j.job_id == job_id), None)

    def _save(self, job: IngestJob) -> None:
        self.dir.mkdir(parents=True, exist_ok=True)
        path = self.dir / f"{job.job_id}.json"
        tmp = path.with_suffix(".tmp")
        tmp.write_text(job.model_dump_json(indent=1), encoding="utf-8")
        tmp.replace(path)  # a reader (or a restart) never sees half a job

    def _load(self) -> list[IngestJob]:
        jobs = []
        for path in sorted(self.dir.glob("*.json")) if self.dir.is_dir() else []:
            try:
                job = IngestJob.model_validate(json.loads(path.read_text(encoding="utf-8")))
            except (OSError, ValueError):
                continue  # a damaged job file is skipped, never fatal
            for f in job.files:
                if job.cancelled and f.status in ("queued", "running"):
                    f.status, f.stage = "cancelled", ""  # cancelled before the stop: never resumed
                    f.error = f"{f.name}: cancelled, not added to the library"
                elif f.status == "running":  # the process stopped under it: ingest it again
                    f.status, f.stage, f.done, f.total = "queued", "", 0, 0
            jobs.append(job)
        return sorted(jobs, key=lambda j: j.created_at)
