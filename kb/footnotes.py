"""Footnotes at the foot of a page: lines set smaller than the text, below it, opening with a mark ("3 Data kept
for ...", "* Equal contribution"). A paragraph that runs over the page break would read them in the middle of its
sentence ("... which holds state files that 3 Data kept for the bench alone should be stored in /dock/bench. need no
directory of their own"). They are marked so the chunker keeps them out of the running text and gives them a chunk
of their own on their page, where they stay searchable and citable."""

from __future__ import annotations

import re

from kb.headings import body_size
from kb.parsed import Page

# A footnote's lines are set at most this share of the text's size ...
SMALLER = 0.9
# ... start in the lower part of the page (below this share of its height) ...
LOWER = 0.5
# ... stand apart from the text above them by at least this share of the text's size (more than a line's leading) ...
GAP = 0.5
# ... and are few: a block of more lines is a page of small print, not its footnotes.
MOST_LINES = 20

# The mark a footnote opens with: a small number or a symbol, alone on its line or before the note's first word. A
# table's notes ("(1) Includes ...") follow their table and are read with it.
_MARK = re.compile(r"^(?P<mark>\d{1,2}|[*†‡§¶]{1,3})(?:$|\s+[\"“'(]?[A-Z/])")


def mark_footnotes(pages: list[Page]) -> int:
    """Mark the footnote block at the foot of each body page (kind "footnote"), each note without its mark (a mark
    on a line of its own is dropped: alone it reads as a page number); returns the notes' lines."""
    body = body_size(pages)
    marked = 0
    for page in pages:
        if page.kind != "body" or len(page.lines) < 2:
            continue
        block = _foot_block(page, body)
        opens = True  # the block's first line opens a note, as does a line after a finished one or a lone mark
        for line in block:
            line.kind = "footnote"
            text = line.text.strip()
            mark = _MARK.match(text) if opens else None
            if mark:
                line.text = text[mark.end("mark") :].strip()
            opens = not line.text or text.endswith((".", "!", "?", ":", ";"))
        kept = {id(line) for line in block if line.text}
        page.lines = [ln for ln in page.lines if ln.kind != "footnote" or id(ln) in kept]
        marked += len(kept)
    return marked


def _foot_block(page: Page, body: float) -> list:
    """The run of small text lines that ends the page after its last line of text size, when it opens with a mark
    and stands apart from the text; else none."""
    lines = page.lines
    start = len(lines)
    while start > 0 and lines[start - 1].kind == "text" and 0 < lines[start - 1].size <= SMALLER * body:
        start -= 1
    block = lines[start:]
    if not block or start == 0 or len(block) > MOST_LINES:
        return []
    above, first = lines[start - 1], block[0]
    if first.top < LOWER * page.height or first.top - above.bottom < GAP * body:
        return []
    return block if _MARK.match(first.text.strip()) else []
