"""The value check: a question asking for a count or a value is answered only by a sentence stating one beside
what is asked (see `value_missing`)."""

from __future__ import annotations

import math
import re
from typing import Any, Literal

from agent.evidence import names_covered, passage, read, term_covered, whole_text
from agent.notation import symbols_cut
from agent.readable import is_row, unreadable
from kb.periods import period_year
from kb.text import is_identifier, sentences

# A value as a sentence states it: a figure standing on its own (not a digit inside a name such as "ASN.1" or
# "x86"), with a magnitude or percent, or, for a count, a small count in words. The words are a generic few: counts
# are often spelled out ("three layers").
_FIGURE = re.compile(r"(?<![\w.])[-+$€£]?\d[\d,]*(?:\.\d+)?(?:%|[kKMBT]\b)?(?![\w])", re.I)
_COUNT = re.compile(
    rf"{_FIGURE.pattern}|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|dozens?|hundreds?|"
    r"thousands?|millions?|billions?|single|twice|half)\b",
    re.I,
)


# The words that ask for a value without saying what is measured ("what numeric value", "the number of").
_ASKING_WORDS = frozenset(["value", "values", "number", "numbers", "numeric", "numerical", "count", "counts"])


# The form a question asks its value in, and how a sentence writes a value of that form. A number written in
# hexadecimal ("0x1EDC6F41", "04C11DB7h"; a run of hex digits holds a digit and a letter, so words and plain numbers
# are none); a version or release ("4.2.0", "version 7": a date beside a name is none); a count, which may be a word
# ("three layers"; a word is no value of anything else: "forbids two hyphens" gives no code its value); a figure.
_HEX = re.compile(r"(?<![\w.])(?:0x[0-9a-f]+|(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{4,}h?)(?!\w|\.\w)", re.I)
_VERSION = re.compile(r"(?<![\w.])v?\d+(?:\.\d+)+(?!\w|\.\w)|\b(?:version|release|v)\s*\d+(?:\.\d+)*\b", re.I)
_ASKS_HEX = re.compile(r"\bhex(?:adecimal)?\b", re.I)
_ASKS_VERSION = re.compile(r"\bwhich\s+(?:[\w-]+\s+){0,2}?(?:version|release)\b", re.I)
_ASKS_COUNT = re.compile(r"\bhow\s+(?:many|much)\b", re.I)
Form = Literal["hexadecimal", "version", "count", "figure"]


def asked_form(question: str) -> Form:
    """The form of the value the question asks for."""
    if _ASKS_HEX.search(question):
        return "hexadecimal"
    if _ASKS_VERSION.search(question):
        return "version"
    return "count" if _ASKS_COUNT.search(question) else "figure"


def stated_values(text: str, form: Form = "count") -> set[str]:
    """The values of the form asked for that the text states."""
    pattern = {"hexadecimal": _HEX, "version": _VERSION, "count": _COUNT, "figure": _FIGURE}[form]
    found = (m.group().lower().lstrip("+$€£") for m in pattern.finditer(text))
    return {re.sub(r"^(?:version|release|v)\s*", "", v) for v in found}


