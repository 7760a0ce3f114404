"""Ruled tables: pdfplumber's table finder, fed with the rules pdfium found (no pdfminer pass), turns the lines
inside each table into one `cell | cell` line per row."""

from __future__ import annotations

import re
from collections.abc import Callable

from kb.parsed import Line, Page
from kb.periods import YEAR
from kb.unruled_tables import MAX_NAMED_COLUMNS, is_figure

_Word = tuple[float, float, float, float, str]
# A cell of more words than this is a paragraph in a frame, not a table's cell.
MAX_CELL_WORDS = 60
# A grid with more than this share of its cells empty draws rules under figures (a financial statement's
# underlines), not around cells: its columns do not line up with its headers, so the unruled reader, which pairs
# figures with headers by position, reads it instead.
MAX_EMPTY_SHARE = 0.5


class _RulePage:
    """The slice of a pdfplumber page that its table finder reads."""

    def __init__(self, edges: list[dict], width: float, height: float):
        self.edges = edges
        self.bbox = (0.0, 0.0, width, height)
        self.chars: list[dict] = []


def ruled_tables(page: Page, edges: list[dict]) -> int:
    """Replace the lines inside each ruled table of the page by its rows; the number of tables found."""
    from pdfplumber.table import TableFinder, TableSettings

    finder = TableFinder(_RulePage(edges, page.width, page.height), TableSettings.resolve(None))
    tables = [t for t in finder.tables if len(t.rows) >= 2 and max(len(r.cells) for r in t.rows) >= 2]
    if not tables:
        return 0
    locate = _cell_locator(tables)
    texts: dict[tuple[int, int, int], list[str]] = {}
    placed: dict[tuple[int, int, int], list[_Word]] = {}  # each cell's words where they stand
    words, split, lost = [0] * len(tables), [0] * len(tables), [0] * len(tables)
    for line in page.lines:
        for x0, top, x1, bottom, text in line.words or []:
            cy = (top + bottom) / 2
            owner = locate((x0 + x1) / 2, cy)
            if owner is None:
                for ti in _holding(tables, (x0 + x1) / 2, cy):
                    lost[ti] += 1  # inside the table, in none of its cells: the grid would drop it
                continue
            words[owner[0]] += 1
            left, right = locate(x0 + 0.5, cy), locate(x1 - 0.5, cy)
            if left is not None and right is not None and left != right and left[0] == right[0]:
                split[owner[0]] += 1  # one word spread over two cells
            texts.setdefault(owner, []).append(text)
            placed.setdefault(owner, []).append((x0, top, x1, bottom, text))
    found = 0
    for ti, table in enumerate(tables):
        if split[ti] >= 3 and split[ti] > 0.05 * words[ti]:
            continue  # rules that frame running text (a figure, a boxed column), not a table: keep the prose
        if any(len(cell) > MAX_CELL_WORDS for (t, _, _), cell in texts.items() if t == ti):
            continue  # a cell holding a paragraph: a frame around prose, not a table
        if lost[ti] or _empty_share(table, ti, texts) > MAX_EMPTY_SHARE:
            continue  # not a grid of cells: its lines stay for the unruled reader
        x0, top, x1, bottom = table.bbox
        if _cuts_lines(page.lines, x0, top, x1, bottom):
            continue  # shading over some columns, not the table's frame: the unruled finder reads the table

        inside = [i for i, ln in enumerate(page.lines) if _centre_in(ln, x0, top, x1, bottom)]
        at = inside[0] if inside else _insert_at(page.lines, top)
        gone = set(inside)
        kept = [ln for i, ln in enumerate(page.lines) if i not in gone]
        at -= sum(1 for i in inside if i < at)
        rows = []
        header: list[str] | None = None
        for ri, row in enumerate(table.rows):
            values = [" ".join(texts.get((ti, ri, ci), [])) for ci in range(len(row.cells))]
            if not any(values):
                continue
            stacked = _stacked([placed.get((ti, ri, ci), []) for ci in range(len(row.cells))])
            if header is None:
                header = values if _is_header(values) and not stacked else []  # stacked rows head nothing
            elif len(header) == len(values) <= MAX_NAMED_COLUMNS + 1:
                values = _named(header, values)
            rx0, rtop, rx1, rbottom = row.bbox
            for part in stacked or [values]:
                if stacked and header and len(header) == len(part) <= MAX_NAMED_COLUMNS + 1:
                    part = _named(header, part)
                rows.append(Line(" | ".join(part), rx0, rtop, rx1, rbottom, kind="table"))
        page.lines = kept[:at] + rows + kept[at:]
        found += 1
    return found


