"""kb.parse_pool: early parsing, what the parser processes import, and that closing the pool leaves no process."""

import multiprocessing
import os
import shutil
import signal
import time
from pathlib import Path

import pytest

from kb.base import KnowledgeBase
from kb.parse_pool import ParsePool
from kb.settings import KBSettings
from tests import pdfgen

# What a parser process must not import: the store, the model runtimes, the ingestion.
HEAVY = {"chromadb", "torch", "onnxruntime", "transformers", "sentence_transformers"}
HEAVY |= {"kb.store", "kb.embed", "kb.ingest", "kb.base"}
MODULES = "sorted(__import__('sys').modules)"


def _children() -> set[int]:
    return {p.pid for p in multiprocessing.active_children()}


def slow_pdfs(folder: Path, count: int = 2) -> list[Path]:
    """Files whose parse takes seconds each (also used by test_ingest_processes)."""
    folder.mkdir(exist_ok=True)
    first = pdfgen.long_pdf(folder / "slow-0.pdf", pages=1000)
    return [first, *(Path(shutil.copy(first, folder / f"slow-{n}.pdf")) for n in range(1, count))]


def test_early_parsing_starts_only_on_files_the_store_does_not_hold(settings: KBSettings, docs_dir: Path):
    kb = KnowledgeBase(settings)
    kb.ingest([docs_dir])
    report = docs_dir / "report.pdf"
    pdfgen.report_pdf(report, variant="revised")
    added = pdfgen.long_pdf(docs_dir / "added.pdf", pages=2)
    parsers = ParsePool.early([docs_dir], settings.store_dir, 2, settings.max_file_mb)
    assert parsers is not None and sorted(parsers.planned) == sorted([added, report])
    pdfgen.report_pdf(report, variant="edited while the early parse ran")
    summary = kb.ingest([docs_dir], parsers=parsers)
    status = {Path(f.path).name: f.status for f in summary.files}
    assert status == {"added.pdf": "ingested", "manual.pdf": "unchanged", "report.pdf": "ingested"}
    # The hash stored is the one the early parse read (the revised file), so the edit is picked up next time.
    assert {f.doc_id: f.status for f in kb.ingest([report]).files} == {"report": "ingested"}
    assert {f.doc_id: f.status for f in kb.ingest([report]).files} == {"report": "unchanged"}
    # Nothing left to parse once the store holds every file, and a store without the hint parses them all.
    assert ParsePool.early([docs_dir], settings.store_dir, 2, settings.max_file_mb) is None
    (settings.store_dir / "catalogue.json").unlink()
    blind = ParsePool.early([docs_dir], settings.store_dir, 2, settings.max_file_mb)
    assert blind is not None and len(blind.planned) == 3
    assert {f.status for f in kb.ingest([docs_dir], parsers=blind).files} == {"unchanged"}


def test_parser_processes_import_the_parser_only(docs_dir: Path):
    pool = ParsePool(2, 200)
    try:
        files = sorted(docs_dir.iterdir())
        for path in files:
            pool.submit(path)
        assert [type(pool.result(p)).__name__ for p in files] == ["ParsedDocument", "ParsedDocument"]
        # Ask every worker (more questions than workers, answered by whichever is free) what it has imported.
        answers = [pool._pool.submit(eval, MODULES).result(timeout=60) for _ in range(6)]
    finally:
        pool.close()
    assert any("kb.parse" in modules for modules in answers)
    for modules in answers:
        assert not [m for m in modules if m.split(".")[0] in HEAVY or m in HEAVY]


@pytest.mark.slow
def test_close_stops_parses_still_running_and_leaves_no_process(tmp_path: Path):
    before = _children()
    slow = slow_pdfs(tmp_path / "slow")
    pool = ParsePool.early([tmp_path / "slow"], tmp_path / "store", 2, 200)
    assert pool is not None and pool.planned == slow
    time.sleep(2)  # the workers have started, and each is busy with its file
    workers = _children() - before
    assert len(workers) == 2
    pool.keep_only(set())  # nobody needs those parses any more
    t0 = time.perf_counter()
    pool.close()
    assert time.perf_counter() - t0 < 3  # not the seconds left of each parse
    assert _children() - before == set()
    pool.close()  # closing twice is harmless


@pytest.mark.slow
def test_a_crashed_parser_fails_its_file_and_close_leaves_no_process(tmp_path: Path):
    before = _children()
    slow = slow_pdfs(tmp_path / "slow")
    pool = ParsePool(2, 200)
    for path in slow:
        pool.submit(path)
    time.sleep(2)
    for pid in _children() - before:
        os.kill(pid, signal.SIGKILL)
    assert pool.result(slow[0]) == "the parser process crashed on this file"
    pool.close()
    assert _children() - before == set()


def test_one_worker_parses_on_the_spot_without_processes(docs_dir: Path):
    before = _children()
    pool = ParsePool(1, 200)
    pool.submit(docs_dir / "report.pdf")
    assert pool.planned == [] and _children() == before
    assert pool.result(docs_dir / "report.pdf").doc_id == "report"
    pool.close()
