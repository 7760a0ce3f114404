"""Ruled tables: a grid of cells becomes rows; a grid that would drop words, or that draws rules under figures
rather than around cells, leaves its lines to the unruled reader."""

from kb.page_objects import _edge
from kb.parsed import Line, Page
from kb.ruled_tables import ruled_tables

_ROW = 12.0


def _line(words: list[tuple[float, str]], top: float) -> Line:
    boxes = [(x, top + 2, x + 6 * len(text), top + 10, text) for x, text in words]
    return Line(" ".join(t for *_, t in boxes), boxes[0][0], top + 2, boxes[-1][2], top + 10, words=boxes)


def _grid(rows: int, xs: list[float], top: float = 100.0, short: dict[float, int] | None = None) -> list[dict]:
    """Rules of a grid: a horizontal rule at every row boundary, a vertical one at every x (over the first
    `short[x]` rows only, when given)."""
    bottom = top + rows * _ROW
    edges = [_edge(xs[0], top + i * _ROW, xs[-1], top + i * _ROW, "h") for i in range(rows + 1)]
    for x in xs:
        end = top + (short or {}).get(x, rows) * _ROW
        edges.append(_edge(x, top, x, end if end < bottom else bottom, "v"))
    return edges


def test_a_grid_of_cells_becomes_rows():
    lines = [_line([(20, "Station"), (160, "Reading")], 100), _line([(20, "North"), (160, "42.5")], 112)]
    page = Page(1, 600, 800, lines)
    assert ruled_tables(page, _grid(2, [10, 150, 300])) == 1
    assert [ln.text for ln in page.lines] == ["Station | Reading", "North | Reading: 42.5"]  # named by its header
    assert all(ln.kind == "table" for ln in page.lines)


def test_a_grids_figures_are_named_only_under_a_header_of_words():
    lines = [
        _line([(20, "Model"), (160, "Key bytes"), (310, "Notes")], 100),
        _line([(20, "Model-B"), (160, "1,184"), (310, "fast")], 112),
    ]
    page = Page(1, 600, 800, lines)
    assert ruled_tables(page, _grid(2, [10, 150, 300, 450])) == 1
    assert [ln.text for ln in page.lines][1] == "Model-B | Key bytes: 1,184 | fast"  # words in a cell stay as they are
    years = [_line([(20, "Station"), (160, "2021")], 100), _line([(20, "North"), (160, "42.5")], 112)]
    page = Page(1, 600, 800, years)
    ruled_tables(page, _grid(2, [10, 150, 300]))
    assert [ln.text for ln in page.lines][1] == "North | 2021: 42.5"  # a year names its column too
    figures_first = [_line([(20, "North"), (160, "40.1")], 100), _line([(20, "South"), (160, "42.5")], 112)]
    page = Page(1, 600, 800, figures_first)
    ruled_tables(page, _grid(2, [10, 150, 300]))
    assert [ln.text for ln in page.lines] == ["North | 40.1", "South | 42.5"]  # no header row: nothing named


def test_a_grid_that_would_drop_words_is_left_to_the_unruled_reader():
    # The right column is ruled on the first row only: below it, "419,127" lies inside the table in no cell.
    lines = [
        _line([(20, "Item"), (160, "2018")], 100),
        _line([(20, "Casino"), (200, "419,127")], 112),
        _line([(20, "Hotel"), (200, "154,707")], 124),
    ]
    page = Page(1, 600, 800, list(lines))
    assert ruled_tables(page, _grid(3, [10, 150, 300], short={300: 1})) == 0
    assert [ln.text for ln in page.lines] == ["Item 2018", "Casino 419,127", "Hotel 154,707"]


def test_rules_under_figures_with_mostly_empty_cells_are_left_to_the_unruled_reader():
    # Spacer and currency columns: every row fills two of the five columns that hold anything.
    xs = [10, 150, 170, 230, 250, 310]
    lines = [
        _line([(20, "Cash"), (180, "1,526")], 100),
        _line([(20, "Inventories"), (260, "110")], 112),
        _line([(20, "Goodwill"), (155, "1")], 124),
        _line([(20, "Other"), (235, "7")], 136),
    ]
    page = Page(1, 600, 800, list(lines))
    assert ruled_tables(page, _grid(4, xs)) == 0
    assert [ln.kind for ln in page.lines] == ["text"] * 4


def _ruled_between(tops: list[float], xs: list[float]) -> list[dict]:
    """Rules at the given heights only (a header rule and a bottom rule, none between the body's rows)."""
    edges = [_edge(xs[0], y, xs[-1], y, "h") for y in tops]
    return edges + [_edge(x, tops[0], x, tops[-1], "v") for x in xs]


def test_rows_drawn_without_rules_between_them_are_rows_each():
    """The body's three rows share one ruled cell per column: each line of a cell is a row of its own, named by the
    header. A label wrapping over two lines beside one figure stays one row."""
    lines = [
        _line([(20, "Method"), (160, "Seconds")], 100),
        _line([(20, "Alpha"), (160, "2.08")], 112),
        _line([(20, "Bravo"), (160, "1.16,5")], 124),  # a note's mark glued on
        _line([(20, "Charlie"), (160, "X86")], 136),
    ]
    page = Page(1, 600, 800, lines)
    assert ruled_tables(page, _ruled_between([100, 112, 148], [10, 150, 300])) == 1
    assert [ln.text for ln in page.lines] == [
        "Method | Seconds",
        "Alpha | Seconds: 2.08",
        "Bravo | 1.16,5",
        "Charlie | X86",
    ]
    wrapped = [
        _line([(20, "Station"), (160, "Reading")], 100),
        _line([(20, "North gate of"), (160, "42.5")], 112),
        _line([(20, "the lock")], 124),
    ]
    page = Page(1, 600, 800, wrapped)
    ruled_tables(page, _ruled_between([100, 112, 136], [10, 150, 300]))
    assert [ln.text for ln in page.lines][1] == "North gate of the lock | Reading: 42.5"


def test_a_first_row_of_stacked_values_names_no_columns():
    """No header rule: the grid's first row is itself stacked rows, so no column is named by its figures."""
    lines = [_line([(20, "Alpha"), (160, "2.08")], 100), _line([(20, "Bravo"), (160, "1.16")], 112)]
    page = Page(1, 600, 800, [*lines, _line([(20, "Total"), (160, "3.24")], 136)])
    ruled_tables(page, _ruled_between([100, 124, 148], [10, 150, 300]))
    assert [ln.text for ln in page.lines] == ["Alpha | 2.08", "Bravo | 1.16", "Total | 3.24"]
