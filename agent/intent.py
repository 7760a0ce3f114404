"""Reading a question: its intent (compare, definition, procedure, general), compare topics, key terms, identifiers."""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, Field

from agent.evidence import is_acronym_plural, written_code
from agent.question_words import ASKS_WHERE, LOWER_CASE_QUESTION_WORDS, QUESTION_WORDS
from kb.definitions import defined_in, defined_term, spelled_out
from kb.periods import is_period, join_periods
from kb.sentences import sentences
from kb.text import AUXILIARIES, STOPWORDS, is_common_word, is_identifier, without_possessive, words

Intent = Literal["compare", "definition", "procedure", "general"]

_COMPARE = [
    re.compile(r"\b(?:differences?|distinctions?|contrast)\s+between\s+(?P<a>.+?)\s+and\s+(?P<b>.+)", re.I),
    # "compare A with B", but not "X compare(s) to B", whose first topic comes before the verb (the next pattern).
    re.compile(
        r"\bcompare\s+(?!(?:to|with|against)\b)(?P<a>.+?)\s+(?:and|with|to|against|versus|vs\.?)\s+(?P<b>.+)", re.I
    ),
    re.compile(
        r"\bhow\s+(?:does|do|is|are)\s+(?P<a>.+?)\s+(?:differ\s+from|compare\s+(?:to|with)|different\s+from)\s+"
        r"(?P<b>.+)",
        re.I,
    ),
    # "how do A and B differ (in ...)?", "how do A and B compare?"
    re.compile(r"\bhow\s+(?:do|did|does)\s+(?P<a>.+?)\s+and\s+(?P<b>.+?)\s+(?:differ|compare|contrast)\b", re.I),
    re.compile(r"(?P<a>[^,;:?]+?)\s+(?:vs\.?|versus)\s+(?P<b>.+)", re.I),
]
# "A or B?" asks to choose between two named things: "Which is faster, A or B?", "Which is fastest, A, B or C?",
# "Is A or B recommended for ...?", "A or B: which ...?". Both sides must be names (identifiers or capitalised words,
# not bare figures), so "is it cheaper or faster?" and "is the port 22 or 2222?" stay plain questions, and so does a
# yes/no question about two things ("Does X support A or B?").
_AUXILIARY = f"(?:{'|'.join(AUXILIARIES)})"
_ASKING = rf"(?:which|what|who|{_AUXILIARY})"
_NAME_WORD = rf"(?!(?i:{_ASKING})\b)[A-Z0-9/][\w.'’+/-]*"  # a path ("/bin") names a thing too
_NAME = rf"{_NAME_WORD}(?:\s+{_NAME_WORD}){{0,3}}"
_ALTERNATIVES = re.compile(rf"(?<![\w-])(?P<a>{_NAME})\s+or\s+(?P<b>{_NAME})(?![\w-])")
# Case matters for the names, not for the question words (`_NAME` needs a capital, a figure or a path).
_CHOOSING = re.compile(
    r"^\s*(?i:which|what|who|where|when)\b|\b(?i:which)\b|^[^:?]{1,80}\bor\b[^:?]{1,80}:\s|"
    rf"^\s*(?i:{_AUXILIARY})\s+(?:(?i:the)\s+)?{_NAME}\s+or\s"  # "Is A or B ...?": the choice right after the verb
)
# "Which is fastest, A, B or C?": the list after the comma, which offers a choice ("or"); "... such as A, B, and C?"
# lists examples.
_CHOICE_LIST = re.compile(
    r"^\s*(?:which|what|who)\b[^,?:]*,\s*(?P<a>[^,?]+?),\s*(?P<b>[^?]*?\bor\s[^?]+?)\s*\??\s*$", re.I
)
# The verbs of a comparison's first side ("Does A perform better", "Did A earn more"): generic, few.
_VERBS = r"(?:perform|do|work|score|fare|run|have|has|had|earn|make|get|use|show|achieve|offer|need|produce|cost)s?"
# Comparisons only when both sides name something (an identifier or a capitalised word).
_COMPARE_NAMED = [
    # "Is A better than B (or C)?"; a verb may stand before the adjective ("Does A perform better ...", "Did A earn
    # more revenue ..."). "rather than" compares nothing.
    re.compile(
        rf"^\s*{_ASKING}\s+(?P<a>.+?)(?:\s+{_VERBS})?\s+(?:(?!rather\b)\w+er|more\s+\w+|less\s+\w+)\s+than\s+(?P<b>.+)",
        re.I,
    ),
    # "compare the sizes of A and B": the aspect before "of" is no topic.
    re.compile(
        r"\bcompare\s+(?:the\s+)?(?:(?!(?:with|to|against|versus|vs)\b)[\w-]+\s+){1,6}?(?:of|for)\s+"
        r"(?P<a>.+?)\s+(?:and|with|to|against|versus|vs\.?)\s+(?P<b>.+)",
        re.I,
    ),
]
# Asking for steps ("How do I", "How should a hook", "What must the installer do"), opening the question or a clause
# of it ("My box tracks stable. How do I ...?"); "How does a client pick IDs?" may ask how a thing works.
_PROCEDURE = re.compile(
    r"(?:^|(?<=[.?!,;:]\s))\s*(?:how\s+(?:do|does|can|should|would|to)\s+(?:i|we|you|one)\b|how\s+to\b|"
    r"how\s+(?:can|should|could|must)\s+(?:a|an|the|my|our|your|their)\s+[\w-]+|"
    r"what\s+(?:must|should)\s+(?:i|we|you|one|(?:a|an|the|my|our|your)\s+[\w-]+)\s+do\b)|"
    r"\b(?:steps?|procedure|instructions?|step-by-step)\b",
    re.I,
)
_TOPIC_TAIL = re.compile(
    r"\s*(?:[,;(]|:(?=\s|$)|\b(?:in\s+terms\s+of|with\s+respect\s+to|regarding|for|on|in|across|when|(?<!well\s)(?-i:as)(?!/|\s+well\s+as\b)|"
    r"and\s+(?:what|how|why|which))\b).*$",
    re.I,
)
# A topic's tail (a colon in a name, "Qz::Max-Wait", ends none) but for commas, which may separate listed topics.
_TOPIC_TAIL_WORDS = re.compile(_TOPIC_TAIL.pattern.replace("[,;(]", "[;(]"), re.I)
_LIST = re.compile(r"\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or|vs\.?|versus|as\s+well\s+as)\s+", re.I)
_LEADING = re.compile(r"^\s*(?:(?:the|a|an|both|between|to|with|from|against|and|or)\s+)+", re.I)
# A pronoun is no topic: "how does it compare to X" leans on the conversation (see agent.followup).
_PRONOUN_TOPIC = re.compile(r"^(?:it|its|they|them|this|that|these|those|he|she)$", re.I)


