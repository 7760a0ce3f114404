"""Hyphens at line breaks: dropped where typesetting split a word ("inter-" / "national"), kept where the hyphen is
part of what is printed ("XR-" / "7", "state-of-the-" / "art"). The document itself is the dictionary: a word it
also prints unbroken, joined or hyphenated, is written the same way at the break."""

from __future__ import annotations

import re
from collections import Counter

from kb.parsed import Line, Page

_WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")
_EDGE_PUNCTUATION = "\"'“”‘’([{)]}.,;:!?"


def resolve_hyphens(pages: list[Page]) -> None:
    """Settle every line that ends with a hyphen at a line break: keep or drop the hyphen, and glue the line to
    the next without a space."""
    lines = [ln for page in pages for ln in page.lines]
    lexicon = Counter(w.casefold() for ln in lines if ln.kind != "table" for w in _WORD.findall(ln.text))
    # The text reads on past a page's footnotes; each page's footnotes read on among themselves.
    flows = [[ln for ln in lines if ln.kind != "footnote"]]
    flows += [[ln for ln in page.lines if ln.kind == "footnote"] for page in pages]
    for flow in flows:
        for line, following in zip(flow, [*flow[1:], None]):
            if not (line.broken or _ends_split(line, following)) or following is None or following.kind == "table":
                line.broken = False
                continue
            before = line.text[:-1].split()[-1] if line.text[:-1].split() else ""
            after = following.text.split()[0].strip(_EDGE_PUNCTUATION) if following.text.split() else ""
            if not _keep(before.strip(_EDGE_PUNCTUATION), after, lexicon):
                line.text = line.text[:-1]
            line.glue, line.broken = True, False


def _ends_split(line: Line, following: Line | None) -> bool:
    """A plain hyphen closing a line after a letter, before a line that starts with a letter (pdfium marks most
    line-break hyphens itself; this catches the ones it leaves as plain text)."""
    text = line.text
    return (
        line.kind == "text"
        and following is not None
        and len(text) >= 3
        and text.endswith("-")
        and text[-2].isalpha()
        and following.text[:1].isalpha()
    )


def _keep(before: str, after: str, lexicon: Counter[str]) -> bool:
    if not before or not after:
        return True
    if any(c.isdigit() for c in before + after) or after[0].isupper() or "-" in before:
        return True  # an identifier or a compound: "XR-7", "Key-Derivation", "state-of-the-art"
    if before.isupper() and len(before) > 1:
        return True  # "HTTP-" / "based"
    joined, hyphenated = (before + after).casefold(), f"{before}-{after}".casefold()
    return lexicon[hyphenated] > lexicon[joined]
