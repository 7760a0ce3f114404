"""Typeset held-out probes' PDFs from documents Debian ships without a PDF (plain text, Markdown,
reStructuredText, manual pages).

    .venv/bin/python bench/probes/make_pdfs.py

writes the PDF of each entry of `SOURCES` (bench/probes/sources.py) to bench/probes/<probe>/pdfs/, as a reader
would get it (paragraphs reflowed, headings, bullet lists, ruled tables, code in a fixed font, a running header and
page numbers; a manual page formatted by groff, its tables by tbl). What each probe holds is its entry's "kind" in
bench/probes/corpora.json, not repeated here. Only for the bench; nothing in the product reads it.
"""

from __future__ import annotations

import gzip
import re
import subprocess
import textwrap
from pathlib import Path
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
from reportlab.lib.units import cm
from reportlab.platypus import ListFlowable, Paragraph, Preformatted, SimpleDocTemplate, Spacer, Table, TableStyle
from sources import SOURCES, UNTABLED

PROBES = Path(__file__).parent
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
    return _grid(rows, width)


def _grid(rows: list[list[str]], width: float) -> Table:
    """Rows of cells as a ruled table, columns as wide as their text (within limits)."""
    rows = rows or [[""]]  # a box of rules only
    columns = max(len(r) for r in rows)
    rows = [r + [""] * (columns - len(r)) for r in rows]
    longest = [max(1, max(len(r[i]) for r in rows)) for i in range(columns)]
    shares = [min(n, 60) for n in longest]
    widths = [width * s / sum(shares) for s in shares]
    if min(widths) < 14:  # a column of "X" marks narrower than its padding: give every column a floor
        shares = [max(s, 6) for s in shares]
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


_LINK = re.compile(r"\[([^\]]+)\]\[[^\]]*\]|\[([^\]]+)\]\([^)]*\)")


def _inline(text: str) -> str:
    """Markdown's inline marks read as print shows them: links as their text, code and emphasis unmarked."""
    text = _LINK.sub(lambda m: m.group(1) or m.group(2), text)
    return re.sub(r"`([^`]*)`", r"\1", text).replace("**", "")


def markdown_flowables(text: str, width: float) -> list:
    """A Markdown document's blocks as flowables: headings, fenced code, bullet lists, pipe tables, paragraphs;
    comments and link definitions dropped."""
    text = re.sub(r"<!--.*?-->", "", text, flags=re.S)
    out: list = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("```"):
            j = i + 1
            while j < len(lines) and not lines[j].startswith("```"):
                j += 1
            out += [Preformatted("\n".join(lines[i + 1 : j]), CODE), Spacer(1, 5)]
            i = j + 1
            continue
        if not line.strip() or re.match(r"^\[[^\]]+\]:\s", line):
            i += 1
            continue
        if heading := re.match(r"^(#{1,6})\s+(.*)", line):
            out.append(Paragraph(escape(_inline(heading.group(2))), H1 if len(heading.group(1)) <= 2 else H2))
            i += 1
            continue
        block = [line]  # a line opening with "#" but no heading ("#include <qz.h>") is text
        i += 1
        while i < len(lines) and lines[i].strip() and not re.match(r"```|#{1,6}\s", lines[i]):
            block.append(lines[i])
            i += 1
        if all(b.lstrip().startswith("|") for b in block):
            rows = [[_inline(c.strip()) for c in b.strip().strip("|").split("|")] for b in block]
            rows = [r for r in rows if not all(re.fullmatch(r":?-+:?", c) for c in r)]
            out += [_grid(rows, width), Spacer(1, 6)]
        elif re.match(r"^\s*(?:[*-]|\d+\.)\s", block[0]):
            items: list[list[str]] = []
            for b in block:
                if re.match(r"^\s*(?:[*-]|\d+\.)\s", b):
                    items.append([re.sub(r"^\s*(?:[*-]|\d+\.)\s+", "", b)])
                else:
                    items[-1].append(b.strip())
            out.append(
                ListFlowable(
                    [Paragraph(escape(_inline(" ".join(it))), BODY) for it in items], bulletType="bullet", leftIndent=14
                )
            )
        else:
            text_block = " ".join(b.strip().lstrip("> ") for b in block)
            out.append(Paragraph(escape(_inline(text_block)), BODY))
    return out


def _unwrap(text: str) -> str:
    """A text indented as a whole loses that indent, and a word hyphenated at a line's end is joined again (as a
    typesetter reflowing the paragraph would); a text without either is unchanged."""
    text = textwrap.dedent(text)
    if len(re.findall(r"[a-z]-\n\s*[a-z]", text)) < 20:  # hyphenation is the text's habit, not a compound's break
        return text
    return re.sub(r"([a-z])-\n(\s*)([a-z]\S*)", r"\1\3\n\2", text)


def _man_text(source: str, tables: bool) -> str:
    """A manual page as groff formats it for a terminal (no bold or underline), without its running header and
    footer: headings set apart, each paragraph's own indent removed, words broken at a line's end joined and
    justification's extra spaces squeezed."""
    with gzip.open(source, "rb") as f:
        roff = f.read()
    command = ["groff", *(["-t"] if tables else []), "-man", "-Tutf8", "-rHY=0", "-rLL=100n", "-P-c", "-P-b", "-P-u"]
    lines = subprocess.run(command, input=roff, capture_output=True, check=True).stdout.decode().split("\n")
    out: list[str] = []
    for line in lines[1:-2]:
        indent = len(line) - len(line.lstrip())
        if line.strip() and indent in (0, 3):
            out += ["", line.strip(), ""]  # a section's (column 0) or a subsection's (column 3) heading
        else:
            out.append(line)
    blocks = re.sub(r"\u2010\n\s*", "", "\n".join(out)).split("\n\n")  # a word broken at a line's end, joined
    return "\n\n".join(re.sub(r"(?<=\S) {2,}", " ", textwrap.dedent(b.strip("\n"))) for b in blocks)


def build(source: str, title: str, target: Path) -> None:
    if "/share/man/" in source:
        text = _man_text(source, target.parent.parent.name not in UNTABLED)
    else:
        opener = gzip.open if source.endswith(".gz") else open
        with opener(source, "rt", encoding="utf-8") as f:
            text = f.read()
    if not source.endswith((".md", ".md.gz")) and "/share/man/" not in source:
        text = _unwrap(text)

    def furniture(canvas, doc) -> None:  # a running header and the page number, as printed manuals have
        canvas.saveState()
        canvas.setFont("Helvetica", 8)
        canvas.drawString(2 * cm, A4[1] - 1.2 * cm, title)
        canvas.drawRightString(A4[0] - 2 * cm, 1.2 * cm, str(doc.page))
        canvas.restoreState()

    target.parent.mkdir(parents=True, exist_ok=True)
    doc = SimpleDocTemplate(str(target), pagesize=A4, title=title, leftMargin=2 * cm, rightMargin=2 * cm)
    typeset = markdown_flowables if source.endswith(".md") else flowables
    doc.build(typeset(text, doc.width), onFirstPage=furniture, onLaterPages=furniture)


if __name__ == "__main__":
    for name, (source, title) in SOURCES.items():
        probe, pdf = name.split("/")
        build(source, title, PROBES / probe / "pdfs" / pdf)
        print(f"wrote {PROBES / probe / 'pdfs' / pdf}")
