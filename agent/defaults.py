"""The default check: a question asking what holds when nothing is set ("RetryMode default?", "When QzMode is not
specified, which mode is used?") is answered only by a passage that states a default within the entry of what is
asked about; an entry listing the choices, or another entry's default, says nothing of it. A value asked for
(a number, a size) is the value check's (`agent.values`)."""

from __future__ import annotations

import re
from typing import Any

from agent.entries import own_part
from agent.evidence import names_covered, read, whole_text, written_in
from kb.sentences import sentences
from kb.text import is_identifier

# What asks for a default: "X default?", "what is the default X", "what does X default to", "... by default",
# "when X is not specified / hasn't been set", "if I don't set X", "without setting X". Not "with the default
# bindings, which ...", "a default value in a filter" (a default named, not asked), nor "what default sound does X
# make" (a table may give it with no word of a default).
_SET = r"(?:specified|set|given|configured|provided|present|defined)"
_ASKS = re.compile(
    r"\bdefaults?(?:\s+(?:value|setting|mode|behaviou?r|level|choice|state))?\s*\??\s*$|"
    r"\b(?:what|which)(?:'s|’s|\s+(?:is|are|was|were))\s+(?:the\s+|its\s+|their\s+)?defaults?\b|"
    r"\bdefaults?\s+to\b|\bby\s+default\b|"
    rf"\b(?:when|if)\s+(?:\S+\s+){{0,4}}?(?:is|are|has|have)(?:n't|\s+not|\s+never)\s+(?:been\s+)?(?:\S+\s+){{0,2}}?"
    rf"{_SET}\b|"
    rf"\b(?:when|if)\s+no\s+(?:\S+\s+){{0,3}}?(?:is|are)\s+{_SET}\b|"
    r"\bif\s+(?:i|you|we)\s+(?:don't|do\s+not|never)\s+(?:set|specify|give|configure|pass)\b|"
    r"\bwithout\s+(?:setting|specifying|giving|configuring|passing)\b",
    re.I,
)
# How a document states a default: generic English, few ("the default is", "(the default)", "defaults to", "by
# default", "if not set", "unless", "otherwise, ...", "when omitted"; "sets the default key" and "does not otherwise
# change" state none).
_STATES = re.compile(
    r"\bdefaults?\s*(?:[:=)\],.;]|$|\s+(?:is|was|are|to|value|setting|of|for|if|when|unless|being)\b)|"
    r"\bby\s+default\b|\b(?:is|are|as)\s+the\s+default\b|\bdefault(?:ed|ing)\b|\binitial(?:ly)?\b|\bif\s+(?:not|no|none|unset|unspecified)\b|\bunless\b|\botherwise,|\bomitted\b|"
    rf"\bunset\b|\bunspecified\b|\bwhen\s+not\b|\b(?:if|when)\s+(?:\S+\s+){{0,3}}?(?:is|are)\s+not\s+{_SET}\b",
    re.I,
)


def asks_default(question: str) -> bool:
    """The question asks what holds when nothing is set."""
    return bool(_ASKS.search(question.strip()))


def states_default(text: str) -> bool:
    """The text states a default ("Defaults to 48K.", "If not set, ...")."""
    return bool(_STATES.search(text))


_HYPHENATED = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)+$")  # "gate-time": an entry's name, not a word


def _opens_entry(sentence: str) -> bool:
    """A sentence opening a reference's entry with the name it describes ("QzMode Specifies ...", "Mode= Sets
    ...", "--retries=N Sets ...", "gate-time time Sets ...")."""
    first = sentence.split(maxsplit=1)[0] if sentence.split() else ""
    named = first.strip(".,:;()")
    return first.endswith("=") or first.startswith("-") or is_identifier(named) or bool(_HYPHENATED.match(named))


def _names(names: list[str], sentence: str) -> bool:
    """The sentence names the thing: code as written ("--qz-mark", not "the qz mark"), other names as found."""
    if names[0].startswith(("-", "%")) or names[0].endswith("()"):
        return written_in(names[0], sentence)
    return names_covered(names, *read([sentence]))


def default_missing(subject: list[str], evidence: list[dict[str, Any]], aliases: dict | None = None) -> str | None:
    """Why no evidence states a default for the subject (the question's identifiers), or "" when a sentence does:
    one naming the subject, or one after it in the same entry (until a sentence opens another entry). An entry
    still open where its passage ends goes on in the next passage when the evidence holds it; when it does not, the
    passage's `next_opening` tells whether another entry opens there; if none does, the default may be stated
    there: None (unknown)."""
    if not subject:
        return None  # nothing named to read an entry of
    names = [[s, *(aliases or {}).get(s, [])] for s in subject]
    by_place = {(h["doc_id"], h.get("ordinal")): h for h in evidence}
    for hit in evidence:
        within, place = False, (hit["doc_id"], hit.get("ordinal"))
        while True:
            for whole in sentences(whole_text(by_place[place])):
                sentence = own_part(whole, subject)  # entries run together: "QZ_A ... QZ_B (default: 5)" is QZ_B's
                if any(_names(n, sentence) for n in names):
                    within = True
                elif _opens_entry(sentence):
                    within = False
                if within and states_default(sentence):
                    return ""
                if sentence.split() != whole.split():  # it went on into another entry, which the next ones are about
                    within = False
            if not within or place[1] is None:
                break
            opening = by_place[place].get("next_opening", "")
            place = (place[0], place[1] + 1)
            if place not in by_place:  # the passage after it, as far as the evidence has it: its first sentence
                if not opening or (not _opens_entry(opening) and own_part(opening, subject) == opening):
                    return None  # the entry may go on there (the passage after says nothing else, or goes on)
                break
    return f"no passage states a default for {', '.join(subject)}"
