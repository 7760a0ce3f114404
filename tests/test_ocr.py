"""kb.ocr: image pages read by tesseract into lines with boxes, the pages left alone, and the notes on those skipped."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pytest

from kb import ocr
from kb.base import KnowledgeBase
from kb.cli import main
from kb.ocr import lines_from_tsv, needs_ocr, page_ranges, settle_sizes
from kb.ocr_settings import OcrSettings
from kb.page_objects import scan
from kb.parse import ParseError, parse_pdf
from kb.parsed import Line
from kb.settings import KBSettings
from tests import pdfgen

HEADER = "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext"


def _word(block: int, line: int, left: int, top: int, width: int, height: int, conf: float, text: str) -> str:
    return f"5\t1\t{block}\t1\t{line}\t1\t{left}\t{top}\t{width}\t{height}\t{conf}\t{text}"


def test_lines_from_tsv_groups_words_into_lines_with_boxes_in_points():
    tsv = "\n".join(
        [
            HEADER,
            "4\t1\t1\t1\t1\t0\t100\t200\t400\t40\t-1\t",  # a line row: not a word
            _word(1, 1, 100, 200, 150, 40, 96, "Sensor"),
            _word(1, 1, 270, 200, 230, 40, 95, "calibra-"),
            _word(1, 2, 100, 260, 120, 30, 94, "tion"),
        ]
    )
    lines = lines_from_tsv(tsv, scale=2.0, min_confidence=40)
    assert [ln.text for ln in lines] == ["Sensor calibra-", "tion"]
    first = lines[0]
    assert (first.x0, first.top, first.x1, first.bottom) == (50, 100, 250, 120)  # pixels at scale 2 -> points
    assert first.words == [(50, 100, 125, 120, "Sensor"), (135, 100, 250, 120, "calibra-")]
    assert first.broken and not lines[1].broken  # a hyphen at a line end is left to the hyphenation step


def test_low_confidence_lines_and_vertical_text_are_left_out():
    tsv = "\n".join(
        [
            HEADER,
            _word(1, 1, 100, 100, 200, 30, 91, "Readable"),
            _word(2, 1, 100, 300, 40, 30, 12, "~%"),  # the texture of a picture
            _word(2, 1, 150, 300, 40, 30, 20, "|\\"),
            _word(3, 1, 10, 100, 30, 600, 90, "preprint:2301.0001"),  # a margin stamp set vertically
        ]
    )
    assert [ln.text for ln in lines_from_tsv(tsv, scale=1.0, min_confidence=40)] == ["Readable"]


def test_type_size_is_read_alike_from_words_of_any_shape_and_settled_to_one_body_size():
    # 10 pt type at 300 dpi: an em is 41.7 px; "we" is x-height only, "of" has an ascender, "large" both.
    tsv = "\n".join(
        [
            HEADER,
            _word(1, 1, 0, 0, 40, 20, 95, "we"),
            _word(1, 1, 50, 0, 40, 29, 95, "of"),
            _word(1, 2, 0, 60, 90, 38, 95, "large"),
            _word(1, 3, 0, 120, 300, 60, 95, "Heading"),  # set at about 18 pt
        ]
    )
    lines = lines_from_tsv(tsv, scale=300 / 72, min_confidence=40)
    settle_sizes(lines)
    body = [ln.size for ln in lines[:2]]
    assert body[0] == body[1] and 9.5 <= body[0] <= 10.5
    assert lines[2].size > 1.5 * body[0]


def test_needs_ocr_only_for_image_pages_without_usable_text():
    settings = OcrSettings()
    stamp = [Line("Page 3", 0, 0, 30, 10)]
    garbled = [Line("\ue000\ue001\ue002 " * 20, 0, 0, 30, 10)]
    text = [Line("A page of running text with enough words to be read as it is.", 0, 0, 300, 10)]
    scanner_layer = [
        Line("A scanner's own OCR layer holds the words of the whole page, line after line. " * 4, 0, 0, 9, 9)
    ]
    page = 600.0 * 800.0
    assert needs_ocr([], page * 0.9, page, settings)  # a scan
    assert needs_ocr(stamp, page * 0.9, page, settings)  # a scan with a scanner's stamp
    assert needs_ocr([Line("Scanned with PocketScan Pro", 0, 0, 30, 10)], page * 0.95, page, settings)
    assert needs_ocr(garbled, page * 0.5, page, settings)  # glyphs without a character mapping
    assert not needs_ocr(text, page * 0.5, page, settings)  # a figure with its caption: the text layer is used
    assert not needs_ocr(scanner_layer, page, page, settings)  # a scan already OCR'd by its scanner
    assert not needs_ocr([], page * 0.02, page, settings)  # a page with a small logo only
    assert not needs_ocr([], page * 0.9, page, OcrSettings(enabled=False))


def test_page_ranges_reads_runs():
    assert page_ranges([9, 3, 4, 5]) == "3-5, 9"
    assert page_ranges([]) == ""


def test_scanned_pdf_is_read_by_ocr_with_boxes_and_progress(tmp_path: Path):
    scan = pdfgen.scanned_pdf(tmp_path / "scan.pdf", pdfgen.report_pdf(tmp_path / "report.pdf"))
    seen: list[tuple[int, int]] = []
    doc = parse_pdf(scan, "scan", 10, OcrSettings(), lambda done, total: seen.append((done, total)))
    assert [p.ocr for p in doc.pages] == [True, True, True]
    assert seen[0] == (0, 3) and seen[-1] == (3, 3) and len(seen) == 4
    text = {p.number: " ".join(ln.text for ln in p.lines) for p in doc.pages}
    assert "basalt station logged the highest humidity" in text[2]
    assert "cobalt sensors failed" in text[3] and "cobalt" not in text[2]
    assert doc.title == "Quarterly Field Report on Sensor Arrays"  # the cover's large type, read from pixels
    assert any(ln.kind == "heading" and ln.text == "2 Results" for ln in doc.pages[1].lines)
    marker = next(ln for ln in doc.pages[1].lines if "basalt" in ln.text)
    printed = next(ln for ln in parse_pdf(tmp_path / "report.pdf", "report", 10).pages[1].lines if "basalt" in ln.text)
    box, text_box = (
        (marker.x0, marker.top, marker.x1, marker.bottom),
        (printed.x0, printed.top, printed.x1, printed.bottom),
    )
    assert box == pytest.approx(text_box, abs=3)  # where the text layer has the line, in points


def test_a_page_scanned_sideways_is_read_with_its_boxes_on_the_page_as_scanned(tmp_path: Path):
    report = pdfgen.report_pdf(tmp_path / "report.pdf")
    doc = parse_pdf(pdfgen.scanned_pdf(tmp_path / "turned.pdf", report, turn=90), "turned", 10)
    page = doc.pages[1]
    assert page.width > page.height  # the scan is landscape: its text runs bottom to top
    marker = next(ln for ln in page.lines if "basalt station logged the highest humidity" in ln.text)
    assert marker.bottom - marker.top > 5 * (marker.x1 - marker.x0)  # a tall box, where the line is on the scan
    assert 9 <= marker.size <= 11.5  # read across the line, as on an upright page (10 pt)
    assert "cobalt sensors failed" in " ".join(ln.text for ln in doc.pages[2].lines)


def test_a_scan_inside_a_scaled_form_is_measured_on_the_page_and_read(tmp_path: Path):
    report = pdfgen.report_pdf(tmp_path / "report.pdf")
    doc = parse_pdf(pdfgen.form_scan_pdf(tmp_path / "form.pdf", report), "form", 10)
    assert doc.pages[0].ocr and "basalt station" in " ".join(ln.text for ln in doc.pages[0].lines)
    pdf = pdfium.PdfDocument(str(pdfgen.form_scan_pdf(tmp_path / "half.pdf", report, (2.975, 4.21))))
    page = pdf[0]
    width, height = page.get_size()
    assert scan(page.raw, height).image_area / (width * height) == pytest.approx(0.25, abs=0.01)
    pdf.close()


def test_mixed_pdf_keeps_its_text_pages_and_skips_a_blank_scan_with_a_note(tmp_path: Path):
    doc = parse_pdf(pdfgen.mixed_pdf(tmp_path / "mixed.pdf", tmp_path), "mixed", 10)
    assert [p.ocr for p in doc.pages] == [False, True, False, False]
    assert doc.notes == ["page 3 skipped: blank image"]
    assert "basalt station" in " ".join(ln.text for ln in doc.pages[1].lines)
    assert not doc.pages[2].lines


def test_notes_name_each_reason_once_with_its_pages(tmp_path: Path):
    blank = pdfgen.blank_scan_pdf(tmp_path / "blank.pdf")
    scanned = pdfgen.scanned_pdf(tmp_path / "scan.pdf", pdfgen.report_pdf(tmp_path / "report.pdf"))
    out = pdfium.PdfDocument.new()
    for source, index in ((blank, 0), (blank, 0), (scanned, 1), (blank, 0), (scanned, 2)):
        pdf = pdfium.PdfDocument(str(source))
        out.import_pages(pdf, [index])
        pdf.close()
    out.save(str(tmp_path / "both.pdf"))
    out.close()
    doc = parse_pdf(tmp_path / "both.pdf", "both", 10)
    assert doc.notes == ["pages 1-2, 4 skipped: blank image"]
    assert [p.ocr for p in doc.pages] == [False, False, True, False, True]


def test_a_document_with_no_readable_page_gets_one_line_error(tmp_path: Path):
    with pytest.raises(ParseError, match=r"^no extractable text \(scanned image; page 1 skipped: blank image\)$"):
        parse_pdf(pdfgen.blank_scan_pdf(tmp_path / "blank.pdf"), "blank", 10)
    with pytest.raises(ParseError, match=r"page 1 skipped: no text OCR could read"):
        parse_pdf(pdfgen.image_only_pdf(tmp_path / "photo.pdf"), "photo", 10)


def test_without_tesseract_the_image_pages_are_skipped_and_the_reason_given(tmp_path: Path, monkeypatch):
    monkeypatch.setattr(ocr, "unavailable", lambda language: "tesseract is not installed, see the README")
    mixed = parse_pdf(pdfgen.mixed_pdf(tmp_path / "mixed.pdf", tmp_path), "mixed", 10)
    assert mixed.notes == ["pages 2-3 skipped: OCR unavailable, tesseract is not installed, see the README"]
    scan = pdfgen.scanned_pdf(tmp_path / "scan.pdf", tmp_path / "mixed-text.pdf")
    with pytest.raises(ParseError, match=r"pages 1-3 skipped: OCR unavailable, tesseract is not installed"):
        parse_pdf(scan, "scan", 10)


def test_ocr_settings_reach_the_parser_processes(tmp_path: Path):
    folder = tmp_path / "scans"
    folder.mkdir()
    report = pdfgen.report_pdf(tmp_path / "report.pdf")
    for name in ("one", "two"):
        pdfgen.scanned_pdf(folder / f"{name}.pdf", report)
    settings = KBSettings(store_dir=tmp_path / "store", parse_workers=2, ocr=OcrSettings(enabled=False))
    summary = KnowledgeBase(settings).ingest([folder])
    assert [f.status for f in summary.files] == ["failed", "failed"]
    assert all(f.error.endswith("no extractable text (scanned image?)") for f in summary.files)


def test_page_limit_skips_later_image_pages_with_a_note(tmp_path: Path):
    scan = pdfgen.scanned_pdf(tmp_path / "scan.pdf", pdfgen.report_pdf(tmp_path / "report.pdf"))
    doc = parse_pdf(scan, "scan", 10, OcrSettings(max_pages=1))
    assert [p.ocr for p in doc.pages] == [True, False, False]
    assert doc.notes == ["pages 2-3 skipped: over the OCR limit of 1 pages per document"]


def test_ocr_pages_are_ingested_searchable_on_their_page_and_marked(tmp_path: Path, capsys):
    folder = tmp_path / "docs"
    folder.mkdir()
    pdfgen.scanned_pdf(folder / "scan.pdf", pdfgen.report_pdf(tmp_path / "report.pdf"))
    pdfgen.mixed_pdf(folder / "mixed.pdf", tmp_path)
    kb = KnowledgeBase(KBSettings(store_dir=tmp_path / "store", parse_workers=2))  # OCR in parser processes
    events = []
    summary = kb.ingest([folder], events.append)
    outcomes = {Path(f.path).name: f for f in summary.files}
    assert outcomes["scan.pdf"].status == "ingested" and outcomes["scan.pdf"].ocr_pages == 3
    assert outcomes["mixed.pdf"].ocr_pages == 1 and outcomes["mixed.pdf"].notes == [
        "mixed.pdf: page 3 skipped: blank image"
    ]
    ocr_events = [e for e in events if e.stage == "ocr"]
    assert {Path(e.path).name for e in ocr_events} == {"scan.pdf", "mixed.pdf"}
    assert any(e.done == e.total == 3 and e.path.endswith("scan.pdf") for e in ocr_events)
    records = {d.doc_id: d for d in kb.documents()}
    assert records["scan"].ocr_pages == "1-3" and records["mixed"].ocr_pages == "2"
    assert records["mixed"].notes == "page 3 skipped: blank image"
    hits = kb.search("basalt station humidity readings", k=3, docs=["mixed"])
    assert hits[0].start_page == 2 and hits[0].ocr and hits[0].regions and hits[0].regions[0].page == 2
    text_hits = kb.search("cobalt sensors salt spray", k=3, docs=["mixed"])
    assert text_hits[0].start_page == 4 and not text_hits[0].ocr
    assert main(["--store", str(tmp_path / "store"), "docs"]) == 0
    listing = capsys.readouterr().out
    assert "[OCR pages 1-3]" in listing and "[OCR pages 2]" in listing


def test_cli_ingest_prints_the_notes_of_skipped_pages(tmp_path: Path, capsys):
    mixed = pdfgen.mixed_pdf(tmp_path / "mixed.pdf", tmp_path)
    assert main(["--store", str(tmp_path / "store"), "ingest", "--quiet", str(mixed)]) == 0
    assert "note: mixed.pdf: page 3 skipped: blank image" in capsys.readouterr().err.splitlines()
