"""A table's head is found from its rows' shapes: title and units above it, column headers before its figures."""

from kb.parsed import Line, Page
from kb.table_heads import head_text, is_figure_row, table_heads


def _page(number: int, rows: list[tuple[str, str]]) -> Page:
    lines = [Line(text, 72, 60 + 14 * i, 500, 70 + 14 * i, kind=kind) for i, (kind, text) in enumerate(rows)]
    return Page(number, 600, 800, lines)


def _head(heads: dict[int, list[Line]], line: Line) -> list[str]:
    return [ln.text for ln in heads[id(line)]]


def test_a_figure_row_holds_a_figure_after_its_label_and_a_row_of_years_does_not() -> None:
    assert is_figure_row("Cash | 2018: 2,853 | 2017: (3,053)")
    assert is_figure_row("Entropy | 0.89* | 0.64±0.01 | 37.4 %")
    assert is_figure_row("Corporate | — | $ 12")
    assert not is_figure_row("(Dollars in millions) | 2018 | 2017")
    assert not is_figure_row("December 31, | December 31,")
    assert not is_figure_row("Total 2,853")  # no cells


def test_prose_above_a_table_is_not_its_head_and_group_labels_head_only_their_rows() -> None:
    page = _page(
        1,
        [
            ("text", "The following table shows the results of the year, which were"),
            ("text", "lower than the year before."),
            ("heading", "Results by Segment"),
            ("text", "(Dollars in millions)"),
            ("table", "Segment | 2019 | 2018"),
            ("table", "Current segments"),
            ("table", "Ferries | 2019: 120 | 2018: 110"),
            ("table", "Buses | 2019: 80 | 2018: 95"),
        ],
    )
    heads = table_heads([page])
    expected = ["Results by Segment", "(Dollars in millions)", "Segment | 2019 | 2018"]
    assert _head(heads, page.lines[-1]) == expected
    assert _head(heads, page.lines[4]) == expected


def test_a_header_row_after_figures_starts_the_next_table_with_the_title_above_it() -> None:
    page = _page(
        1,
        [
            ("table", "Ferries | 2019: 120 | 2018: 110"),
            ("table", "Year ended December 31, 2019"),
            ("table", "Region | Sales | Growth"),
            ("table", "North | Sales: 70 | Growth: 3.1 %"),
        ],
    )
    heads = table_heads([page])
    assert _head(heads, page.lines[0]) == []
    assert _head(heads, page.lines[-1]) == ["Year ended December 31, 2019", "Region | Sales | Growth"]


def test_a_page_opening_with_figures_goes_on_with_the_table_that_ended_the_page_before() -> None:
    first = _page(1, [("text", "Balance Sheet (in thousands)"), ("table", "Cash | 2019: 12 | 2018: 10")])
    second = _page(2, [("table", "Inventories | 2019: 7 | 2018: 9"), ("text", "Notes follow.")])
    third = _page(3, [("table", "Debt | 2019: 5 | 2018: 4")])
    heads = table_heads([first, second, third])
    assert _head(heads, second.lines[0]) == ["Balance Sheet (in thousands)"]
    assert _head(heads, third.lines[0]) == []  # the page before ended in prose: no table goes on


def test_a_table_of_words_is_headed_by_its_first_row() -> None:
    page = _page(1, [("table", "Name | Type"), ("table", "size | integer"), ("table", "label | string")])
    assert _head(table_heads([page]), page.lines[2]) == ["Name | Type"]


def test_the_head_a_chunk_carries_leaves_out_its_own_lines_and_keeps_the_nearest_within_budget() -> None:
    page = _page(1, [("text", "T" * 400), ("text", "(in millions)"), ("table", "A | 2019 | 2018")])
    head = [page.lines[0], page.lines[1], page.lines[2]]
    assert head_text(head, set()) == "(in millions)\nA | 2019 | 2018"  # a 400-character title does not fit
    assert head_text(head, {id(page.lines[2])}) == "(in millions)"


def test_the_tail_of_a_caption_above_is_no_title_but_an_abbreviated_column_name_is() -> None:
    page = _page(
        1,
        [
            ("text", "Table 3: Accuracy of each model. We compare the small model"),
            ("text", "Small (base) and Large (130b)."),
            ("text", "HARBOUR FERRIES, INC."),
            ("text", "Net Sales % of Oper."),
            ("table", "Model | Accuracy"),
            ("table", "Small | Accuracy: 0.91"),
        ],
    )
    expected = ["HARBOUR FERRIES, INC.", "Net Sales % of Oper.", "Model | Accuracy"]
    assert _head(table_heads([page]), page.lines[-1]) == expected
