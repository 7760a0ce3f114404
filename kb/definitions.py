"""Where a term is defined: "what does X mean", "define X" and "what is X" prefer the passage that defines X.

A term's definition is usually not where the term is used most: a definitions or acronyms section, the first use
with its long form in parentheses ("X (the long form)", "the long form (X)"), or a sentence "X is ..." / "X means
...". Search ranks the passages holding the term by how they define it, and fuses that ranking with the others.
"""

from __future__ import annotations

import re

from kb.text import is_identifier

# The question forms that ask for a definition; the term is at most five words (a phrase, not a topic).
_ASKS = [
    re.compile(
        r"^\s*what\s+(?:does|do|did)\s+(?:the\s+)?(?:term\s+|acronym\s+|abbreviation\s+)?(?P<t>[^?]{1,60}?)\s+"
        r"(?:stand\s+for|mean|refer\s+to)(?:\s+(?:in|within|under)\s+[^?,]{1,60}?)?(?:\s*,?\s+and\s+[^?]*)?\s*\??\s*$",
        re.IGNORECASE,
    ),
    re.compile(
        r"^\s*(?:define|definition\s+of|meaning\s+of)\s+(?:the\s+)?(?:term\s+)?(?P<t>[^?]{1,60}?)\s*\??\s*$",
        re.IGNORECASE,
    ),
    re.compile(
        r"^\s*what\s+is\s+(?:meant\s+by|the\s+(?:definition|meaning)\s+of)\s+(?:the\s+)?(?P<t>[^?]{1,60}?)"
        r"\s*\??\s*$",
        re.IGNORECASE,
    ),
    # A term put first, then asked about: "lock flight - what is it?", "ZX-9: what's that?"; not a request ("tell me
    # about X - what is it?").
    re.compile(
        r"^\s*(?!(?:how|what|why|which|who|where|when|tell|explain|describe|is|are|do|does|can|should)\b)"
        r"(?P<t>[^?:;,]{1,60}?)\s*(?:\s[-–—]|[:?,])\s*what(?:'s|’s|\s+is|\s+are)\s+(?:it|that|this|they|those)"
        r"(?:\s+exactly)?\s*\??\s*$",
        re.IGNORECASE,
    ),
    re.compile(r"^\s*what\s+(?:is|are)\s+(?:an?\s+|the\s+)?(?P<t>[^?,;]{1,60}?)\s*\??\s*$", re.IGNORECASE),
    # "What was X?" asks about a thing of the past by its name ("What was the LKP?"); "what was the margin of X"
    # asks for a figure: a name of at most three words, one of them capitalised, and no "of".
    re.compile(
        r"^\s*(?i:what\s+(?:was|were)\s+(?:an?\s+|the\s+)?)(?P<t>(?=[^?]*\b[A-Z])(?![^?]*\bof\b)[^?,;\s]+(?:\s+[^?,;\s]+){0,2})"
        r"\s*\??\s*$"
    ),
]
# Section labels of the places that define terms. Generic and few: the names documents give such sections.
_SECTION = re.compile(
    r"\b(?:definitions?|glossary|acronyms|abbreviations|terms\s+and\s+definitions|terminology|notation|symbols)\b",
    re.IGNORECASE,
)
_FIGURE = re.compile(r"^(?:fy)?\d[\d.,]*$", re.IGNORECASE)
# A question may open by naming where to look ("In the manual, what does X mean?"): not part of the term.
_WHERE = re.compile(r"^\s*(?:in|within|according\s+to|under)\s+[^,?]{1,60},\s*", re.IGNORECASE)
_QUOTES = "\"'“”‘’"
# Double or curly quotes (an apostrophe inside: "the “keeper’s flight”"), or single ones set off by spaces.
_QUOTED = re.compile(r"[\"“‘]((?:[^\"“”‘’]|’(?=\w)){2,60})[\"”’]|(?<!\w)'([^']{2,60})'(?!\w)")


# A term named first, then asked about by a pronoun: "When the loader expands the $QZROOT token, what does it stand
# for?", "The log says 'lock flight'; what does that mean?".
_ASKS_BACK = re.compile(
    r"^\s*(?P<c>[^?]{3,160}?)\s*[,;:]\s*what\s+(?:does|do|did)\s+(?P<p>it|that|this|they)\s+"
    r"(?:stand\s+for|mean|refer\s+to)\s*\??\s*$",
    re.IGNORECASE,
)


def _named_before(clause: str, pronoun: str) -> str:
    """What a pronoun asked about refers to: the phrase the clause quotes, else the one name in code it writes
    ("$QZROOT", "QZROOT's value", "QZ_MODE=2"), and only for "it" or "they" ("I set QZ_MODE to 2, what does this
    mean?" asks what happened); "" when it writes none or several."""
    quoted = _QUOTED.search(clause)
    if quoted:
        return (quoted.group(1) or quoted.group(2)).strip()
    if pronoun.lower() not in ("it", "they"):
        return ""
    bare = (re.sub(r"['’]s$", "", raw.split("=")[0].strip(".,;:()[]{}\"'`$%")) for raw in clause.split())
    names = {w for w in bare if w and is_identifier(w)}
    return names.pop() if len(names) == 1 else ""


