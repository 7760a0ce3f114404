"""The knowledge base as the agent sees it: a small declared interface, so the agent needs no kb internals."""

from __future__ import annotations

from typing import Literal, Protocol

import numpy as np

from kb.models import Chunk, DocumentRecord, Hit
from kb.query import SearchQuery


class Knowledge(Protocol):
    """Search, the catalogue with each document's card, a chunk by its id (and the one after it), and the store's
    embedding model (kb.base.KnowledgeBase is one)."""

    def search(
        self,
        query: str,
        k: int = 8,
        docs: list[str] | None = None,
        variants: list[str] | None = None,
        neighbours: int = 0,
        mode: Literal["hybrid", "dense", "lexical"] = "hybrid",
    ) -> list[Hit]: ...

    def read_query(self, query: str) -> SearchQuery: ...

    def documents(self) -> list[DocumentRecord]: ...

    def committed(self) -> dict[str, str]: ...

    def chunk(self, chunk_id: str) -> Chunk | None: ...

    def following(self, chunk_id: str) -> Chunk | None: ...

    def embed(self, texts: list[str]) -> np.ndarray: ...
