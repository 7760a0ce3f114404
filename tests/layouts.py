"""Generated PDFs with the layouts of real documents: running headers and footers, margin line numbers, a contents
page, hyphenated line ends, a form's cover, a paper's cover, and the text pdfium gets wrong on its own (tightly set
words, a TeX symbol font, a character outside the BMP). Tables without ruling lines are in tests/table_layouts.py."""

from __future__ import annotations

from pathlib import Path

import pikepdf
from reportlab.lib.pagesizes import letter
from reportlab.pdfgen import canvas

WIDTH, HEIGHT = letter
HEADER = "Draft Specification for Widget Calibration (Second Public Draft)"
FOOTER_ORG = "Widget Standards Board"


def clause_sentences(page: int, count: int) -> list[str]:
    return [
        f"Clause {page}.{i} requires the calibration bench to hold temperature number {page * 100 + i} steady."
        for i in range(count)
    ]


def prose_page(c: canvas.Canvas, lines: list[str]) -> None:
    """A page of plain text lines, one under the other, then the next page."""
    c.setFont("Helvetica", 10)
    for i, text in enumerate(lines):
        c.drawString(72, HEIGHT - 80 - 15 * i, text)
    c.showPage()


def draft_pdf(path: Path, pages: int = 4, first_line_number: int = 501) -> Path:
    """A draft standard: a running header and a footer ("Page N of M" and the issuer) on every page, and line
    numbers in the left margin counting up through the document. Odd pages draw the numbers as one block before
    the text (pdfium then reads them as lines of their own), even pages on each text line's baseline."""
    c = canvas.Canvas(str(path), pagesize=letter)
    number = first_line_number
    for page in range(1, pages + 1):
        c.setFont("Helvetica", 8)
        c.drawString(72, HEIGHT - 40, HEADER)
        c.drawString(72, 40, FOOTER_ORG)
        c.drawRightString(WIDTH - 72, 40, f"Page {page} of {pages}")
        lines = [s for s in clause_sentences(page, 14)]
        ys = [HEIGHT - 90 - 16 * i for i in range(len(lines))]
        if page % 2:
            block = c.beginText(40, ys[0])
            block.setFont("Helvetica", 7)
            block.setLeading(16)
            for i in range(len(lines)):
                block.textLine(str(number + i))
            c.drawText(block)
        for i, (text, y) in enumerate(zip(lines, ys)):
            if not page % 2:
                c.setFont("Helvetica", 7)
                c.drawString(40, y, str(number + i))
            c.setFont("Helvetica", 10)
            c.drawString(72, y, text)
        number += len(lines)
        c.showPage()
    c.save()
    return path


def references_pdf(path: Path) -> Path:
    """A page of method prose, then a reference list whose entries' titles repeat its words."""
    c = canvas.Canvas(str(path), pagesize=letter)
    prose_page(
        c,
        [
            "2 Method",
            "We measure how silt settles in the inner basin after each spring tide.",
            "Cores are drawn every week and weighed once dried in the oven.",
            "The settling rate falls by half when the sluice gates stay closed.",
        ],
    )
    entries = [
        f"[{n}] A. Lund, B. Ortiz. Silt settling in tidal basins, part {n}. Journal of Coastal Silt, 20{n:02d}."
        for n in range(1, 9)
    ]
    prose_page(c, ["References", *entries])
    c.save()
    return path