def value_missing(
    question: str,
    identifiers: list[str],
    others: list[str],
    evidence: list[dict[str, Any]],
    aliases: dict | None,
    share: float,
    most: int,
    counted: str = "",
) -> str:
    """For a question asking for a count or a value: why no evidence states it, or "" when some does. A passage
    states it when it (or its page) names the subject (one of the identifiers no evidence title names, else of all
    of them: a document titled with a name names it in every sentence), holds at least `share` of the question's
    other key terms, what is measured (and `most` of them is enough), and has a sentence giving a value the
    question does not already give that names the subject or something measured ("the minimum size of a bypass
    valve" is not stated by a passage giving another size of something else, nor by a release number beside the
    subject's name). When the question says what it counts or measures (`counted`, see
    `agent.intent.measured_phrase`), the sentence names that too: "how many threads" is not stated by a version
    number beside the program's name."""
    titles = [read([t]) for t in {h.get("title", "") for h in evidence} if t]
    titled = {i for i in identifiers if any(term_covered(i, *title) for title in titles)}
    subject = [i for i in identifiers if i not in titled] or identifiers
    form = asked_form(question)
    given = stated_values(question, form)
    # What is measured: the other terms but periods, the words that only ask for a value ("numeric value") and
    # those of a document's title (they say which document, as its name does).
    measured = [
        t
        for t in others
        if not period_year(t)
        and t.lower() not in _ASKING_WORDS
        and not _ASKS_HEX.fullmatch(t)
        and not any(names_covered([t, *(aliases or {}).get(t, [])], *title) for title in titles)
    ]
    names = {t: [t, *(aliases or {}).get(t, [])] for t in [*subject, *measured]}
    need = min(math.ceil(share * len(measured)), most)
    head = counted.split()[-1] if counted else ""
    head_names = [head, *(aliases or {}).get(head, [])] if head and not stated_values(head) else []
    best: list[str] = []
    # The subject may be named anywhere on the passage's page: a table split over two passages names it in the
    # first and states the values in the second. A passage naming another of the subject's family is about that.
    pages: dict[tuple[str, Any], list[str]] = {}
    for hit in evidence:
        pages.setdefault(_page_of(hit), []).extend([passage(hit), hit.get("title", "")])
    naming = {key for key, texts in pages.items() if any(names_covered(names[i], *read(texts)) for i in subject)}
    for hit in evidence:
        text, title = passage(hit), hit.get("title", "")
        about = read([text, title])
        named = not subject or any(names_covered(names[i], *about) for i in subject)
        if not named and (_page_of(hit) not in naming or _names_sibling(text, subject)):
            continue  # a passage about another member of the subject's family ("X_INIT" beside "X_EXPAND")
        held = [t for t in measured if names_covered(names[t], *about)]
        best = max(best, held, key=len)
        if len(held) < need:
            continue
        for sentence in sentences(whole_text(hit)):
            # Prose read as an answer quotes it: a fragment is none, code or notation after the prose is cut
            # ("Sample code: ... f(key, 10, salt);" states no value of anything). A table row states its values
            # even when its column heads were lost.
            if not is_row(sentence):
                sentence = symbols_cut(sentence, question)
                if unreadable(sentence, question):
                    continue
            said = read([sentence])
            # The counted noun (or the thing whose version is asked) is in it, or in the title of its document.
            unnamed = head_names and not any(names_covered(head_names, *r) for r in (said, read([title])))
            if not stated_values(sentence, form) - given or unnamed:
                continue
            if any(names_covered(names[t], *said) for t in [*subject, *held]):
                return ""
    # A question naming no identifier: what it measures.
    kind = f"{form} " if form in ("hexadecimal", "version") else ""
    asked = ", ".join(subject) or (f"the {counted}" if counted else ", ".join(measured))
    if len(best) >= need:  # what is measured is there, but no value beside it
        named = f"{counted} ({asked})" if head_names and subject else asked
        return f"no passage states a {kind}value for {named}"
    found = f"at most {len(best)} of {len(measured)} together"
    return f"no passage states a {kind}value for {asked} with {', '.join(measured)} ({found})"


_SEGMENT = re.compile(r"[_.-]")


def _names_sibling(text: str, subject: list[str]) -> bool:
    """Whether the text names an identifier opening as one of the subject's does ("QZ_INIT" for "QZ_AUTO_GROW",
    "ZX-7" for "ZX-9"), other than the subject."""
    own = {s.lower() for s in subject}
    heads = {_SEGMENT.split(s)[0].lower() for s in subject if _SEGMENT.search(s)}
    words = (w.strip(".-") for w in re.findall(r"[\w.-]+", text))
    return any(
        _SEGMENT.split(w)[0].lower() in heads
        for w in words
        if _SEGMENT.search(w) and w.lower() not in own and is_identifier(w)
    )


def _page_of(hit: dict[str, Any]) -> tuple[str, Any]:
    """The page a passage is on; a passage without one is a page of its own (by its chunk id)."""
    page = hit.get("start_page")
    return (hit["doc_id"], page) if page is not None else (hit["doc_id"], hit.get("chunk_id"))
