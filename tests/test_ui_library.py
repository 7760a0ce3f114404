"""Headless check of the library page with Streamlit's AppTest."""

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from kb.base import KnowledgeBase
from kb.settings import KBSettings
from ui.uploads import safe_name

APP = str(Path(__file__).resolve().parent.parent / "ui" / "app.py")


@pytest.fixture
def seeded_store(tmp_path: Path, docs_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    store = tmp_path / "ui-store"
    KnowledgeBase(KBSettings(store_dir=store, parse_workers=1)).ingest([docs_dir])
    monkeypatch.setenv("KB_STORE_DIR", str(store))
    monkeypatch.setenv("AGENT_RUNS_DIR", str(tmp_path / "runs"))
    monkeypatch.setenv("AGENT_CHECKPOINT_PATH", str(tmp_path / "checkpoints.sqlite"))
    return store


def test_library_lists_documents_and_searches(seeded_store: Path):
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.switch_page("views/library.py").run()
    assert not at.exception
    assert "Documents (2)" in [s.value for s in at.subheader]
    at.text_input(key="query").input("QX-7731").run()
    assert not at.exception
    texts = [t.value for t in at.text]
    assert any(t.startswith("1. report p.2") for t in texts)
    assert any("QX-7731 | Reading: 42.5" in t for t in texts)


def test_library_marks_documents_made_by_an_older_recipe(seeded_store: Path, monkeypatch: pytest.MonkeyPatch):
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.switch_page("views/library.py").run()
    assert set(at.dataframe[0].value["status"]) == {"committed"}
    monkeypatch.setenv("KB_TITLE_WEIGHT", "0.9")  # the settings the app now runs with make another recipe
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.switch_page("views/library.py").run()
    assert not at.exception
    assert set(at.dataframe[0].value["status"]) == {"committed, older recipe: add again"}


def test_library_marks_pages_read_by_ocr(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    from tests import pdfgen

    store = tmp_path / "ui-store"
    KnowledgeBase(KBSettings(store_dir=store, parse_workers=1)).ingest(
        [pdfgen.mixed_pdf(tmp_path / "mixed.pdf", tmp_path)]
    )
    monkeypatch.setenv("KB_STORE_DIR", str(store))
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.switch_page("views/library.py").run()
    table = at.dataframe[0].value
    assert list(table["OCR pages"]) == ["2"] and list(table["notes"]) == ["page 3 skipped: blank image"]
    at.text_input(key="query").input("basalt station humidity").run()
    assert not at.exception
    assert any(t.value.startswith("1. mixed p.2") and t.value.endswith("[OCR]") for t in at.text)


def test_upload_names_are_sanitised():
    assert safe_name("../../etc/pass wd.PDF") == "pass_wd.pdf"
    assert safe_name("C:\\Users\\me\\report v2.pdf") == "report_v2.pdf"
    assert safe_name("....pdf") == "document.pdf"


def test_remove_asks_first_then_deletes_the_document_and_its_upload(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    from tests import pdfgen

    store = tmp_path / "ui-store"
    uploads = tmp_path / "uploads"  # where the workbench saves uploads: beside the store
    uploads.mkdir()
    upload = pdfgen.report_pdf(uploads / "report.pdf")
    mine = pdfgen.manual_pdf(tmp_path / "manual.pdf")  # a person's own file, ingested from where it lies
    KnowledgeBase(KBSettings(store_dir=store, parse_workers=1)).ingest([upload, mine])
    monkeypatch.setenv("KB_STORE_DIR", str(store))
    monkeypatch.setenv("AGENT_RUNS_DIR", str(tmp_path / "runs"))
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.switch_page("views/library.py").run()
    for doc_id in ("report", "manual"):
        next(s for s in at.selectbox if s.label == "Remove a document").select(doc_id).run()
        next(b for b in at.button if b.label == "Remove…").click().run()
        assert any("Remove " + doc_id in m.value for m in at.markdown)  # the dialog asks first
        assert "Documents (2)" in [s.value for s in at.subheader] or doc_id == "manual"
        next(b for b in at.button if b.label == "Remove").click().run()
        assert not at.exception
        assert f"Removed {doc_id}." in [s.value for s in at.success]
    assert "Documents (0)" in [s.value for s in at.subheader]
    assert not upload.exists()  # the upload went with its document
    assert mine.exists()  # a file outside the uploads folder is never deleted
