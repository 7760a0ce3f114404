"""Tables without ruling lines (financial statements, parameter tables): rows of a label and figures in aligned
columns under column headers. Each row becomes one line that reads on its own:
`Net cash provided by operating activities | 2017: 2,912.9 | 2016: 2,199.7`.

Columns are found from the figures alone (they align; a label's words do not), headers are the lines just above
the first row whose cells sit over those columns, and a row's figures are named by the header of their column.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from itertools import pairwise

from kb.parsed import Line, Page

# A gap this many times the line's height separates cells.
CELL_GAP = 1.2
# A table: at least this many rows with figures in at least one shared column.
MIN_ROWS = 3
# Header lines looked for above the first row.
MAX_HEADER_LINES = 4
# Group labels between a statement's column headers and its first row ("ASSETS", "Current assets:"), skipped to
# reach the headers: at most this many lines of at most this many words without a digit, in the label column.
MAX_GROUP_LABELS = 2
GROUP_LABEL_WORDS = 5
# Figures are named by their column's header in tables of at most this many columns. A wider table (a paper's
# results over many benchmarks) would repeat its whole header in every row, and the repeated names would pull every
# question that mentions them to the table: its header line above its rows names them once.
MAX_NAMED_COLUMNS = 5
# A header line of more words than this is prose, unless it is set as short cells over the columns, each of at most
# this many words.
HEADER_WORDS = 12
HEADER_CELL_WORDS = 4
# Column names set close together part at gaps at least this many times wider than the gaps inside a name (taken
# as at least MIN_WORD_GAP points: words whose boxes touch are no sign of a wide gap elsewhere).
NAME_GAP_RATIO = 2.0
MIN_WORD_GAP = 1.0
# A run of at least this many words from the left of a table into its columns is its title, not a header.
TITLE_WORDS = 5
# A table without headers takes the names of the table just above it on the page, with the same columns, when at
# most this many lines stand between them (a subtitle, or label lines too long to read as rows).
INHERIT_GAP_LINES = 8
# A row's label of more words than this is prose, which ends a table.
MAX_LABEL_WORDS = 25

# A figure: a number with its sign, currency, parentheses, percent or magnitude ("392k", "175B"), a pair of them
# ("80.6/80.1", "84.6±0.2"), a ratio ("2.1:1": read as a column name, it would name every figure below it), a dash for
# none, or "n/a".
_NUMBER = r"[-–—−+]?[$€£¥]?\s?\(?\d[\d,]*(?:\.\d+)?\)?\s?(?:%|[kKMBx])?"
_FIGURE = re.compile(
    rf"^[(\[]?{_NUMBER}(?:\s?[/±]\s?{_NUMBER}|:\d+(?:\.\d+)?)?[)\]]?\*?$|^[—–−-]{{1,3}}$|^n/?[am]$", re.I
)
_CURRENCY = frozenset("$€£¥")
_MAY_HOLD_FIGURES = re.compile(r"\d|[—–−-]|n/?[am]\b", re.I)  # a line without any holds no figure
_YEAR = re.compile(r"^(?:FY\s?)?(?:19|20)\d\d$", re.I)


def is_figure(text: str) -> bool:
    """A cell's text is one figure (a dash for none and "n/a" count)."""
    return bool(_FIGURE.match(text))


@dataclass(slots=True)
class _Cell:
    x0: float
    x1: float
    text: str

    @property
    def figure(self) -> bool:
        return is_figure(self.text)


Cells = Callable[[Line], list[_Cell]]
_Named = tuple[list[tuple[float, float]], list[str]]  # a table's column extents and their names


def unruled_tables(page: Page) -> int:
    """Replace each unruled table's lines on the page by one line per row; the number of tables found."""
    memo: dict[int, list[_Cell]] = {}

    def cells(line: Line) -> list[_Cell]:
        """A line's cells, split once per page (the lines outlive this call, so their ids stay theirs)."""
        found = memo.get(id(line))
        if found is None:
            found = memo[id(line)] = _cells(line)
        return found

    found, index, last_end = 0, 0, 0
    named: _Named | None = None  # the columns of the table just above and their names, when it had some
    while index < len(page.lines):
        end = _table_end(page.lines, index, cells)
        columns = _columns([cells(line) for line in page.lines[index:end]]) if end is not None else []
        if end is None or not columns:
            index = end if end is not None else index + 1
            continue
        start = _header_start(page.lines, index, columns, cells)
        near = named if named is not None and start - last_end <= INHERIT_GAP_LINES else None
        rows, names = _rows(page.lines[start:end], index - start, cells, near)
        page.lines[start:end] = rows
        named = names  # the names a table right below may go on with (none after a table without any)
        index = last_end = start + len(rows)
        found += 1
    return found


