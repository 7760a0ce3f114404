"""OCR figures: word recall of OCR'd pages against the text layer of the same pages, OCR speed, and retrieval on an
image-only copy of a document against its text version.

Pages are rendered at 150 dpi (a common scanning resolution) into image-only PDFs under a temporary folder that is
deleted afterwards; nothing rendered is kept. Recall counts the words of each page's text layer (as a multiset) that
OCR found on the same page, so it measures words, not layout.
"""

from __future__ import annotations

import re
import sys
import tempfile
import time
import unicodedata
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from bench.corpora import ROOT, BenchError, Corpus

RENDER_DPI = 150
MIN_PAGE_CHARS = 400  # a sampled page holds running text (not a cover, a blank or a figure alone)
COPY_MAX_PAGES = 40  # the image-only copy is of a document this short at most (OCR at about 1-2 pages/s)


class RecallFigures(BaseModel):
    """OCR'd pages against their text layer."""

    pages: int = Field(description="Pages OCR'd.")
    words: int = Field(description="Words of the text layer of those pages.")
    word_recall: float = Field(description="Share of the text layer's words (as a multiset) found in the OCR'd text.")
    worst_page: str = Field("", description="The page with the lowest recall, and its recall.")
    seconds: float = Field(description="Wall time of the OCR of the image-only copy (rendering included).")
    pages_per_second: float = Field(description="OCR'd pages per second on this machine.")


class CopyFigures(BaseModel):
    """Retrieval on a document's image-only copy against its text version, each alone in a store."""

    doc_id: str = Field(description="The document copied.")
    pages: int = Field(description="Its pages.")
    questions: int = Field(description="Its answerable questions.")
    text: dict[str, float] = Field(description="Retrieval metrics on the text version.")
    image: dict[str, float] = Field(description="The same metrics on the image-only copy.")
    ocr_pages: int = Field(description="Pages of the copy read by OCR.")


def words(text: str) -> Counter[str]:
    """Words as a multiset, compared alike on both sides: compatibility forms folded ('ﬁ' is 'fi'), lower case."""
    return Counter(re.findall(r"[^\W_]+", unicodedata.normalize("NFKC", text).lower()))


def word_recall(reference: Counter[str], read: Counter[str]) -> float:
    total = sum(reference.values())
    return sum(min(n, read[w]) for w, n in reference.items()) / total if total else 1.0


def _open_pages(pages: list[tuple[Path, int]]) -> Iterator[tuple[Path, int, Any]]:
    """Each page (file, 0-based index) as a pypdfium2 page, each file opened once."""
    import pypdfium2 as pdfium

    opened: dict[Path, Any] = {}
    try:
        for path, index in pages:
            if path not in opened:
                opened[path] = pdfium.PdfDocument(str(path))
            yield path, index, opened[path][index]
    finally:
        for pdf in opened.values():
            pdf.close()


def image_copy(pages: list[tuple[Path, int]], out: Path, dpi: int = RENDER_DPI) -> None:
    """An image-only PDF of the given pages (file, 0-based index), each rendered in gray at `dpi`."""
    images = [page.render(scale=dpi / 72, grayscale=True).to_pil().convert("L") for _, _, page in _open_pages(pages)]
    images[0].save(out, save_all=True, append_images=images[1:], resolution=dpi)


