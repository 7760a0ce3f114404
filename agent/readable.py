"""What reads as an answer: which evidence sentences the extractive composer may use (a table row's cells are
`agent.rows`'). Generic to prose and tables; no word here names a domain."""

from __future__ import annotations

import re

from agent.entries import lower_case_entry
from agent.notation import ASKS_MATH, opens_with_notation
from agent.rows import cell_parts, header_row, row_cells
from agent.settings import AnswerSettings
from kb.sentences import SENTENCE_OPENERS, is_row_line, open_brackets
from kb.text import STOPWORDS, is_common_word, tokenize
from kb.unruled_tables import is_figure

# Sentences about the document rather than its subject: discourse phrases of papers and reports ("in this section
# we present", "is described in Note 4", "see Table 2", "the following table"). Small and generic on purpose.
_META = re.compile(
    r"\b(?:in\s+(?:this|the\s+rest\s+of\s+this)\s+(?:paper|section|work|report|chapter|article)|"
    r"(?:we|i)\s+(?:thank|acknowledge)|an\s+overview\s+of|"
    r"(?:is|are)\s+(?:included|described|discussed|presented|summari[sz]ed|set\s+forth|provided|shown)\s+"
    r"(?:in|under|within|below|above)\b|"
    r"(?:see|refer\s+to)\s+(?:also\s+)?(?:the\s+)?(?:accompanying\s+|following\s+|preceding\s+|attached\s+)?"
    r"(?:section|table|figure|fig\.|note|item|appendix|part|chapter|glossary)s?\b|"
    r"\b(?:see|refer\s+to)\s+(?:additional|further|more)\s+(?:information|details|discussion)\b|"
    r"\b(?:see|refer)\b[^.]{0,250}\bfor\s+(?:additional|further|more)\s+(?:information|details|discussion)\b|"
    r"\bfor\s+(?:additional|further|more)\s+(?:information|details|discussion)\b[^.]{0,250}\b(?:see|refer)\b|"
    r"the\s+following\s+(?:table|section|figure|summary|discussion)|as\s+follows\b)",
    re.IGNORECASE,
)
_CAPTION = re.compile(r"^(?:figure|fig\.|table|algorithm|listing)\s*[A-Z]?\d+[:.]", re.IGNORECASE)
# A caption after the words of its figure ("Mask LM Unlabeled Sentence A ... Figure 1: Overall procedure").
_CAPTION_INSIDE = re.compile(r"\s(?:figure|fig\.|table)\s*[A-Z]?\d+:\s", re.IGNORECASE)
_CONTACT = re.compile(r"\w@\w|https?://|www\.|\b\w+\.(?:com|org|edu|ai|io)\b", re.IGNORECASE)
# Dot leaders (". . . . 19"): a line of a contents page or index, whatever page it was found on.
_LEADERS = re.compile(r"(?:\.\s*){5,}")
_RULE = re.compile(r"\s*([^\w\s.])\1{4,}\s*")  # "■■■■■", "-----", "=====": a rule drawn in characters


# A page opening with its first two section headings run into its text ("NAME qz - gate tool DESCRIPTION Qz opens
# ..."): a heading in capitals, the line under it (words in lower case too), a second heading, then a sentence.
_SECTION_HEADS = re.compile(
    r"^[A-Z]{4,}\s+(?P<line>(?:(?!\.\s)\S){1,60}(?:\s(?:(?!\.\s)\S)+){0,15}?)\s+[A-Z]{4,}\s+(?=[A-Z])"
)


def past_section_heads(sentence: str) -> str:
    """The sentence without the two section headings a page opens with, the line under the first set off by a colon
    ("qz - gate tool: Qz opens ...": one sentence still, cited as one); a run of headings in capitals is left as it
    is."""
    match = _SECTION_HEADS.match(sentence)
    if not match or not re.search(r"[a-z]", match.group("line")):
        return sentence
    return f"{match.group('line').rstrip(' .:')}: {sentence[match.end() :]}"


def unbracketed(sentence: str) -> str:
    """A sentence the text wrote as an aside, wholly in brackets ("(Before that, qzread(2) returns 0.)"), without
    them: quoted alone it is no aside, and a full stop after the bracket would read "buffer.).". Unwrapped, it is
    judged as quoted ("(see qzread(2).)" opens in lower case: a fragment)."""
    text = sentence.rstrip(".")
    if not (text.startswith("(") and text.endswith(")")):
        return sentence
    depth = 0
    for i, char in enumerate(text):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth == 0 and i < len(text) - 1:
            return sentence  # the opening bracket closes before the end: "(a) one thing, (b) another"
    inner = text[1:-1].strip()
    return inner if depth == 0 and inner else sentence  # unbalanced ("(x (y)") or empty ("()"): as written


