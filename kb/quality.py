"""Parse-quality figures of a store: highlight regions, titles, section labels, running headers and footers that
leaked into chunks, margin line numbers, contents chunks and document cards.

Running lines are found from the PDFs themselves with pypdfium2, independently of kb's parser: per page, the three
top-most and three bottom-most lines; a line (casefolded, digit runs as "#", whitespace collapsed) is running when it
stands there on at least max(3, 25% of the document's pages) pages. A chunk leaks when one of its pages' running lines
(3 letters or more) appears in its text, or when a page marker without letters ("60", "- 60 -") is its first or last
token (not counting the number of a heading that opens the chunk, as "3 Method" on page 3).

Only the public surface of the knowledge base is read (documents() and lexical().records), and fields that older
stores lack (a chunk's `kind`, a record's `organisation` and `period`) are optional, so the figures can be taken from
older checkouts too.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

EDGE_LINES = 3  # lines taken from the top and from the bottom of every page
MIN_RUNNING_PAGES = 3
RUNNING_SHARE = 0.25
IDS_SHOWN = 20
YEARS = (1900, 2100)  # runs of these are year columns, not line numbers
_DIGITS = re.compile(r"\d+")
_INVISIBLE = dict.fromkeys(map(ord, "\ufffe\u00ad\x00\x02"), None)

REGIONS_TARGET = 0.98
LEAK_TARGET = 0.01
DOMINANT_TARGET = 0.10


class LeakedLine(BaseModel):
    """A running header or footer line found in chunk text."""

    line: str = Field(description="The running line, casefolded, digit runs written '#', whitespace collapsed.")
    chunks: int = Field(description="Chunks holding it.")


class Target(BaseModel):
    """One parse-quality figure against its target."""

    name: str = Field(description="What is measured.")
    value: str = Field(description="The measured figure, formatted.")
    target: str = Field(description="The target, formatted.")
    met: bool = Field(description="Whether the figure meets the target.")


class ParseQuality(BaseModel):
    """Parse-quality figures of one store."""

    documents: int = Field(description="Committed documents.")
    chunks: int = Field(description="Chunks of the committed documents.")
    regions_share: float = Field(description="Share of chunks with at least one highlight region.")
    untitled_docs: list[str] = Field(description="Documents whose title is empty or blank.")
    duplicate_title_docs: list[str] = Field(
        description="Documents whose title (casefolded, whitespace collapsed) equals another document's."
    )
    dominant_section_docs: list[str] = Field(
        description="Documents whose most common non-empty section label covers more than half of their chunks."
    )
    unlabelled_share: float = Field(description="Share of chunks with an empty section label (for information).")
    running_line_share: float = Field(description="Share of chunks holding a running header or footer line.")
    running_line_chunks: int = Field(description="Chunks holding a running header or footer line.")
    running_line_docs: int = Field(description="Documents in which running header or footer lines were found.")
    top_leaked_lines: list[LeakedLine] = Field(description="The most frequent running lines found in chunks (top 5).")
    unread_docs: list[str] = Field(
        description="Documents whose PDF could not be found or read: not checked for running lines."
    )
    line_number_run_chunks: int = Field(
        description="Chunks holding a run of 4 or more consecutive integers separated only by whitespace "
        "(margin line numbers such as '505 506 507 508'); runs of years (1900-2100) do not count."
    )
    line_number_run_ids: list[str] = Field(description=f"chunk_id of those chunks (the first {IDS_SHOWN}).")
    contents_chunks: int = Field(description="Chunks whose kind is 'contents' (0 where stores have no kind field).")
    organisation_docs: int = Field(description="Documents whose record names an organisation (document card).")
    period_docs: int = Field(description="Documents whose record names a period (document card).")

    def targets(self) -> list[Target]:
        """Each figure that has a target, with whether it is met."""
        dominant = len(self.dominant_section_docs) / self.documents if self.documents else 0.0
        rows = [
            (
                "chunks with a region",
                f"{self.regions_share:.3f}",
                f"≥ {REGIONS_TARGET}",
                self.regions_share >= REGIONS_TARGET,
            ),
            ("untitled documents", str(len(self.untitled_docs)), "0", not self.untitled_docs),
            ("duplicate titles", str(len(self.duplicate_title_docs)), "0", not self.duplicate_title_docs),
            (
                "header/footer leakage",
                f"{100 * self.running_line_share:.1f}%",
                f"≤ {100 * LEAK_TARGET:g}%",
                self.running_line_share <= LEAK_TARGET,
            ),
            ("line-number runs", str(self.line_number_run_chunks), "0", self.line_number_run_chunks == 0),
            (
                "docs with one dominant section",
                f"{100 * dominant:.0f}%",
                f"≤ {100 * DOMINANT_TARGET:g}%",
                dominant <= DOMINANT_TARGET,
            ),
        ]
        return [Target(name=name, value=value, target=target, met=met) for name, value, target, met in rows]


# pure figures --------------------------------------------------------------------------------------------------------
def _norm(text: str) -> str:
    """Casefolded, NFKC (ligatures spelled out), invisible marks dropped, whitespace collapsed."""
    return " ".join(unicodedata.normalize("NFKC", text.translate(_INVISIBLE)).casefold().split())


def line_key(line: str) -> str:
    """A running line's key: normalised, every run of digits written '#' (so 'Page 7' and 'Page 60' agree)."""
    return _DIGITS.sub("#", _norm(line))


