"""A reference's entries run together: which member of a family of names ("QZ_A", "QZ_B", "qz_a_key") a sentence
is about, the part of a sentence that is the subject's own, and where an entry opens. The value check
(`agent.values`) and the default check (`agent.defaults`) read a sentence's value or default as its entry's."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from kb.sentences import sentences
from kb.text import STOPWORDS, is_common_word, is_identifier

_SEGMENT = re.compile(r"[_.-]")


def siblings(text: str, subject: list[str]) -> list[re.Match[str]]:
    """The text's mentions of identifiers opening as one of the subject's do ("QZ_INIT" for "QZ_AUTO_GROW", "ZX-7"
    for "ZX-9"), other than the subject."""
    own = {s.lower() for s in subject}
    heads = {_SEGMENT.split(s)[0].lower() for s in subject if _SEGMENT.search(s)}
    if not heads:
        return []
    return [
        m
        for m in re.finditer(r"[\w.-]*\w", text)
        if _SEGMENT.search(m.group())
        and m.group().lower() not in own
        and is_identifier(m.group())
        and _SEGMENT.split(m.group())[0].lower() in heads
    ]


# A sentence opening by referring back to the entry it is part of ("This option ...", "It ...").
BACK_REFERENCE = re.compile(
    r"^(?:(?:This|That|The|Such\s+an?)\s+(?:option|function|flag|call|command|setting|macro|parameter|field|"
    r"variable|request|method|constant)\b|It\b)"
)


def entry_of(sentence: str, subject: list[str]) -> str:
    """What the sentence is about among the subject's family: the subject when it names it ("QZ_A sets ...; compare
    QZ_B."), else the first other member it names, or ""."""
    if any(re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", sentence, re.I) for name in subject):
        return subject[0]
    others = siblings(sentence, subject)
    return others[0].group() if others else ""


def own_part(sentence: str, subject: list[str]) -> str:
    """The sentence without what it says after naming another of the subject's family, unless it names the subject
    there too: a value after "QZ_512_SIZE" is that one's ("qz_512_digest ... 512 octets"), and entries of a
    reference run into one sentence ("... -2 if too big. qz_get_tag ...") keep the first one's values."""
    starts = [m.start() for m in siblings(sentence, subject)]
    if not starts:
        return sentence
    parts = [sentence[: starts[0]]]
    for a, b in zip(starts, [*starts[1:], len(sentence)], strict=True):
        if any(name.lower() in sentence[a:b].lower() for name in subject):
            parts.append(sentence[a:b])
    return " ".join(parts)


_HYPHENATED = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)+$")  # "gate-time": an entry's name, not a word
# "Gate-Max-Time (gate-max-time)": a name written as set and as keyed (a "Wi-Fi" or "Read-Only" opens nothing).
_KEYED = re.compile(r"^([A-Z][a-z0-9]*(?:-[A-Z][A-Za-z0-9]*)+)\s+\(([a-z0-9-]+)\)")


# "qzwait [-t secs] [job] Waits ...": a lower-case command's synopsis, an argument in brackets within a few words,
# an option or one name ("[job]", "[arg ...]"; a citation's "[12]" or a remark's "[at noon]" is none).
# An index or a destructuring in code is no argument ("buf [i] = 0;", "const [v] = f();").
_SYNOPSIS = re.compile(r"^[a-z][\w.-]*(?:\s+[a-z][\w-]*){0,2}\s+\[(?:-|[a-z_][\w-]*(?:\s*\.\.\.)?\](?!\s*[=;]))")
# "depth=depth Specify ...": an option's entry opening with the option as set.
_OPTION_SET = re.compile(r"^[a-z][\w.-]*=\S*$")


# "gate.open(lever[, mode])": an API reference's entry opening with a method's signature, called on its module or
# object (a dot before the name: "see open(2)" is a reference, no entry).
_SIGNATURE = re.compile(r"^[a-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+\([^()]*\)(?=\s*$|\s+[A-Z])")


# "tries {integer} The number of ...": a parameter's entry in an API reference, its name and its type in braces.
_TYPED = re.compile(r"^([a-z_$][\w$]*)\s+\{[^{}\s]+\}")


def typed_entry(sentence: str) -> bool:
    """The sentence opens a parameter's entry: its name and its type in braces ("auth {boolean} Whether to ..."; a
    function word names no parameter: "of {a,b}")."""
    typed = _TYPED.match(sentence.strip())
    return bool(typed) and typed.group(1) not in STOPWORDS


