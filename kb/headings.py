"""Headings, by numbering, size and weight. Only body pages give headings: an entry of a contents page is a
heading followed by its page number, and taking it for one would label every chunk after it."""

from __future__ import annotations

import re
from collections import Counter

from kb.parsed import Page

NUMBERED = re.compile(r"^(?:\d{1,2}(?:\.\d{1,2}){0,3}\.?|[A-Z](?:\.\d{1,2}){0,3}\.?|[IVX]{1,5}\.)\s+\S")
_NUMERIC = re.compile(r"^[(\-–—−+$€£¥]*\d[\d,.]*%?\)?$")
_YEAR = re.compile(r"^(?:19|20)\d\d$")


def body_size(pages: list[Page]) -> float:
    """The font size most of the text is set in (by characters)."""
    sizes: Counter[float] = Counter()
    for page in pages:
        for ln in page.lines:
            if ln.kind == "text":
                sizes[ln.size] += len(ln.text)
    return (sizes.most_common(1)[0][0] or 1.0) if sizes else 1.0


def mark_headings(pages: list[Page], title: str) -> None:
    """Flag heading lines on body pages and set their level."""
    body = body_size(pages)
    for page in pages:
        if page.kind != "body":
            continue
        for ln in page.lines:
            if ln.kind != "text" or ln.text == title or not heading_shape(ln.text):
                continue
            numbered = NUMBERED.match(ln.text)
            larger = ln.size >= body * 1.12
            if larger or (ln.bold and (numbered or len(ln.text.split()) <= 6)):
                ln.kind = "heading"
                ln.level = ln.text.split()[0].rstrip(".").count(".") + 1 if numbered else (1 if larger else 2)


def heading_shape(text: str) -> bool:
    """Short, capitalised or numbered, not ending a sentence, and not a row of figures."""
    words = text.split()
    figures = sum(1 for w in words if _NUMERIC.match(w))
    return (
        1 <= len(words) <= 12
        and len(text) <= 90
        and text[-1] not in ".,;"
        and any(c.isalpha() for c in text)
        and (text[0].isupper() or text[0].isdigit())
        and figures <= 1
        # a label followed by a figure is a table row or a contents entry (a year may close a heading)
        and not (_NUMERIC.match(words[-1]) and not _YEAR.match(words[-1]) and not NUMBERED.match(text))
    )
