"""The information need of a question, separated from its instructions.

Questions written for an assistant wrap what they ask in a persona ("Assume you are an analyst."), format
instructions ("Round to one decimal place."), definitions they supply ("X is defined as ...") and politeness. Every
word of those would be searched, and drown the few words of the need. Only the need is searched; the whole question
still goes to the answer step. What the instructions say about where to look ("shown in the annual summary table")
is kept as a hint: it names the part of the document that answers.
"""

from __future__ import annotations

import re

from pydantic import BaseModel, Field

from kb.text import AUXILIARIES, STOPWORDS, WH_WORDS

_OPENERS = "|".join((*WH_WORDS, *AUXILIARIES))  # the words a question opens with

# Words that speak about answering rather than about the subject: a sentence holding one, beside a sentence that
# asks, is an instruction. Generic and small on purpose: each names the act of answering or its format.
_META = re.compile(
    r"\b(?:answer(?:s|ing)?|respond(?:ing)?|response|question|round(?:ed|ing)?|decimal|units?\s+of|"
    r"perspective|standpoint|viewpoint|approximation|your\s+(?:judg(?:e)?ments?|abilities|reasoning)|"
    r"explain\s+why|state\s+that|please|kindly|(?:what|as)\s+(?:was|is)\s+asked|then\s+(?:please\s+)?(?:state|say|write|"
    r"return))\b",
    re.IGNORECASE,
)
# A sentence saying what the asker wants to do ("We need to calculate a financial metric.") frames the question that
# follows, unless that question leans on it: refers back to it ("Where should I put them?", "Which option does
# that?", "... lets me do so?") or is too thin to stand alone ("Which function should I call?").
_WANTS = re.compile(r"^\s*(?:we|i)\s+(?:need|want|would\s+like)\s+to\b", re.IGNORECASE)
_ASKING_WORDS = STOPWORDS | set(WH_WORDS) | set(AUXILIARIES)
_OWN_WORDS = 4
_REFERS_BACK = re.compile(
    r"\b(?:it|its|them|they|their)\b|\bdo\s+so\b|\b(?:this|that|these|those)\b(?!\s*\w)", re.IGNORECASE
)
_PERSONA = re.compile(
    r"^\s*(?:(?:assume|imagine|suppose|pretend)\s+(?:that\s+)?(?:you|we)\b|(?:you\s+are|you're|act\s+as)\s+(?:an?|the)\b)",
    re.IGNORECASE,
)
# A definition the question supplies: "X is defined as ...", "Define X as ...", "X here is defined as ...".
_DEFINES = re.compile(
    r"\b(?:is|are)\s+(?:here\s+)?defined\s+as\b|^\s*(?:define\s+.+?\s+as|calculate\s+.+?\s+(?:using|as|from))\b|"
    r"^\s*where\s+\w+\s*=",
    re.IGNORECASE,
)
# "Here's the question: what is ..." and "Answer the following question ...: what is ...".
_AFTER_COLON = re.compile(r"^(?P<head>[^:]*\b(?:question|following)\b[^:]*):\s*(?P<need>\S.*)$", re.IGNORECASE)
# A leading instruction on how to answer: "Answer briefly: which ...", "In short, what ...", "Briefly, how ...".
_IN_FEW = r"in\s+(?:one|a|two|three|a\s+few)\s+(?:sentences?|words?|lines?)"
# Several may be joined ("Please answer briefly and cite the page: ..."): to cite, quote or give the page, source or
# reference is an instruction on the answer's form too.
_CITE = r"(?:cite|quote|give|include|name|show)\s+(?:the\s+|your\s+|its\s+)?(?:pages?|sources?|references?|citations?)"
_ONE_INSTRUCTION = (
    rf"(?:please\s+)?(?:(?:answer|respond|reply)(?:\s+(?:briefly|concisely|shortly|{_IN_FEW}))?|{_CITE})|briefly|"
    rf"in\s+(?:short|brief)|concisely|short\s+answer|{_IN_FEW}|quick\s+(?:one|question)"  # "Quick one: ..." prefaces
)
_HOW_TO_ANSWER = re.compile(
    # Each instruction is matched once, whole (an atomic group): "answer briefly" is never re-read as two, so a long
    # run of them cannot backtrack exponentially.
    rf"^\s*(?P<head>(?>{_ONE_INSTRUCTION})(?:\s*(?:,\s*|\s+)(?:and\s+)?(?>{_ONE_INSTRUCTION}))*+)\s*[:,]\s*"
    r"(?P<need>\S.*)$",
    re.IGNORECASE,
)
# A leading clause that only says where to look: "Based on the X, what is ...". Its source word opens it (within
# its first three words: "When primarily referencing the X"); one further in belongs to a condition that is part of
# the need ("If the parser is given this path as input, what ..."), and so does "Given a rate of 5%, ..." ("given
# the X" names a source).
_LEAD_CLAUSE = re.compile(
    rf"^(?P<head>[^,?]{{8,}}?),\s+(?P<need>(?:{_OPENERS})\b.*)$",
    re.IGNORECASE,
)
_LEAD_SOURCE = re.compile(
    r"^\s*(?:\S+\s+){0,2}(?:based|basing|according|using|utili[sz]ing|considering|referencing|drawing|relying|"
    r"taking|given\s+(?:the|its|their)|looking|from|within)\b",
    re.IGNORECASE,
)
# Where an instruction says to look: "shown in the X", "provided primarily within the X", "using the X".
_HINT = re.compile(
    r"\b(?:in|within|from|on|off\s+of|using|utili[sz]ing|referencing|considering)\s+(?:only\s+|primarily\s+|"
    r"mainly\s+)?(?P<where>(?:the|its|their)\s+[^,.;:?()]+?)(?=\s*(?:[,.;:?()]|$|\s+(?:to|and\s+(?:answer|"
    r"round|give|respond|then)|answer|round|give|respond|when|if|here)\b))",
    re.IGNORECASE,
)
_LAST_PLACE = re.compile(r"\b(?:in|within|from)\s+(?:only\s+|primarily\s+|mainly\s+)?(?=the\s)", re.IGNORECASE)
_PARENTHESIS = re.compile(r"\s*\(([^()]*)\)")
_UNITS = re.compile(r"^\s*in\s+(?:\S+\s+){0,2}\S+\s*$", re.IGNORECASE)  # "(in thousands)": how to write the answer
_POLITE = re.compile(r"\b(?:please|kindly|thank\s+you|thanks)\b[,!]?\s*", re.IGNORECASE)
_SENTENCE = re.compile(r"(?<=[.?!])\s+(?=[A-Z(\"'“])")
_ASKS = re.compile(
    rf"\?|^\s*(?:{_OPENERS}|list|name|describe|explain|compare|define|give|find|show|summari[sz]e|tell)\b",
    re.IGNORECASE,
)


