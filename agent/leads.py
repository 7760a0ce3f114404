"""What leads an extractive answer: the sentence that does what the question asks, a definition of the term asked
about, the announcement of the things listed, a default stated for what is asked, a cause asked why, scores above
sentences that only share its words."""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from agent.defaults import asks_default, entry_defaults, states_default
from agent.evidence import is_evidence, titles_read, untitled, written_code, written_in
from agent.intent import content_terms
from agent.readable import announces_listed, asks_why, listed_noun, states_cause
from agent.settings import AnswerSettings
from kb.definitions import defined_term, defines
from kb.text import is_identifier, squashed


def lead_factors(
    question: str, intent: str, texts: list[str], s: AnswerSettings, context: list[dict[str, Any]]
) -> np.ndarray:
    """Lead with what answers: each sentence's score factor for defining the term a definition question asks about,
    for announcing a list of the things a "which Xs" question asks for and for stating a default asked for beside
    its name or within its entry (`lead_bonus`), and, asked why, for giving a cause or a purpose (`cause_bonus`)."""
    term = defined_term(question) if intent == "definition" else ""
    noun = listed_noun(question)
    why = asks_why(question)
    # A default stated beside the thing asked about ("QzMode ... (the default)") or further on in its entry
    # ("QzMode= Sets ... Defaults to 48K."), not another entry's.
    codes = written_code(question)
    names = [t for t in content_terms(question) if is_identifier(t)] + codes
    named = [re.compile(rf"(?<![\w-]){re.escape(n)}(?![\w-])", re.I) for n in names if n not in codes]
    default = asks_default(question)
    evidence = [c for c in context if is_evidence(c)]
    subject = (untitled(names, titles_read(evidence)) or names) if default else []
    stated = [squashed([d]) for d in entry_defaults(subject, evidence, question=question)[0]] if subject else []
    return np.array(
        [
            (1.0 + s.lead_bonus * (min(1, defines(t, term)) if term else 0))
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
                        or any(d in flat or flat in d for d in stated)
                    )
                )
            )
            * (1.0 + s.cause_bonus * (why and states_cause(t)))
            for t, flat in zip(texts, [squashed([t]) for t in texts], strict=True)
        ]
    )
