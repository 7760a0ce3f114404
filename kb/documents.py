"""Which documents a question names: a small index over the document cards and first pages.

A question often names its document (who issued it, its year, its number, a word of its title) and then asks
something every document of the library could answer. Chunk search alone then ranks the chunks of whichever
document words it best, often another organisation's or another year's. This index scores each document by the
rare terms of the question its card or first page holds, so search can prefer the documents named.

Terms are compared in normalised forms, so a year, a number or a short name matches however it is written: "FY2019",
"fiscal 2019" and "2019" share "2019"; "AB 12-3", "AB12-3" and "AB 12.3" share "ab123"; a short name the document
introduces on its first pages ("... Holdings Inc. (the "Quill")") is among its first-page terms.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass

from pydantic import BaseModel, Field

from kb.models import DocumentRecord
from kb.periods import YEAR, period_year
from kb.text import tokenize

# A run of letters and digits joined by spaces, dots, dashes or slashes, holding a digit: an identifier's parts.
_IDENTIFIER = re.compile(r"\b[A-Za-z]*\d[\w]*(?:[ ./-]\d[\w]*)*|\b[A-Za-z]+(?:[ ./-]?\d[\w]*)+")
_HEAD = re.compile(r"([^:,]*)[:,]")  # a title's words before its first colon or comma
_QUARTER = re.compile(r"\bQ([1-4])\b", re.IGNORECASE)


def _words(question: str) -> list[tuple[str, bool]]:
    """Each word of the question, and whether it can name a document: capitalised past a sentence's first word,
    or holding a digit."""
    out: list[tuple[str, bool]] = []
    start = True
    for word in question.split():
        out.append((word, any(c.isdigit() for c in word) or (not start and any(c.isupper() for c in word))))
        start = word.endswith((".", "?", "!", ":"))
    return out


def naming_words(question: str) -> str:
    """The naming words of a question, the others replaced by a separator so identifiers are not glued across
    them."""
    return " ".join(word if naming else "|" for word, naming in _words(question))


def document_terms(text: str) -> set[str]:
    """The text's search terms plus normalised forms of its years and identifiers."""
    terms = set(tokenize(text))
    for term in list(terms):
        year = period_year(term)  # "FY19": a fiscal year written short
        if year:
            terms.add(year)
    for match in _IDENTIFIER.finditer(text):
        glued = re.sub(r"[ ./-]", "", match.group()).lower()
        if len(glued) >= 3 and not glued.isdigit():
            terms.add(glued)
    return terms


class DocumentMatch(BaseModel):
    """A document the question names, and why."""

    doc_id: str = Field(description="The document.")
    score: float = Field(description="Its match relative to the best-matching document (1.0 for the best).")
    strength: float = Field(
        description="Its match: the summed rarity of its terms (log inverse document frequency, as a share of a "
        "term held by one document alone)."
    )
    terms: list[str] = Field(description="The question's terms its card or first page holds, rarest first.")


@dataclass
class _Entry:
    doc_id: str
    card: set[str]
    first_page: set[str]
    period_year: str  # the year the card's period ends in, "" without one
    own_name: set[str]  # the terms of the short name its title opens with ("NAME: what it is"), if any


def own_name(title: str, max_words: int) -> str:
    """The short name a title opens with, before its first colon or comma ("NAME: what it is", "NAME, a ..."),
    when it is at most `max_words` words; "" otherwise."""
    head = _HEAD.match(title)
    return head.group(1).strip() if head and 0 < len(head.group(1).split()) <= max_words else ""


def own_name_terms(document: DocumentRecord, max_words: int) -> set[str]:
    """The terms of the document's own name; none when the name is its organisation's (a filing's title opens with
    who filed it, which names every document they filed alike)."""
    name = own_name(document.title, max_words)
    return set() if not name or name.casefold() == document.organisation.strip().casefold() else document_terms(name)


def _rarity(held: list[set[str]]) -> dict[str, float]:
    """Each term's log inverse document frequency among the documents (each holding the terms of one set), as a
    share of a term held by one document alone; terms every document holds are left out."""
    n = len(held)
    counts = Counter(term for terms in held for term in terms)
    top = math.log((n + 1) / 0.5)
    return {t: math.log((n + 1) / (c + 0.5)) / top for t, c in counts.items() if c < n}


