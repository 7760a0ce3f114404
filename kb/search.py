"""Hybrid retrieval: the question's information need searched densely (Chroma) and with BM25, the two fused by their
standard scores, with rankings of the documents the question names (and of its table rows, hints, definitions and
identifiers) fused by reciprocal rank, and the result ranked by page."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from kb.definitions import defined_term, defining_rank
from kb.documents import DocumentIndex, DocumentMatch
from kb.embed import Embedder
from kb.hints import hint_rank
from kb.lexical import LexicalIndex
from kb.models import Hit
from kb.page_units import Candidate, new_pages_first, rank_pages
from kb.periods import is_period, years_named
from kb.query import SearchQuery, read_query
from kb.search_settings import SearchSettings
from kb.store import Store, record_from, regions_of
from kb.table_rows import asks_reason_or_name, row_rank, year_rank
from kb.text import is_identifier, markup_tags, tag_pattern, without_possessive, words
from kb.vectors import VectorIndex

Mode = Literal["hybrid", "dense", "lexical"]


@dataclass
class Indexes:
    """What one search runs against: the vector store, the BM25 and document indexes, the committed documents."""

    store: Store
    embedder: Embedder | None
    lexical: LexicalIndex
    vectors: VectorIndex | None  # exact dense search over the lexical index's records, when available
    documents: DocumentIndex
    committed: dict[str, str]
    everything_committed: bool  # no document half-ingested: an unrestricted search needs no metadata filter


def reading_of(query: str, settings: SearchSettings) -> SearchQuery:
    """The query as search reads it (its information need when cleaning is on)."""
    if settings.clean_queries:
        return read_query(query)
    return SearchQuery(question=query, need=" ".join(query.split()))


def preferred_documents(
    indexes: Indexes, text: str, allowed: list[str], settings: SearchSettings
) -> dict[str, DocumentMatch]:
    """The documents the text names, among those allowed: within `document_share` of the best match, when the
    best is strong enough and few documents share it."""
    if settings.document_weight <= 0 or len(allowed) < 2:
        return {}
    scope = set(allowed)
    matches = [m for m in indexes.documents.match(text, settings.document_max + 1) if m.doc_id in scope]
    if not matches or matches[0].strength < settings.document_min_strength:
        return {}
    named = [m for m in matches if m.score >= settings.document_share]
    return {} if len(named) > settings.document_max else {m.doc_id: m for m in named}


def hybrid_search(
    indexes: Indexes,
    settings: SearchSettings,
    query: str,
    k: int = 8,
    docs: list[str] | None = None,
    variants: list[str] | None = None,
    neighbours: int = 0,
    mode: Mode = "hybrid",
) -> list[Hit]:
    """Top-k hits for the query (and its variants), restricted to `docs` when given. Stale chunks (of a document
    re-ingested meanwhile) are dropped by their content hash."""
    committed = indexes.committed
    allowed = sorted(committed if docs is None else set(docs) & set(committed))
    reading = reading_of(query, settings)
    queries = list(dict.fromkeys(q.strip() for q in [reading.text, *(variants or [])] if q and q.strip()))
    if not allowed or not queries or k <= 0:
        return []
    n = max(settings.candidates, 2 * k)
    preferred = preferred_documents(indexes, reading.text, allowed, settings)
    # Each ranking runs over every allowed document, then over the preferred ones alone: their chunks enter the
    # pool even when other documents word the question better.
    scopes: list[tuple[list[str] | None, float]] = [(None if docs is None else allowed, 1.0)]
    if preferred and len(preferred) < len(allowed):
        scopes.append((sorted(preferred), settings.preferred_rankings))
    pool: dict[str, Candidate] = {}
    if mode in ("hybrid", "dense") and indexes.embedder is not None:
        vectors = indexes.embedder.encode(queries)
        for scope, factor in scopes:
            for vector in vectors:
                _fuse_dense(pool, indexes, vector, n, scope, allowed, factor * settings.dense_weight, settings)
    if mode in ("hybrid", "lexical"):
        for scope, factor in scopes:
            for q in queries:
                found = indexes.lexical.search(q, n, scope)
                shares = _shares([score for _, score in found], settings, pad_to=n)
                for rank, ((position, score), share) in enumerate(zip(found, shares), 1):
                    record = indexes.lexical.records[position]
                    cand = pool.setdefault(record["chunk_id"], Candidate(record))
                    _add(cand, factor * settings.lexical_weight, rank, settings, lexical=score, share=share)
    term = defined_term(reading.need) if settings.definition_weight > 0 and mode != "dense" else ""
    if term:  # the passages that define the term, as one more ranking
        scope = None if docs is None else allowed
        found = [indexes.lexical.records[p] for p, _ in indexes.lexical.search(term, n, scope)]
        for rank, record in enumerate(defining_rank(found, term), 1):
            cand = pool.setdefault(record["chunk_id"], Candidate(record))
            cand.fused += settings.definition_weight / (settings.rrf_k + rank)
            cand.defines = term
    if settings.row_weight > 0 and mode == "hybrid":  # the candidates' table rows, read one by one
        ranked_rows = row_rank([c.record for c in pool.values()], reading.text, settings.row_threshold)
        _fuse_ranking(pool, [record for record, _ in ranked_rows], settings.row_weight, settings)
    ranks_years = settings.year_rows_weight > 0 and mode == "hybrid" and not asks_reason_or_name(reading.need)
    if ranks_years and (years := years_named(reading.text)):
        # Where a table states figures for the year asked: a statement's page, for a question naming the year. The
        # year is the period of the documents the question names, when it names some: only theirs are ranked.
        named = [r for r in _so_far(pool) if not preferred or r["doc_id"] in preferred]
        ranked_years = year_rank(named, years, settings.year_rows_min)
        for record, count in ranked_years:
            pool[record["chunk_id"]].year_rows = count
        _fuse_ranking(pool, [record for record, _ in ranked_years], settings.year_rows_weight, settings)
    if settings.hint_weight > 0 and reading.hints and mode == "hybrid":  # pages titled as the hint says
        ranked_hints = hint_rank(_so_far(pool), reading.hints, settings.hint_share)
        _fuse_ranking(pool, [record for record, _ in ranked_hints], settings.hint_weight, settings)
    if settings.identifier_weight > 0 and mode == "hybrid":  # the few passages holding a rare identifier named
        for holders in identifier_holders(_so_far(pool), reading.text, settings.identifier_chunks):
            _fuse_ranking(pool, holders, settings.identifier_weight, settings)
        scope = None if docs is None else allowed
        for holders in written_holders(indexes.lexical, reading.text, scope, settings.written_chunks):
            for record in holders:
                pool.setdefault(record["chunk_id"], Candidate(record))
            _fuse_ranking(pool, holders, settings.identifier_weight, settings)
    if settings.margin_weight > 0 and preferred and mode == "hybrid":
        _fuse_margins(pool, preferred, settings.margin_weight)
    for cand in pool.values():
        match = preferred.get(cand.record["doc_id"])
        if match is not None:  # the documents' ranking: every preferred document's chunks share its place
            cand.fused += settings.document_weight / (settings.rrf_k + 1)
            cand.document_score, cand.document_terms = match.score, match.terms
        if cand.record.get("kind") == "contents":  # found, but a pointer to the page that answers, not that page
            cand.fused *= settings.contents_factor
        elif cand.record["chunk_id"] in indexes.lexical.references:  # a reference list: names other works only
            cand.fused *= settings.reference_factor
    ranked = [c for _, c in sorted(pool.items(), key=lambda item: (-item[1].fused, item[0]))]
    ranked = rank_pages(ranked, k, settings.page_support) if settings.unit == "page" else new_pages_first(ranked, k)
    hits = [_hit(c, rank) for rank, c in enumerate(ranked, 1)]
    return _expand(hits, indexes.lexical, neighbours) if neighbours > 0 else hits


def _so_far(pool: dict[str, Candidate]) -> list[dict[str, Any]]:
    """The pool's records in their fused order so far (ties by chunk id, so a ranking built on it keeps that order)."""
    return [c.record for c in sorted(pool.values(), key=lambda c: (-c.fused, c.record["chunk_id"]))]


