"""Library page script (run by st.navigation)."""

from ui.library_page import page

page()
