"""The value check: a question asking for a count or a value is answered only by a sentence stating one beside
what is asked (see `value_missing`)."""

from __future__ import annotations

import math
import re
from typing import Any

from agent.entries import (
    BACK_REFERENCE,
    entry_of,
    entry_sentences,
    entry_walk,
    heads_entry,
    in_other_options,
    opens_entry,
    own_options,
    own_part,
    siblings,
    typed_entry,
)
from agent.evidence import (
    is_path,
    names_covered,
    names_subject,
    own_heading,
    passage,
    read,
    titles_read,
    untitled,
    whole_text,
    written_code,
)
from agent.notation import quoted
from agent.rare_words import absent, is_rare
from agent.readable import is_row
from agent.settings import AnswerSettings
from agent.value_conditions import MENTIONS_DEFAULT, conditions
from agent.value_forms import ASKS_CODE, FIGURE, MEASURES, Form, asked_form, stated_values
from kb.periods import period_year
from kb.text import is_common_word, is_identifier

# The words that ask for a value without saying what is measured ("what numeric value", "the number of").
_ASKING_WORDS = frozenset(
    ["value", "values", "number", "numbers", "numeric", "numerical", "count", "counts", "year", "years"]
)
_NOTATION_WORDS = frozenset(["hex", "hexadecimal"])  # how the value is written, not what is measured
# The verbs a code is delivered by ("which signal do I send"): they ask how it comes. Generic English, few.
_DELIVERS = frozenset(
    "send sends sent sending raise raises raised return returns returned get gets emit emits throw throws".split()  # noqa: SIM905
)


# The bound a question asks for ("the largest value X accepts", "the minimum size", "an upper bound"): a value
# stated without one (a default, a typical size) answers nothing of it. The question names a bound as a superlative
# of a measure, not in passing ("the largest segment", "Harbour Holdings Limited", "at least 10% of sales"); a
# sentence states one with generic English words of bounds or a range, never inside a name ("--max-valves").
_MEASURE_WORDS = rf"(?:value|number|amount|count|version|{MEASURES})s?"
_ASKS_BOUND = {
    "maximum": rf"(?:maximum|largest|highest|greatest|biggest)\s+(?:[\w-]+\s+){{0,2}}?{_MEASURE_WORDS}|upper\s+"
    r"(?:bound|limit)",
    "minimum": rf"(?:minimum|smallest|lowest|least)\s+(?:[\w-]+\s+){{0,2}}?{_MEASURE_WORDS}|lower\s+(?:bound|limit)",
}
_BOUNDS = {
    "maximum": r"maxim(?:um|al)|max|largest|highest|greatest|upper\s+(?:bound|limit)|at\s+most|up\s+to|"
    r"no\s+more\s+than|(?:less|fewer)\s+than|exceed\w*|limit(?:ed|s)?|[≤<]=?",
    "minimum": r"minim(?:um|al)|min|smallest|lowest|lower\s+(?:bound|limit)|at\s+least|no\s+(?:less|fewer)\s+than|"
    r"or\s+(?:later|newer|higher|above)|"
    r"(?:greater|more)\s+than|[≥>]=?",
}
# Both bounds at once ("a range", "from 1 to 9"; "out-of-range", "out of range" name none); a range's end that is
# no figure bounds nothing ("between 0 and the time given" states a minimum only).
_RANGE = re.compile(r"(?<![\w-])(?<!of\s)range(?![\w-])", re.I)
_RANGE_ENDS = re.compile(r"\b(?:between\s+(?P<a>\S+)\s+and|from\s+(?P<b>\S+)\s+to)\s+(?P<hi>\S+)", re.I)


# A value stated as a default ("[default: 30]", "the default is 500", "by default, it handles up to 500"): what
# holds unless set otherwise, not what may be set. The words a default is stated with: generic English, few.
_SAYS_DEFAULT = re.compile(
    r"\bdefault|\binitial|\bif\s+(?:not|no|none)\b|\bunless\b|\botherwise\b|\bomitted\b|\bunset\b|"
    r"\bwhen\s+not\b|\bout\s+of\s+the\s+box\b|\bfactory\b|\bpreset\b",
    re.I,
)
# In prose a default is said beside its value ("the default is 30", "if not set, it is 30 minutes", "1024 (the
# default)", "sends SIGQZ by default"): "by default it joins the files, so ... 15 means the 15th line" states no
# default of 15.


