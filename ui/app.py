"""Workbench, library view: add PDFs, see and remove documents, and check the library with a search."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import streamlit as st

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import kb  # noqa: E402,F401 - sets the offline environment first
from kb.base import KnowledgeBase  # noqa: E402
from kb.models import Progress  # noqa: E402
from kb.settings import KBSettings  # noqa: E402
from ui.uploads import safe_name  # noqa: E402

UPLOADS = ROOT / "data" / "uploads"


@st.cache_resource
def knowledge_base() -> KnowledgeBase:
    settings = KBSettings()
    if not settings.store_dir.is_absolute():
        settings = settings.model_copy(update={"store_dir": ROOT / settings.store_dir})
    return KnowledgeBase(settings)


def add_documents(base: KnowledgeBase) -> None:
    limit = base.settings.max_file_mb
    files = st.file_uploader(
        f"Add PDFs (up to {limit:g} MB each)", type=["pdf"], accept_multiple_files=True, key="uploads"
    )
    if not files or not st.button("Ingest", type="primary"):
        return
    UPLOADS.mkdir(parents=True, exist_ok=True)
    for upload in files:
        target = UPLOADS / safe_name(upload.name)
        target.write_bytes(upload.getbuffer())
        bar = st.progress(0.0, text=f"{target.name}: parsing")

        def show(event: Progress, bar=bar, name=target.name) -> None:
            if event.stage == "embedding" and event.total:
                bar.progress(min(1.0, event.done / event.total), text=f"{name}: embedding {event.done}/{event.total}")

        try:
            summary = base.ingest([target], show)
        except Exception as exc:  # noqa: BLE001 - shown inline, the other files continue
            bar.empty()
            st.error(f"{target.name}: ingestion failed ({type(exc).__name__}: {exc})")
            continue
        outcome = summary.files[0]
        bar.progress(1.0, text=f"{target.name}: {outcome.status}")
        if outcome.status == "failed":
            target.unlink(missing_ok=True)
            st.error(outcome.error)
        elif outcome.status == "unchanged":
            st.info(f"{target.name}: already in the library, unchanged")
        else:
            st.success(f"{target.name}: {outcome.pages} pages, {outcome.chunks} chunks")


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
                "pages": d.pages,
                "chunks": d.chunks,
                "status": d.status,
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
    if not hits:
        st.caption("No hits.")
    for h in hits:
        pages = f"p.{h.start_page}" if h.start_page == h.end_page else f"p.{h.start_page}-{h.end_page}"
        with st.container(border=True):
            st.text(f"{h.rank}. {h.doc_id} {pages}   {h.section}")
            dense = "-" if h.dense_score is None else f"{h.dense_score:.3f} (#{h.dense_rank})"
            lexical = "-" if h.lexical_score is None else f"{h.lexical_score:.2f} (#{h.lexical_rank})"
            st.caption(f"fused {h.fused_score:.4f} · dense {dense} · BM25 {lexical}")
            st.text(h.text)  # document text is data: never rendered as markdown or HTML


def main() -> None:
    st.set_page_config(page_title="Research workbench: library", layout="wide")
    st.title("Library")
    try:
        base = knowledge_base()
    except Exception as exc:  # noqa: BLE001 - a short message, never a traceback
        st.error(f"The knowledge base could not be opened: {type(exc).__name__}: {exc}")
        return
    add_documents(base)
    list_documents(base)
    quick_search(base)


main()
