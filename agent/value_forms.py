"""The form a value is asked and stated in: a figure, a count, a version, a time, a share, a value in hexadecimal, a
named code or a unit; what form a question asks (`asked_form`) and which values of it a text states
(`stated_values`). The value check (`agent.values`) reads the evidence with them."""

from __future__ import annotations

import re
from typing import Literal

from kb.text import is_common_word

# A value as a sentence states it: a figure standing on its own (not a digit inside a name such as "ASN.1" or
# "x86"), with a magnitude or percent, or, for a count, a small count in words. The words are a generic few: counts
# are often spelled out ("three layers").
# A magnitude is a capital ("2B": two billion; "2b" is a name) or "k"; a figure inside a token of symbols
# ("$2b$10$...") is none.
# A figure; not a manual page's section right after a name ("qzcap(8)", "open(3p)"; "BUF(255)" is one).
# Nor a part of a dotted run ("10.20.30.40", "4.7.19": an address or a release), nor a list's number ("only 1. when
# ..., or 2. when ...": a sentence ending in a figure goes on with a capital).
FIGURE = re.compile(
    r"(?<![\w.])(?!(?<=\w\()\d[a-zA-Z]?\))[-+$€£]?\d[\d,]*(?:\.\d+)?(?:%|[kKMBT]\b)?(?![\w$])(?!\.\d)(?!\.\s+[a-z])"
)
_COUNT_WORDS = (
    r"one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|dozens?|hundreds?|thousands?|millions?|"
    r"billions?|single|twice|half"
)
_COUNT = re.compile(rf"{FIGURE.pattern}|\b(?i:{_COUNT_WORDS})\b")


