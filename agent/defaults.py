"""The default check: a question asking what holds when nothing is set ("RetryMode default?", "When QzMode is not
specified, which mode is used?") is answered only by a passage that states a default within the entry of what is
asked about; an entry listing the choices, or another entry's default, says nothing of it. A value asked for
(a number, a size) is the value check's (`agent.values`)."""

from __future__ import annotations

import re
from typing import Any

from agent.entries import describes_entry, entry_walk, goes_on, heads_entry, open_run, opens_entry, runs_in
from agent.evidence import names_subject, whole_text, written_in

# What asks for a default: "X default?", "what is the default X", "what does X default to", "... by default",
# "when X is not specified / hasn't been set", "if I don't set X", "without setting X". Not "with the default
# bindings, which ...", "a default value in a filter" (a default named, not asked), nor "what default sound does X
# make" (a table may give it with no word of a default).
_SET = r"(?:specified|set|given|configured|provided|present|defined)"
_NOT = r"(?:n't|n’t|\s+not|\s+never)"
_ASKS = re.compile(
    # "QzMode default?", not "reset it to the defaults?" nor "change the default?"
    r"(?<!\bthe\s)(?<!\bto\s)(?<!\ba\s)\bdefaults?(?:\s+(?:value|setting|mode|behaviou?r|level|choice|state))?\s*\??\s*$|"
    r"\b(?:what|which)(?:'s|’s|\s+(?:is|are|was|were))\s+(?:the\s+|its\s+|their\s+)?defaults?\b|"
    # "What default value does the kernel put in X?": a default's value or setting asked for, not any noun.
    r"\b(?:what|which)\s+defaults?\s+(?:values?|settings?)\b|"
    r"\bdefaults?\s+to\b|\bby\s+default\b|"
    rf"\b(?:when|if)\s+(?:\S+\s+){{0,4}}?(?:is|are|has|have){_NOT}\s+(?:been\s+)?(?:\S+\s+){{0,2}}?{_SET}\b|"
    rf"\b(?:when|if)\s+no\s+(?:\S+\s+){{0,3}}?(?:is|are)\s+{_SET}\b|"
    # A terse query's "when QZ_A not set": the auxiliary left out.
    rf"\b(?:when|if)\s+(?:(?!(?:do|does|did|is|are|was|were|has|have|had|will|would)\b)\S+\s+){{1,3}}?not\s+{_SET}\b|"
    # "if neither QZ_A nor QZ_B is set": neither names what is not set; "which editor does it fall back to?" asks
    # the default (not "does it fall back to HTTP/1.1?", which names one).
    rf"\b(?:when|if)\s+neither\s+[^?,;]*?\bnor\s+[^?,;]*?\b(?:is|are|has|have)\s+(?:been\s+)?{_SET}\b|"
    r"\b(?:what|which)\b[^?,;]*\bfalls?\s+back\s+(?:on|to)\s*(?:[?,;]|$|(?:if|when|unless|on|after)\b)|"
    rf"\bif\s+(?:i|you|we)\s+(?:do{_NOT}|never)\s+(?:set|specify|give|configure|pass)\b|"
    r"\bwithout\s+(?:setting|specifying|giving|configuring|passing)\b",
    re.I,
)
# How a document states a default: generic English, few ("the default is", "(the default)", "defaults to", "by
# default", "initially", "if not set", "otherwise, ...", "when omitted"; "sets the default key", "the initial window",
# "fails if no terminal ..." and "does not otherwise change" state none).
_STATES = re.compile(
    r"\bdefaults?\s*(?:[:=)\],.;]|$|\s+(?:is|was|are|to|values?|setting|of|for|if|when|unless|being)\b)|"
    r"\bby\s+default\b|\b(?:is|are|as)\s+the\s+default\b|\bdefault(?:ed|ing)\b|\binitially\b|"
    # "the default layout is flat", not "the default namespace is set" (something done to it)
    r"\bthe\s+default\s+[\w-]+\s+(?:is|are|was)\s+(?!(?:not|set|read|built|shown|given|written|taken|chosen|kept|"
    r"used|tied|known|bound|made|found|hidden|\w+(?:dd|tt)en|\w{3,}ed)\b)|"
    r"\binitial\s+(?:value|setting)s?\s+(?:is|are|of)\b|\bif\s+(?:not|none|unset|unspecified|omitted)\b|\botherwise,|"
    rf"\bomitted\b|\bunset\b|\bunspecified\b|\bwhen\s+not\b|\b(?:if|when)\s+(?:\S+\s+){{0,3}}?(?:is|are)\s+not\s+{_SET}\b",
    re.I,
)


def asks_default(question: str) -> bool:
    """The question asks what holds when nothing is set."""
    return bool(_ASKS.search(question.strip()))


# The clause saying what is not set ("when --qz-mode isn't passed", "if no -l option is given", "without setting X";
# not "if I pass --verbose", which sets something).
_CONDITION = re.compile(r"\b(?:when|if|unless|without)\b[^?,;]*", re.I)
_NEGATED = re.compile(
    r"\b(?:no|not|never|without|unless|unset|omitted|unspecified|absent|missing|empty|left\s+out)\b|n['’]t\b", re.I
)


