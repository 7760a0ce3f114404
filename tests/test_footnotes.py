"""Footnotes at the foot of a page (kb.footnotes): kept out of the sentence that runs over the page break, and given a
chunk of their own on their page. The PDFs are generated here; the text is invented."""

from __future__ import annotations

from pathlib import Path

from reportlab.pdfgen import canvas

from kb.chunk import chunk_document
from kb.parse import parse_pdf
from tests.layouts import HEIGHT, WIDTH, clause_sentences

NOTE = "Data kept for the bench alone should be stored in /srv/bench."


def footnote_pdf(
    path: Path, mark: str = "3", small: bool = True, gap: float = 30, more: list[str] | None = None
) -> Path:
    """Two pages of 10-point text whose last sentence runs over the break; under page 1's text, `gap` points below
    it, a footnote: its mark in 6 points, its text in 8 (or 10 when not `small`), then the `more` lines of notes."""
    c = canvas.Canvas(str(path), pagesize=(WIDTH, HEIGHT))
    lines = [*clause_sentences(1, 30), "There is one required directory, /var/gate, which holds state files that"]
    c.setFont("Helvetica", 10)
    for i, text in enumerate(lines):
        c.drawString(72, HEIGHT - 80 - 15 * i, text)
    y = HEIGHT - 80 - 15 * (len(lines) - 1) - gap
    c.setFont("Helvetica", 6)
    c.drawString(72, y + 3, mark)
    c.setFont("Helvetica", 8 if small else 10)
    c.drawString(80, y, NOTE)
    for i, text in enumerate(more or [], 1):
        c.drawString(72, y - 10 * i, text)
    c.showPage()
    c.setFont("Helvetica", 10)
    for i, text in enumerate(["need no directory of their own, as the keepers agreed.", *clause_sentences(2, 5)]):
        c.drawString(72, HEIGHT - 80 - 15 * i, text)
    c.showPage()
    c.save()
    return path


def _chunks(path: Path) -> list:
    return chunk_document(parse_pdf(path, "gate", 100), lambda texts: [len(t.split()) for t in texts], 400, 500)


def test_a_footnote_is_kept_out_of_the_sentence_running_over_the_page_break(tmp_path: Path) -> None:
    chunks = _chunks(footnote_pdf(tmp_path / "gate.pdf"))
    running = next(c for c in chunks if "required directory" in c.text)
    assert "state files that need no directory of their own" in running.text and NOTE not in running.text
    note = next(c for c in chunks if NOTE in c.text)
    # Without its mark, which alone would read as a page number.
    assert note.text == NOTE and note.start_page == note.end_page == 1 and note.regions[0].page == 1


def test_small_text_without_a_mark_or_close_under_the_text_is_no_footnote(tmp_path: Path) -> None:
    for name, pdf in [
        ("unmarked", footnote_pdf(tmp_path / "unmarked.pdf", mark="")),
        ("close", footnote_pdf(tmp_path / "close.pdf", gap=11)),
        ("text size", footnote_pdf(tmp_path / "large.pdf", small=False)),
    ]:
        parsed = parse_pdf(pdf, name, 100)
        assert not [ln for page in parsed.pages for ln in page.lines if ln.kind == "footnote"], name


def test_only_a_line_opening_a_note_loses_its_mark(tmp_path: Path) -> None:
    more = ["4 The rule applies to periods beginning on or after", "1 January 2023 and was adopted early."]
    chunks = _chunks(footnote_pdf(tmp_path / "gate.pdf", more=more))
    note = next(c for c in chunks if "The rule applies" in c.text)
    assert "The rule applies to periods beginning on or after 1 January 2023" in note.text  # the date keeps its 1
    assert not note.text.startswith("4") and "3 Data" not in note.text


def test_notes_longer_than_a_chunk_are_cut_at_its_limit(tmp_path: Path) -> None:
    more = [f"{n} Note {n} names the seal, the gasket and the valve of line {n}." for n in range(4, 16)]
    doc = parse_pdf(footnote_pdf(tmp_path / "gate.pdf", more=more), "gate", 100)
    chunks = chunk_document(doc, lambda texts: [len(t.split()) for t in texts], 30, 40)
    notes = [c for c in chunks if "names the seal" in c.text]
    assert len(notes) > 1 and all(len(c.text.split()) <= 40 for c in notes)
