"""What leads an extractive answer: the sentence that does what the question asks, a definition of the term asked
about, the announcement of the things listed, a default stated for what is asked, a cause asked why, scores above
sentences that only share its words."""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from agent.defaults import Place, asks_default, placed_defaults, states_default
from agent.evidence import is_evidence, titles_read, untitled, written_code, written_in
from agent.intent import content_terms
from agent.readable import announces_listed, asks_why, listed_noun, states_cause
from agent.settings import AnswerSettings
from agent.value_questions import measured_phrase
from kb.definitions import defined_term, defines
from kb.text import is_identifier, squashed


def lead_factors(
    question: str,
    intent: str,
    texts: list[str],
    s: AnswerSettings,
    context: list[dict[str, Any]],
    stated: list[tuple[Place, str]] | None = None,
) -> np.ndarray:
    """Lead with what answers: each sentence's score factor for defining the term a definition question asks about,
    for announcing a list of the things a "which Xs" question asks for, for stating a default asked for beside
    its name or within its entry (`stated`, see `defaults_stated`) and for counting what a "how many" question
    counts (`lead_bonus`), and, asked why, for giving a cause or a purpose (`cause_bonus`)."""
    term = defined_term(question) if intent == "definition" else ""
    # A word the question quotes is a term it asks about ("which errors count as 'transient'?"): a sentence defining
    # it, or it with the noun after it ("Transient error means ..."), says what the question asks.
    quoted = [] if term else _QUOTED.findall(question)
    noun = listed_noun(question)
    why = asks_why(question)
    # A default stated beside the thing asked about ("QzMode ... (the default)") or further on in its entry
    # ("QzMode= Sets ... Defaults to 48K."), not another entry's.
    codes = written_code(question)
    names = _named(question)
    named = [re.compile(rf"(?<![\w-]){re.escape(n)}(?![\w-])", re.I) for n in names if n not in codes]
    default = asks_default(question)
    flat_stated = [squashed([d]) for _, d in (defaults_stated(question, context) if stated is None else stated)]
    counting = _counting(question)
    return np.array(
        [
            (1.0 + s.lead_bonus * (min(1, defines(t, term)) if term else 0))
            * (1.0 + s.lead_bonus * bool(counting and counting.search(t)))
            * (1.0 + s.lead_bonus * any(_defines_quoted(t, q) for q in quoted))
            * (1.0 + s.lead_bonus * announces_listed(t, noun))
            * (
                1.0
                + s.lead_bonus
                * (
                    default
                    and states_default(t)
                    and (
                        any(n.search(t) for n in named)
                        or any(written_in(c, t) for c in codes)
                        or any(d in flat or flat in d for d in flat_stated)
                    )
                )
            )
            * (1.0 + s.cause_bonus * (why and states_cause(t)))
            for t, flat in zip(texts, [squashed([t]) for t in texts], strict=True)
        ]
    )


def defaults_stated(question: str, context: list[dict[str, Any]]) -> list[tuple[Place, str]]:
    """Asked for a default, the sentences stating one in the entry of what the question names, with their places
    (see `agent.defaults.placed_defaults`); else none."""
    if not asks_default(question):
        return []
    names = _named(question)
    evidence = [c for c in context if is_evidence(c)]
    subject = untitled(names, titles_read(evidence)) or names
    return placed_defaults(subject, evidence, question=question)[0] if subject else []


def _named(question: str) -> list[str]:
    """What the question names: its identifiers and the code it writes."""
    return [t for t in content_terms(question) if is_identifier(t)] + written_code(question)


# A term in quotes: after a space or the start, closed before a space or a stop ("don't" is no quote).
_QUOTED = re.compile(r"""(?:(?<=\s)|^)['"‘“]([A-Za-z][\w -]{1,40}?)['"’”](?=[\s?.,!:;)]|$)""")


def _defines_quoted(text: str, term: str) -> bool:
    """The text defines the quoted term, or the term and the word after it where the text opens with them."""
    after = re.match(rf"(?i)(?:the\s+)?{re.escape(term)}\s+([a-z]+)", text)
    return bool(defines(text, term) or (after and defines(text, f"{term} {after.group(1)}")))


def _counting(question: str) -> re.Pattern[str] | None:
    """Asked "how many lines ...": a figure with the counted noun ("the limit is 340 lines", "up to 5 lines"), the
    noun singular or plural and a word between allowed ("32 nested levels")."""
    counted = measured_phrase(question) if re.search(r"\bhow\s+many\b", question, re.I) else ""
    noun = counted.split()[-1].lower() if counted else ""
    if len(noun) < 3:
        return None
    forms = "|".join(re.escape(f) for f in {noun, *_singulars(noun)})
    return re.compile(rf"(?<![\w.])\d[\d,]*(?:\s+[A-Za-z-]+)?\s+(?:{forms})(?:e?s)?\b", re.I)


def _singulars(noun: str) -> list[str]:
    """The singulars a plural may have ("entries": entry; "processes": process or processe; "caches": cache)."""
    if noun.endswith("ies"):
        return [noun[:-3] + "y"]
    if re.search(r"(?:s|x|z|ch|sh)es$", noun):
        return [noun[:-2], noun[:-1]]
    return [noun[:-1]] if noun.endswith("s") and not noun.endswith("ss") else []