def identifier_holders(records: list[dict[str, Any]], query: str, most: int) -> list[list[dict[str, Any]]]:
    """For each identifier the query names (a code, a mixed-case or letter-digit name; not a period), the records
    that hold it as written, in the given order, when at most `most` do: a name so rare points to its passages,
    which fusion by ranks alone can leave below pages that hold its parts ("node", "copy") many times over."""
    out = []
    for word in dict.fromkeys(words(query)):
        word = without_possessive(word)
        if not is_identifier(word) or is_period(word):
            continue
        pattern = re.compile(rf"(?<![\w-]){re.escape(word)}(?![\w-])", re.IGNORECASE)
        holders = [r for r in records if pattern.search(r["text"])]
        if 0 < len(holders) <= most:
            out.append(holders)
    return out


# A format's escape as written ("%C": word search reads only "c"; "%c" is another escape), and a command's one-letter
# option ("-B": word search reads only "b"; "-b" is another option).
_ESCAPE = re.compile(r"(?<![\w%])%[A-Za-z](?![\w%])")
_SHORT_OPTION = re.compile(r"(?<![\w-])-[A-Za-z](?![\w-])")


def _written_forms(query: str) -> list[tuple[re.Pattern[str], re.Pattern[str] | None]]:
    """How the query's markup elements (by their tag), format escapes and one-letter options are written in a text;
    for an escape or an option, also how its own entry opens with it ("... %C Hash of ...", "... -B [when ...] save
    a backup ...", "-B, --backup Save ...")."""
    escapes = [
        (re.compile(rf"(?<![\w%]){e}(?![\w%])"), re.compile(rf"(?:^|[.:;]\s+|\n){e}\s+[A-Za-z]"))
        for e in dict.fromkeys(_ESCAPE.findall(query))
    ]
    options = [
        (re.compile(rf"(?<![\w-]){o}(?![\w-])"), re.compile(rf"(?:^|[.:;]\s+|\n){o}(?:,\s+--?\w|\s+[\[<A-Za-z])"))
        for o in dict.fromkeys(_SHORT_OPTION.findall(query))
    ]
    return [*((tag_pattern(tag), None) for tag in markup_tags(query)), *escapes, *options]


