"""What a value question asks: whether a question asks for a count or a value at all, and what it counts or
measures ("how many worker threads": "worker threads"). The value check of `agent.values` reads the evidence for
it."""

from __future__ import annotations

import re

from agent.question_words import QUESTION_WORDS
from agent.value_forms import ASKS_VERSION, MEASURES, NAMED_FORMS, RELEASE
from kb.text import STOPWORDS, is_common_word, is_identifier

# A question asking for a count or a value ("how many", "how long", "what numeric value is X defined to", "what
# minimum size does X need"): question words and the generic nouns of a measure, no domain term. Broader figure words
# ("amount", "rate") are left out: they name what a table row holds, and a row states its value beside a label the
# question may word differently; so are a default (it may be a word, "a shell": the default check's, agent.defaults)
# and the verbs "limits" and "counts" ("What limits X?"). "How often" asks a time or a frequency ("hourly").
# Units a question may ask a figure in ("the interval, in seconds"), closing a clause ("stored in bits 4-7", "kept in
# minutes of meetings" ask for no figure): generic measures of time, size, share, frequency and angle, few.
_UNITS = (
    r"(?:seconds|minutes|hours|days|milliseconds|bytes|kilobytes|megabytes|gigabytes|bits|percent|characters|"
    r"hz|hertz|khz|mhz|ghz|pixels|degrees)"
)
_ASKS_VALUE = re.compile(
    rf"\bhow\s+(?:many|much|long|large|big|often|frequently)\b|(?<!-)\bnumeric(?:al)?\s+(?:(?:constant|code)\s+)?value\b|\bin\s+{_UNITS}\s*(?:[,?)]|$)|"
    # "What does each limit?" asks what a limit is on: the measure's noun after a verb's subject is a verb.
    r"\b(?:what|which)(?:'s|’s)?\s+(?!(?:limits|counts|does|do|did)\b)(?:(?:is|are|was|were)\s+)?(?:the\s+)?"
    r"(?:[\w-]+\s+){0,2}?"
    r"(?:numeric(?:al)?\s+)?(?:value|number|size|length|limit|capacity|count|maximum|minimum)s?\b(?!\s+as\b)|"
    r"\b(?:upper|lower)\s+(?:bound|limit)s?\b|"
    # "which numeric exit status", "what exit code does X return": a number.
    r"\b(?:what|which)\s+(?!(?:does|do|did)\b)(?:[\w-]+\s+){0,2}?(?:numeric(?:al)?|exit\s+(?:status|code))\b|"
    # A terse query naming a measure in a unit ("pipe buffer size in bytes for a child's stdout").
    rf"\b(?:{MEASURES})\s+in\s+{_UNITS}\b",
    re.I,
)


def asks_value(question: str, worded_defaults: bool = True) -> bool:
    """The question asks for a count or a value, which an answer must state: also a version ("in which release was
    X added"), a value in hexadecimal ("what is the hexadecimal code of X"), a percentage or a bound ("is there an
    upper bound on X, and what is it"), a named code ("which errno does X return"), a unit ("in what unit is X
    given") or a path ("where on disk is X kept"), see `agent.value_forms`. A "default value" asked for may be a
    word, the default check's (agent.defaults), unless `worded_defaults` is False."""
    if worded_defaults:
        question = _DEFAULT_VALUE.sub("default", question)
    question = _FINDING.sub(" ", question)
    return bool(_ASKS_VALUE.search(question)) or any(p.search(question) for p, _ in NAMED_FORMS)


# "How can I find out how many bytes are unread?" asks the way to find a count, which is no count a page states
# (generic verbs of finding out, few).
_FINDING = re.compile(
    r"\bhow\s+(?:can|do|could|would|should|might)\s+(?:i|you|we|one)\s+(?:find\s+out|check|see|tell|know|determine|"
    r"measure|query|learn|get\s+to\s+know)\s+how\s+(?:many|much|long|large|big)\b",
    re.I,
)
# "What are the default values of X and Y?": the defaults may be words ("debug", "yes"), stated as defaults; not
# one asked in a unit ("the default value in bytes"), a figure.
_DEFAULT_VALUE = re.compile(rf"\bdefault\s+(?:values?|settings?)\b(?!\s+in\s+{_UNITS}\b)", re.I)