def lower_case_entry(sentence: str) -> bool:
    """The sentence opens an entry with a lower-case name: a parameter's with its type ("auth {boolean} ...") or a
    name that is no word of the language alone before its description ("fullname The full name of ..."; a chunk cut
    mid-sentence opens so too: "including Apple, ...")."""
    words = sentence.strip()
    return typed_entry(words) or (named_entry(words) and not is_common_word(words.split()[0]))


def signature_only(sentence: str) -> bool:
    """The sentence is a method's signature alone ("gate.open(lever[, mode])"): the head of an API reference's
    entry, saying what the sentences after it describe."""
    return bool(_SIGNATURE.match(sentence.strip())) and sentence.strip().endswith(")")


# "fullname The full name of ...": a lower-case name alone before its description's capital, after a full stop (a
# sentence of prose goes on in lower case: "... at noon. then it shuts"; after a semicolon a clause goes on: "...;
# since Linux 2.2) ...").
_NAMED_ENTRY = re.compile(r"^([a-z][a-z0-9_]{2,})\s+[A-Z][a-z]*\b")


def named_entry(words: str) -> bool:
    """The words open with a lower-case name before its description's capital; a function word names nothing ("Qz
    Inc. and Subsidiaries")."""
    named = _NAMED_ENTRY.match(words)
    return bool(named) and named.group(1) not in STOPWORDS


def _opens_run_in(words: str) -> bool:
    """The words open an entry by its synopsis, as an option set or by a method's signature ("qzwait [job] ...",
    "depth=depth ...", "gate.open(lever)")."""
    first = words.split(maxsplit=1)[0] if words.split() else ""
    return bool(_SYNOPSIS.match(words) or _OPTION_SET.match(first) or _SIGNATURE.match(words))


# A path heading its entry ("/qz/lever This file sets ...", "/var/qz Holds ..."): a file's page lists its files so.
# A capital or a bracketed note after it ("/qz/max (since 2.2) Sets ..."), as where the sentence splitter breaks
# before a path: "/etc/qz.conf overrides it" is prose.
_PATH_NOTE = r"\s+[A-Z(]"
_PATH_OPENING = re.compile(rf"^~?/(?=[\w.<>\[\]-]*[A-Za-z])[\w./<>\[\]-]*+{_PATH_NOTE}")


def opens_path_entry(path: str, text: str) -> bool:
    """Whether the text opens an entry with the path, at a line's or a sentence's start, not in passing ("files live
    under /qz"); the sentence splitter breaks before a path only ahead of a capital, so a sentence's stop is looked
    for too ("... was built. /qz/max (since 2.2) This file ...")."""
    return bool(re.search(rf"(?:^|\n|(?<=[.!?:])\s)\s*{re.escape(path)}{_PATH_NOTE}", text))


def opens_entry(sentence: str) -> bool:
    """A sentence opening a reference's entry with the name it describes ("QzMode Specifies ...", "Mode= Sets
    ...", "--retries=N Sets ...", "/qz/lever This file ...", "gate-time time Sets ...", "Gate-Max-Time
    (gate-max-time) sets ...", "qzwait [job] Waits ...")."""
    sentence = sentence.strip()
    first = sentence.split(maxsplit=1)[0] if sentence else ""
    named = first.strip(".,:;()")
    keyed = _KEYED.match(sentence)
    if keyed and keyed.group(1).lower() == keyed.group(2):
        return True
    return (
        first.endswith("=")
        or first.startswith("-")
        or bool(_PATH_OPENING.match(sentence))
        or is_identifier(named)
        or bool(_HYPHENATED.match(named) or _opens_run_in(sentence))
    )


# Where a lower-case word follows a sentence's stop (after a colon, a list's item goes on the sentence announcing it).
# An abbreviation's stop ends no sentence ("e.g. max=10", "et al. [Knu84]", "cf. [QZ1]").
_AFTER_ABBREVIATION = r"(?<!\bal\.\s)(?<!\be\.g\.\s)(?<!\bi\.e\.\s)(?<!\bcf\.\s)(?<!\b[Ff]ig\.\s)(?<!\bvs\.\s)"
_LOWER_OPENING = re.compile(rf"(?<=[.;]\s){_AFTER_ABBREVIATION}(?=[a-z])")
# A code in capitals opening its entry after a bracket closed the one before ("... [requires QZ_SOURCE] QZFLOW (not
# in POSIX) Enable ...", "... see qz(2)) QZMARK Use ..."), and a bracketed note or section after a stop ("... flow
# control. [requires QZ_SOURCE] ...", "... is assumed. [Unit] ..."; not a citation, "et al. [2011]"): a list's entries
# with no stop of their own run on.
# A list's label ("(1)", "(a)", "[4]") is no entry's end: "(1) BERT (Devlin ...)" goes on its sentence.
_CODE_OPENING = re.compile(
    r"(?<=[)\]]\s)(?<![(\[]\w[)\]]\s)(?<![(\[]\d\d[)\]]\s)(?=[A-Z][A-Z0-9_]{4,}\s+(?:\(|[A-Z][a-z]))|"
    rf"(?<=\.\s){_AFTER_ABBREVIATION}(?=\[[A-Za-z])"
)


