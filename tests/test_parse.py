"""Parsing and chunking: page accuracy, headings, tables, sizes, bad files."""

from pathlib import Path

import pytest

from kb.chunk import chunk_document
from kb.embed import get_embedder
from kb.parse import ParseError, parse_pdf
from tests import pdfgen

MARKERS = {"aurora": 1, "basalt": 2, "cobalt": 3}


@pytest.fixture(scope="module")
def embedder():
    return get_embedder()


def test_lines_are_on_their_physical_page(tmp_path: Path):
    doc = parse_pdf(pdfgen.report_pdf(tmp_path / "report.pdf"), "report", 10)
    assert [p.number for p in doc.pages] == [1, 2, 3]
    for word, page in MARKERS.items():
        pages = {p.number for p in doc.pages for ln in p.lines if word in ln.text}
        assert pages == {page}, word
    assert doc.title == "Quarterly Field Report on Sensor Arrays"


def test_chunks_are_page_accurate_with_regions_and_sections(tmp_path: Path, embedder):
    doc = parse_pdf(pdfgen.report_pdf(tmp_path / "report.pdf"), "report", 10)
    chunks = chunk_document(doc, embedder.count_tokens, target=40, limit=60, min_tokens=10)
    assert chunks
    for word, page in MARKERS.items():
        holding = [c for c in chunks if word in c.text]
        assert holding, word
        for c in holding:
            assert c.start_page <= page <= c.end_page
    for c in chunks:
        assert c.end_page - c.start_page <= 1
        assert c.doc_id == "report"
        assert c.regions and {r.page for r in c.regions} <= set(range(c.start_page, c.end_page + 1))
        for r in c.regions:
            assert 0 <= r.x0 < r.x1 <= r.width and 0 <= r.top < r.bottom <= r.height
    basalt = next(c for c in chunks if "basalt" in c.text)
    assert basalt.section.startswith("2 Results")
    again = chunk_document(doc, embedder.count_tokens, target=40, limit=60, min_tokens=10)
    assert [c.chunk_id for c in again] == [c.chunk_id for c in chunks]


def test_table_becomes_rows_inside_its_page_chunk(tmp_path: Path, embedder):
    doc = parse_pdf(pdfgen.report_pdf(tmp_path / "report.pdf"), "report", 10)
    assert doc.tables == 1
    rows = [ln.text for ln in doc.pages[1].lines if ln.kind == "table"]
    assert rows == [
        "Station | Code | Reading",
        "North ridge | QX-7731 | Reading: 42.5",
        "South basin | ZP-1029 | Reading: 17.25",
    ]
    chunks = chunk_document(doc, embedder.count_tokens)
    holder = next(c for c in chunks if "QX-7731" in c.text)
    assert holder.start_page <= 2 <= holder.end_page
    assert "North ridge | QX-7731 | Reading: 42.5" in holder.text


def test_chunks_fit_the_model_and_span_at_most_two_pages(tmp_path: Path, embedder):
    doc = parse_pdf(pdfgen.long_pdf(tmp_path / "long.pdf", pages=6), "long", 10)
    chunks = chunk_document(doc, embedder.count_tokens, target=160, limit=220)
    assert len(chunks) > 6
    for c in chunks:
        assert c.end_page - c.start_page <= 1
        assert embedder.count_tokens([c.embed_text()])[0] <= embedder.max_tokens - 2
    # every sentence survives chunking exactly once, in order
    text = " ".join(c.text for c in chunks)
    assert text.count("Sentence 4-17 ") == 1


def test_over_long_texts_are_embedded_in_parts(embedder):
    long_text = "word " * 1200
    vec = embedder.encode([long_text, "short text"])
    assert vec.shape == (2, embedder.dimension)
    assert abs(float((vec[0] ** 2).sum()) - 1.0) < 1e-3


@pytest.mark.parametrize(
    ("maker", "fragment"),
    [
        ("encrypted", "encrypted PDF"),
        ("truncated", "truncated"),
        ("notpdf", "not a PDF"),
        ("empty", "empty file"),
        ("image", "no extractable text (scanned image; page 1 skipped: no text OCR could read)"),
        ("oversize", "over the 0.001 MB limit"),
    ],
)
def test_bad_files_raise_one_line_reasons(tmp_path: Path, maker: str, fragment: str):
    path = tmp_path / "bad.pdf"
    limit = 10.0
    if maker == "encrypted":
        pdfgen.encrypted_pdf(path)
    elif maker == "truncated":
        data = pdfgen.report_pdf(tmp_path / "whole.pdf").read_bytes()
        path.write_bytes(data[: len(data) // 2])
    elif maker == "notpdf":
        path.write_text("hello")
    elif maker == "empty":
        path.write_bytes(b"")
    elif maker == "image":
        pdfgen.image_only_pdf(path)
    else:
        pdfgen.report_pdf(path)
        limit = 0.001
    with pytest.raises(ParseError) as err:
        parse_pdf(path, "bad", limit)
    assert fragment in str(err.value)
    assert "\n" not in str(err.value)


def test_rules_framing_running_text_are_not_a_table(tmp_path: Path):
    doc = parse_pdf(pdfgen.framed_prose_pdf(tmp_path / "framed.pdf"), "framed", 10)
    assert doc.tables == 0
    lines = [ln.text for ln in doc.pages[0].lines]
    assert all(ln.kind != "table" for ln in doc.pages[0].lines)
    assert (
        lines.count("The reference oscillator settles within forty milliseconds after every cold start of the unit.")
        == 6
    )