def past_rules(sentence: str) -> str:
    """The sentence without the rules drawn in characters in it: a plain-text heading's underline ("Gate mode
    ---------- In gate mode, ...") or a table's rule under its head is no prose; the heading's words still say what
    the sentence is about."""
    return " ".join(_RULE.sub(" ", sentence).split()) if _RULE.search(sentence) else sentence


_NUMBER = re.compile(r"^[-+(]?[$€£]?\d[\d,.]*%?\)?$")
# What asks for a figure: a quantity word, a number or a percentage. Question words, not domain terms.
_QUANTITY = (
    r"\bhow\s+(?:much|many|large|big|high|low|long)\b|\b(?:amount|value|total|number|ratio|rate|percent(?:age)?|"
    r"share|size|count|sum|average|median|figure|parameter)s?\b|%"
)
_YEAR_NAMED = r"\b(?:FY\s*)?(?:19|20)\d\d\b"  # a year named ("FY2022", "2019") asks for that year's figures too
_FIGURE = re.compile(f"{_QUANTITY}|{_YEAR_NAMED}", re.IGNORECASE)
_ASKS_QUANTITY = re.compile(_QUANTITY, re.IGNORECASE)
_ASKS_VISUAL = re.compile(r"\b(?:figure|fig\.|table|chart|plot)\b", re.IGNORECASE)


def asks_figure(question: str) -> bool:
    """The question asks for a quantity (so rows and number-heavy sentences may answer it)."""
    return bool(_FIGURE.search(question))


# A question asking for a list: "which/what" and a plural noun ("Which directories are required ...?", "What are the
# main components of X?"), or "list / name / enumerate", opening the question or its last clause, after a
# reader's situation ("When I catch X, which fields does it hold?"). Question words and English plurals, no domain term.
_ASKS_LIST = re.compile(
    r"(?:^|[,;:.?!]\s+(?=[^,;]*\?\s*$))\s*(?:(?:which|what)\s+(?:(?:are|were)\s+(?:the\s+)?(?:\w+[\s-]+){0,3}?(?P<a>[a-z]+(?<![su])s)\b|"
    r"(?:\w+[\s-]+){0,2}?(?P<b>[a-z]{3,}(?<![su])s)\s+"
    r"(?:are|were|does|do|did|must|should|can|is)\b)|(?:list|name|enumerate)\b)",
    re.IGNORECASE,
)
# A sentence that announces a list and goes on with its items: "The following directories are required in /x: ...",
# "The main features are: ...", "... as follows: ...".
_ANNOUNCES_LIST = re.compile(
    r"\b(?:the\s+following\b[^:]{0,120}|as\s+follows|are|include[sd]?|including|namely|consists?\s+of|comprises?)\s*"
    r":\s*\S",
    re.IGNORECASE,
)


def asks_list(question: str) -> bool:
    """The question asks for a list of things, which a sentence announcing one and naming its items answers."""
    return bool(_ASKS_LIST.search(question))


def announces_list(sentence: str) -> bool:
    """The sentence announces a list and goes on with its items (however long they make it)."""
    return bool(_ANNOUNCES_LIST.search(sentence))


def listed_noun(question: str) -> str:
    """The things a list question asks for ("Which functions are left ...?": "functions"), or ""."""
    match = _ASKS_LIST.search(question)
    return (match.group("a") or match.group("b") or "") if match else ""


def announces_listed(sentence: str, noun: str) -> bool:
    """The sentence announces a list of the things named ("... only the following eight functions: A, B, C")."""
    match = _ANNOUNCES_LIST.search(sentence)
    head = sentence[: match.end()].rsplit(":", 1)[0] if match else ""
    return bool(head and noun) and bool(set(tokenize(noun)) & set(tokenize(head)))


# A question asking why, and the words a sentence states a cause or a purpose with: generic English connectives,
# few (an explanation's answer gives its reason with one of them).
_ASKS_WHY = re.compile(r"\bwhy\b", re.IGNORECASE)
_CAUSE = re.compile(
    r"\b(?:because|since|due\s+to|so\s+that|in\s+order\s+to|to\s+avoid|to\s+prevent|as\s+a\s+result|therefore|"
    r"thus|hence|allows?|enables?|ensures?)\b",
    re.IGNORECASE,
)