def written_holders(lexical: LexicalIndex, query: str, docs: list[str] | None, most: int) -> list[list[dict[str, Any]]]:
    """For each markup element the query names in angle brackets and each format escape it writes ("%C"), the
    records of the store that hold it as written, best on BM25 for the query first, when at most `most` do. Word
    search reads "<include>" as the common word "include", which every other document uses too, and "%C" as a
    letter: the written form is where the thing is written about."""
    out = []
    for pattern, entry in _written_forms(query):
        positions = lexical.holding(pattern, docs)
        if 0 < len(positions) <= most:
            ranked = [p for p, _ in lexical.search(query, len(positions), within=positions)]
            ranked += [p for p in positions if p not in ranked]
            if entry is not None:  # the entries explaining an escape, not the lists naming it
                ranked = [p for p in ranked if entry.search(lexical.records[p]["text"])] or ranked
            out.append([lexical.records[p] for p in ranked])
    return out


def _fuse_ranking(
    pool: dict[str, Candidate], records: list[dict[str, Any]], weight: float, settings: SearchSettings
) -> None:
    """One more ranking of pool candidates, fused by its reciprocal ranks."""
    for rank, record in enumerate(records, 1):
        pool[record["chunk_id"]].fused += weight / (settings.rrf_k + rank)


def _fuse_margins(pool: dict[str, Candidate], preferred: dict[str, DocumentMatch], weight: float) -> None:
    """The BM25 score of each candidate of a named document, as a share of the best candidate's, added to its fused
    score: within the document a question names, a chunk far ahead on BM25 holds the question's precise terms (a
    method's or a table's name) where others hold a few. Its lead is measured against the whole pool, where fusion
    measures each ranking (every document's, the named ones') on its own."""
    best = max((c.lexical_score or 0.0 for c in pool.values()), default=0.0)
    if best <= 0:
        return
    for cand in pool.values():
        if cand.lexical_score and cand.record["doc_id"] in preferred:
            cand.fused += weight * cand.lexical_score / best