class SearchQuery(BaseModel):
    """A question read for search: the information need, and what was kept out of it."""

    question: str = Field(description="The question as asked; the answer step sees it whole.")
    need: str = Field(description="The information need: the words that are searched.")
    hints: list[str] = Field(
        default_factory=list, description="Where the question's instructions say to look ('the annual table')."
    )
    dropped: list[str] = Field(
        default_factory=list,
        description="Spans kept out of the search: persona, format instructions, supplied definitions, politeness.",
    )

    @property
    def text(self) -> str:
        """What is searched: the need, then the hints."""
        return " ".join([self.need, *self.hints]).strip()

    @property
    def cleaned(self) -> bool:
        return bool(self.dropped) or self.need != self.question.strip()


def read_query(question: str) -> SearchQuery:
    """The question's information need, its hints, and the dropped spans. A question with nothing to drop is its
    own need; a question that is all instructions keeps its text."""
    text = " ".join(question.split())
    sentences = [s for s in _SENTENCE.split(text) if s.strip()]
    asking = [s for s in sentences if _ASKS.search(s)]
    need: list[str] = []
    hints: list[str] = []
    dropped: list[str] = []
    for sentence in sentences:
        kept, sentence_hints, sentence_dropped = _read_sentence(sentence, several=len(sentences) > 1, asking=asking)
        need += [kept] if kept else []
        hints += sentence_hints
        dropped += sentence_dropped
    need_text = " ".join(need).strip()
    if not need_text:  # all instructions: search the whole question rather than nothing
        return SearchQuery(question=question, need=text)
    hints = [h for h in dict.fromkeys(hints) if h.casefold() not in need_text.casefold()]
    return SearchQuery(question=question, need=need_text, hints=hints, dropped=dropped)


