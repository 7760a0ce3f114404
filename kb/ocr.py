"""Local OCR of the pages whose text layer is missing or unusable: a scan, a signed annex, a picture of text.

Debian's tesseract (packages tesseract-ocr and tesseract-ocr-eng, which run.sh installs) reads each page image in a
process of its own, offline, on the CPU; chosen over rapidocr-onnxruntime by measured word recall and speed (see
the README). Being a program of its own, several pages of one document are read at once from one parser through
threads: pdfium, which is not thread-safe, only renders them, one at a time, in the parser.

tesseract gives words with their boxes in lines, so an OCR'd page is lines like any other page: the parser's
cleaning follows (running headers, hyphenation, tables, headings), and chunks get highlight regions.
"""

from __future__ import annotations

import functools
import io
import os
import shutil
import subprocess
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from kb.parsed import Line

if TYPE_CHECKING:  # pydantic is imported by the parser processes only once they ignore Ctrl-C
    from kb.ocr_settings import OcrSettings

OcrProgress = Callable[[int, int], None]  # (pages done, pages to OCR)


def usable_text(lines: list[Line], settings: OcrSettings) -> bool:
    """Whether a page's own text layer can be used as it is."""
    printed = sum(len(ln.text) - ln.text.count(" ") for ln in lines)
    letters = sum(c.isalnum() for ln in lines for c in ln.text)
    return letters >= settings.min_chars and letters >= settings.usable_share * printed


def needs_ocr(lines: list[Line], image_area: float, page_area: float, settings: OcrSettings) -> bool:
    """A page is OCR'd when its text layer is missing or unusable and images cover enough of it."""
    if not settings.enabled or page_area <= 0:
        return False
    return min(1.0, image_area / page_area) >= settings.min_image_share and not usable_text(lines, settings)


@functools.cache
def unavailable(language: str) -> str:
    """Why OCR cannot run here ('' when it can): tesseract or its language data is missing."""
    exe = shutil.which("tesseract")
    if exe is None:
        return "tesseract is not installed, see the README"
    try:
        listed = subprocess.run([exe, "--list-langs"], capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.SubprocessError) as exc:
        return f"tesseract does not run: {exc}"
    have = set(listed.stdout.split()[1:]) if listed.returncode == 0 else set()  # the first line is a title
    missing = [lang for lang in language.split("+") if lang not in have]
    return f"tesseract has no '{'+'.join(missing)}' language data" if missing else ""


def render(page: object, dpi: int, blank_ink: float) -> bytes | None:
    """The page in gray at `dpi`, as PGM bytes; None when it is blank."""
    bitmap = page.render(scale=dpi / 72, grayscale=True)  # type: ignore[attr-defined]
    try:
        image = bitmap.to_pil().convert("L")
    finally:
        bitmap.close()
    if float((np.asarray(image) < 128).mean()) < blank_ink:
        return None
    out = io.BytesIO()
    image.save(out, format="PPM")  # uncompressed: nothing to encode or decode on either side
    return out.getvalue()


def run_tesseract(image: bytes, settings: OcrSettings) -> str:
    """tesseract's TSV for one page image; OSError or SubprocessError with the reason when it fails."""
    exe = shutil.which("tesseract") or "tesseract"
    command = [exe, "stdin", "stdout", "--dpi", str(settings.dpi), "-l", settings.language, "--psm", "3", "tsv"]
    done = subprocess.run(
        command,
        input=image,
        capture_output=True,
        timeout=settings.timeout_seconds,
        env={**os.environ, "OMP_THREAD_LIMIT": "1"},  # one core each: pages run side by side instead
        check=False,
    )
    if done.returncode != 0:
        reason = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise subprocess.SubprocessError(reason[-1] if reason else f"exit code {done.returncode}")
    return done.stdout.decode("utf-8", "replace")


def lines_from_tsv(tsv: str, scale: float, min_confidence: float) -> list[Line]:
    """tesseract's words grouped into its lines, in its reading order, with boxes in points (top-left origin).
    Vertical text (an arXiv stamp in the margin) is left out: its size would read as a cover's display type."""
    groups: dict[tuple[str, str, str], list[tuple[float, float, float, float, str, float]]] = {}
    for row in tsv.splitlines()[1:]:
        cols = row.split("\t")
        if len(cols) < 12 or cols[0] != "5" or not cols[11].strip():
            continue
        left, top, width, height = (int(v) / scale for v in cols[6:10])
        if height > 2 * width and len(cols[11].strip()) >= 3:
            continue
        groups.setdefault((cols[2], cols[3], cols[4]), []).append(
            (left, top, left + width, top + height, cols[11].strip(), float(cols[10]))
        )
    lines: list[Line] = []
    for words in groups.values():
        if sum(w[5] for w in words) / len(words) < min_confidence:
            continue
        text = " ".join(w[4] for w in words)
        top, bottom = min(w[1] for w in words), max(w[3] for w in words)
        line = Line(text, min(w[0] for w in words), top, max(w[2] for w in words), bottom, _type_size(words))
        line.words = [w[:5] for w in words]
        line.broken = len(text) > 2 and text.endswith("-") and text[-2].isalpha()
        lines.append(line)
    return lines