def asks_why(question: str) -> bool:
    """The question asks for a reason."""
    return bool(_ASKS_WHY.search(question))


def states_cause(sentence: str) -> bool:
    """The sentence gives a cause or a purpose ("... because the cache is shared", "... to avoid a second pass")."""
    return bool(_CAUSE.search(sentence))


def asks_only_by_year(question: str) -> bool:
    """The question asks for a figure only by naming a year ("Is X a capital-intensive business based on FY2022
    data?", "Who are X's customers as of FY2022?"): a judgment or a description of that year, which a table row
    answers only when its label names what is asked about."""
    return asks_figure(question) and not _ASKS_QUANTITY.search(question)


# "Table 3 lists the sizes of the keys for each set.": where the figures are, not the figures. "Table 1 shows that
# X outperforms Y" and "Figure 2 shows the results: ..." state a finding, and a pointer is short.
_POINTER = re.compile(
    r"^(?:table|figure|fig\.|section|appendix|chapter)\s+[A-Z]?\d+(?:\.\d+)*\s+(?P<verb>lists|shows|gives|summari[sz]es|"
    r"presents|describes|compares|reports|provides|contains|illustrates|depicts)\s+(?!that\b)[^:;]{0,160}$",
    re.IGNORECASE,
)


_COLON = re.compile(r":\s")
# Items after a colon: "...: 1. Misuses of ...", "...: (a) ...", "...: • ...".
_ITEMS_AFTER = re.compile(r":\s*(?:\d{1,2}[.)]|\(?[a-z]\)|[•◦▪‣])\s+\S")
_POINTS = re.compile(r"\b(?:section|chapter|appendix|part)\s+\d", re.IGNORECASE)


def is_meta(sentence: str, run_in_words: int = 6) -> bool:
    """A sentence about the document (where things are, what a section does), not about its subject. A pointer to a
    table that states figures itself ("Table 3 lists key sizes of 128 and 256 bits") is about the subject, and so
    is one that goes on to list its items ("three classes, discussed in the next sections: 1. Misuses of ...", "The
    tokens are as follows: $QZROOT This expands to the directory ...": at least `run_in_words` words after the
    colon, none of them pointing elsewhere)."""
    items = _ITEMS_AFTER.search(sentence)
    if items and not _POINTS.search(sentence[items.start() :]):
        return False  # items that are no pointers themselves ("1) Section 2 presents ...")
    # A colon ending a clause (not a URL's, a time's, "10:30", or a ratio's): what runs on after it is stated, even
    # after a pointer run into it ("See the section below. -q / --quiet: Sets the gate to ...").
    colon = _COLON.search(sentence)
    rest = sentence[colon.end() :] if colon else ""
    if len(rest.split()) >= run_in_words and not (_META.search(rest) or _POINTS.search(rest)):
        return False  # the items announced run on in the sentence
    pointer = _POINTER.match(sentence.strip())
    return bool(_META.search(sentence) or (pointer and not re.search(r"\d", sentence[pointer.end("verb") :])))


def is_row(sentence: str) -> bool:
    return is_row_line(sentence)


