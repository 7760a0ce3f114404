"""What the sidebar and the Library page say about an ingestion job."""

from kb.jobs import IngestJob, JobFile
from ui.ingest_panel import file_fraction, headline, outcome_message, overall_fraction, overall_text


def job() -> IngestJob:
    return IngestJob(
        job_id="j",
        created_at=0.0,
        files=[
            JobFile(path="/u/a.pdf", name="a.pdf", status="ingested", pages=3, chunks=7),
            JobFile(path="/u/b.pdf", name="b.pdf", status="running", stage="embedding", done=32, total=64),
            JobFile(path="/u/c.pdf", name="c.pdf"),
        ],
    )


def test_headline_names_the_file_under_way_its_position_and_stage() -> None:
    assert headline(job()) == "Ingesting 2 of 3: b.pdf (embedding 32/64)"
    assert overall_text(job()) == "overall: 1 of 3 done"


def test_overall_progress_counts_the_part_of_the_current_file() -> None:
    assert file_fraction(job().files[1]) == 0.5
    assert overall_fraction(job()) == (1 + 0.5 + 0) / 3


def test_outcomes_read_as_one_line_each() -> None:
    done = job().files[0]
    assert outcome_message(done) == ("success", "a.pdf: added, 3 pages, 7 chunks.")
    failed = JobFile(path="/u/x.pdf", name="x.pdf", status="failed", error="x.pdf: not a PDF (no /Root object)")
    assert outcome_message(failed) == ("error", "x.pdf: not a PDF (no /Root object)")
    assert outcome_message(JobFile(path="/u/y.pdf", name="y.pdf", status="unchanged"))[0] == "info"
