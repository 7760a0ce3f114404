"""Stand-ins: a plain word of the question that no evidence sentence holds is matched by the evidence's words
nearest to it in meaning ("selected" by "chosen", "capital expenditure" by "capital spending"), each word embedded
once per model and kept in a bounded cache."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any
from weakref import WeakKeyDictionary

import numpy as np

from agent.evidence import names_covered
from agent.intent import content_terms
from agent.settings import AnswerSettings
from kb.text import STOPWORDS, is_identifier, squashed, tokenize

_WORD = re.compile(r"\b[a-z]{4,20}\b")


def stand_ins_for(
    asked: str,
    aliases: dict[str, list[str]],
    items: list[tuple[int, int, str, str, set[str]]],
    embed: Callable[[list[str]], np.ndarray] | None,
    s: AnswerSettings,
) -> dict[str, list[str]]:
    """Each plain word of the question that no candidate sentence holds (by itself or an alias), with the
    candidates' words most like it in meaning, as its aliases: the evidence says "chosen" where the question says
    "selected". Identifiers and figures must appear as written, so they get none."""
    if embed is None or not s.stand_in_likeness or not items:
        return {}
    tokens, flat = set().union(*(c[4] for c in items)), squashed([c[3] for c in items])
    terms = content_terms(asked)
    missing = [
        t
        for t in terms
        if t.isalpha() and not is_identifier(t) and not names_covered([t, *aliases.get(t, [])], tokens, flat)
    ]
    if not missing:
        return {}
    asked_tokens = set(tokenize(asked))
    # A word the tokenizer drops would count as held by every sentence, and a form of the question's own words
    # stands for nothing else: neither is a stand-in.
    candidates = {w for c in items for w in _WORD.findall(c[3].lower())} - STOPWORDS
    words = sorted(w for w in candidates if (toks := set(tokenize(w))) and not toks <= asked_tokens)
    words = words[: s.stand_in_words]
    if not words:
        return {}
    vectors = _word_vectors([t.lower() for t in missing] + words, embed)
    likeness = vectors[: len(missing)] @ vectors[len(missing) :].T
    found = {t: [words[j] for j in np.flatnonzero(likeness[i] >= s.stand_in_likeness)] for i, t in enumerate(missing)}
    return {t: [*aliases.get(t, []), *near] for t, near in found.items() if near}


# Single words' vectors, per embedding model's owner: questions about the same documents meet the same words, and
# embedding a few hundred of them costs more than the rest of the answer. Emptied when it would pass the bound.
_WORD_VECTORS: WeakKeyDictionary[Any, dict[str, np.ndarray]] = WeakKeyDictionary()
_CACHED_WORDS = 30_000  # about 46 MB of 384-dimension vectors


def _word_vectors(words: list[str], embed: Callable[[list[str]], np.ndarray]) -> np.ndarray:
    owner = getattr(embed, "__self__", None)  # a knowledge base's bound method; a plain function is not cached
    try:
        cache = _WORD_VECTORS.setdefault(owner, {}) if owner is not None else None
    except TypeError:  # an owner that cannot be weakly referenced
        cache = None
    if cache is None:
        return embed(words)
    # What this call reads is taken from the cache once: another session may empty it meanwhile.
    have = {w: v for w in dict.fromkeys(words) if (v := cache.get(w)) is not None}
    new = [w for w in dict.fromkeys(words) if w not in have]
    fresh = dict(zip(new, embed(new))) if new else {}
    if len(cache) + len(fresh) > _CACHED_WORDS:
        cache.clear()
    cache.update(fresh)
    have.update(fresh)
    return np.array([have[w] for w in words])