def _stacked(cells: list[list[_Word]]) -> list[list[str]] | None:
    """The rows of a grid row drawn without rules between its rows: every cell holds the same number of lines (two
    or more), side by side, each line of the cells after the first a single value ("Alpha / Bravo" beside "2.08 /
    2.09"); None for any other row (a label wrapping over two lines beside one figure stays one row)."""
    columns = [_lines_of(words) for words in cells]
    if not columns or any(not lines for lines in columns) or len(columns) < 2:
        return None
    depth = len(columns[0])
    if depth < 2 or any(len(lines) != depth for lines in columns):
        return None
    if not all(_VALUE.match(text) for lines in columns[1:] for _, text in lines):
        return None
    tops = [[y for y, _ in lines] for lines in columns]
    if any(abs(t[j] - tops[0][j]) > _SAME_LINE for t in tops for j in range(depth)):
        return None  # lines of different heights: wrapped text, not rows
    return [[lines[j][1] for lines in columns] for j in range(depth)]


_VALUE = re.compile(r"^\S*\d\S*$")  # one token holding a figure: "2.08", "1.16,5" (a note mark glued on), "X86"
_SAME_LINE = 2.0  # points between the middles of words on one line


def _lines_of(words: list[_Word]) -> list[tuple[float, str]]:
    """A cell's words as lines, top to bottom: (middle height, text in reading order)."""
    lines: list[tuple[float, list[_Word]]] = []
    for word in sorted(words, key=lambda w: (w[1] + w[3]) / 2):
        middle = (word[1] + word[3]) / 2
        if lines and abs(middle - lines[-1][0]) <= _SAME_LINE:
            lines[-1][1].append(word)
        else:
            lines.append((middle, [word]))
    return [(middle, " ".join(w[4] for w in sorted(ws))) for middle, ws in lines]


def _is_header(values: list[str]) -> bool:
    """A grid's first row names its columns: words or years over the columns after the first, no other figure
    among them (as the unruled reader takes a header row)."""
    heads = [v for v in values[1:] if v]
    return bool(heads) and not any(is_figure(v) and not YEAR.match(v) for v in heads)


def _named(header: list[str], values: list[str]) -> list[str]:
    """A row's figures named by their column's header ("Reading: 42.5"), as the unruled reader names them, so a
    row reads on its own; the label and words in cells stay as they are."""
    return [values[0]] + [f"{h}: {v}" if h and is_figure(v) else v for h, v in zip(header[1:], values[1:])]


def _cell_locator(tables: list) -> Callable[[float, float], tuple[int, int, int] | None]:
    """(table, row, cell) of the first cell holding a point, in table, row, cell order.

    Table and row boxes enclose their cells, so they rule out most points before any cell is tested.
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


def _holding(tables: list, x: float, y: float) -> list[int]:
    return [ti for ti, t in enumerate(tables) if t.bbox[0] <= x <= t.bbox[2] and t.bbox[1] <= y <= t.bbox[3]]


def _empty_share(table: object, ti: int, texts: dict[tuple[int, int, int], list[str]]) -> float:
    """The share of the table's cells that hold nothing, in its rows and columns that hold anything."""
    grid = [
        [None if c is None else (ti, ri, ci) in texts for ci, c in enumerate(r.cells)]  # None: a spanned cell
        for ri, r in enumerate(table.rows)
    ]
    rows = [row for row in grid if any(row)]
    used = {ci for row in rows for ci, filled in enumerate(row) if filled}
    cells = [row[ci] for row in rows for ci in used if ci < len(row) and row[ci] is not None]
    return 1 - sum(cells) / len(cells) if cells else 1.0


def _cuts_lines(lines: list[Line], x0: float, top: float, x1: float, bottom: float) -> bool:
    """The box holds part of many lines and leaves the rest of them outside."""
    touched = cut = 0
    for line in lines:
        inside = [
            x0 - 1 <= (w[0] + w[2]) / 2 <= x1 + 1 and top - 1 <= (w[1] + w[3]) / 2 <= bottom + 1
            for w in line.words or []
        ]
        if any(inside):
            touched += 1
            cut += not all(inside)
    return cut >= 2 and cut > 0.2 * touched


def _centre_in(ln: Line, x0: float, top: float, x1: float, bottom: float) -> bool:
    cx, cy = (ln.x0 + ln.x1) / 2, (ln.top + ln.bottom) / 2
    return x0 - 1 <= cx <= x1 + 1 and top - 1 <= cy <= bottom + 1


def _insert_at(lines: list[Line], top: float) -> int:
    for i, ln in enumerate(lines):
        if ln.top >= top:
            return i
    return len(lines)
