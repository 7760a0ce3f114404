"""PDF → page-accurate lines with boxes. pypdfium2 reads text, boxes and rules fast; pdfplumber's table
finder turns ruled tables into rows, fed from pdfium so pdfminer never has to lay out the page."""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c


class ParseError(Exception):
    """A file that cannot be ingested; the message is the one-line reason (without the file name)."""


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
    kind: str = "text"  # text | heading | table
    level: int = 0


@dataclass(slots=True)
class Page:
    number: int
    width: float
    height: float
    lines: list[Line] = field(default_factory=list)


@dataclass(slots=True)
class ParsedDocument:
    doc_id: str
    title: str
    pages: list[Page]
    tables: int = 0


_NUMBERED = re.compile(r"^(?:\d{1,2}(?:\.\d{1,2}){0,3}\.?|[A-Z](?:\.\d{1,2}){0,3}\.?|[IVX]{1,5}\.)\s+\S")
_MIN_TEXT_CHARS = 20
_MAX_CURVES = 150
_MAX_EDGES = 3000


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


def _clean(text: str) -> str:
    """NFKC (ligatures), collapsed spaces; a trailing soft hyphen is kept so lines can be re-joined."""
    text = unicodedata.normalize("NFKC", text)
    hyphen = text.rstrip().endswith(("\ufffe", "\u00ad"))
    text = " ".join(text.replace("\ufffe", "").replace("\u00ad", "").split())
    return text + "\u00ad" if hyphen and text else text


def _page_text(tp: pdfium.PdfTextPage) -> str:
    """The page's raw text, read once and shared by line and table extraction."""
    count = tp.count_chars()
    return tp.get_text_range(0, count) if count > 0 else ""


def _page_lines(tp: pdfium.PdfTextPage, raw: str, height: float) -> list[Line]:
    if not raw:
        return []
    count = tp.count_chars()
    exact = len(raw) == count  # offsets map 1:1 to pdfium char indices
    lines: list[Line] = []
    start = 0
    for match in re.finditer(r"\r\n|\n|\r", raw + "\n"):
        end = match.start()
        segment = raw[start:end]
        seg_start = start
        start = match.end()
        text = _clean(segment)
        if not text:
            continue
        if not exact:
            lines.append(Line(text, 0.0, 0.0, 0.0, 0.0))
            continue
        first = seg_start + (len(segment) - len(segment.lstrip()))
        last = seg_start + len(segment.rstrip()) - 1
        l0, b0, r0, t0 = tp.get_charbox(first)
        l1, b1, r1, t1 = tp.get_charbox(last)
        size = pdfium_c.FPDFText_GetFontSize(tp.raw, first)
        weight = pdfium_c.FPDFText_GetFontWeight(tp.raw, first)
        lines.append(
            Line(
                text,
                min(l0, l1),
                height - max(t0, t1),
                max(r0, r1),
                height - min(b0, b1),
                size=round(size, 1),
                bold=weight >= 600,
            )
        )
    return lines


class _RulePage:
    """The slice of a pdfplumber page that its table finder reads, filled from pdfium (no pdfminer pass)."""

    def __init__(self, edges: list[dict], width: float, height: float):
        self.edges = edges
        self.bbox = (0.0, 0.0, width, height)
        self.chars: list[dict] = []


def _rules(page: pdfium.PdfPage, height: float) -> list[dict]:
    """Straight rules as pdfplumber edges (top-left origin); empty when the page is a figure or has none."""
    edges: list[dict] = []
    curves = 0

    def edge(x0: float, top: float, x1: float, bottom: float, orientation: str) -> None:
        edges.append(
            {
                "x0": x0,
                "x1": x1,
                "top": top,
                "bottom": bottom,
                "width": x1 - x0,
                "height": bottom - top,
                "orientation": orientation,
                "object_type": "line",
                "doctop": top,
            }
        )

    for obj in page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_PATH], max_depth=3):
        if pdfium_c.FPDFPath_CountSegments(obj.raw) > 6:
            curves += 1  # plotted data, not rules
            if curves > _MAX_CURVES:
                return []
            continue
        left, bottom, right, top = obj.get_bounds()
        w, h = right - left, top - bottom
        y0, y1 = height - top, height - bottom
        if h < 3 and w > 8:
            edge(left, (y0 + y1) / 2, right, (y0 + y1) / 2, "h")
        elif w < 3 and h > 8:
            edge((left + right) / 2, y0, (left + right) / 2, y1, "v")
        elif w > 8 and h > 8:
            edge(left, y0, right, y0, "h")
            edge(left, y1, right, y1, "h")
            edge(left, y0, left, y1, "v")
            edge(right, y0, right, y1, "v")
    horizontal = sum(1 for e in edges if e["orientation"] == "h")
    if horizontal < 2 or len(edges) - horizontal < 2 or len(edges) > _MAX_EDGES:
        return []
    return edges