def _cells(line: Line) -> list[_Cell]:
    words = line.words or []
    limit = CELL_GAP * max(1.0, line.bottom - line.top)
    cells: list[_Cell] = []
    for i, (x0, _, x1, _, text) in enumerate(words):
        last = cells[-1] if cells else None
        if last is not None and last.text in _CURRENCY and _FIGURE.match(text):
            # a currency sign opens its figure's cell whatever the gap, and is left out (the header gives the unit)
            last.x0, last.x1, last.text = x0, x1, text
            continue
        opens = text in _CURRENCY and i + 1 < len(words) and _FIGURE.match(words[i + 1][4])
        if last is not None and x0 - last.x1 <= limit and not opens:
            last.x1, last.text = x1, f"{last.text} {text}"
        else:
            cells.append(_Cell(x0, x1, text))
    return cells


def _is_row(line: Line, cells_of: Cells) -> bool:
    """A label (or nothing) followed by one or more figures."""
    if line.kind != "text" or not line.words or not _MAY_HOLD_FIGURES.search(line.text):
        return False
    cells = cells_of(line)
    figures = [c for c in cells[1:] if c.figure]
    return bool(figures) and len(cells) >= 2 and len(cells[0].text.split()) <= MAX_LABEL_WORDS


def _table_end(lines: list[Line], start: int, cells_of: Cells) -> int | None:
    """The end of a table whose first row is lines[start], or None when no table starts there."""
    if not _is_row(lines[start], cells_of):
        return None
    rows, index, gap = 1, start + 1, 0
    while index < len(lines):
        line = lines[index]
        if _is_row(line, cells_of) or (line.kind == "text" and line.words and all(c.figure for c in cells_of(line))):
            rows, gap = rows + 1, 0
        elif line.kind == "text" and len(line.text.split()) <= 12 and gap < 2:
            gap += 1  # a section label or a wrapped label inside the table
        else:
            break
        index += 1
    end = index - gap
    return end if rows >= MIN_ROWS else None


def _header_start(lines: list[Line], first_row: int, columns: list[tuple[float, float]], cells_of: Cells) -> int:
    """The first of the header lines just above a table's first row: short lines with a cell over the columns. Up to
    `MAX_GROUP_LABELS` short lines in the label column ("ASSETS", "Current assets:") may stand between the headers
    and the first row; they are taken only when a header line is found above them."""
    start = near = first_row  # `near`: the first row, or the group label above it that the headers must be near
    labels = 0
    for index in range(first_row - 1, max(-1, first_row - 1 - MAX_HEADER_LINES - MAX_GROUP_LABELS), -1):
        line = lines[index]
        if line.kind != "text" or line.text.rstrip().endswith("."):
            break
        if line.bottom > lines[near].top + 1 or lines[near].top - line.bottom > 4 * (line.bottom - line.top):
            break  # not above the table, or too far above it
        whole = cells_of(line)
        over = [c for c in whole if c.x1 > columns[0][0] - 1]
        if _title_line(line, whole, columns):
            break  # one run of words from the left into the columns: the table's title or prose, not a header
        if not over:
            words = line.text.split()
            if (
                start == first_row
                and labels < MAX_GROUP_LABELS
                and len(words) <= GROUP_LABEL_WORDS
                and not any(ch.isdigit() for ch in line.text)
            ):
                labels, near = labels + 1, index
                continue
            break  # a title or caption left of the figures
        if _prose_over(line, over) or line.text.rstrip().endswith(":"):
            break
        if labels and any(c.figure and not _YEAR.match(c.text) for c in over):
            break  # above a group label: another table's row, not a header
        start = index
        if first_row - start - labels >= MAX_HEADER_LINES:
            break
    return start


def _reach(columns: list[tuple[float, float]]) -> float:
    """How far left of the first column a header over the figures may start: one column's width (a header set
    just left of right-aligned figures, "2018" over "$ 419,127", the sign far left)."""
    return columns[0][0] - max(1.0, columns[0][1] - columns[0][0])


def _title_line(line: Line, cells: list[_Cell], columns: list[tuple[float, float]]) -> bool:
    """One run of several words from the left of the columns into them, naming no year or figure: a title or prose
    ("TOTAL HARBOUR AND FLEET OPERATING EXPENSE"), where a unit note set close to its years ("(In millions) 2019 2018")
    names the columns."""
    if len(cells) != 1 or not cells[0].x0 < _reach(columns) < cells[0].x1:
        return False
    words = line.text.split()
    return len(words) >= TITLE_WORDS and not any(_YEAR.match(w) or is_figure(w) for w in words)