class QuestionReading(BaseModel):
    """What the route step understood about a question."""

    intent: Intent = Field(description="compare, definition, procedure or general.")
    topics: list[str] = Field(default_factory=list, description="The topics of a compare question, two or more.")
    key_terms: list[str] = Field(default_factory=list, description="Content terms of the question, identifiers first.")
    identifiers: list[str] = Field(default_factory=list, description="Technical identifiers and acronyms.")
    names: list[str] = Field(
        default_factory=list,
        description="Rare capitalised names that are not identifiers ('Winograd'): some passage must hold each.",
    )
    story: list[str] = Field(
        default_factory=list,
        description="Words of a situation told before the question ('My script crashes with EQZ. What does that "
        "mean?'): they anchor its identifiers, but are no terms the evidence must cover.",
    )
    written: list[str] = Field(
        default_factory=list,
        description="Code the question writes as it is typed, a long option ('--qz-errors') or a call "
        "('glue()'): some passage must hold it as written, not only its words.",
    )
    error: str | None = Field(None, description="Why the question cannot be processed as asked, if it cannot.")


# A unit of size, frequency or rate right after a number ("10 GB", "3 GHz", "64KiB"): the few generic ones written in
# capitals, which would otherwise read as names.
_UNIT = re.compile(r"(?<![\w.])\d[\d.,]*\s*([KMGTPE]i?B|[kKMGT]?Hz|[KMG]bps)\b")
# An acronym joined to a word describing by it ("CPU-bound", "I/O-heavy", "TCP/IP-based", "GPU-accelerated")
# describes; it names nothing a passage must write as the question does ("a process using much CPU time" is one).
# "SSH-agent" names a program: only adjectives' endings, generic and few.
_DESCRIBED = re.compile(
    r"^[A-Z]{2,}(?:/[A-Z]+)*-(?:[a-z]+-)*(?:bound|heavy|intensive|based|aware|only|specific|friendly|like|safe|free|"
    r"capable|compatible|[a-z]{3,}ed|[a-z]{3,}ing)$|^[A-Z]/[A-Z]-(?:[a-z]+-)*[a-z]{3,}$"
)
# A value naming what is asked about, after the noun of a code ("exit status of 17", "error 0x1F").
_CODED_VALUE = re.compile(r"\b(?:status|code|error|errno|signal)\s+(?:of\s+)?(\d+|0x[0-9A-Fa-f]+)\b", re.I)
_OPENER = re.compile(r"(?:^|[.?!:;]\s+|[\"“(]\s*)([^\W\d_][\w'’-]*)")


