"""Ingestion: bad inputs, idempotence, replacement, removal, interruption, and the CLI."""

import shutil
from pathlib import Path

import numpy as np
import pytest

from kb.base import KnowledgeBase
from kb.cli import main
from kb.models import Chunk
from kb.settings import KBSettings
from kb.store import Store
from tests import pdfgen


def _ids(kb: KnowledgeBase, doc_id: str) -> list[str]:
    return sorted(kb.store.chunks.get(where={"doc_id": doc_id}, include=[])["ids"])


def test_bad_inputs_fail_alone_and_store_nothing(tmp_path: Path, settings: KBSettings, docs_dir: Path):
    expected = pdfgen.bad_files(docs_dir)
    big = pdfgen.long_pdf(tmp_path / "huge.pdf", pages=40)
    limit = round(1.2 * max(p.stat().st_size for p in docs_dir.iterdir()) / 1048576, 4)
    assert big.stat().st_size > limit * 1048576
    kb = KnowledgeBase(settings.model_copy(update={"max_file_mb": limit}))
    summary = kb.ingest([docs_dir, big, tmp_path / "missing.pdf"])
    outcome = {Path(f.path).name: f for f in summary.files}
    for name, fragment in expected.items():
        assert outcome[name].status == "failed"
        assert outcome[name].error.startswith(f"{name}: ") and fragment in outcome[name].error
    assert f"over the {limit:g} MB limit" in outcome["huge.pdf"].error
    assert outcome["missing.pdf"].error == "missing.pdf: no such file or folder"
    assert outcome["report.pdf"].status == outcome["manual.pdf"].status == "ingested"
    assert sorted(d.doc_id for d in kb.documents()) == ["manual", "report"]
    stored = {m["doc_id"] for m in kb.store.chunks.get(include=["metadatas"])["metadatas"]}
    assert stored == {"manual", "report"}


def test_cli_prints_one_line_errors_and_exits_non_zero(tmp_path: Path, docs_dir: Path, capsys):
    pdfgen.bad_files(docs_dir)
    code = main(["--store", str(tmp_path / "cli-store"), "ingest", "--quiet", str(docs_dir)])
    out, err = capsys.readouterr()
    assert code == 1
    errors = [line for line in err.splitlines() if line.startswith("error: ")]
    assert (
        len(errors) == 5
        and "error: scan.pdf: no extractable text (scanned image; page 1 skipped: no text OCR could read)" in errors
    )
    assert "Traceback" not in err
    assert "ingested 2 file(s)" in out and "pages/s" in out and "chunks/s" in out
    assert main(["--store", str(tmp_path / "cli-store"), "docs"]) == 0
    listing = capsys.readouterr().out
    assert "report" in listing and "manual" in listing and "scan" not in listing
    assert main(["--store", str(tmp_path / "cli-store"), "remove", "nothing-here"]) == 1
    assert "nothing-here: no such document" in capsys.readouterr().err


def test_reingest_unchanged_is_a_no_op(settings: KBSettings, docs_dir: Path):
    kb = KnowledgeBase(settings)
    kb.ingest([docs_dir])
    before = _ids(kb, "report")
    again = kb.ingest([docs_dir])
    assert {f.status for f in again.files} == {"unchanged"}
    assert _ids(kb, "report") == before


def test_files_embedded_by_another_recipe_are_ingested_again(settings: KBSettings, docs_dir: Path, capsys):
    kb = KnowledgeBase(settings)
    kb.ingest([docs_dir])
    heavier = KnowledgeBase(settings.model_copy(update={"title_weight": 1.0}))
    assert {f.status for f in heavier.ingest([docs_dir]).files} == {"ingested"}
    assert {f.status for f in heavier.ingest([docs_dir]).files} == {"unchanged"}
    assert {d.recipe for d in heavier.store.documents()} == {heavier.settings.recipe}
    capsys.readouterr()
    assert main(["--store", str(settings.store_dir), "docs"]) == 0  # default settings: another recipe
    listing = capsys.readouterr().out
    assert "committed*" in listing and "2 document(s) chunked or embedded by an older recipe" in listing
    # A store written before recipes were recorded: its documents are ingested again, once.
    record = heavier.store.document("report")
    assert record is not None
    heavier.store.docs.delete(ids=["report"])
    heavier.store.docs.add(ids=["report"], embeddings=[[1.0]], metadatas=[record.model_dump(exclude={"recipe"})])
    assert {f.doc_id: f.status for f in heavier.ingest([docs_dir]).files} == {
        "report": "ingested",
        "manual": "unchanged",
    }


def test_changed_file_replaces_its_chunks(settings: KBSettings, docs_dir: Path):
    kb = KnowledgeBase(settings)
    kb.ingest([docs_dir])
    old = _ids(kb, "report")
    pdfgen.report_pdf(docs_dir / "report.pdf", variant="zirconium revision")
    summary = kb.ingest([docs_dir / "report.pdf"])
    assert summary.files[0].status == "ingested"
    new = _ids(kb, "report")
    assert len(new) == kb.store.document("report").chunks
    assert set(new) != set(old)
    hits = kb.search("zirconium revision", k=3)
    assert hits[0].doc_id == "report"
    assert all("(original)" not in h.text for h in kb.search("aurora calibration original", k=8))


