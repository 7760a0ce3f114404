"""What the parser produces: pages of lines with their boxes, and the document's card. Plain dataclasses, because
they cross from the parser processes by pickling and are never stored as such (chunks are)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(slots=True)
class Line:
    """One text line (or table row) in reading order, with its box in top-left-origin points."""

    text: str
    x0: float
    top: float
    x1: float
    bottom: float
    size: float = 0.0
    bold: bool = False
    kind: str = "text"  # text | heading | table | footnote
    level: int = 0
    # The line ends inside a word (a hyphenated line break): the next line follows without a space.
    glue: bool = False
    # The line ends with a hyphen at a line break that is not yet known to be part of the word.
    broken: bool = False
    # The line's words with their boxes (x0, top, x1, bottom, text): read by the table finders, then dropped.
    words: list[tuple[float, float, float, float, str]] | None = None


@dataclass(slots=True)
class Page:
    number: int
    width: float
    height: float
    lines: list[Line] = field(default_factory=list)
    kind: str = "body"  # body | contents (a contents, index or list-of-tables page)
    ocr: bool = False  # the lines were read by OCR from the page's image (see kb.ocr)


@dataclass(slots=True)
class Card:
    """What tells a document apart, read from its first pages (see kb.cards)."""

    title: str = ""
    organisation: str = ""
    period: str = ""
    name: str = ""  # the file name as a person wrote it ("ACME_2024_20R" -> "ACME 2024 20R")
    form_cover: int = 0  # the page number of a form's cover (fields under captions), 0 when the cover is no form


@dataclass(slots=True)
class ParsedDocument:
    doc_id: str
    title: str
    pages: list[Page]
    tables: int = 0
    card: Card = field(default_factory=Card)
    # Lines dropped as page furniture (running headers and footers, page numbers, margin line numbers).
    furniture: int = 0
    # One line per page (or run of pages) left out, and why: a blank image, nothing OCR could read.
    notes: list[str] = field(default_factory=list)
