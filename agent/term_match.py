"""How well each candidate sentence of an extractive answer matches the question's terms: the share of its concepts
(a term or any of its aliases, identifiers weighing more) a sentence names, weighted by rarity among the candidates,
a term named only as part of something longer counting a part of one."""

from __future__ import annotations

import re

import numpy as np

from agent.evidence import is_path, names_covered, written_code, written_in
from agent.intent import content_terms
from kb.text import is_identifier, markup_tags, tag_pattern


def _concepts(question: str, aliases: dict[str, list[str]], weight: float) -> list[tuple[list[str], float]]:
    """The question's terms as concepts (a term or any of its aliases), identifiers (and elements named by their
    tag, as specific) weighing `weight`."""
    tags = set(markup_tags(question))
    specific = {t: is_identifier(t) or t.casefold() in tags for t in content_terms(question)}
    return [([t, *aliases.get(t, [])], weight if named else 1.0) for t, named in specific.items()]


def lexical_scores(
    question: str,
    aliases: dict[str, list[str]],
    pool: list[tuple[set[str], str]],
    weight: float = 1.5,
    texts: list[str] | None = None,
    part: float = 1.0,
    code_weight: float | None = None,
) -> np.ndarray:
    """Share of the question's concepts each sentence covers, weighted by rarity among the candidates. A term the
    sentence names only as part of something else counts `part` of one (see `named_apart`)."""
    concepts = _concepts(question, aliases, weight)
    # Code written as typed ("--retries", "%Q") is a concept of its own, found only as written, weighing `code_weight`;
    # a path's words are its concepts already ("/var/qz" is "var" and "qz"), a pattern's may be none ("q/**/z").
    codes = [c for c in written_code(question) if not is_path(c)] if texts is not None else []
    if not (concepts or codes) or not pool:
        return np.zeros(len(pool))
    hits = np.array([[names_covered(names, toks, flat) for names, _ in concepts] for toks, flat in pool], dtype=float)
    if codes:
        concepts = [*concepts, *(([c], weight if code_weight is None else code_weight) for c in codes)]
        hits = np.hstack([hits, np.array([[written_in(c, t) for c in codes] for t in texts], dtype=float)])
    tags = {name: tag_pattern(name) for name in markup_tags(question)}
    if texts is not None and part < 1.0:
        for n, text in enumerate(texts):
            for j, (names, _) in enumerate(concepts):
                if hits[n, j] and named_apart(names[0], text, tags.get(names[0].casefold())):
                    hits[n, j] = part
    idf = np.log(1 + len(pool) / (1 + hits.sum(axis=0)))
    weights = idf * np.array([w for _, w in concepts])
    return hits @ weights / weights.sum() if weights.sum() else np.zeros(len(pool))


def named_apart(term: str, text: str, tag: re.Pattern[str] | None = None) -> bool:
    """Whether the text names the term only as part of something else: an element the question writes as a tag
    ("<include>") only as the bare word, or any term only as a segment of a longer path."""
    return (tag is not None and not tag.search(text)) or inside_longer(term, text)


def inside_longer(term: str, text: str) -> bool:
    """Whether the text names the term only as a segment of a longer path ("gate" in "/srv/gate/log" or "/opt/gate"):
    the path names something else. A word inside a longer word or a hyphenated name is left to the tokenizer's
    reading."""
    found = [m.span() for m in re.finditer(rf"(?<!\w){re.escape(term)}(?!\w)", text, re.IGNORECASE)]
    return bool(found) and all(_PATH_BEFORE.search(text[:a]) or _PATH_AFTER.match(text[b:]) for a, b in found)


_PATH_BEFORE = re.compile(r"\w/$")  # "/opt/" before "gate"
_PATH_AFTER = re.compile(r"/\w")  # "/log" after "gate"
