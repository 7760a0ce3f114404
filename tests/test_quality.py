"""Parse-quality figures: the pure checks on synthetic chunks, running lines read from a generated PDF, and the
figures of a real store (with its PDF found through the catalogue or the fallback folder)."""

import re
from pathlib import Path
from types import SimpleNamespace

import pytest
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas

from kb.base import KnowledgeBase
from kb.quality import (
    dominant_sections,
    duplicate_titles,
    has_line_number_run,
    leaked_lines,
    line_key,
    measure,
    running_lines,
    untitled,
)
from kb.settings import KBSettings
from tests.pdfgen import FILLER

HEADER = "Northwind Traders Annual Report 2023"
WORDS = [
    "alpha",
    "bravo",
    "charlie",
    "delta",
    "echo",
    "foxtrot",
    "golf",
    "hotel",
    "india",
    "juliet",
    "kilo",
    "lima",
    "mike",
]


def _headed_pdf(path: Path, pages: int = 5) -> Path:
    """A running header and a '- n -' footer on every page, a title on page 1 only, body text between."""
    c = canvas.Canvas(str(path), pagesize=A4)
    width, height = A4
    for n in range(1, pages + 1):
        c.setFont("Helvetica", 8)
        c.drawString(60, height - 40, HEADER)
        c.drawCentredString(width / 2, 30, f"- {n} -")
        y = height - 90
        if n == 1:
            c.setFont("Helvetica-Bold", 18)
            c.drawString(60, y, "Letter to the Shareholders")
            y -= 30
        c.setFont("Helvetica", 10)
        for i in range(12):
            c.drawString(60, y, f"{WORDS[n]} {WORDS[i]}: {FILLER[:80]}")  # no line repeats on another page
            y -= 14
        c.showPage()
    c.save()
    return path


def _record(text: str, start: int = 1, end: int = 1) -> dict:
    return {"chunk_id": f"c{start}-{len(text)}", "doc_id": "d", "start_page": start, "end_page": end, "text": text}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("margin 505 506 507 508 then text", True),
        ("10\n11  12\t13", True),
        ("505 506 507", False),
        ("1 2 3 5 6 7", False),
        ("3.1 3.2 3.3 3.4", False),
        ("2022 2021 2020 2019", False),
        ("(in millions) 2019 2020 2021 2022 2023 Thereafter", False),  # year columns, not line numbers
        ("1897 1898 1899 1900 1901", True),
        ("7 8 9 x 10 11", False),
    ],
)
def test_line_number_runs(text: str, expected: bool):
    assert has_line_number_run(text) is expected


def test_titles_and_sections():
    titles = {"a": "Annual  Report", "b": "annual report", "c": "Other", "d": "  ", "e": ""}
    assert untitled(titles) == ["d", "e"]
    assert duplicate_titles(titles) == ["a", "b"]
    records = [
        *({"doc_id": "x", "section": "1 Intro"} for _ in range(3)),
        {"doc_id": "x", "section": "2 Method"},
        *({"doc_id": "y", "section": s} for s in ("A", "A", "B", "B")),  # half is not more than half
        *({"doc_id": "z", "section": ""} for _ in range(3)),  # empty labels never dominate
        {"doc_id": "z", "section": "A"},
    ]
    assert dominant_sections(records) == ["x"]


def test_leaks_need_the_running_line_on_one_of_the_chunks_pages():
    running = {1: [HEADER, "- 1 -"], 2: [HEADER, "- 2 -"], 3: ["- 3 -"]}
    key = line_key(HEADER)
    assert key == "northwind traders annual report #"
    assert leaked_lines(_record(f"text {HEADER.upper()}  more", 1, 1), running) == {key}
    assert leaked_lines(_record("- 2 - Revenue grew by five percent.", 2, 2), running) == {"- # -"}
    assert leaked_lines(_record("Revenue grew. - 3 -", 3, 3), running) == {"- # -"}
    assert leaked_lines(_record("Revenue grew - 3 - in the year.", 3, 3), running) == set()  # marker mid-text
    heading = {**_record("3 Results\nRevenue grew.", 3, 3), "section": "2 Overview > 3 Results"}
    assert leaked_lines(heading, {3: ["3"]}) == set()  # the heading's number, not the page number
    assert leaked_lines({**heading, "section": "2 Overview"}, {3: ["3"]}) == {"#"}
    assert leaked_lines(_record(f"{HEADER} on page three", 3, 3), running) == set()  # not a running line there
    assert leaked_lines(_record(f"spans {HEADER}", 3, 4), running) == set()
    assert leaked_lines(_record(f"spans {HEADER}", 2, 3), running) == {key}
    cover = _record(f"{HEADER} by the harbour board", 1, 1)  # the document's title on its cover
    assert leaked_lines(cover, running, title=HEADER) == set() and leaked_lines(cover, running) == {key}
    assert leaked_lines(_record(f"text {HEADER}", 2, 2), running, title=HEADER) == {key}  # on a later page it leaks


