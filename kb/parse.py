"""PDF → page-accurate lines with boxes, and the document's card.

pypdfium2 reads each page's characters, boxes and rules fast (kb.page_text, kb.page_objects); pdfplumber's table
finder, fed from pdfium's rules, turns ruled tables into rows (kb.ruled_tables). The document is then cleaned as a
whole: page furniture dropped (kb.furniture), contents pages marked (kb.contents), unruled tables turned into rows
with their headers (kb.unruled_tables), line-break hyphens settled (kb.hyphenation), headings marked
(kb.headings), and the card read from the first pages (kb.cards).
"""

from __future__ import annotations

import os
import signal
from pathlib import Path
from typing import TYPE_CHECKING

import pypdfium2 as pdfium

from kb.cards import read_card
from kb.contents import mark_contents_pages
from kb.footnotes import mark_footnotes
from kb.furniture import remove_furniture
from kb.headings import mark_headings
from kb.hyphenation import resolve_hyphens
from kb.ocr import OcrProgress, needs_ocr, recognise, stop_all
from kb.page_objects import scan
from kb.page_text import read_lines
from kb.parsed import Line, Page, ParsedDocument
from kb.ruled_tables import ruled_tables
from kb.unruled_tables import unruled_tables

if TYPE_CHECKING:  # pydantic: imported with a job's settings, not while a parser process starts (see start_worker)
    from multiprocessing.queues import SimpleQueue

    from kb.ocr_settings import OcrSettings

__all__ = ["Line", "Page", "ParseError", "ParsedDocument", "check_file", "parse_or_reason", "parse_pdf"]

_MIN_TEXT_CHARS = 20


class ParseError(Exception):
    """A file that cannot be ingested; the message is the one-line reason (without the file name)."""


def check_file(path: Path, max_mb: float) -> None:
    """Cheap checks before parsing: size, emptiness, PDF header, end-of-file marker."""
    size = path.stat().st_size
    if size == 0:
        raise ParseError("empty file")
    if size > max_mb * 1024 * 1024:
        raise ParseError(f"file is {size / 1048576:.1f} MB, over the {max_mb:g} MB limit")
    with path.open("rb") as fh:
        head = fh.read(1024)
        fh.seek(max(0, size - 4096))
        tail = fh.read()
    if b"%PDF-" not in head:
        raise ParseError("not a PDF (no %PDF header)")
    if b"%%EOF" not in tail:
        raise ParseError("truncated or damaged PDF (no end-of-file marker)")


def _open(path: Path) -> pdfium.PdfDocument:
    try:
        return pdfium.PdfDocument(str(path))
    except pdfium.PdfiumError as exc:
        msg = str(exc).lower()
        if "password" in msg:
            raise ParseError("encrypted PDF (a password is required)") from exc
        if "format" in msg or "file" in msg:
            raise ParseError("damaged PDF (cannot be parsed)") from exc
        raise ParseError(f"cannot be opened ({exc})") from exc


def _read_page(pdf: pdfium.PdfDocument, index: int, ocr: OcrSettings) -> tuple[Page, int, bool]:
    """One page's lines (ruled tables already turned into rows), the number of ruled tables, and whether the page
    is to be OCR'd instead (its text layer is missing or unusable, and it is an image)."""
    page = pdf[index]
    try:
        width, height = page.get_size()
        objects = scan(page.raw, height)
        textpage = page.get_textpage()
        try:
            parsed = Page(index + 1, width, height, read_lines(textpage, height, objects))
        finally:
            textpage.close()
    finally:
        page.close()
    if needs_ocr(parsed.lines, objects.image_area, width * height, ocr):
        return parsed, 0, True
    tables = ruled_tables(parsed, objects.edges) if objects.edges and parsed.lines else 0
    return parsed, tables, False


