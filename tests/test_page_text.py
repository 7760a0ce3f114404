"""Reading a page's characters: words split where they are set apart, line-break hyphens, characters outside the
BMP, TeX's symbol fonts."""

from pathlib import Path

import pypdfium2 as pdfium

from kb.page_text import read_lines
from kb.parse import parse_pdf
from kb.symbol_fonts import _OMS, _OMX, decode, encoding_of
from tests import layouts


def _lines(path: Path) -> list:
    pdf = pdfium.PdfDocument(str(path))
    page = pdf[0]
    try:
        return read_lines(page.get_textpage(), page.get_size()[1])
    finally:
        pdf.close()


def test_words_set_apart_without_a_space_are_split(tmp_path: Path):
    pdf = pdfium.PdfDocument(str(layouts.tight_words_pdf(tmp_path / "tight.pdf")))
    assert "callsfor" in pdf[0].get_textpage().get_text_range()  # pdfium alone glues them
    pdf.close()
    (line,) = _lines(tmp_path / "tight.pdf")
    assert line.text == "The protocol calls for a key exchange at every session."


def test_hyphen_at_a_line_break_ends_its_line(tmp_path: Path):
    lines = _lines(layouts.hyphenation_pdf(tmp_path / "hyphens.pdf"))
    assert [ln.text for ln in lines[:2]] == ["Our baseline is the XR-", "7 model trained on inter-"]
    assert [ln.broken for ln in lines] == [True, True, True, True, False]


def test_a_page_with_a_character_outside_the_bmp_keeps_every_box(tmp_path: Path):
    path = layouts.symbols_pdf(tmp_path / "symbols.pdf")
    pdf = pdfium.PdfDocument(str(path))
    textpage = pdf[0].get_textpage()
    assert len(textpage.get_text_range()) != textpage.count_chars()  # the old offsets no longer match
    pdf.close()
    lines = _lines(path)
    assert lines[0].text == "Let x be the reading of the gauge."
    for line in lines:
        assert line.x1 > line.x0 > 0 and line.bottom > line.top > 0
        assert all(w[2] > w[0] for w in line.words)


def test_a_tex_symbol_font_prints_its_symbols(tmp_path: Path):
    doc = parse_pdf(layouts.symbols_pdf(tmp_path / "symbols.pdf"), "symbols", 10)
    assert doc.pages[0].lines[1].text == "The norm ‖v‖ stays below one."


def test_symbol_encodings_map_codes_pdfium_could_not_name():
    assert encoding_of("ABCDEF+CMSY10") is _OMS and encoding_of("CMEX10") is _OMX
    assert encoding_of("CMMI10") is None and encoding_of("Helvetica") is None
    assert chr(decode(ord("k"), _OMS)) == "‖" and chr(decode(ord("h"), _OMS)) == "⟨"
    assert chr(decode(ord("P"), _OMX)) == "∑" and chr(decode(0, _OMX)) == "("
    assert chr(decode(ord("{"), _OMS)) == "{"  # a symbol pdfium named correctly stays
    assert chr(decode(ord("N"), _OMS)) == "N"  # calligraphic capitals read as letters


def test_rotated_text_reads_as_one_line(tmp_path: Path):
    doc = parse_pdf(layouts.figure_pdf(tmp_path / "figure.pdf"), "figure", 10)
    (label,) = [ln for ln in doc.pages[0].lines if "Stations" in ln.text and "Figure" not in ln.text]
    assert label.text == "Count of Stations" and label.bottom - label.top > label.x1 - label.x0


def test_line_break_hyphens_survive_where_pdfiums_text_leaves_characters_out(tmp_path: Path, monkeypatch):
    """Read one by one, pdfium reports the line-break hyphen as code 2, not U+FFFE."""
    import kb.page_text as page_text

    monkeypatch.setattr(page_text, "_codes", page_text.codes_one_by_one)
    lines = _lines(layouts.hyphenation_pdf(tmp_path / "hyphens.pdf"))
    assert [ln.text for ln in lines[:2]] == ["Our baseline is the XR-", "7 model trained on inter-"]
    assert [ln.broken for ln in lines] == [True, True, True, True, False]