def _tables(tp: pdfium.PdfTextPage, raw: str, page: Page, edges: list[dict]) -> int:
    """Find ruled tables with pdfplumber's finder; replace the lines inside each by one line per row."""
    from pdfplumber.table import TableFinder, TableSettings

    finder = TableFinder(_RulePage(edges, page.width, page.height), TableSettings.resolve(None))
    tables = [t for t in finder.tables if len(t.rows) >= 2 and max(len(r.cells) for r in t.rows) >= 2]
    if not tables:
        return 0
    locate = _cell_locator(tables)
    found = 0
    texts: dict[tuple[int, int, int], list[str]] = {}
    words, split = [0] * len(tables), [0] * len(tables)
    owner, previous = None, " "
    for index, ch in enumerate(raw if len(raw) == tp.count_chars() else ""):
        if ch.strip():
            left, bottom, right, top = tp.get_charbox(index)
            cx, cy = (left + right) / 2, page.height - (top + bottom) / 2
            before = owner
            owner = locate(cx, cy)
            if owner is not None:
                if not previous.strip():
                    words[owner[0]] += 1
                elif before is not None and before != owner and before[0] == owner[0]:
                    split[owner[0]] += 1  # one word spread over two cells
        if owner is not None:
            texts.setdefault(owner, []).append(ch)  # spaces follow the character before them
        previous = ch
    for ti, table in enumerate(tables):
        if split[ti] >= 3 and split[ti] > 0.05 * words[ti]:
            continue  # rules that frame running text (a figure, a boxed column), not a table: keep the prose
        x0, top, x1, bottom = table.bbox
        inside = [i for i, ln in enumerate(page.lines) if _centre_in(ln, x0, top, x1, bottom)]
        at = inside[0] if inside else _insert_at(page.lines, top)
        gone = set(inside)
        kept = [ln for i, ln in enumerate(page.lines) if i not in gone]
        at -= sum(1 for i in inside if i < at)
        rows = []
        for ri, row in enumerate(table.rows):
            values = [_clean("".join(texts.get((ti, ri, ci), []))) for ci in range(len(row.cells))]
            if any(values):
                rx0, rtop, rx1, rbottom = row.bbox
                rows.append(Line(" | ".join(values), rx0, rtop, rx1, rbottom, kind="table"))
        page.lines = kept[:at] + rows + kept[at:]
        found += 1
    return found


def _cell_locator(tables: list) -> Callable[[float, float], tuple[int, int, int] | None]:
    """(table, row, cell) of the first cell holding a point, in table, row, cell order.

    Table and row boxes enclose their cells, so they rule out most of a page's characters before any
    cell is tested (testing every cell for every character was half of the parse time).
    """
    index = [
        (t.bbox, [(r.bbox, [(ci, box) for ci, box in enumerate(r.cells) if box is not None]) for r in t.rows])
        for t in tables
    ]

    def locate(x: float, y: float) -> tuple[int, int, int] | None:
        for ti, ((tx0, ttop, tx1, tbottom), rows) in enumerate(index):
            if not (tx0 <= x <= tx1 and ttop <= y <= tbottom):
                continue
            for ri, ((rx0, rtop, rx1, rbottom), cells) in enumerate(rows):
                if not (rx0 <= x <= rx1 and rtop <= y <= rbottom):
                    continue
                for ci, (x0, y0, x1, y1) in cells:
                    if x0 <= x < x1 and y0 <= y < y1:
                        return ti, ri, ci
        return None

    return locate


