import os
import sys
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


@pytest.fixture(scope="module")
def shared_kb(tmp_path_factory: pytest.TempPathFactory) -> KnowledgeBase:
    """A store with the report and the manual, built once per test module for read-only tests."""
    root = tmp_path_factory.mktemp("shared")
    folder = root / "docs"
    folder.mkdir()
    pdfgen.report_pdf(folder / "report.pdf")
    pdfgen.manual_pdf(folder / "manual.pdf")
    pdfgen.long_pdf(folder / "long.pdf")
    kb = KnowledgeBase(KBSettings(store_dir=root / "store", parse_workers=1))
    summary = kb.ingest([folder])
    assert not summary.failed, summary.failed
    return kb