# A verb's -ing form before a name and a preposition says what is done with the named thing ("Does asking X-256
# for a longer output give more than Y-256?", "Is using QZ-9 with ... faster"): the topic is the thing. Without the
# preposition it may be the name's qualifier ("operating EBITDA", "underlying EPS").
_GERUND = re.compile(r"^\s*[a-z]{2,}ing\s+(?=(?P<name>\S+)\s+(?:for|with|to|on|in|at|by|from|as|under)\b)")


# A yes/no question judging what a story told ("Is that expected?", "Is this normal behaviour?"): generic
# evaluative English, few.
_JUDGED = re.compile(
    r"^\s*(?:is|are|was|were)\s+(?:that|this|it|these|those)\s+(?:the\s+)?(expected|normal|intended|correct)\b",
    re.I,
)
# A topic written in quotes is named as written ('"Lock: source"'): its colon or "for" ends no phrase.
_QUOTED = re.compile(r"^\s*[\"“‘](?P<inner>[^\"“”‘’]+)[\"”’]\s*[?.!]?\s*$")


def _clean_topic(text: str) -> str:
    if quoted := _QUOTED.match(text):
        return quoted.group("inner").strip()
    text = text.strip().strip("?.!\"'“”")
    gerund = _GERUND.match(_LEADING.sub("", text))
    text = _TOPIC_TAIL.sub("", text)
    text = _LEADING.sub("", text)
    if gerund and is_identifier(gerund.group("name")):
        text = text.split(" ", 1)[-1]
    return re.sub(r"(?:'s|’s)\b", "", text).strip(" ?.!,").strip("\"'“”‘’")  # "'|' in X": its quote, too


def _listed(text: str) -> list[str]:
    """A topic that lists named things ("ZX-9 and QR-7", "A, B or C") is a topic for each; other text ("cost and
    risk", "A and B, in terms of cost" cut to its list) is one topic, cleaned. Each item is a short name (at most
    four words, opening with a capital, a figure or a path: a clause such as "according to X" is no item), and items
    joined by "and" / "or" alone need an identifier among them, or each a letter or figure of its own ("Model A and
    Model B"): "Heron and Falcon", "Research and Development expense" are one name."""
    if _QUOTED.match(text):
        return [_clean_topic(text)]
    parts = [_clean_topic(p) for p in _LIST.split(_TOPIC_TAIL_WORDS.sub("", text.strip(" ?.!")))]
    parts = [p for p in parts if p]
    items = len(parts) > 1 and all(_NAME_ITEM.match(p) and len(p.split()) <= 4 and _named(p) for p in parts)
    coded = any(is_identifier(t) for p in parts for t in content_terms(p)) or all(_CODED.search(p) for p in parts)
    if items and ("," in text or coded):
        return parts
    return [t for t in [_clean_topic(text)] if t]


