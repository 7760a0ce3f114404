"""The parts of a question that asks several things at once ("What datasets were used, and how were they
cleaned?", "What is X? Which options does it take?"): the extractive answer gives each part its own best sentence,
so the second thing asked is not crowded out by sentences about the first."""

from __future__ import annotations

import re

from agent.intent import content_terms

# A new question within the question: "and" (or "but") before a question word ("..., and how do they differ?",
# "... and what does it return?") or, after a comma, an auxiliary ("..., and does it ...?"), or a question mark with
# another question after it. The words are generic English question words, few; "or" joins the alternatives of one
# question ("A or B?").
_JOINED = re.compile(
    r"(?:,\s*|;\s*|\s+)(?i:and|but)\s+(?=(?i:what|how|why|which|where|when|who|whom|whose)\b)|"
    # An auxiliary opens a question only after a comma ("..., and does it ...?"; "which crews load and do repairs"
    # goes on with a verb), and a question mark ends one only before a capital ("`q? z`" is code).
    r"[,;]\s*(?i:and|but)\s+(?=(?i:does|do|did|is|are|can|should|will|would)\b)|(?<=\?)\s+(?=[A-Z])"
)


def question_parts(question: str) -> list[str]:
    """The question's parts, each asking something with at least one content word of its own ("and why?" asks
    nothing a sentence can be matched on: the reason is the cause bonus's, see `agent.leads`); one part when it asks
    one thing."""
    parts = [p.strip(" ,;") for p in _JOINED.split(question) if p.strip(" ,;")]
    worded = [p for p in parts if content_terms(p)]
    return worded if len(worded) > 1 else [question]