def _centre_in(ln: Line, x0: float, top: float, x1: float, bottom: float) -> bool:
    cx, cy = (ln.x0 + ln.x1) / 2, (ln.top + ln.bottom) / 2
    return x0 - 1 <= cx <= x1 + 1 and top - 1 <= cy <= bottom + 1


def _insert_at(lines: list[Line], top: float) -> int:
    for i, ln in enumerate(lines):
        if ln.top >= top:
            return i
    return len(lines)


def _mark_headings(pages: list[Page]) -> str:
    """Flag heading lines by numbering, size and weight; return the detected title."""
    sizes: Counter[float] = Counter()
    for page in pages:
        for ln in page.lines:
            if ln.kind == "text":
                sizes[ln.size] += len(ln.text)
    if not sizes:
        return ""
    body = sizes.most_common(1)[0][0] or 1.0
    title = _title(pages, body)
    for page in pages:
        for ln in page.lines:
            if ln.kind != "text" or ln.text == title or not _heading_shape(ln.text):
                continue
            numbered = _NUMBERED.match(ln.text)
            larger = ln.size >= body * 1.12
            if larger or (ln.bold and (numbered or len(ln.text.split()) <= 6)):
                ln.kind = "heading"
                ln.level = ln.text.split()[0].rstrip(".").count(".") + 1 if numbered else (1 if larger else 2)
    return title


def _heading_shape(text: str) -> bool:
    words = text.split()
    return (
        1 <= len(words) <= 12
        and len(text) <= 90
        and text[-1] not in ".,;"
        and any(c.isalpha() for c in text)
        and (text[0].isupper() or text[0].isdigit())
    )


def _title(pages: list[Page], body: float) -> str:
    first = pages[0].lines if pages else []
    upper = [ln for ln in first if ln.kind == "text" and ln.bottom <= pages[0].height * 0.5 and len(ln.text) > 3]
    if not upper:
        return ""
    biggest = max(ln.size for ln in upper)
    if biggest < body * 1.15:
        return ""
    parts = [ln.text for ln in upper if ln.size == biggest][:3]
    return " ".join(parts)[:200]


def parse_pdf(path: Path, doc_id: str, max_mb: float) -> ParsedDocument:
    """Parse one PDF into pages of lines. Raises ParseError with a one-line reason."""
    check_file(path, max_mb)
    pdf = _open(path)
    pages: list[Page] = []
    tables = 0
    try:
        if len(pdf) == 0:
            raise ParseError("PDF has no pages")
        for index in range(len(pdf)):
            page = pdf[index]
            try:
                width, height = page.get_size()
                tp = page.get_textpage()
                try:
                    raw = _page_text(tp)
                    parsed = Page(index + 1, width, height, _page_lines(tp, raw, height))
                    edges = _rules(page, height) if parsed.lines else []
                    if edges:
                        tables += _tables(tp, raw, parsed, edges)
                finally:
                    tp.close()
            finally:
                page.close()
            pages.append(parsed)
    except pdfium.PdfiumError as exc:
        raise ParseError(f"damaged PDF ({exc})") from exc
    finally:
        pdf.close()
    if sum(len(ln.text) for p in pages for ln in p.lines) < _MIN_TEXT_CHARS:
        raise ParseError("no extractable text (scanned image?)")
    title = _mark_headings(pages)
    return ParsedDocument(doc_id=doc_id, title=title, pages=pages, tables=tables)


def parse_or_reason(path: str, doc_id: str, max_mb: float) -> ParsedDocument | str:
    """The parsed document, or the one-line reason it failed. Runs in parser processes, which import only
    this module (a fraction of a second, against most of one for the ingestion module's imports)."""
    try:
        return parse_pdf(Path(path), doc_id, max_mb)
    except ParseError as exc:
        return str(exc)
    except Exception as exc:  # noqa: BLE001 - any parser crash is that file's failure, not the batch's
        return f"cannot be parsed ({type(exc).__name__}: {exc})"
