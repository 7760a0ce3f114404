"""Sentences of a chunk's text, shared by the knowledge base and the agent: the split (abbreviations, numbered
list items, footnote marks, headings on their own line), and the words the next chunk finishes a cut sentence with
(or the list items a chunk's last sentence announces)."""

from __future__ import annotations

import re

# Sentences: common abbreviations that end in a period but do not end a sentence; a numbered heading line.
# Abbreviations a sentence goes on after ("at 6:30 a.m. (Eastern time)", "the U.S. Department"). A company's "Inc."
# ends a sentence as often as not, so it is not one. Those of `_MAY_END` also end sentences ("... sold in the U.S.
# We also ..."): one ends there when the next word is one of `SENTENCE_OPENERS`.
_MAY_END_WORDS = r"etc|a\.m|p\.m|u\.s|u\.k|jr|pp"
_ABBREV = re.compile(
    rf"\b(?:e\.g|i\.e|et al|vs|fig|figs|eq|eqs|sec|no|approx|cf|resp|ca|dr|mr|ms|vol|{_MAY_END_WORDS})\.$", re.I
)
_MAY_END = re.compile(rf"\b(?:{_MAY_END_WORDS})\.$", re.I)
# Words that open English sentences (a small closed set): after "U.S." such a word starts a new sentence, and after a
# paragraph's run-in heading its first one (see agent.readable). "A" is left out: a variable in prose reads the same.
SENTENCE_OPENERS = (
    "We|In|The|Our|This|These|Those|It|Its|As|For|On|At|To|Their|There|Here|However|Also|Since|While|During|After|"
    "Before|Given|Following|Unlike|Although|When|Each|All|Most|Many|Some"
)
_OPENS = re.compile(rf"(?:{SENTENCE_OPENERS})\b")
# A footnote's mark left at a sentence's start, where a chunk opens after the sentence it was printed on ("3 We
# report two sizes ..."): a small number before a word that opens sentences.
_LEADING_MARK = re.compile(rf"^\d{{1,2}}\s+(?=(?:{SENTENCE_OPENERS})\s)")
_NUMBERED_HEADING = re.compile(r"^(?:\d+(?:\.\d+)*\.?|[A-Z]\.\d*|[IVX]+\.)\s+[A-Z]")
_BULLET = "[•◦▪‣]"
_SPLIT = re.compile(
    r"(?:(?<=[.!?])|(?<=[.!?][”\"’)]))\s+"
    # A sentence may open with an option ("... undetected. --verbose"), a format's escape ("... links. %q The
    # port.") or a reference's entry named by hyphenated lower-case words ("... arguments. gate-time Set the time
    # ..."; an identifier with underscores may be an item of the list a sentence announces), or a path heading a
    # directory list's entry ("... (optional). /qz-lost This directory ...", "~/.qzrc Read at start", "/qz/max (since
    # 2.2) Sets ..."; not an example's line, "/qz/*.conf #Type ...").
    r"(?=[\"'(“]?[A-Z0-9]|<[A-Za-z]|--?[A-Za-z]|%[A-Za-z]\s|[a-z][a-z0-9]*(?:-[a-z0-9]+)+\b|~?/[A-Za-z._][\w.+-]*(?:/[\w.+-]+)*/?\s+(?:\([^()]{1,40}\)\s+)?[A-Z])"
    # A stop closing an element of markup left in the text ("... returns.</td> </tr> <tr> <td><code>QZ_NOW</code>
    # ..."): the sentence ends there, as the text reads once the tags are taken out ("obj.<code>Run</code>" goes on).
    r"|(?<=[.!?])(?=\s*</[A-Za-z][^<>]*>(?:\s*</?[A-Za-z][^<>]*>)*\s*[\"'(“]?[A-Z0-9])"
    # List items run into one line: a bullet, or a command's option as its help lists it ("-s, --strict ..."), not
    # one named in passing, followed by a comma, "and", "or" or a stop ("when using -Z, --parallel, this ..."); a
    # further option after the comma lists the entry's aliases ("-q, --quiet, --silent never print ...").
    rf"|\s+{_BULLET}\s*|\s+(?=-[A-Za-z0-9],\s+--[A-Za-z][\w-]*+(?!\s*,(?!\s*-)|\s+(?:and|or)\b|\.?$|\.\s))"
)
_LEAD_IN = re.compile(rf":\s*{_BULLET}\s*")
# A list's items: "1. ", "2) ", a bullet, "(a) ".
_LIST_OPENS = re.compile(rf"^(?:\d{{1,2}}[.)]|{_BULLET}|\(?[a-z]\))\s")
_ITEM = re.compile(rf"(?:^|(?<=\s))(?:\d{{1,2}}[.)]|{_BULLET}|\(?[a-z]\))\s")
# A numbered list's first mark after the words announcing it ("...: 1."), and a later mark on its own ("2.").
_FIRST_MARK = re.compile(r"(?:^|:\s)1\.$")
_MARK = re.compile(r"^(\d{1,2})\.$")
# A footnote mark printed after a sentence's stop ("... library.1 Because ...", "... Transformer.”2 In ..."): the
# mark is dropped so the stop ends the sentence. A word of three letters or more before the stop, so "Fig.1" and
# "No.2" stay whole.
_FOOTNOTE_MARK = re.compile(
    r"(?<=[a-z]{3}[.!?])\d{1,2}(?=\s+[\"'(“]?[A-Z])|(?<=[a-z][.!?][”\"’)])\d{1,2}(?=\s+[A-Z])|"
    # a mark glued to the next sentence's first word ("were kept there. 19Deciding")
    r"(?<=[.!?]\s)\d{1,2}(?=[A-Z][a-z]{2})"
)


