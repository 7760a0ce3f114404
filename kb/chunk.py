"""Parsed lines → token-sized chunks that span at most two pages and never cross a document."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence

from kb.headings import title_shape
from kb.models import Chunk, Region
from kb.parsed import Line, ParsedDocument
from kb.table_heads import head_text, table_heads

TokenCounter = Callable[[Sequence[str]], list[int]]
_SENTENCE_END = (".", "?", "!", ":", ";")


def chunk_id(doc_id: str, ordinal: int, text: str) -> str:
    """Deterministic id: same document, position and text give the same id on every ingestion."""
    digest = hashlib.sha1(f"{doc_id}\x00{ordinal}\x00{text}".encode()).hexdigest()[:10]
    return f"{doc_id}:{ordinal:05d}:{digest}"


def _join(lines: list[Line]) -> str:
    out = ""
    prev: Line | None = None
    for ln in lines:
        if prev is None:
            out = ln.text
        elif prev.glue:
            out += ln.text  # a word hyphenated at the line break
        elif prev.kind in ("table", "heading") or ln.kind in ("table", "heading"):
            out += "\n" + ln.text
        else:
            out += " " + ln.text
        prev = ln
    return out.strip()


def _continues(previous: Line, line: Line) -> bool:
    """Across a page break, a chunk goes on with running text. A heading, a table, or a line shaped like a title (a
    statement's or a section's name the parser did not take for a heading) after the break starts a chunk of its
    own, as does a table that ends the page before it."""
    if previous.kind != "text" or line.kind != "text":
        return False
    if previous.glue or not previous.text.endswith(_SENTENCE_END):
        return True  # a sentence runs over the break
    return not title_shape(line.text)


def _title_like(line: Line) -> bool:
    """A heading, or a short text line shaped like a title; one ending in a full stop only when every word is
    capitalised (a company's name, "Harbour Ferries Inc.", not a short sentence)."""
    if line.kind == "heading":
        return True
    text = line.text.strip()
    if line.kind != "text" or not title_shape(text.rstrip(".")):
        return False
    return not text.endswith(".") or all(w[0].isupper() for w in text.split() if w[0].isalpha())


def _regions(lines: list[tuple[int, Line]], doc: ParsedDocument) -> list[Region]:
    boxes: dict[int, list[float]] = {}
    for page_no, ln in lines:
        if ln.x1 <= ln.x0 and ln.bottom <= ln.top:
            continue  # no geometry (text offsets did not map to characters)
        box = boxes.setdefault(page_no, [ln.x0, ln.top, ln.x1, ln.bottom])
        box[0], box[1] = min(box[0], ln.x0), min(box[1], ln.top)
        box[2], box[3] = max(box[2], ln.x1), max(box[3], ln.bottom)
    pages = {p.number: p for p in doc.pages}
    return [
        Region(page=n, x0=b[0], top=b[1], x1=b[2], bottom=b[3], width=pages[n].width, height=pages[n].height)
        for n, b in sorted(boxes.items())
    ]


def _split_long(ln: Line, tokens: int, limit: int) -> list[tuple[Line, int]]:
    """Cut an over-long line (a huge table row, a line without breaks) into word windows."""
    words = ln.text.split()
    parts = max(2, -(-tokens // limit))
    size = -(-len(words) // parts)
    pieces = [" ".join(words[i : i + size]) for i in range(0, len(words), size)]
    per = -(-tokens // len(pieces))
    lines = [(Line(p, ln.x0, ln.top, ln.x1, ln.bottom, ln.size, ln.bold, ln.kind, ln.level), per) for p in pieces]
    lines[-1][0].glue = ln.glue
    return lines


def chunk_document(
    doc: ParsedDocument,
    count_tokens: TokenCounter,
    target: int = 160,
    limit: int = 220,
    min_tokens: int = 48,
) -> list[Chunk]:
    """Greedy packing of lines: close at a sentence end past `target`, always before `limit`, at a new section
    once past `min_tokens`, at a page break unless a sentence runs over it, and before a chunk would reach a third
    page. A chunk of a contents page is marked as such; one that opens inside a table carries the table's head."""
    flat = [(page.number, ln) for page in doc.pages for ln in page.lines]
    kinds = {page.number: page.kind for page in doc.pages}
    read = {page.number for page in doc.pages if page.ocr}
    counts = count_tokens([ln.text for _, ln in flat]) if flat else []
    heads = table_heads(doc.pages)
    items: list[tuple[int, Line, int]] = []
    head_of: dict[int, list[Line]] = {}  # by line id, the head of a table line's table (pieces of a split row too)
    for (page_no, ln), n in zip(flat, counts):
        parts = _split_long(ln, n, limit) if n > limit else [(ln, n)]
        for part, k in parts:
            items.append((page_no, part, k))
            if id(ln) in heads:
                head_of[id(part)] = heads[id(ln)]

    chunks: list[Chunk] = []
    current: list[tuple[int, Line]] = []
    size = 0
    section_stack: list[tuple[int, str]] = []
    chunk_section = ""

    notes: list[tuple[int, Line, int]] = []  # footnotes met, kept out of the running text until its chunk closes

    def emit(group: list[tuple[int, Line]]) -> None:
        lines = [ln for _, ln in group]
        text = _join(lines)
        if not text:
            return
        ordinal = len(chunks)
        # A chunk opening inside a table (after its headings, if any) carries the table's head.
        first = next((ln for ln in lines if ln.kind != "heading"), lines[0])
        head = head_text(head_of[id(first)], {id(ln) for ln in lines}) if id(first) in head_of else ""
        chunks.append(
            Chunk(
                chunk_id=chunk_id(doc.doc_id, ordinal, text),
                doc_id=doc.doc_id,
                ordinal=ordinal,
                start_page=group[0][0],
                end_page=group[-1][0],
                section=chunk_section,
                title=doc.title,
                text=text,
                head=head,
                regions=_regions(group, doc),
                kind="contents" if kinds[group[0][0]] == "contents" else "body",
                ocr=group[0][0] in read or group[-1][0] in read,
            )
        )

    def close() -> None:
        """The chunk under way, then each page's footnotes met meanwhile as chunks of their own (within `limit`)."""
        nonlocal current, size
        if current:
            emit(current)
        current, size = [], 0
        for page in dict.fromkeys(p for p, _, _ in notes):
            group: list[tuple[int, Line]] = []
            tokens = 0
            for p, ln, n in notes:
                if p != page:
                    continue
                if group and tokens + n > limit:
                    emit(group)
                    group, tokens = [], 0
                group.append((p, ln))
                tokens += n
            if group:
                emit(group)
        notes.clear()

    page_tops = {id(page.lines[0]) for page in doc.pages if page.lines and page.number > 1}
    for page_no, ln, n in items:
        if ln.kind == "footnote":
            notes.append((page_no, ln, n))  # the text around them reads on as if they were not there
            continue
        if current and (
            page_no > current[0][0] + 1
            or size + n > limit
            or (ln.kind == "heading" and size >= min_tokens)
            or (
                page_no != current[-1][0]
                and (kinds[page_no] != kinds[current[-1][0]] or not _continues(current[-1][1], ln))
            )
        ):
            close()
        if ln.kind == "heading":
            while section_stack and section_stack[-1][0] >= ln.level:
                section_stack.pop()
            section_stack.append((ln.level, ln.text))
        # A chunk opening with a run of headings is labelled by the last of them, as is a page that opens with
        # title-like lines the parser did not take for headings over one it did (a company's name over a statement's
        # title). A cover's lines under its title (authors) label nothing: page 1 has no entry in `page_tops`.
        if (
            not current
            or all(line.kind == "heading" for _, line in current)
            or (
                ln.kind == "heading"
                and id(current[0][1]) in page_tops
                and all(p == page_no and _title_like(line) for p, line in current)
            )
        ):
            chunk_section = " > ".join(text for _, text in section_stack)
        current.append((page_no, ln))
        size += n
        if size >= target and ln.kind != "heading" and not ln.glue and ln.text.endswith(_SENTENCE_END):
            close()
    close()
    return chunks
