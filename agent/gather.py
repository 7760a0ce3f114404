"""How a round's search results become evidence: each hit with the other matching chunks of its page, the words
that finish a sentence its chunk cuts off, the rest of an entry of what is asked that goes on past its chunk, the row
searches a ratio the question states needs, and the merge into the evidence gathered so far."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from agent.arithmetic import missing_operands
from agent.entries import entry_walk, goes_on, heads_entry, open_run
from agent.evidence import is_evidence, named_documents, names_subject, titles_read, untitled, whole_text
from agent.refine import SearchFn
from agent.settings import AgentSettings
from agent.types import Evidence, dump
from kb.sentences import reads_on, run_on, sentences

ChunkReader = Callable[[str], dict[str, Any] | None]  # a chunk id -> a chunk as a hit-shaped dict, or None


@dataclass(frozen=True)
class Readers:
    """The knowledge base's chunk readers: a chunk by its id, and the chunk after it in its document."""

    chunk: ChunkReader
    following: ChunkReader


def with_page_chunks(
    hits: list[dict[str, Any]], query: str, readers: Readers, many: int | None
) -> list[dict[str, Any]]:
    """The hits as evidence, each followed by up to `many` (None: all) other matching chunks of its page."""
    out = []
    for h in hits:
        out.append(dump(Evidence(**h, query=query, **_after(h, readers.following))))
        for cid in h.get("page_chunks", [])[:many]:
            more = readers.chunk(cid)
            if more is not None:
                # It counts as its page's evidence: the page's rank and dense score, not a strength of its own.
                page = {"rank": h["rank"], "dense_score": h.get("dense_score"), "neighbour_of": h["chunk_id"]}
                out.append(dump(Evidence(**{**more, **page}, query=query, **_after(more, readers.following))))
    return out


def entry_rests(
    results: list[dict[str, Any]], subject: list[str], aliases: dict[str, list[str]], readers: Readers, many: int
) -> list[dict[str, Any]]:
    """The chunk after each of the first `many` results that ends inside the entry of something the question names
    (`subject`: its identifiers and the code it writes, not a document's title), when that chunk goes on with the
    entry: a reference's entry ends with what holds unless set ("Defaults to 48K."), its limits and caveats, often
    past the chunk the search found. Each joins the evidence as its hit's page chunks do."""
    subject = untitled(subject, titles_read(results))
    if not subject or not many:
        return []
    names = [[s, *aliases.get(s, [])] for s in subject]
    seen = {h["chunk_id"] for h in results}
    out: list[dict[str, Any]] = []
    for hit in results:
        if len(out) >= many:
            break
        if not is_evidence(hit) or not goes_on(hit.get("next_opening", ""), subject):
            continue
        walked, open_at_end = entry_walk(whole_text(hit), subject, lambda s: any(names_subject(n, s) for n in names))
        # The entry open at the end is the subject's own, opening with its name ("QzLineMax= The longest ..."), not
        # prose that mentions it in passing, which no entry's end closes.
        run, _ = open_run(walked)  # a passing mention may come just before it
        headed = open_at_end and heads_entry(run, [name for ns in names for name in ns])
        rest = readers.following(hit["chunk_id"]) if headed else None
        if rest is None or rest["chunk_id"] in seen:
            continue
        seen.add(rest["chunk_id"])
        page = {"rank": hit["rank"], "dense_score": hit.get("dense_score"), "neighbour_of": hit["chunk_id"]}
        out.append(dump(Evidence(**{**rest, **page}, query=hit["query"], **_after(rest, readers.following))))
    return out


_OPENING_CHARS = 400  # enough for an entry's opening sentence


def _after(hit: dict[str, Any], following: ChunkReader) -> dict[str, str]:
    """What the chunk after the hit's says of it: the words that finish the sentence the hit's chunk stops in (see
    kb.sentences.run_on), read only when it does or when it ends announcing a list ("... three classes of errors:"),
    whose items may open the next chunk; and the next chunk's first whole sentence (`next_opening`). The next chunk's
    section label is not compared: a two-column page's sentence runs on past a heading the other column set; a next
    chunk opening with a heading continues nothing (see kb.sentences.run_on)."""
    after = following(hit["chunk_id"])
    if after is None:
        return {"runs_on": "", "next_opening": ""}
    runs_on = run_on(hit["text"], after["text"]) if reads_on(hit["text"]) else ""
    # Past the rest of a sentence the hit's chunk cut; only the chunk's opening is split (its first words tell).
    opening = sentences(after["text"][: len(runs_on) + _OPENING_CHARS])[1 if runs_on else 0 :]
    return {"runs_on": runs_on, "next_opening": opening[0] if opening else ""}


def operand_probes(
    state: dict[str, Any], results: list[dict[str, Any]], search: SearchFn, s: AgentSettings
) -> dict[str, list[dict[str, Any]]]:
    """{search: hits} for each row of a formula the question states that no evidence row gives for its year,
    searched in the document the question names (else the best hit's): the ratio's inputs are cited, not guessed."""
    if not s.operand_k or not results:
        return {}
    # The rows the answer step will see: its context's share of the evidence, best ranks first (as context_of reads
    # them, but for its putting the subject's documents first, which the assessment after this retrieval decides).
    usable = sorted((h for h in [*state.get("evidence", []), *results] if is_evidence(h)), key=lambda h: h["rank"])
    known = [{"key": h["chunk_id"], "text": h["text"]} for h in usable[: s.answer.context_size]]
    docs = sorted(named_documents(results)) or [results[0]["doc_id"]]
    left = s.max_tool_calls - state["counters"]["tool_calls"] - len(state.get("queries") or [state["query"]])
    tried = {q for r in state.get("rounds", []) for q in r.get("queries", [])}  # a row not found is not sought again
    wanted = [q for q in missing_operands(state["question"], known, s.answer.row_label_share) if q not in tried]
    wanted = wanted[: max(0, left)]
    # A row is found by its label's words (the lexical ranking): the dense one favours prose about the subject.
    return {probe: search(probe, k=s.operand_k, docs=docs, mode="lexical") for probe in wanted}


def merged(
    evidence: list[dict[str, Any]], results: list[dict[str, Any]], number: int
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(the evidence with the round's new chunks added, marked with the round's number; the round's hits, each
    marked new or not). A chunk two of the round's searches find enters as its better-ranked hit, with the query
    and scores that ranked it so: a row search's page, found lower by the question's search, is as close to the top
    as the rows sought beside it."""
    best: dict[str, dict[str, Any]] = {}
    for hit in results:
        if hit["chunk_id"] not in best or hit["rank"] < best[hit["chunk_id"]]["rank"]:
            best[hit["chunk_id"]] = hit
    seen = {h["chunk_id"] for h in evidence}
    evidence, hits = list(evidence), []
    for hit in results:
        new = hit["chunk_id"] not in seen
        if new:
            seen.add(hit["chunk_id"])
            evidence.append({**best[hit["chunk_id"]], "round": number})
        hits.append({**hit, "new": new})
    return evidence, hits
