"""Reading evidence passages: their text as an answer quotes it and as the checks read it, and whether they hold a
question's term (whole, as an identifier however separated, by its parts, or by an alias)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from kb.periods import is_period, period_year
from kb.references import is_reference_list
from kb.sentences import joiner
from kb.text import is_common_word, is_identifier, squashed, tokenize


def framed(hit: dict[str, Any]) -> str:
    """A hit's text under the head of the table it opens inside (its title, units and columns), if any."""
    return "\n".join(part for part in (hit.get("head", ""), hit["text"]) if part)


def whole_text(hit: dict[str, Any]) -> str:
    """A hit's text with the words that finish the sentence its chunk stops in (from the next chunk), if any: its
    last sentence whole, for an answer to quote and for the check of what the answer quotes."""
    runs_on = hit.get("runs_on") or ""
    return f"{hit['text']}{joiner(hit['text'])}{runs_on}" if runs_on else hit["text"]


def passage(hit: dict[str, Any]) -> str:
    """A hit as the checks read it: the document's title, the section path and a table's head frame the text, so
    a chunk of a paper titled with a name is evidence about that name even when its own sentences only say "we"."""
    return "\n".join(part for part in (hit.get("title", ""), hit.get("section", ""), framed(hit)) if part)


def named_documents(hits: list[dict[str, Any]]) -> set[str]:
    """The documents the question names best: search's document match at 1.0 ("Acme's FY2017 revenue" names Acme's
    2017 report); empty when it names none."""
    return {h["doc_id"] for h in hits if (h.get("document_score") or 0.0) >= 1.0}


def is_reference(hit: dict[str, Any]) -> bool:
    """A chunk from a reference list (see kb.references)."""
    return is_reference_list(hit.get("section", "") or "", hit["text"])


def is_evidence(hit: dict[str, Any]) -> bool:
    """A passage that can support an answer: not a reference list (it names other works) and not a contents,
    index or list-of-tables page (it names the document's parts and their pages, not what they say)."""
    return hit.get("kind", "body") != "contents" and not is_reference(hit)


def own_heading(hit: dict[str, Any]) -> str:
    """The heading of the passage's own section, not a chapter's above it ("Chapter 3 > Seals": "Seals")."""
    return (hit.get("section") or "").split(" > ")[-1]


def token_set(texts: Iterable[str]) -> set[str]:
    out: set[str] = set()
    for text in texts:
        out.update(tokenize(text))
    return out


_CODED = re.compile(r"^[^\W\d_]+\s+\d+$")
_ACRONYM_PLURAL = re.compile(r"^[A-Z]{2,}s$")  # "VMs", "GCs", "CPUs"


def is_acronym_plural(term: str) -> bool:
    """Whether the term is an acronym's plural ("VMs", "IDs")."""
    return bool(_ACRONYM_PLURAL.match(term))


_HYPHEN = "[-‐‑]"
_COMBINATION = re.compile(r"\w\s*\+\s*\w")  # things pressed or taken together, joined by "+"


def term_covered(term: str, tokens: set[str], flat: str = "") -> bool:
    """Whether the passage tokens hold the term: whole, as an identifier however separated, or by all its parts. A
    period counts by its year however a document writes it ("FY2019", "fiscal 2019" and "2019" all hold 2019)."""
    toks = tokenize(term)
    if not toks:
        return True
    whole = term.lower()
    if whole in tokens:
        return True
    if is_period(whole):  # a quarter or half is written many ways ("Q2", "second quarter", "six months")
        year = period_year(whole)
        return not year or year in tokens
    key = re.sub(r"[\W_]+", "", whole)
    if is_acronym_plural(term) and term[:-1].lower() in tokens:  # "QZs", "IDs": the acronym, written once
        return True
    names = term.split("/")
    # "QzRetry/QzTimeout", "qz3/qz4": each name, not a path ("usr/lib").
    if len(names) > 1 and all(n[:1].isalpha() and (any(c.isupper() for c in n) or is_identifier(n)) for n in names):
        return all(term_covered(n, tokens, flat) for n in names)
    if is_identifier(term):
        return bool(key) and key in flat
    if _CODED.match(term):  # "Level 5": the word with its number, not each anywhere ("Level 3 ... 5 keys")
        return key in flat and toks[-1] in tokens  # and the number whole ("Level 12" holds no "Level 1")
    if _COMBINATION.search(term) and key in flat:  # "Shift+Ctrl+Z" written "Shift + Ctrl + Z" (its "Z" no token)
        return True
    if "-" in term and key in flat:  # "keep-alive" written "keepalive" or "keep alive"
        return True
    parts = [t for t in toks if t != whole]
    if all(p in tokens for p in (parts or toks)) or _compound_split(whole, flat):
        return True
    return whole.isalpha() and any(all(p in tokens for p in tokenize(v)) for v in respelled(whole))


# A word spelt the British or the American way ("behaviour", "behavior"; "initialise", "initialize"): a reader may
# write either.
_SPELLINGS = [
    (r"our\b", "or"),
    (r"(?<=[a-z]{3})or\b", "our"),
    (r"is(e|ed|es|ing|ation|ations)\b", r"iz\1"),
    (r"iz(e|ed|es|ing|ation|ations)\b", r"is\1"),
]


