"""Local OCR of the pages whose text layer is missing or unusable: a scan, a signed annex, a picture of text.

Debian's tesseract (packages tesseract-ocr and tesseract-ocr-eng, which run.sh installs) reads each page image in a
process of its own, offline, on the CPU; chosen over rapidocr-onnxruntime by measured word recall and speed (see
the README). Being a program of its own, several pages of one document are read at once from one parser through
threads: pdfium, which is not thread-safe, only renders them, one at a time, in the parser.

tesseract gives words with their boxes in lines, so an OCR'd page is lines like any other page: the parser's
cleaning follows (running headers, hyphenation, tables, headings), and chunks get highlight regions.
"""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import subprocess
import threading
import unicodedata
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from kb.parsed import Line

if TYPE_CHECKING:  # pydantic is imported by the parser processes only once they ignore Ctrl-C
    from kb.ocr_settings import OcrSettings

OcrProgress = Callable[[int, int], None]  # (pages done, pages to OCR)


def usable_text(lines: list[Line], image_share: float, settings: OcrSettings) -> bool:
    """Whether a page's own text layer can be used as it is: enough letters and digits (more on a page that is one
    large image: a scan stamped "Scanned with ..."), and few characters without a meaning (glyphs pdfium could map
    to no character come out as private-use, replacement or control characters)."""
    text = "".join(ln.text for ln in lines)
    letters = sum(c.isalnum() for c in text)
    garbled = sum(c == "\ufffd" or unicodedata.category(c) in _GARBLED for c in text)
    printed = len(text) - text.count(" ")
    enough = settings.full_page_min_chars if image_share >= settings.full_page_share else settings.min_chars
    return letters >= enough and garbled <= (1 - settings.usable_share) * printed


_GARBLED = {"Co", "Cn", "Cc", "Cs"}  # private use, unassigned, control, lone surrogates


def needs_ocr(lines: list[Line], image_area: float, page_area: float, settings: OcrSettings) -> bool:
    """A page is OCR'd when its text layer is missing or unusable and images cover enough of it."""
    if not settings.enabled or page_area <= 0:
        return False
    share = min(1.0, image_area / page_area)
    return share >= settings.min_image_share and not usable_text(lines, share, settings)


_AVAILABLE: set[str] = set()  # languages found to work: checked once per process; a failure is checked again


def unavailable(language: str) -> str:
    """Why OCR cannot run here ('' when it can): tesseract or its language data is missing."""
    if language in _AVAILABLE:
        return ""
    exe = shutil.which("tesseract")
    if exe is None:
        return "tesseract is not installed, see the README"
    try:
        listed = subprocess.run([exe, "--list-langs"], capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.SubprocessError) as exc:
        return f"tesseract does not run: {exc}"
    have = {line.strip() for line in listed.stdout.splitlines()[1:]} if listed.returncode == 0 else set()
    missing = [lang for lang in language.split("+") if lang not in have]  # the first line is a title
    if missing:
        return f"tesseract has no '{'+'.join(missing)}' language data"
    _AVAILABLE.add(language)
    return ""


def render(page: object, settings: OcrSettings) -> tuple[bytes, float] | None:
    """The page in gray as PGM bytes, and its scale (pixels per point): `settings.dpi`, lower for a page that would
    be over `settings.max_pixels`. None when the page is blank."""
    width, height = page.get_size()  # type: ignore[attr-defined]
    scale = min(settings.dpi / 72, (settings.max_pixels / max(1.0, width * height)) ** 0.5)
    bitmap = page.render(scale=scale, grayscale=True)  # type: ignore[attr-defined]
    try:
        image = bitmap.to_pil().convert("L")
    finally:
        bitmap.close()
    if float((np.asarray(image) < 128).mean()) < settings.blank_ink:  # ink: darker than mid-grey
        return None
    out = io.BytesIO()
    image.save(out, format="PPM")  # uncompressed: nothing to encode or decode on either side
    return out.getvalue(), scale


