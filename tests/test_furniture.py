"""Page furniture: running headers and footers, page numbers and margin line numbers are dropped; the text stays."""

import re
from pathlib import Path

from kb.chunk import chunk_document
from kb.furniture import remove_furniture
from kb.parse import parse_pdf
from kb.parsed import Line, Page
from tests import layouts


def test_running_header_footer_and_page_numbers_are_dropped(tmp_path: Path):
    doc = parse_pdf(layouts.draft_pdf(tmp_path / "draft.pdf"), "draft", 10)
    texts = [ln.text for page in doc.pages for ln in page.lines]
    assert not [t for t in texts if layouts.HEADER in t or layouts.FOOTER_ORG in t or re.search(r"Page \d", t)]
    assert len(texts) == 4 * 14 and all(t.startswith("Clause ") and t.endswith("steady.") for t in texts)
    assert doc.furniture == 4 * 2 + 4 * 14  # header and footer line per page, and every margin number


def test_margin_line_numbers_are_dropped_in_blocks_and_on_the_line(tmp_path: Path):
    doc = parse_pdf(layouts.draft_pdf(tmp_path / "draft.pdf"), "draft", 10)
    odd, even = doc.pages[0], doc.pages[1]  # odd pages draw the numbers as a block, even ones on each line
    for page in (odd, even):
        assert all(ln.text.startswith("Clause") for ln in page.lines)
        assert all(ln.x0 >= 70 for ln in page.lines)  # the boxes no longer reach into the margin


def _page(number: int, lines: list[tuple[str, float]], height: float = 800) -> Page:
    return Page(number, 600, height, [Line(text, 72, top, 300, top + 10, size=10) for text, top in lines])


def test_page_numbers_at_varying_heights_are_dropped_and_text_is_kept():
    """Page numbers in several forms, each too rare to be a running line: the page-number rule drops them."""
    words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot"]
    numbers = ["3", "- 4 -", "v", "Page 6", "7 of 9", "B-8"]
    pages = [
        _page(n, [(f"Body sentence about {w}.", 100), (f"More about {w} here.", 120), (number, 130 + 40 * n)])
        for n, (w, number) in enumerate(zip(words, numbers), 1)
    ]
    dropped, running = remove_furniture(pages)
    assert dropped == 6 and running == []
    for page, w in zip(pages, words):
        assert [ln.text for ln in page.lines] == [f"Body sentence about {w}.", f"More about {w} here."]


def test_a_line_repeated_on_few_pages_is_text():
    pages = [
        _page(n, [("Consolidated Statement of Income" if n < 3 else f"Note {n}", 50), ("Text.", 90)])
        for n in range(1, 11)
    ]
    remove_furniture(pages)
    assert sum(ln.text == "Consolidated Statement of Income" for p in pages for ln in p.lines) == 2


def test_a_footer_that_follows_the_text_is_dropped_wherever_the_text_ends():
    topics = ["cranes", "winches", "booms", "cables", "brakes", "hooks"]
    pages = [
        _page(
            n,
            [
                (f"Text about {t} on this page.", 100),
                (f"More on {t}.", 115 + 60 * n),
                (f"Guide 2024 {n}", 140 + 60 * n),
            ],
        )
        for n, t in enumerate(topics, 1)
    ]
    dropped, _ = remove_furniture(pages)
    assert dropped == 6 and all(len(p.lines) == 2 for p in pages)


def test_the_running_line_of_an_appended_exhibit_is_dropped():
    """An exhibit's footer on ten pages of a fifty-page document: too few pages overall, but a dense stretch."""
    pages = [_page(n, [(f"Body {'abcdefghij'[n % 10]} text {n // 10}.", 100)]) for n in range(1, 51)]
    for page in pages[30:40]:
        page.lines.append(Line("Supply Agreement – Exhibit Terms", 72, 700, 300, 710, size=10))
    dropped, running = remove_furniture(pages)
    assert running == ["Supply Agreement – Exhibit Terms"] and dropped == 10