def _default_beside(sentence: str, values: set[str]) -> bool:
    """Whether a word saying "default" stands within 60 characters before one of the values, or 25 after it."""
    return any(
        re.search(
            rf"(?:{_SAYS_DEFAULT.pattern})[^;!?]{{0,60}}?{re.escape(v)}|{re.escape(v)}[^;!?]{{0,25}}?"
            r"(?:\b(?:the\s+)?default\b|\bby\s+default\b)",
            sentence,
            re.I,
        )
        for v in values
    )


# The words between "default" and its value state no bound of their own ("Unlike the default, X accepts at most
# 4096" gives the bound).
_DEFAULT_VALUE = re.compile(
    rf"\bdefaults?\b(?:(?!\b(?:accepts?|allow(?:s|ed)?|at\s+most|at\s+least|maxim|minim|no\s+more))[^\d.;!?]){{0,40}}?"
    rf"{FIGURE.pattern}",
    re.I,
)


# A default's figure said of nothing but its entry ("The default value in this file is 10.", "Default: 4"), not of a
# measure of its own ("The default idle timeout is 30 seconds").
_BARE_DEFAULT = re.compile(
    rf"\bdefault(?:\s+value)?(?:\s+(?:in|of|for)\s+this\s+\w+)?\s*(?:is\s+|:\s*|=\s*){FIGURE.pattern}", re.I
)


def asked_bounds(question: str) -> set[str]:
    """The bounds ("maximum", "minimum") the question asks for."""
    return {k for k, p in _ASKS_BOUND.items() if re.search(rf"\b(?:{p})\b", question, re.I)}


def stated_bounds(text: str) -> set[str]:
    """The bounds ("maximum", "minimum") the text states."""
    found = {k for k, p in _BOUNDS.items() if re.search(rf"(?<![\w-])(?:{p})(?![\w-])", text, re.I)}
    for m in _RANGE_ENDS.finditer(text):
        found |= {"minimum"} if any(c.isdigit() for c in m.group("a") or m.group("b")) else set()
        found |= {"maximum"} if any(c.isdigit() for c in m.group("hi")) else set()
    return found | ({"maximum", "minimum"} if _RANGE.search(text) else set())


