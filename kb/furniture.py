"""Page furniture: lines that belong to the page rather than the text. Running headers and footers (the same line
at the same place on many pages: a document's name, a "Table of Contents" link, a date), page numbers, and the line
numbers printed in the margin of drafts. They are dropped before chunking, so they reach neither chunk text, nor
embeddings, nor BM25, and never glue themselves into a sentence that runs over a page break."""

from __future__ import annotations

import itertools
import math
import re
from collections import defaultdict

from kb.parsed import Line, Page

# Lines at the top and at the bottom of a page that may be a running header or footer.
EDGE_LINES = 3
# A line is running when it repeats at a page's edge on this share of the pages (and on at least MIN_REPEATS).
RUNNING_SHARE = 0.2
MIN_REPEATS = 3
# Or on at least STRETCH_REPEATS pages of a stretch it covers this densely (the footer of an appended exhibit).
STRETCH_REPEATS = 8
STRETCH_SHARE = 0.6
# ... at about the same height (within this share of the page height of where it usually is), or as the outermost
# line of the page (a footer that follows the text, wherever the text ends).
POSITION_SLACK = 0.03
# ... unless set this much larger than its other copies: the title on the cover that later pages repeat small.
LARGER = 1.2
# A chapter's running line (its title atop each of its pages) repeats on at least this many pages close together,
# within CHAPTER_GAP pages of each other (a full-page figure between).
CHAPTER_REPEATS = 3
CHAPTER_GAP = 2
# Margin line numbers: at least this many numbers in one column of a page, counting up.
MIN_LINE_NUMBERS = 5
# A page number within a header's line stands at least this many line heights from its words.
SET_APART = 3.0
# Integers counting up by one, this many in a row within a line of text, are numbering or ticks, not words.
MIN_RUN = 4

_DIGITS = re.compile(r"\d+")
# A Roman numeral as front matter is numbered (not any word of those letters: "mid", "civil").
ROMAN = r"(?=[ivxlcdm])m{0,3}(?:cm|cd|d?c{0,3})(?:xc|xl|l?x{0,3})(?:ix|iv|v?i{0,3})"
_PAGE_NUMBER = re.compile(
    rf"^(?:page\s*)?[-–—(]?\s*(?:(?:[A-Z]-?)?[0-9]{{1,4}}|{ROMAN})\s*[-–—)]?(?:\s*(?:of|/)\s*[0-9]{{1,4}})?$",
    re.IGNORECASE,
)
_INTEGER = re.compile(r"^[0-9]{1,5}$")  # ASCII digits: other scripts' digits are text here
_NUMBER = re.compile(r"^-?[0-9]{1,6}(?:\.[0-9]{1,6})?$")


def remove_furniture(pages: list[Page]) -> tuple[int, list[str]]:
    """Drop running headers and footers, page numbers and margin line numbers. Returns the number of lines dropped,
    and the running lines of words, most repeated first (a document's name is often one)."""
    dropped, running = _running_lines(pages)
    dropped += sum(_margin_numbers(page) + _counting_runs(page) for page in pages)
    return dropped, running


def _key(text: str) -> str:
    return " ".join(_DIGITS.sub("#", text.casefold()).split())


def _edges(page: Page) -> list[tuple[int, str, bool]]:
    """(index, "top"/"bottom", outermost) of the lines at the page's top and bottom edges; the outermost two at each
    edge are where a page number may be."""
    order = sorted(range(len(page.lines)), key=lambda i: page.lines[i].top)
    top, bottom = order[:EDGE_LINES], order[-EDGE_LINES:]  # a short page's lines are at both edges
    return [(i, "top", n < 2) for n, i in enumerate(top)] + [
        (i, "bottom", n >= len(bottom) - 2) for n, i in enumerate(bottom)
    ]


