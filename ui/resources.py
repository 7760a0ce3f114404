"""Long-lived objects shared by every session: the knowledge base, the agent (with its SQLite checkpointer)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import streamlit as st

import kb  # noqa: F401 - sets the offline environment first
from agent.conversations import Conversations
from agent.llm import probe
from agent.runner import Agent
from agent.settings import AgentSettings
from kb.base import KnowledgeBase
from kb.jobs import IngestQueue
from kb.settings import KBSettings

ROOT = Path(__file__).resolve().parent.parent


def _anchored(path: Path) -> Path:
    return path if path.is_absolute() else ROOT / path


def base_agent_settings() -> AgentSettings:
    """Environment-derived agent settings with data paths anchored at the project root."""
    s = AgentSettings()
    return s.model_copy(update={"runs_dir": _anchored(s.runs_dir), "checkpoint_path": _anchored(s.checkpoint_path)})


def knowledge_base() -> KnowledgeBase:
    settings = KBSettings()
    settings = settings.model_copy(update={"store_dir": _anchored(settings.store_dir)})
    return _knowledge_base(settings.model_dump_json())


@st.cache_resource(show_spinner=False)
def _knowledge_base(settings_json: str) -> KnowledgeBase:
    # Keyed by the settings, so a changed configuration never reuses another store's objects.
    return KnowledgeBase(KBSettings.model_validate_json(settings_json))


def agent() -> Agent:
    s = base_agent_settings()
    return _agent(str(knowledge_base().settings.store_dir), str(s.checkpoint_path))


@st.cache_resource(show_spinner=False)
def _agent(store_dir: str, checkpoint_path: str) -> Agent:
    return Agent.persistent(knowledge_base(), base_agent_settings())


@st.cache_data(ttl=15, show_spinner=False)
def ollama_status(url: str, model: str) -> dict[str, Any]:
    """Whether Ollama answers at `url` and which models it has (cached briefly: the sidebar redraws often)."""
    settings = base_agent_settings().model_copy(update={"ollama_url": url, "model": model})
    return probe(settings, timeout=2.0).model_dump()


def conversations() -> Conversations:
    """Conversations are kept beside the run records (data/conversations by default)."""
    return Conversations(base_agent_settings().runs_dir.parent / "conversations")


def uploads_dir() -> Path:
    """Uploaded PDFs are kept beside the store (data/uploads by default), so citations can show their pages."""
    return knowledge_base().settings.store_dir.parent / "uploads"


def document_sources() -> dict[str, Path]:
    return {d.doc_id: Path(d.source) for d in knowledge_base().documents() if d.status == "committed"}


def ingest_queue() -> IngestQueue:
    """The background ingestion queue of the knowledge base, one per server process (jobs under data/jobs)."""
    base = knowledge_base()
    return _ingest_queue(str(base.settings.store_dir))


@st.cache_resource(show_spinner=False)
def _ingest_queue(store_dir: str) -> IngestQueue:
    return IngestQueue(knowledge_base(), Path(store_dir).parent / "jobs")
