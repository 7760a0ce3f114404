"""The bounded research agent: a LangGraph controller over the knowledge base (ui -> agent -> kb)."""
