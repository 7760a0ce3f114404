"""Generate the PDFs the tests need: multi-page with headings, a ruled table, and every kind of bad file."""

from __future__ import annotations

import io
import textwrap
from pathlib import Path

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas
from reportlab.platypus import Table, TableStyle

FILLER = (
    "This paragraph describes the general procedure used throughout the study and gives enough running text "
    "for the chunker to work with realistic line lengths across the page. "
)


def _write_lines(c: canvas.Canvas, lines: list[tuple[str, str, int]], y: float) -> float:
    for text, font, size in lines:
        c.setFont(font, size)
        for part in textwrap.wrap(text, 95 if size <= 10 else 60) or [""]:
            c.drawString(60, y, part)
            y -= size + 4
        y -= 4
    return y


def report_pdf(path: Path, variant: str = "original") -> Path:
    """Three pages: page-unique marker sentences, numbered headings, and a ruled table on page 2."""
    c = canvas.Canvas(str(path), pagesize=A4)
    _, height = A4
    page1 = [
        ("Quarterly Field Report on Sensor Arrays", "Helvetica-Bold", 18),
        ("1 Introduction", "Helvetica-Bold", 13),
        (f"The aurora calibration campaign measured drift in the sensor arrays ({variant}).", "Helvetica", 10),
        (FILLER * 3, "Helvetica", 10),
    ]
    _write_lines(c, page1, height - 80)
    c.showPage()
    y = _write_lines(
        c,
        [
            ("2 Results", "Helvetica-Bold", 13),
            ("The basalt station logged the highest humidity readings of the season.", "Helvetica", 10),
            (FILLER * 2, "Helvetica", 10),
        ],
        height - 80,
    )
    table = Table(
        [["Station", "Code", "Reading"], ["North ridge", "QX-7731", "42.5"], ["South basin", "ZP-1029", "17.25"]],
        colWidths=[150, 100, 100],
    )
    table.setStyle(TableStyle([("GRID", (0, 0), (-1, -1), 0.8, colors.black)]))
    _, th = table.wrapOn(c, 400, 200)
    table.drawOn(c, 60, y - th - 10)
    c.showPage()
    _write_lines(
        c,
        [
            ("3 Discussion", "Helvetica-Bold", 13),
            ("The cobalt sensors failed after prolonged exposure to salt spray.", "Helvetica", 10),
            (FILLER * 3, "Helvetica", 10),
        ],
        height - 80,
    )
    c.showPage()
    c.save()
    return path


def manual_pdf(path: Path) -> Path:
    c = canvas.Canvas(str(path), pagesize=A4)
    _, height = A4
    for n, topic in enumerate(["Installing the pump controller", "Replacing the filter cartridge"], 1):
        _write_lines(
            c,
            [
                (f"{n} {topic}", "Helvetica-Bold", 13),
                (
                    f"Step {n}: the maintenance manual explains {topic.lower()} with torque wrench settings.",
                    "Helvetica",
                    10,
                ),
                (FILLER * 2, "Helvetica", 10),
            ],
            height - 80,
        )
        c.showPage()
    c.save()
    return path


def named_manual_pdf(path: Path) -> Path:
    """A manual's cover set around its short name: the name far larger than anything else, the line saying what it
    is at body size under it, a version line, the authors set larger below, a copyright notice; then a page."""
    c = canvas.Canvas(str(path), pagesize=A4)
    _, height = A4
    c.setFont("Helvetica-Bold", 24)
    c.drawString(60, height - 200, "Quillpen")
    c.setFont("Helvetica", 10)
    c.drawString(60, height - 226, "A library for reading ledger formats on small machines")
    c.drawString(60, height - 240, "for version 2.3.1, 4 March 2024")
    c.setFont("Helvetica-Bold", 14)
    for i, author in enumerate(["Ada Marsh", "Ben Quay"]):
        c.drawString(60, height - 620 - 18 * i, author)
    c.showPage()
    _write_lines(
        c, [("Copyright (c) 2019-2024 Harbour Tools Ltd.", "Helvetica", 10), (FILLER, "Helvetica", 10)], height - 80
    )
    c.showPage()
    c.save()
    return path