_NAME_ITEM = re.compile(r"^[A-Z0-9/]")
_FIGURE_ONLY = re.compile(r"^[\d.,%]+$")
_CODED = re.compile(r"\b[A-Z0-9]\b")  # "Model A", "Type 2": a name told apart by a letter or a figure


def _only_periods(topic: str) -> bool:
    terms = content_terms(topic)
    return bool(terms) and all(is_period(t) for t in terms)


def _norm(text: str) -> str:
    """A topic's words in lower case: "ZX-9" and "zx-9" are one topic, "Model A" and "Model B" two (the search
    tokenizer would drop their letters), and so are "x++" and "++x" (an operator's place is its meaning)."""
    return " ".join(re.findall(r"[^\s\"'“”‘’,;:!?()]+", text.casefold())) or text.strip()  # a symbol is its own name


_ASIDE = re.compile(r"\s*\([^()]*\)")


def _sides(q: str) -> list[tuple[str, str, bool]]:
    """The two sides of each way the question may be read as a comparison, most specific first, and whether each of
    its topics must name something."""
    # An aside in parentheses qualifies a word ("latencies (warm vs cold)", "Model A (the 2019 one)"): no side of it.
    plain = " ".join(_ASIDE.sub(" ", q).split())
    found = [(m.group("a"), m.group("b"), True) for pattern in _COMPARE_NAMED if (m := pattern.search(plain))]
    found += [(m.group("a"), m.group("b"), False) for pattern in _COMPARE if (m := pattern.search(plain))]
    if _CHOOSING.search(q):
        if m := _CHOICE_LIST.match(q):
            found.append((m.group("a"), m.group("b"), True))
        pairs = [(m.group("a"), m.group("b")) for m in _ALTERNATIVES.finditer(q)]
        found += [(a, b, False) for a, b in pairs if not (_FIGURE_ONLY.match(a) or _FIGURE_ONLY.match(b))]
    return found


_COMPOUND = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)+$")  # "inner-ring", "32-bit"


def _shared_head(first: str, second: str) -> str:
    """A first side that is a lone compound modifier, as the second side's first word is, shares the second side's
    noun: "the inner-ring and outer-ring seals of X" compares the inner-ring seals of X with the outer-ring
    ones. A plain word may be a noun of its own ("revenue and net income"), so it keeps its own."""
    words = second.split()
    parallel = _COMPOUND.match(first) and _COMPOUND.match(words[0].lower())
    return " ".join([first, *words[1:]]) if parallel and len(words) > 1 else first


def _named(text: str) -> bool:
    """Whether the text names something: an identifier or a capitalised word among its terms."""
    return any(is_identifier(t) or t[:1].isupper() for t in content_terms(text))


# Phrases that frame what is asked rather than name it: "what does X stand for", "what counts as X", "in the context
# of X", "what is going on", "what went wrong", "what does it permit?", "which part of the manual covers X" (the
# answer is a heading:
# "part", "manual" and "covers" are no words of it). Their words are no terms the evidence must hold.
_FRAMING = re.compile(
    r"\b(?:stands?\s+for|counts?\s+as|(?:is|are)\s+meant\s+by|refers?\s+to|in\s+the\s+context\s+of)\b|"
    r"\b(?:is|’s|'s)\s+going\s+on\b|\b(?:went|goes|go|is|’s|'s|doing)\s+wrong\b|\b(?:i|we|you)\s+do\s+wrong\b|\bwhat\s+(?:has\s+)?happened\b|"
    r"\bpermits?(?=\s*\?)|\bat\s+the\s+same\s+time\b|"  # "what does it permit?" asks; "at the same time": at once
    + ASKS_WHERE.pattern,
    re.I,
)


