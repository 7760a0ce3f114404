"""Typeset the `protocols` probe's two PDFs from plain-text documents Debian ships (no PDF of them is shipped).

    .venv/bin/python bench/probes/protocols/make_pdfs.py

reads /usr/share/doc/kbproto/xkbproto.txt.gz (a protocol standard, its tables drawn with box characters) and
/usr/share/doc/libpng16-16/libpng-manual.txt.gz (a library manual with code), and writes them to
bench/probes/protocols/pdfs/ as a reader would get them: paragraphs reflowed, headings, bullet lists, ruled tables,
code in a fixed font, a running header and page numbers. Only for the bench; nothing in the product reads it.
"""

from __future__ import annotations

import gzip
import re
from pathlib import Path
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
from reportlab.lib.units import cm
from reportlab.platypus import ListFlowable, Paragraph, Preformatted, SimpleDocTemplate, Spacer, Table, TableStyle

SOURCES = {
    "xkbproto.pdf": ("/usr/share/doc/kbproto/xkbproto.txt.gz", "The X Keyboard Extension: Protocol Specification"),
    "libpng-manual.pdf": ("/usr/share/doc/libpng16-16/libpng-manual.txt.gz", "libpng manual"),
}
STYLES = getSampleStyleSheet()
BODY = ParagraphStyle("body", parent=STYLES["BodyText"], fontSize=10, leading=13, spaceAfter=5)
CELL = ParagraphStyle("cell", parent=BODY, fontSize=8, leading=10, spaceAfter=0)
CODE = ParagraphStyle("code", parent=STYLES["Code"], fontSize=8, leading=10)
H1 = ParagraphStyle("h1", parent=STYLES["Heading1"], fontSize=16)
H2 = ParagraphStyle("h2", parent=STYLES["Heading2"], fontSize=12)


def _table(lines: list[str], width: float) -> Table:
    """A box-drawn table as a ruled table: rows between rule lines, cells between bars."""
    rows: list[list[str]] = []
    current: list[list[str]] = []
    for line in lines:
        if line.startswith(("┌", "├", "└", "╞", "┝")):
            if current:
                rows.append([" ".join(" ".join(part).split()) for part in zip(*current, strict=False)])
            current = []
            continue
        cells = [c for c in line.strip().strip("│┃").split("│")]
        current.append(cells)
    if current:
        rows.append([" ".join(" ".join(part).split()) for part in zip(*current, strict=False)])
    columns = max(len(r) for r in rows)
    rows = [r + [""] * (columns - len(r)) for r in rows]
    longest = [max(1, max(len(r[i]) for r in rows)) for i in range(columns)]
    shares = [min(n, 60) for n in longest]
    widths = [width * s / sum(shares) for s in shares]
    table = Table([[Paragraph(escape(c), CELL) for c in r] for r in rows], colWidths=widths, repeatRows=0)
    table.setStyle(TableStyle([("GRID", (0, 0), (-1, -1), 0.5, colors.black), ("VALIGN", (0, 0), (-1, -1), "TOP")]))
    return table


def _heading(block: list[str]) -> Paragraph | None:
    """A one-line block with no closing punctuation, short, starting with a capital or a section number."""
    if len(block) != 1:
        return None
    line = block[0].strip()
    if len(line) > 70 or line.endswith((".", ",", ";", ":", ")")) or not re.match(r"[A-Z0-9]", line):
        return None
    if block[0].startswith(" "):
        return None
    return Paragraph(escape(line), H1 if re.match(r"\d+\.\s", line) or line.isupper() else H2)


def flowables(text: str, width: float) -> list:
    """The document's blocks (split by blank lines) as flowables."""
    out: list = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        if lines[i].startswith("┌"):
            j = i
            while j < len(lines) and not lines[j].startswith("└"):
                j += 1
            out += [_table(lines[i : j + 1], width), Spacer(1, 6)]
            i = j + 1
            continue
        if not lines[i].strip() or set(lines[i].strip()) <= set("━─="):
            i += 1
            continue
        block = []
        while i < len(lines) and lines[i].strip() and not lines[i].startswith("┌"):
            block.append(lines[i])
            i += 1
        heading = _heading(block)
        if heading is not None:
            out.append(heading)
        elif block[0].lstrip().startswith(("•", "* ", "- ")) and block[0].startswith(" "):
            items, item = [], []
            for line in block:
                if line.lstrip().startswith(("•", "* ", "- ")):
                    if item:
                        items.append(item)
                    item = [line.lstrip()[1:].strip()]
                else:
                    item.append(line.strip())
            items.append(item)
            out.append(
                ListFlowable(
                    [Paragraph(escape(" ".join(it)), BODY) for it in items], bulletType="bullet", leftIndent=14
                )
            )
        elif all(line.startswith("   ") for line in block) or any(re.search(r"[;{}]\s*$", line) for line in block):
            out.append(Preformatted("\n".join(line.rstrip() for line in block), CODE))
            out.append(Spacer(1, 5))
        else:
            out.append(Paragraph(escape(" ".join(line.strip() for line in block)), BODY))
    return out


def build(name: str, source: str, title: str, target: Path) -> None:
    with gzip.open(source, "rt", encoding="utf-8") as f:
        text = f.read()

    def furniture(canvas, doc) -> None:  # a running header and the page number, as printed manuals have
        canvas.saveState()
        canvas.setFont("Helvetica", 8)
        canvas.drawString(2 * cm, A4[1] - 1.2 * cm, title)
        canvas.drawRightString(A4[0] - 2 * cm, 1.2 * cm, str(doc.page))
        canvas.restoreState()

    doc = SimpleDocTemplate(str(target / name), pagesize=A4, title=title, leftMargin=2 * cm, rightMargin=2 * cm)
    doc.build(flowables(text, doc.width), onFirstPage=furniture, onLaterPages=furniture)


if __name__ == "__main__":
    target = Path(__file__).parent / "pdfs"
    target.mkdir(exist_ok=True)
    for name, (source, title) in SOURCES.items():
        build(name, source, title, target)
        print(f"wrote {target / name}")
