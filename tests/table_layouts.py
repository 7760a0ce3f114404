"""Generated PDFs of tables without ruling lines: a cash flow statement with a caption over its columns and a row of
years, a balance sheet whose column headers stand above its group labels, and a paper's results table."""

from __future__ import annotations

from pathlib import Path

from reportlab.lib.pagesizes import letter
from reportlab.pdfgen import canvas

from tests.layouts import HEIGHT, clause_sentences, prose_page

STATEMENT_ROWS = [
    ("Net income", ["$ 1,210.4", "$ 1,003.7", "$ 877.5"]),
    ("Depreciation and amortization", ["512.0", "488.3", "461.9"]),
    ("Changes in accounts receivable", ["(35.6)", "(12.1)", "4.8"]),
    ("Net cash provided by operating activities", ["2,912.9", "2,199.7", "1,469.5"]),
    ("Purchases of property, plant and equipment", ["(640.2)", "(577.0)", "(495.1)"]),
]


def statement_pdf(path: Path, header_shift: float = 0.0) -> Path:
    """Page 1: prose ending with a full sentence. Page 2: a cash flow statement without ruling lines: a title, a
    caption over the columns, a row of years, rows of a label and right-aligned figures, a section label row and a
    label wrapped over two lines. `header_shift` sets the years that far left of their figures' right edge."""
    c = canvas.Canvas(str(path), pagesize=letter)
    prose_page(c, clause_sentences(1, 20))
    c.setFont("Helvetica-Bold", 11)
    c.drawString(72, HEIGHT - 70, "Consolidated Statement of Cash Flows")
    c.setFont("Helvetica", 9)
    c.drawString(72, HEIGHT - 84, "(in millions)")
    columns = [400, 470, 540]
    c.drawCentredString(470, HEIGHT - 100, "Year Ended December 31,")
    for x, year in zip(columns, ["2017", "2016", "2015"]):
        c.drawRightString(x - header_shift, HEIGHT - 114, year)
    y = HEIGHT - 132
    c.drawString(72, y, "Operating Activities")
    y -= 14
    for label, figures in STATEMENT_ROWS:
        c.drawString(80, y, label)
        for x, figure in zip(columns, figures):
            if figure.startswith("$ "):
                c.drawString(x - 62, y, "$")
                figure = figure[2:]
            c.drawRightString(x, y, figure)
        y -= 14
    c.drawString(80, y, "Proceeds from the sale of businesses, net of cash sold and of")
    y -= 10
    c.drawString(88, y, "transaction costs")
    for x, figure in zip(columns, ["846.0", "1,065.0", "142.0"]):
        c.drawRightString(x, y, figure)
    c.showPage()
    c.save()
    return path


def balance_sheet_pdf(path: Path, prose: list[str] | None = None) -> Path:
    """A balance sheet without ruling lines whose column headers (dates, not bare years) stand above two group
    labels in the label column ("ASSETS", "Current assets:") before the first row; after a page of `prose` lines,
    when given."""
    c = canvas.Canvas(str(path), pagesize=letter)
    if prose:
        prose_page(c, prose)
    c.setFont("Helvetica-Bold", 11)
    c.drawString(72, HEIGHT - 70, "Consolidated Balance Sheets")
    c.setFont("Helvetica", 9)
    c.drawString(72, HEIGHT - 84, "(In Millions)")
    for x, date in zip([420, 520], ["May 31, 2020", "May 26, 2019"]):
        c.drawRightString(x, HEIGHT - 100, date)
    y = HEIGHT - 116
    for label in ("ASSETS", "Current assets:"):
        c.drawString(72, y, label)
        y -= 14
    for label, now, before in [
        ("Cash and cash equivalents", "1,677.8", "450.0"),
        ("Receivables", "1,615.1", "1,679.7"),
        ("Inventories", "1,426.3", "1,559.3"),
        ("Total current assets", "5,121.3", "4,186.5"),
    ]:
        c.drawString(80, y, label)
        c.drawRightString(420, y, now)
        c.drawRightString(520, y, before)
        y -= 14
    c.showPage()
    c.save()
    return path


def results_table_pdf(path: Path, wide: bool = False) -> Path:
    """A paper's results table: column names centred over narrow columns, close enough together to read as one
    cell, figures with magnitudes and pairs ("80/81", "2.5k"). `wide`: three more columns (seven in all)."""
    c = canvas.Canvas(str(path), pagesize=letter)
    c.setFont("Helvetica", 9)
    extra = ["Rain", "Wind", "Fog"] if wide else []
    centres = [250 + 34 * k for k in range(4 + len(extra))]
    for centre, name in zip(centres, ["Tide", "Surge", "Wave", "Mean", *extra]):
        c.drawCentredString(centre, HEIGHT - 100, name)
    more = ["1.1", "2.2", "3.3"] if wide else []
    rows = [
        ("Baseline", ["80/79", "66.1", "2.5k", "74.0", *more]),
        ("Lattice small", ["84/83", "71.2", "8.5k", "79.6", *more]),
        ("Lattice large", ["86/85", "72.1", "12k", "82.1", *more]),
    ]
    for i, (label, figures) in enumerate(rows):
        y = HEIGHT - 116 - 13 * i
        c.drawString(72, y, label)
        for centre, figure in zip(centres, figures):
            c.drawRightString(centre + 10, y, figure)
    c.showPage()
    c.save()
    return path