def _prose_over(line: Line, over: list[_Cell]) -> bool:
    """A line of prose rather than column headers: long, unless at least two short cells stand over the columns
    ("(Dollars in millions) FISCAL 2021 FISCAL 2020 % CHANGE": a unit note, then a header a column)."""
    if len(line.text.split()) <= HEADER_WORDS:
        return False
    return len(over) < 2 or any(len(c.text.split()) > HEADER_CELL_WORDS for c in over)


def _columns(rows: list[list[_Cell]]) -> list[tuple[float, float]]:
    """Column extents: the figures' extents merged where they overlap, kept when two rows or more fill them."""
    spans = sorted((c.x0, c.x1) for cells in rows for c in cells[1:] if c.figure)
    merged: list[list[float]] = []
    for x0, x1 in spans:
        if merged and x0 <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], x1)
            merged[-1][2] += 1
        else:
            merged.append([x0, x1, 1])
    return [(x0, x1) for x0, x1, n in merged if n >= 2]


def _column_of(cell: _Cell, columns: list[tuple[float, float]]) -> int | None:
    """The column a cell sits in: the one it overlaps most, else the nearest within its own width."""
    overlaps = [min(cell.x1, x1) - max(cell.x0, x0) for x0, x1 in columns]
    best = max(range(len(columns)), key=lambda i: overlaps[i], default=None)
    if best is not None and overlaps[best] > 0:
        return best
    centre = (cell.x0 + cell.x1) / 2
    centres = [(x0 + x1) / 2 for x0, x1 in columns]
    near = min(range(len(columns)), key=lambda i: abs(centre - centres[i]), default=None)
    if near is None:
        return None
    # within its own width, or nearer to it than half the way to the next column (a wide header over a narrow
    # column of right-aligned figures)
    spacing = min((abs(c - centres[near]) for i, c in enumerate(centres) if i != near), default=0.0)
    if abs(centre - centres[near]) <= max(columns[near][1] - columns[near][0] + 10, spacing / 2):
        return near
    return None


def _rows(
    block: list[Line], header_count: int, cells_of: Cells, above: _Named | None = None
) -> tuple[list[Line], _Named | None]:
    """The block's lines as table rows, each figure named by its column's header, and the columns with their names
    (None when it has none). A block without headers whose columns are those of a table `above` it on the page
    takes that table's names: a statement goes on below a subtitle ("Reconciliation of net income ...:")."""
    while header_count < len(block) - 2 and _header_row(cells_of(block[header_count])):
        header_count += 1  # "(Millions) 2018 2017 2016": the years name the columns
    body = block[header_count:]
    cells = [cells_of(line) for line in body]
    columns = _columns(cells) or _columns([cells_of(line) for line in block])
    labels = _header_labels(block[:header_count], columns, cells_of)
    if len(columns) > MAX_NAMED_COLUMNS:
        labels = [""] * len(columns)  # a wide table: its header line, kept above, names the columns once
    elif not any(labels) and above is not None and _same_columns(columns, above[0]):
        labels = above[1]
    out: list[Line] = []
    for line in block[:header_count]:  # a group label under the headers ("Current assets:") is the table's too
        out.append(_table_line(" | ".join(c.text for c in cells_of(line)), [line]))
    pending: list[Line] = []  # label lines without figures, waiting for the figures of their row
    for line, row in zip(body, cells):
        leading = [c for c in row if c.x1 < columns[0][0] - 1 and not c.figure]
        rest = [c for c in row if c not in leading]
        if not any(c.figure for c in rest):
            if pending:
                out.append(_table_line(" ".join(p.text for p in pending), pending))
            pending = [line]
            continue
        label = " ".join(c.text for c in leading)
        if not label and len(rest) > len(columns):
            label, rest = rest[0].text, rest[1:]  # a figure that is the row's own label (a year, a code)
        parts = [label] if label else []
        for cell in rest:
            column = _column_of(cell, columns)
            name = labels[column] if column is not None else ""
            parts.append(f"{name}: {cell.text}" if name else cell.text)
        if pending and (not label or label[0].islower()):
            parts[0:0] = [" ".join(p.text for p in pending)]  # a wrapped label and the line holding its figures
            if label:
                parts[0:2] = [f"{parts[0]} {parts[1]}"]
            out.append(_table_line(" | ".join(parts), [*pending, line]))
        else:
            if pending:
                out.append(_table_line(" ".join(p.text for p in pending), pending))
            out.append(_table_line(" | ".join(parts), [line]))
        pending = []
    if pending:
        out.append(_table_line(" ".join(p.text for p in pending), pending))
    return out, ((columns, labels) if any(labels) else None)


