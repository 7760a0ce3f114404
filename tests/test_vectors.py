from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from kb.base import KnowledgeBase
from kb.search_settings import SearchSettings
from kb.settings import KBSettings
from kb.vectors import VectorIndex


def _unit(*rows: list[float]) -> np.ndarray:
    m = np.array(rows, dtype=np.float32)
    return m / np.linalg.norm(m, axis=1, keepdims=True)


def test_search_is_exact_best_first_and_ties_keep_row_order() -> None:
    index = VectorIndex(_unit([1, 0], [0, 1], [1, 1], [1, 0], [-1, 0]), "fp")
    got = index.search(np.array([1.0, 0.0]), 3)
    assert [row for row, _ in got] == [0, 3, 2]  # rows 0 and 3 tie: the earlier row first
    assert abs(got[2][1] - np.sqrt(0.5)) < 1e-6
    assert [row for row, _ in index.search(np.array([1.0, 0.0]), 10)] == [0, 3, 2, 1, 4]


def test_search_within_rows_returns_only_those_rows() -> None:
    index = VectorIndex(_unit([1, 0], [0, 1], [1, 1], [1, 0]), "fp")
    assert [row for row, _ in index.search(np.array([1.0, 0.0]), 2, np.array([1, 2]))] == [2, 1]
    assert index.search(np.array([1.0, 0.0]), 2, np.array([], dtype=int)) == []


def test_save_and_load_keep_matrix_and_fingerprint(tmp_path: Path) -> None:
    index = VectorIndex(_unit([1, 0], [0, 1]), "abc")
    index.save(tmp_path / "v.npz")
    loaded = VectorIndex.load(tmp_path / "v.npz")
    assert loaded is not None and loaded.fingerprint == "abc" and np.array_equal(loaded.matrix, index.matrix)
    assert VectorIndex.load(tmp_path / "missing.npz") is None


def test_dense_search_matches_brute_force_and_a_second_view_of_the_store(shared_kb: KnowledgeBase) -> None:
    query = "maintenance interval of the pump"
    lexical = shared_kb.lexical()
    vectors = shared_kb.vectors(lexical)
    assert vectors is not None and len(vectors.matrix) == len(lexical.records)
    assert (shared_kb.settings.bm25_dir / f"{shared_kb.store.chunks.name}.vectors.npz").exists()
    sims = vectors.matrix @ shared_kb.embed([query])[0]
    expected = [lexical.records[int(i)]["chunk_id"] for i in np.argsort(-sims, kind="stable")[:5]]
    # Chunks as the unit and no document preference: the dense ranking itself.
    plain = SearchSettings(unit="chunk", document_weight=0)
    again = KnowledgeBase(KBSettings(store_dir=shared_kb.settings.store_dir, parse_workers=1, search=plain))
    got = again.search(query, k=5, mode="dense")
    assert [h.chunk_id for h in got] == expected
    assert [h.chunk_id for h in again.search(query, k=5, mode="dense")] == expected


def test_missing_vectors_fall_back_to_chroma_without_reading_them_again(
    shared_kb: KnowledgeBase, monkeypatch: pytest.MonkeyPatch
) -> None:
    fresh = KnowledgeBase(KBSettings(store_dir=shared_kb.settings.store_dir, parse_workers=1))
    (shared_kb.settings.bm25_dir / f"{shared_kb.store.chunks.name}.vectors.npz").unlink(missing_ok=True)
    calls = []
    monkeypatch.setattr(fresh.store, "embeddings", lambda ids: calls.append(len(ids)))  # None: one is missing
    first = fresh.search("maintenance interval of the pump", k=3, mode="dense")
    again = fresh.search("maintenance interval of the pump", k=3, mode="dense")
    assert first and [h.chunk_id for h in first] == [h.chunk_id for h in again]  # HNSW answered both
    assert len(calls) == 1
