"""The head of each table: the lines above its first row of figures that say what its rows are (a statement's
title, its units, its column headers). A chunk that opens in the middle of a table carries its table's head, so a
row read on its own still says "(Dollars in millions)" and which statement it belongs to.

Tables are stored as rows ("Label | 2019: 1,234 | 2018: 1,101", see kb.unruled_tables); a head is found from the
rows' shapes alone: the run's leading rows without a figure, and the short lines just above the run.
"""

from __future__ import annotations

import re

from kb.parsed import Line, Page
from kb.periods import YEAR
from kb.unruled_tables import is_figure

_PREAMBLE_LINES = 4  # title, subtitle, a date line, units: a longer run of lines above a table is prose
_PROSE_WORDS = 24  # a line longer than this above a table is prose, not a title, a units line or column names
_PROSE_MIN_WORDS = 5  # a line of more words than this, most of them lower-case, is prose ("Title Case" is not)
_RUN_HEAD_LINES = 5  # column headers over two or three lines, then group labels ("Assets", "Current assets")
_HEAD_CHARS = 400  # the head a chunk carries: the lines nearest the table within this many characters

_BRACKETED = re.compile(r"\([^()]*\)")
_ABBREVIATION_END = re.compile(r"\b[A-Z][A-Za-z]{0,4}\.$")  # "Oper.", "INC.", "No.": a title or column may end so


def is_figure_row(text: str) -> bool:
    """A table row holding a figure in a cell after its label (a row of the table's body, not of its head). A
    figure is what the unruled reader takes for one; a year alone is a column header ("2018"), not a figure."""
    cells = text.split(" | ")
    for cell in cells[1:]:
        value = cell.rsplit(": ", 1)[-1].strip()
        if is_figure(value) and not (value == cell.strip() and YEAR.match(value)):
            return True
    return False


def _is_header_row(text: str) -> bool:
    """A row of column names: several cells, no figure, and no cell labelled by a column ("2019: 1,234")."""
    cells = text.split(" | ")
    return len(cells) > 1 and not is_figure_row(text) and not any(": " in cell for cell in cells)


def _is_prose(text: str) -> bool:
    """A long line, one that goes on or ends a sentence (it starts in lower case, or ends in a full stop not of an
    abbreviation: the tail of a caption above is no title), or one whose words are mostly lower-case outside
    brackets (a units note such as "(Dollars in millions, except per share amounts)" is bracketed; column names
    and titles are capitalised)."""
    if text[:1].islower() or (text.endswith(".") and not _ABBREVIATION_END.search(text)):
        return True
    words = [w for w in _BRACKETED.sub(" ", text).split() if w[:1].isalpha()]
    lower = sum(w[0].islower() for w in words)
    return len(text.split()) > _PROSE_WORDS or (len(words) > _PROSE_MIN_WORDS and 2 * lower > len(words))


def _preamble(lines: list[Line], start: int) -> list[Line]:
    """The title-like lines just above a table that starts at `start` (not prose, not another table), nearest
    last."""
    out: list[Line] = []
    for ln in reversed(lines[max(0, start - _PREAMBLE_LINES) : start]):
        if ln.kind == "table" or _is_prose(ln.text):
            break
        out.append(ln)
    return out[::-1]


def _tables(run: list[Line]) -> list[list[Line]]:
    """A run of table rows cut into tables: a header row after rows of figures starts the next table, with the
    rows without figures just above it (its title)."""
    tables: list[list[Line]] = [[]]
    last_figure = -1  # index in the current table of its last row of figures
    for ln in run:
        current = tables[-1]
        if last_figure >= 0 and _is_header_row(ln.text):
            tables[-1], moved = current[: last_figure + 1], current[last_figure + 1 :]
            tables.append(moved)
            current, last_figure = tables[-1], -1
        if is_figure_row(ln.text):
            last_figure = len(current)
        current.append(ln)
    return tables


def _run_head(run: list[Line]) -> list[Line]:
    """The run's leading rows before its first row of figures; group labels after the last header row are left
    out (they head only the rows just below them). A run without figures near its top (a table of words) is headed
    by its first row when that row has cells."""
    head: list[Line] = []
    for ln in run[:_RUN_HEAD_LINES]:
        if is_figure_row(ln.text):
            break
        head.append(ln)
    else:
        head = run[:1]
    while head and " | " not in head[-1].text:
        head.pop()
    return head


def table_heads(pages: list[Page]) -> dict[int, list[Line]]:
    """For every table line (by id), the head of its table: the lines above the run that title it, then the run's
    header rows. A page that opens with rows of figures goes on with the table that ended the page before, and
    keeps its head."""
    heads: dict[int, list[Line]] = {}
    carried: list[Line] = []
    for page in pages:
        lines = page.lines
        start = 0
        while start < len(lines):
            if lines[start].kind != "table":
                start += 1
                continue
            end = start
            while end < len(lines) and lines[end].kind == "table":
                end += 1
            for n, table in enumerate(_tables(lines[start:end])):
                head = (_preamble(lines, start) if n == 0 else []) + _run_head(table)
                if start == 0 and n == 0 and not head and is_figure_row(table[0].text):
                    head = carried
                for ln in table:
                    heads[id(ln)] = head
            start = end
        ends_in_table = bool(lines) and lines[-1].kind == "table"
        carried = heads[id(lines[-1])] if ends_in_table else []
    return heads


def head_text(head: list[Line], skip: set[int]) -> str:
    """The head as a chunk carries it: the lines not already in the chunk (`skip`, by id), nearest the table kept
    within the character budget."""
    kept: list[str] = []
    size = 0
    for ln in reversed([ln for ln in head if id(ln) not in skip]):
        size += len(ln.text) + 1
        if size > _HEAD_CHARS:
            break
        kept.append(ln.text)
    return "\n".join(kept[::-1])