def test_remove_deletes_from_every_index(settings: KBSettings, docs_dir: Path):
    kb = KnowledgeBase(settings)
    kb.ingest([docs_dir])
    assert kb.remove("manual")
    assert [d.doc_id for d in kb.documents()] == ["report"]
    assert _ids(kb, "manual") == []
    assert all(h.doc_id != "manual" for h in kb.search("torque wrench pump controller", k=8))
    assert all(h.doc_id != "manual" for h in kb.search("torque wrench", k=8, mode="lexical"))
    assert not kb.remove("manual")


def test_interrupted_ingestion_resumes_without_duplicates(
    tmp_path: Path, settings: KBSettings, docs_dir: Path, monkeypatch: pytest.MonkeyPatch
):
    clean = KnowledgeBase(KBSettings(store_dir=tmp_path / "clean", parse_workers=1))
    clean.ingest([docs_dir])
    expected = {doc: _ids(clean, doc) for doc in ("manual", "report")}

    real_add = Store.add_chunks
    calls = {"n": 0}

    def crash_midway(self, chunks, vectors, content_hash):
        calls["n"] += 1
        if calls["n"] == 2:  # the second document: store half its chunks, then die
            real_add(self, chunks[: len(chunks) // 2], vectors[: len(chunks) // 2], content_hash)
            raise KeyboardInterrupt
        real_add(self, chunks, vectors, content_hash)

    kb = KnowledgeBase(settings)
    monkeypatch.setattr(Store, "add_chunks", crash_midway)
    with pytest.raises(KeyboardInterrupt):
        kb.ingest([docs_dir])
    monkeypatch.setattr(Store, "add_chunks", real_add)

    # the half-stored document is invisible to search, and listed as pending
    status = {d.doc_id: d.status for d in KnowledgeBase(settings).documents()}
    assert status == {"manual": "committed", "report": "pending"}
    assert all(h.doc_id == "manual" for h in KnowledgeBase(settings).search("basalt station humidity", k=8))

    resumed = KnowledgeBase(settings)
    summary = resumed.ingest([docs_dir])
    assert {Path(f.path).name: f.status for f in summary.files} == {"manual.pdf": "unchanged", "report.pdf": "ingested"}
    for doc, ids in expected.items():
        assert _ids(resumed, doc) == ids
    assert resumed.store.chunk_count() == sum(len(v) for v in expected.values())


def test_abandoned_pending_document_is_cleaned_up(settings: KBSettings, docs_dir: Path):
    kb = KnowledgeBase(settings.model_copy(update={"pending_lease_seconds": 0}))
    kb.ingest([docs_dir / "report.pdf"])
    record = kb.store.document("report")
    record.status, record.ingested_at = "pending", 1.0
    kb.store.put_document(record)
    assert kb.repair() == ["report"]
    assert kb.documents() == [] and kb.store.chunk_count() == 0


def test_parallel_parsing_matches_serial(tmp_path: Path, docs_dir: Path):
    shutil.copy(pdfgen.long_pdf(tmp_path / "long.pdf"), docs_dir / "long.pdf")
    serial = KnowledgeBase(KBSettings(store_dir=tmp_path / "one", parse_workers=1))
    parallel = KnowledgeBase(KBSettings(store_dir=tmp_path / "two", parse_workers=2))
    serial.ingest([docs_dir])
    parallel.ingest([docs_dir])
    for doc in ("long", "manual", "report"):
        assert _ids(serial, doc) == _ids(parallel, doc)


def test_stores_that_kept_chunk_text_as_chroma_documents_still_read(settings: KBSettings, docs_dir: Path):
    kb = KnowledgeBase(settings)
    kb.ingest([docs_dir])
    got = kb.store.chunks.get(where={"doc_id": "report"}, include=["metadatas", "embeddings"])
    assert all(m["text"] for m in got["metadatas"])
    # Rewrite the chunks the way earlier versions stored them: the text as the document, not in the metadata.
    old = [{k: v for k, v in m.items() if k != "text"} for m in got["metadatas"]]
    texts = [m["text"] for m in got["metadatas"]]
    kb.store.chunks.upsert(ids=got["ids"], embeddings=got["embeddings"], documents=texts, metadatas=old)
    records = [r for r in kb.store.chunk_records(kb.committed()) if r["doc_id"] == "report"]
    assert sorted(r["text"] for r in records) == sorted(texts)
    vector = kb.embedder.encode([texts[0]])[0]
    assert kb.store.query(vector, 1, ["report"])[0][2] == texts[0]


def test_stored_vectors_mix_the_title_into_each_chunk(settings: KBSettings, docs_dir: Path):
    kb = KnowledgeBase(settings)
    kb.ingest([docs_dir])
    got = kb.store.chunks.get(where={"doc_id": "report"}, include=["metadatas", "embeddings"])
    assert {m["title"] for m in got["metadatas"]} == {"Quarterly Field Report on Sensor Arrays"}
    records = {r["chunk_id"]: r for r in kb.store.chunk_records(kb.committed())}
    chunks = [Chunk.model_validate({**records[i], "regions": []}) for i in got["ids"]]
    alone = kb.embedder.encode([c.embed_text() for c in chunks])
    mixed = kb.embedder.with_title(alone, chunks[0].title, settings.title_weight)
    assert np.allclose(np.asarray(got["embeddings"]), mixed, atol=1e-5)
    assert not np.allclose(mixed, alone, atol=1e-2)