def content_terms(text: str) -> list[str]:
    """The words of `text` that carry meaning, in order, possessives stripped, without duplicates."""
    out: list[str] = []
    for raw in words(_FRAMING.sub(" ", text)):
        word = without_possessive(raw)
        low = word.lower()
        asks = low in QUESTION_WORDS or word in LOWER_CASE_QUESTION_WORDS
        if low in STOPWORDS or asks or (len(low) < 2 and not word.isdigit()):
            continue
        if word not in out:
            out.append(word)
    return out


# A name told apart by a number ("Level 5", "Class 2", "Tier 1"): found only with its number, since the word with
# another one ("Level 3") names something else. A reference to a part of a document ("Section 4", "Table 2") or a
# date ("May 3") is none, and a number before a lower-case word counts what follows ("About 10 gates"); the words
# are generic and few.
_CODED_NAME = re.compile(r"(?<![\w-])([A-Z][a-z]{2,})\s+(\d{1,3})(?![\w,%-]|\.\d|\s+[a-z])")
_NOT_CODED = frozenset(
    (  # noqa: SIM905 - a readable word list
        "section chapter table figure page item appendix part step line note equation version release fig sec "
        "exhibit article clause theorem lemma listing year january february march april may june july august "
        "september october november december jan feb mar apr jun jul aug sep sept oct nov dec"
    ).split()
)


