"""Hybrid retrieval: dense (Chroma) and BM25 rankings fused by reciprocal rank fusion."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from kb.embed import Embedder
from kb.lexical import LexicalIndex
from kb.models import Hit
from kb.settings import KBSettings
from kb.store import Store, record_from, regions_of

Mode = Literal["hybrid", "dense", "lexical"]


@dataclass
class _Candidate:
    record: dict[str, Any]
    fused: float = 0.0
    dense_score: float | None = None
    dense_rank: int | None = None
    lexical_score: float | None = None
    lexical_rank: int | None = None
    sources: set[str] = field(default_factory=set)
    repeats_page: bool = False


def hybrid_search(
    store: Store,
    embedder: Embedder | None,
    lexical: LexicalIndex,
    committed: dict[str, str],
    settings: KBSettings,
    query: str,
    k: int = 8,
    docs: list[str] | None = None,
    variants: list[str] | None = None,
    neighbours: int = 0,
    mode: Mode = "hybrid",
    everything_committed: bool = False,
) -> list[Hit]:
    """Top-k hits for the query (and its variants), restricted to `docs` when given.

    `everything_committed` (no document half-ingested) lets an unrestricted search skip Chroma's metadata filter,
    which costs more than the vector search itself; stale chunks are still dropped by their content hash."""
    allowed = sorted(committed if docs is None else set(docs) & set(committed))
    queries = list(dict.fromkeys(q.strip() for q in [query, *(variants or [])] if q and q.strip()))
    if not allowed or not queries or k <= 0:
        return []
    n = max(settings.candidates, 2 * k)
    pool: dict[str, _Candidate] = {}
    if mode in ("hybrid", "dense") and embedder is not None:
        vectors = embedder.encode(queries)
        for vector in vectors:
            results = [
                r
                for r in store.query(vector, n, None if docs is None and everything_committed else allowed)
                if r[3].get("content_hash") == committed.get(r[3]["doc_id"])
            ]
            for rank, (cid, sim, text, meta) in enumerate(results, 1):
                position = lexical.position.get(cid)
                record = lexical.records[position] if position is not None else record_from(cid, text, meta)
                cand = pool.setdefault(cid, _Candidate(record))
                cand.fused += settings.dense_weight / (settings.rrf_k + rank)
                if cand.dense_rank is None or rank < cand.dense_rank:
                    cand.dense_rank, cand.dense_score = rank, sim
    if mode in ("hybrid", "lexical"):
        for q in queries:
            for rank, (position, score) in enumerate(lexical.search(q, n, None if docs is None else allowed), 1):
                record = lexical.records[position]
                cand = pool.setdefault(record["chunk_id"], _Candidate(record))
                cand.fused += settings.lexical_weight / (settings.rrf_k + rank)
                if cand.lexical_rank is None or rank < cand.lexical_rank:
                    cand.lexical_rank, cand.lexical_score = rank, score
    ranked = [c for _, c in sorted(pool.items(), key=lambda item: (-item[1].fused, item[0]))]
    ranked = _new_pages_first(ranked, k) if settings.new_pages_first else ranked[:k]
    hits = [_hit(c, rank) for rank, c in enumerate(ranked, 1)]
    return _expand(hits, lexical, neighbours) if neighbours > 0 else hits


def _new_pages_first(ranked: list[_Candidate], k: int) -> list[_Candidate]:
    """The top k, where a chunk whose pages all appear in higher hits yields to chunks from pages not yet listed
    (in fused order): k hits then point to as many places as the candidates allow."""
    first: list[_Candidate] = []
    later: list[_Candidate] = []
    covered: set[tuple[str, int]] = set()
    for cand in ranked:
        r = cand.record
        pages = {(r["doc_id"], p) for p in range(r["start_page"], r["end_page"] + 1)}
        cand.repeats_page = pages <= covered
        (later if cand.repeats_page else first).append(cand)
        covered |= pages
        if len(first) >= k:
            break
    return (first + later)[:k]


def _hit(cand: _Candidate, rank: int, neighbour_of: str | None = None) -> Hit:
    r = cand.record
    return Hit(
        chunk_id=r["chunk_id"],
        doc_id=r["doc_id"],
        start_page=r["start_page"],
        end_page=r["end_page"],
        section=r["section"],
        title=r.get("title", ""),
        text=r["text"],
        ordinal=r["ordinal"],
        regions=regions_of(r),
        rank=rank,
        fused_score=round(cand.fused, 6),
        dense_score=None if cand.dense_score is None else round(cand.dense_score, 6),
        dense_rank=cand.dense_rank,
        lexical_score=None if cand.lexical_score is None else round(cand.lexical_score, 6),
        lexical_rank=cand.lexical_rank,
        neighbour_of=neighbour_of,
        repeats_page=cand.repeats_page,
        kind=r.get("kind", "body"),
    )


def _expand(hits: list[Hit], lexical: LexicalIndex, width: int) -> list[Hit]:
    """Insert the chunks around each hit (same document, adjacent positions) right after it."""
    seen = {h.chunk_id for h in hits}
    out: list[Hit] = []
    for hit in hits:
        out.append(hit)
        for offset in [d for step in range(1, width + 1) for d in (-step, step)]:
            position = lexical.by_ordinal.get((hit.doc_id, hit.ordinal + offset))
            if position is None:
                continue
            record = lexical.records[position]
            if record["chunk_id"] in seen:
                continue
            seen.add(record["chunk_id"])
            out.append(_hit(_Candidate(record), hit.rank, neighbour_of=hit.chunk_id))
    return out
