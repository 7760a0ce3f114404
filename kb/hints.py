"""Where the question says to look: a hint ("... shown in the cash flow statement", "see the table of results")
names a part of the document, and the pages titled that way answer it.

A hint's words are few and generic ("statement", "table"), so in a query they weigh little against the need's
words; this ranking reads only a candidate's titles (its section path and an opening line shaped like a title),
where a part of a document is named.
"""

from __future__ import annotations

import re
from typing import Any

from kb.headings import heading_shape
from kb.text import tokenize

# A hint naming two parts ("the balance sheet and the income statement") is two hints.
_PARTS = re.compile(r",|;|\band\b|\bor\b|&(?=\s)", re.IGNORECASE)


def hint_parts(hints: list[str]) -> list[set[str]]:
    """Each part a hint names, as its search terms. A hint is cut at its conjunctions only when every piece holds
    two terms or more: "profit and loss statement" names one part, not "profit" and "loss statement"."""
    parts: list[set[str]] = []
    for hint in hints:
        pieces = [set(tokenize(piece)) for piece in _PARTS.split(hint)]
        pieces = [p for p in pieces if p]
        parts += pieces if all(len(p) >= 2 for p in pieces) else [set(tokenize(hint))]
    return [p for p in parts if p]


def titles_of(record: dict[str, Any]) -> set[str]:
    """The terms of a chunk's titles: its section path and its opening line when shaped like a title."""
    first = record["text"].split("\n", 1)[0]
    return set(tokenize(f"{record.get('section', '')} {first if heading_shape(first) else ''}"))


def hint_rank(records: list[dict[str, Any]], hints: list[str], share: float) -> list[tuple[dict[str, Any], float]]:
    """The records whose titles hold at least `share` of a part's terms, best share first (ties in given order:
    the caller's ranking so far)."""
    parts = hint_parts(hints)
    if not parts:
        return []
    scored = []
    for record in records:
        titles = titles_of(record)
        best = max(len(part & titles) / len(part) for part in parts)
        if best >= share:
            scored.append((record, best))
    return sorted(scored, key=lambda item: -item[1])
