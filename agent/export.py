"""Export finished agent runs as Markdown and PDF, so an answer and its cited passages can be kept and shared.

The Markdown is the source of truth: `markdown_pdf` renders only the constructs `answer_markdown` and
`conversation_markdown` produce (headings, paragraphs, list items, blockquotes, horizontal rules, **bold**).
"""

from __future__ import annotations

import io
import re
import unicodedata
from datetime import datetime
from functools import cache
from typing import Any
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.platypus import Flowable, HRFlowable, Paragraph, SimpleDocTemplate, Spacer

_HEADING = re.compile(r"^(#{1,6})\s+(.*)$")
_RULE = re.compile(r"^ {0,3}(?:-{3,}|\*{3,}|_{3,})\s*$")
_LIST_ITEM = re.compile(r"^[-*] +(.*)$")
_BOLD = re.compile(r"\*\*(.+?)\*\*")
_BODY_FONT = "Helvetica"


def _one_line(value: Any) -> str:
    """Collapse whitespace: a newline inside a heading or label would end it and spill the rest."""
    return " ".join(str(value).split())


def _pages(citation: dict[str, Any]) -> str:
    start, end = citation.get("start_page"), citation.get("end_page")
    if start is None:
        return ""
    if end is None or end == start:
        return f"p. {start}"
    return f"pp. {start}–{end}"


def _blockquote(text: str) -> str:
    """Prefix every line (splitlines also splits on \\r, \\f, \\u2028) so no passage line can leave the quote."""
    return "\n".join(f"> {line}" if line.strip() else ">" for line in text.splitlines())


def _mode_line(state: dict[str, Any]) -> str:
    mode = state.get("mode")
    if mode == "extractive":
        return "Mode: extractive (sentences quoted from the sources, no language model)"
    if mode == "ollama":
        model = (state.get("settings") or {}).get("model") or "unknown model"
        return f"Mode: Ollama model {_one_line(model)}"
    return f"Mode: {_one_line(mode)}" if mode else ""


def _date_line(state: dict[str, Any]) -> str:
    started = state.get("started_at")
    if not isinstance(started, int | float) or isinstance(started, bool):
        return ""
    # Local time with its zone: the export is read by the person who ran the workbench.
    return "Asked " + datetime.fromtimestamp(started).astimezone().strftime("%Y-%m-%d %H:%M %Z")


def answer_markdown(state: dict[str, Any]) -> str:
    """One finished run as Markdown: question, date, answer (or refusal), mode, then each citation's passage."""
    asked = state.get("asked") or state.get("question", "")
    parts = [f"# {_one_line(asked) or '(no question)'}"]
    if state.get("follow_up"):  # a follow-up: what it was read as
        parts.append(f"Searched as: {_one_line(state['question'])}")
    if date := _date_line(state):
        parts.append(date)
    answer = str(state.get("answer") or "").strip()
    if state.get("refused"):
        reason = _one_line(state.get("refusal_reason") or "no reason given")
        answer = f"Refused ({reason}): {answer}".rstrip()
    parts.append(answer or "(empty answer)")
    if mode := _mode_line(state):
        parts.append(mode)
    citations = state.get("citations") or []
    if citations:
        parts.append("## Citations")
    for citation in citations:
        label = ", ".join(part for part in (_one_line(citation.get("doc_id", "")), _pages(citation)) if part)
        parts.append(f"### [{_one_line(citation.get('key', '?'))}] {label}".rstrip())
        if section := _one_line(citation.get("section") or ""):
            parts.append(f"Section: {section}")
        if head := _one_line(" / ".join(str(citation.get("head") or "").splitlines())):
            parts.append(f"In the table headed: {head}")
        if quote := _blockquote(str(citation.get("text") or "")):
            parts.append(quote)
        if runs_on := _one_line(citation.get("runs_on") or ""):
            parts.append(f"Its last sentence goes on in the next passage: … {runs_on}")
    # Blank lines between blocks: a quote or paragraph followed directly by text would absorb it.
    return "\n\n".join(parts) + "\n"


def _demote(markdown: str) -> str:
    """One more '#' on every heading; quoted passage lines start with '>' and are left alone."""
    return re.sub(r"^(#{1,5}) ", r"#\1 ", markdown, flags=re.MULTILINE)


def conversation_markdown(states: list[dict[str, Any]], title: str | None = None) -> str:
    """A conversation as Markdown: a title, then every run (headings one level down) between rules."""
    if title is None:
        title = _one_line(states[0].get("asked") or states[0].get("question", "")) if states else ""
    blocks = []
    for state in states:
        if state.get("answer") is None:
            question = _one_line(state.get("asked") or state.get("question", "")) or "(no question)"
            blocks.append(f"## {question}\n\n(no answer yet)\n")
        else:
            blocks.append(_demote(answer_markdown(state)))
    head = f"# {_one_line(title) or 'Conversation'}\n\n"
    return head + "\n---\n\n".join(blocks)