def value_missing(
    question: str,
    identifiers: list[str],
    others: list[str],
    evidence: list[dict[str, Any]],
    aliases: dict | None,
    share: float,
    most: int,
    counted: str = "",
    answer: AnswerSettings | None = None,
    names: list[str] | None = None,
) -> str:
    """For a question asking for a count or a value: why no evidence states it, or "" when some does. A passage
    states it when it (or its page) names the subject (one of the identifiers no evidence title names, else of all
    of them: a document titled with a name names it in every sentence), holds at least `share` of the question's
    other key terms, what is measured (and `most` of them is enough), and has a sentence giving a value the
    question does not already give that names the subject or something measured ("the minimum size of a bypass
    valve" is not stated by a passage giving another size of something else, nor by a release number beside the
    subject's name). When the question says what it counts or measures (`counted`, see
    `agent.value_questions.measured_phrase`), the sentence names that too: "how many threads" is not stated by a version
    number beside the program's name. A rare capitalised name the question gives (`names`, see
    `agent.intent.QuestionReading`) is part of the subject: a passage about another program's size states none of
    the one asked about."""
    identifiers = [*identifiers, *(n for n in names or [] if n not in identifiers)]
    form = asked_form(question)
    rare_subject = False
    code = ASKS_CODE.search(question) if form == "code" else None
    code_kind = " ".join(code.group("kind").lower().split()) if code else ""
    # "Which QZERR_ error code": one of the codes named so ("QZERR_FULL"), not any code of the text.
    prefix = (code.group("prefix") or "").upper() if code else ""
    prefix = prefix if prefix.endswith("_") else ""
    # "errno" only asks for one, and the verbs a code is delivered by ask how it comes ("which signal do I send").
    others = [t for t in others if t.lower() not in [*code_kind.split(), *(_DELIVERS if code else [])]]
    if not identifiers:
        # Naming nothing else, a call named by its manual page ("qzset(2)") or a name of hyphenated words
        # ("set-latch", "hold-open-time") is what has the value, or a rare word of it no passage holds ("the zorbyte
        # suffix" beside a list of other suffixes): not an ordinary word of the language in any form, it names the
        # thing, and nothing here speaks of it.
        rare = [t for t in others if t.isalpha() and t.islower() and is_rare(t)]
        hyphenated = [t for t in others if HYPHENATED_NAME.match(t)]
        identifiers = _SECTIONED.findall(question) or hyphenated or absent(rare, [passage(h) for h in evidence])
        # Asked for a release, the rare words name what it dates ("since which qzlib version is the zorbgroups
        # database supported?": zorbgroups, not qzlib), each named beside the release (`rare_subject`).
        if not identifiers and form == "version":
            identifiers = [t for t in rare if not counted or t.lower() != counted.split()[0].lower()]
            rare_subject = bool(identifiers)
    titles = titles_read(evidence)
    subject = untitled(identifiers, titles) or identifiers
    if form == "version" and counted:  # "in which Quill release was QZ_A added": QZ_A's, not any Quill release
        dated = [i for i in subject if i.lower() != counted.split()[-1].lower()]
        # Or the first path the question writes ("in which version of the Quill Standard was /qz added to replace
        # /var/qz?"): a release of the whole standard dates nothing in it.
        subject = dated or [c for c in written_code(question) if is_path(c)][:1] or subject
    given = stated_values(question, form, code_kind)
    bound = asked_bounds(question)
    asks_default = bool(MENTIONS_DEFAULT.search(question))
    # What is measured: the other terms but periods, the words that only ask for a value ("numeric value") and
    # those of a document's title (they say which document, as its name does).
    measured = [
        t
        for t in others
        if not period_year(t)
        and t.lower() not in _ASKING_WORDS
        and t.lower() not in _NOTATION_WORDS
        # "In what unit is the 10 counted": the unit's quantity is the question's own, "unit" only asks for one.
        and not (form == "unit" and (t.lower().rstrip("s") == "unit" or stated_values(t, "figure")))
        and not any(names_covered([t, *(aliases or {}).get(t, [])], *title) for title in titles)
    ]
    names = {t: [t, *(aliases or {}).get(t, [])] for t in [*subject, *measured]}
    head = counted.split()[-1] if counted else ""
    unnaming = {w.lower() for w in (head, "default", "defaults") if w}
    # A code or an exit status is listed one per condition ("2 if ..., 3 if ..."): the one asked is on the condition
    # asked. The condition's words that say which document (its title's) or what has the code are no condition.
    asked_on = conditions(question) if form == "code" or head == "exit" else []
    condition = [t for t in untitled(asked_on, titles) if t not in subject]
    need = min(math.ceil(share * len(measured)), most)
    # A unit is stated without its measure ("`b' for 512-byte blocks (the default)" in the size's entry).
    head_names = [head, *(aliases or {}).get(head, [])] if head and form != "unit" and not stated_values(head) else []
    head_names += ["status"] if head == "exit" else []  # "exits with 2", "exit status 2", "returns a status of 2"
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
        if not named and (_page_of(hit) not in naming or siblings(text, subject)):
            continue  # a passage about another member of the subject's family ("X_INIT" beside "X_EXPAND")
        # "What range of values" is stated by both ends of one ("between 0 and 255"), in one sentence, without the word.
        ends = any({"maximum", "minimum"} <= stated_bounds(s) for s in entry_sentences(text))
        held = [t for t in measured if names_covered(names[t], *about) or (ends and t.lower() in ("range", "ranges"))]
        best = max(best, held, key=len)
        if len(held) < need:
            continue
        head_titles = form == "version" and bool(head_names) and names_covered(head_names, *read([title]))
        # A release or a path is the subject's when its entry gives it ("QZ_A ... (since 2.5)", "Keep= ... kept
        # under /var/lib/qz"): another entry's on the page, or one beside a word of the question ("supports version 2
        # frames", "directories below /run/qz to keep sockets"), is something else's. A subject titling the document
        # or the passage's section is in every entry.
        titled = any(names_covered(names[i], *read([title, own_heading(hit)])) for i in subject)
        dated = form in ("version", "path") and bool(subject) and not titled
        entry = ""  # what the last sentence naming the subject's family is about: "This option ..." refers to it
        listed = entry_sentences(whole_text(hit))
        flags = in_other_options(listed, question, subject)
        # A passage holding the subject's own entry ("QZ_DATA <string> ... may be split") gives its values there: a
        # value further on, in another entry ("QZ_PLAIN ... a 1 byte code ... binary data"), is that one's, even
        # when it names something measured.
        inside = [True] * len(listed)
        own_entry = bool(subject) and heads_entry(whole_text(hit), [n for i in subject for n in names[i]])
        if own_entry:  # its text opens the entry, not its heading
            walked, _ = entry_walk(whole_text(hit), subject, lambda s: any(names_subject(names[i], s) for i in subject))
            inside = [within for _, within in walked]
        opened: list[str] = []  # the sentences of the entry so far, from the one opening it
        seen_open = False  # whether an entry opens in the passage (before one does, it goes on from the one before)
        for before, sentence, other, within in zip(["", *listed][: len(listed)], listed, flags, inside, strict=True):
            opens = opens_entry(sentence) or typed_entry(sentence)
            seen_open = seen_open or opens
            opened = [sentence] if opens else [*opened, sentence]
            about_entry, entry = entry, entry_of(sentence, subject) or entry
            if other or not within:
                continue  # another option's entry goes on ("QzWait= ... Defaults to 100ms."), or another entry
            if about_entry and about_entry not in subject and BACK_REFERENCE.match(sentence):
                continue  # "QZ_HOLD ... This option can be combined with QZ_ASKED only since 2.5" dates QZ_HOLD
            # Asked of rare words, the sentence giving a release names each of them.
            if dated and (entry != subject[0] or (rare_subject and not _names_each(sentence, subject))):
                continue
            # Notation is no statement: code or an equation after the prose is cut, and a sentence opening with
            # one states nothing ("Sample code: ... f(key, 10, salt);" gives no value of anything).
            if not is_row(sentence):
                cut = quoted(sentence, question, answer)
                if cut is None:
                    continue
                sentence = cut
            sentence = own_part(sentence, subject)
            sentence = own_options(sentence, question)
            said = read([_others_cut(sentence, question)])
            # A default stated alone is its entry's, which names what is measured ("maxBuffer Largest amount of data
            # on stdout. ... Default: 1024 * 1024."); a default's figure counts what its entry counts ("/qz/max This
            # is the most gates ... The default value in this file is 10.").
            entry_said = read([_others_cut(s, question) for s in opened]) if _SAYS_DEFAULT.search(sentence) else said
            counted_said = entry_said if seen_open and _BARE_DEFAULT.search(sentence) else said
            # The counted noun is in it; the thing whose version is asked may title its document instead.
            unnamed = bool(head_names) and not head_titles and not names_covered(head_names, *counted_said)
            # "the number of groups (currently four)" counts groups, whatever else it names ("... if a key has").
            counts = _NUMBER_OF.findall(sentence)  # its noun within three words ("number of open file handles")
            if head_names and counts and not any(names_covered(head_names, *read([w])) for w in counts):
                unnamed = True
            # A table row states a share as a figure under a "%" head, or the figures a share is computed from.
            said_form: Form = "figure" if form == "percent" and is_row(sentence) else form
            if bound and not MENTIONS_DEFAULT.search(question):
                sentence = _DEFAULT_VALUE.sub(" ", sentence)  # a default is no bound ("[default: 30] Maximum ...")
            unbound = bool(bound) and not stated_bounds(sentence) & bound  # a bound asked for, none stated
            # A default asked for is stated as one ("Default: 30", "if not set, it is 30 minutes", "unless
            # configured otherwise"), by the sentence or its row's head: a field's size in an encoding table, or a
            # neighbouring entry's value, is no default of it.
            row_head = hit.get("head", "") if is_row(sentence) else ""
            values = stated_values(sentence, said_form, code_kind or head) - given
            values = {v for v in values if v.upper().startswith(prefix) and v.upper() != prefix}
            undefaulted = asks_default and not (
                _SAYS_DEFAULT.search(f"{row_head} {sentence}" if row_head else sentence)
                and (is_row(sentence) or _default_beside(sentence, values))
            )
            # A product's release beside the rare words it dates ("Since Quux 3.19, qzcall(2) ...") is of the product
            # asked, named otherwise; not a release of one of those words ("removed in qzip 1.18") nor one said as a
            # "version" ("After version 2.0.3 the qzlib tables ...": whose?).
            if unnamed and rare_subject and _names_each(sentence, subject):  # the sentence as cut to its own part
                unnamed = not _product_release(sentence, values, subject)
            if not values or unnamed or unbound or undefaulted:
                continue
            # A code is what happens on a condition: the sentence names it in words of the language ("sends SIGQZ
            # to reload"), not only the program ("SIGQZ makes qzd flush" answers nothing of which signal makes qzd
            # reload).
            worded = [t for t in held if is_common_word(t)] if form == "code" else []
            # The unit counted and a default's word come with any value ("10 seconds by default" of another
            # setting): they name nothing measured, unless the entry opened in a passage the evidence may lack.
            naming = worded or [*subject, *(t for t in held if t.lower() not in unnaming or not seen_open)]
            # Within the subject's own entry, a sentence counting what the question counts is the subject's ("QZPATH A
            # list of files ... There is a maximum of 10 gates ..."); any other figure ("Release 3.7 added
            # ...") still names what it is of, and a release or a path is said beside what it dates.
            implied = own_entry and within and not dated and bool(head_names)
            if not implied and not any(names_covered(names[t], *entry_said) for t in naming):
                continue
            # A value on another condition ("if a command is not found, 127") is none on the one asked: the sentence
            # or the one before (" If ... . It exits 2.") names `share` of the condition's terms.
            told = read([before, sentence])
            if sum(names_covered(names.get(t, [t]), *told) for t in condition) >= share * len(condition):
                return ""
    # A question naming no identifier: what it measures.
    kinds = {"hexadecimal": "hexadecimal value", "version": "version", "percent": "percentage", "duration": "time"}
    kinds |= {"unit": "unit", "path": "path", "year": "year"}
    kind = code_kind or kinds.get(form, "value")
    kind = f"{' or '.join(sorted(bound))} {kind}" if bound else kind
    if head == "exit":  # "which exit code does X return": an exit status of X
        kind, counted = "exit status", ""
    asked = ", ".join(subject) or (f"the {counted}" if counted else ", ".join(measured))
    if len(best) >= need:  # what is measured is there, but no value beside it
        named = f"{counted} ({asked})" if counted and head_names and subject and counted != asked else asked
        return f"no passage states {_a(kind)} for {named}"
    found = f"at most {len(best)} of {len(measured)} together"
    return f"no passage states {_a(kind)} for {asked} with {', '.join(measured)} ({found})"


