"""Rough page-level gold from document-level gold with reference answers, for corpora that have no page gold.

For each answerable question, the pages of its gold document that hold the largest share of the reference answer's
content words are taken as gold: every page within `margin` of the best page's share, when the best reaches
`min_share`. It is a proxy (a summary answer may match the abstract as well as the section that answers it), so
its figures compare retrieval modes and versions; they are not a measure of page accuracy on their own. An answer
spread over a page break, with no single page holding `min_share` of it, gets no gold.

    python -m kb page-proxy QUESTIONS.jsonl CORPUS_DIR --out PAGES.jsonl
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from kb.evaluate import Question
from kb.ocr_settings import OcrSettings
from kb.parse import ParseError, parse_pdf
from kb.text import STOPWORDS, tokenize


def page_gold(
    question: Question, pages: list[tuple[int, set[str]]], min_share: float, margin: float
) -> dict[str, Any] | None:
    """The page-gold record of one question from its document's (page number, words), or None when no page holds
    enough of its answer."""
    want = {t for t in tokenize(question.answer or "") if t not in STOPWORDS}
    if not want or not pages:
        return None
    shares = [(number, len(want & words) / len(want)) for number, words in pages]
    best = max(share for _, share in shares)
    if best < min_share:
        return None
    gold = [
        {"doc_id": question.doc_id, "start_page": n, "end_page": n} for n, share in shares if share >= best - margin
    ]
    return {"qid": question.qid, "question": question.question, "answerable": True, "gold": gold}


def build(
    questions: list[Question],
    corpus: Path,
    min_share: float,
    margin: float,
    max_mb: float,
    warn: Callable[[str], None],
    ocr: OcrSettings | None = None,
) -> list[dict[str, Any]]:
    """Page-gold records for the answerable questions with a document and an answer; `warn` gets one line for
    each gold document that cannot be read (its questions get no gold)."""
    words: dict[str, list[tuple[int, set[str]]]] = {}
    records = []
    for q in questions:
        if not q.answerable or not q.doc_id or not q.answer:
            continue
        if q.doc_id not in words:
            try:
                doc = parse_pdf(corpus / f"{q.doc_id}.pdf", q.doc_id, max_mb, ocr)
                words[q.doc_id] = [(p.number, set(tokenize(" ".join(ln.text for ln in p.lines)))) for p in doc.pages]
            except (OSError, ParseError) as exc:
                reason = (exc.strerror or str(exc)) if isinstance(exc, OSError) else str(exc)
                warn(f"{q.doc_id}.pdf: {reason}; its questions get no page gold")
                words[q.doc_id] = []
        record = page_gold(q, words[q.doc_id], min_share, margin)
        if record:
            records.append(record)
    return records
