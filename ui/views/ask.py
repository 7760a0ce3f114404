"""Ask page script (run by st.navigation)."""

import streamlit as st

from ui.ask_page import page

page(st.session_state["agent_settings"])
