"""The condition a value is asked on: codes and exit statuses are listed one per condition ("exits 2 if the file is
missing, 3 if it is locked"), so a code stated on another condition answers nothing of the one asked. The value
check (`agent.values`) reads a stated code's condition against the question's."""

from __future__ import annotations

import re

from agent.defaults import asks_default
from agent.intent import content_terms

# The condition a value holds on ("which exit status ... when a script has a syntax error?"), not a reference to the
# document's own discourse ("when discussing X"; generic verbs of talking about a text, few).
_CONDITION = re.compile(
    r"\b(?:when|if|whenever|once)\s+(?!(?:discuss\w*|describ\w*|explain\w*|talk\w*)\b)(?P<clause>[^?,;]+)",
    re.I,
)
# A question naming a default at all ("the default X", "X defaults to"): a default asked, or a bound beside one.
MENTIONS_DEFAULT = re.compile(r"\bdefault", re.I)


def conditions(question: str) -> list[str]:
    """The terms of the condition the question asks a value on; [] when it asks on none, or asks what holds by
    default ("when X is not set": the default check's, `agent.defaults`)."""
    match = _CONDITION.search(question)
    if not match or MENTIONS_DEFAULT.search(question) or asks_default(question):
        return []
    return content_terms(match.group("clause"))
