"""The knowledge base's public face: ingest, list, remove and search documents."""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from kb.documents import DocumentIndex
from kb.embed import Embedder, get_embedder
from kb.files import remember_hashes
from kb.ingest import Ingestion
from kb.lexical import LexicalIndex
from kb.models import Chunk, DocumentRecord, Hit, IngestSummary, Progress
from kb.parse_pool import ParsePool
from kb.query import SearchQuery
from kb.search import Indexes, Mode, hybrid_search, reading_of
from kb.settings import KBSettings
from kb.store import Store
from kb.vectors import VectorIndex


class KnowledgeBase:
    """One store (embedded or server) with its BM25 index, kept consistent with the committed documents."""

    def __init__(self, settings: KBSettings | None = None):
        self.settings = settings or KBSettings()
        self.store = Store(self.settings)
        self._lexical: LexicalIndex | None = None
        self._vectors: VectorIndex | None = None
        self._vectors_missing = ""  # the fingerprint whose vectors could not all be read (not read again)
        self._documents: tuple[str, DocumentIndex] | None = None  # (fingerprint, index)
        self._lock = threading.RLock()  # guards the BM25 index
        self._ingest_lock = threading.Lock()  # one ingestion at a time; searches go on meanwhile
        # The ingestion loads the model itself, while its parser processes start up.
        self.ingestion = Ingestion(self.store, lambda: self.embedder, self.settings)

    @property
    def embedder(self) -> Embedder:
        s = self.settings
        return get_embedder(s.embed_model, s.embed_dtype, s.model_cache_dir)

    def embed(self, texts: list[str]) -> np.ndarray:
        """Normalised vectors of the texts, by the store's embedding model."""
        return self.embedder.encode(texts)

    @property
    def _lexical_dir(self) -> Path:
        return self.settings.bm25_dir / self.store.chunks.name

    # catalogue -------------------------------------------------------------------------------------
    def documents(self) -> list[DocumentRecord]:
        return self.store.documents()

    def chunk(self, chunk_id: str) -> Chunk | None:
        """A committed chunk by its id, or None. Read from the BM25 index the last search used (the agent asks for
        the chunks of the pages it was just given), so no catalogue read per chunk."""
        lexical = self._last_lexical()
        position = lexical.position.get(chunk_id)
        return None if position is None else _chunk_of(lexical.records[position])

    def following(self, chunk_id: str) -> Chunk | None:
        """The chunk after this one in its document (where a sentence cut at the chunk's end goes on), or None."""
        lexical = self._last_lexical()
        position = lexical.position.get(chunk_id)
        if position is None:
            return None
        record = lexical.records[position]
        after = lexical.by_ordinal.get((record["doc_id"], record["ordinal"] + 1))
        return None if after is None else _chunk_of(lexical.records[after])

    def _last_lexical(self) -> LexicalIndex:
        with self._lock:
            lexical = self._lexical
        return lexical or self.lexical()

    def committed(self) -> dict[str, str]:
        return {d.doc_id: d.content_hash for d in self.store.documents() if d.status == "committed"}

    def remove(self, doc_id: str) -> bool:
        """Delete a document from every index; False when it is unknown."""
        with self._lock:
            if self.store.document(doc_id) is None and not self.store.chunk_count(doc_id):
                return False
            self.store.delete_document(doc_id)
            self.lexical()
            return True

    def repair(self) -> list[str]:
        """Drop documents whose ingestion was abandoned (pending past the lease); returns their ids."""
        return self.ingestion.repair()

    # indexes ---------------------------------------------------------------------------------------
    def lexical(self, committed: dict[str, str] | None = None) -> LexicalIndex:
        """The BM25 index matching the committed documents, loaded or rebuilt from Chroma when stale."""
        committed = self.committed() if committed is None else committed
        fingerprint = hashlib.sha1(json.dumps(sorted(committed.items())).encode()).hexdigest()
        with self._lock:
            if self._lexical is not None and self._lexical.fingerprint == fingerprint:
                return self._lexical
            index = LexicalIndex.load(self._lexical_dir)
            if index is None or index.fingerprint != fingerprint:
                index = LexicalIndex(self.store.chunk_records(committed), fingerprint)
                index.save(self._lexical_dir)
            remember_hashes(self.settings.store_dir, committed)  # also for stores made before the hint existed
            self._lexical = index
            return index

    def vectors(self, lexical: LexicalIndex) -> VectorIndex | None:
        """The exact vector index of the BM25 index's records (see kb.vectors), loaded or read from Chroma when
        stale; None when exact search is off or a vector is missing (search then asks Chroma's HNSW index)."""
        if not self.settings.search.exact_dense:
            return None
        path = self.settings.bm25_dir / f"{self.store.chunks.name}.vectors.npz"
        with self._lock:
            if self._vectors is not None and self._vectors.fingerprint == lexical.fingerprint:
                return self._vectors
            if self._vectors_missing == lexical.fingerprint:
                return None
            index = VectorIndex.load(path)
            if index is None or index.fingerprint != lexical.fingerprint or len(index.matrix) != len(lexical.records):
                matrix = self.store.embeddings([r["chunk_id"] for r in lexical.records])
                if matrix is None:
                    self._vectors_missing = lexical.fingerprint
                    return None
                index = VectorIndex(matrix, lexical.fingerprint)
                index.save(path)
            self._vectors = index
            return index

    def document_index(self, catalogue: list[DocumentRecord], lexical: LexicalIndex) -> DocumentIndex:
        """The cards and first pages of the committed documents, matching the BM25 index's fingerprint."""
        with self._lock:
            if self._documents is None or self._documents[0] != lexical.fingerprint:
                first_pages: dict[str, list[str]] = {}
                for record in lexical.records:  # in document and position order
                    if record["start_page"] == 1 and record.get("kind", "body") == "body":
                        first_pages.setdefault(record["doc_id"], []).append(record["text"])
                committed = [d for d in catalogue if d.status == "committed"]
                texts = {doc: " ".join(parts) for doc, parts in first_pages.items()}
                search = self.settings.search
                index = DocumentIndex(
                    committed,
                    texts,
                    search.first_page_weight,
                    search.plain_weight,
                    search.earlier_year_weight,
                    search.name_words,
                )
                self._documents = (lexical.fingerprint, index)
            return self._documents[1]

    # work ------------------------------------------------------------------------------------------
    def ingest(
        self,
        paths: Sequence[str | Path],
        progress: Callable[[Progress], None] | None = None,
        parsers: ParsePool | None = None,
    ) -> IngestSummary:
        """Ingest files and folders; `parsers`: parser processes started early (ParsePool.early), taken over."""
        try:
            with self._ingest_lock:
                summary = self.ingestion.run([Path(p) for p in paths], progress, parsers)
                self.lexical()
                return summary
        finally:
            if parsers is not None:
                parsers.close()

    def read_query(self, query: str) -> SearchQuery:
        """The query as search reads it: its information need, its hints and what was kept out."""
        return reading_of(query, self.settings.search)

    def search(
        self,
        query: str,
        k: int = 8,
        docs: list[str] | None = None,
        variants: list[str] | None = None,
        neighbours: int = 0,
        mode: Mode = "hybrid",
    ) -> list[Hit]:
        catalogue = self.store.documents()
        committed = {d.doc_id: d.content_hash for d in catalogue if d.status == "committed"}
        lexical = self.lexical(committed)
        indexes = Indexes(
            store=self.store,
            embedder=self.embedder if mode != "lexical" else None,
            lexical=lexical,
            vectors=self.vectors(lexical) if mode != "lexical" else None,
            documents=self.document_index(catalogue, lexical),
            committed=committed,
            everything_committed=len(committed) == len(catalogue),
        )
        return hybrid_search(indexes, self.settings.search, query, k, docs, variants, neighbours, mode)


def _chunk_of(record: dict[str, Any]) -> Chunk:
    record = dict(record)
    record.pop("content_hash", None)
    return Chunk(**record)
