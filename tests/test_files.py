"""kb.files: which files an ingestion takes in, their document names and hashes, and the store's hint file."""

import hashlib
from pathlib import Path

from kb.files import collect, doc_id_for, file_hash, known_hashes, pdf_files, remember_hashes
from tests import pdfgen


def test_folders_expand_to_their_pdfs_sorted_and_missing_paths_fail(tmp_path: Path):
    (tmp_path / "b").mkdir()
    report = pdfgen.report_pdf(tmp_path / "b" / "report.pdf")
    manual = pdfgen.manual_pdf(tmp_path / "Manual.PDF")
    (tmp_path / "notes.txt").write_text("not a PDF")
    assert pdf_files(tmp_path) == [manual, report]
    assert pdf_files(tmp_path / "notes.txt") == [tmp_path / "notes.txt"]  # named directly: taken (and rejected later)
    assert [doc_id_for(p) for p in (report, manual, tmp_path / "notes.txt")] == ["report", "Manual", "notes.txt"]
    files, failed = collect([tmp_path, tmp_path / "missing.pdf"])
    assert files == [manual, report]
    assert [(f.doc_id, f.status, f.error) for f in failed] == [
        ("missing", "failed", "missing.pdf: no such file or folder")
    ]


def test_two_files_with_one_document_name_fail_the_second(tmp_path: Path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first = pdfgen.report_pdf(tmp_path / "a" / "report.pdf")
    second = pdfgen.report_pdf(tmp_path / "b" / "report.pdf", variant="other")
    files, failed = collect([tmp_path])
    assert files == [first]
    assert len(failed) == 1 and failed[0].path == str(second) and failed[0].doc_id == "report"
    assert failed[0].error == f"report.pdf: another file in this batch has the same document name ({first})"
    # The same file named twice (directly and through its folder) is one file, not a clash.
    assert collect([first, tmp_path / "a"]) == ([first], [])


def test_hint_file_round_trips_and_a_bad_one_reads_as_empty(tmp_path: Path):
    pdf = pdfgen.manual_pdf(tmp_path / "manual.pdf")
    assert file_hash(pdf) == hashlib.sha256(pdf.read_bytes()).hexdigest()
    store = tmp_path / "store"
    assert known_hashes(store) == {}
    remember_hashes(store, {"manual": file_hash(pdf)})
    assert known_hashes(store) == {"manual": file_hash(pdf)}
    assert [p.name for p in store.iterdir()] == ["catalogue.json"]  # no partial file left behind
    for bad in ("{not json", "[1, 2]"):
        (store / "catalogue.json").write_text(bad)
        assert known_hashes(store) == {}