_running: set[subprocess.Popen] = set()  # tesseract processes under way, stopped with their parser (see stop_all)
_stopping = False  # set by stop_all: the parser process is about to exit
_running_lock = threading.RLock()  # stop_all runs in a signal handler, maybe while this thread holds it


def stop_all() -> None:
    """Kill the tesseract processes under way and reap them (a parser being stopped must leave neither them nor
    their zombies behind)."""
    global _stopping
    with _running_lock:
        _stopping = True  # no tesseract starts after this
        for process in _running:
            process.kill()
        for process in _running:
            with contextlib.suppress(ChildProcessError):  # its own thread reaped it first
                os.waitpid(process.pid, 0)
        with contextlib.suppress(ChildProcessError):  # any other child that has exited (a pipe closed on it)
            while os.waitpid(-1, os.WNOHANG)[0]:
                pass


def run_tesseract(image: bytes, dpi: float, settings: OcrSettings) -> str:
    """tesseract's TSV for one page image; OSError or SubprocessError with the reason when it fails."""
    exe = shutil.which("tesseract") or "tesseract"
    psm = "1" if settings.detect_orientation else "3"  # 1: page segmentation after orientation detection
    command = [exe, "stdin", "stdout", "--dpi", str(round(dpi)), "-l", settings.language, "--psm", psm, "tsv"]
    env = {**os.environ, "OMP_THREAD_LIMIT": "1"}  # one core each: pages run side by side instead
    with _running_lock:  # started and registered at once, so stop_all never misses one
        if _stopping:
            raise subprocess.SubprocessError("the parser is stopping")
        pipe = subprocess.PIPE
        process = subprocess.Popen(command, stdin=pipe, stdout=pipe, stderr=pipe, env=env)
        _running.add(process)
    try:
        out, err = process.communicate(image, timeout=settings.timeout_seconds)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        raise subprocess.SubprocessError(f"timed out after {settings.timeout_seconds:g} s") from None
    finally:
        with _running_lock:
            _running.discard(process)
    if process.returncode != 0:
        reason = err.decode("utf-8", "replace").strip().splitlines()
        raise subprocess.SubprocessError(reason[-1] if reason else f"exit code {process.returncode}")
    return out.decode("utf-8", "replace")


def lines_from_tsv(tsv: str, scale: float, min_confidence: float, vertical: float = 2.0) -> list[Line]:
    """tesseract's words grouped into its lines, in its reading order, with boxes in points (top-left origin).
    Text set across the page's reading direction (a stamp in the margin) is left out: its size would read as
    a cover's display type. A page scanned sideways, which tesseract reads turned (its boxes stay on the page as
    scanned), reads across: its words' widths are their heights."""
    words: list[tuple[tuple[str, str, str], tuple[float, float, float, float, str, float]]] = []
    for row in tsv.splitlines()[1:]:
        cols = row.split("\t")
        if len(cols) < 12 or cols[0] != "5" or not cols[11].strip():
            continue
        left, top, width, height = (int(v) / scale for v in cols[6:10])
        box = (left, top, left + width, top + height, cols[11].strip(), float(cols[10]))
        words.append(((cols[2], cols[3], cols[4]), box))
    long = [w for _, w in words if len(w[4]) >= 3]  # one letter or two may be tall either way
    sideways = sum(w[3] - w[1] > vertical * (w[2] - w[0]) for w in long) > len(long) / 2
    groups: dict[tuple[str, str, str], list[tuple[float, float, float, float, str, float]]] = {}
    for key, w in words:
        along, across = (w[3] - w[1], w[2] - w[0]) if sideways else (w[2] - w[0], w[3] - w[1])
        if len(w[4]) >= 3 and across > vertical * along:
            continue
        groups.setdefault(key, []).append(w)
    lines: list[Line] = []
    for group in groups.values():
        if sum(w[5] for w in group) / len(group) < min_confidence:
            continue
        text = " ".join(w[4] for w in group)
        top, bottom = min(w[1] for w in group), max(w[3] for w in group)
        line = Line(text, min(w[0] for w in group), top, max(w[2] for w in group), bottom, _type_size(group, sideways))
        line.words = [w[:5] for w in group]
        line.broken = len(text) > 2 and text.endswith("-") and text[-2].isalpha()
        lines.append(line)
    return lines


