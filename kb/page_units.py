"""Pages as the unit of retrieval: fused chunk evidence aggregated per page, or per page pair for a chunk that runs
across a page break, so the top k point to k distinct places ranked by how well each answers."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Candidate:
    """A chunk found by at least one ranking, with its fused score and the evidence of each ranking."""

    record: dict[str, Any]
    fused: float = 0.0
    dense_score: float | None = None
    dense_rank: int | None = None
    lexical_score: float | None = None
    lexical_rank: int | None = None
    repeats_page: bool = False
    document_score: float | None = None
    document_terms: list[str] = field(default_factory=list)
    page_chunks: list[str] = field(default_factory=list)  # with page units: the other chunks of its page
    defines: str = ""  # the term the question asks to define, when this chunk defines it
    year_rows: int = 0  # its table rows stating a figure for a year the question names, when it was ranked so


def _unit(record: dict[str, Any]) -> tuple[str, int, int]:
    return record["doc_id"], record["start_page"], record["end_page"]


def rank_pages(ranked: list[Candidate], k: int, support: float) -> list[Candidate]:
    """The top k pages (a page pair counts as one place), each as its best chunk, scored by its best chunk's fused
    score plus `support` times the next one's, `support` squared times the third's, and so on. Ties go to the
    better best chunk, so the order never depends on how the pool was filled."""
    units: dict[tuple[str, int, int], list[Candidate]] = {}
    for cand in ranked:  # ranked best first: each unit's list is best first too
        units.setdefault(_unit(cand.record), []).append(cand)
    scored = []
    for members in units.values():
        score = sum(c.fused * support**i for i, c in enumerate(members))
        scored.append((score, members))
    scored.sort(key=lambda item: (-item[0], -item[1][0].fused, item[1][0].record["chunk_id"]))
    out = []
    for score, members in scored[:k]:
        best = members[0]
        best.fused = score
        best.page_chunks = [c.record["chunk_id"] for c in members[1:]]
        out.append(best)
    return out


def new_pages_first(ranked: list[Candidate], k: int) -> list[Candidate]:
    """The top k chunks, where a chunk whose pages all appear in higher hits yields to chunks from pages not yet
    listed (in fused order): k hits then point to as many places as the candidates allow."""
    first: list[Candidate] = []
    later: list[Candidate] = []
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
