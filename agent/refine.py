"""Rule-based query refinement: the strategy follows from the check that failed."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from agent.intent import content_terms
from agent.settings import RefineSettings
from agent.types import Assessment, Proposal
from kb.text import STOPWORDS

# (query, k, docs, mode) -> hits as dicts; the agent's only door into the knowledge base.
SearchFn = Callable[..., list[dict[str, Any]]]

_ACRONYM = re.compile(r"^[A-Z][A-Za-z0-9]*[A-Z0-9]$")


def _initials_match(words: list[str], acronym: str) -> bool:
    letters = [c.lower() for c in acronym if c.isalpha()]
    initials = [w[0].lower() for w in words if w.lower() not in STOPWORDS]
    if not letters or len(initials) < 2:
        return False
    # Allow compounds ("byte-pair" -> b, p) and skipped minor words: match the letters in order.
    flat = [p[0].lower() for w in words if w.lower() not in STOPWORDS for p in re.split(r"[-/]", w) if p]
    return initials == letters or flat == letters


def find_expansion(acronym: str, texts: list[str]) -> str | None:
    """The long form defined for `acronym` in the texts, as in "Long Form (LF)" or "LF (Long Form)"."""
    esc = re.escape(acronym)
    for text in texts:
        for m in re.finditer(rf"((?:[\w-]+\s+){{1,8}}?)\(\s*{esc}s?\s*\)", text):
            words = m.group(1).split()
            for n in range(2, min(len(words), 8) + 1):
                if _initials_match(words[-n:], acronym):
                    return " ".join(words[-n:])
        for m in re.finditer(rf"\b{esc}\s*\(([^()]{{3,80}})\)", text):
            words = m.group(1).split()
            if _initials_match(words, acronym):
                return " ".join(words)
    return None


def find_contraction(question: str, texts: list[str]) -> tuple[str, str] | None:
    """(long form, acronym) when the question spells out a term the store abbreviates."""
    low = question.lower()
    for text in texts:
        for m in re.finditer(r"((?:[\w-]+\s+){1,8}?)\(\s*([A-Z][A-Za-z0-9]{1,9})s?\s*\)", text):
            words, acronym = m.group(1).split(), m.group(2)
            for n in range(2, min(len(words), 8) + 1):
                long_form = " ".join(words[-n:])
                if _initials_match(words[-n:], acronym) and long_form.lower() in low and acronym not in question:
                    return long_form, acronym
    return None


def _join(*parts: str) -> str:
    return " ".join(" ".join(p.split()) for p in parts if p and p.strip())


def _broaden(state: dict[str, Any], tried: set[str], most: int) -> str | None:
    """Fewer, stronger terms: identifiers first, then the remaining key terms, dropping from the end. A comparison
    keeps both its topics whole and drops only the other terms."""
    terms = state.get("key_terms", [])
    topics = state.get("topics") or [] if state.get("intent") == "compare" else []
    if topics:
        rest = [t for t in terms if not any(t.lower() in topic.lower() for topic in topics)]
        for n in range(min(len(rest), most), -1, -1):
            query = " ".join([*topics, *rest[:n]])
            if query.lower() not in tried:
                return query
        return None
    for n in range(min(len(terms), most), 0, -1):
        query = " ".join(terms[:n])
        if query.lower() not in tried:
            return query
    return None


def propose(
    state: dict[str, Any], search: SearchFn, settings: RefineSettings | None = None, probes: int | None = None
) -> Proposal | None:
    """The next query (or per-topic queries) with its strategy and reasons; None when nothing new is left to try.

    `probes` caps the extra knowledge-base lookups (acronym definitions) this refinement may spend (by default
    the settings' `probes`).
    """
    s = settings or RefineSettings()
    probes = s.probes if probes is None else probes
    a = Assessment.model_validate(state["assessment"])
    current = state["query"]
    tried = {q.lower() for q in state.get("queries_tried", [])}
    failing = a.failing
    reasons = [r.detail for r in a.reasons if not r.ok]
    calls = 0

    def result(
        strategy: str, query: str, queries: list[str] | None = None, alias: dict[str, str] | None = None
    ) -> Proposal:
        return Proposal(
            alias=alias or {},
            previous=current,
            query=query,
            queries=queries or [],
            strategy=strategy,
            reasons=reasons,
            tool_calls=calls,
        )

    if failing in ("topics_covered", "topic_diversity") and state.get("topics"):
        topics = state["topics"]
        shared = [
            t for t in content_terms(state["question"]) if not any(t.lower() in topic.lower() for topic in topics)
        ][: s.shared_terms]
        queries = [_join(topic, *shared) for topic in topics]
        if " || ".join(queries).lower() not in tried:
            return result("split_topics", " || ".join(queries), queries)

    missing = [*a.missing_identifiers, *a.missing_terms]
    new_terms = [t for t in missing if t.lower() not in current.lower()]
    if failing in ("identifiers_covered", "key_terms_covered") and new_terms:
        query = _join(current, *new_terms)
        if query.lower() not in tried:
            return result("add_terms", query)

    acronyms = [t for t in missing if _ACRONYM.match(t)] or [
        t for t in state.get("identifiers", []) if _ACRONYM.match(t)
    ]
    for acronym in acronyms[: max(0, probes)]:
        hits = search(acronym, k=s.probe_k, mode="lexical")
        calls += 1
        long_form = find_expansion(acronym, [h["text"] for h in hits])
        if long_form and long_form.lower() not in current.lower():
            query = _join(current, long_form)
            if query.lower() not in tried:
                return result("expand_acronym", query, alias={acronym: long_form})
    if not acronyms and probes > 0:
        hits = search(" ".join(state.get("key_terms", [])[: s.broaden_terms]) or current, k=s.probe_k, mode="lexical")
        calls += 1
        pair = find_contraction(state["question"], [h["text"] for h in hits])
        if pair:
            query = _join(current, pair[1])
            if query.lower() not in tried:
                return result("contract_acronym", query, alias={pair[1]: pair[0]})

    query = _broaden(state, tried, s.broaden_terms)
    if query:
        return result("broaden", query)
    return None