def read_question(question: str, whole: str | None = None, own_terms: int = 0) -> QuestionReading:
    """Read a question (or its information need, with `whole` the question it came from). Asked after a reader's
    story, a question holding `own_terms` content terms of its own (0: never) is about them, not about the story's
    names (see `CheckSettings.story_own_terms`)."""
    q = join_periods(" ".join(question.split()))
    terms = content_terms(q)
    # Periods are matched by their year; a name the question defines need not be printed in the evidence, but
    # what it spells out must be ("days payable outstanding (DPO)": days, payable, outstanding).
    defined = [t for t in terms if is_identifier(t) and defined_in(whole or q, t)]
    spelled = [w for t in defined for w in content_terms(spelled_out(t, whole or q))]
    terms = list(dict.fromkeys([*(t for t in terms if t not in defined), *spelled]))
    # A reader's situation told before the question, naming what it is about (sentences as `kb.sentences` splits
    # them: "i.e. at night?" ends none).
    *told_before, asked = sentences(q) or [""]
    prior = " ".join(told_before)
    told = bool(prior) and asked.rstrip().endswith("?") and "?" not in prior
    told = told and any(is_identifier(t) for t in content_terms(prior))
    # "Is that expected?" after a story asks whether what the story tells is so: the evaluation is no term.
    judged = _JUDGED.match(asked) if told else None
    if judged:
        terms = [t for t in terms if t.lower() != judged.group(1).lower()]
    asked_terms = set(content_terms(asked)) - ({judged.group(1)} if judged else set())
    # The story's names are what is asked about ("... crashes with EQZ. What does that mean?"), unless the question
    # names its own ("I'm used to QZ-1. How do I set qzsh's prefix in ~/.qzsh.conf?") or says enough of its own
    # ("I've got a QZ disk ... Which options keep it from being mounted at boot?"): then they are the story's too.
    own = any(is_identifier(t) or re.search(r"\w[./]\w", t) for t in asked_terms)  # a file ("qzsh.conf") too
    own = own or (own_terms > 0 and len(asked_terms) >= own_terms)
    story = [t for t in terms if (own or not is_identifier(t)) and t not in asked_terms] if told else []
    units = set(_UNIT.findall(q))  # "10 GB" is a quantity: a document may write "10G" or "10 gigabytes"
    # A setting written as it is set ("Keep=true", "flush=") and a value after a code noun ("an exit status of 17":
    # what 17 means is asked) are names, whatever their word.
    named = {t for t in terms if re.search(rf"(?<![\w.-]){re.escape(t)}=", q)}
    named |= set(_CODED_VALUE.findall(q)) & set(terms)
    # An acronym's plural ("VMs", "GCs") names a class of things, as any plural noun does: a plain term.
    classes = {t for t in terms if is_acronym_plural(t)}
    classes |= {t for t in terms if _DESCRIBED.match(t)}
    identifiers = [
        t
        for t in terms
        if (is_identifier(t) or t in named) and not is_period(t) and t not in {*story, *units, *classes}
    ]
    key_terms = identifiers + [t for t in terms if t not in identifiers]
    # A sentence's first word is capitalised anyway, unless the question also writes it so elsewhere ("Zorblax died
    # with ... Is that a Zorblax bug?").
    opening = [m.group(1) for m in _OPENER.finditer(q)]
    openers = {w for w in opening if len(re.findall(rf"(?<![\w-]){re.escape(w)}(?![\w-])", q)) <= opening.count(w)}
    # A rare capitalised word (not an ordinary word of the language) names something the evidence must hold.
    names = [
        t
        for t in terms
        if t[:1].isupper()
        and t not in identifiers
        and not is_period(t)
        and t not in openers
        and t not in classes
        and not is_common_word(t)
    ]
    names += [f"{w} {n}" for w, n in _CODED_NAME.findall(q) if w.lower() not in _NOT_CODED]
    # A framing phrase's words are no terms, but a name, an identifier or a number in it still says which document
    # ("which section of the Zorblax guide covers X", "of the ISO 9001 standard": a document by that name).
    names += [
        w
        for m in _FRAMING.finditer(q)
        for w in words(m.group())
        if w not in names
        and w not in openers
        and (is_identifier(w) or w.isdigit() or (w[:1].isupper() and not is_common_word(w)))
    ]
    read: dict = {"key_terms": key_terms, "identifiers": identifiers, "names": names, "story": story}
    read["written"] = written_code(q)
    # Asked which part covers something ("which section covers lazy vs immediate binding?"), the answer is a part's
    # name: what follows is the subject it covers, not two topics.
    for first, second, names_needed in [] if ASKS_WHERE.search(q) else _sides(q):
        firsts, seconds = _listed(first), _listed(second)
        if len(firsts) == 1 and len(seconds) == 1:
            firsts = [_shared_head(firsts[0], seconds[0])]
        topics = [*firsts, *seconds]
        if not firsts or not seconds or any(_PRONOUN_TOPIC.match(t) for t in topics):
            continue
        if names_needed and not all(map(_named, topics)):
            continue  # a side cleaned of its name ("the return on equity of Heron" is "return")
        if any(_only_periods(t) for t in topics):
            # "X in FY2022 vs FY2021": one subject in two periods, not two topics. One search for the subject
            # finds the rows and sentences that state both years; a search for a bare year finds anything.
            break
        same = [t for n, t in enumerate(topics) if _norm(t) in map(_norm, topics[:n])]
        return QuestionReading(
            intent="compare", topics=topics, error=_repeated(topics, same[0]) if same else None, **read
        )
    if defined_term(q):
        return QuestionReading(intent="definition", **read)
    if _PROCEDURE.search(q):
        return QuestionReading(intent="procedure", **read)
    return QuestionReading(intent="general", **read)


def terms_of(reading: QuestionReading) -> dict[str, list[str]]:
    """The reading's terms as the graph state keeps them: what the evidence must hold, and the story that needs no
    cover."""
    return reading.model_dump(include={"key_terms", "identifiers", "names", "story", "written"})


def _repeated(topics: list[str], topic: str) -> str:
    if len(topics) == 2:
        return f"a comparison needs two different topics, but both are {topic!r}"
    return f"a comparison needs different topics, but {topic!r} is named twice"


def plan_for(reading: QuestionReading) -> list[str]:
    steps = {
        "compare": [f"retrieve evidence on {' and on '.join(map(repr, reading.topics))}"] if reading.topics else [],
        "definition": ["retrieve passages that define the term"],
        "procedure": ["retrieve the passages that describe the steps, in document order"],
        "general": ["retrieve passages that answer the question"],
    }[reading.intent]
    return [
        *steps,
        "check the evidence covers the key terms; refine the query when it does not",
        "answer with a citation on every sentence, or refuse with the reason",
    ]
