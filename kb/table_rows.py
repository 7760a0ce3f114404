"""Table rows as answers: a row whose label the question names, in a column the question names, is a place that
answers it, however few of the chunk's other words the question shares.

Tables are stored as rows that read on their own ("Label | 2019: 1,234 | 2018: 1,101", see kb.unruled_tables): the
label first, then each figure after its column's header. BM25 and the embedding read the whole chunk, where a row is
a few words among many; this ranking reads row by row.

A question naming a year ("FY2022") often asks what a table states for it without naming the table's rows in the
table's words (a judgment "based on FY2022 data", a ratio by another name); a second ranking counts the rows that
state a figure under a column headed by that year: a statement's page holds many, a page of prose none.
"""

from __future__ import annotations

import re
from typing import Any

from kb.text import tokenize

_MIN_LABEL_TERMS = 2  # a one-word label ("Total") matches too many questions to single a row out


def row_match(text: str, terms: set[str]) -> float:
    """How well the chunk's best table row answers a question with these terms: the share of the row label's terms
    the question holds (0 unless it holds at least two of them), plus one when a column it names holds a figure."""
    best = 0.0
    for line in text.split("\n"):
        cells = line.split(" | ")
        if len(cells) < 2:
            continue
        label = set(tokenize(cells[0]))
        shared = len(label & terms)
        if shared < min(_MIN_LABEL_TERMS, len(label)) or not label:
            continue
        columns = {t for cell in cells[1:] if ":" in cell for t in tokenize(cell.split(":", 1)[0])}
        best = max(best, shared / len(label) + (1.0 if columns & terms else 0.0))
    return best


def row_rank(records: list[dict[str, Any]], query: str, threshold: float) -> list[tuple[dict[str, Any], float]]:
    """The records holding a row that matches the query at least `threshold`, best first (ties in given order)."""
    terms = set(tokenize(query))
    scored = [(record, row_match(record["text"], terms)) for record in records]
    matched = [(record, score) for record, score in scored if score >= threshold]
    return sorted(matched, key=lambda item: -item[1])


def year_rows(text: str, years: list[str]) -> int:
    """How many of the chunk's table rows state a figure in a column whose header holds one of the years."""
    if not years or not any(year in text for year in years):
        return 0
    # The year standing on its own or glued to letters ("FY2020", "May 31, 2020"), not inside a longer number.
    header = re.compile(rf"(?<!\d)(?:{'|'.join(map(re.escape, years))})(?!\d)")
    count = 0
    for line in text.split("\n"):
        cells = line.split(" | ")
        if len(cells) < 2:
            continue
        parts = [cell.split(": ", 1) for cell in cells[1:] if ": " in cell]
        count += any(header.search(head) and any(c.isdigit() for c in value) for head, value in parts)
    return count


# A question asking why or who asks for reasons or names, which prose states, not a table's figures for the year it
# names ("As of FY2023Q1, why did X raise its guidance?"). Question words only, on purpose: as the question's own,
# opening it or a clause after a comma or "and" (not "customers who renewed", not an acronym in capitals).
_REASON_OR_NAME = re.compile(r"(?:^|[,;]\s*|\band\s+)(?:[Ww]hy|[Ww]ho|[Ww]hom)\b")


def asks_reason_or_name(need: str) -> bool:
    """The question asks why or who: the year it names is no call for table rows."""
    return bool(_REASON_OR_NAME.search(need))


def year_rank(records: list[dict[str, Any]], years: list[str], least: int) -> list[tuple[dict[str, Any], int]]:
    """The records with at least `least` rows stating a figure for a year named, most such rows first (ties in
    given order)."""
    scored = [(record, year_rows(record["text"], years)) for record in records] if years else []
    return sorted([(r, n) for r, n in scored if n >= least], key=lambda item: -item[1])