@cache
def _showable(char: str) -> bool:
    """Whether the standard fonts can draw char: reportlab falls back to Symbol/ZapfDingbats, then a black box."""
    font = pdfmetrics.getFont(_BODY_FONT)
    for candidate in (font, *font.substitutionFonts):
        try:
            char.encode(candidate.encName)
        except UnicodeEncodeError:
            continue
        return True
    return False


@cache
def _printable(char: str) -> str:
    if char.isspace():
        return " "  # tabs and exotic spaces; lines were split before this
    if unicodedata.category(char) in ("Cc", "Cf"):
        return ""  # control and zero-width characters draw nothing useful
    if _showable(char):
        return char
    # Compatibility forms keep meaning where the font has the plain letters: the "ﬁ" ligature of PDF text.
    plain = unicodedata.normalize("NFKC", char)
    return plain if plain != char and all(_showable(c) for c in plain) else "?"


def _markup(text: str, bold: bool = True) -> str:
    """Text to reportlab's mini-markup: drawable characters, & < > escaped, **x** bold where Markdown means it."""
    escaped = escape("".join(_printable(c) for c in text))
    return _BOLD.sub(r"<b>\1</b>", escaped) if bold else escaped


def _styles() -> dict[str, ParagraphStyle]:
    sheet = getSampleStyleSheet()
    body = sheet["BodyText"]
    return {
        "body": body,
        "item": ParagraphStyle("item", parent=body, leftIndent=12, bulletIndent=2),
        "quote": ParagraphStyle(
            "quote", parent=body, fontSize=9, leading=12, leftIndent=18, textColor=colors.HexColor("#333333")
        ),
        # keepWithNext: a citation's heading should not end a page without its passage.
        **{f"h{n}": ParagraphStyle(f"h{n}", parent=sheet[f"Heading{n}"], keepWithNext=1) for n in range(1, 5)},
    }


def _flowables(markdown: str, styles: dict[str, ParagraphStyle]) -> list[Flowable]:
    story: list[Flowable] = []
    paragraph: list[str] = []
    quote: list[str] = []

    def flush() -> None:
        if paragraph:
            story.append(Paragraph(_markup(" ".join(paragraph)), styles["body"]))
            paragraph.clear()
        if quote:
            # Keep the passage's own line breaks: it is quoted text, not prose to reflow.
            lines = "<br/>".join(_markup(line, bold=False) for line in quote)
            story.append(Paragraph(lines, styles["quote"]))
            quote.clear()

    for line in markdown.splitlines():
        if line.startswith(">"):
            if paragraph:
                flush()
            text = line[2:] if line.startswith("> ") else line[1:]
            if text.strip():
                quote.append(text)
            elif quote:
                flush()  # an empty quote line separates the passage's paragraphs
                story.append(Spacer(1, 3))
            continue
        if quote or not line.strip():
            flush()
        if heading := _HEADING.match(line):
            flush()
            level = min(len(heading.group(1)), 4)
            story.append(Paragraph(_markup(heading.group(2)), styles[f"h{level}"]))
        elif _RULE.match(line):
            flush()
            story.append(HRFlowable(width="100%", thickness=0.5, color=colors.grey, spaceBefore=6, spaceAfter=6))
        elif item := _LIST_ITEM.match(line):
            flush()
            story.append(Paragraph(_markup(item.group(1)), styles["item"], bulletText="•"))
        elif line.strip():
            paragraph.append(line.strip())
    flush()
    return story


def _page_number(canvas: Any, doc: Any) -> None:
    canvas.saveState()
    canvas.setFont(_BODY_FONT, 8)
    canvas.drawRightString(A4[0] - 18 * mm, 10 * mm, str(doc.page))
    canvas.restoreState()


def markdown_pdf(markdown: str) -> bytes:
    """Render export Markdown as an A4 PDF with reportlab's standard fonts; returns the PDF bytes."""
    first_heading = next((m.group(2) for line in markdown.splitlines() if (m := _HEADING.match(line))), "")
    buffer = io.BytesIO()
    doc = SimpleDocTemplate(
        buffer,
        pagesize=A4,
        leftMargin=20 * mm,
        rightMargin=20 * mm,
        topMargin=18 * mm,
        bottomMargin=18 * mm,
        title=_BOLD.sub(r"\1", first_heading),
    )
    story = _flowables(markdown, _styles()) or [Spacer(1, 1)]  # reportlab cannot build an empty story
    doc.build(story, onFirstPage=_page_number, onLaterPages=_page_number)
    return buffer.getvalue()
