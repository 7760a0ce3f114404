"""The research workbench: Ask, Library and History pages, with the settings in the sidebar."""

from __future__ import annotations

import sys
from pathlib import Path

import streamlit as st

ROOT = Path(__file__).resolve().parent.parent
PAGES = Path(__file__).resolve().parent / "views"  # not "pages/": that name turns on legacy multipage mode
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import kb  # noqa: E402,F401 - sets the offline environment first
from ui.sidebar import settings_sidebar  # noqa: E402


def main() -> None:
    st.set_page_config(page_title="Research workbench", page_icon=":material/biotech:", layout="wide")
    # Register the pages first, so a page is always found even if the settings below fail or are slow.
    nav = st.navigation(
        [
            st.Page(PAGES / "ask.py", title="Ask", icon=":material/forum:", url_path="ask", default=True),
            st.Page(PAGES / "library.py", title="Library", icon=":material/library_books:", url_path="library"),
            st.Page(PAGES / "history.py", title="History", icon=":material/history:", url_path="history"),
        ]
    )
    busy = "pending_question" in st.session_state or "pending_decision" in st.session_state
    try:
        st.session_state["agent_settings"] = settings_sidebar(disabled=busy)
    except Exception as exc:  # noqa: BLE001 - a short message with a hint, never a traceback
        st.error(f"The workbench could not start: {type(exc).__name__}: {exc}. Check data/ and the settings.")
        return
    nav.run()


main()
