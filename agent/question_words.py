"""The words that shape a question but carry no subject matter: question words, auxiliaries, verbs of asking and
the function words a question leans on. Removed before coverage checks and broadening (`agent.intent`). And the
phrase asking where something is written ("which section covers X"), whose answer is a part's name."""

from __future__ import annotations

import re

from kb.text import AUXILIARIES, WH_WORDS

# Words that shape a question but carry no subject matter; removed before coverage checks and broadening.
QUESTION_WORDS = (
    frozenset(WH_WORDS)
    | frozenset(AUXILIARIES)
    | frozenset(
        (  # noqa: SIM905 - a readable word list
            "describe explain list name give tell discuss summarize "
            "summarise define definition mean meaning means meant please provide show main key primary specific "
            "particular various different difference differences differ compare compared comparison contrast between "
            "versus vs way ways kind kinds type types may might must there their them "
            "they this that these those such some any many much also about regarding according paper papers study "
            "document documents use used using make made makes achieve achieved offer offers bring brings "
            "contribute contributes ensure ensures provide provides upon "
            # Prepositions ("since which release", "without the flag, how many", "variables like X"): a passage's
            # "[since 2.1]" says when of anything, "without" is in no statement of what holds; and "that one".
            "since until without within via like one "
            # "..., including an empty line?": what follows is asked about; "including" itself names nothing.
            "including "
            # Verbs asking what a named thing means or sets off, and a reader's "problem" and "fix": they ask, the
            # evidence answers in its own words ("ERR_X: thrown when ...").
            "indicate indicates signify signifies relate relates trigger triggers triggered problem fix "
            # An aside's abbreviations and a contrast's adverb ("i.e. does it give 4 rather than 5?") name nothing,
            # nor does a reader speaking of themself ("I'm used to X"; "am": LOWER_CASE_QUESTION_WORDS).
            "i.e e.g rather i'm i’m i've i’ve i'd i’d "
            # Someone unnamed wanting something ("why would anyone want to turn X off?") frames the question; the
            # evidence says what X does, not who wants it.
            "anyone anybody someone somebody want wants "
            # Emphasis ("Exactly which code ...", "what does X actually do?") asks more insistently, no more.
            "exactly actually really precisely "
            # Reporting what a text states ("is this something the manual says can happen?"): the evidence states
            # it; neither the verb nor the indefinite pronoun is a thing asked about.
            "say says something anything "
            # "What happens to X?", "how can I tell it happened?": asking for an outcome, which the evidence states
            # in its own verbs ("the excess is discarded").
            "happen happens happened happening "
            # "If I never set X": a negation asks as "not" (a stop word) does; a document says "if X is not set".
            "never "
            # How often a reader sees something ("why does X often fail?", "is it usually set?") and "another" (as
            # "other", a stop word): the evidence states what holds, seldom how often the reader meets it.
            "often usual usually typically generally normally commonly frequently sometimes another "
            # "instead" points back to what the question already named ("what should I use instead?").
            "instead"
        ).split()
    )
    # A negated auxiliary ("Why aren't services ...", "a path that doesn't start with ./") asks as the auxiliary does.
    | frozenset(
        f"{verb}{apostrophe}t"
        for verb in "aren isn wasn weren don doesn didn can won hasn haven hadn shouldn couldn wouldn".split()  # noqa: SIM905
        for apostrophe in ("'", "’")
    )
)
# Words that ask only as written in lower case: "what limit am I hitting?" asks; "AM" is an acronym the evidence holds.
# So does "get" as "make" ("which ones get locked", "how do I get it back"), a light verb the evidence words its own
# way; "a GET request" names a method.
LOWER_CASE_QUESTION_WORDS = frozenset({"am", "get", "gets", "got", "getting"})


# Asked where something is written ("which chapter explains X", "which part of the manual covers X"): a section,
# chapter or appendix, or a part of a document named by a generic noun, not a part of a thing ("what part of the
# pump covers the impeller").
_DOCUMENT = (
    r"(?:manual|guide|document|documentation|docs|specification|standard|book|report|paper|reference|page|overview|"
    r"faq|chapter)"
)
ASKS_WHERE = re.compile(
    r"\b(?:which|what)\s+(?:(?:sections?|chapters?|appendix|appendices)\s+(?:of\s+(?:the\s+)?(?:[\w.’'()-]+\s+){0,4}?)?|"
    rf"parts?\s+of\s+(?:the\s+)?(?:[\w.’'()-]+\s+){{0,3}}?{_DOCUMENT}\s+)"
    r"(?:covers?|explains?|describes?|discuss(?:es)?|deals?\s+with|documents?|talks?\s+about|is\s+about|gives?|"
    r"lists?|defines?|specif(?:y|ies)|presents?|"
    # "which section tells me / says / spells out ...", "which section should I read for ...": generic verbs of what
    # a text says ("has", "contains", "shows" are a thing's too: "which section of the beam has the most load").
    r"tells?(?:\s+(?:me|us|you))?|says?|spells?\s+out|mentions?|"
    r"(?:should|do|can|must)\s+(?:i|we|you)\s+(?:read|see|check|consult))\b",
    re.I,
)