_ASCENDING = set("ABCDEFGHIJKLMNOPQRSTUVWXYZbdfhiklt0123456789")
_DESCENDING = set("gjpqy")


def _type_size(words: list[tuple[float, float, float, float, str, float]]) -> float:
    """The type size of a line, to the half point, from its words' heights: a word's box spans its letters'
    ascenders and descenders, about 0.92 of the size with both, 0.7 with one of them, 0.48 with neither ("we")."""
    sizes = []
    for _, top, _, bottom, text, _ in words:
        letters = text.rstrip(".,;:")
        if not letters.isalnum():
            continue  # brackets, quotes and dashes reach other heights
        up, down = bool(_ASCENDING & set(letters)), bool(_DESCENDING & set(letters))
        sizes.append((bottom - top) / (0.92 if up and down else 0.7 if up or down else 0.48))
    if not sizes:
        sizes = [(max(w[3] for w in words) - min(w[1] for w in words)) / 0.92]
    return round(2 * float(np.median(sizes))) / 2


def settle_sizes(lines: list[Line], tolerance: float = 0.1) -> None:
    """OCR'd sizes vary a little from line to line; the lines within `tolerance` of the most common size take it,
    so the body size is one value and headings (set larger) stand out from it."""
    counts: dict[float, int] = {}
    for ln in lines:
        counts[ln.size] = counts.get(ln.size, 0) + len(ln.text)
    if not counts:
        return
    body = max(counts, key=lambda s: counts[s])
    for ln in lines:
        if abs(ln.size - body) <= tolerance * body:
            ln.size = body


@dataclass
class OcrResult:
    """The lines read from each page OCR'd (by 0-based index), and notes on the pages skipped."""

    lines: dict[int, list[Line]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def recognise(pdf: object, indices: list[int], settings: OcrSettings, progress: OcrProgress | None = None) -> OcrResult:
    """OCR the pages at `indices` of an open pypdfium2 document: rendered here one by one, read by up to
    `settings.workers` tesseract processes at once (at most twice that many images wait in memory)."""
    result = OcrResult()
    report = progress or (lambda done, total: None)
    reason = unavailable(settings.language)
    over = indices[settings.max_pages :]
    indices = indices[: settings.max_pages]
    if reason:
        result.notes.append(f"{_pages(indices + over)} skipped: OCR unavailable, {reason}")
        return result
    if over:
        result.notes.append(f"{_pages(over)} skipped: over the OCR limit of {settings.max_pages} pages per document")
    total, done = len(indices), 0
    scale = settings.dpi / 72
    report(0, total)
    with ThreadPoolExecutor(settings.workers, thread_name_prefix="kb-ocr") as pool:
        pending: dict[Future[str], int] = {}

        def collect(futures: set[Future[str]]) -> None:
            nonlocal done
            for job in futures:
                index = pending.pop(job)
                try:
                    lines = lines_from_tsv(job.result(), scale, settings.min_confidence)
                except (OSError, subprocess.SubprocessError) as exc:
                    result.notes.append(f"{_pages([index])} skipped: OCR failed, {exc}")
                else:
                    if sum(c.isalnum() for ln in lines for c in ln.text) >= settings.min_page_chars:
                        result.lines[index] = lines
                    else:
                        result.notes.append(f"{_pages([index])} skipped: no text OCR could read")
                done += 1
                report(done, total)

        for index in indices:
            page = pdf[index]  # type: ignore[index]
            try:
                image = render(page, settings.dpi, settings.blank_ink)
            finally:
                page.close()
            if image is None:
                result.notes.append(f"{_pages([index])} skipped: blank image")
                done += 1
                report(done, total)
                continue
            pending[pool.submit(run_tesseract, image, settings)] = index
            while len(pending) >= 2 * settings.workers:
                collect(wait(pending, return_when=FIRST_COMPLETED).done)
        while pending:
            collect(wait(pending, return_when=FIRST_COMPLETED).done)
    settle_sizes([ln for lines in result.lines.values() for ln in lines])
    result.notes.sort(key=_first_page)
    return result


def page_ranges(numbers: list[int]) -> str:
    """'3-5, 9' for the pages 3, 4, 5 and 9."""
    runs: list[list[int]] = []
    for n in sorted(numbers):
        if runs and n == runs[-1][1] + 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)


def _pages(indices: list[int]) -> str:
    """'page 3' or 'pages 3-5, 9' for 0-based indices."""
    return f"{'page' if len(indices) == 1 else 'pages'} {page_ranges([i + 1 for i in indices])}"


def _first_page(note: str) -> int:
    digits = note.split(" ", 2)[1].split("-")[0].rstrip(",")
    return int(digits) if digits.isdigit() else 0
