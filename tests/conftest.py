import os
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kb.base import KnowledgeBase
from kb.settings import KBSettings
from tests import pdfgen


@pytest.fixture
def settings(tmp_path: Path) -> KBSettings:
    return KBSettings(store_dir=tmp_path / "store", parse_workers=1)


@pytest.fixture
def docs_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "docs"
    folder.mkdir()
    pdfgen.report_pdf(folder / "report.pdf")
    pdfgen.manual_pdf(folder / "manual.pdf")
    return folder


def built_store(root: Path, *writers: Callable[[Path], Path]) -> KnowledgeBase:
    """A store under `root` holding the PDFs the writers make in `root/docs`."""
    folder = root / "docs"
    folder.mkdir()
    for write in writers:
        write(folder / f"{write.__name__.removesuffix('_pdf')}.pdf")
    kb = KnowledgeBase(KBSettings(store_dir=root / "store", parse_workers=1))
    summary = kb.ingest([folder])
    assert not summary.failed, summary.failed
    return kb


@pytest.fixture(scope="module")
def shared_kb(tmp_path_factory: pytest.TempPathFactory) -> KnowledgeBase:
    """A store with the report, the manual and a long document, built once per test module for read-only tests."""
    return built_store(tmp_path_factory.mktemp("shared"), pdfgen.report_pdf, pdfgen.manual_pdf, pdfgen.long_pdf)


@pytest.fixture(scope="module")
def plant_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The workbench's store: the plant notes and the report, built once per test module."""
    kb = built_store(tmp_path_factory.mktemp("workbench"), pdfgen.plant_pdf, pdfgen.report_pdf)
    return kb.settings.store_dir


@pytest.fixture
def ui_env(plant_store: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The workbench's environment for AppTest: the plant store; runs, checkpoints, conversations and saved
    settings of this test only; an Ollama URL nothing answers. Returns the test's data folder."""
    from tests.fake_ollama import free_port_url

    monkeypatch.setenv("KB_STORE_DIR", str(plant_store))
    monkeypatch.setenv("AGENT_RUNS_DIR", str(tmp_path / "runs"))
    monkeypatch.setenv("AGENT_CHECKPOINT_PATH", str(tmp_path / "checkpoints.sqlite"))
    monkeypatch.setenv("AGENT_OLLAMA_URL", free_port_url())
    return tmp_path