def _read_sentence(sentence: str, several: bool, asking: list[str]) -> tuple[str, list[str], list[str]]:
    """(what the sentence adds to the need, its hints, its dropped spans)."""
    if _PERSONA.search(sentence):
        return "", _hints(sentence), [sentence]
    if several and _DEFINES.search(sentence):
        return "", [], [sentence]
    heads = []  # "Answer briefly, in one sentence: ...": each instruction in turn (a loop: no depth to exhaust)
    while (how := _HOW_TO_ANSWER.match(sentence)) and _ASKS.search(how.group("need")):
        heads.append(how.group("head"))
        sentence = how.group("need")
    if heads:
        kept, hints, dropped = _read_sentence(sentence, several, asking)
        return kept, hints, [*heads, *dropped]
    colon = _AFTER_COLON.match(sentence)
    if colon and _ASKS.search(colon.group("need")):
        head = colon.group("head")
        kept, hints, dropped = _read_sentence(colon.group("need"), several, asking)
        return kept, _hints(head) + hints, [head, *dropped]
    lead = _LEAD_CLAUSE.match(sentence)
    if lead and _LEAD_SOURCE.match(lead.group("head")):
        kept, hints, dropped = _read_sentence(lead.group("need"), several, asking)
        return kept, _hints(lead.group("head")) + hints, [lead.group("head"), *dropped]
    # An instruction beside the sentence that asks; the asking sentence itself keeps its words.
    # A wish is framing unless a question beside it (not an instruction: "Give the answer in millions.") leans on it.
    questions = [a for a in asking if a != sentence and not (_META.search(a) and _instructs(a))]
    framing = _META.search(sentence) or (_WANTS.match(sentence) and questions and not any(map(_leans, questions)))
    if several and framing and (sentence not in asking or (len(asking) > 1 and _instructs(sentence))):
        return "", _hints(sentence), [sentence]
    kept, dropped = sentence, []
    for match in _PARENTHESIS.finditer(sentence):  # "(in units of percents and rounded)" inside the need
        if _META.search(match.group(1)) or _UNITS.match(match.group(1)):
            kept = kept.replace(match.group(0), "")
            dropped.append(match.group(1))
    polite = _POLITE.sub("", kept)
    if polite != kept:
        dropped.append("please")
    return polite.strip(), [], dropped


def _leans(question: str) -> bool:
    """A question that cannot stand without the sentence before it: it refers back, or holds too few words of its
    own (fewer than `_OWN_WORDS`, beside its question words)."""
    own = [w for w in re.findall(r"[\w'./-]*\w", question.casefold()) if w not in _ASKING_WORDS]
    return bool(_REFERS_BACK.search(question)) or len(own) < _OWN_WORDS


def _instructs(sentence: str) -> bool:
    """An asking sentence that is itself an instruction ("Respond by ...", "If X is not useful, state that")."""
    first = sentence.split(maxsplit=1)[0].casefold() if sentence.split() else ""
    return first in {"answer", "respond", "round", "give", "provide", "use", "calculate", "approach", "if"}


def _hints(text: str) -> list[str]:
    """Where the text says to look: its 'in the X' phrases."""
    out = []
    for match in _HINT.finditer(text):
        where = _LAST_PLACE.split(match.group("where"))[-1]  # "the details shown in the X" -> "X"
        where = re.sub(r"^(?:the|its|their)\s+", "", where, flags=re.IGNORECASE).strip()
        if where and not _META.search(where) and len(where.split()) <= 8:
            out.append(where)
    return out