def contents_pdf(path: Path) -> Path:
    """A cover, a contents page with dot leaders, and three body pages with numbered bold headings."""
    c = canvas.Canvas(str(path), pagesize=letter)
    c.setFont("Helvetica-Bold", 20)
    c.drawString(72, HEIGHT - 120, "Operating Guide for the Harbour Crane Fleet")
    c.setFont("Helvetica", 11)
    c.drawString(72, HEIGHT - 150, "Prepared for the port operations team.")
    c.showPage()
    entries = [("1 Scope", 3), ("2 Inspection routine", 4), ("2.1 Daily checks", 4), ("3 Load limits", 5)]
    c.setFont("Helvetica-Bold", 14)
    c.drawString(72, HEIGHT - 80, "Contents")
    c.setFont("Helvetica", 11)
    for i, (entry, page) in enumerate(entries):
        y = HEIGHT - 110 - 20 * i
        c.drawString(72, y, entry + " " + "." * 60)
        c.drawRightString(WIDTH - 72, y, str(page))
    c.showPage()
    bodies = {
        "1 Scope": "The guide covers the gantry cranes of the north quay and their spreaders.",
        "2 Inspection routine": "Every crane is inspected before the first shift by the duty engineer.",
        "3 Load limits": "The rated load of the spreader is forty tonnes at the full outreach of the boom.",
    }
    for heading, sentence in bodies.items():
        c.setFont("Helvetica-Bold", 12)
        c.drawString(72, HEIGHT - 80, heading)
        c.setFont("Helvetica", 10)
        for i in range(6):
            c.drawString(72, HEIGHT - 105 - 15 * i, sentence if i == 0 else f"Further detail {i} on {heading[2:]}.")
        c.showPage()
    c.save()
    return path


def hyphenation_pdf(path: Path) -> Path:
    """Lines ending in hyphens: a split word, an identifier, a compound, and a word the document also prints
    hyphenated elsewhere."""
    lines = [
        "Our baseline is the XR-",
        "7 model trained on inter-",
        "national news with a state-of-the-",
        "art tokenizer that is well-",
        "known to practitioners. The well-known tokenizer is fast.",
    ]
    c = canvas.Canvas(str(path), pagesize=letter)
    c.setFont("Helvetica", 10)
    for i, text in enumerate(lines):
        c.drawString(72, HEIGHT - 80 - 14 * i, text)
    c.showPage()
    c.save()
    return path


def form_cover_pdf(path: Path, year: int = 2024) -> Path:
    """A form's cover: the authority and the form's name set largest, check boxes, field captions in parentheses
    under their values, the period; then a page of text."""
    c = canvas.Canvas(str(path), pagesize=letter)
    c.setFont("Helvetica-Bold", 18)
    c.drawCentredString(WIDTH / 2, HEIGHT - 60, "UNITED REGISTRY OF FILINGS")
    c.drawCentredString(WIDTH / 2, HEIGHT - 82, "FORM 20-R")
    c.setFont("Helvetica", 10)
    c.drawCentredString(WIDTH / 2, HEIGHT - 110, "[X] ANNUAL STATEMENT PURSUANT TO SECTION 4 OF THE FILINGS RULES")
    c.drawCentredString(WIDTH / 2, HEIGHT - 124, f"For the fiscal year ended December 31, {year}")
    c.drawCentredString(WIDTH / 2, HEIGHT - 138, "[ ] TRANSITION STATEMENT")
    c.setFont("Helvetica-Bold", 16)
    c.drawCentredString(WIDTH / 2, HEIGHT - 180, "Quill & Ledger Holdings, Inc.")
    c.setFont("Helvetica", 8)
    c.drawCentredString(WIDTH / 2, HEIGHT - 192, "(Exact name of registrant as specified in its charter)")
    c.setFont("Helvetica", 10)
    c.drawCentredString(WIDTH / 2, HEIGHT - 214, "12 Harbour Road, Portsmouth")
    c.setFont("Helvetica", 8)
    c.drawCentredString(WIDTH / 2, HEIGHT - 226, "(Address of principal executive offices)")
    c.showPage()
    c.setFont("Helvetica", 10)
    c.drawString(72, HEIGHT - 80, f"Quill & Ledger sold ledgers and quills in {year} across the harbour towns.")
    c.showPage()
    c.save()
    return path