def test_running_lines_are_read_from_the_pdf(tmp_path: Path):
    running = running_lines(_headed_pdf(tmp_path / "annual.pdf"))
    assert sorted(running) == [1, 2, 3, 4, 5]
    assert sorted(running[4]) == sorted([HEADER, "- 4 -"])
    assert all("Letter to the Shareholders" not in lines for lines in running.values())
    assert running_lines(_headed_pdf(tmp_path / "short.pdf", pages=2)) == {}


def _holds(text: str) -> bool:
    """The running header anywhere, or a '- n -' footer at either end (casefolded, whitespace collapsed)."""
    flat = " ".join(text.casefold().split())
    return HEADER.casefold() in flat or bool(re.match(r"- \d+ -( |$)", flat) or re.search(r"(^| )- \d+ -$", flat))


class _Fake:
    """A knowledge base surface: documents() and lexical().records."""

    def __init__(self, docs: list, records: list[dict]):
        self._docs, self._records = docs, records

    def documents(self) -> list:
        return self._docs

    def lexical(self) -> SimpleNamespace:
        return SimpleNamespace(records=self._records)


def _doc(doc_id: str, title: str, source: str = "", **extra) -> SimpleNamespace:
    return SimpleNamespace(doc_id=doc_id, title=title, source=source, status="committed", **extra)


def test_measure_on_synthetic_records(tmp_path: Path):
    docs = [
        _doc("a", "Same Title", organisation="Northwind", period="FY2023"),
        _doc("b", "same  title", organisation=""),
        _doc("c", ""),
        SimpleNamespace(doc_id="p", title="Pending", source="", status="pending"),
    ]
    region = [{"page": 1, "x0": 0, "top": 0, "x1": 1, "bottom": 1, "width": 2, "height": 2}]
    records = [
        {**_record("intro"), "doc_id": "a", "chunk_id": "a0", "section": "1 Intro", "regions": region},
        {**_record("lines 41 42 43 44"), "doc_id": "a", "chunk_id": "a1", "section": "", "regions": region},
        {**_record("contents"), "doc_id": "b", "chunk_id": "b0", "section": "", "regions": [], "kind": "contents"},
        {**_record("body"), "doc_id": "c", "chunk_id": "c0", "section": "S", "regions": region, "kind": "body"},
    ]
    q = measure(_Fake(docs, records))
    assert (q.documents, q.chunks) == (3, 4)
    assert q.regions_share == 0.75
    assert q.untitled_docs == ["c"] and q.duplicate_title_docs == ["a", "b"]
    assert q.dominant_section_docs == ["c"]
    assert q.unlabelled_share == 0.5
    assert q.line_number_run_chunks == 1 and q.line_number_run_ids == ["a1"]
    assert q.contents_chunks == 1
    assert (q.organisation_docs, q.period_docs) == (1, 1)
    assert q.unread_docs == ["a", "b", "c"] and q.running_line_chunks == 0
    met = {t.name: t.met for t in q.targets()}
    assert met == {
        "chunks with a region": False,
        "untitled documents": False,
        "duplicate titles": False,
        "header/footer leakage": True,
        "line-number runs": False,
        "docs with one dominant section": False,
    }


def test_measure_on_a_store_finds_running_lines_that_chunks_hold(tmp_path: Path):
    docs_dir = tmp_path / "docs"
    docs_dir.mkdir()
    _headed_pdf(docs_dir / "annual.pdf", pages=6)
    kb = KnowledgeBase(KBSettings(store_dir=tmp_path / "store", parse_workers=1))
    assert not kb.ingest([docs_dir]).failed
    records = kb.lexical().records
    seen = []
    q = measure(kb, None, seen.append)
    assert seen == ["annual"] and q.unread_docs == [] and q.running_line_docs == 1
    assert q.documents == 1 and q.chunks == len(records)
    # Whatever kb's parser keeps, the figure agrees with a plain look at the chunk texts.
    assert q.running_line_chunks == sum(_holds(r["text"]) for r in records)

    # The PDF moved away: found through the fallback folder, or listed as unread.
    moved = tmp_path / "moved"
    moved.mkdir()
    (docs_dir / "annual.pdf").rename(moved / "annual.pdf")
    assert measure(kb).unread_docs == ["annual"]

    # A chunk holding the running header on its page counts, and the line is named.
    leaky = [{**r, "text": f"{r['text']} {HEADER}"} if r["ordinal"] == 0 else r for r in records]
    fake = measure(_Fake(kb.documents(), leaky), moved)
    assert fake.unread_docs == [] and fake.running_line_chunks >= 1
    assert fake.running_line_share == pytest.approx(fake.running_line_chunks / len(records), abs=1e-4)
    assert line_key(HEADER) in [x.line for x in fake.top_leaked_lines]
