"""The research workbench: Ask, Library and History pages, with the settings in the sidebar.

Everything runs under `if __name__ == "__main__"`, imports included: Streamlit makes this script the process's
`__main__`, so the parser processes that ingestion spawns import it again (as `__mp_main__`). Unguarded, each
would open the store and the ingestion queue of its own, and take seconds to start.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGES = Path(__file__).resolve().parent / "views"  # not "pages/": that name turns on legacy multipage mode


def main() -> None:
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    import streamlit as st

    import kb  # noqa: F401 - sets the offline environment first
    from ui.ingest_panel import sidebar_status
    from ui.sidebar import settings_sidebar

    st.set_page_config(page_title="Research workbench", page_icon=":material/biotech:", layout="wide")
    # Register the pages first, so a page is always found even if the settings below fail or are slow.
    ask = st.Page(PAGES / "ask.py", title="Ask", icon=":material/forum:", url_path="ask")
    # The root URL hands over to /ask (keeping its query), so every page, Ask included, opens at its own address.
    home = st.Page(
        lambda: st.switch_page(ask, query_params=st.query_params.to_dict()),
        title="Home",
        url_path="home",
        default=True,
        visibility="hidden",
    )
    nav = st.navigation(
        [
            home,
            ask,
            st.Page(PAGES / "library.py", title="Library", icon=":material/library_books:", url_path="library"),
            st.Page(PAGES / "history.py", title="History", icon=":material/history:", url_path="history"),
        ]
    )
    busy = "pending_question" in st.session_state or "pending_decision" in st.session_state
    try:
        st.session_state["agent_settings"] = settings_sidebar(disabled=busy)
        sidebar_status()
    except Exception as exc:  # noqa: BLE001 - a short message with a hint, never a traceback
        st.error(f"The workbench could not start: {type(exc).__name__}: {exc}. Check data/ and the settings.")
        return
    nav.run()


if __name__ == "__main__":
    main()