def paper_cover_pdf(path: Path) -> Path:
    """A paper's first page: the title on two lines at the top, authors, and a figure whose axis label is set
    larger than the title."""
    c = canvas.Canvas(str(path), pagesize=letter)
    c.setFont("Helvetica-Bold", 15)
    c.drawCentredString(WIDTH / 2, HEIGHT - 80, "Sparse Lattice Embeddings for Tidal Forecasts")
    c.drawCentredString(WIDTH / 2, HEIGHT - 98, "at Coastal Gauge Stations")
    c.setFont("Helvetica", 10)
    c.drawCentredString(WIDTH / 2, HEIGHT - 124, "Ada Marsh and Ben Quay, Institute of Coastal Studies")
    c.setFont("Helvetica", 17)
    c.drawCentredString(WIDTH / 2, HEIGHT - 300, "Forecast Error Per Station Type")
    c.setFont("Helvetica", 10)
    for i, text in enumerate(clause_sentences(1, 10)):
        c.drawString(72, HEIGHT - 340 - 14 * i, text)
    c.showPage()
    c.save()
    return path


def tight_words_pdf(path: Path) -> Path:
    """A line whose words are separated by space characters except two, set 1.8 pt apart without one (pdfium
    glues those: "callsfor")."""
    c = canvas.Canvas(str(path), pagesize=letter)
    c.setFont("Times-Roman", 10)
    x, y = 72.0, HEIGHT - 80
    for text, gap in [("The protocol ", 0.0), ("calls", 1.8), ("for a key exchange at every session.", 0.0)]:
        c.drawString(x, y, text)
        x += c.stringWidth(text, "Times-Roman", 10) + gap
    c.showPage()
    c.save()
    return path


_TO_UNICODE = b"""/CIDInit /ProcSet findresource begin 12 dict begin begincmap
/CMapName /Custom def /CMapType 2 def
1 begincodespacerange <00> <FF> endcodespacerange
1 beginbfchar <78> <D835DC65> endbfchar
endcmap CMapName currentdict /CMap defineresource pop end end"""


def symbols_pdf(path: Path) -> Path:
    """Written directly: a line whose "x" maps (ToUnicode) to the math italic x outside the BMP, which pdfium
    counts as two characters, and a norm written in a font named CMSY10 (TeX's symbol font), whose "k" prints
    "‖"."""
    pdf = pikepdf.new()
    plain = pdf.make_indirect(
        pikepdf.Dictionary(
            Type=pikepdf.Name.Font,
            Subtype=pikepdf.Name.Type1,
            BaseFont=pikepdf.Name.Helvetica,
            ToUnicode=pdf.make_stream(_TO_UNICODE),
        )
    )
    symbols = pdf.make_indirect(
        pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1, BaseFont=pikepdf.Name("/CMSY10"))
    )
    content = (
        b"BT /F1 12 Tf 72 700 Td (Let x be the reading of the gauge.) Tj ET "
        b"BT /F1 12 Tf 72 680 Td (The norm ) Tj /F2 12 Tf (k) Tj /F1 12 Tf (v) Tj /F2 12 Tf (k) Tj "
        b"/F1 12 Tf ( stays below one.) Tj ET"
    )
    page = pikepdf.Dictionary(
        Type=pikepdf.Name.Page,
        MediaBox=[0, 0, WIDTH, HEIGHT],
        Resources=pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=plain, F2=symbols)),
        Contents=pdf.make_stream(content),
    )
    pdf.pages.append(pikepdf.Page(page))
    pdf.save(path)
    return path


def figure_pdf(path: Path) -> Path:
    """A page of text with a plotted figure: tick labels counting up along the axis, set as separate words on one
    line, and an axis label rotated to run up the page."""
    c = canvas.Canvas(str(path), pagesize=letter)
    c.setFont("Helvetica", 10)
    for i, text in enumerate(clause_sentences(1, 6)):
        c.drawString(72, HEIGHT - 80 - 14 * i, text)
    c.setFont("Helvetica", 8)
    for k, x in enumerate(range(120, 420, 60)):
        c.drawString(x, 420, str(100 + k))
    c.saveState()
    c.translate(90, 450)
    c.rotate(90)
    c.drawString(0, 0, "Count of Stations")
    c.restoreState()
    c.setFont("Helvetica", 10)
    c.drawString(72, 380, "Figure 2. Stations per tidal range, counted over the survey.")
    c.showPage()
    c.save()
    return path