def sample_pages(pdfs: Path, count: int) -> list[tuple[Path, int]]:
    """Up to `count` pages of running text, one per document, from documents spread evenly over the folder, each
    at a quarter, half or three quarters of its document; deterministic."""
    import pypdfium2 as pdfium

    files = sorted(pdfs.glob("*.pdf"))
    picked = sorted({(i * len(files)) // count for i in range(count)}) if files and count else []
    chosen: list[tuple[Path, int]] = []
    for position, file_index in enumerate(picked):
        pdf = pdfium.PdfDocument(str(files[file_index]))
        try:
            n = len(pdf)
            for step in range(n):
                index = (n * (position % 3 + 1) // 4 + step) % n
                if len(pdf[index].get_textpage().get_text_range().strip()) >= MIN_PAGE_CHARS:
                    chosen.append((files[file_index], index))
                    break
        finally:
            pdf.close()
    return chosen


def recall_of(pages: list[tuple[Path, int]], folder: Path, label: str) -> RecallFigures:
    if not pages:
        raise BenchError("no page of running text to OCR (none holds 400 characters)")
    """OCR an image-only copy of the pages and compare each page's words with its text layer's, both as printed:
    pdfium's text of the page, and the lines OCR gives before the parser's cleaning (which would drop page numbers,
    join hyphenated words and name table figures by their headers on one side only)."""
    import pypdfium2 as pdfium

    from kb.ocr import recognise
    from kb.settings import KBSettings

    settings = KBSettings().ocr  # KB_OCR__* apply
    image_pdf = folder / f"{label}-image.pdf"
    image_copy(pages, image_pdf)
    pdf = pdfium.PdfDocument(str(image_pdf))
    try:
        started = time.perf_counter()
        read = recognise(pdf, list(range(len(pages))), settings)
        seconds = time.perf_counter() - started
    finally:
        pdf.close()
    references = [words(page.get_textpage().get_text_range()) for _, _, page in _open_pages(pages)]
    total_words, found, worst = 0, 0.0, ("", 2.0)
    for position, ((path, index), ref) in enumerate(zip(pages, references)):
        got = words(" ".join(ln.text for ln in read.lines.get(position, [])))
        recall = word_recall(ref, got)
        total_words += sum(ref.values())
        found += recall * sum(ref.values())
        if recall < worst[1]:
            worst = (f"{path.stem} p.{index + 1}: {recall:.3f}", recall)
    return RecallFigures(
        pages=len(read.lines),
        words=total_words,
        word_recall=round(found / total_words, 4) if total_words else 0.0,
        worst_page=worst[0],
        seconds=round(seconds, 1),
        pages_per_second=round(len(pages) / seconds, 2) if seconds else 0.0,
    )


def generated_pages(out: Path, count: int = 3) -> list[tuple[Path, int]]:
    """Born-digital pages of running text, set with reportlab from this project's README (headings, paragraphs,
    a few mono-spaced command lines)."""
    from reportlab.lib.pagesizes import letter
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.platypus import Paragraph, SimpleDocTemplate

    styles = getSampleStyleSheet()
    story = []
    for line in (ROOT / "README.md").read_text(encoding="utf-8").splitlines():
        text = re.sub(r"[`*_\[\]|<>&]", "", line).strip(" -#")
        if len(text) < 20:
            continue
        style = styles["Heading2"] if line.startswith("#") else styles["BodyText"]
        story.append(Paragraph(text, style))
    SimpleDocTemplate(str(out), pagesize=letter).build(story)
    return [(out, index) for index in range(count)]


def measure_generated() -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="bench-ocr-") as tmp:
        folder = Path(tmp)
        pages = generated_pages(folder / "generated.pdf")
        return recall_of(pages, folder, "generated").model_dump()


def measure_corpus(corpus: Corpus, questions: list[Any] | None, count: int) -> dict[str, Any]:
    """Word recall and speed on `count` sampled pages, and retrieval on an image-only copy of the document with the
    most answerable questions among those of at most COPY_MAX_PAGES pages."""
    with tempfile.TemporaryDirectory(prefix="bench-ocr-") as tmp:
        folder = Path(tmp)
        print(f"bench: {corpus.name}: OCR of {count} sampled pages", file=sys.stderr)
        recall = recall_of(sample_pages(corpus.pdfs, count), folder, corpus.name)
        if questions is None and corpus.questions is not None and corpus.questions.is_file():
            from kb.evaluate import load_questions

            questions = load_questions(corpus.questions)
        copy = _copy_figures(corpus, questions or [], folder)
    return {"recall": recall.model_dump(), "copy": copy.model_dump() if copy else None}


def _copy_figures(corpus: Corpus, questions: list[Any], folder: Path) -> CopyFigures | None:
    import pypdfium2 as pdfium

    from kb.base import KnowledgeBase
    from kb.evaluate import evaluate
    from kb.settings import KBSettings

    def document(q: Any) -> str | None:
        return q.doc_id or (q.gold[0].doc_id if q.gold else None)

    asked = Counter(document(q) for q in questions if q.answerable and document(q))
    for doc_id, _ in asked.most_common():
        source = corpus.pdfs / f"{doc_id}.pdf"
        if not source.is_file():
            continue
        pdf = pdfium.PdfDocument(str(source))
        pages = len(pdf)
        pdf.close()
        if pages <= COPY_MAX_PAGES:
            break
    else:
        return None
    mine = [q for q in questions if document(q) == doc_id]
    (folder / "image").mkdir()
    print(f"bench: {corpus.name}: image-only copy of {doc_id} ({pages} pages)", file=sys.stderr)
    image_copy([(source, i) for i in range(pages)], folder / "image" / source.name)
    figures: dict[str, dict[str, float]] = {}
    ocr_pages = 0
    for label, path in (("text", source), ("image", folder / "image" / source.name)):
        kb = KnowledgeBase(KBSettings(store_dir=folder / f"store-{label}"))
        summary = kb.ingest([path])
        if label == "image":
            ocr_pages = summary.files[0].ocr_pages
        metrics = evaluate(mine, lambda q, k, kb=kb: kb.search(q, k=k), [1, 3, 5, 8])["metrics"]
        keys = ["recall@8", "mrr@8"] if corpus.gold == "page" else ["answer_support@8"]
        figures[label] = {key: round(metrics[key], 3) for key in keys if key in metrics}
    return CopyFigures(
        doc_id=doc_id,
        pages=pages,
        questions=sum(q.answerable for q in mine),
        text=figures["text"],
        image=figures["image"],
        ocr_pages=ocr_pages,
    )