def manual_page_pdf(path: Path) -> Path:
    """A manual page with no cover: one-word section headings set large, running text from the top of the page,
    and further down a sub-heading and a displayed line of code set larger than the text."""
    c = canvas.Canvas(str(path), pagesize=A4)
    _, height = A4
    y = _write_lines(
        c, [("NAME", "Helvetica-Bold", 16), ("qzsh - a small command shell", "Helvetica", 10)], height - 60
    )
    y = _write_lines(c, [("DESCRIPTION", "Helvetica-Bold", 16), (FILLER * 3, "Helvetica", 10)], y)
    _write_lines(c, [("ENV=$HOME/.qzshrc; export ENV", "Courier-Bold", 12), (FILLER, "Helvetica", 10)], y)
    c.showPage()
    c.save()
    return path


def named_notes_pdf(path: Path) -> Path:
    """A short name set far larger than anything else, with running text right under it."""
    c = canvas.Canvas(str(path), pagesize=A4)
    _, height = A4
    _write_lines(c, [("Quillwort", "Helvetica-Bold", 28), (FILLER * 3, "Helvetica", 10)], height - 80)
    c.showPage()
    c.save()
    return path


def long_pdf(path: Path, pages: int = 6) -> Path:
    """Pages of continuous text without headings, for chunk-size and two-page-span checks."""
    c = canvas.Canvas(str(path), pagesize=A4)
    _, height = A4
    for n in range(1, pages + 1):
        body = " ".join(
            f"Sentence {n}-{i} reports measurement number {n * 100 + i} for the long run." for i in range(60)
        )
        _write_lines(c, [(body, "Helvetica", 10)], height - 60)
        c.showPage()
    c.save()
    return path


def encrypted_pdf(path: Path) -> Path:
    c = canvas.Canvas(str(path), pagesize=A4, encrypt="secret-password")
    c.drawString(60, 700, "Confidential text that needs a password to read.")
    c.showPage()
    c.save()
    return path


def image_only_pdf(path: Path) -> Path:
    """A scanned photograph: a page-sized picture without any text, which OCR cannot read."""
    from PIL import Image, ImageDraw

    img = Image.linear_gradient("L").resize((620, 877))  # A4 at 75 dpi: a small file
    draw = ImageDraw.Draw(img)
    for x, y, r in ((150, 250, 110), (425, 450, 150), (250, 700, 90)):
        draw.ellipse([x - r, y - r, x + r, y + r], fill=(x + y) % 90 + 30)
    img.save(path, resolution=75)
    return path


def scanned_pdf(path: Path, source: Path, dpi: int = 150, turn: int = 0) -> Path:
    """An image-only copy of `source`: each page rendered to gray pixels at `dpi`, as a scanner would give it
    (turned by `turn` degrees counter-clockwise: fed in sideways)."""
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(str(source))
    images = [
        pdf[i].render(scale=dpi / 72, grayscale=True).to_pil().convert("L").rotate(turn, expand=True)
        for i in range(len(pdf))
    ]
    pdf.close()
    images[0].save(path, save_all=True, append_images=images[1:], resolution=dpi)
    return path


def form_scan_pdf(path: Path, source: Path, scale: tuple[float, float] = (5.95, 8.42)) -> Path:
    """Page 2 of `source` as a scan drawn inside a form XObject of 100 x 100 units, scaled by `scale` on the page
    (as imposition tools and some scanners write pages): the default fills an A4 page."""
    import pypdfium2 as pdfium
    from reportlab.lib.utils import ImageReader

    pdf = pdfium.PdfDocument(str(source))
    image = pdf[1].render(scale=150 / 72, grayscale=True).to_pil().convert("L")
    pdf.close()
    buf = io.BytesIO()
    image.save(buf, format="PNG")
    c = canvas.Canvas(str(path), pagesize=A4)
    c.beginForm("scan", 0, 0, 100, 100)
    c.drawImage(ImageReader(buf), 0, 0, width=100, height=100)
    c.endForm()
    c.scale(*scale)
    c.doForm("scan")
    c.showPage()
    c.save()
    return path


