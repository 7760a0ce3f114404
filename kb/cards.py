"""The document card: a title that tells the document apart, the organisation, the date or period the document
covers, and the file name as a person named it, all read from the first pages.

The title is the cover's most prominent block of words when it is a title: a paper's, a report's, a release's. A
form's cover has none: its largest lines are labels of the form ("FORM 20-R", the receiving authority) beside the
filer's name. Such a document is told apart by who filed it, what it is and the period it covers, and its title says
exactly that: "QUILL & LEDGER, INC., FORM 20-R, fiscal year ended December 31, 2024".
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

from kb.headings import CAPTION, NUMBERED, body_size
from kb.parsed import Card, Line, Page

# Lines this much larger than the body text are prominent.
PROMINENT = 1.15
# Among prominent blocks at least this share of the largest one's size, the topmost is the title (a figure's axis
# label on the cover can be set larger than the title above it).
NEAR_LARGEST = 0.85
# A name of at most this many words set far larger than anything else on the cover is the document's own, and the
# line under it (within this many times the name's size) says what it is.
SHORT_NAME_WORDS = 2
SUBTITLE_GAP = 3.0
# Pages read for the card.
CARD_PAGES = 2
# A block of body-size text of at least this many words is running text: a cover's title stands above it, and a
# document that opens with it has no cover (a manual page, a memo), so no larger line further down is its title.
BODY_RUN_WORDS = 30

# Legal forms that end a company's name, and nouns that name a public body: small lists of generic English forms,
# needed because nothing else on a cover says "this line is the organisation".
# (Short forms only as printed: "se", "ag" and "co" end many a line of running text.)
_LEGAL_FORM = re.compile(
    r"(?:^|[\s,])(?:(?i:inc|incorporated|corp|corporation|company|limited|ltd|llc|l\.l\.c|holdings)|"
    r"Co|CO|AG|SE|S\.A|SA|N\.V|NV|GmbH|plc|PLC|LP|L\.P|Group|GROUP)\.?$"
)
_PUBLIC_BODY = re.compile(
    r"\b(?:institute|university|agency|administration|department|organi[sz]ation|association|commission|council|"
    r"foundation|laborator(?:y|ies)|bureau|ministry|office|society|consortium|committee|board|authority|academy)\b",
    re.IGNORECASE,
)
# A document's number or kind written with digits and letters: "20-R", "123-45B", "XY123-4A".
_IDENTIFIER = re.compile(r"\b(?=[\w-]*\d)(?=[\w-]*[A-Za-z])[A-Za-z]*\d+[-‐]?[A-Za-z0-9-]*\b")
_MONTH = (
    r"(?:January|February|March|April|May|June|July|August|September|October|November|December|"
    r"Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept?|Oct|Nov|Dec)\.?"
)
_DATE = (
    rf"(?:{_MONTH}\s+\d{{1,2}},?\s+\d{{4}}|\d{{1,2}}\s+{_MONTH}\s+\d{{4}}|\d{{4}}-\d{{2}}-\d{{2}}|{_MONTH}\s+\d{{4}})"
)
# The period a document covers, as English states it: a period's noun with at most one word qualifying it, "ended",
# a date ("year ended June 30, 2024", "quarterly period ended ...", "twelve months ended ...").
_PERIOD = re.compile(
    rf"\b((?:[\w-]+[ \t]+)?(?:year|quarter|half|period|months|weeks)\s+ended\s+{_DATE})",
    re.IGNORECASE,
)
_LEADING = re.compile(r"^(?:(?:for|the|in|during|of|and)\s+)+", re.IGNORECASE)  # "For the fiscal year ended ..."
_ANY_DATE = re.compile(rf"\b{_DATE}\b", re.IGNORECASE)
_YEAR = re.compile(r"\b(?:19|20)\d\d\b")
# A copyright notice before the holder's name: "Copyright (c) 2001-2022", "© 2024".
_COPYRIGHT = re.compile(
    r"^(?:copyright\b\s*)?(?:©|\(c\)|c\b)?\s*(?:(?:19|20)\d\d(?:\s*[-–]\s*(?:19|20)\d\d)?,?\s*)+", re.IGNORECASE
)


# A form's field caption: a short parenthesised line under the value it names ("(Exact name of registrant ...)").
_CHECKBOX = re.compile(r"[☐☑☒■□]|\[[ xX]\]")  # a form's check boxes
_NAME_WORD = re.compile(r"\bname\b", re.IGNORECASE)
_NOT_ORGANISATION = re.compile(r"\d|_{3,}")
_FILLER = re.compile(r"_{2,}|-{3,}|—{2,}|\.{4,}")
# Words a name leaves in lower case ("Institute of Coastal Studies"), in the languages of most covers.
_MINOR_WORDS = frozenset(("of", "for", "on", "and", "the", "&", "de", "du", "der", "für"))


@dataclass(slots=True)
class _Block:
    text: str
    size: float
    top: float
    words: int
    first: str  # its first row


def read_card(pages: list[Page], doc_id: str, running: list[str] | None = None) -> Card:
    """The card of a parsed document (page furniture already dropped); `running`: its running headers and footers,
    most repeated first (a document without a cover title is often named in one)."""
    cover = next((p for p in pages if any(ln.kind == "text" for ln in p.lines)), pages[0] if pages else None)
    first = [row for page in pages[:CARD_PAGES] for row in _rows(page.lines)]
    cover_rows = _rows(cover.lines) if cover else []
    body = body_size(pages)
    cover_blocks = _blocks(cover_rows)
    # Running text is set at the body size (within half a point: sizes of one font differ by rounding).
    running_text = [b.top for b in cover_blocks if abs(b.size - body) < 0.5 and b.words >= BODY_RUN_WORDS]
    text_top = min(running_text, default=None)
    prominent = [b for b in cover_blocks if b.size >= body * PROMINENT]
    # Without a prominent line of words above the running text (a one-word heading, "NAME", is a section's), the
    # document has no cover: its larger lines further down are headings or displayed code, and name no document.
    coverless = text_top is not None and not any(b.top < text_top and _words(b.text) >= 2 for b in prominent)
    form = sum(bool(CAPTION.match(row.text)) for row in cover_rows) >= 2 or (
        len(_CHECKBOX.findall(" ".join(r.text for r in cover_rows))) >= 2
    )
    organisation = _organisation(first, form)
    period = _period(first)
    identifier = next(
        (r.text for r in cover_rows if r.size >= body * PROMINENT and _short_identifier(r.text)), ""
    ) or next(
        (r.text for r in first if len(r.text.split()) <= 4 and _IDENTIFIER.search(r.text) and r.text[0].isupper()),
        "",
    )
    name = " ".join(doc_id.replace("_", " ").split())
    named = next((text for text in running or [] if _words(text) >= 3 and not _names_organisation(text)), "")
    # A short name set far larger than anything else is a cover's title even above running text; a numbered
    # heading ("1. Preface") is a section's.
    lone_name = "" if form else _name_and_subtitle(cover_blocks)
    if coverless and not form and (not lone_name or NUMBERED.match(lone_name)):
        title = named or name
    else:
        title = (
            lone_name or _title([] if form else prominent, organisation, identifier, period, prominent, named) or name
        )
    return Card(
        title=title,
        organisation=organisation,
        period=period,
        name=name,
        form_cover=cover.number if form and cover else 0,
    )


def _title(
    candidates: list[_Block], organisation: str, identifier: str, period: str, prominent: list[_Block], running: str
) -> str:
    """The cover's title block (with the document's identifier when the cover prints it apart); for a form, who
    issued it, what it is and the period it covers; else the document's name in its running header."""
    titles = [b for b in candidates if _words(b.text) >= 3 and not _names_organisation(b.text)]
    if titles:
        largest = max(b.size for b in titles)
        main = min((b for b in titles if b.size >= NEAR_LARGEST * largest), key=lambda b: b.top)
        # a standard's number printed above its title belongs to it; a figure's label below it does not
        named = (
            identifier
            and identifier not in main.text
            and any(identifier == b.text and b.top < main.top for b in prominent)
        )
        return f"{main.text} ({identifier})" if named else main.text
    if running and not (organisation and identifier):
        return running
    parts = [organisation, identifier if identifier != organisation else "", period]
    if not organisation and prominent:
        parts[0] = max(prominent, key=lambda b: (b.size, -b.top)).text
    return ", ".join(p for p in parts if p)


