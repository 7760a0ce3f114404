"""Answers without an LLM: the evidence sentences most relevant to the question, each one cited."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import numpy as np

from agent.assess import is_evidence, squashed, term_covered, topic_hits
from agent.intent import content_terms, is_identifier
from kb.lexical import tokenize
from kb.references import is_citation

# Common abbreviations that end in a period but do not end a sentence.
_ABBREV = re.compile(r"\b(?:e\.g|i\.e|et al|etc|vs|fig|figs|eq|eqs|sec|no|approx|cf|resp|ca|dr|mr|ms)\.$", re.I)
_NUMBERED_HEADING = re.compile(r"^(?:\d+(?:\.\d+)*\.?|[A-Z]\.\d*|[IVX]+\.)\s+[A-Z]")
_SPLIT = re.compile(r"(?<=[.!?])\s+(?=[\"'(“]?[A-Z0-9])")


def sentences(text: str) -> list[str]:
    """Sentences of a chunk; each table row ("a | b | c") stands alone."""
    out: list[str] = []
    prose: list[str] = []

    def flush() -> None:
        joined = re.sub(r"-\s+(?=[a-z])", "", " ".join(prose)) if prose else ""
        pending = ""
        for piece in _SPLIT.split(joined):
            pending = f"{pending} {piece}".strip() if pending else piece
            if not _ABBREV.search(pending):
                out.append(pending)
                pending = ""
        if pending:
            out.append(pending)
        prose.clear()

    for line in text.splitlines():
        line = line.strip()
        if not line:
            continue
        if " | " in line:
            flush()
            out.append(line)
        elif _NUMBERED_HEADING.match(line) and len(line.split()) <= 10 and line[-1] not in ".,;:":
            flush()  # a section heading is not part of the sentence that follows it
        else:
            prose.append(line)
    flush()
    return [s for s in (x.strip() for x in out) if s]


def _concepts(question: str, aliases: dict[str, list[str]]) -> list[tuple[list[str], float]]:
    """The question's terms as concepts (a term or any of its aliases), identifiers weighing more."""
    return [([term, *aliases.get(term, [])], 1.5 if is_identifier(term) else 1.0) for term in content_terms(question)]


def _covers(names: list[str], tokens: set[str], flat: str) -> bool:
    return any(all(term_covered(w, tokens, flat) for w in name.split()) for name in names)


def _lexical_scores(question: str, aliases: dict[str, list[str]], pool: list[tuple[set[str], str]]) -> np.ndarray:
    """Share of the question's concepts each sentence covers, weighted by rarity among the candidates."""
    concepts = _concepts(question, aliases)
    if not concepts or not pool:
        return np.zeros(len(pool))
    hits = np.array([[_covers(names, toks, flat) for names, _ in concepts] for toks, flat in pool], dtype=float)
    idf = np.log(1 + len(pool) / (1 + hits.sum(axis=0)))
    weights = idf * np.array([w for _, w in concepts])
    return hits @ weights / weights.sum() if weights.sum() else np.zeros(len(pool))


_HEADING_LINE = re.compile(r"^(?:\d+(?:\.\d+)*\.?\s+)?[A-Z][^.!?]{0,80}$")


def compose(
    question: str,
    intent: str,
    topics: list[str],
    context: list[dict[str, Any]],
    max_sentences: int,
    embed: Callable[[list[str]], np.ndarray] | None = None,
    aliases: dict[str, list[str]] | None = None,
) -> str:
    """A cited answer from the context items (each with `key` and `text`), or '' when nothing relevant.

    Sentences are ranked by similarity to the question (embeddings when available) and by the question's
    terms they contain, weighted by rarity; near-duplicates are skipped.
    """
    items: list[tuple[int, int, str, str, set[str]]] = []  # item, sentence index, key, text, tokens
    for i, item in enumerate(context):
        if not is_evidence(item):
            continue
        for j, sentence in enumerate(sentences(item["text"])):
            words = len(sentence.split())
            if is_citation(sentence):
                continue
            if len(sentence) < 25 or words < 5 or (words <= 10 and _HEADING_LINE.match(sentence)):
                continue  # headings and fragments read badly as answers
            items.append((i, j, item["key"], sentence, set(tokenize(sentence))))
    if not items:
        return ""
    lexical = _lexical_scores(question, aliases or {}, [(c[4], squashed([c[3]])) for c in items])
    if embed is not None:
        vectors = embed([question] + [c[3] for c in items])
        dense = np.clip(vectors[1:] @ vectors[0], 0.0, 1.0)
        scores = 0.6 * dense + 0.4 * lexical
    else:
        scores = lexical
    lengths = np.array([len(c[3].split()) for c in items])
    scores = scores * np.where(lengths <= 70, 1.0, 0.7) / (1.0 + 0.02 * np.array([c[0] for c in items]))
    order = sorted(range(len(items)), key=lambda n: (-scores[n], items[n][0], items[n][1]))
    floor = 0.5 * scores[order[0]]
    chosen: list[int] = []

    def take(pool: list[int], limit: int) -> None:
        for n in pool:
            if len(chosen) >= limit:
                return
            if n in chosen or scores[n] < floor or lexical[n] == 0:
                continue
            if any(_jaccard(items[n][4], items[m][4]) > 0.6 for m in chosen):
                continue
            chosen.append(n)

    if intent == "compare" and topics:
        per_topic = max(1, max_sentences // len(topics))
        for topic in topics:
            keys = {h["key"] for h in topic_hits(topic, context)}
            take([n for n in order if items[n][2] in keys], len(chosen) + per_topic)
    take(order, max_sentences)
    if intent in ("procedure", "compare"):
        chosen.sort(key=lambda n: (items[n][0], items[n][1]))  # document order reads as steps / topic by topic
    return " ".join(f"{_terminated(items[n][3])} [{items[n][2]}]" for n in chosen)


def _terminated(sentence: str) -> str:
    return sentence if sentence[-1] in ".!?" else f"{sentence}."


def _jaccard(a: set[str], b: set[str]) -> float:
    return len(a & b) / len(a | b) if a and b else 0.0