def _running_lines(pages: list[Page]) -> tuple[int, list[str]]:
    if len(pages) < MIN_REPEATS:
        return 0, []
    # (text key, edge) -> (page, line, relative height, outermost at that edge)
    seen: dict[tuple[str, str], list[tuple[int, int, float, bool]]] = defaultdict(list)
    numbers: dict[str, list[tuple[int, int]]] = defaultdict(list)  # page numbers at an edge, by edge
    # Edge lines of words that open or close with a number, by edge and that number less the page's index: a
    # header that carries the page number ("Chapter 2: Parsing 7") keeps one offset over the pages it is on,
    # whatever its words (each chapter names itself).
    numbered: dict[tuple[str, int], list[tuple[int, int]]] = defaultdict(list)
    for p, page in enumerate(pages):
        edges = _edges(page)
        for i, edge, outermost in edges:
            line = page.lines[i]
            if line.kind == "table" and len(line.text) > 40:
                continue  # a table's rows are content even when a long table repeats its header on each page
            extreme = i == (edges[0][0] if edge == "top" else edges[-1][0])  # the page's first or last line
            seen[(_key(line.text), edge)].append((p, i, line.top / page.height, extreme))
            if outermost and _PAGE_NUMBER.match(line.text.strip()):
                numbers[edge].append((p, i))
            elif extreme and (printed := _printed_number(line)) is not None:  # not a heading below it
                numbered[(edge, printed - p)].append((p, i))
    needed = max(MIN_REPEATS, math.ceil(RUNNING_SHARE * len(pages)))
    doomed: set[tuple[int, int]] = set()
    running: list[tuple[int, str]] = []
    for places in seen.values():
        on = sorted({p for p, *_ in places})
        stretch = len(on) >= STRETCH_REPEATS and len(on) >= STRETCH_SHARE * (on[-1] - on[0] + 1)
        if len(on) < needed and not stretch:
            continue
        p, i, *_ = places[0]
        if "#" not in _key(pages[p].lines[i].text):
            running.append((len(places), pages[p].lines[i].text))
        ys = sorted(y for _, _, y, _ in places)
        usual = ys[len(ys) // 2]
        sizes = sorted(pages[p].lines[i].size for p, i, *_ in places)
        typical = sizes[len(sizes) // 2]
        doomed |= {
            (p, i)
            for p, i, y, extreme in places
            if (abs(y - usual) <= POSITION_SLACK or extreme) and pages[p].lines[i].size <= LARGER * typical
        }
    doomed |= _chapter_lines(pages, seen)
    for places in [*numbers.values(), *numbered.values()]:
        # Page numbers sit at a page's edge but not always at the same height (after the last line of text).
        if len({p for p, _ in places}) >= needed:
            doomed |= set(places)
    by_page: dict[int, set[int]] = defaultdict(set)
    for p, i in doomed:
        by_page[p].add(i)
    for p, gone in by_page.items():
        pages[p].lines = [ln for i, ln in enumerate(pages[p].lines) if i not in gone]
    return len(doomed), list(dict.fromkeys(text for _, text in sorted(running, key=lambda r: -r[0])))


# A heading's number: "2.", "2.3", "Chapter 2", "Appendix B"; a year is none.
_HEADING_NUMBER = re.compile(
    r"^\s*(?:(?:chapter|appendix|part|section)\s+(?:\d{1,2}|[A-Z])\b|\d{1,2}(?:\.\d{1,2})*)\.?\s+(?=\D)", re.I
)


def _chapter_lines(
    pages: list[Page], seen: dict[tuple[str, str], list[tuple[int, int, float, bool]]]
) -> set[tuple[int, int]]:
    """The running lines of a chapter: its title as the first (or last) line of each of its pages, at one height,
    on too few pages to run through the document ("Using the winch" atop chapter 2's four pages of a 40-page
    manual). Only a title the document numbers as a heading elsewhere, set larger ("2. Using the winch"), counts:
    a table's column heads or a statement's title atop a few pages are content, and a footer carrying the page
    number ("12 Heron, Inc.") is no heading."""
    headings: dict[str, float] = {}  # a numbered line's words: its largest size
    for page in pages:
        for line in page.lines:
            if _HEADING_NUMBER.match(line.text):
                words = _HEADING_NUMBER.sub("", line.text).casefold().strip()
                headings[words] = max(headings.get(words, 0.0), line.size)
    found: set[tuple[int, int]] = set()
    for places in seen.values():
        outer = [(p, i, y) for p, i, y, extreme in places if extreme]
        titled = [(p, i, y) for p, i, y in outer if pages[p].lines[i].text.casefold().strip() in headings]
        run: list[tuple[int, int, float]] = []
        for place in [*sorted(titled), None]:
            if place and run and place[0] - run[-1][0] <= CHAPTER_GAP and abs(place[2] - run[0][2]) <= POSITION_SLACK:
                run.append(place)
                continue
            if len(run) >= CHAPTER_REPEATS:
                sizes = sorted(pages[p].lines[i].size for p, i, _ in run)
                typical = sizes[len(sizes) // 2]
                heading = headings[pages[run[0][0]].lines[run[0][1]].text.casefold().strip()]
                if heading > typical:
                    found |= {(p, i) for p, i, _ in run if pages[p].lines[i].size <= LARGER * typical}
            run = [place] if place else []
    return found


def set_apart(line: Line, times: float, first: bool = False) -> bool:
    """The line's last word (or its first) stands at least `times` line heights from the word beside it, as a page
    number in its own column does."""
    words = line.words or []
    if len(words) < 2:
        return False
    gap = words[1][0] - words[0][2] if first else words[-1][0] - words[-2][2]
    return gap >= times * max(1.0, line.bottom - line.top)


def _printed_number(line: Line) -> int | None:
    """The number a line of words opens or closes with, set apart from its words as a page number is ("Chapter 2:
    Parsing        7"); a numbered heading ("2 Method") or a "Step 3" has its number beside its words."""
    words = line.words or []
    if len(words) < 2 or not any(c.isalpha() for c in line.text):
        return None
    if _INTEGER.match(words[-1][4]) and set_apart(line, SET_APART):
        return int(words[-1][4])
    if _INTEGER.match(words[0][4]) and set_apart(line, SET_APART, first=True):
        return int(words[0][4])
    return None


def _margin_numbers(page: Page) -> int:
    """Drop the line numbers printed in a margin: a column of integers counting up, beside the text."""
    found: list[tuple[int, int, float, float, float]] = []  # (line, word, value, x centre, top)
    for i, line in enumerate(page.lines):
        words = line.words or []
        for w in sorted({0, len(words) - 1}) if words else ():
            x0, top, x1, _, text = words[w]
            if _INTEGER.match(text):
                found.append((i, w, float(text), (x0 + x1) / 2, top))
    if len(found) < MIN_LINE_NUMBERS:
        return 0
    # The text's left and right edges, from lines of prose (their own numbers left out).
    prose = [[w for w in ln.words or [] if not _INTEGER.match(w[4])] for ln in page.lines if len(ln.text.split()) >= 5]
    prose = [words for words in prose if words]
    if not prose:
        return 0
    left = sorted(words[0][0] for words in prose)[len(prose) // 10]
    right = sorted(words[-1][2] for words in prose)[-1 - len(prose) // 10]
    columns: dict[int, list[tuple[int, int, float, float, float]]] = defaultdict(list)
    for item in found:
        columns[round(item[3] / 12)].append(item)
    doomed: dict[int, set[int]] = defaultdict(set)
    for items in columns.values():
        if len(items) < MIN_LINE_NUMBERS:
            continue
        items.sort(key=lambda it: it[4])
        steps = [b[2] - a[2] for a, b in itertools.pairwise(items)]
        counting = sum(1 for s in steps if 0 < s <= 3) >= 0.8 * len(steps)
        beside = all(it[3] < left or it[3] > right for it in items)
        if counting and beside:
            for i, w, *_ in items:
                doomed[i].add(w)
    dropped = 0
    for i in sorted(doomed, reverse=True):
        line = page.lines[i]
        words = [w for k, w in enumerate(line.words or []) if k not in doomed[i]]
        dropped += 1
        if not words:
            del page.lines[i]
        else:
            _set_words(line, words)
    return dropped


def _counting_runs(page: Page) -> int:
    """Drop numbers that count at an even step, four or more in a row with nothing between them, within a line of
    text or as lines of their own: line numbers the margin rule missed, or a figure's axis ticks ("100 101 102 103"
    for exponents set as superscripts, "0.2 0.4 0.6 0.8", "4 8 16 32"). A run of years is a table's column heads
    and stays."""
    dropped = 0
    for line in page.lines:
        words = line.words or []
        if line.kind == "text" and sum(bool(_NUMBER.match(w[4])) for w in words) >= MIN_RUN:
            doomed = _runs([float(w[4]) if _NUMBER.match(w[4]) else None for w in words])
            if doomed:
                dropped += 1
                _set_words(line, [w for k, w in enumerate(words) if k not in doomed])
    alone = _runs([float(ln.text) if ln.kind == "text" and _NUMBER.match(ln.text) else None for ln in page.lines])
    if alone:
        page.lines = [ln for k, ln in enumerate(page.lines) if k not in alone]
    page.lines = [ln for ln in page.lines if ln.text]
    return dropped + len(alone)


def _runs(values: list[float | None]) -> set[int]:
    """Positions of the runs of numbers at an even step (a constant difference or ratio), at least MIN_RUN long
    and not all years."""
    doomed: set[int] = set()
    start = 0
    while start < len(values):
        end = start + 1
        while end < len(values) and values[end] is not None and _steady(values[start : end + 1]):
            end += 1
        run = values[start:end]
        if len(run) >= MIN_RUN and None not in run and not all(v == int(v) and 1900 <= v <= 2100 for v in run):
            doomed |= set(range(start, end))
            start = end
        else:
            start += 1
    return doomed


def _steady(run: list[float | None]) -> bool:
    """The numbers step evenly: the same difference each time, or the same ratio (a logarithmic axis)."""
    if None in run:
        return False
    values: list[float] = run  # type: ignore[assignment]
    if len(values) < 2:
        return True
    steps = [b - a for a, b in itertools.pairwise(values)]
    if steps[0] != 0 and all(math.isclose(s, steps[0], rel_tol=1e-6, abs_tol=1e-9) for s in steps):
        return True
    if min(values) <= 0:
        return False
    ratios = [b / a for a, b in itertools.pairwise(values)]
    return ratios[0] != 1 and all(math.isclose(r, ratios[0], rel_tol=1e-6) for r in ratios)


def _set_words(line: Line, words: list[tuple[float, float, float, float, str]]) -> None:
    line.words = words
    if not words:
        line.text = ""
        return
    line.text = " ".join(w[4] for w in words)
    line.x0, line.top = min(w[0] for w in words), min(w[1] for w in words)
    line.x1, line.bottom = max(w[2] for w in words), max(w[3] for w in words)