def _same_columns(columns: list[tuple[float, float]], others: list[tuple[float, float]]) -> bool:
    """As many columns as the others, each overlapping its counterpart."""
    pairs = zip(columns, others)
    return len(columns) == len(others) and all(min(a[1], b[1]) > max(a[0], b[0]) for a, b in pairs)


def _header_row(cells: list[_Cell]) -> bool:
    """Column headers rather than figures: years or words under an empty, parenthesised or short label
    ("(Millions) 2018 2017 2016", "GAAP results 2022 $ million 2023 $ million")."""
    label = cells[0].text if cells and not _YEAR.match(cells[0].text) else ""
    heads = cells[1:] if label else cells
    short = not label or label.startswith("(") or len(label.split()) <= 4
    return bool(heads) and short and all(_YEAR.match(c.text) or not c.figure for c in heads)


def _header_labels(header: list[Line], columns: list[tuple[float, float]], cells_of: Cells) -> list[str]:
    """Each column's name: the header text over it alone, top to bottom. A cell over several columns holds names
    set close together when its widest word gaps part it into a name a column ("Tide Surge Wave", "% CHANGE
    FISCAL 2019"), each going to the column under it; otherwise (another header line names every column, as "2017
    2016 2015" under "Year Ended December 31,", or its words are evenly spaced) it is their caption, and names them
    only when nothing narrower does."""
    own: list[list[str]] = [[] for _ in columns]
    spanning: list[list[str]] = [[] for _ in columns]
    # A header over the figures: a header set just left of a column of right-aligned figures ("2018" over
    # "$ 419,127", the sign far left) counts, within one column's width; a row label's header far left does not.
    reach = _reach(columns)
    areas = [(line, [c for c in cells_of(line) if c.x1 > reach]) for line in header]
    captions = len(columns) > 1 and any(len(area) >= len(columns) for _, area in areas)
    for line, area in areas:
        for cell in area:
            over = [i for i, (x0, x1) in enumerate(columns) if min(cell.x1, x1) - max(cell.x0, x0) > 0]
            if captions and len(area) == 1:
                over = list(range(len(columns)))
            # Over several columns: a caption when another line names every column; else names set close
            # together, one a column, when its widest word gaps part them ("% CHANGE  FISCAL 2019", "Tide Surge
            # Wave"); else a caption ("Amount of commitment and contingency expiration per period").
            apart = None
            for count in range(len(over), 1, -1) if not captions else ():  # a cell may just touch one more column
                if apart := _names_apart(line, cell, count):
                    break
            if apart is None and len(over) > 1:
                for i in over:
                    spanning[i].append(cell.text)
                continue
            parts = apart or [cell]
            for part in parts:
                column = _column_of(part, columns)
                if column is not None:
                    own[column].append(part.text)
    return [" ".join(own[i] or spanning[i]).rstrip(":") for i in range(len(columns))]


def _names_apart(line: Line, cell: _Cell, count: int) -> list[_Cell] | None:
    """The cell cut into `count` names: a word each when it holds exactly `count` words ("Tide Surge Wave"); else at
    its widest word gaps, when those are clearly wider than the gaps inside the names ("% CHANGE  FISCAL 2019":
    names set too close to read as cells of their own). None when it has fewer words, or its words are evenly
    spaced (a caption)."""
    words = _word_cells(line, cell)
    if len(words) <= count:
        return words if len(words) == count else None
    gaps = [words[i + 1].x0 - words[i].x1 for i in range(len(words) - 1)]
    cuts = sorted(sorted(range(len(gaps)), key=lambda i: -gaps[i])[: count - 1])
    inside = max((g for i, g in enumerate(gaps) if i not in cuts), default=0.0)
    if min(gaps[i] for i in cuts) < NAME_GAP_RATIO * max(inside, MIN_WORD_GAP):
        return None
    bounds = [0, *(i + 1 for i in cuts), len(words)]
    groups = [words[a:b] for a, b in pairwise(bounds)]
    return [_Cell(g[0].x0, g[-1].x1, " ".join(w.text for w in g)) for g in groups]


def _word_cells(line: Line, cell: _Cell) -> list[_Cell]:
    """The words of a line that lie within a cell, each as a cell of its own."""
    return [_Cell(x0, x1, text) for x0, _, x1, _, text in line.words or [] if cell.x0 <= x0 and x1 <= cell.x1]


def _table_line(text: str, lines: list[Line]) -> Line:
    return Line(
        text,
        min(ln.x0 for ln in lines),
        min(ln.top for ln in lines),
        max(ln.x1 for ln in lines),
        max(ln.bottom for ln in lines),
        size=lines[0].size,
        bold=lines[0].bold,
        kind="table",
        words=None,
    )