def _a(kind: str) -> str:
    """The kind with its article ("a value", "an errno")."""
    vowel = kind[:1].lower() in "aeiou" and not kind.lower().startswith(("uni", "use"))  # "a unit", "an errno"
    return f"{'an' if vowel else 'a'} {kind}"


HYPHENATED_NAME = re.compile(r"^[a-z]{3,}(?:-[a-z]{3,})+$")  # "set-latch"; not "built-in"
_SECTIONED = re.compile(r"(?<![\w.-])([a-z_][\w.-]*)\(\d[a-z]?\)")  # a call by its manual page: "qzset(2)"
_NUMBER_OF = re.compile(r"\bnumber\s+of\s+((?:[A-Za-z][\w-]*\s+){0,2}[A-Za-z][\w-]*)", re.I)


# A name of something: a command's option ("--cache-size=N") or an identifier ("QZ_MAX_LEN").
_NAMING = re.compile(r"(?<![\w-])--?[A-Za-z][\w-]*(?:=\S*)?|[\w.-]*\w")


def _others_cut(sentence: str, question: str) -> str:
    """The sentence without the names of things the question does not name: a word inside one says what that
    thing is ("size" in "--cache-size=N [default: 1000]" names the cache's size, not the one asked about)."""
    asked = {w.lower().lstrip("-").split("=")[0] for w in _NAMING.findall(question)}

    def keep(m: re.Match[str]) -> str:
        name = m.group()
        if name.lower().lstrip("-").split("=")[0] in asked:
            return name
        return " " if name.startswith("-") or is_identifier(name) else name

    return _NAMING.sub(keep, sentence)


def _page_of(hit: dict[str, Any]) -> tuple[str, Any]:
    """The page a passage is on; a passage without one is a page of its own (by its chunk id)."""
    page = hit.get("start_page")
    return (hit["doc_id"], page) if page is not None else (hit["doc_id"], hit.get("chunk_id"))


def _names_each(sentence: str, subject: list[str]) -> bool:
    """The sentence names every one of the subject's words."""
    return all(entry_of(sentence, [n]) for n in subject)


_RELEASE_WORDS = frozenset(["version", "versions", "release", "releases", "v"])


def _product_release(sentence: str, values: set[str], subject: list[str]) -> bool:
    """Whether the sentence gives one of the values as a product's release: a name written right before it ("Quux
    3.19"), none of the subject's words nor a word for a release."""
    own = {s.lower() for s in subject} | _RELEASE_WORDS
    for value in values:
        for match in re.finditer(rf"([A-Za-z][\w+-]*)\s+v?{re.escape(value)}(?![\w.])", sentence):
            if match.group(1).lower() not in own:
                return True
    return False