def entry_sentences(text: str) -> list[str]:
    """The text's sentences, each cut again where an entry opens run into it ("... that are accessible. qzwait [job]
    Waits ...", "... depends on the level. depth=depth Sets ...": a lower-case name starts no sentence the splitter
    sees). A sentence opening with a call's name ("qz_init() sets the version to 2") goes on the entry it is in."""
    out: list[str] = []
    for sentence in sentences(text):
        starts = [
            0,
            *(
                m.start()
                for m in _LOWER_OPENING.finditer(sentence)
                if _opens_run_in(rest := sentence[m.start() :])
                or (sentence[m.start() - 2] == "." and named_entry(rest))
            ),
        ]
        starts = sorted({*starts, *(m.start() for m in _CODE_OPENING.finditer(sentence))})
        out += [sentence[a:b].strip() for a, b in zip(starts, [*starts[1:], len(sentence)], strict=True)]
    return [s for s in out if s]


def entry_walk(
    text: str, subject: list[str], names_it: Callable[[str], bool], within: bool = False
) -> tuple[list[tuple[str, bool]], bool]:
    """Each of the text's sentences (its part about the subject, see `own_part`) with whether it belongs to the
    entry of the subject: from a sentence naming it (`names_it`) until a sentence opens another entry; and whether
    that entry is still open where the text ends. `within`: the text goes on an entry of the subject already open."""
    walked = []
    for whole in entry_sentences(text):
        sentence = own_part(whole, subject)  # entries run together: "QZ_A ... QZ_B (default: 5)" is QZ_B's
        if names_it(sentence):
            within = True
        elif opens_entry(sentence):
            within = False
        walked.append((sentence, within))
        if sentence.split() != whole.split():  # it went on into another entry, which the next ones are about
            within = False
    return walked, within


def open_run(walked: list[tuple[str, bool]]) -> tuple[str, bool]:
    """The sentences of the entry still open where a walked text ends (see `entry_walk`), and whether that run starts
    with the text (it may go on an entry opened before)."""
    start = len(walked)
    while start > 0 and walked[start - 1][1]:
        start -= 1  # back to the first sentence of the entry the text ends in
    return " ".join(sentence for sentence, _ in walked[start:]), start == 0


def goes_on(opening: str, subject: list[str]) -> bool:
    """Whether the next passage's opening sentence goes on the entry the passage before it ends in: it opens no
    other entry and names none of the subject's family."""
    return bool(opening) and not opens_entry(opening) and own_part(opening, subject) == opening


_NAME = re.compile(r"^[A-Za-z][\w.-]*$")
# Where an option's entry may open: the sentence's start, or after another sentence's end run into it ("... at the
# cost of latency. gate_prio=prio The priority ...": a lower-case name starts no sentence of its own).
_OPENING = re.compile(r"(?:^|(?<=[.:;]\s))(?=\S)")


def option_opened(words: str) -> str:
    """The option whose entry the words open as it is written ("--retries=N Sets ...", "gate_prio=prio The ...",
    "-q Quiet"), else ""."""
    first = words.split(maxsplit=1)[0] if words.split() else ""
    if not (first.startswith("-") or "=" in first):
        return ""
    name = first.lstrip("-").split("=")[0].rstrip(",;:")  # "-w, --wait=N": "w"
    return name if _NAME.match(name) else ""


# An option as a question writes it: "--wait", "-q", "QzStart=".
_OPTION_WRITTEN = re.compile(r"(?<![\w-])(?:--?[A-Za-z][\w-]*|[A-Za-z][\w.-]*=)")


@lru_cache(maxsize=64)
def _written(question: str) -> frozenset[str]:
    """The options the question writes, by name ("QzStart=": "qzstart"); read once per question."""
    return frozenset(w.lstrip("-").rstrip("=").lower() for w in _OPTION_WRITTEN.findall(question))


def other_option(words: str, question: str) -> str:
    """The option whose entry the words open when the question writes options but not that one, else ""
    ("Timeout= ..." is another option for a question on "QzStart=" that says "timeout"; for "which settings cap
    X?", writing none, no entry is another's)."""
    name, written = option_opened(words), _written(question)
    return "" if not written or name.lower() in written else name


