"""Figures computed from cited table rows, when the question asks for arithmetic the evidence does not state.

Three generic forms, nothing more: a change in percent between two years of one row ("year-over-year change in X
from 2016 to 2017 in percent", "the 2019 - 2020 X growth rate"), a ratio of two rows in one year whose labels
the question gives ("X is defined as A divided by B", "the ratio of A to B", "A as a percentage of B"), and a
row's figure in the scale the question asks for ("answer in USD millions" of a table "(in thousands)"). The
sentence shows the cited inputs and the result marked "(computed)"; verification checks the inputs against the
cited rows and leaves the computed clause aside.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from agent.rows import cell_parts, row_cells
from kb.periods import is_period, years_named
from kb.text import STOPWORDS, tokenize

COMPUTED = "(computed)"
# The computed clause of a sentence as this module writes it, set aside when its support is checked:
# "; change +15.0% (computed)" or "; A / B = 2.00 (computed)". Nothing else is exempt.
COMPUTED_CLAUSE = re.compile(
    r";\s*(?:change [+-]\d+\.\d%|[^;\[=]{1,200} / [^;\[=]{1,200} = -?\d+\.\d+%?|"
    r"that is \(?-?[\d,]+(?:\.\d+)?\)? (?:thousand|million|billion)) \(computed\)"
)
# Scales a figure is printed or asked in. The question's "in USD millions", "in millions of dollars"; a table's
# "(in thousands)", "(Dollars in millions, except per share data)": within brackets, so prose is not read as one.
_SCALES = {"thousand": 1e3, "million": 1e6, "billion": 1e9}
_SCALE = "(" + "|".join(_SCALES) + ")s"
_ASKED_SCALE = re.compile(r"\bin\s+(?:(?:USD|US\$|\$|dollars?|euros?|EUR|GBP)\s+)?" + _SCALE + r"\b", re.I)
_TABLE_SCALE = re.compile(r"\([^()]{0,40}?\bin\s+" + _SCALE + r"\b[^()]{0,60}\)", re.I)

_CHANGE = re.compile(r"\b(?:change|growth|grow|increase|decrease|decline|rise|fall)\b", re.IGNORECASE)
_PERCENT = re.compile(r"%|\bpercent(?:age)?s?\b|\brate\b", re.IGNORECASE)
_YOY = re.compile(r"\byear[- ]over[- ]year\b|\byoy\b|\bprior\s+year\b", re.IGNORECASE)
_RATIO = [
    re.compile(
        r"\b(?:define[sd]?|calculated?|computed?)\b(?:[^.;?:]{0,60}?\s)?(?:as|using)\s*:?\s*(?:the\s+)?(?P<a>[^/.;?]+?)\s+"
        r"(?:divided\s+by|over|/)\s+(?:the\s+)?(?P<b>[^.;?]+)",
        re.IGNORECASE,
    ),
    re.compile(r"\bratio\s+of\s+(?:the\s+)?(?P<a>[^.;?]+?)\s+to\s+(?:the\s+)?(?P<b>[^.;?,]+)", re.IGNORECASE),
    re.compile(
        r"(?P<a>[\w\s&-]{3,60}?)\s+as\s+a\s+(?:percentage|share|percent)\s+of\s+(?:the\s+)?(?P<b>[^.;?,]+)",
        re.IGNORECASE,
    ),
]
_VALUE = re.compile(r"^\$?\s*(?P<neg>\()?\s*\$?\s*(?P<num>-?\d[\d,]*(?:\.\d+)?)\s*\)?\s*%?$")
_YEAR = re.compile(r"\b(?:19|20)\d\d\b")
# A column that is not a whole year's figure: a quarter, a part of the year, a share.
_PART_OF_YEAR = re.compile(r"\bq[1-4]\b|quarter|\b(?:three|six|nine)\s+months|%|percent|\bchange\b", re.IGNORECASE)
# What a change is of: "change in X from ...", "X growth rate", "growth of X between ...".
_CHANGED = [
    re.compile(
        r"\b(?:change|growth|increase|decrease|decline|rise|fall)(?:\s+rate)?\s+(?:in|of)\s+(?:the\s+)?(?:[\w'’]+['’]s\s+)?"
        r"(?P<x>[^,.;?()]+?)\s+(?:from|between|for|in|over|during|of|since|compared)\b",
        re.IGNORECASE,
    ),
    re.compile(r"(?P<x>(?:[A-Za-z][\w&'’-]*\s+){0,3}[A-Za-z][\w&-]*)\s+(?:growth|change)(?:\s+rate)?\b", re.IGNORECASE),
]
# A period after a formula's term: "revenue in 2019", "for FY2019" (the year is read from the question).
_TRAILING_PERIOD = re.compile(
    r"\s+(?:in|for|of|during|at|as\s+of)\s+(?:the\s+)?(?:fiscal\s+(?:year\s+)?)?(?:FY\s*)?\d{2,4}\b.*$", re.IGNORECASE
)


@dataclass(frozen=True)
class Figure:
    """One value of a table row: its label, the year of its column, the value as printed and as a number."""

    label: str
    year: str
    printed: str
    value: float
    key: str
    order: int  # the passage's place among the evidence (better ranked first)
    line: int  # the row's line in its passage: a change is read within one row


def number(text: str) -> float | None:
    """A printed figure as a number: "1,577" -> 1577, "(1,577)" -> -1577, "$ 2,912.9" -> 2912.9, else None."""
    match = _VALUE.match(text.strip())
    if not match:
        return None
    value = float(match.group("num").replace(",", ""))
    return -value if match.group("neg") else value


def figures(context: list[dict[str, Any]]) -> list[Figure]:
    """The whole-year values of the evidence's table rows: cells "year: value" whose header names one year and no
    part of it (no quarter, no share), whose value is a plain number, in rows holding one cell per year."""
    out = []
    for order, item in enumerate(context):
        for line_no, line in enumerate(item["text"].splitlines()):
            cells = row_cells(line)
            row = []
            for head, printed in filter(None, map(cell_parts, cells[1:])):
                if _PART_OF_YEAR.search(head) or "%" in printed:
                    continue
                years = _YEAR.findall(head)
                value = number(printed)
                if len(years) == 1 and value is not None:
                    row.append(Figure(cells[0], years[0], printed, value, item["key"], order, line_no))
            if len({f.year for f in row}) == len(row):  # two cells of one year: which is meant is unclear
                out += row
    return out


def _terms(text: str) -> set[str]:
    return {t for t in tokenize(text) if not any(c.isdigit() for c in t) and t not in STOPWORDS and not is_period(t)}


def _phrase(text: str) -> str:
    """What a formula or a change names, without the periods around it ("FY2020 total revenue in 2020")."""
    return " ".join(w for w in _TRAILING_PERIOD.sub("", text).split() if not is_period(w.strip("'’")))


def best_row(candidates: list[Figure], wanted: str, year: str, share: float) -> Figure | None:
    """The figure of `year` whose row label names what the wanted phrase names: every word of the phrase in the
    label, and at least `share` of the label's words in the phrase ("total revenue" takes "Total net revenue",
    "revenue" does not take "Cost of revenue"). Ties go to the better ranked passage."""
    need = _terms(wanted)
    scored = []
    for fig in candidates:
        label = _terms(fig.label)
        shared = len(need & label)
        if fig.year == year and label and need and shared == len(need) and shared / len(label) >= share:
            scored.append((shared / len(label | need), -fig.order, -len(label), fig))
    return max(scored, key=lambda s: s[:3])[3] if scored else None


def label_share(row: str, question: str) -> float:
    """Share of a table row label's words that the question holds: how plainly the row is the figure asked for
    ("Pump intake" for "the amount of pump intake", not "Total harbour equipment")."""
    label = _terms(row_cells(row)[0]) if row_cells(row) else set()
    return len(label & _terms(question)) / len(label) if label else 0.0


def _plain(phrase: str) -> bool:
    """A row label as a formula names it: a few words, no arithmetic of its own."""
    return len(phrase.split()) <= 6 and not re.search(r"[*+()\d=]|\bminus\b|\bplus\b|\btimes\b", phrase)


def computed(question: str, context: list[dict[str, Any]], share: float = 0.6) -> str | None:
    """A sentence with the cited inputs and the computed figure the question asks for, or None."""
    found = figures(context)
    if not found:
        return None
    return _change(question, found, share) or _ratio(question, found, share)


def _stated_ratios(question: str) -> Iterator[tuple[re.Match[str], str, str]]:
    """Each ratio the question states (a match of `_RATIO`) whose two terms name plain row labels: (the match, the
    first term, the second), in the patterns' order."""
    for pattern in _RATIO:
        match = pattern.search(question)
        if match:
            phrase_a, phrase_b = _phrase(match.group("a")), _phrase(match.group("b"))
            if all(_plain(p) and _terms(p) for p in (phrase_a, phrase_b)):
                yield match, phrase_a, phrase_b