def running_title_pdf(path: Path, pages: int = 5) -> Path:
    """A paper whose title, large on its first page, runs small at the top of every later page."""
    title = "Tidal Gauges Disagree More Often Than Expected"
    c = canvas.Canvas(str(path), pagesize=letter)
    for page in range(1, pages + 1):
        if page == 1:
            c.setFont("Helvetica-Bold", 16)
            c.drawCentredString(WIDTH / 2, HEIGHT - 60, title)
        else:
            c.setFont("Helvetica", 8)
            c.drawCentredString(WIDTH / 2, HEIGHT - 40, title)
        c.setFont("Helvetica", 10)
        for i, text in enumerate(clause_sentences(page, 12)):
            c.drawString(72, HEIGHT - 100 - 14 * i, text)
        c.showPage()
    c.save()
    return path


def titled_form_pdf(path: Path) -> Path:
    """A cover with its title set above a form's label (a report filed on a form), then a page of text."""
    c = canvas.Canvas(str(path), pagesize=letter)
    c.setFont("Helvetica-Bold", 20)
    c.drawCentredString(WIDTH / 2, HEIGHT - 90, "Harbour Dredging Annual Review")
    c.setFont("Helvetica-Bold", 22)
    c.drawCentredString(WIDTH / 2, HEIGHT - 130, "FORM 20-R")
    c.setFont("Helvetica", 10)
    c.drawCentredString(WIDTH / 2, HEIGHT - 160, "Submitted for the year ended March 31, 2025")
    c.showPage()
    c.drawString(72, HEIGHT - 80, "The dredgers cleared the north channel twice during the year under review.")
    c.showPage()
    c.save()
    return path


def annual_filing_pdf(path: Path, organisation: str, year: int) -> Path:
    """One organisation's annual filing: the year only on its cover; body pages that read alike every year (a
    prose page, then a statement page holding the figures), so only the cover tells two years apart."""
    c = canvas.Canvas(str(path), pagesize=letter)
    c.setFont("Helvetica-Bold", 18)
    c.drawCentredString(WIDTH / 2, HEIGHT - 80, f"{organisation} Annual Filing")
    c.setFont("Helvetica", 10)
    c.drawCentredString(WIDTH / 2, HEIGHT - 104, f"For the fiscal year ended December 31, {year}")
    c.showPage()
    c.setFont("Helvetica", 10)
    c.drawString(72, HEIGHT - 80, f"{organisation} carries passengers between the river towns all year round.")
    c.drawString(72, HEIGHT - 94, "The fleet was refitted and the timetable kept its winter sailings.")
    c.showPage()
    c.setFont("Helvetica-Bold", 12)
    c.drawString(72, HEIGHT - 80, "Statement of Ferry Operations")
    c.setFont("Helvetica", 10)
    c.drawString(72, HEIGHT - 100, "Passenger crossings completed during the fiscal year reached a record number.")
    c.showPage()
    c.save()
    return path


def named_statements_pdf(path: Path) -> Path:
    """A filing whose statement pages open with the statement's title over the company's name, both bold (the
    name as the parser takes headings), over a unit note and rows; then a statement whose title and the name share
    one bold line, and a page of plan terms opening with a numbered definition that ends with the name."""
    c = canvas.Canvas(str(path), pagesize=letter)
    c.setFont("Helvetica-Bold", 18)
    c.drawCentredString(WIDTH / 2, HEIGHT - 80, "Harbour Ferries Inc.")
    c.setFont("Helvetica", 10)
    c.drawCentredString(WIDTH / 2, HEIGHT - 104, "Annual report for the fiscal year ended December 31, 2024")
    c.showPage()
    for title, rows in [
        ("Consolidated Balance Sheets", [("Cash and cash equivalents", "412"), ("Total current assets", "1,370")]),
        ("Consolidated Statements of Cash Flows", [("Purchases of vessels", "(220)"), ("Net cash used", "(96)")]),
    ]:
        c.setFont("Helvetica-Bold", 11)
        c.drawString(72, HEIGHT - 70, title)
        c.drawString(72, HEIGHT - 84, "Harbour Ferries Inc. and Subsidiaries")
        c.setFont("Helvetica", 9)
        c.drawString(72, HEIGHT - 98, "(in millions)")
        for i, (label, figure) in enumerate(rows):
            c.drawString(80, HEIGHT - 116 - 14 * i, label)
            c.drawRightString(470, HEIGHT - 116 - 14 * i, figure)
        c.showPage()
    # the title and the name on one line; then a numbered definition that ends with the name
    c.setFont("Helvetica-Bold", 11)
    c.drawString(72, HEIGHT - 70, "Consolidated Statements of Income Harbour Ferries Inc. and Subsidiaries")
    c.setFont("Helvetica", 9)
    c.drawString(72, HEIGHT - 84, "(in millions)")
    c.drawString(80, HEIGHT - 100, "Fares and freight")
    c.drawRightString(470, HEIGHT - 100, "2,514")
    c.showPage()
    c.setFont("Helvetica-Bold", 10)
    c.drawString(72, HEIGHT - 70, "1.5 Company means Harbour Ferries Inc.")
    c.setFont("Helvetica", 10)
    c.drawString(72, HEIGHT - 86, "The plan covers every crew member who has served a full season on the river.")
    c.showPage()
    c.save()
    return path