# The form a question asks its value in, and how a sentence writes a value of that form. A number written in
# hexadecimal ("0x1EDC6F41", "8005h", "42F0E1EB": a bare run of six hex digits or more holding a letter; "A100",
# "2023a" and plain numbers are none); a version or release ("4.2.0", "version 7", "Kestrel 15": a date beside a
# name is none); a count, which may be a word ("three layers"; a word is no value of anything else: "forbids two
# hyphens" gives no code its value); a figure.
_HEX_LITERAL = re.compile(r"(?<![\w.])0x[0-9a-f]+(?!\w|\.\w)", re.I)  # "0x1EDC": a figure, too, when one is asked
_HEX = re.compile(
    rf"{_HEX_LITERAL.pattern}|(?<![\w.])(?:\d[0-9a-f]*h|(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{{6,}})(?!\w|\.\w)",
    re.I,
)
# A release a thing came with: "since Kestrel 2.6.25", "(since qzlib 2.17)", "in version 7" (not "in EUR 2.4 million").
_RELEASED = re.compile(
    r"\b(?i:since|before|until|after)\s+[A-Za-z][\w-]*\s+v?\d+(?:\.\d+)+(?![\w%])|"
    r"\b(?i:since|before|until|after|from|in)\s+(?i:version|release)\s+\d+(?:\.\d+)*(?![\w%])"
)
# A digit written as an option ("-1 or --quick", "-9 --tight"): a flag of a command, no figure of anything ("-1 or
# -EQZ" returns values).
_DIGIT_OPTION = re.compile(r"(?<![\w-])-\d+(?=\s+(?:or\s+)?--?[a-z])")
# A pre-release's mark goes with its number ("0.6b1", "2.0rc2", "1.4-beta3").
_VERSION = re.compile(
    r"(?<![\w.])v?\d+(?:\.\d+)+(?:-?(?:a|b|rc)\d+|-?(?:alpha|beta|rc|dev|pre)\d*)?(?!\w|\.\w)|"
    r"\b(?:version|release|v)\s*\d+(?:\.\d+)*\b",
    re.I,
)
# "What is the hexadecimal code of X?", "what's its hex value": the value itself asked in hexadecimal ("which
# command prints it in hex" and "how many hex digits" ask something else).
ASKS_HEX = re.compile(
    r"\b(?:what|which)(?:'s|’s|\s+(?:is|are|was|were))\s+(?:the\s+|its\s+|their\s+)?(?:[\w-]+\s+){0,2}?"
    r"hex(?:adecimal)?\b",
    re.I,
)
# Nouns of a physical measure: what a bound or a value question measures. Generic, few.
MEASURES = "size|length|limit|capacity|width|height|depth|duration|interval|timeout|weight"
# A version or release asked for ("in which release", "what is the minimum X version"): a press, news or earnings
# release is a document, a release date or notes something else.
RELEASE = r"(?:version|(?<!press\s)(?<!news\s)(?<!earnings\s)release)"
ASKS_VERSION = re.compile(
    rf"\bwhich\s+(?:[\w-]+(?:\.[\w-]+)*\s+){{0,2}}?{RELEASE}\b|"
    # "what version of X first added Y?", "since what release"; not "what release notes", "what version field".
    rf"\bwhat\s+(?:(?!(?:is|was|are|were|the|does|do|did|a|an)\b)[\w.-]+\s+)?{RELEASE}\b(?=\s*(?:[?,]|$|(?:of|first|did|does|do|was|is|introduced|added|"
    r"required|needed|supported)\b))|"
    # "what is the minimum X version (required ...)?"; not "the version field", "the release of an allowance".
    r"\bwhat(?:'s|’s|\s+(?:is|was))\s+the\s+(?:[\w.-]+\s+){0,2}?version\b"
    r"(?=\s*(?:[?,]|$|(?:of|required|needed|supported|that|does|do|did|is|was|for|to|in)\b))|"
    # A terse query's "X version first introduced", "--qz release added".
    rf"^(?!.*\b(?:what|which|when|where|how|why|who)\b)[^?]*\b{RELEASE}\s+(?:first\s+)?(?:introduced|added|appeared)"
    r"\s*\??\s*$",
    re.I,
)
_ASKS_COUNT = re.compile(r"\bhow\s+(?:many|much)\b|\b(?:number|count)\s+of\b", re.I)
# "How long will X wait / does it take / must a key be held": a time ("how long may the name be" asks a length).
# Not "how long is X" nor "how long may the name be (for each)": a length, unless a thing is to be held or kept.
# "How often does X retry": a time between, or a frequency ("every 5 s", "hourly", "twice a day").
_ASKS_DURATION = re.compile(
    r"\bhow\s+long\b(?!\s+(?:is|are|was|were)\b)(?![^?.;]*\bbe\b(?!\s+(?:\w+ed|held|kept|left|run|shown|spent)\b))|"
    # "how long is X delayed (before ...)?": a participle closing its clause asks a time, "how long is a name?" a
    # length, and so does "how long is the key, and what lengths are allowed?"
    r"\bhow\s+long\s+(?:is|are|was|were)\s+(?:(?!\b(?:and|or|what|which|how)\b)[^?,;])*?\b\w+ed\s*"
    r"(?=[?,]|$|(?:before|until|after|when|if|while)\b)|"
    r"\bhow\s+(?:often|frequently)\b",
    re.I,
)
# A time as a sentence states it: a count with a unit of time ("30s", "eight seconds", "2 hours"), or none at all
# ("waits indefinitely"). Units are the generic ones of time.
_TIME_UNIT = r"(?:s|secs?|seconds?|ms|msecs?|milliseconds?|us|µs|microseconds?|ns|nanoseconds?|mins?|minutes?|h|hrs?|"
_TIME_UNIT += r"hours?|days?|weeks?|months?|years?|jiff(?:y|ies)|ticks?)"
_DURATION = re.compile(
    rf"(?<![\w.])\d[\d,]*(?:\.\d+)?\s*-?\s*{_TIME_UNIT}\b|\b(?:{_COUNT_WORDS})(?:\s+|-){_TIME_UNIT}\b|"
    rf"\b(?:every|each|per)\s+(?:\d[\d,.]*\s*)?{_TIME_UNIT}\b|"  # "every hour", "each 5 s"; "tens" is no "ten s"
    r"\b(?:infinity|infinite(?:ly)?|indefinitely|forever|hourly|daily|weekly|monthly|quarterly|annually|yearly|"
    r"twice|once\s+(?:a|an|per|every))\b|"
    # A time stated without a count: its length left open ("kept for an indefinite period"), or the machine's start
    # that ends it ("removed at each reboot", "kept across reboots"; not "the boot partition", "at an unknown time").
    r"\bfor\s+(?:an?\s+)?(?:unspecified|unlimited|indefinite|arbitrary|undefined)\s+(?:duration|time|period|"
    r"length\s+of\s+time)\b|\b(?:unspecified|unlimited|indefinite)\s+(?:duration|period)\b|"
    r"\b(?:until|at|on|across|between)\s+(?:the\s+|each\s+|every\s+)?(?:next\s+)?(?:system\s+)?(?:re)?boot(?:s|\s+up)?\b"
    r"(?!\s+[a-z])",
    re.I,
)
# "How many seconds does X wait": a time, whatever its unit ("the flag is always 1" states none).
_COUNTS_TIME = re.compile(rf"\bhow\s+many\s+{_TIME_UNIT}\b", re.I)
# "What percentage of X ...?", "By what percentage does X ...?": a share, written with "%" or "percent".
ASKS_PERCENT = re.compile(r"\b(?:what|which)\s+(?:is\s+the\s+)?percent(?:age)?\b", re.I)
# "In what year did X ...": a year, written as one ("in 1979"; "soon afterward" states none).
# Not "year-over-year" nor "which year's report", nor a choice among years the question gives ("2019 or 2020?").
ASKS_YEAR = re.compile(r"\b(?:what|which)\s+year\b(?![-'’])(?![^?]*\b(?:1[6-9]|20)\d\d\b)", re.I)
_YEAR = re.compile(r"(?<![\w.])(?:1[6-9]|20)\d\d(?!\w|\.\d)")
_PERCENT = re.compile(r"(?<![\w.])[-+(]?\d[\d,]*(?:\.\d+)?\)?\s*(?:%|percent\b|per\s+cent\b)", re.I)
# A named code asked for ("which errno does X return", "what error code do I get", "which signal does X send"; not
# "what does the error code QZ_FULL mean", nor an exit or a status code, a number): a sentence names one as code is
# written, in capitals: an errno ("EQZ"), a signal ("SIGQZ"), any other code ("QZ_TOO_BIG", "QZERR"; a capitalised
# word of the language is none).
ASKS_CODE = re.compile(
    r"\b(?:which|what)\s+(?:(?P<prefix>[\w-]+?)\*?\s+)?(?P<kind>errno|error\s+(?:code|constant)|signal)s?\b"
    r"(?:(?<=errno)\s+(?:value|name|constant)s?\b)?"  # an errno's value is its name ("which errno value": EQZ)
    # followed by a verb or the question's end, not by another noun ("which signal handler", "what signal number")
    r"(?=\s+(?:does|do|did|is|are|was|were|will|would|can|could|should|must|might|may|gets?|comes?)\b|\s*[?,.]|\s*$)",
    re.I,
)
# Any other code is written with an underscore ("QZ_TOO_BIG"), says it is an error ("QZERR") or is shaped as an errno
# ("EQZFULL"): an acronym ("URL", "JSON") is none, nor is a standard stream ("STDERR").
_CODES = {
    "errno": re.compile(r"(?<![\w-])E[A-Z0-9]{2,}(?![\w-])"),
    "signal": re.compile(r"(?<![\w-])SIG[A-Z0-9]+(?![\w-])"),
    "": re.compile(
        r"(?<![\w-])(?!STD(?:ERR|OUT|IN)\b)(?:[A-Z][A-Z0-9]*_[A-Z0-9_]+|[A-Z0-9]*ERR[A-Z0-9]*|E[A-Z0-9]{3,})(?![\w-])"
    ),
}
# "In what unit is X expressed?", "what unit is the 10 counted in?": a unit of measure, which a sentence names ("in
# milliseconds", "(bytes)", "100ms", "512-byte"); not "which unit does X start" (a unit of another kind). Units are
# the generic ones of time, size, share, frequency and angle; a short one, or one that is an ordinary word too ("us",
# "s", "min", "days", "blocks"), only right after a figure ("5 ms", "10 blocks").
ASKS_UNIT = re.compile(
    r"\bin\s+(?:what|which)\s+units?\b|"
    r"\b(?:what|which)\s+units?\b(?=[^?]*\b(?:expressed|measured|given|counted|specified|reported|stated|uses?|in\s*\?))",
    re.I,
)
_FIGURED = r"(?:(?<=\d)|(?<=\d\s)|(?<=\d-))"  # right after a figure: "5 ms", "100ms", "512-byte"
_UNIT = re.compile(
    rf"(?:{_FIGURED}|(?<![\w-]))(?:secs?|seconds?|msecs?|milliseconds?|microseconds?|nanoseconds?|minutes?|hours?|"
    r"jiff(?:y|ies)|bytes?|kilobytes?|megabytes?|gigabytes?|KiB|MiB|GiB|kB|KB|MB|GB|bits?|octets?|characters?|pixels?|"
    r"percent(?:age)?|degrees?|radians?|hz|hertz|khz|mhz|ghz)(?![\w-])|"
    rf"{_FIGURED}(?:ms|us|µs|ns|mins?|hrs?|s|h|days?|weeks?|ticks?|blocks?)(?![\w-])",
    re.I,
)
# "Where on disk is X stored, what's the path?", "which directory holds X": a path a sentence writes ("/var/lib/qz",
# "~/.qzrc"; not "and/or" nor "TCP/IP"); not "the path length", "which directory entries".
ASKS_PATH = re.compile(
    r"\b(?:what(?:'s|’s|\s+is)\s+(?:the\s+|its\s+)?(?:[\w-]+\s+)?path|which\s+(?:directory|folder|path))\b"
    r"(?=\s*(?:[?,]|$|(?:of|for|to|where|that|does|do|did|is|are|holds?|contains?|keeps?|stores?|will|should)\b))|"
    r"\bwhere\s+on\s+disk\b",
    re.I,
)
_PATH = re.compile(r"(?<![\w/.-])(?:~|\.{1,2})?/[\w.%@+-]+(?:/[\w.%@+*-]*)*")
Form = Literal["hexadecimal", "version", "percent", "year", "count", "duration", "code", "unit", "path", "figure"]


