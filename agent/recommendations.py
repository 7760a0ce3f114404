"""The recommendation check: "which X does the manual recommend?" is answered only by a sentence that recommends
something and names the kind asked for (an X); a passage recommending something else (a flag, a practice) says
nothing of which X."""

from __future__ import annotations

import re
from typing import Any

from agent.evidence import names_covered, read, whole_text
from kb.sentences import sentences

# "Which generator does the manual recommend", "which flags would you recommend": the kind is the words between
# "which" and the verb, its last word the noun a recommending sentence names.
_ASKS = re.compile(r"\bwhich\s+(?P<kind>(?:[\w-]+\s+){0,3}?[\w-]+)\s+(?:does|do|would|did)\s+.{0,60}?\brecommend", re.I)
# Generic words a recommendation is written with.
_RECOMMENDS = re.compile(r"\b(?:recommend\w*|suggest\w*|advis\w*|prefer\w*|should|best)\b", re.I)


def asked_kind(question: str) -> str:
    """The noun of the kind a question asks a recommendation of ("generator"), or ""."""
    match = _ASKS.search(question)
    return match.group("kind").split()[-1] if match else ""


def recommendation_missing(kind: str, evidence: list[dict[str, Any]], aliases: dict | None = None) -> str:
    """Why no evidence recommends something of the kind asked about (see `asked_kind`), or "" when some sentence
    does."""
    names = [kind, *(aliases or {}).get(kind, [])]
    for hit in evidence:
        for sentence in sentences(whole_text(hit)):
            if _RECOMMENDS.search(sentence) and names_covered(names, *read([sentence])):
                return ""
    return f"no passage recommends a particular {kind}"
