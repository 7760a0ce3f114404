"""Contents, index and list-of-tables pages: lines that name a part of the document and its page. Their chunks stay
searchable, but they give no section labels, and evidence is never taken from them."""

from __future__ import annotations

import itertools
import re

from kb.furniture import ROMAN, set_apart
from kb.parsed import Page

# The end of an entry: dot leaders, a gap or a cell rule, then a page number (or, in an index, a list of them;
# front matter is numbered in lower-case Roman numerals).
_TAIL = re.compile(
    r"(?:(?P<leader>(?:[.·…_]\s*){2,})|\s+|\s*(?P<rule>\|)\s*)"
    rf"(?P<page>(?:[A-Z]-)?[0-9]{{1,4}}|{ROMAN})(?P<more>(?:\s*[,–-]\s*[0-9]{{1,4}})*)$"
)
# Without dot leaders or a cell rule, an entry's page number stands this many line heights from its words: prose
# that ends in a number ("the tide rose by 3") does not.
APART = 1.5
# Without dot leaders, a lead ending in a figure is a table row ("Inventories (509) (387) 57"), not an entry.
_FIGURE_END = re.compile(r"[\d)%]$")
# Titles of such pages: the words every such page is headed by, in English.
# An index's title may qualify it ("Concept Index", "Function and Data Index", "Index of Terms").
_TITLE = re.compile(
    r"^(?:table of contents|contents|(?:[\w,&-]+\s+){0,4}index(?:\s+of\s+[\w ]{1,30})?|"
    r"list of (?:tables|figures|illustrations|exhibits|schedules))$",
    re.I,
)
_ROMAN = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100, "d": 500, "m": 1000}
# A page of entries: at least this many, on this share of its lines, with page numbers mostly in order.
MIN_ENTRIES = 5
ENTRY_SHARE = 0.5
IN_ORDER = 0.7
# An index page without its title (a continuation) lists its entries in alphabetical order, each with dot leaders:
# at least this many, this share of them in order. A statement with leader dots lists its rows in no such order.
MIN_INDEX_ENTRIES = 8
ALPHABETICAL = 0.8


def mark_contents_pages(pages: list[Page]) -> int:
    """Set `kind = "contents"` on contents, index and list-of-tables pages; the number of such pages."""
    found = 0
    for page in pages:
        kept = [ln for ln in page.lines if ln.text.strip()]
        lines = [ln.text.strip() for ln in kept]
        if len(lines) < 3:
            continue
        numbers: list[int] = []
        lists = 0
        led: list[str] = []  # the words of the entries set with dot leaders
        for line, text in zip(kept, lines):
            match = _TAIL.search(text)
            if not match or not _plausible(match.group("page"), len(pages)):
                continue
            lead = text[: match.start()].rstrip()
            marked = match.group("leader") or match.group("rule") or match.group("more") or set_apart(line, APART)
            if any(c.isalpha() for c in lead) and marked and (match.group("leader") or not _FIGURE_END.search(lead)):
                numbers.append(_number(match.group("page")))
                lists += bool(match.group("more"))
                if match.group("leader"):
                    led.append(lead.casefold())
        entries = len(numbers)
        titled = any(_TITLE.match(text.rstrip(":")) for text in lines[:5])
        steps = [b >= a for a, b in itertools.pairwise(numbers)]
        in_order = sum(steps) / len(steps) if steps else 0.0
        contents = entries >= MIN_ENTRIES and entries >= ENTRY_SHARE * len(lines) and in_order >= IN_ORDER
        index = entries >= MIN_ENTRIES and entries >= 0.6 * len(lines) and lists >= 0.3 * entries
        sorted_steps = [b >= a for a, b in itertools.pairwise(led)]
        alphabetical = (
            len(led) >= MIN_INDEX_ENTRIES
            and len(led) >= ENTRY_SHARE * len(lines)
            and sum(sorted_steps) >= ALPHABETICAL * len(sorted_steps)
        )
        if contents or index or alphabetical or (titled and entries >= 3 and entries >= 0.3 * len(lines)):
            page.kind = "contents"
            found += 1
    return found


def _number(text: str) -> int:
    """A page number's value (roman numerals of front matter count before page 1)."""
    digits = text.rsplit("-", 1)[-1]
    if digits.isdigit():
        return int(digits)
    value = 0
    for a, b in zip(digits.lower(), [*digits.lower()[1:], ""]):
        v = _ROMAN[a]
        value += -v if b and _ROMAN[b] > v else v
    return value - 1000


def _plausible(text: str, pages: int) -> bool:
    digits = text.rsplit("-", 1)[-1]
    return not digits.isdigit() or int(digits) <= pages + 50
