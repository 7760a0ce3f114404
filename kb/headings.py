"""Headings, by numbering, size and weight. Only body pages give headings: an entry of a contents page is a
heading followed by its page number, and taking it for one would label every chunk after it."""

from __future__ import annotations

import re
from collections import Counter

from kb.parsed import Card, Line, Page
from kb.text import STOPWORDS

NUMBERED = re.compile(r"^(?:\d{1,2}(?:\.\d{1,2}){0,3}\.?|[A-Z](?:\.\d{1,2}){0,3}\.?|[IVX]{1,5}\.)\s+\S")
_NUMERIC = re.compile(r"^[(\-–—−+$€£¥]*\d[\d,.]*%?\)?$")
_YEAR = re.compile(r"^(?:19|20)\d\d$")
# A form's field caption: a short parenthesised line under the value it names ("(Exact name of ...)"), which is
# then no heading.
CAPTION = re.compile(r"^\([^()]{3,120}\)$")
# Type this much larger than the body text is a heading's (and a first-level one).
LARGER = 1.12
# The most words of a title's line that is not marked as a heading.
TITLE_WORDS = 8
# A page's title block: its first lines, where a statement's title and the company's name are set.
TITLE_BLOCK = 3
_WORDS = re.compile(r"\w+")
# The largest number a section of a document is numbered with.
MAX_SECTION_NUMBER = 40


def body_size(pages: list[Page]) -> float:
    """The font size most of the text is set in (by characters)."""
    sizes: Counter[float] = Counter()
    for page in pages:
        for ln in page.lines:
            if ln.kind == "text":
                sizes[ln.size] += len(ln.text)
    return (sizes.most_common(1)[0][0] or 1.0) if sizes else 1.0


def mark_headings(pages: list[Page], card: Card) -> None:
    """Flag heading lines on body pages and set their level. The title's lines, a form's cover, and on the first
    page type set larger than any heading of the other pages (a cover's display type) give no sections."""
    body = body_size(pages)
    found = [
        (page.number, ln)
        for page in pages
        if page.kind == "body"
        for ln, below in zip(page.lines, [*page.lines[1:], None])
        if _is_heading(ln, body) and not (below is not None and CAPTION.match(below.text) and _form(page))
    ]
    later = [ln.size for number, ln in found if number > 1]
    cover_limit = max(later) if later else float("inf")
    for number, ln in found:
        in_title = len(ln.text) >= 6 and ln.text in card.title
        if in_title or number == card.form_cover or (number == 1 and ln.size > cover_limit):
            continue
        numbered = _numbered(ln.text)
        ln.kind = "heading"
        ln.level = ln.text.split()[0].rstrip(".").count(".") + 1 if numbered else _level(ln, body)
    name = _WORDS.findall(card.organisation.casefold())
    if name:
        # the name as printed anywhere in a line: its words in order, whatever the punctuation and case between
        printed = re.compile(r"\b" + r"\W+".join(map(re.escape, name)) + r"\b", re.IGNORECASE)
        for page in pages:
            if page.number > 1 and page.kind == "body":
                _title_before_name(page, name, printed, body)
                _title_over_name(page, name)


def _level(ln: Line, body: float) -> int:
    return 1 if ln.size >= body * LARGER else 2


def _title_before_name(page: Page, name: list[str], printed: re.Pattern[str], body: float) -> None:
    """A line at a page's top that sets a title and the organisation's name side by side, in bold or larger type
    ("Consolidated Balance Sheets Acme Inc. and Subsidiaries", or the two in cells of one row): the title is a
    heading of its own, the name a line of text under it."""
    for i, ln in enumerate(page.lines[:TITLE_BLOCK]):
        if ln.kind == "heading" or not (ln.bold or ln.size >= body * LARGER):
            continue
        match = next((m for m in printed.finditer(ln.text) if m.start() > 0), None)
        if match is None or not _names_only(ln.text[match.start() :], name):
            continue
        title = ln.text[: match.start()].strip(" |")
        if not _title_text(title, name) or NUMBERED.match(title) or title.split()[-1].casefold() in STOPWORDS:
            continue  # "To the Board of Directors of Acme Inc.", "1.5 'Company' means Acme Inc.": a sentence's end
        rest = Line(ln.text[match.start() :], ln.x0, ln.top, ln.x1, ln.bottom, ln.size, ln.bold, glue=ln.glue)
        ln.text, ln.kind, ln.level, ln.glue = title, "heading", _level(ln, body), False
        page.lines.insert(i + 1, rest)
        return


def _title_over_name(page: Page, name: list[str]) -> None:
    """A page that opens with a title beside the organisation's name ("Consolidated Balance Sheets" over "Acme
    Inc. and Subsidiaries"), both set as headings or only the name: the title is the heading (at the name's level),
    the name is not. Otherwise every statement of the document would be labelled by the company's name."""
    top = page.lines[:TITLE_BLOCK]
    for i, ln in enumerate(top):
        if ln.kind != "heading" or not _names_only(ln.text, name):
            continue
        beside = [top[j] for j in (i - 1, i + 1) if 0 <= j < len(top)]
        title = next(
            (b for b in beside if b.kind == "heading" or (b.kind == "text" and _title_text(b.text, name))), None
        )
        if title is not None:
            if title.kind != "heading":
                title.kind, title.level = "heading", ln.level
            ln.kind, ln.level = "text", 0
        return


def _title_text(text: str, name: list[str]) -> bool:
    return bool(text) and title_shape(text) and not CAPTION.match(text) and not _names_only(text, name)


def _names_only(text: str, name: list[str]) -> bool:
    """The text is the organisation's name (its words, case folded), alone or with what it holds ("... and
    Subsidiaries")."""
    words = _WORDS.findall(text.casefold())
    return words[: len(name)] == name and (len(words) == len(name) or words[len(name)] == "and")


def _form(page: Page) -> bool:
    """A form's fields come several to a page, each with its caption; a lone parenthesised line under a title is
    a table's unit note ("(in millions)"), and the title stays a heading."""
    return sum(1 for ln in page.lines if CAPTION.match(ln.text)) >= 2


def _is_heading(ln: Line, body: float) -> bool:
    if ln.kind != "text" or not heading_shape(ln.text):
        return False
    return ln.size >= body * LARGER or (ln.bold and (_numbered(ln.text) or len(ln.text.split()) <= 6))


def _numbered(text: str) -> bool:
    """Numbered like a section ("3.1 Data"), not like an address ("83 Tower Road")."""
    match = NUMBERED.match(text)
    return bool(match) and (not text[:1].isdigit() or int(re.match(r"\d+", text).group()) <= MAX_SECTION_NUMBER)


def title_shape(text: str) -> bool:
    """Shaped like a heading and short enough for a title's line (a statement's or a section's name)."""
    return len(text.split()) <= TITLE_WORDS and heading_shape(text)


def heading_shape(text: str) -> bool:
    """Short, capitalised or numbered, not ending a sentence, and not a row of figures."""
    words = text.split()
    if not 1 <= len(words) <= 12 or text[-1] in ".,;":
        return False
    figures = sum(1 for w in words if _NUMERIC.match(w))
    return (
        len(text) <= 90
        and (text[0].isupper() or text[0].isdigit())
        and figures <= 1
        and sum(c.isalpha() for c in text) >= 4
        # a label followed by a figure is a table row or a contents entry (a year may close a heading)
        and not (_NUMERIC.match(words[-1]) and not _YEAR.match(words[-1]) and not NUMBERED.match(text))
    )
