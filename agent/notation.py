"""Notation in a sentence: an equation, pseudo-code, a figure's text or source code read into prose. An answer
quotes the prose before it, never the notation, unless the question asks for an equation."""

from __future__ import annotations

import re

from agent.settings import AnswerSettings
from kb.text import STOPWORDS

# Greek letters, combining marks (x̃), arrows, mathematical operators and brackets, the minus sign: the notation of
# equations, of pseudo-code ("σ ← ...") and of figures' labels read into the text.
_MATH = re.compile(r"[\u0300-\u036f\u0370-\u03ff\u2190-\u21ff\u2200-\u22ff\u27c0-\u27ef\u2980-\u2aff]")
ASKS_MATH = re.compile(
    r"\b(?:equations?|formulas?|formulae|algorithms?|pseudo-?code|notation|expression|calculated|computed|defined)\b",
    re.I,
)
# English words of one or two letters are words of prose, not notation; a lone letter but "a" is a variable.
_SHORT_WORDS = frozenset(w for w in STOPWORDS if len(w) == 2) | {"a"}


def _symbols(word: str) -> set[str]:
    """The word's mathematical symbols; a sign opening a figure ("−1.2%") is none."""
    return set(_MATH.findall(word.lstrip("(−-+")))


def _symbolic(word: str) -> bool:
    """A word of notation: it holds a symbol, or it is a lone letter, sign or figure that is not a word."""
    return bool(_symbols(word)) or (len(word) <= 2 and word.lower() not in _SHORT_WORDS)


# A word of source code: a statement's end after a bracket or a quote ("f(x);", "\"pw\";"), a brace standing alone
# ("{", "};", "){"), an assignment or comparison, an index or a call glued to a name ("key[]", "f(x,"), a comment mark
# ("/*", "//"), a preprocessor line. Prose has none of these: a word ending in ";" alone ("first; then"), a citation
# ("BERT[5]"), a plural mark ("document(s)") and a set ("{16, 32}") are no code.
_CODE = re.compile(
    r"[)\]\"'];$|^[{}];?$|\)\{$|^(?:=|==|!=|->|&&|\|\|)$|\w(?:\[(?!\d+(?:[,–-]\s*\d+)*\])|\((?!(?:s|es|ies)\)))|"
    r"^/\*|\*/$|^//+$|^#[a-z]+$"
)
# What only code has, not a formula ("M(x) = M1(x) · x + M2(x)"): a statement's end, a brace, a block comment's
# mark, a preprocessor line ("//" alone is no statement: "a leading // is treated specially" is prose).
_STATEMENT = re.compile(r"[)\]\"'];$|^[{}];?$|\)\{$|^/\*|\*/$|^#[a-z]+$")


def _code_start(words: list[str], settings: AnswerSettings) -> int | None:
    """Where source code starts among the words: a word of code with `code_tokens` of the `symbol_run` + 3 words
    from it code, one of them a statement's end, a brace or a comment mark."""
    window = settings.symbol_run + 3
    code = [bool(_CODE.search(w)) for w in words]
    statement = [bool(_STATEMENT.search(w)) for w in words]
    return next(
        (
            i
            for i in range(len(words))
            if code[i] and sum(code[i : i + window]) >= settings.code_tokens and any(statement[i : i + window])
        ),
        None,
    )


def notation_start(words: list[str], settings: AnswerSettings) -> int | None:
    """Where the first run of notation starts among the words: `symbol_run` words of notation in a row holding at
    least `math_symbols` different symbols, or one beside a variable (a lone letter: "p θ ( x )"), or source code
    (see `_code_start`); None without one. A run of lone letters and figures, or of figures and one symbol ("8 → 16
    → 32"), is a list of codes or values."""
    code = _code_start(words, settings)
    math = _math_start(words, settings)
    return min((i for i in (code, math) if i is not None), default=None)


def _math_start(words: list[str], settings: AnswerSettings) -> int | None:
    start = 0
    for end in range(len(words) + 1):
        if end < len(words) and _symbolic(words[end]):
            continue
        run = words[start:end]
        symbols = set().union(*map(_symbols, run))
        variable = any(len(bare := w.strip("()[],.;:")) == 1 and bare.isalpha() for w in run)
        if len(run) >= settings.symbol_run and (len(symbols) >= settings.math_symbols or (symbols and variable)):
            return start
        start = end + 1
    return None


# A word of prose: a word of letters (an apostrophe or a hyphen inside; a bracket, a quote or a stop around it) or a
# figure. A file's name ("b.qz"), a call ("f(x);"), a comment mark or a quoted value in backticks is none.
_PROSE_WORD = re.compile(r"^[\"“(]?(?:[A-Za-z][A-Za-z'’-]*|\d[\d,.]*%?)[)\"”]?[,;:.]?$")


def _prose_after(words: list[str], after: int, least: int) -> str | None:
    """A sentence of prose within the code read into a sentence ("... console.log(x); # works If a top level wait
    never ends, qz exits with 13. import { y } ..."): the first run of prose words past the word `after`, from a
    capital to a stop, of `least` words or more."""
    i = after + 1
    while i < len(words):
        if not _PROSE_WORD.match(words[i]):
            i += 1
            continue
        j = i
        while j < len(words) and _PROSE_WORD.match(words[j]):
            j += 1
        run = words[i:j]
        first = next((k for k, w in enumerate(run) if w[:1].isupper()), None)
        last = next((k for k in range(len(run) - 1, -1, -1) if run[k].endswith(".")), None)
        if first is not None and last is not None and last - first + 1 >= least:
            return " ".join(run[first : last + 1])
        i = j
    return None


def quoted(sentence: str, question: str = "", settings: AnswerSettings | None = None) -> str | None:
    """The sentence as an answer quotes it: its prose up to its first run of notation ("... approximates the trace
    of the log log p θ ( x ) x̃fake ..."), ending in '…', when twice `symbol_run` words of prose come before it, and
    a sentence of prose within the notation after it (twice `symbol_run` words of prose from a capital to a stop: a
    sentence run together with the code around it), after the '…'; when it opens with notation, that prose alone, else
    None; the sentence as it is without notation or when the question asks for an equation."""
    s = settings or AnswerSettings()
    words = sentence.split()
    start = notation_start(words, s)
    if start is None or ASKS_MATH.search(question):
        return sentence
    # Only after code: prose after an equation's symbols is the equation's own words ("... x̃fake which in practice").
    tail = _prose_after(words, start, 2 * s.symbol_run) if _code_start(words, s) == start else None
    if start >= 2 * s.symbol_run:
        return " ".join(words[:start]).rstrip(",;:") + " …" + (f" {tail}" if tail else "")
    return tail


def symbols_cut(sentence: str, question: str = "", settings: AnswerSettings | None = None) -> str:
    """The sentence's prose up to its first run of notation (see `quoted`); the sentence as it is when it opens with
    notation (`unreadable` refuses it)."""
    return quoted(sentence, question, settings) or sentence


def opens_with_notation(sentence: str, question: str = "", settings: AnswerSettings | None = None) -> bool:
    """Whether the sentence opens with notation and the question asks for no equation: no answer, and no statement
    of a value."""
    return quoted(sentence, question, settings) is None
