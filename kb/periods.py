"""Periods as questions, file names and tables write them: a year, a fiscal year, a quarter or half ("2023",
"FY23", "FY 2023", "FY2023Q1"), the years a text names and the years of a range it writes ("FY2016 to FY2018")."""

from __future__ import annotations

import re

from kb.text import words

YEAR = re.compile(r"^(?:19|20)\d\d$")  # a four-digit year on its own


# A period as questions and file names write it: a year, a fiscal year, a quarter or half, alone or joined
# ("2023", "FY23", "FY2023Q1", "2023Q2", "Q2", "H1"). Calendar notation, not vocabulary.
# A bare number is a year only when it has four digits (19xx, 20xx); two digits only after "FY" ("FY19").
_PERIOD = re.compile(
    r"^(?:fy['’]?(?P<fy>(?:19|20)\d\d|\d{2})?|(?P<year>(?:19|20)\d\d))(?:q[1-4]|h[12])?$|^(?:q[1-4]|h[12])$",
    re.IGNORECASE,
)
_FY_SPACED = re.compile(r"\bFY\s+(?=(?:\d{4}|\d{2})\b)", re.IGNORECASE)


def join_periods(text: str) -> str:
    """ "FY 2023" written as one term, "FY2023", as filings and file names write it."""
    return _FY_SPACED.sub("FY", text)


def is_period(term: str) -> bool:
    """A year, fiscal year, quarter or half ("2023", "FY2023", "FY2023Q1", "Q2", "FY"), not a name."""
    return bool(term) and bool(_PERIOD.match(term.strip()))


def period_year(term: str) -> str:
    """The four-digit year a period names ("FY2023Q1" -> "2023", "FY19" -> "2019"), or ""."""
    match = _PERIOD.match(term.strip())
    digits = (match.group("fy") or match.group("year")) if match else None
    if not digits:
        return ""
    return digits if len(digits) == 4 else f"20{digits}"


def years_named(text: str) -> list[str]:
    """The years the text's periods name, in the order it names them ("FY2019 - FY2020" -> 2019, 2020)."""
    return list(dict.fromkeys(y for w in words(join_periods(text)) if (y := period_year(w))))


# Two periods written as a range: "FY2016 - FY2018", "2019–2021", "FY2017-18", "2016 through 2018", "from 2016 to
# 2018". "between 2016 and 2018" and "2016 to 2018" name a range only beside an average or a span of years ("the
# three-year average ... between"): else they are two years compared. Each side is one word that names a year.
_SIDE = r"[\w'’]+"
_RANGE = re.compile(rf"(?P<a>\b{_SIDE})\s*(?:[-–—]|\b(?:through|thru|until)\b)\s*(?=(?P<b>{_SIDE}\b))", re.I)
_FROM_TO = re.compile(rf"\bfrom\s+(?P<a>{_SIDE})\s+to\s+(?P<b>{_SIDE}\b)", re.I)
_SPAN_ONLY = re.compile(rf"(?:\bbetween\s+(?P<a>{_SIDE})\s+and|(?P<c>\b{_SIDE})\s+to)\s+(?P<b>{_SIDE}\b)", re.I)
_SPAN = re.compile(r"\baverage|\b(?:\d+|two|three|four|five|six|seven|eight|nine|ten)[- ]years?\b", re.I)
_LONGEST_RANGE = 10  # years: a span wider than this is two years compared, not a run of columns


def _range_years(first: str, last: str) -> list[str]:
    """The years from one side of a range to the other ("FY2017" to "18": 2017, 2018), or [] when either side
    names no year or the span is wider than a table's run of columns."""
    start = period_year(first)
    digits = last.lower().removeprefix("fy").strip("'’")
    end = period_year(last) or (f"{start[:2]}{digits}" if start and len(digits) == 2 and digits.isdigit() else "")
    if not (start and end):
        return []
    low, high = sorted((int(start), int(end)))
    return [str(y) for y in range(low, high + 1)] if 0 < high - low <= _LONGEST_RANGE else []


def years_spanned(text: str) -> list[str]:
    """The years the text names, and every year of a range it writes between two of them ("the three-year
    average from FY2016 to FY2018" -> 2016, 2018, 2017): a table's columns for the years in between are asked for
    too."""
    years = years_named(text)
    joined = join_periods(text)
    patterns = [_RANGE, _FROM_TO, *([_SPAN_ONLY] if _SPAN.search(joined) else [])]
    for pattern in patterns:
        for match in pattern.finditer(joined):
            first = match.group("a") or match.groupdict().get("c") or ""
            years += [y for y in _range_years(first, match.group("b")) if y not in years]
    return years
