"""Library page: add PDFs (ingested in the background, with bars and outcomes per file), list and remove them,
quick search."""

from __future__ import annotations

import time
from pathlib import Path

import streamlit as st

from kb.base import KnowledgeBase
from ui.evidence import escape_md, searched_note, table_head, why_found
from ui.ingest_panel import library_panel
from ui.resources import ingest_queue, knowledge_base, uploads_dir
from ui.uploads import safe_name


def _queue_uploads(key: str) -> None:
    """The Ingest button's callback: it runs before the next script run, so leaving the page at once loses nothing."""
    ss = st.session_state
    uploads = uploads_dir()
    uploads.mkdir(parents=True, exist_ok=True)
    fresh: list[Path] = []
    again: list[Path] = []
    for upload in ss.get(key) or []:
        target = uploads / safe_name(upload.name)
        if target in fresh or target in again:
            ss.setdefault("library_notes", []).append(f"{upload.name}: skipped, another file picked has its name")
            continue
        # A new version of a file already here: its ingestion must not delete it when it fails or is cancelled,
        # since the document in the library cites it.
        (again if target.exists() else fresh).append(target)
        target.write_bytes(upload.getbuffer())
    if fresh:
        ingest_queue().submit(fresh, owned=True)
    if again:
        ingest_queue().submit(again, owned=False)
    ss["uploads_generation"] = ss.get("uploads_generation", 0) + 1  # a new key empties the picker


def add_documents(base: KnowledgeBase) -> None:
    """Uploads are saved under data/uploads and queued: the ingestion goes on if the person leaves the page."""
    key = f"uploads-{st.session_state.get('uploads_generation', 0)}"
    limit = base.settings.max_file_mb
    files = st.file_uploader(f"Add PDFs (up to {limit:g} MB each)", type=["pdf"], accept_multiple_files=True, key=key)
    busy = ingest_queue().active() is not None
    st.button(
        "Queue for ingestion" if busy else "Ingest",
        type="primary",
        disabled=not files,
        help="Runs in the background: you may leave the page.",
        on_click=_queue_uploads,
        args=(key,),
    )


def _forget_removal() -> None:
    st.session_state.pop("confirm_remove", None)


@st.dialog("Remove a document", on_dismiss=_forget_removal)
def confirm_removal(base: KnowledgeBase, doc_id: str) -> None:
    """Open while `confirm_remove` names a document, so the choice made in it is seen by whichever run follows."""
    record = next((d for d in base.documents() if d.doc_id == doc_id), None)
    title = f" ({record.title})" if record and record.title else ""
    st.markdown(
        f"Remove {escape_md(doc_id + title)} from the library? Its passages leave every search, and the PDF "
        "uploaded for it is deleted."
    )
    c1, c2 = st.columns(2)
    if c1.button("Remove", type="primary", icon=":material/delete:"):
        removed = base.remove(doc_id)
        source = Path(record.source) if record else None
        if source is not None and source.resolve().parent == uploads_dir().resolve():
            source.unlink(missing_ok=True)  # only files the workbench saved: never a person's own folder
        st.session_state["library_message"] = (
            f"Removed {doc_id}." if removed else f"{doc_id} was not in the library any more."
        )
        _forget_removal()
        st.rerun()
    if c2.button("Keep it"):
        _forget_removal()
        st.rerun()


def list_documents(base: KnowledgeBase) -> None:
    docs = base.documents()
    st.subheader(f"Documents ({len(docs)})")
    if message := st.session_state.pop("library_message", None):
        st.success(message)
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
    col1, col2 = st.columns([3, 1], vertical_alignment="bottom")
    doomed = col1.selectbox("Remove a document", [d.doc_id for d in docs], index=None, placeholder="choose…")
    if col2.button("Remove…", disabled=doomed is None) and doomed:
        st.session_state["confirm_remove"] = doomed
    if doomed_now := st.session_state.get("confirm_remove"):
        confirm_removal(base, doomed_now)


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
            hit = h.model_dump()
            st.caption(why_found(hit))
            table_head(hit)
            st.text(h.text)  # document text is data: never rendered as markdown or HTML


def page() -> None:
    st.title("Library")
    try:
        base = knowledge_base()
    except Exception as exc:  # noqa: BLE001 - a short message, never a traceback
        st.error(f"The knowledge base could not be opened: {type(exc).__name__}: {exc}")
        return
    add_documents(base)
    for note in st.session_state.pop("library_notes", []):
        st.warning(note)
    library_panel()
    list_documents(base)
    quick_search(base)
