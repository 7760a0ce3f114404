"""Deterministic stand-ins for the knowledge base, so graph behaviour can be scripted exactly."""

from __future__ import annotations

from collections import Counter
from typing import Any

from agent.llm import LLMStatus
from agent.nodes import Deps
from agent.settings import AgentSettings
from kb.text import tokenize


def chunk(doc_id: str, ordinal: int, text: str, page: int = 1, section: str = "") -> dict[str, Any]:
    return {
        "chunk_id": f"{doc_id}:{ordinal:05d}",
        "doc_id": doc_id,
        "start_page": page,
        "end_page": page,
        "section": section,
        "text": text,
        "ordinal": ordinal,
        "regions": [],
    }


class MiniSearch:
    """Term-frequency scoring over a fixed list of chunks: no embeddings (dense_score stays None)."""

    def __init__(self, chunks: list[dict[str, Any]]):
        self.chunks = chunks
        self.calls: list[dict[str, Any]] = []

    def __call__(
        self, query: str, k: int = 8, docs: list[str] | None = None, mode: str = "hybrid"
    ) -> list[dict[str, Any]]:
        self.calls.append({"query": query, "k": k, "docs": docs, "mode": mode})
        terms = set(tokenize(query))
        scored = []
        for c in self.chunks:
            if docs is not None and c["doc_id"] not in docs:
                continue
            counts = Counter(tokenize(c["text"]))
            score = sum(counts[t] for t in terms)
            if score > 0:
                scored.append((score, c))
        scored.sort(key=lambda sc: (-sc[0], sc[1]["chunk_id"]))
        return [
            {
                **c,
                "rank": r,
                "fused_score": float(s),
                "dense_score": None,
                "dense_rank": None,
                "lexical_score": float(s),
                "lexical_rank": r,
                "neighbour_of": None,
            }
            for r, (s, c) in enumerate(scored[:k], 1)
        ]

    @property
    def documents(self) -> list[str]:
        return sorted({c["doc_id"] for c in self.chunks})


def unusable(settings: AgentSettings) -> LLMStatus:
    return LLMStatus(url=settings.base_url, reachable=False, model=settings.model, message="no LLM in this test")


def mini_deps(chunks: list[dict[str, Any]], **kw: Any) -> tuple[Deps, MiniSearch]:
    search = MiniSearch(chunks)
    return Deps(search=search, documents=lambda: search.documents, probe=kw.pop("probe", unusable), **kw), search


# An acronym defined in one chunk, the fact in another that only uses the long form, and a decoy that shares a word.
ACRONYM_CORPUS = [
    chunk("plant", 0, "The TDC (Thermal Drift Compensator) sits in the north cabinet of the plant."),
    chunk("plant", 1, "The thermal drift compensator is recalibrated every 90 days by the thermal team.", page=2),
    chunk("plant", 2, "Pumps are recalibrated after repairs, and a recalibrated pump is tagged.", page=3),
]

# Two topics that live in different documents; the first document also mentions the second topic in passing.
COMPARE_CORPUS = [
    chunk("alpha", 0, "The falcon pump moves 40 litres per minute. The falcon pump is made of bronze."),
    chunk("alpha", 1, "Falcon pump maintenance: the falcon pump seals are replaced yearly, unlike the heron valve."),
    chunk("alpha", 2, "The falcon pump draws 2 kilowatts and the falcon pump runs quietly.", page=2),
    chunk("alpha", 3, "Falcon pump installation needs two technicians; compare the falcon pump manual.", page=2),
    chunk("beta", 0, "The heron valve regulates pressure up to 12 bar; the heron valve sits in the cooling loop."),
    chunk("beta", 1, "The heron valve is cast steel and every heron valve is inspected monthly.", page=2),
]
