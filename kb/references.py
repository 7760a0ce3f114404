"""Reference lists and citation lines: text that names other works without saying anything about the question.

Ingestion embeds a reference-list chunk by its heading alone (BM25 still indexes every entry), and the agent never
takes such chunks or citation lines as evidence.
"""

from __future__ import annotations

import re

_CITATION = re.compile(r"et al\.|\((?:19|20)\d{2}[a-z]?\)|,\s*(?:19|20)\d{2}[a-z]?\.|^\s*\[\d+\]\s+[A-Z]")
_VENUE = re.compile(
    r"arXiv|preprint|[Pp]roceedings|[Cc]onference on|[Jj]ournal of|[Tt]ransactions on|[Ww]orkshop on|doi:|"
    r"https?://|\bpp\.\s*\d|\b[Vv]ol\.\s*\d|\bURL\b"
)
_ENTRY_END = re.compile(r"(?:19|20)\d{2}[a-z]?\.(?:\s|$)")  # "..., 2019." closes most bibliography entries
_REFERENCE_HEADING = re.compile(r"\b(?:references|bibliography|works cited|literature cited)\s*$", re.I)


def is_citation(sentence: str) -> bool:
    """A bibliography entry rather than a statement: a venue or link plus author/year marks."""
    return bool(_VENUE.search(sentence)) and (bool(_CITATION.search(sentence)) or len(sentence.split()) < 25)


def is_reference_list(section: str, text: str) -> bool:
    """A chunk of a reference list: its heading is one, or its text is dense with venues and entry-closing years.

    A footnote's link or a paper's arXiv stamp in running text is one mark among a hundred words, not a list. Under
    a reference heading that is not the chunk's own (a running header detected as a sub-heading), one mark will do.
    """
    parts = [p for p in (section or "").split(" > ") if p]
    if parts and _REFERENCE_HEADING.search(parts[-1]):
        return True
    venues, ends = len(_VENUE.findall(text)), len(_ENTRY_END.findall(text))
    if any(_REFERENCE_HEADING.search(p) for p in parts[:-1]):
        return venues + ends >= 1
    words = max(1, len(text.split()))
    return venues >= 1 and ends >= 2 and venues + ends >= 4 and (venues + ends) * 100 >= 3 * words
