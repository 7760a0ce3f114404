"""Rough page-level gold from document-level gold with reference answers, for corpora that have no page gold.

For each answerable question, the pages of its gold document that hold the largest share of the reference answer's
content words are taken as gold: every page within `margin` of the best page's share, when the best reaches
`min_share`. It is a proxy (a summary answer may match the abstract as well as the section that answers it), so
its figures compare retrieval modes and versions; they are not a measure of page accuracy on their own. An answer
spread over a page break, with no single page holding `min_share` of it, gets no gold.

    python -m kb.page_proxy QUESTIONS.jsonl CORPUS_DIR --out PAGES.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from kb.evaluate import Question, load_questions
from kb.lexical import STOPWORDS, tokenize
from kb.parse import ParseError, parse_pdf
from kb.settings import KBSettings


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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m kb.page_proxy", description=__doc__.split("\n\n")[0])
    parser.add_argument("questions", type=Path, help="JSONL with doc_id and answer per question")
    parser.add_argument("corpus", type=Path, help="folder holding DOC_ID.pdf for every gold document")
    parser.add_argument("--out", type=Path, required=True, help="where to write the page-gold JSONL")
    parser.add_argument("--min-share", type=float, default=0.6, help="least share of answer words on the best page")
    parser.add_argument("--margin", type=float, default=0.1, help="pages this close to the best also count")
    args = parser.parse_args(argv)
    if not args.corpus.is_dir():
        print(f"error: {args.corpus}: no such folder", file=sys.stderr)
        return 2
    try:
        questions = load_questions(args.questions)
    except (OSError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    max_mb = KBSettings().max_file_mb
    words: dict[str, list[tuple[int, set[str]]]] = {}
    records = []
    for q in questions:
        if not q.answerable or not q.doc_id or not q.answer:
            continue
        if q.doc_id not in words:
            try:
                doc = parse_pdf(args.corpus / f"{q.doc_id}.pdf", q.doc_id, max_mb)
                words[q.doc_id] = [(p.number, set(tokenize(" ".join(ln.text for ln in p.lines)))) for p in doc.pages]
            except (OSError, ParseError) as exc:
                reason = (exc.strerror or str(exc)) if isinstance(exc, OSError) else str(exc)
                print(f"{q.doc_id}.pdf: {reason}; its questions get no page gold", file=sys.stderr)
                words[q.doc_id] = []
        record = page_gold(q, words[q.doc_id], args.min_share, args.margin)
        if record:
            records.append(record)
    try:
        args.out.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    except OSError as exc:
        print(f"error: {args.out}: cannot be written ({exc.strerror or exc})", file=sys.stderr)
        return 2
    spans = sum(len(r["gold"]) for r in records)
    print(f"{len(records)} question(s) with page gold ({spans / max(1, len(records)):.1f} pages each) -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