_FINISHED = re.compile(r"[.!?:;][\"'”’)\]]*$")


_CHOICES = re.compile(r"\[[^\[\]]*\]|\{[^{}]*\}")  # "[on | off]", "{a | b}": a syntax's choices, no cells


def is_row_line(line: str) -> bool:
    """A table row as the chunks write it ("a | b | c"); bars only inside brackets are a syntax's choices."""
    return " | " in line and " | " in _CHOICES.sub(" ", line)


def _heading_line(line: str) -> bool:
    """A numbered heading on a line of its own ("3 Results", "2.1 Setup"): never part of a sentence."""
    return bool(_NUMBERED_HEADING.match(line)) and len(line.split()) <= 10 and line[-1] not in ".,;:"


def stops_mid_sentence(text: str) -> bool:
    """The text's last line is prose (not a table row or a numbered heading) that ends without a sentence's stop."""
    last = text.rstrip().rsplit("\n", 1)[-1].strip()
    return bool(last) and not is_row_line(last) and not _FINISHED.search(last) and not _heading_line(last)


def announces_items(text: str) -> bool:
    """The text ends announcing a list ("... three classes of errors:"), whose items may open the next chunk."""
    return text.rstrip().endswith(":")


def reads_on(text: str) -> bool:
    """Whether the next chunk may finish what the text ends with (see `run_on`): worth reading it."""
    return stops_mid_sentence(text) or announces_items(text)


def joiner(text: str) -> str:
    """What joins the text to the words that finish its last sentence: nothing after a hyphen ("state-of-the-" and
    "art"), else a space."""
    return "" if text.rstrip().endswith("-") else " "


def open_brackets(text: str) -> int:
    """Round and square brackets the text opens and does not close; a list mark ("a)", "(ii)") opens none."""
    text = _LIST_MARK.sub(" ", text)
    return text.count("(") + text.count("[") - text.count(")") - text.count("]")


_LIST_MARK = re.compile(r"(?:^|(?<=\s))\(?(?:[a-z]|[ivx]{1,4}|\d{1,2})\)(?=\s)")


def run_on(text: str, following: str, most: int = 60) -> str:
    """The words of `following` (the next chunk's text) that finish the sentence `text` stops in, or ''; after a
    colon, the list items the next chunk opens with (see `_items`). A chunk may close inside a sentence (at a line
    end past its size limit); the next one then opens with the rest of it, in lower case or with a figure. '' when
    the text ends a sentence, a table row or a heading, when the next chunk opens with a table row or a heading, or
    when the rest runs over `most` words. A sentence stopping inside a
    bracket ("... ended March 25, 2023 (Q1 2023") goes on whatever the case of the next word, when the rest closes
    the bracket. The text, `joiner(text)` and the words read as the whole sentence."""
    rest = following.lstrip()
    if announces_items(text) and _LIST_OPENS.match(rest):
        return _items(rest, most)
    if not stops_mid_sentence(text):
        return ""
    unfinished = sentences(text)[-1:]
    opened = bool(unfinished) and open_brackets(unfinished[0]) > 0
    if not (rest[:1].islower() or rest[:1].isdigit() or opened):
        return ""
    prose = []
    for line in rest.splitlines():
        line = line.strip()
        if is_row_line(line) or _heading_line(line):
            break
        prose.append(line)
    last = text.rstrip().rsplit("\n", 1)[-1].strip()
    tail = last[-20:]
    if not prose or not unfinished or not (unfinished[0].endswith(tail) or tail.endswith(unfinished[0])):
        return ""  # the last sentence read is not the one the last line stops in (a short one: all of it is there)
    whole = sentences(f"{unfinished[0]}{joiner(text)}{' '.join(prose)}")[0]
    if not whole.startswith(unfinished[0]) or not _FINISHED.search(whole):
        return ""
    if opened and not rest[:1].islower() and open_brackets(whole) > 0:
        return ""  # read on for its bracket, the rest never closes it: a heading or a new sentence follows
    words = whole[len(unfinished[0]) :].split()
    return " ".join(words) if 0 < len(words) <= most else ""