_ASCENDING = set("ABCDEFGHIJKLMNOPQRSTUVWXYZbdfhiklt0123456789")
_DESCENDING = set("gjpqy")


def _type_size(words: list[tuple[float, float, float, float, str, float]], sideways: bool = False) -> float:
    """The type size of a line, to the half point, from its words' heights (widths on a page turned sideways): a
    word's box spans its letters' ascenders and descenders, about 0.92 of the size with both, 0.7 with one of them,
    0.48 with neither ("we")."""
    sizes = []
    for x0, top, x1, bottom, text, _ in words:
        letters = text.rstrip(".,;:")
        if not letters.isalnum():
            continue  # brackets, quotes and dashes reach other heights
        up, down = bool(_ASCENDING & set(letters)), bool(_DESCENDING & set(letters))
        extent = (x1 - x0) if sideways else (bottom - top)
        sizes.append(extent / (0.92 if up and down else 0.7 if up or down else 0.48))
    if not sizes:
        low, high = (0, 2) if sideways else (1, 3)
        sizes = [(max(w[high] for w in words) - min(w[low] for w in words)) / 0.92]
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
    `settings.workers` tesseract processes at once (at most twice that many images wait in memory). `progress`
    hears of each page done; an exception it raises stops the OCR (the pages under way finish first)."""
    result = OcrResult()
    skipped: dict[str, list[int]] = {}  # reason -> pages, so a note names a run of pages once
    report = progress or (lambda done, total: None)
    reason = unavailable(settings.language)
    over = indices[settings.max_pages :]
    indices = indices[: settings.max_pages]
    if reason:
        indices, over = [], indices + over
        skipped[f"OCR unavailable, {reason}"] = over
    elif over:
        skipped[f"over the OCR limit of {settings.max_pages} pages per document"] = over
    total, done = len(indices), 0
    if total:
        report(0, total)
    with ThreadPoolExecutor(settings.workers, thread_name_prefix="kb-ocr") as pool:
        pending: dict[Future[str], tuple[int, float]] = {}

        def collect(futures: set[Future[str]]) -> None:
            nonlocal done
            for job in futures:
                index, scale = pending.pop(job)
                try:
                    lines = lines_from_tsv(job.result(), scale, settings.min_confidence, settings.vertical_ratio)
                except (OSError, subprocess.SubprocessError) as exc:
                    skipped.setdefault(f"OCR failed, {exc}", []).append(index)
                else:
                    if sum(c.isalnum() for ln in lines for c in ln.text) >= settings.min_page_chars:
                        result.lines[index] = lines
                    else:
                        skipped.setdefault("no text OCR could read", []).append(index)
                done += 1
                report(done, total)

        try:
            for index in indices:
                page = pdf[index]  # type: ignore[index]
                try:
                    rendered = render(page, settings)
                finally:
                    page.close()
                if rendered is None:
                    skipped.setdefault("blank image", []).append(index)
                    done += 1
                    report(done, total)
                    continue
                pending[pool.submit(run_tesseract, rendered[0], 72 * rendered[1], settings)] = (index, rendered[1])
                while len(pending) >= 2 * settings.workers:
                    collect(wait(pending, return_when=FIRST_COMPLETED).done)
            while pending:
                collect(wait(pending, return_when=FIRST_COMPLETED).done)
        finally:
            for job in pending:
                job.cancel()
    settle_sizes([ln for lines in result.lines.values() for ln in lines], settings.size_tolerance)
    notes = [(min(pages), f"{_pages(pages)} skipped: {why}") for why, pages in skipped.items()]
    result.notes = [note for _, note in sorted(notes)]
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