def blank_scan_pdf(path: Path) -> Path:
    """One page that is a scan of an empty sheet: a page-sized white image."""
    from PIL import Image

    Image.new("L", (1240, 1754), 255).save(path, resolution=150)
    return path


def mixed_pdf(path: Path, folder: Path) -> Path:
    """The report's first page as text, its second as a scan, then a blank scanned page, then its third as text."""
    import pypdfium2 as pdfium

    text = report_pdf(folder / "mixed-text.pdf")
    scan = scanned_pdf(folder / "mixed-scan.pdf", text)
    blank = blank_scan_pdf(folder / "mixed-blank.pdf")
    out = pdfium.PdfDocument.new()
    for source, index in ((text, 0), (scan, 1), (blank, 0), (text, 2)):
        pdf = pdfium.PdfDocument(str(source))
        out.import_pages(pdf, [index])
        pdf.close()
    out.save(str(path))
    out.close()
    return path


def bad_files(folder: Path) -> dict[str, str]:
    """Write every kind of bad input into folder; returns {file name: expected reason fragment}."""
    folder.mkdir(parents=True, exist_ok=True)
    encrypted_pdf(folder / "locked.pdf")
    good = report_pdf(folder / "_whole.tmp")
    data = good.read_bytes()
    (folder / "cut.pdf").write_bytes(data[: len(data) // 2])
    good.unlink()
    (folder / "notes.pdf").write_text("just some text, not a PDF at all\n")
    (folder / "blank.pdf").write_bytes(b"")
    image_only_pdf(folder / "scan.pdf")
    return {
        "locked.pdf": "encrypted",
        "cut.pdf": "truncated",
        "notes.pdf": "not a PDF",
        "blank.pdf": "empty file",
        "scan.pdf": "no extractable text",
    }


def plant_pdf(path: Path) -> Path:
    """An acronym defined on page 1, a fact stated with the long form only on page 2 (for refinement runs)."""
    c = canvas.Canvas(str(path), pagesize=A4)
    _, height = A4
    _write_lines(
        c,
        [
            ("Plant Equipment Notes", "Helvetica-Bold", 18),
            ("1 Cabinets", "Helvetica-Bold", 13),
            ("The TDC (Thermal Drift Compensator) sits in the north cabinet of the plant.", "Helvetica", 10),
            (FILLER * 2, "Helvetica", 10),
        ],
        height - 80,
    )
    c.showPage()
    _write_lines(
        c,
        [
            ("2 Maintenance", "Helvetica-Bold", 13),
            ("The thermal drift compensator is recalibrated every 90 days by the thermal team.", "Helvetica", 10),
            (FILLER * 2, "Helvetica", 10),
        ],
        height - 80,
    )
    c.showPage()
    c.save()
    return path


def framed_prose_pdf(path: Path) -> Path:
    """Running text under a grid of rules (a figure's frame, a boxed column): rules, but no table."""
    c = canvas.Canvas(str(path), pagesize=A4)
    _, height = A4
    top = height - 80
    c.setFont("Helvetica", 10)
    sentence = "The reference oscillator settles within forty milliseconds after every cold start of the unit. "
    for i in range(12):
        c.drawString(60, top - 20 - i * 14, sentence.strip() if i % 2 else f"Line {i}: {sentence.strip()}")
    c.setLineWidth(0.5)
    bottom = top - 20 - 12 * 14
    for x in (55, 180, 300, 420, 540):
        c.line(x, top, x, bottom)
    for y in (top, top - 90, bottom):
        c.line(55, y, 540, y)
    c.showPage()
    c.save()
    return path
