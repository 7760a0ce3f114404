"""`python -m kb ingest` leaves no process behind: run in a session of its own, whose processes are listed once the
command has exited: a normal run, Ctrl-C or `kill` in the middle, and early parses still running at the end."""

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from kb.base import KnowledgeBase
from kb.files import doc_id_for, file_hash
from kb.models import DocumentRecord
from kb.settings import KBSettings
from tests import pdfgen
from tests.test_parse_pool import slow_pdfs

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.slow


def _session(sid: int) -> list[str]:
    """'pid state command' of every process in the session (zombies included: they are left behind too)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue  # exited meanwhile
        fields = text[text.rindex(")") + 2 :].split()  # after "pid (command)": state, ppid, pgrp, session, ...
        if int(fields[3]) == sid:
            found.append(f"{stat.parent.name} {fields[0]} {text[text.index('(') : text.rindex(')') + 1]}")
    return found


@contextmanager
def _ingest(store: Path, folder: Path, tmp_path: Path) -> Iterator[subprocess.Popen]:
    """The command in a new session; output goes to files, since a process left behind would hold a pipe open."""
    with (tmp_path / "out.txt").open("w") as out, (tmp_path / "err.txt").open("w") as err:
        command = [sys.executable, "-m", "kb", "--store", str(store), "ingest", "--quiet", str(folder)]
        proc = subprocess.Popen(command, cwd=ROOT, stdout=out, stderr=err, start_new_session=True)
        try:
            yield proc
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            left = _session(proc.pid)
            if left:
                os.killpg(proc.pid, signal.SIGKILL)  # do not leave them to the next test
            assert left == [], f"left behind by the command: {left}"


def test_a_finished_ingestion_leaves_no_process(tmp_path: Path, docs_dir: Path):
    pdfgen.long_pdf(docs_dir / "long.pdf", pages=8)
    with _ingest(tmp_path / "store", docs_dir, tmp_path) as proc:
        assert proc.wait(timeout=300) == 0, (tmp_path / "err.txt").read_text()
    assert "ingested 3 file(s)" in (tmp_path / "out.txt").read_text()


@pytest.mark.parametrize("how", ["ctrl-c", "kill"])
def test_an_interruption_in_the_middle_leaves_no_process(tmp_path: Path, how: str):
    folder = slow_pdfs(tmp_path / "slow", count=3)[0].parent
    with _ingest(tmp_path / "store", folder, tmp_path) as proc:
        deadline = time.monotonic() + 60
        while len(_session(proc.pid)) < 3:  # the command, the resource tracker and a parser at least
            assert proc.poll() is None and time.monotonic() < deadline, "the parser processes never started"
            time.sleep(0.05)
        time.sleep(1)  # the parsers are busy with their files
        if how == "ctrl-c":
            os.killpg(proc.pid, signal.SIGINT)  # Ctrl-C signals the whole process group
        else:
            proc.terminate()  # `kill PID`: the command alone
        assert proc.wait(timeout=60) == 130, (tmp_path / "err.txt").read_text()[-2000:]
    err = (tmp_path / "err.txt").read_text()
    assert "Traceback" not in err, err


@pytest.mark.parametrize("how", ["ctrl-c", "kill"])
def test_an_interruption_during_ocr_leaves_no_tesseract_behind(tmp_path: Path, how: str):
    folder = tmp_path / "scans"
    folder.mkdir()
    for name in ("one", "two", "three"):
        pdfgen.scanned_pdf(folder / f"{name}.pdf", pdfgen.long_pdf(tmp_path / f"{name}-text.pdf", pages=8))
    with _ingest(tmp_path / "store", folder, tmp_path) as proc:
        deadline = time.monotonic() + 90
        while not any("(tesseract)" in line for line in _session(proc.pid)):
            assert proc.poll() is None and time.monotonic() < deadline, "no page was ever OCR'd"
            time.sleep(0.05)
        if how == "ctrl-c":
            os.killpg(proc.pid, signal.SIGINT)  # tesseract gets it too; the parsers go on with their next pages
        else:
            proc.terminate()
        assert proc.wait(timeout=60) == 130, (tmp_path / "err.txt").read_text()[-2000:]
    assert "Traceback" not in (tmp_path / "err.txt").read_text()


def test_early_parses_still_running_when_the_ingestion_ends_leave_no_process(tmp_path: Path):
    folder = slow_pdfs(tmp_path / "slow")[0].parent
    # A store that holds both files, without the hint that says so: both are parsed early, for nothing.
    settings = KBSettings(store_dir=tmp_path / "store")
    kb = KnowledgeBase(settings)
    for path in sorted(folder.iterdir()):
        kb.store.put_document(
            DocumentRecord(
                doc_id=doc_id_for(path),
                content_hash=file_hash(path),
                status="committed",
                source=str(path),
                pages=1000,
                chunks=0,
                ingested_at=time.time(),
                recipe=settings.recipe,
            )
        )
    assert not (settings.store_dir / "catalogue.json").exists()
    with _ingest(settings.store_dir, folder, tmp_path) as proc:
        assert proc.wait(timeout=300) == 0, (tmp_path / "err.txt").read_text()
    assert "2 unchanged" in (tmp_path / "out.txt").read_text()


def test_an_interrupt_while_the_store_and_model_open_takes_effect_after(request: pytest.FixtureRequest):
    """Ctrl-C or `kill` in the middle of a native library's import left it half loaded (the command then hung or
    died without closing its parser processes): during start-up they wait for its end."""
    from kb.cli import _interrupts_deferred

    reached = []
    # As in a terminal: a process started in the background by a shell without job control inherits SIGINT ignored.
    inherited = signal.signal(signal.SIGINT, signal.default_int_handler)
    request.addfinalizer(lambda: signal.signal(signal.SIGINT, inherited))
    with pytest.raises(KeyboardInterrupt), _interrupts_deferred():
        os.kill(os.getpid(), signal.SIGINT)
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(0.05)
        reached.append("end of the block")
    assert reached == ["end of the block"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # the handlers are back