def has_line_number_run(text: str, length: int = 4) -> bool:
    """True when `length` or more whitespace-separated integers follow each other, each one more than the last.
    A run of years (1900-2100: the column heads of a maturity schedule, '2019 2020 2021 2022 2023') is not one."""
    run, previous = 0, None
    for token in text.split():
        value = int(token) if token.isascii() and token.isdigit() else None
        follows = value is not None and previous is not None and value == previous + 1
        run = run + 1 if follows else int(value is not None)
        if run >= length and not (YEARS[0] <= value - run + 1 and value <= YEARS[1]):
            return True
        previous = value
    return False


def untitled(titles: dict[str, str]) -> list[str]:
    """Documents ({doc_id: title}) whose title is empty or blank."""
    return sorted(doc for doc, title in titles.items() if not title.strip())


def duplicate_titles(titles: dict[str, str]) -> list[str]:
    """Documents whose normalised non-blank title equals another document's."""
    groups: dict[str, list[str]] = defaultdict(list)
    for doc, title in titles.items():
        if title.strip():
            groups[_norm(title)].append(doc)
    return sorted(doc for docs in groups.values() if len(docs) > 1 for doc in docs)


def dominant_sections(records: Iterable[dict[str, Any]]) -> list[str]:
    """Documents whose most common non-empty section label covers more than half of their chunks."""
    chunks: Counter[str] = Counter()
    labels: dict[str, Counter[str]] = defaultdict(Counter)
    for r in records:
        chunks[r["doc_id"]] += 1
        if (r.get("section") or "").strip():
            labels[r["doc_id"]][r["section"].strip()] += 1
    return sorted(doc for doc, count in labels.items() if count.most_common(1)[0][1] > chunks[doc] / 2)


# running lines -------------------------------------------------------------------------------------------------------
def _page_lines(textpage: Any) -> list[tuple[float, float, str]]:
    """(top, bottom, text) of every non-blank line of a page, positions of its first character in PDF units."""
    import pypdfium2.raw as pdfium_c

    count = textpage.count_chars()
    if count <= 0:
        return []
    text = textpage.get_text_range(0, count)
    if len(text) != count:  # offsets would not map to char indices: read char by char instead
        text = "".join(chr(pdfium_c.FPDFText_GetUnicode(textpage.raw, i) or 32) for i in range(count))
    lines = []
    for match in re.finditer(r"[^\r\n]+", text):
        segment = match.group()
        clean = " ".join(segment.translate(_INVISIBLE).split())
        if not clean:
            continue
        first = match.start() + len(segment) - len(segment.lstrip())
        _, bottom, _, top = textpage.get_charbox(first)
        lines.append((top, bottom, clean))
    return lines


def running_lines(pdf: Path) -> dict[int, list[str]]:
    """{1-based page: the running lines standing on its edges, as written there}; empty under 3 pages."""
    import pypdfium2 as pdfium

    edges: dict[int, dict[str, str]] = {}
    document = pdfium.PdfDocument(str(pdf))
    try:
        pages = len(document)
        if pages < MIN_RUNNING_PAGES:
            return {}
        for index in range(pages):
            page = document[index]
            textpage = page.get_textpage()
            try:
                lines = _page_lines(textpage)
            finally:
                textpage.close()
                page.close()
            top = sorted(lines, key=lambda line: -line[0])[:EDGE_LINES]
            bottom = sorted(lines, key=lambda line: line[1])[:EDGE_LINES]
            edges[index + 1] = {line_key(text): text for _, _, text in top + bottom if any(c.isalnum() for c in text)}
    finally:
        document.close()
    seen = Counter(key for keys in edges.values() for key in keys)
    least = max(MIN_RUNNING_PAGES, RUNNING_SHARE * pages)
    running = {key for key, n in seen.items() if n >= least}
    return {page: [text for key, text in keys.items() if key in running] for page, keys in edges.items()}