def left_unset(question: str, names: list[str]) -> list[str]:
    """The code the question writes (`names`: options, calls) that it says is not set ("which mode does qz --run use
    by default when --qz-mode isn't passed?": --qz-mode, not --run): the default asked is its."""
    clauses = [m.group() for m in _CONDITION.finditer(question) if _NEGATED.search(m.group())]
    return [n for n in names if any(written_in(n, clause) for clause in clauses)]


# A state the question itself gives a thing ("a file with an unspecified attribute") is no default the text states
# when it names that state too (the question's condition, not what holds without it); a question asking "when X is
# unset" asks for the very default "when unset, ..." states.
_ECHOED = ("unspecified", "unset", "omitted")


def states_default(text: str, asked: str = "") -> bool:
    """The text states a default ("Defaults to 48K.", "If not set, ..."), other than by a state the question `asked`
    names itself."""
    echoed = {w for w in _ECHOED if re.search(rf"\b(?:a|an|the|its|their|any)\s+{w}\b", asked, re.I)}
    return any(m.group().lower() not in echoed for m in _STATES.finditer(text))


# Where a sentence is: its passage's document and ordinal, and its index among the passage's `entry_sentences`.
Place = tuple[str, Any, int]


def entry_defaults(
    subject: list[str], evidence: list[dict[str, Any]], aliases: dict | None = None, question: str = ""
) -> tuple[list[str], bool]:
    """The sentences stating a default for the subject (the question's identifiers): one naming the subject, or one
    after it in the same entry (until a sentence opens another entry); and whether the entry may go on past the
    evidence. An entry still open where its passage ends goes on in the next passage when the evidence holds it;
    when it does not, the passage's `next_opening` tells whether another entry opens there; if none does, the
    default may be stated there. A state the `question` names itself states no default (see `states_default`)."""
    stating, unknown = placed_defaults(subject, evidence, aliases, question)
    return list(dict.fromkeys(sentence for _, sentence in stating)), unknown


def placed_defaults(
    subject: list[str], evidence: list[dict[str, Any]], aliases: dict | None = None, question: str = ""
) -> tuple[list[tuple[Place, str]], bool]:
    """`entry_defaults` with each sentence's place: "Default: false." in the subject's entry, not the same words in
    the next entry's."""
    names = [[s, *(aliases or {}).get(s, [])] for s in subject]
    every = [name for ns in names for name in ns]
    by_place = {(h["doc_id"], h.get("ordinal")): h for h in evidence}
    stating: list[tuple[Place, str]] = []
    unknown = False
    for hit in evidence:
        within, headed, passage = False, False, hit
        while passage is not None:
            was_within = within
            walked, within = entry_walk(
                whole_text(passage), subject, lambda s: any(names_subject(n, s) for n in names), within
            )
            stating += [
                ((passage["doc_id"], passage.get("ordinal"), j), sentence)
                for j, (sentence, inside) in enumerate(walked)
                if inside and states_default(sentence, question)
            ]
            if not within or passage.get("ordinal") is None:
                break
            # Only the subject's own entry goes on to its default: one opening with its name, or a row run into
            # others ("QZHUP Q1 Halt Line hung up QZPIPE Q1 Halt Gate shut"); prose naming it in passing ("if qz_max
            # is set to 2, ...") closes no entry, and the text after it is about something else. A passage opening
            # inside an entry ("If QzMode is smart, ...") may go on one whose head an earlier chunk holds.
            run, from_start = open_run(walked)
            opened_before = headed if was_within else bool(walked) and not opens_entry(walked[0][0])
            headed = (from_start and opened_before) or heads_entry(run, every) or runs_in(run, every)
            opening = passage.get("next_opening", "")
            passage = by_place.get((passage["doc_id"], passage["ordinal"] + 1))
            if passage is None and headed and (not opening or goes_on(opening, subject)):
                unknown = True  # the entry may go on in a passage the evidence lacks (its first sentence goes on)
    return stating, unknown


def default_missing(
    subject: list[str], evidence: list[dict[str, Any]], aliases: dict | None = None, question: str = ""
) -> str | None:
    """Why no evidence states a default for the subject (see `entry_defaults`), "" when a sentence does, or None
    when the subject's entry may state it past the evidence (unknown)."""
    if not subject:
        return None  # nothing named to read an entry of
    # Of several names, those heading an entry are what has a default ("Is QZ_LOOP on by default on a new QZv4
    # gate?": QZ_LOOP's entry; QZv4 only says which gate, and a sentence about QZv4 says nothing of QZ_LOOP's).
    subject = [
        s for s in subject if any(describes_entry(whole_text(h), [s, *(aliases or {}).get(s, [])]) for h in evidence)
    ] or subject
    stating, unknown = entry_defaults(subject, evidence, aliases, question)
    if stating:
        return ""
    if unknown:
        return None
    return f"no passage states a default for {', '.join(subject)}"
