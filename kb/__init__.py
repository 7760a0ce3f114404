"""Knowledge base: page-accurate PDF ingestion into Chroma + BM25, and hybrid search."""

import os
from typing import Any

# Nothing is downloaded at run time, and Chroma sends no telemetry.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

__all__ = ["KBSettings", "KnowledgeBase"]


def __getattr__(name: str) -> Any:
    # Lazy, so parser worker processes do not import torch and Chroma.
    if name == "KnowledgeBase":
        from kb.base import KnowledgeBase

        return KnowledgeBase
    if name == "KBSettings":
        from kb.settings import KBSettings

        return KBSettings
    raise AttributeError(name)