def _parts(sentence: str) -> list[str]:
    """The sentence cut where an option's entry may open in it."""
    starts = sorted({0, *(m.start() for m in _OPENING.finditer(sentence))})
    return [sentence[a:b] for a, b in zip(starts, [*starts[1:], len(sentence)], strict=True)]


def own_options(sentence: str, question: str) -> str:
    """The sentence without the entries of options the question does not write, each up to the next option's:
    "gate_prio=prio The priority (from 0 to 7) ... of a flush; the default is 3" bounds nothing of a "flush=" asked
    about."""
    kept, other = [], False
    for part in _parts(sentence):
        other = bool(other_option(part, question)) if option_opened(part) else other
        kept += [] if other else [part]
    return "".join(kept).strip()


def last_option(sentence: str) -> str:
    """The part of the sentence opening the last option's entry in it (the one its next sentences go on about), or
    ""."""
    return next((part for part in reversed(_parts(sentence)) if option_opened(part)), "")


def in_other_options(sentences: list[str], question: str, subject: list[str]) -> list[bool]:
    """For each sentence, whether it goes on the entry of another option than the question's ("QzWait= Sets the
    wait. Defaults to 100ms.": the second is QzWait='s, not QzStart='s). Only an entry opening ends it ("Unlike
    QzStart=, it defaults to 100 s" is still QzWait='s)."""
    flags, foreign = [], False
    for sentence in sentences:
        opens_own = opens_entry(sentence) and bool(subject) and entry_of(sentence, subject) == subject[0]
        flags.append(foreign and not option_opened(sentence) and not opens_own)
        opening = last_option(sentence)
        foreign = bool(other_option(opening, question)) if opening else foreign and not opens_own
    return flags


def heads_entry(text: str, names: list[str]) -> bool:
    """Whether a sentence of the text opens an entry with one of the names ("QZ_CONF Determines ...", "QZ_CONF=path
    ..."): a reference's entry is about the name it opens with, whatever words it uses."""
    wanted = {n.lower() for n in names}
    for sentence in (s for line in text.splitlines() for s in sentences(line)):
        words = sentence.split(maxsplit=1)
        if words and words[0].lstrip("-").split("=")[0].strip(".,:;()").lower() in wanted and opens_entry(sentence):
            return True
    return False


# What follows a name heading an entry: a colon or a capitalised word ("QZB: Like ...", "qz-b Like ...").
_HEAD_END = r"(?::\s|\s+[A-Z])"


def runs_in(text: str, names: list[str]) -> bool:
    """Whether one of the names heads an entry run into the text, as a flattened table's or list's rows are ("...
    QZHUP Q1 Halt Line hung up QZPIPE Q1 Halt Gate shut"): the name, whole and as written (mid-text, a name is read
    as the document writes it), then a colon or a capitalised word."""
    return any(re.search(rf"(?<![\w/.-]){re.escape(n)}{_HEAD_END}", text) for n in names)


def headed_by(sentence: str, name: str) -> bool:
    """Whether the sentence opens an entry headed by the name: the name, whole, then a colon or a capitalised word
    ("qz-b Like qz-a ...", "QZB: Like ..."; not "qz-bar ...", nor "QZB and QZA share ...", "QZB mode is ...")."""
    return bool(re.match(rf"(?i:{re.escape(name)}){_HEAD_END}", sentence))


def describes_entry(text: str, names: list[str]) -> bool:
    """Whether a sentence of the text opens an entry with one of the names (an option after its short form, "-l,
    --qz-loop") and then says what it does: a colon, or a capital, after a bracketed note or not ("QZ_LOOP (since 1.2)
    Sets ...", "QZ_LOOP: ..."), which prose about the name lacks ("QZv4 addresses are ...", "QZv4 Addresses are ...",
    "QZ_B (see below) is ...")."""
    said = "|".join(re.escape(n) for n in names)
    head = re.compile(
        rf"(?:-\w,\s+)?(?:{said})(?::\s|=|(?:\s+\([^()]*\))?\s+[A-Z][\w-]*+(?!\s+(?:is|are|was|were|has|have|can)\b))"
    )
    return any(head.match(sentence) for sentence in entry_sentences(text))


def opens_with(sentence: str, names: list[str]) -> bool:
    """Whether the sentence opens with one of the names and a colon, as an entry of a list does ("• qz.BADGATE:
    Unknown gate."; "QZ sed v1.18 7.7." names QZ in passing)."""
    opening = sentence.lstrip("•◦▪‣-* ").split(maxsplit=1)
    return bool(opening) and opening[0].endswith(":") and opening[0][:-1].lower() in {n.lower() for n in names}