def unreadable(sentence: str, question: str, settings: AnswerSettings | None = None) -> str | None:
    """Why the sentence cannot stand in an answer to the question, or None when it can. Consecutive bare figures
    ("43.5 (1.0) 3.1 (3.3)") are a table's cells run into prose: without their labels no reader can tell what they
    are (prose lists figures with words between them)."""
    s = settings or AnswerSettings()
    text = sentence.strip()
    if not text:
        return "empty"
    first = text.split()[0]
    # "iPhone", "pH", "k-means" and "vLLM" open sentences too, and so does an entry named in lower case ("auth
    # {boolean} Whether to ...", "fullname The full name of ...").
    if first.isalpha() and first.islower() and not lower_case_entry(text):
        return "a fragment: it starts mid-sentence"
    if re.search(r"[A-Za-z]-\.?$", text) or text[-1] in ",:;":
        return "a fragment: it stops mid-sentence"
    if open_brackets(text) < 0:
        return "a fragment: it starts inside a bracket"  # "Report 7-B) filed with ...": a chunk opened mid-sentence
    letters = [c for c in text if c.isalpha()]
    if len(letters) >= 12 and sum(c.isupper() for c in letters) > s.capitals_share * len(letters):
        return "a heading in capitals"
    opening = [w for w in text.split()[:4] if any(c.isalpha() for c in w)]
    if len(opening) == 4 and all(w.isupper() and len(w) > 1 for w in opening):
        return "a heading in capitals"  # glued to the text after it
    if _title_line(text):
        return "a title: every word capitalised, no figure"
    if _opening_title_run(text) >= s.title_run and not is_row(text):  # a row's label may be long
        return "a title block, headings or a figure's labels run together"
    if text.endswith("?"):
        return "a question, not an answer"
    if _LEADERS.search(text):
        return "a contents or index line"
    if _CONTACT.search(text):
        return "an address or contact line"
    if _cross_references(words := text.split()) and not _ASKS_REFERENCES.search(question):
        return "a list of references to other pages"
    if (_CAPTION.match(text) or _CAPTION_INSIDE.search(text)) and not _ASKS_VISUAL.search(question):
        return "a caption"
    if is_row(text):
        if header_row(text):
            return "a table's column headers"
        values = row_cells(text)[1:]
        figures = [c for c in values if is_figure(c)]
        if len(figures) >= s.headerless_cells and not any(cell_parts(c) for c in values):
            return "a table row whose figures have no column headers"  # which one is which year?
        return None
    numbers = sum(bool(_NUMBER.match(w)) for w in words)
    if numbers > s.number_share * len(words) and not asks_figure(question):
        return "mostly numbers"
    if _longest_run(words) >= s.figure_run:
        return "a run of table figures without their labels"
    if opens_with_notation(text, question, s):
        return "an equation, pseudo-code or a figure's text"
    if _numbered_steps(text) and not ASKS_MATH.search(question):
        return "pseudo-code: numbered lines run together"
    return None


# A page named with its section ("qzgate(7)", "qz.conf(5),"): a run of them is a "see also" list, not a statement.
_PAGE_REFERENCE = re.compile(r"^[\w.+-]+\(\d\w{0,3}\)[,.;]?$")
_ASKS_REFERENCES = re.compile(
    r"\bsee\s+also\b|\brelated\b|\b(?:manual|man)\s+pages?\b|\breferences?\b|\brefers?\b|\bdocumented\b|"
    r"\bdescribed\b",
    re.IGNORECASE,
)


def _cross_references(words: list[str]) -> bool:
    """A run of at least four pages named with their sections, one after another ("qz(1), qzd(8), gates(7),
    locks(7)"; "malloc(3), calloc(3), realloc(3) and free(3)" lists what the sentence speaks of); or a "see also"
    section's opening, its heading then a page ("SEE ALSO qz(1), qzd(8) ...", "See Also: gates(7)")."""
    if [w.rstrip(":").lower() for w in words[:2]] == ["see", "also"] and _PAGE_REFERENCE.match(
        next(iter(words[2:3]), "")
    ):
        return True
    run = longest = 0
    for word in words:
        run = run + 1 if _PAGE_REFERENCE.match(word) else 0
        longest = max(longest, run)
    return longest >= 4


_STEP = re.compile(r"(?:(?P<label>[A-Za-z]+)\s+)?(?<![\w.,:])(?P<n>\d{1,2}):\s")


def _numbered_steps(text: str) -> bool:
    """Three or more lines numbered "1:", "2:", "3:" in sequence run into one sentence: an algorithm's listing,
    whatever symbols it uses ("1: d <- B^32 2: z <- B^32 3: return (ek, dk)"). A time ("6:30") has no space, and an
    enumeration labels each number with the same word ("Arm 1: placebo, Arm 2: 10 mg, Arm 3: 20 mg")."""
    found = [(int(m.group("n")), (m.group("label") or "").lower()) for m in _STEP.finditer(text)]
    for i in range(len(found) - 2):
        run = found[i : i + 3]
        labels = {w for _, w in run}
        if [n for n, _ in run] == [run[0][0], run[0][0] + 1, run[0][0] + 2] and not (len(labels) == 1 and all(labels)):
            return True
    return False


# The small words a title leaves in lower case ("Statements of Cash Flows"): generic English function words.
_TITLE_SMALL = frozenset(
    {"of", "and", "the", "in", "to", "for", "on", "a", "an", "at", "by", "with", "or", "per", "except", "using", "via"}
)