def _opens_with_heading(record: dict[str, Any]) -> bool:
    """The chunk's first line is its own section heading (as '3 Method' on page 3: a number, but not a marker)."""
    heading = _norm((record.get("section") or "").split(" > ")[-1])
    return bool(heading) and _norm(record["text"].lstrip().split("\n", 1)[0]).startswith(heading)


def leaked_lines(record: dict[str, Any], running: dict[int, list[str]], title: str = "") -> set[str]:
    """Keys of the running lines of the chunk's pages that its text holds (see the module's docstring). On the
    first page, a running line that is the document's `title` is the cover's title, not furniture."""
    text = _norm(record["text"])
    heading = _opens_with_heading(record)
    found = set()
    for page in range(record["start_page"], record["end_page"] + 1):
        for line in running.get(page, []):
            norm = _norm(line)
            if page == 1 and title and norm == _norm(title):
                continue
            if sum(c.isalpha() for c in norm) >= 3:
                hit = norm in text
            else:  # a page marker: only as the chunk's first or last token(s), not as its heading's number
                hit = text == norm or (text.startswith(norm + " ") and not heading) or text.endswith(" " + norm)
            if hit:
                found.add(line_key(line))
    return found


# the store -----------------------------------------------------------------------------------------------------------
def _pdf_of(record: Any, pdf_dir: Path | None) -> Path | None:
    source = Path(record.source) if record.source else None
    if source is not None and source.is_file():
        return source
    fallback = pdf_dir / f"{record.doc_id}.pdf" if pdf_dir else None
    return fallback if fallback is not None and fallback.is_file() else None


def measure(kb: Any, pdf_dir: Path | None = None, progress: Callable[[str], None] | None = None) -> ParseQuality:
    """Parse-quality figures of a KnowledgeBase's committed documents. `pdf_dir` holds `<doc_id>.pdf` for documents
    whose catalogued source path no longer exists; `progress` is called with each doc_id once its PDF is read."""
    docs = [d for d in kb.documents() if d.status == "committed"]
    records = kb.lexical().records
    by_doc: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in records:
        by_doc[r["doc_id"]].append(r)
    titles = {d.doc_id: d.title or "" for d in docs}

    leaking, leaks, unread, running_docs = 0, Counter(), [], 0
    for d in docs:
        pdf = _pdf_of(d, pdf_dir)
        running: dict[int, list[str]] = {}
        try:
            running = running_lines(pdf) if pdf else {}
        except Exception:  # noqa: BLE001 - an unreadable PDF is listed, not fatal to the figures
            pdf = None
        if pdf is None:
            unread.append(d.doc_id)
        running_docs += any(running.values())
        for r in by_doc.get(d.doc_id, []):
            found = leaked_lines(r, running, titles[d.doc_id])
            leaking += bool(found)
            leaks.update(found)
        if progress:
            progress(d.doc_id)

    n = len(records)
    runs = [r["chunk_id"] for r in records if has_line_number_run(r["text"])]
    return ParseQuality(
        documents=len(docs),
        chunks=n,
        regions_share=round(sum(bool(r.get("regions")) for r in records) / n, 4) if n else 0.0,
        untitled_docs=untitled(titles),
        duplicate_title_docs=duplicate_titles(titles),
        dominant_section_docs=dominant_sections(records),
        unlabelled_share=round(sum(not (r.get("section") or "").strip() for r in records) / n, 4) if n else 0.0,
        running_line_share=round(leaking / n, 4) if n else 0.0,
        running_line_chunks=leaking,
        running_line_docs=running_docs,
        top_leaked_lines=[LeakedLine(line=key, chunks=count) for key, count in leaks.most_common(5)],
        unread_docs=unread,
        line_number_run_chunks=len(runs),
        line_number_run_ids=runs[:IDS_SHOWN],
        contents_chunks=sum((r.get("kind") or "body") == "contents" for r in records),
        organisation_docs=sum(bool(str(getattr(d, "organisation", "") or "").strip()) for d in docs),
        period_docs=sum(bool(str(getattr(d, "period", "") or "").strip()) for d in docs),
    )
