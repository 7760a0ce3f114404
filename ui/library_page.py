"""Library page: add PDFs (a progress bar and an inline error per file), list and remove them, quick search."""

from __future__ import annotations

import time

import streamlit as st

from kb.base import KnowledgeBase
from kb.models import Progress
from ui.evidence import searched_note, why_found
from ui.resources import knowledge_base, uploads_dir
from ui.uploads import safe_name


def show_outcomes() -> None:
    """The last ingestion's per-file outcomes, kept across the rerun that refreshes the sidebar's document list."""
    for kind, text in st.session_state.pop("ingest_outcomes", []):
        {"error": st.error, "info": st.info, "success": st.success}[kind](text)


def add_documents(base: KnowledgeBase) -> None:
    limit = base.settings.max_file_mb
    files = st.file_uploader(
        f"Add PDFs (up to {limit:g} MB each)", type=["pdf"], accept_multiple_files=True, key="uploads"
    )
    clicked = bool(files) and st.button("Ingest", type="primary")
    show_outcomes()
    if not clicked:
        return
    outcomes: list[tuple[str, str]] = []
    uploads = uploads_dir()
    uploads.mkdir(parents=True, exist_ok=True)
    for upload in files:
        target = uploads / safe_name(upload.name)
        target.write_bytes(upload.getbuffer())
        bar = st.progress(0.0, text=f"{target.name}: parsing")
        shown = len(outcomes)

        def show(event: Progress, bar=bar, name=target.name) -> None:
            if event.stage == "ocr" and event.total:
                bar.progress(min(1.0, event.done / event.total), text=f"{name}: OCR page {event.done}/{event.total}")
            elif event.stage == "embedding" and event.total:
                bar.progress(min(1.0, event.done / event.total), text=f"{name}: embedding {event.done}/{event.total}")

        try:
            summary = base.ingest([target], show)
        except Exception as exc:  # noqa: BLE001 - shown inline, the other files continue
            bar.empty()
            outcomes.append(("error", f"{target.name}: ingestion failed ({type(exc).__name__}: {exc})"))
            st.error(outcomes[-1][1])
            continue
        outcome = summary.files[0]
        bar.progress(1.0, text=f"{target.name}: {outcome.status}")
        if outcome.status == "failed":
            target.unlink(missing_ok=True)
            outcomes.append(("error", outcome.error or f"{target.name}: failed"))
        elif outcome.status == "unchanged":
            outcomes.append(("info", f"{target.name}: already in the library, unchanged"))
        else:
            read = f", {outcome.ocr_pages} read by OCR" if outcome.ocr_pages else ""
            outcomes.append(("success", f"{target.name}: {outcome.pages} pages{read}, {outcome.chunks} chunks"))
            outcomes += [("info", note) for note in outcome.notes]
        st.session_state["ingest_outcomes"] = outcomes
        for kind, text in outcomes[shown:]:
            {"error": st.error, "info": st.info, "success": st.success}[kind](text)
    st.session_state["ingest_outcomes"] = outcomes
    st.rerun()  # the sidebar's document filter and the Ask page see the new documents at once


def list_documents(base: KnowledgeBase) -> None:
    docs = base.documents()
    st.subheader(f"Documents ({len(docs)})")
    if not docs:
        st.caption("No documents yet: add PDFs above.")
        return
    st.dataframe(
        [
            {
                "document": d.doc_id,
                "title": d.title,
                "organisation": d.organisation,
                "date or period": d.period,
                "file name": d.name or d.doc_id,
                "pages": d.pages,
                "chunks": d.chunks,
                "OCR pages": d.ocr_pages,
                "notes": d.notes,
                "status": d.status if d.recipe == base.settings.recipe else f"{d.status}, older recipe: add again",
                "ingested": time.strftime("%Y-%m-%d %H:%M", time.localtime(d.ingested_at)),
            }
            for d in docs
        ],
        hide_index=True,
        width="stretch",
    )
    col1, col2 = st.columns([3, 1])
    doomed = col1.selectbox("Remove a document", [d.doc_id for d in docs], index=None, placeholder="choose…")
    if col2.button("Remove", disabled=doomed is None) and doomed:
        base.remove(doomed)
        st.rerun()


def quick_search(base: KnowledgeBase) -> None:
    st.subheader("Quick search")
    query = st.text_input("Query", key="query")
    k = st.slider("Hits", 1, 20, 8)
    if not query.strip():
        return
    hits = base.search(query, k=k)
    reading = base.read_query(query)
    if reading.text != " ".join(query.split()):
        searched_note([reading.text])
    if not hits:
        st.caption("No hits.")
    for h in hits:
        pages = f"p.{h.start_page}" if h.start_page == h.end_page else f"p.{h.start_page}-{h.end_page}"
        with st.container(border=True):
            st.text(f"{h.rank}. {h.doc_id} {pages}   {h.section}" + ("   [OCR]" if h.ocr else ""))
            st.caption(why_found(h.model_dump()))
            st.text(h.text)  # document text is data: never rendered as markdown or HTML


def page() -> None:
    st.title("Library")
    try:
        base = knowledge_base()
    except Exception as exc:  # noqa: BLE001 - a short message, never a traceback
        st.error(f"The knowledge base could not be opened: {type(exc).__name__}: {exc}")
        return
    add_documents(base)
    list_documents(base)
    quick_search(base)