def respelled(word: str) -> set[str]:
    """The word's other spellings ("behavior" of "behaviour", "minimize" of "minimise")."""
    return {re.sub(a, b, word) for a, b in _SPELLINGS} - {word}


def _compound_split(word: str, flat: str) -> bool:
    """A long plain word the text writes as two ("workflow" as "work flow", "handover" as "hand over")."""
    if len(word) < 8 or not word.isalpha() or not flat:
        return False
    return any(f" {word[:k]} {word[k:]} " in f" {flat} " for k in range(3, len(word) - 2))


# Code written as typed: a long option ("--qz-errors"), a short one ("-k": its letter is no word the search reads,
# and its case tells it from another, "-e" from "-E"), a format's escape ("%Q": the search reads only "q") or a
# call ("glue(parts)", "qz_run()"); not a manual page's name with its section ("qzgate(7)": the page may be titled
# otherwise), nor "attachment(s)", nor a share ("50%"), nor a hyphen within a word or a range ("e-mail", "-z-4").
# An absolute path ("/var/qz", "~/.qzrc"): the search reads its words, and "/qz" is not "/var/qz"; not "and/or",
# "I/O", "1/2", "(a+b)/2", "5%/year" or "${QZ}/x", whose slash follows a word, a bracket or a sign, nor "/2".
_WRITTEN = re.compile(
    r"(?<![\w-])(?P<option>--[A-Za-z][\w-]*|-[A-Za-z](?![\w-]))|(?<![\w%])(?P<escape>%[A-Za-z])(?![\w%])|"
    # a name of two characters or more, not all capitals ("f(x)", "E(X)" are notation), nor a plural's "(s)"
    r"(?<![\w.$@-])(?P<call>(?![A-Z\d_.]+\()[A-Za-z_][\w.]+)\((?!(?:e?s|\d\w?)\))(?=[^()]*\))|"
    r"(?<![\w/.~$*=)\]}%’':-])(?P<path>~?/[A-Za-z._][\w.+-]*(?:/[\w.+-]*\w)*(?<=\w))"
)
# A wildcard pattern ("*.qz", "q/**/z", "s/q*/Z/"): a word holding "*" and a "/" or a ".", quotes and a sentence's
# stop around it left out; not "*" alone ("365 * x"), a footnote's or emphasis's star ("Revenue*", "**bold**"),
# arithmetic ("2*3", "3.5*10^6") nor a call's name ("qz.get*()").
_QUOTES = "\"'`“”‘’"
_ARITHMETIC = re.compile(r"[\d.*^+-]+")


def _patterns(question: str) -> list[tuple[int, str]]:
    """The wildcard patterns the question writes, each with where it starts (a linear scan of its words)."""
    out = []
    for match in re.finditer(r"\S+", question):
        word = match.group().strip(_QUOTES + "()[]").rstrip(".,;:!?").strip(_QUOTES)
        if (
            "*" in word
            and re.search(r"[/.]", word)
            and re.search(r"\w", word)
            and "(" not in match.group()
            and not word.startswith("-")
            and not _ARITHMETIC.fullmatch(word)
        ):
            out.append((match.start() + match.group().find(word), word))
    return out


def written_code(question: str) -> list[str]:
    """The options, escapes, calls, paths and wildcard patterns the question writes as typed ("--retries", "-k", "%Q",
    "glue()", "/var/qz", "*.qz"); a method by its own name, as a document writes it ("map()" for "x.map(f)")."""
    patterns = _patterns(question)
    spans = [(start, start + len(word)) for start, word in patterns]
    calls = (
        m.group("option") or m.group("escape") or m.group("path") or f"{m.group('call').rsplit('.', 1)[-1]}()"
        for m in _WRITTEN.finditer(question)
        # A path a pattern goes on ("/qz/gate*") is the pattern's.
        if not any(a <= m.start() < b for a, b in spans)
    )
    return list(dict.fromkeys([*calls, *(word for _, word in patterns)]))


def is_short_option(code: str) -> bool:
    """A one-letter option as written ("-k")."""
    return len(code) == 2 and code[0] == "-" and code[1].isalpha()


def is_path(code: str) -> bool:
    """A path as written ("/var/qz", "~/.qzrc")."""
    return code.startswith(("/", "~")) and "*" not in code


def is_pattern(code: str) -> bool:
    """A wildcard pattern as written ("*.qz", "q/**/z")."""
    return "*" in code


def may_be_own(code: str) -> bool:
    """A path or a wildcard pattern: it may be the reader's own ("my PID file in /run/qzd.pid", "*.mine"), so no
    evidence need hold it."""
    return is_path(code) or is_pattern(code)


def names_path(path: str, text: str) -> bool:
    """Whether the text names the path: as written, or by its last part quoted or called a directory or a file ("/qz"
    in 'the "qz" directories'), never within another path ("/qz" is not named by "/var/qz") nor as an ordinary word
    ("/run" is not named by "run the gate")."""
    last = re.escape(path.rstrip("/").rsplit("/", 1)[-1])
    named = rf"(?<![\w/.~$-])[\"'`“‘]{last}[\"'`”’]|(?<![\w/.~$-]){last}\s+(?:director(?:y|ies)|files?|folders?)\b"
    return written_in(path, text) or bool(last and re.search(named, text))