def parse_pdf(
    path: Path, doc_id: str, max_mb: float, ocr: OcrSettings | None = None, progress: OcrProgress | None = None
) -> ParsedDocument:
    """Parse one PDF into pages of lines, OCR'ing its image pages (`progress` hears of each page OCR'd). Raises
    ParseError with a one-line reason, also for a file that breaks a step of the parse in a way nobody foresaw."""
    if ocr is None:
        from kb.ocr_settings import OcrSettings

        ocr = OcrSettings()
    check_file(path, max_mb)
    pdf = _open(path)
    pages: list[Page] = []
    images: list[int] = []
    notes: list[str] = []
    tables = 0
    try:
        if len(pdf) == 0:
            raise ParseError("PDF has no pages")
        for index in range(len(pdf)):
            page, found, image = _read_page(pdf, index, ocr)
            pages.append(page)
            tables += found
            if image:
                images.append(index)
        if images:
            read = recognise(pdf, images, ocr, progress)
            notes = read.notes
            for index in images:  # a page OCR skipped keeps no text: its text layer was found unusable
                pages[index].lines, pages[index].ocr = read.lines.get(index, []), index in read.lines
    except pdfium.PdfiumError as exc:
        raise ParseError(f"damaged PDF ({exc})") from exc
    except ParseError:
        raise
    except Exception as exc:  # one file's failure with its reason, never a traceback
        raise ParseError(f"cannot be parsed ({type(exc).__name__}: {exc})") from exc
    finally:
        pdf.close()
    if sum(len(ln.text) for p in pages for ln in p.lines) < _MIN_TEXT_CHARS:
        if images and notes:  # why OCR read nothing: unavailable, blank pages, pictures
            raise ParseError(f"no extractable text (scanned image; {'; '.join(notes)})")
        raise ParseError("no extractable text (scanned image?)")
    try:
        parsed = _clean(doc_id, pages, tables)
    except Exception as exc:  # as above
        raise ParseError(f"cannot be parsed ({type(exc).__name__}: {exc})") from exc
    parsed.notes = notes
    return parsed


def _clean(doc_id: str, pages: list[Page], tables: int) -> ParsedDocument:
    """The document-wide steps, in order: furniture first (it would read as text, tables or headings), contents
    pages before tables (an entry's page number is no figure), hyphens before the card and headings."""
    furniture, running = remove_furniture(pages)
    mark_contents_pages(pages)
    tables += sum(unruled_tables(page) for page in pages if page.kind == "body")
    for page in pages:
        for line in page.lines:
            line.words = None  # only the table finders read them; the parsed document crosses processes
    mark_footnotes(pages)  # after the furniture (a page number under the notes), before hyphens join lines
    resolve_hyphens(pages)
    card = read_card(pages, doc_id, running)
    mark_headings(pages, card)
    return ParsedDocument(doc_id=doc_id, title=card.title, pages=pages, tables=tables, card=card, furniture=furniture)


_events: SimpleQueue | None = None  # in a parser process: where OCR progress goes (see start_worker)


def start_worker(events: SimpleQueue) -> None:
    """A parser process's start: Ctrl-C reaches the whole process group, and the parent decides what stops (the
    workers print no tracebacks of their own); stopped, it stops its tesseract processes first, which would
    otherwise outlive it; OCR progress is sent to the parent through `events`."""
    global _events
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _stop_worker)
    _events = events


def _stop_worker(signum: int, frame: object) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)  # the pool may send it twice: stop once
    stop_all()
    os._exit(128 + signum)


def parse_or_reason(
    path: str, doc_id: str, max_mb: float, ocr: OcrSettings | None = None, progress: OcrProgress | None = None
) -> ParsedDocument | str:
    """The parsed document, or the one-line reason it failed. Runs in parser processes, which import only
    this module (a fraction of a second, against most of one for the ingestion module's imports). There, OCR
    progress goes to the parent as (path, pages done, pages to OCR)."""
    if progress is None and _events is not None:
        events = _events

        def progress(done: int, total: int) -> None:
            events.put((path, done, total))

    try:
        return parse_pdf(Path(path), doc_id, max_mb, ocr, progress)
    except ParseError as exc:
        return str(exc)
    except Exception as exc:  # noqa: BLE001 - any parser crash is that file's failure, not the batch's
        return f"cannot be parsed ({type(exc).__name__}: {exc})"