def _items(following: str, most: int) -> str:
    """The list items the next chunk opens with, each to its first sentence's end, within `most` words: what a
    sentence announcing a list at the end of a chunk announces ("... detects three classes of errors:"). The list
    ends at a table row, a heading, a line that is no item and does not go on one, or an item with prose after it."""
    lines: list[str] = []
    raw = [line.strip() for line in following.splitlines()]
    for line, after in zip(raw, [*raw[1:], ""], strict=True):
        # A numbered line is a heading unless the next line goes on with it in lower case (an item wrapped).
        if is_row_line(line) or not line or (_heading_line(line) and not after[:1].islower()):
            break
        if lines and not _LIST_OPENS.match(line) and (_FINISHED.search(lines[-1]) or not line[:1].islower()):
            break  # prose after the list: an item's wrapped line goes on in lower case
        lines.append(line)
    text = " ".join(lines)
    starts = [m.start() for m in _ITEM.finditer(text)]
    if not starts or starts[0]:
        return ""
    taken: list[str] = []
    for a, b in zip(starts, [*starts[1:], len(text)], strict=True):
        item = text[a:b].strip()
        first = (sentences(item) or [item])[0]
        if sum(len(t.split()) for t in [*taken, first]) > most:
            break
        taken.append(first)
        if len(first) < len(item):
            break
    return " ".join(taken)


def _marks_kept(pieces: list[str]) -> list[str]:
    """The split's pieces with a numbered list's marks joined to their items: "...: 1.", the next number and one
    opening the text end no sentence ("... sections: 1. Misuses of the API." then "2. Deadlocks ..."); a number after
    "Fig." or "Age:" is no mark."""
    out: list[str] = []
    carry, expect = "", 0
    for piece in pieces:
        piece = f"{carry} {piece}" if carry else piece
        carry = ""
        mark = _MARK.match(piece)
        if _FIRST_MARK.search(piece) and not (mark and out and _ABBREV.search(out[-1])):
            carry, expect = piece, 2
        elif mark and (int(mark.group(1)) == expect or not out):  # the next mark, or one opening the text
            carry, expect = piece, int(mark.group(1)) + 1
        else:
            out.append(piece)
    return [*out, carry] if carry else out


def sentences(text: str) -> list[str]:
    """Sentences of a chunk; each table row ("a | b | c") stands alone, a numbered heading line is dropped."""
    out: list[str] = []
    prose: list[str] = []

    def flush() -> None:
        # A word broken at a line end is joined, not a dash (" -- ") nor a suspended hyphen ("short- and long-term").
        joined = re.sub(r"(?<=\w)-\s+(?=[a-z])(?!(?:and|or|to|nor)\b)", "", " ".join(prose)) if prose else ""
        joined = _FOOTNOTE_MARK.sub("", joined)
        joined = _LEAD_IN.sub(": ", joined)  # a list's first item stays with the words that introduce it
        pending = ""
        pieces = _marks_kept(_SPLIT.split(joined))
        for k, piece in enumerate(pieces):
            pending = f"{pending} {piece}".strip() if pending else piece
            after = pieces[k + 1] if k + 1 < len(pieces) else ""
            if not _ABBREV.search(pending) or (_MAY_END.search(pending) and _OPENS.match(after)):
                out.append(pending)
                pending = ""
        if pending:
            out.append(pending)
        prose.clear()

    for line in text.splitlines():
        line = line.strip()
        if not line:
            continue
        if is_row_line(line):
            flush()
            out.append(line)
        elif _heading_line(line):
            flush()  # a section heading is not part of the sentence that follows it
        else:
            prose.append(line)
    flush()
    return [s for s in (_LEADING_MARK.sub("", x.strip()) for x in out) if s]
