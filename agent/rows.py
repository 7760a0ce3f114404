"""A table row in an answer: its cells ("label | 2019: 1,577"), the columns a question asks for, and whose entry it
is (a member of a family of names, or a named entry described in words). Generic to tables; no domain word."""

from __future__ import annotations

import re

from kb.periods import YEAR
from kb.text import is_identifier, tokenize, words

_CELL = re.compile(r"^(?P<head>[^:]{1,60}):\s+(?P<value>.+)$")  # "2019: 1,577"; "2.1:1" is a ratio, not a named cell


def header_row(row: str) -> bool:
    """A row whose cells after the first are all years: the table's column headers, no figure of its own."""
    cells = row_cells(row)
    return len(cells) >= 2 and all(YEAR.match(c.strip(".")) for c in cells[1:])


def row_cells(row: str) -> list[str]:
    """A table row's non-empty cells ("label | 2019: 1,577 | 2018: 1,373"), the label first."""
    return [c.strip() for c in row.split("|") if c.strip()]


def cell_parts(cell: str) -> tuple[str, str] | None:
    """(column header, value) of a cell written "header: value", or None."""
    match = _CELL.match(cell)
    return (match.group("head"), match.group("value").strip()) if match else None


def row_for_periods(row: str, years: list[str]) -> str:
    """A table row without its empty cells, cut to its label and the columns of the years asked for
    ("Capex | 2018: 1,577") when a column names one of them."""
    cells = row_cells(row)
    row = " | ".join(cells)
    if len(cells) < 3 or not years:
        return row
    keep = [c for c in cells[1:] if (parts := cell_parts(c)) and any(y in parts[0] for y in years)]
    return " | ".join([cells[0], *keep]) if keep else row


def row_for_columns(row: str, asked: set[str]) -> str:
    """A table row cut to the columns whose headers the question names ("What is the casing size of X?" keeps
    "X | casing: 1,568" of a row of four sizes), matched by `asked`, the question's word tokens; the row as it is
    when the question names none of its headers, or all of them. Words of the row's own label name no column."""
    cells = row_cells(row)
    if len(cells) < 3:
        return row
    wanted = asked - set(tokenize(cells[0]))
    keep = [c for c in cells[1:] if (parts := cell_parts(c)) and set(tokenize(parts[0])) & wanted]
    return " | ".join([cells[0], *keep]) if 0 < len(keep) < len(cells) - 1 else row


# Words after a hyphen that describe rather than number a member ("X-based", "X-like", "X-series"): generic English.
_DESCRIPTIVE = frozenset(
    {
        *("based", "like", "style", "series", "type", "family", "compatible", "enabled"),
        *("aware", "specific", "related", "driven", "only", "free", "level", "wide"),
    }
)


def label_words(row: str) -> list[str]:
    """The words of a table row's label as written (none for a row of empty cells)."""
    cells = row_cells(row)
    return words(cells[0]) if cells else []


def family(identifier: str) -> str:
    """The family an identifier names a member of: its text before the last hyphen ("ZX-9" of "ZX-9-512"), or "";
    none for a descriptive ending ("ZX-9-based" is no member of ZX-9)."""
    head, _, tail = identifier.rpartition("-")
    return head if head and tail and tail.lower() not in _DESCRIPTIVE else ""


def about_another_member(row: str, identifiers: list[str]) -> bool:
    """Whether a table row's label names another member of a family the question asks about ("ZX-9-512 | ..." when
    the question names "ZX-9-768"), and none the question names: a parameter table's other rows answer nothing."""
    named = {i.lower() for i in identifiers}
    families = {f for i in named if (f := family(i))}
    labels = {w.lower() for w in label_words(row) if is_identifier(w)}
    return bool(families) and not labels & named and any(family(w) in families for w in labels)


def names_entry(row: str, identifiers: list[str]) -> bool:
    """Whether a table row is a named entry's and says something of it in words ("FB_LATCH | AX_Latch | low tone
    then high tone | Modifier latched"): a cell names one of the identifiers (not as a column's head, "AX_Latch:
    60.0") and another holds words. Such a row states what the table says of the entry whatever is asked; a row
    of figures answers a figure asked for."""
    named = {i.lower() for i in identifiers}
    values = [cell.split(":", 1)[-1] for cell in row.split("|")]
    naming = [n for n, v in enumerate(values) if any(w.lower() in named for w in re.findall(r"[\w.+-]*\w", v))]
    worded = [n for n, v in enumerate(values) if len(re.findall(r"\b[^\W\d_]{2,}\b", v)) >= 2]
    return bool(naming) and any(n not in naming for n in worded)