# What a value question counts or measures: the words after "how many" or after "the <measure> of (the)", or the
# thing whose version is asked ("which Kestrel version", "what version of Kestrel"); else `_NAMED_MEASURE`.
_MEASURED = re.compile(
    rf"\b(?:which|what)\s+(?P<v>(?:[\w-]+\s+)?){RELEASE}(?:\s+of\s+(?:the\s+)?(?P<of>[\w.-]+))?|"
    # "which exit code does X return", "what is the exit status of X when": a sentence stating it says "exit" or
    # "status" ("exits with 2", "exit status 2", "returns a status of 2").
    r"\b(?:what|which)\s+(?:(?:is|are)\s+the\s+)?(?:numeric(?:al)?\s+)?(?P<x>exit)\s+(?:status|code|value)(?:es|s)?\b|"
    r"\bhow\s+many\s+(?P<a>.+)|"
    r"\b(?:value|number|size|length|limit|capacity|count|maximum|minimum)s?\s+of\s+"
    r"(?:(?:the|a|an|each|every)\s+)?(?P<b>.+)",
    re.I,
)
# Else a measure named with the word before it ("the default nice length", "the smallest split size"): a sentence
# stating it names the measure ("the default block size" states no nice length); a bound's word names no measure.
_BOUNDING = r"(?:default|maximum|minimum|largest|smallest|total)\s"
_NAMED_MEASURE = re.compile(
    rf"\bthe\s+(?:{_BOUNDING})?(?P<c>(?!{_BOUNDING})[\w-]+\s+(?:{MEASURES}))s?\b(?!\s+of\b)", re.I
)


# Nouns of a physical measure, and of a release ("in which version"); "value" and "number" only ask for one.
_MEASURE_NOUN = re.compile(rf"\b({MEASURES}|version|release)s?\b", re.I)


def measure_noun(question: str) -> str:
    """The physical measure a value question names ("the maximum length allowed for X": "length"), or ""."""
    noun = _MEASURE_NOUN.search(question) if asks_value(question) else None
    return noun.group(1) if noun else ""


_PLURAL = re.compile(r"^[\w-]*[a-z](?<![su])s$")


def measured_phrase(question: str) -> str:
    """The noun phrase a value question counts or measures ("how many CPU cycles per byte": "CPU cycles", up to its
    first plural; "the value of the 16-bit marker that opens ...": "16-bit marker", up to its first function word);
    "" when the question names none. Its last word is the noun a sentence stating the value must name."""
    # "what version" names a version asked only as `ASKS_VERSION` reads it ("what version field ..., and how many
    # bits": the bits).
    asks_version = bool(ASKS_VERSION.search(question))
    match = next((m for m in _MEASURED.finditer(question) if m.group("v") is None or asks_version), None)
    if not match:
        named = _NAMED_MEASURE.search(question)
        return named.group("c") if named else ""
    if match.group("x"):
        return "exit"
    if match.group("v") is not None:  # "which Kestrel version", "which version of X": whose version, a name
        names = [match.group("v").strip(), match.group("of") or ""]  # not "minimum", "new", "latest"
        return next((w for w in names if w and (w[0].isupper() or is_identifier(w) or not is_common_word(w))), "")
    phrase: list[str] = []
    for word in (match.group("a") or match.group("b")).split():
        word = word.strip("?.,;:!()\"'“”")
        if not word or word.lower() in STOPWORDS or word.lower() in QUESTION_WORDS or len(phrase) == 4:
            break
        phrase.append(word)
        if match.group("a") and word.lower() == "times" and not phrase[:-1]:
            return ""  # "how many times does X retry": a count of repeats, no thing a sentence names
        if match.group("a") and _PLURAL.match(word):
            return " ".join(phrase)  # "how many worker threads": the count's noun is its first plural
    return " ".join(phrase[:1] if match.group("a") else phrase)  # "how many people work": no verb is counted