def written_in(code: str, text: str) -> bool:
    """Whether the text holds the code as written: an option whole ("--retries", "--retries=N", "-k"; not
    "--retries-max", "-kb"), an escape ("%Q"), a call's name before its bracket ("glue()" in "glue (parts)",
    "run()" in "proc.run(cmd)"), a pattern whole, a path whole or one it goes on ("/qz" in "/qz/run")."""
    if code.startswith("%"):  # an escape's letter keeps its case ("%q" and "%Q" differ)
        return bool(re.search(rf"(?<![\w%]){re.escape(code)}(?![\w%])", text))
    if is_pattern(code):  # a pattern whole, quoted or not
        return bool(re.search(rf"(?<![^\s\"'`(\[]){re.escape(code)}(?![^\s\"'`)\].,;:])", text))
    if is_path(code):  # a path whole, or a path within it ("/qz" in "/qz/run"; not in "/var/qz")
        return bool(re.search(rf"(?<![\w/.~$-]){re.escape(code)}(?![\w.+-]*\w)", text))
    if code.endswith("()"):  # a method, too ("x.run("); a sentence may capitalise it
        return bool(re.search(rf"(?<!\w){re.escape(code[:-2])}\s*\(", text, re.I))
    if not code.startswith("--"):  # a short option's letter keeps its case ("-e" and "-E" differ)
        return bool(re.search(rf"(?<![\w-])[-‐‑‒–—−]{re.escape(code[1:])}(?![\w-])", text))
    # Typesetting turns hyphens into dashes ("–verbose", "−−retries", "qz‐errors").
    option = re.escape(code[2:]).replace(r"\-", _HYPHEN)
    return bool(re.search(rf"(?<![\w-])(?:--|[‐‑‒–—−]{{1,2}}){option}(?![\w-])", text))


def titles_read(evidence: list[dict[str, Any]]) -> list[tuple[set[str], str]]:
    """The evidence's document titles, each read once (see `read`)."""
    return [read([t]) for t in {h.get("title", "") for h in evidence} if t]


def untitled(terms: list[str], titles: list[tuple[set[str], str]]) -> list[str]:
    """The terms no document title names: a title's name names its document, not what is asked of it."""
    return [t for t in terms if not any(term_covered(t, *title) for title in titles)]


def names_covered(names: list[str], tokens: set[str], flat: str) -> bool:
    """Whether the tokens hold any of the names (a term and its aliases), each word of a name found."""
    return any(all(term_covered(w, tokens, flat) for w in name.split()) for name in names)


def names_subject(names: list[str], sentence: str) -> bool:
    """The sentence names the thing: code as written ("--qz-mark", not "the qz mark"; "/var/qz", not "var" and "qz"),
    other names as found."""
    if written_code(names[0]) == [names[0]]:
        return written_in(names[0], sentence)
    # A name in capitals that is also a word ("EDITOR", "PAGER") is a variable's name; "the user's editor" is not it.
    if _CAPITALS.fullmatch(names[0]) and is_common_word(names[0].lower()):
        return bool(re.search(rf"(?<!\w){names[0]}(?!\w)", sentence)) or names_covered(names[1:], *read([sentence]))
    return names_covered(names, *read([sentence]))


_CAPITALS = re.compile(r"[A-Z][A-Z0-9_]+")


_CLOSING = re.compile(r"</([A-Za-z][\w.:-]*)\s*>")  # an element closed: markup, not a placeholder ("<file>")


def without_markup(text: str, around: str = "") -> str:
    """The text without the markup tags a careless conversion left in it ("<td><kbd>Qz</kbd>+<kbd>D</kbd></td>" reads
    "Qz + D"): the tags of the elements it, or the text `around` it (its passage), closes, so a placeholder
    ("--log=<file>") stays."""
    names = set(_CLOSING.findall(f"{text} {around}")) if "<" in text else set()
    if not names:
        return text
    tags = re.compile(rf"</?(?:{'|'.join(map(re.escape, names))})(?:\s[^<>]*)?/?>")
    return re.sub(r"\s+(?=[.,;:!?](?:\s|$))", "", " ".join(tags.sub(" ", text).split()))


def read(texts: list[str]) -> tuple[set[str], str]:
    """The texts' tokens and their squashed run, as `term_covered` and `names_covered` read them; a text marked up
    is squashed without its tags too ("<kbd>Qz</kbd>+<kbd>D</kbd>" holds "Qz+D")."""
    untagged = [t for t in map(without_markup, texts) if t not in texts]
    return token_set(texts), squashed([*texts, *untagged])


def coverage(terms: list[str], texts: list[str]) -> tuple[list[str], list[str]]:
    """(covered, missing) terms against the texts."""
    tokens, flat = read(texts)
    covered = [t for t in terms if term_covered(t, tokens, flat)]
    return covered, [t for t in terms if t not in covered]