def _name_and_subtitle(blocks: list[_Block]) -> str:
    """A cover set around a short name far larger than anything else on it ("Quillpen" over "A library for ...",
    then its authors): the name with the first line under it, "Quillpen: A library for ...". The name alone
    does not tell the document apart, and the prominent lines further down are often its authors."""
    if not blocks:
        return ""
    name = max(blocks, key=lambda b: b.size)
    short = _words(name.text) >= 1 and name.words <= SHORT_NAME_WORDS
    if not short or _names_organisation(name.text):
        return ""
    if any(b.size >= NEAR_LARGEST * name.size for b in blocks if b is not name):
        return ""
    below = min((b for b in blocks if b.top > name.top), key=lambda b: b.top, default=None)
    if below is None or below.top - name.top > SUBTITLE_GAP * name.size or _words(below.first) < 3:
        return ""
    if _names_organisation(below.first):
        return ""
    return f"{name.text.rstrip(' :')}: {below.first}"


def _short_identifier(text: str) -> bool:
    """A short line naming the document by a number ("FORM 20-R", "Publication 123-45B")."""
    return len(text.split()) <= 6 and bool(_IDENTIFIER.search(text)) and text[:1].isupper()


def _words(text: str) -> int:
    """Words of letters (an address's postal code or a file number does not count)."""
    return sum(1 for w in text.split() if sum(c.isalpha() for c in w) >= 2)