class DocumentIndex:
    """Document cards and first pages as sets of normalised terms, weighted by how few documents hold them."""

    def __init__(
        self,
        documents: list[DocumentRecord],
        first_pages: dict[str, str],
        first_page_weight: float,
        plain_weight: float,
        earlier_year_weight: float,
        name_words: int,
    ):
        self.entries = [
            _Entry(
                d.doc_id,
                document_terms(" ".join([d.title, d.organisation, d.period, d.name or d.doc_id.replace("_", " ")])),
                document_terms(first_pages.get(d.doc_id, "")),
                max((t for t in tokenize(d.period) if YEAR.match(t)), default=""),
                own_name_terms(d, name_words),
            )
            for d in documents
        ]
        self.first_page_weight = first_page_weight
        self.plain_weight = plain_weight
        self.earlier_year_weight = earlier_year_weight
        # Rarity as a share of the rarest possible (a term of one document scores about 0.7-0.9, whatever the size of
        # the library); a term of every document tells none apart.
        self.idf = _rarity([e.card | e.first_page for e in self.entries])
        # A period's rarity among the documents' periods: many first pages print a year in passing (a filing date,
        # a copyright line), few documents cover a period ending in it.
        self.period_idf = _rarity([{e.period_year} - {""} for e in self.entries])
        # A name's rarity among the names titles open with: a word several titles mention ("a distilled version of
        # X") still names the one document whose title opens with it ("X: ...").
        self.name_idf = _rarity([e.own_name for e in self.entries])

    def match(self, question: str, top: int) -> list[DocumentMatch]:
        """The documents whose cards or first pages hold the question's rare terms, best first (at most `top`).
        Each word of the question counts once, by its best term: a naming word (capitalised or holding a digit)
        fully on a card and by `first_page_weight` on a first page; another word by `plain_weight` on a card.

        The years a question names count once together, by the document's period: a report states its own period
        and compares it with earlier ones, so a question naming 2021 and 2022 is about the period ending in 2022.
        A document whose period ends in the latest year named counts fully, one whose period ends in another year
        named by `earlier_year_weight`; a document without such a period counts by its terms as above."""
        words: list[tuple[set[str], bool]] = []
        years: set[str] = set()
        for word, naming in _words(question):
            found = document_terms(word)
            # a year every first page prints can still tell periods apart
            named = {t for t in found if YEAR.match(t) and (t in self.idf or t in self.period_idf)}
            years |= named
            terms = {t for t in found if t in self.idf} - named - {f"fy{year}" for year in named}  # "FY2019": its year
            # A word written twice names a document no more than once ("(list) or { list; }" is no stronger a
            # pointer to a document titled with "list"), as a name where either time writes it as one.
            seen = next((n for n, (held, _) in enumerate(words) if held == terms), None)
            if seen is not None:
                words[seen] = (terms, naming or words[seen][1])
            elif terms:
                words.append((terms, naming))
        fiscal = {f"fy{year}" for year in years}
        glued = {t for t in document_terms(naming_words(question)) if t in self.idf} - set().union(
            *[w for w, _ in words]
        )
        words += [({t}, True) for t in glued - years - fiscal]  # identifiers written across words ("AB 12")
        # A quarter and a year named apart ("Q2 of FY2023") name the quarter as files are named ("2023Q2")
        quarters = {t for q in _QUARTER.findall(question) for y in years if (t := f"{y}q{q}") in self.idf}
        words += [({t}, True) for t in sorted(quarters)]
        if not (words or years) or not self.entries:
            return []
        latest = max(years, default="")
        scored: list[tuple[float, str, list[str]]] = []
        for entry in self.entries:
            score = 0.0
            matched: list[str] = []
            for terms, naming in words:
                best, best_term = 0.0, ""
                for term in terms:
                    if term in entry.card:
                        weight = 1.0 if naming else self.plain_weight
                    elif naming and term in entry.first_page:
                        weight = self.first_page_weight
                    else:
                        continue
                    rarity = self.idf[term]
                    if naming and term in entry.own_name:
                        rarity = max(rarity, self.name_idf.get(term, 0.0))
                    if weight * rarity > best:
                        best, best_term = weight * rarity, term
                if best:
                    score += best
                    matched.append(best_term)
            if years:
                term, weight = self._year(entry, years, latest)
                if weight:
                    score += weight
                    matched.append(term)
            if score > 0:
                scored.append((score, entry.doc_id, matched))
        if not scored:
            return []
        scored.sort(key=lambda item: (-item[0], item[1]))
        best = scored[0][0]
        return [
            DocumentMatch(doc_id=d, score=round(s / best, 4), strength=round(s, 4), terms=m) for s, d, m in scored[:top]
        ]

    def _year(self, entry: _Entry, years: set[str], latest: str) -> tuple[str, float]:
        """The year a document matches of those the question names, and the match's weight."""
        if entry.period_year in years and latest in self.period_idf:
            # Weighed by the rarity of the period asked about, so the earlier period's ranks below the latest's
            weight = 1.0 if entry.period_year == latest else self.earlier_year_weight
            return entry.period_year, weight * self.period_idf[latest]
        best = ("", 0.0)
        for year in years:
            weight = 1.0 if year in entry.card else self.first_page_weight if year in entry.first_page else 0.0
            best = max(best, (year, weight * self.idf.get(year, 0.0)), key=lambda item: item[1])
        return best
