"""Figures computed from cited table rows, when the question asks for arithmetic the evidence does not state.

Two generic forms, nothing more: a change in percent between two years of one row ("year-over-year change in X
from 2016 to 2017 in percent", "the 2019 - 2020 X growth rate"), and a ratio of two rows in one year whose labels
the question gives ("X is defined as A divided by B", "the ratio of A to B", "A as a percentage of B"). The
sentence shows the cited inputs and the result marked "(computed)"; verification checks the inputs against the
cited rows and leaves the computed clause aside.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from kb.text import STOPWORDS, is_period, period_year, tokenize, words

COMPUTED = "(computed)"
# The computed clause of a sentence, set aside when its support is checked: "; change +15.0% (computed)".
COMPUTED_CLAUSE = re.compile(r";[^;\[]*\(computed\)")

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
_CELL = re.compile(r"^(?P<head>[^:]{1,60}):\s*(?P<value>.+)$")
_VALUE = re.compile(r"^\$?\s*(?P<neg>\()?\s*\$?\s*(?P<num>-?\d[\d,]*(?:\.\d+)?)\s*\)?\s*%?$")
_YEAR = re.compile(r"\b(?:19|20)\d\d\b")


@dataclass(frozen=True)
class Figure:
    """One value of a table row: its label, the year of its column, the value as printed and as a number."""

    label: str
    year: str
    printed: str
    value: float
    key: str
    order: int  # the passage's place among the evidence (better ranked first)


def number(text: str) -> float | None:
    """A printed figure as a number: "1,577" -> 1577, "(1,577)" -> -1577, "$ 2,912.9" -> 2912.9, else None."""
    match = _VALUE.match(text.strip())
    if not match:
        return None
    value = float(match.group("num").replace(",", ""))
    return -value if match.group("neg") else value


def figures(context: list[dict[str, Any]]) -> list[Figure]:
    """Every "label | year: value" cell of the evidence's table rows."""
    out = []
    for order, item in enumerate(context):
        for line in item["text"].splitlines():
            cells = [c.strip() for c in line.split("|") if c.strip()]
            if len(cells) < 2:
                continue
            for cell in cells[1:]:
                match = _CELL.match(cell)
                years = _YEAR.findall(match.group("head")) if match else []
                value = number(match.group("value")) if match else None
                if len(years) == 1 and value is not None:
                    out.append(Figure(cells[0], years[0], match.group("value").strip(), value, item["key"], order))
    return out


def _terms(text: str) -> set[str]:
    return {t for t in tokenize(text) if not t.isdigit() and t not in STOPWORDS}


def best_row(candidates: list[Figure], wanted: str, year: str, label_share: float) -> Figure | None:
    """The figure of `year` whose row label shares most words with the wanted text, at least `label_share` of the
    label's words (a label is short; the text around it holds periods and instructions). Ties go to the better
    ranked passage."""
    need = _terms(wanted)
    scored = []
    for fig in candidates:
        label = _terms(fig.label)
        shared = len(need & label)
        if fig.year == year and label and shared and shared / len(label) >= label_share:
            scored.append((shared, shared / len(label), -fig.order, -len(label), fig))
    return max(scored, key=lambda s: s[:4])[4] if scored else None


def _plain(phrase: str) -> bool:
    """A row label as a formula names it: a few words, no arithmetic of its own."""
    return len(phrase.split()) <= 6 and not re.search(r"[*+()\d=]|\bminus\b|\bplus\b|\btimes\b", phrase)


def _years(question: str) -> list[str]:
    return sorted({y for w in words(question) if is_period(w) and (y := period_year(w))})


def computed(question: str, context: list[dict[str, Any]], label_share: float = 0.6) -> str | None:
    """A sentence with the cited inputs and the computed figure the question asks for, or None."""
    found = figures(context)
    if not found:
        return None
    return _change(question, found, label_share) or _ratio(question, found, label_share)


def _change(question: str, found: list[Figure], label_share: float) -> str | None:
    if not (_CHANGE.search(question) and _PERCENT.search(question)):
        return None
    years = _years(question)
    if len(years) == 1 and _YOY.search(question):
        years = [str(int(years[0]) - 1), years[0]]
    if len(years) != 2:
        return None
    subject = _CHANGE.split(question, maxsplit=1)[-1]  # what changed: the words after "change", "growth", ...
    for wanted in (subject, question):
        old, new = best_row(found, wanted, years[0], label_share), best_row(found, wanted, years[1], label_share)
        if old and new and old.label == new.label and old.value:
            change = (new.value - old.value) / abs(old.value)
            keys = "".join(f"[{k}]" for k in dict.fromkeys([old.key, new.key]))
            return (
                f"{old.label}: {old.year} {old.printed}, {new.year} {new.printed}; "
                f"change {change:+.1%} {COMPUTED}. {keys}"
            )
    return None


def _ratio(question: str, found: list[Figure], label_share: float) -> str | None:
    years = _years(question)
    if not years:
        return None
    year = years[-1]
    for pattern in _RATIO:
        match = pattern.search(question)
        if not match or not (_plain(match.group("a")) and _plain(match.group("b"))):
            continue
        a, b = (
            best_row(found, match.group("a"), year, label_share),
            best_row(found, match.group("b"), year, label_share),
        )
        if not (a and b) or a.label == b.label or not b.value:
            continue
        ratio = a.value / b.value
        as_percent = _PERCENT.search(question) or "percentage" in match.group(0).lower()
        shown = f"{ratio:.1%}" if as_percent else f"{ratio:.2f}"
        keys = "".join(f"[{k}]" for k in dict.fromkeys([a.key, b.key]))
        inputs = f"{a.label} {year}: {a.printed}; {b.label} {year}: {b.printed}"
        return f"{inputs}; {a.label} / {b.label} = {shown} {COMPUTED}. {keys}"
    return None
