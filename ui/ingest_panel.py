"""The background ingestion as a person sees it: a live line in the sidebar of every page, the job's files with
their bars and a Cancel button on the Library page, and each file's outcome until the person dismisses it.

The live parts are fragments that poll the queue once a second while a job runs; a fragment rerun never
interrupts a page's own run (Streamlit queues it), and the whole page reruns once when the job ends, so the
library and the document filter show the new documents.
"""

from __future__ import annotations

import streamlit as st

from kb.jobs import IngestJob, JobFile
from ui.resources import ingest_queue

_POLL_SECONDS = 1.0
_WAS_ACTIVE = "_ingest_was_active"


def file_fraction(f: JobFile) -> float:
    if f.status not in ("queued", "running"):
        return 1.0
    return min(1.0, f.done / f.total) if f.total else 0.0


def overall_fraction(job: IngestJob) -> float:
    return sum(file_fraction(f) for f in job.files) / max(1, len(job.files))


def overall_text(job: IngestJob) -> str:
    done = sum(f.status not in ("queued", "running") for f in job.files)
    return f"overall: {done} of {len(job.files)} done"


def file_line(f: JobFile) -> str:
    """'NAME (embedding 32/211)' while running; the outcome once finished."""
    if f.status == "running":
        count = f" {f.done}/{f.total}" if f.total else ""
        return f"{f.name} ({f.stage or 'starting'}{count})"
    if f.status == "queued":
        return f"{f.name} (waiting)"
    return f"{f.name} ({f.status})"


def headline(job: IngestJob) -> str:
    current = job.current
    if current is None:
        return "Ingestion finished"
    position, f = current
    return f"Ingesting {position + 1} of {len(job.files)}: {file_line(f)}"


def outcome_message(f: JobFile) -> tuple[str, str]:
    """(kind, text) for a finished file: success, info or error."""
    if f.status == "ingested":
        read = f", {f.ocr_pages} read by OCR" if f.ocr_pages else ""
        notes = "".join(f" {note}." for note in f.notes)
        return "success", f"{f.name}: added, {f.pages} pages{read}, {f.chunks} chunks.{notes}"
    if f.status == "unchanged":
        return "info", f"{f.name}: already in the library, unchanged."
    return "error", f.error or f"{f.name}: {f.status}"


def _followed_job() -> IngestJob | None:
    """The job under way; when the job this fragment was following has ended, the whole page reruns."""
    job = ingest_queue().active()
    if job is None and st.session_state.pop(_WAS_ACTIVE, False):
        st.rerun()  # the app: the library list and the sidebar's document filter see the new documents
    st.session_state[_WAS_ACTIVE] = job is not None
    return job


@st.fragment(run_every=_POLL_SECONDS)
def _sidebar_live() -> None:
    job = _followed_job()
    if job is None:
        return
    st.caption(headline(job))
    st.progress(overall_fraction(job), text=overall_text(job))
    if job.current is not None:
        _, f = job.current
        st.progress(file_fraction(f), text=f.name)


def sidebar_status() -> None:
    """A line in the sidebar of every page: the job under way, or the outcomes waiting to be seen."""
    queue = ingest_queue()
    with st.sidebar:
        if queue.active() is not None:
            _sidebar_live()
        elif unseen := queue.unseen():
            n = sum(len(j.files) for j in unseen)
            st.page_link("views/library.py", label=f"{n} ingestion result(s) to see", icon=":material/inbox:")


@st.fragment(run_every=_POLL_SECONDS)
def _library_live() -> None:
    job = _followed_job()
    if job is None:
        return
    with st.container(border=True):
        st.markdown(f"**{headline(job)}**")
        st.progress(overall_fraction(job), text=overall_text(job))
        for f in job.files:
            st.progress(file_fraction(f), text=file_line(f))
        if st.button("Cancel this ingestion", key=f"cancel-{job.job_id}", icon=":material/cancel:"):
            ingest_queue().cancel(job.job_id)
            st.rerun(scope="fragment")


def library_panel() -> None:
    """On the Library page: the job under way, then the outcomes not yet dismissed."""
    queue = ingest_queue()
    if queue.active() is not None:
        _library_live()
    for job in queue.unseen():
        with st.container(border=True):
            for f in job.files:
                kind, text = outcome_message(f)
                {"error": st.error, "info": st.info, "success": st.success}[kind](text)
            if st.button("Dismiss", key=f"seen-{job.job_id}"):
                queue.mark_seen(job.job_id)
                st.rerun()