def _fuse_dense(
    pool: dict[str, Candidate],
    indexes: Indexes,
    vector: Any,
    n: int,
    scope: list[str] | None,
    allowed: list[str],
    weight: float,
    settings: SearchSettings,
) -> None:
    if indexes.vectors is not None:  # exact: every committed chunk, in a stable order
        lexical = indexes.lexical
        rows = None
        if scope is not None:
            parts = [lexical.by_doc[d] for d in scope if d in lexical.by_doc]
            rows = np.sort(np.concatenate(parts)) if parts else np.array([], dtype=int)
        found = indexes.vectors.search(vector, n, rows)
        shares = _shares([sim for _, sim in found], settings)
        for rank, ((position, sim), share) in enumerate(zip(found, shares), 1):
            record = lexical.records[position]
            _add(pool.setdefault(record["chunk_id"], Candidate(record)), weight, rank, settings, dense=sim, share=share)
        return
    unfiltered = scope is None and indexes.everything_committed
    results = [
        r
        for r in indexes.store.query(vector, n, None if unfiltered else scope or allowed)
        if r[3].get("content_hash") == indexes.committed.get(r[3]["doc_id"])
    ]
    shares = _shares([r[1] for r in results], settings)
    for rank, ((cid, sim, text, meta), share) in enumerate(zip(results, shares), 1):
        position = indexes.lexical.position.get(cid)
        record = indexes.lexical.records[position] if position is not None else record_from(cid, text, meta)
        _add(pool.setdefault(cid, Candidate(record)), weight, rank, settings, dense=sim, share=share)


def _add(
    cand: Candidate,
    weight: float,
    rank: int,
    settings: SearchSettings,
    dense: float | None = None,
    lexical: float | None = None,
    share: float | None = None,
) -> None:
    if share is None or settings.fusion == "ranks":
        cand.fused += weight / (settings.rrf_k + rank)
    else:  # a share of a first place's reciprocal rank, on the scale of the rankings fused by rank
        cand.fused += weight * share / (settings.rrf_k + 1)
    if dense is not None and (cand.dense_rank is None or rank < cand.dense_rank):
        cand.dense_rank, cand.dense_score = rank, dense
    if lexical is not None and (cand.lexical_rank is None or rank < cand.lexical_rank):
        cand.lexical_rank, cand.lexical_score = rank, lexical


def _shares(scores: list[float], settings: SearchSettings, pad_to: int = 0) -> list[float]:
    """Each score of one ranking as a share of a first place: its standard score among the ranking's candidates
    over `score_scale`, none below the mean nor above one. A ranking's scores say how far its leaders stand out (one
    passage far ahead on BM25, or none ahead), which its ranks hide. BM25 finds only the passages holding a query
    term: `pad_to` counts the rest of its candidates as scoring 0, so a lone match stands out as it should."""
    if not scores:
        return []
    values = np.asarray(scores + [0.0] * max(0, pad_to - len(scores)), dtype=float)
    spread = float(values.std()) or 1.0
    shares = np.clip((values - values.mean()) / spread / settings.score_scale, 0.0, 1.0)
    return shares[: len(scores)].tolist()


def _hit(cand: Candidate, rank: int, neighbour_of: str | None = None) -> Hit:
    r = cand.record
    return Hit(
        chunk_id=r["chunk_id"],
        doc_id=r["doc_id"],
        start_page=r["start_page"],
        end_page=r["end_page"],
        section=r["section"],
        title=r.get("title", ""),
        text=r["text"],
        head=r.get("head", ""),
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
        ocr=bool(r.get("ocr", False)),
        document_score=cand.document_score,
        document_terms=cand.document_terms,
        page_chunks=cand.page_chunks,
        defines=cand.defines,
        year_rows=cand.year_rows,
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
            out.append(_hit(Candidate(record), hit.rank, neighbour_of=hit.chunk_id))
    return out