def _rows(lines: list[Line]) -> list[Line]:
    """The lines top to bottom, with the words of one line that a PDF set as separate lines joined, and without
    tables and rotated text (a margin stamp)."""
    rows: list[Line] = []
    for ln in sorted(lines, key=lambda ln: (round(ln.top), ln.x0)):
        if ln.kind == "table" or (ln.bottom - ln.top > 2 * max(1.0, ln.x1 - ln.x0) and len(ln.text) > 3):
            continue
        text = " ".join(_FILLER.sub(" ", ln.text).split())  # a form's blanks and rules
        if not text:
            continue
        if text != ln.text:
            ln = Line(text, ln.x0, ln.top, ln.x1, ln.bottom, ln.size, ln.bold)
        last = rows[-1] if rows else None
        if last is not None and abs(last.top - ln.top) < 2 and abs(last.size - ln.size) < 0.5 and ln.x0 >= last.x1:
            rows[-1] = Line(f"{last.text} {ln.text}", last.x0, last.top, ln.x1, max(last.bottom, ln.bottom), last.size)
        else:
            rows.append(ln)
    return rows


def _blocks(rows: list[Line]) -> list[_Block]:
    """Runs of rows of one size set close together (a title on two lines is one block), top to bottom."""
    blocks: list[_Block] = []
    previous: Line | None = None
    for row in rows:
        if len(row.text) < 2:
            continue
        joins = (
            previous is not None
            and blocks
            and abs(previous.size - row.size) < 0.5
            and row.top - previous.bottom < row.bottom - row.top
        )
        if joins:
            last = blocks[-1]
            last.text, last.words = f"{last.text} {row.text}"[:200], last.words + len(row.text.split())
        else:
            blocks.append(_Block(row.text[:200], row.size, row.top, len(row.text.split()), row.text[:200]))
        previous = row
    return blocks


def _names_organisation(text: str) -> bool:
    return bool(_LEGAL_FORM.search(text.rstrip(" ,."))) or bool(_public_body(text))


def _public_body(text: str) -> str:
    """A public body named in the text ("University of Somewhere", "Registry of Filings Commission"): a
    clause of at most eight words whose body noun ends it or is followed by "of", "for" or "on"."""
    for clause in re.split(r"[;:()]|\.\s|,\s", text):
        words = clause.split()
        match = _PUBLIC_BODY.search(clause)
        if not match or not 1 <= len(words) <= 8 or _NOT_ORGANISATION.search(clause):
            continue
        after = clause[match.end() :].split()
        named = [w for w in words if w.lower() not in _MINOR_WORDS]
        capitalised = sum(1 for w in named if w[:1].isupper()) >= 0.75 * len(named)  # a name, not a sentence
        if (not after or after[0].lower() in ("of", "for", "on")) and capitalised:
            return " ".join(words)
    return ""


def _organisation(rows: list[Line], form: bool) -> str:
    """The organisation the document is by: on a form, the value above the caption that asks for a name; else the
    most prominent company (a legal form), else the most prominent public body (on a cover, a company is more often
    the author and a public body the addressee)."""
    if form:
        for above, row in itertools.pairwise(rows):
            if CAPTION.match(row.text) and _NAME_WORD.search(row.text) and 1 <= len(above.text.split()) <= 10:
                return above.text.rstrip(" ,")
    companies = [
        r
        for r in rows
        if 1 <= len(r.text.split()) <= 8 and r.text[:1].isalnum() and _LEGAL_FORM.search(r.text.rstrip(" ,."))
    ]
    if companies:
        return _COPYRIGHT.sub("", max(companies, key=lambda r: r.size).text).rstrip(" ,")
    bodies = [(r.size, -i, name) for i, r in enumerate(rows) if (name := _public_body(r.text))]
    return max(bodies)[2] if bodies else ""


def _period(rows: list[Line]) -> str:
    """The period the document covers ("fiscal year ended December 31, 2018"), else the first full date. Of several
    periods (a report compares its period with earlier ones, in either order), the one ending latest."""
    text = "\n".join(r.text for r in rows)
    periods = [" ".join(m.group(1).split()) for m in _PERIOD.finditer(text)]
    if periods:
        latest = max(periods, key=lambda p: (_ending(p), -periods.index(p)))
        return _LEADING.sub("", latest)
    match = _ANY_DATE.search(text)
    return " ".join(match.group(0).split()) if match else ""


_MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]


def _ending(period: str) -> tuple[int, int, int]:
    """The date a period ends on, as (year, month, day); 0 for a part it does not state."""
    year = max(map(int, _YEAR.findall(period)), default=0)
    words = period.lower().split()
    month = next((_MONTHS.index(w[:3]) + 1 for w in reversed(words) if w[:3] in _MONTHS and w[:1].isalpha()), 0)
    iso = re.search(r"\d{4}-(\d{2})-(\d{2})", period)
    if iso:
        return year, int(iso.group(1)), int(iso.group(2))
    day = re.search(r"\b(\d{1,2})\b", period)
    return year, month, int(day.group(1)) if day else 0


def distinct_title(card: Card, taken: set[str]) -> str:
    """The card's title, or, when another document of the store already has it (case aside), the title with the
    period the document covers, else with its file name: two documents never share a title."""
    title = card.title or card.name
    candidates = [title]
    if card.period and card.period.casefold() not in title.casefold():
        candidates.append(f"{title} ({card.period})")
    candidates.append(f"{title} ({card.name})")
    return next((c for c in candidates if c.casefold() not in taken), candidates[-1])
