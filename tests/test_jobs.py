"""The background ingestion queue: outcomes kept until seen, failures and cancels delete owned uploads,
jobs survive a restart of the process that owns them."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

from kb.base import KnowledgeBase
from kb.jobs import IngestJob, IngestQueue, JobFile
from kb.models import FileOutcome, IngestSummary, Progress
from kb.settings import KBSettings
from tests import pdfgen


def test_files_are_ingested_in_the_background_and_kept_until_seen(tmp_path: Path, docs_dir: Path) -> None:
    base = KnowledgeBase(KBSettings(store_dir=tmp_path / "store", parse_workers=1))
    queue = IngestQueue(base, tmp_path / "jobs")
    job = queue.submit(sorted(docs_dir.glob("*.pdf")))
    assert queue.wait_idle(120)
    [done] = queue.unseen()
    assert done.job_id == job.job_id
    assert [f.status for f in done.files] == ["ingested", "ingested"]
    assert all(f.pages and f.chunks for f in done.files)
    assert set(base.committed()) == {"manual", "report"}
    # Outcomes outlive the queue object (a restart) until they are seen.
    queue.close()
    again = IngestQueue(base, tmp_path / "jobs")
    assert [j.job_id for j in again.unseen()] == [job.job_id]
    again.mark_seen(job.job_id)
    assert again.jobs() == [] and not list((tmp_path / "jobs").glob("*.json"))
    again.close()


def test_a_failed_upload_is_deleted_and_named_in_one_line(tmp_path: Path, docs_dir: Path) -> None:
    base = KnowledgeBase(KBSettings(store_dir=tmp_path / "store", parse_workers=1))
    uploads = tmp_path / "uploads"
    uploads.mkdir()
    bad = uploads / "broken.pdf"
    bad.write_bytes(b"%PDF-1.4 not really")
    good = uploads / "report.pdf"
    good.write_bytes((docs_dir / "report.pdf").read_bytes())
    queue = IngestQueue(base, tmp_path / "jobs")
    queue.submit([bad, good], owned=True)
    assert queue.wait_idle(120)
    [job] = queue.unseen()
    failed, ingested = job.files
    assert failed.status == "failed" and "broken.pdf" in failed.error and "\n" not in failed.error
    assert not bad.exists()
    assert ingested.status == "ingested" and good.exists()
    assert set(base.committed()) == {"report"}
    queue.close()


class _SlowBase:
    """Stands in for a knowledge base whose ingestion reports embedding progress until the callback stops it."""

    def __init__(self) -> None:
        self.started = threading.Event()
        self.calls: list[str] = []

    def ingest(self, paths: list[str], progress: Callable[[Progress], None]) -> IngestSummary:
        path = str(paths[0])
        self.calls.append(Path(path).name)
        for done in range(10_000):
            progress(Progress(path=path, stage="embedding", file_index=0, files_total=1, done=done, total=10_000))
            self.started.set()
            threading.Event().wait(0.01)
        return IngestSummary(files=[FileOutcome(path=path, doc_id=Path(path).stem, status="ingested")])


def test_cancel_stops_the_file_under_way_and_skips_the_rest(tmp_path: Path) -> None:
    uploads = tmp_path / "uploads"
    uploads.mkdir()
    files = [uploads / f"{name}.pdf" for name in ("one", "two")]
    for f in files:
        f.write_bytes(b"%PDF")
    base = _SlowBase()
    queue = IngestQueue(base, tmp_path / "jobs")  # type: ignore[arg-type]
    job = queue.submit(files, owned=True)
    assert base.started.wait(10)
    live = queue.active()
    assert live is not None and live.files[0].stage == "embedding" and live.files[0].done >= 0
    assert queue.cancel(job.job_id)
    assert queue.wait_idle(10)
    [done] = queue.unseen()
    assert [f.status for f in done.files] == ["cancelled", "cancelled"]
    assert base.calls == ["one.pdf"]  # the second file was never started
    assert not any(f.exists() for f in files)  # owned uploads are deleted
    queue.close()


def test_a_job_interrupted_by_a_restart_is_resumed(tmp_path: Path, docs_dir: Path) -> None:
    jobs = tmp_path / "jobs"
    jobs.mkdir()
    # What a process that stopped in the middle of a file leaves on disk.
    left = IngestJob(
        job_id="20260101-000000-abcdef",
        created_at=1.0,
        files=[
            JobFile(path=str(docs_dir / "report.pdf"), name="report.pdf", status="ingested", pages=2, chunks=3),
            JobFile(path=str(docs_dir / "manual.pdf"), name="manual.pdf", status="running", stage="embedding"),
        ],
    )
    (jobs / f"{left.job_id}.json").write_text(left.model_dump_json())
    base = KnowledgeBase(KBSettings(store_dir=tmp_path / "store", parse_workers=1))
    queue = IngestQueue(base, jobs)
    assert queue.wait_idle(120)
    [job] = queue.unseen()
    assert [f.status for f in job.files] == ["ingested", "ingested"]
    assert set(base.committed()) == {"manual"}  # the finished file was not ingested again
    queue.close()


def test_closing_the_queue_leaves_the_file_under_way_queued_for_the_next_start(tmp_path: Path) -> None:
    upload = tmp_path / "one.pdf"
    upload.write_bytes(b"%PDF")
    base = _SlowBase()
    queue = IngestQueue(base, tmp_path / "jobs")  # type: ignore[arg-type]
    queue.submit([upload], owned=True)
    assert base.started.wait(10)
    queue.close()
    saved = IngestJob.model_validate_json(next((tmp_path / "jobs").glob("*.json")).read_text())
    assert saved.files[0].status == "queued" and upload.exists()


def test_a_damaged_job_file_is_skipped(tmp_path: Path) -> None:
    jobs = tmp_path / "jobs"
    jobs.mkdir()
    (jobs / "bad.json").write_text("{not json")
    queue = IngestQueue(_SlowBase(), jobs)  # type: ignore[arg-type]
    assert queue.jobs() == []
    queue.close()


def test_progress_is_reported_for_ocr_and_embedding(tmp_path: Path) -> None:
    """The live stage the sidebar shows, read while the worker runs."""
    source = tmp_path / "long.pdf"
    pdfgen.long_pdf(source, pages=12)
    base = KnowledgeBase(KBSettings(store_dir=tmp_path / "store", parse_workers=1))
    seen: set[str] = set()
    queue = IngestQueue(base, tmp_path / "jobs")
    queue.submit([source])
    while not queue.wait_idle(0.01):
        active = queue.active()
        if active and active.current:
            seen.add(active.current[1].stage)
    assert seen and seen <= {"parsing", "OCR", "chunking", "embedding", "storing"}
    assert queue.unseen()[0].files[0].status == "ingested"
    queue.close()


def test_a_job_cancelled_before_a_restart_is_not_resumed(tmp_path: Path) -> None:
    jobs = tmp_path / "jobs"
    jobs.mkdir()
    left = IngestJob(
        job_id="20260101-000000-abcdef",
        created_at=1.0,
        cancelled=True,  # cancelled, but the process stopped before the file under way reached a stopping point
        files=[JobFile(path=str(tmp_path / "a.pdf"), name="a.pdf", status="running", stage="parsing")],
    )
    (jobs / f"{left.job_id}.json").write_text(left.model_dump_json())
    base = _SlowBase()
    queue = IngestQueue(base, jobs)  # type: ignore[arg-type]
    assert queue.wait_idle(5)
    assert [f.status for f in queue.unseen()[0].files] == ["cancelled"]
    assert base.calls == []
    queue.close()


class _OddBase:
    """Its first ingestion returns no outcome at all (a defect elsewhere); the next ones are fine."""

    def __init__(self) -> None:
        self.calls = 0

    def ingest(self, paths: list[str], progress: Callable[[Progress], None]) -> IngestSummary:
        self.calls += 1
        if self.calls == 1:
            return IngestSummary()
        return IngestSummary(files=[FileOutcome(path=str(paths[0]), doc_id="b", status="ingested", pages=1)])


def test_the_worker_outlives_an_unexpected_error_in_one_file(tmp_path: Path) -> None:
    queue = IngestQueue(_OddBase(), tmp_path / "jobs")  # type: ignore[arg-type]
    queue.submit([tmp_path / "a.pdf"])
    queue.submit([tmp_path / "b.pdf"])
    assert queue.wait_idle(10)
    first, second = queue.unseen()
    assert first.files[0].status == "failed" and "a.pdf" in (first.files[0].error or "")
    assert second.files[0].status == "ingested"
    queue.close()