def missing_operands(question: str, context: list[dict[str, Any]], share: float = 0.6) -> list[str]:
    """What a stated ratio needs and the evidence's rows do not give for the year asked, as searches ("pump
    intake 2016"): the question names each row of its formula, so one search per missing row finds it."""
    years = years_named(question)
    if len(years) != 1:
        return []
    found = figures(context)
    for _, phrase_a, phrase_b in _stated_ratios(question):
        return [f"{p} {years[0]}" for p in (phrase_a, phrase_b) if best_row(found, p, years[0], share) is None]
    return []


def _change(question: str, found: list[Figure], share: float) -> str | None:
    if not (_CHANGE.search(question) and _PERCENT.search(question)):
        return None
    years = years_named(question)
    if len(years) == 1 and _YOY.search(question):
        years = [str(int(years[0]) - 1), years[0]]
    if len(years) != 2:
        return None
    for pattern in _CHANGED:
        match = pattern.search(question)
        wanted = _phrase(match.group("x")) if match else ""
        if not wanted or not _plain(wanted):
            continue
        old = best_row(found, wanted, years[0], share)
        new = best_row(found, wanted, years[1], share)
        same_row = old and new and (old.key, old.line, old.label) == (new.key, new.line, new.label)
        if same_row and old.value:
            change = (new.value - old.value) / abs(old.value)
            return (
                f"{old.label}: {old.year} {old.printed}, {new.year} {new.printed}; "
                f"change {change:+.1%} {COMPUTED}. [{old.key}]"
            )
    return None