_SECTION_NUMBER = re.compile(r"^\d{1,2}(?:\.\d+)*\.?\s+")  # "4.2 ", "7 "; not a year ("2019 Sales ...")


def _title_line(text: str) -> bool:
    """A title or a heading run into one line ("Consolidated Balance Sheets ACME, INC.", "4.2 RESULTS Model Size"), a
    name list: three words or more after any section number, each capitalised but the small ones, and no figure. A
    sentence has a verb in lower case."""
    text = _SECTION_NUMBER.sub("", text)
    words = [w.strip("().,;:") for w in text.split()]
    big = [w for w in words if any(ch.isalpha() for ch in w) and w.lower() not in _TITLE_SMALL]
    return len(big) >= 3 and not any(ch.isdigit() for ch in text) and all(w[:1].isupper() for w in big)


# "Model", "Multi-Billion", "X-Large"; not "GContext" (a name in code)
_TITLE_WORD = re.compile(r"^[A-Z](?:[a-z]+|-[A-Za-z]+)(?:-[A-Za-z]+)*$")
_ACRONYM = re.compile(r"^[A-Z]{2,}(?:-?\d+)?$")  # "NSP", "GPT-3" among capitalised words


def _opening_title_run(text: str) -> int:
    """How many capitalised words the text opens with, one after another: small words and one-digit marks (an
    author's affiliations: "Ann Qz 1 2 Bo Zed 2") between them count for nothing; a longer number ends the run (a
    table's row read as a sentence: "Ann Qz 64 Chief Officer and Vice President ..."). Prose soon has a word in lower
    case; a title block, a contents list or a figure's axis labels read into the text do not ("Small Medium Large
    Model Size Performance (%) ...")."""
    run = 0
    for n, word in enumerate(_SECTION_NUMBER.sub("", text).split()):
        bare = word.strip('().,;:"“”')
        if n == 0 and word.endswith(":"):
            continue  # a title's leading name, in code or not ("QzNet: Fast Gates for ...")
        if bare.lower() in _TITLE_SMALL or (bare.isdigit() and len(bare) == 1) or word in {"(%)", "-", "&"}:
            continue  # "The", "Of" count for nothing either
        if not (_TITLE_WORD.match(bare) or (run and _ACRONYM.match(bare))):
            break
        run += 1
        if word.endswith(","):
            break  # names listed in prose ("Ann Qz, Bo Zed, ... founded the firm"); a title block has no commas
    return run


def _longest_run(words: list[str]) -> int:
    """The most bare figures (or lone signs of one) in a row among the words."""
    longest = run = 0
    for word in words:
        run = run + 1 if _NUMBER.match(word.strip(",;")) or word in {"%", "$", "—", "-"} else 0
        longest = max(longest, run)
    return longest


# A paragraph's run-in heading read into its first sentence ("Student initialization In addition to ...", "Dividend
# Policy We implemented ...", "EMPLOYEES As of May 31, we had ..."): up to six words, the first capitalised, then a
# word that opens a sentence and a lower-case word.
_RUN_IN = re.compile(
    rf"^(?P<head>[A-Z][\w’'-]*(?:\s+(?:[a-z][\w’'-]*|[A-Z][\w’'-]*|\([A-Z]{{2,}}\))){{0,5}}?)\s+"
    rf"(?=(?:{SENTENCE_OPENERS})\s+(?!and\b|or\b|nor\b)[a-z])"  # "Changes In and Disagreements": a title, not a run-in
)


_DOUBLED = re.compile(r"^([A-Z][\w’'-]*) \1\s+(?=[a-z])")


def with_run_in_heading(sentence: str) -> str:
    """The sentence with a run-in heading it opens with set off by a colon ("Student initialization: In addition to
    ..."), else as it is. A heading ends in a word that can end one (not "of", "the")."""
    doubled = _DOUBLED.match(sentence)
    if doubled and is_common_word(doubled.group(1)):  # "Seals Seals for the pumps ...", not a name ("Zib Zib")
        return f"{doubled.group(1)}: {sentence[doubled.end(1) + 1 :]}"
    match = _RUN_IN.match(sentence)
    if not match or len(match.group("head")) >= len(sentence) // 2:
        return sentence
    last = match.group("head").split()[-1].lower()
    if last in STOPWORDS:
        return sentence
    return f"{match.group('head')}: {sentence[match.end() :]}"