def defined_term(need: str) -> str:
    """The term a question asks to define, or "" when it asks something else. "What is X" names a term only when X
    is at most four words, none of them a bare number or year ("the FY2020 total" asks for a figure), as is "what was
    X"; the other forms allow five words. "..., what does it mean?" asks about what the clause before names."""
    asked = _WHERE.sub("", need.strip())
    back = _ASKS_BACK.match(asked)
    if back:
        return _named_before(back.group("c"), back.group("p"))
    for i, pattern in enumerate(_ASKS):
        match = pattern.match(asked)
        if match:
            term = match.group("t").strip()
            # A phrase in quotes is the term, whatever is said around it ("the gate's \"lock state\"").
            quoted = _QUOTED.search(term)
            term = ((quoted.group(1) or quoted.group(2)) if quoted else term).strip(_QUOTES).strip()
            term = re.sub(r"^(?:an?|the)\s+", "", term, flags=re.IGNORECASE)
            term = re.sub(r"\s+(?:used\s+)?for$", "", term, flags=re.IGNORECASE)  # "what is X (used) for?"
            short = len(term.split()) <= 4 and not any(_FIGURE.match(word) for word in term.split())
            if term and len(term.split()) <= 5 and (i < len(_ASKS) - 2 or short):
                return term
    return ""


def _patterns(term: str) -> list[re.Pattern[str]]:
    """How a passage defines the term, strongest first."""
    t = r"\s+".join(re.escape(part) for part in term.split())
    q = f"[{_QUOTES}]?"
    return [
        # "X (the long form)" and "the long form (X)": an abbreviation introduced with its expansion ("Xs (...)").
        # The long form's parenthesis may go on: "the long form (X, as per ...)".
        re.compile(
            rf"(?<![\w-]){q}{t}s?{q}\s*\(\s*[A-Za-z][^()]{{2,80}}\)|\([^()]{{0,20}}{q}{t}{q}\s*(?:[,;]\s*[^()]{{0,60}})?\)",
            re.I,
        ),
        # "X is/means/refers to/stands for ...", "X: ..." and "X | ..." (a glossary entry or an acronyms table row).
        # "... a mechanism called X", "known as X"; "we introduce X, a new ..." (a name given with what it is).
        re.compile(
            rf"(?:^|[\n.;]\s*|\s){q}{t}{q},?\s+(?:is|are|means?|refers?\s+to|stands?\s+for|denotes?|"
            rf"(?:is|are)\s+defined\s+as)\b|(?:^|\n)\s*{q}{t}{q}\s*(?::|\||–|—|-\s)|"
            rf"\b(?:called|named|termed|dubbed|known\s+as|referred\s+to\s+as)\s+(?:the\s+)?{q}{t}s?{q}(?![\w-])|"
            rf"\b(?:introduces?|presents?|proposes?|specif(?:y|ies)|defines?)\s+{q}{t}{q},\s+(?:an?|the)\s",
            re.I,
        ),
    ]


def defines(text: str, term: str) -> int:
    """How strongly the text defines the term: 2 for an expansion ("X (long form)"), 1 for a defining sentence
    ("X is ..."), 3 for both, 0 when it does not."""
    if not term:
        return 0
    expansion, sentence = _patterns(term)
    return 2 * bool(expansion.search(text)) + bool(sentence.search(text))


def defining_rank(records: list[dict], term: str) -> list[dict]:
    """The records that define the term, best first: a definitions section or an expansion, then a defining
    sentence; ties keep the given order (the records' lexical rank)."""
    if not term:
        return []
    patterns = _patterns(term)
    scored = []
    for order, record in enumerate(records):
        text = record["text"]
        strength = 0
        if _SECTION.search(record.get("section", "")) and re.search(re.escape(term), text, re.IGNORECASE):
            strength += 2
        if patterns[0].search(text):
            strength += 2
        if patterns[1].search(text):
            strength += 1
        if strength:
            scored.append((-strength, order, record))
    scored.sort(key=lambda item: (item[0], item[1]))
    return [record for _, _, record in scored]


def defined_in(question: str, term: str) -> bool:
    """Whether the question itself spells out or defines the term ("days payable outstanding (DPO)", "DPO is
    defined as ...", "Define X as ..."): the evidence need not print it, only what it stands for."""
    t = re.escape(term)
    # A name in code (words joined by underscores) in parentheses names what the words before it describe ("the
    # block size of X (X_BLOCK_SIZE)"); it abbreviates nothing, nor does a variable expanded as "$(X)".
    spelled = "" if "_" in term else rf"(?<!\$)\(\s*{t}s?\s*\)|"
    pattern = (
        rf"{spelled}\b{t}\s+(?:is|are)\s+(?:here\s+)?defined\s+as\b|"
        rf"\bdefine\s+(?:[\w-]+\s+){{0,3}}{t}\s+(?:as|using)\b|\bcalculate\s+(?:[\w-]+\s+){{0,3}}{t}\s+(?:as|using)\b"
    )
    return bool(re.search(pattern, question, re.IGNORECASE))


def spelled_out(acronym: str, text: str) -> str:
    """The words the text spells the acronym out with, "long form (ACR)": as many words before the parenthesis
    as the acronym has letters; "" when the text does not spell it out."""
    match = re.search(rf"((?:[\w'’-]+\s+){{1,10}})\(\s*{re.escape(acronym)}s?\s*\)", text)
    letters = sum(c.isalpha() for c in acronym)
    return " ".join(match.group(1).split()[-letters:]) if match and letters else ""