def _ratio(question: str, found: list[Figure], share: float) -> str | None:
    years = years_named(question)
    if len(years) != 1:
        return None
    year = years[0]
    for match, phrase_a, phrase_b in _stated_ratios(question):
        a, b = best_row(found, phrase_a, year, share), best_row(found, phrase_b, year, share)
        if not (a and b) or a.label == b.label or not b.value:
            continue
        ratio = a.value / b.value
        as_percent = _PERCENT.search(question) or "percentage" in match.group(0).lower()
        shown = f"{ratio:.1%}" if as_percent else f"{ratio:.2f}"
        keys = "".join(f"[{k}]" for k in dict.fromkeys([a.key, b.key]))
        inputs = f"{a.label} {year}: {a.printed}; {b.label} {year}: {b.printed}"
        return f"{inputs}; {a.label} / {b.label} = {shown} {COMPUTED}. {keys}"
    return None


def stated_scale(row: str, passage: str) -> str:
    """The scale ("thousand", "million", "billion") the row's table states above the row in its passage, or "". A
    row of percentages has none: a share is not counted in millions."""
    label = row_cells(row)[:1]
    values = [parts[1] for cell in row_cells(row)[1:] if (parts := cell_parts(cell))]
    if any("%" in value for value in values) or (label and label[0].rstrip(" )").endswith("%")):
        return ""
    lines = passage.splitlines()
    line = next((n for n, text in enumerate(lines) if label and text.startswith(label[0])), None)
    stated = _TABLE_SCALE.findall("\n".join(lines[: line + 1])) if line is not None else []
    return stated[-1].lower() if stated else ""


def in_scale(question: str, row: str, passage: str) -> str | None:
    """The clause giving a row's one figure in the scale the question asks for ("; that is 382 million
    (computed)"), when its table states another scale above the row in its passage; else None. A passage without
    its table's scale (a statement continued from the page before) converts nothing."""
    asked = _ASKED_SCALE.search(question)
    cells = row_cells(row)
    if not asked or len(cells) != 2 or not (parts := cell_parts(cells[1])) or (value := number(parts[1])) is None:
        return None
    want, have = asked.group(1).lower(), stated_scale(row, passage)
    if not have or have == want:
        return None
    converted = abs(value) * _SCALES[have] / _SCALES[want]
    shown = f"{converted:,.0f}" if converted >= 100 else f"{converted:.1f}" if converted >= 1 else f"{converted:.2g}"
    shown = f"({shown})" if parts[1].startswith("(") else f"-{shown}" if value < 0 else shown
    return f"; that is {shown} {want} {COMPUTED}"
