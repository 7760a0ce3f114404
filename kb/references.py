"""Reference lists and citation lines: text that names other works without saying anything about the question.

Ingestion embeds a reference-list chunk as a label (BM25 still indexes every entry); whoever weighs evidence can
leave such chunks and citation lines out.
"""

from __future__ import annotations

import re

_CITATION = re.compile(r"et al\.|\((?:19|20)\d{2}[a-z]?\)|,\s*(?:19|20)\d{2}[a-z]?\.|^\s*\[\d+\]\s+[A-Z]")
_VENUE = re.compile(
    r"[Aa]r[Xx]iv|preprint|[Pp]roceedings|[Cc]onference on|[Jj]ournal of|[Tt]ransactions on|[Ww]orkshop on|doi:|"
    # A link, not the word "URL": a page about URLs says "URL" in every other sentence ("URL {URL} A WHATWG URL").
    r"https?://|\bpp\.\s*\d|\b[Vv]ol\.\s*\d"
)
# "..., 2019." and "(2019)." close most bibliography entries.
_ENTRY_END = re.compile(r"(?:(?:19|20)\d{2}[a-z]?|\((?:19|20)\d{2}[a-z]?\))\.(?:\s|$)")
_INITIALS = re.compile(r"\b[A-Z]\.,")  # "Smith, J., Doe, A.,": an author list
# A numbered entry opening with its first author's initials: "[57] A. Zeng, ..." (entries that close with
# "..., 2022, pp. 1-9." rather than a year and a full stop).
_NUMBERED = re.compile(r"(?:^|\s)\[\d{1,3}\]\s+(?:[A-Z]\.\s?)+[A-Z]")
# An author written initials first ("J. W. Rae," "and R. Barzilay,"): a run of them is an author list.
_AUTHOR = re.compile(r"\b(?:[A-Z]\.\s?){1,3}[A-Z][\w'’-]+(?:,|\s+and\b)")
_AUTHOR_RUN = 6  # fewer is a signature block or a few people named in prose
_REFERENCE_HEADING = re.compile(r"\b(?:references|bibliography|works cited|literature cited)\s*$", re.I)
# What a reference list is embedded as when none of its headings says what it is.
LABEL = "References"


def is_citation(sentence: str) -> bool:
    """A bibliography entry rather than a statement: a venue or link plus author/year marks."""
    return bool(_VENUE.search(sentence)) and (bool(_CITATION.search(sentence)) or len(sentence.split()) < 25)


def is_reference_list(section: str, text: str) -> bool:
    """A chunk of a reference list: under a reference heading with at least one entry mark; without one, dense with
    venues and entry marks (closing years, numbered entries) or with authors' names.

    Under the heading, one mark tells entries from an appendix the parser filed there. Without it, a footnote's link
    or a paper's arXiv stamp in running text is one mark among a hundred words, not a list.
    """
    # The venue pattern is the slow one (a dozen alternatives tried at every position): it runs last.
    ends = len(_ENTRY_END.findall(text))
    if reference_heading(section):
        return ends >= 1 or bool(_INITIALS.search(text)) or bool(_VENUE.search(text))
    marks = ends + len(_NUMBERED.findall(text))
    words = max(1, len(text.split()))
    if marks >= 2:
        venues = len(_VENUE.findall(text))
        if venues >= 1 and venues + marks >= 4 and (venues + marks) * 100 >= 3 * words:
            return True
    # The middle of a long author list holds neither venues nor years: names are an eighth of its words.
    authors = len(_AUTHOR.findall(text))
    return authors >= _AUTHOR_RUN and authors * 100 >= 12 * words


def reference_heading(section: str) -> str:
    """The section path down to its reference heading ("7 Conclusion > References"), or "" when it has none.

    Headings below it are running headers or sub-lists the parser took for headings."""
    parts = [p for p in (section or "").split(" > ") if p]
    for depth, part in enumerate(parts, 1):
        if _REFERENCE_HEADING.search(part):
            return " > ".join(parts[:depth])
    return ""


def reference_label(section: str) -> str:
    """What a reference-list chunk is embedded as: its reference heading, else a plain label (never another
    section's heading, which would draw that section's queries, nor its entries, which name other works)."""
    return reference_heading(section) or LABEL