def test_axis_ticks_counting_up_are_dropped_and_years_stay(tmp_path: Path):
    doc = parse_pdf(layouts.figure_pdf(tmp_path / "figure.pdf"), "figure", 10)
    (chunk,) = chunk_document(doc, lambda texts: [len(t.split()) for t in texts])
    assert "100 101 102" not in chunk.text
    assert chunk.text.endswith("Count of Stations Figure 2. Stations per tidal range, counted over the survey.")
    ticks = _page(1, [(str(v), 100 + 20 * v) for v in range(0, 6)] + [("Stations counted.", 300)])
    remove_furniture([ticks])
    assert [ln.text for ln in ticks.lines] == ["Stations counted."]
    page = _page(1, [("Maturities 2019 2020 2021 2022 2023", 100)])
    page.lines[0].words = [(72 + 40 * k, 100, 100 + 40 * k, 110, w) for k, w in enumerate(page.lines[0].text.split())]
    remove_furniture([page])
    assert page.lines[0].text == "Maturities 2019 2020 2021 2022 2023"


def test_evenly_stepping_ticks_are_dropped_and_figures_stay():
    def line(text: str, top: float) -> Line:
        words = [(72 + 40 * k, top, 100 + 40 * k, top + 10, w) for k, w in enumerate(text.split())]
        return Line(text, 72, top, 100 + 40 * len(words), top + 10, size=10, words=words)

    page = Page(
        1,
        600,
        800,
        [
            line("0.2 0.4 0.6 0.8 Accuracy", 100),
            line("4 8 16 32 64", 120),
            line("Sales 12.5 7.1 3.3 9.9", 140),
            line("2019 2020 2021 2022", 160),
        ],
    )
    remove_furniture([page])
    assert [ln.text for ln in page.lines] == ["Accuracy", "Sales 12.5 7.1 3.3 9.9", "2019 2020 2021 2022"]


def _spaced(text: str, top: float, gap: float = 3.0) -> Line:
    """A line of 10 pt words, the last one `gap` points after the one before (a page number set apart)."""
    words, x = [], 72.0
    parts = text.split()
    for n, part in enumerate(parts):
        x += gap - 3.0 if n == len(parts) - 1 else 0.0
        words.append((x, top, x + 6.0 * len(part), top + 10, part))
        x += 6.0 * len(part) + 3.0
    return Line(text, words[0][0], top, words[-1][2], top + 10, size=10, words=words)


def test_a_header_naming_each_chapter_with_the_page_number_is_dropped_and_a_numbered_line_is_kept():
    """Even pages head with "Chapter N: its title   <page>", odd ones with the number alone: no one header line
    repeats, but each carries the page's printed number (its index + 2), set apart from its words. A first line
    whose number sits beside its words ("Step 7", on page 5) is text even when that number is the page's."""
    titles = {2: "Parsing", 4: "Parsing", 6: "Encoding", 8: "Encoding", 10: "Errors"}
    pages = []
    for n in range(1, 11):
        if n in titles:
            first = _spaced(f"Chapter {n // 3 + 1}: {titles[n]} {n + 2}", 40, gap=200)
        else:
            first = _spaced(f"Step {n + 2}" if n == 5 else str(n + 2), 40)
        prose = [
            _spaced(f"The manual says {word} on line {letter} of this page.", 100 + 20 * i)
            for i, (word, letter) in enumerate(zip(["how", "why", "when", "where", "what"], "abcdefghij"[n - 1] * 5))
        ]
        pages.append(Page(n, 600, 800, [first, *prose]))
    remove_furniture(pages)
    kept = [ln.text for page in pages for ln in page.lines]
    assert not [t for t in kept if t.startswith("Chapter") or t.isdigit()]
    assert "Step 7" in kept and sum(t.startswith("The manual says") for t in kept) == 50


def test_a_chapter_title_atop_its_few_pages_is_dropped_and_a_title_never_numbered_stays():
    """Forty pages; chapter 2 ("2. Using the winch", on page 5) heads its pages 6-9 with its title: four pages, too
    few for a running line of the document, but the title the document numbers as a heading. A statement's title
    atop three pages that is never numbered elsewhere is content, and so is the chapter's own numbered heading."""
    pages = [_page(n, [(f"Body {'abcdefghij'[n % 10]} text {n // 10}.", 100)]) for n in range(1, 41)]
    pages[4].lines.insert(0, Line("2. Using the winch", 72, 60, 300, 76, size=16))
    for page in pages[5:9]:
        page.lines.insert(0, Line("Using the winch", 72, 40, 300, 50, size=10))
    for page in pages[20:23]:
        page.lines.insert(0, Line("Statement of Winch Hours", 72, 40, 300, 50, size=10))
    remove_furniture(pages)
    kept = [ln.text for page in pages for ln in page.lines]
    assert "Using the winch" not in kept and "2. Using the winch" in kept
    assert kept.count("Statement of Winch Hours") == 3 and len(kept) == 44
