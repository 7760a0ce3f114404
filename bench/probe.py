"""Unanswerable variants of a corpus's own questions, for any corpus with document or page gold.

A question that names its document ("What was 3M's FY2018 capital expenditure?", "How is BERT pre-trained?") is
asked again with that name replaced by a made-up one. The library holds nothing about the made-up name, so the
agent must refuse; an answer means it answered from passages that only share the question's other words. The name
is the first word of the question that its gold document's title, organisation or file name also holds and that
names something (an identifier, or a capitalised word that does not open the question).
"""

from __future__ import annotations

import re
from typing import Any

from kb.periods import is_period
from kb.text import STOPWORDS, WH_WORDS, is_identifier, words

MADE_UP = "Zorblax"


def named_word(question: str, card: str) -> str | None:
    """The word of the question that names its document (held by the document's card text), or None."""
    held = {w.lower() for w in words(card)}
    for position, word in enumerate(words(question)):
        base = re.sub(r"(?:'s|’s)$", "", word)
        low = base.lower()
        if low in STOPWORDS or low in WH_WORDS or is_period(base) or low not in held or len(base) < 2:
            continue
        # A name: a code or acronym, or a capitalised word that does not open the question ("Boeing", "Block").
        if is_identifier(base) or (base[:1].isupper() and position > 0):
            return base
    return None


def variants(questions: list[Any], cards: dict[str, str]) -> list[Any]:
    """The answerable questions whose gold document they name, with that name made up (marked unanswerable)."""
    out = []
    for q in questions:
        doc = q.doc_id or (q.gold[0].doc_id if q.gold else None)
        if not q.answerable or doc not in cards:
            continue
        name = named_word(q.question, cards[doc])
        if name is None:
            continue
        text = re.sub(rf"(?<![\w-]){re.escape(name)}(?![\w-])", MADE_UP, q.question)
        out.append(q.model_copy(update={"qid": f"{q.qid}-madeup", "question": text, "answerable": False, "gold": []}))
    return out


def cards_of(kb: Any) -> dict[str, str]:
    """Each committed document's card as text: title, organisation and the file name as a person wrote it."""
    return {
        d.doc_id: " ".join([d.title, d.organisation, d.name, d.doc_id])
        for d in kb.documents()
        if d.status == "committed"
    }