def glossary_pdf(path: Path) -> Path:
    """A standard whose acronym is defined once, in a definitions section on page 2, and used often on pages 3-4."""
    c = canvas.Canvas(str(path), pagesize=letter)
    c.setFont("Helvetica-Bold", 16)
    c.drawString(72, HEIGHT - 80, "Lock Gate Operation Practice")
    c.setFont("Helvetica", 10)
    c.drawString(72, HEIGHT - 100, "This practice covers the operation of canal lock gates by their keepers.")
    c.showPage()
    c.setFont("Helvetica-Bold", 12)
    c.drawString(72, HEIGHT - 80, "2 Terms and definitions")
    c.setFont("Helvetica", 10)
    c.drawString(72, HEIGHT - 100, "LKP: lock keeper panel, the desk from which one keeper works both gates")
    c.drawString(72, HEIGHT - 114, "SPW: sluice paddle winch, the gear that lets water into the chamber")
    c.showPage()
    for page in (3, 4):
        c.setFont("Helvetica-Bold", 12)
        c.drawString(72, HEIGHT - 80, f"{page} Working the gates")
        c.setFont("Helvetica", 10)
        y = HEIGHT - 100
        for i in range(6):
            c.drawString(72, y, f"At step {page}.{i} the LKP stands ready, and the LKP logs each LKP command.")
            y -= 14
        c.showPage()
    c.save()
    return path


def results_release_pdf(
    path: Path, earlier: str = "Twelve months ended June 30, 2022", later: str = "Twelve months ended June 30, 2023"
) -> Path:
    """A results release comparing two periods, the earlier stated first."""
    c = canvas.Canvas(str(path), pagesize=letter)
    c.setFont("Helvetica-Bold", 16)
    c.drawString(72, HEIGHT - 80, "Harbour Ferries Reports Annual Results")
    c.setFont("Helvetica", 10)
    c.drawString(72, HEIGHT - 104, f"{earlier} compared with the")
    c.drawString(72, HEIGHT - 118, f"{later}: crossings rose by a tenth.")
    c.showPage()
    c.save()
    return path


def markup_manual_pdf(path: Path) -> Path:
    """Three pages of a packaging policy that uses "include" as a plain word beside files, directories and loading,
    then a configuration manual's page writing the `<include>` element's tag."""
    c = canvas.Canvas(str(path), pagesize=letter)
    kinds = ["library", "daemon", "font"]
    for page, kind in enumerate(kinds, 1):
        prose_page(
            c,
            [
                f"{page} Packaged {kind} files",
                f"A {kind} package must include the files it loads from a directory, and include that directory.",
                f"The {kind} files loaded at boot include a note on which directory points to them.",
                f"A {kind} package may include up to {page + 2} directories of files loaded when it starts.",
            ],
        )
    prose_page(
        c,
        [
            "4 Configuration elements",
            '<include prefix="default"> This element names an additional configuration file or folder.',
            "If it names a folder, every file in it ending in .conf is read, in sorted order.",
        ],
    )
    c.save()
    return path
