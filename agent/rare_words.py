"""Words that name a thing rather than say something: a word that is no ordinary word of the language in any of its
usual forms, and whether any passage holds it in any spelling (whole, joined or split, or one slip apart)."""

from __future__ import annotations

import re

from agent.evidence import read, respelled, term_covered
from kb.text import is_common_word, tokenize


def absent(words: list[str], texts: list[str]) -> list[str]:
    """The words no text holds in any spelling: not whole, not joined or split ("time-out", "data set"), not one
    slip apart (a typo, "recieve")."""
    tokens, flat = read(texts)
    return [
        word
        for word in words
        if not term_covered(word, tokens, flat)
        and word not in flat
        and not any(typo((tokenize(word) or [word])[0], t) for t in tokens)
    ]


def typo(a: str, b: str) -> bool:
    """Two spellings one slip apart: a letter more, less or other, or two neighbours swapped ("recieve"); a slip
    keeps the first letter ("zorbyte" is no "korbyte")."""
    if a[:1] != b[:1]:
        return False
    if len(a) > len(b):
        a, b = b, a
    if len(b) - len(a) > 1:
        return False
    if len(a) < len(b):  # one letter more
        return any(b[:i] + b[i + 1 :] == a for i in range(len(b)))
    diff = [i for i in range(len(a)) if a[i] != b[i]]
    swapped = len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]]
    return len(diff) <= 1 or swapped


_ENDINGS = [(r"es$", ""), (r"s$", ""), (r"ed$", ""), (r"d$", ""), (r"ing$", ""), (r"ing$", "e")]
# Prefixes that make a word of another ("unset", "reload", "nonempty"): generic English, few.
_PREFIXES = re.compile(r"^(?:un|re|non|dis|mis)(?=[a-z]{3})")


def is_rare(word: str) -> bool:
    """A word that is no ordinary word of the language in any of its usual forms ("minimise" is "minimize",
    "hashes" is "hash", "unset" is "set" undone; "zorbyte" is rare)."""
    forms = {word, *respelled(word)}
    forms |= {_PREFIXES.sub("", w) for w in forms}
    forms |= {re.sub(end, new, w) for w in list(forms) for end, new in _ENDINGS}
    # A base the word list holds only inflected ("truncating": "truncate", listed as "truncated").
    bases = [w for w in forms if len(w) > 3]  # "ga" is no "gas"
    forms |= {f"{w}{'d' if w.endswith('e') else 'ed'}" for w in bases} | {f"{w}s" for w in bases}
    return not any(is_common_word(f) for f in forms if len(f) > 2)