# The forms asked by name, in the order they are read ("how many hex digits" is a count, "which errno" a code);
# any other value question asks a figure.
NAMED_FORMS: tuple[tuple[re.Pattern[str], Form], ...] = (
    (ASKS_CODE, "code"),
    (ASKS_UNIT, "unit"),
    (ASKS_PATH, "path"),
    (ASKS_HEX, "hexadecimal"),
    (ASKS_PERCENT, "percent"),
    (ASKS_YEAR, "year"),
    (ASKS_VERSION, "version"),
)
_FORMS: tuple[tuple[re.Pattern[str], Form], ...] = (
    (_COUNTS_TIME, "duration"),  # "how many seconds does X wait": a time ("the flag is always 1" states none)
    (_ASKS_COUNT, "count"),
    (_ASKS_DURATION, "duration"),
    *NAMED_FORMS,
)


def asked_form(question: str) -> Form:
    """The form of the value the question asks for; a count comes first ("how many hex digits")."""
    return next((form for pattern, form in _FORMS if pattern.search(question)), "figure")


def stated_values(text: str, form: Form = "count", named: str = "") -> set[str]:
    """The values of the form asked for that the text states; a version also as the number right after the thing
    `named` ("Kestrel 15"); a code of the kind `named` ("errno", "signal")."""
    if form == "code":
        kind = next((k for k in _CODES if k and k in named.lower()), "")
        return {m.group() for m in _CODES[kind].finditer(text) if not is_common_word(m.group().lower())}
    patterns = {"hexadecimal": _HEX, "version": _VERSION, "percent": _PERCENT, "count": _COUNT, "duration": _DURATION}
    patterns |= {"unit": _UNIT, "path": _PATH, "year": _YEAR}
    pattern = patterns.get(form, FIGURE)
    if form in ("figure", "count", "duration"):
        text = _RELEASED.sub(" ", text)  # "since Kestrel 3.2" dates the thing, it measures nothing
        text = _DIGIT_OPTION.sub(" ", text)
    found = {m.group().lower().lstrip("+$€£") for m in pattern.finditer(text)}
    if form == "path":  # a path ends before the sentence's stop ("... under /proc.")
        found = {v.rstrip(".,;:") for v in found}
    if form == "figure":  # a code or a byte is a figure written in hexadecimal too ("0xfe means ...")
        found |= {m.group().lower() for m in _HEX_LITERAL.finditer(text)}
    if form == "version":
        found = {re.sub(r"^(?:version|release|v)\s*", "", v) for v in found}
        if named:
            found |= set(re.findall(rf"\b{re.escape(named)}\s+v?(\d+(?:\.\d+)*)\b", text, re.I))
    return found
