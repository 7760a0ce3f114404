"""Generated PDFs of tables without ruling lines: a cash flow statement with a caption over its columns and a row of
years, a balance sheet whose column headers stand above its group labels, a paper's results table, and a results summary
whose one header line opens with the table's unit note."""

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


def _draw_rows(c: canvas.Canvas, rows: list[tuple[str, list[str]]], columns: list[int], top: float) -> float:
    """Rows of a label and right-aligned figures, 12 points apart from `top`; the height below the last."""
    y = top
    for label, figures in rows:
        c.drawString(72, y, label)
        for x, figure in zip(columns, figures):
            c.drawRightString(x, y, figure)
        y -= 12
    return y


def unit_note_header_pdf(path: Path, prose_above: str = "", note_over: str = "") -> Path:
    """A results summary whose header line holds the unit note on the left and a short header over each of five
    columns ("(Dollars in millions, except per share data) FISCAL 2021 FISCAL 2020 % CHANGE ..."), 17 words in
    all; `prose_above`: a line of prose, without a full stop, set from the left margin instead of that header line;
    `note_over`: a line of prose set over the columns just above the header line, with "Unaudited" over the first
    column above that."""
    c = canvas.Canvas(str(path), pagesize=letter)
    c.setFont("Helvetica", 8)
    columns = [310, 380, 440, 510, 570]
    if note_over:
        c.drawRightString(310, HEIGHT - 76, "Unaudited")
        c.drawString(282, HEIGHT - 88, note_over)
    if prose_above:
        c.drawString(72, HEIGHT - 100, prose_above)
    else:
        c.drawString(72, HEIGHT - 100, "(Dollars in millions, except per share data)")
        for x, head in zip(columns, ["FISCAL 2021", "FISCAL 2020", "% CHANGE", "FISCAL 2019", "% CHANGE"]):
            c.drawRightString(x, HEIGHT - 100, head)
    rows = [
        ("Revenues", ["52,310", "47,905", "9 %", "45,118", "6 %"]),
        ("Cost of sales", ["28,144", "26,071", "8 %", "24,902", "5 %"]),
        ("Gross profit", ["24,166", "21,834", "11 %", "20,216", "8 %"]),
    ]
    _draw_rows(c, rows, columns, HEIGHT - 114)
    c.showPage()
    c.save()
    return path


def results_summary_pdf(path: Path, other_columns: bool = False) -> Path:
    """A results summary under a title that runs from the left margin into the columns, whose header line sets two
    column names close enough to read as one run of words ("% CHANGE  FISCAL 2019"), and whose statement goes on,
    without headers of its own, below a subtitle of 14 words ("Reconciliation of ...:") in the same columns; with
    `other_columns`, what follows the subtitle is another table, of three columns set elsewhere."""
    c = canvas.Canvas(str(path), pagesize=letter)
    columns = [310, 380, 440, 510, 570]
    c.setFont("Helvetica-Bold", 10)
    c.drawString(72, HEIGHT - 86, "TOTAL HARBOUR AND FLEET OPERATING EXPENSE")
    c.setFont("Helvetica", 8)
    c.drawString(72, HEIGHT - 100, "(Dollars in millions)")
    c.drawRightString(310, HEIGHT - 100, "FISCAL 2021")
    c.drawRightString(380, HEIGHT - 100, "FISCAL 2020")
    c.drawRightString(449, HEIGHT - 100, "% CHANGE")
    c.drawString(455, HEIGHT - 100, "FISCAL 2019")
    c.drawRightString(570, HEIGHT - 100, "% CHANGE")
    rows = [
        ("Campaign expense", ["2,406", "2,870", "-16 %", "2,655", "8 %"]),
        ("Harbour overhead expense", ["7,315", "7,102", "3 %", "6,840", "4 %"]),
        ("Total harbour and fleet operating expense", ["9,721", "9,972", "-3 %", "9,495", "5 %"]),
    ]
    y = _draw_rows(c, rows, columns, HEIGHT - 114)
    subtitle = "Reconciliation of the operating expense above to the adjusted operating expense we report:"
    c.drawString(72, y - 4, subtitle)
    reconciliation = [
        ("Operating expense", ["9,721", "9,972", "-3 %", "9,495", "5 %"]),
        ("Restructuring charges", ["(120)", "(95)", "26 %", "(80)", "19 %"]),
        ("Adjusted operating expense", ["9,601", "9,877", "-3 %", "9,415", "5 %"]),
    ]
    if other_columns:
        reconciliation = [(label, figures[:3]) for label, figures in reconciliation]
    _draw_rows(c, reconciliation, [250, 330, 420] if other_columns else columns, y - 18)
    c.showPage()
    c.save()
    return path


def commitments_pdf(path: Path, total_named: bool = True) -> Path:
    """A table of commitments whose caption ("Amount of commitment expiration per period", evenly spaced words)
    spans four of its five columns above the line that names each column (all but the first, "Total", when not
    `total_named`)."""
    c = canvas.Canvas(str(path), pagesize=letter)
    columns = [300, 360, 420, 480, 560]
    c.setFont("Helvetica", 8)
    c.drawCentredString(460, HEIGHT - 90, "Amount of commitment expiration per period")
    heads = ["Total" if total_named else "", "Under 1 year", "1 to 3 years", "3 to 5 years", "After 5 years"]
    for x, head in zip(columns, heads):
        c.drawRightString(x, HEIGHT - 102, head)
    rows = [
        ("Performance bonds and guarantees", ["215", "41", "77", "3", "94"]),
        ("Stand-by letters of credit", ["69", "43", "17", "—", "9"]),
        ("Purchase obligations", ["994", "232", "219", "111", "432"]),
    ]
    _draw_rows(c, rows, columns, HEIGHT - 116)
    c.showPage()
    c.save()
    return path


def key_measures_pdf(path: Path) -> Path:
    """A table of measures under a row of years, one of its rows a ratio in each column ("2.1:1")."""
    c = canvas.Canvas(str(path), pagesize=letter)
    columns = [420, 520]
    c.setFont("Helvetica", 9)
    for x, year in zip(columns, ["2020", "2019"]):
        c.drawRightString(x, HEIGHT - 90, year)
    rows = [
        ("Working capital", ["$ 4,237", "$ 3,942"]),
        ("Current ratio", ["2.1:1", "2.1:1"]),
        ("Days sales outstanding", ["57", "59"]),
        ("Days payable outstanding", ["44", "48"]),
    ]
    _draw_rows(c, rows, columns, HEIGHT - 104)
    c.showPage()
    c.save()
    return path
